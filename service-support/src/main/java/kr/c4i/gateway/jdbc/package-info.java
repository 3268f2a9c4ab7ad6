/** Database work both services do alike: transactions whose commit is durable when custody passes on it. */
@NullMarked
package kr.c4i.gateway.jdbc;

import org.jspecify.annotations.NullMarked;
