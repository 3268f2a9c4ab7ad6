package kr.c4i.gateway.wan.frame;

/**
 * One DATA frame the packer built from the first candidates it was given.
 *
 * @param frame the frame's bytes, ready for the link
 * @param envelopes how many of the candidates, from the first, it carries
 * @param blockBytes the size of its envelopes before compression
 */
public record PackedFrame(byte[] frame, int envelopes, int blockBytes) {
}
