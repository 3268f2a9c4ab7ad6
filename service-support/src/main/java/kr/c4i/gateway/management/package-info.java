/** The management endpoints of every gateway service: their credential and their shared defaults. */
@NullMarked
package kr.c4i.gateway.management;

import org.jspecify.annotations.NullMarked;
