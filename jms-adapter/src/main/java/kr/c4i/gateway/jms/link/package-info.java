/**
 * The {@code jms} WAN link: site gateways exchange opaque frames through Artemis. Each site's broker (embedded by
 * default) holds its inbound queue {@code kmtf.wan.<site>}; a gateway sends a frame by producing it straight to the
 * peer's broker over the WAN, with transport windows sized to about one second of the link budget so the backlog
 * stays in the gateway's store, where a FLASH message can overtake it. Public: {@link
 * kr.c4i.gateway.jms.link.JmsWanLink} and {@link kr.c4i.gateway.jms.link.JmsLinkSettings}.
 */
@NullMarked
package kr.c4i.gateway.jms.link;

import org.jspecify.annotations.NullMarked;
