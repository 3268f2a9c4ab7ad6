/** The {@code gateway.*} properties, and how a value the transports refuse is reported. */
@NullMarked
package kr.c4i.gateway.bridge.config;

import org.jspecify.annotations.NullMarked;
