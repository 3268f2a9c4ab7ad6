/** The transport SPI the bridge programs against. */
@NullMarked
package kr.c4i.gateway.core.transport;

import org.jspecify.annotations.NullMarked;
