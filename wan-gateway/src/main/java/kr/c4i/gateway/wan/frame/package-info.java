/**
 * WAN frames: the bytes a gateway hands its link. A DATA frame carries relayed envelopes, compressed as one block with
 * a preset dictionary of KMTF text; a RECEIPT frame tells the sender which DATA frames are stored durably. The format
 * is in docs/wan-gateway.md, "Frames".
 */
@NullMarked
package kr.c4i.gateway.wan.frame;

import org.jspecify.annotations.NullMarked;
