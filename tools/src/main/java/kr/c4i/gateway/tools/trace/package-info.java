/** {@code gateway trace}: an operator's command that says where a message is, from the custody logs it can read. */
@NullMarked
package kr.c4i.gateway.tools.trace;

import org.jspecify.annotations.NullMarked;
