/**
 * The {@code dds} WAN link: {@link kr.c4i.gateway.dds.link.DdsWanLink} implements
 * {@link kr.c4i.gateway.core.link.WanLink} over {@link kr.c4i.gateway.dds} on a WAN domain of its own, with unicast
 * discovery to the peer gateways' addresses and no multicast.
 *
 * <p>Two topics: {@code gateway/wan/frames} ({@code gateway::WanFrame}: sender, receiver, the sender link's
 * incarnation, a per-sender frame counter and the frame's bytes), in the partition named after the receiving site,
 * so each gateway's reader gets only the frames addressed to it; and {@code gateway/wan/acks}
 * ({@code gateway::WanAck}: the acknowledging site, the frame sender, its incarnation, and the last frame counter
 * received), in the partition named after the frame sender.
 */
@NullMarked
package kr.c4i.gateway.dds.link;

import org.jspecify.annotations.NullMarked;
