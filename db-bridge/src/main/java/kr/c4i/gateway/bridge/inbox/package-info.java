/** The receiving side: messages from the transport checked and written to the inbox, or quarantined. */
@NullMarked
package kr.c4i.gateway.bridge.inbox;

import org.jspecify.annotations.NullMarked;
