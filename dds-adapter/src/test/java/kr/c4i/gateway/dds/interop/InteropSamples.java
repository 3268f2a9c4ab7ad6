package kr.c4i.gateway.dds.interop;

import java.util.List;
import java.util.zip.CRC32;

import kr.c4i.gateway.dds.transport.KmtfTypes;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The deterministic sample sequence every side of the interop tests writes and checks: the same formulas are in
 * {@code src/test/interop/cyclone/kmtf_peer.c} and {@code src/test/interop/fastdds/kmtf_peer.cpp} (see the README
 * there), so a receiver knows sample {@code i} field by field from its origin and number alone.
 */
final class InteropSamples {

    static final List<String> CLASSIFICATIONS = List.of("UNCLASSIFIED", "II급 비밀", "");
    static final int MAX_BODY = 1201;

    private InteropSamples() {
    }

    /** Sample {@code i} (from 1) written by {@code origin}. */
    static KmtfMessageSample sample(String origin, int i) {
        long created = 1_700_000_000_000_000_000L + i * 1_000_003L;
        int length = (i * 97) % MAX_BODY;
        byte[] body = new byte[length];
        for (int k = 0; k < length; k++) {
            body[k] = (byte) (i * 31 + k * 7);
        }
        return new KmtfMessageSample("%s-%06d".formatted(origin, i), origin, "SITREP",
                Precedence.valueOf(KmtfTypes.PRECEDENCE_ENUMERATORS.get(i % 4)), CLASSIFICATIONS.get(i % 3), created,
                i, created + 250_000 + i, body, trace(origin, i), traceParent(i));
    }

    /** The trace text of sample {@code i}: none, the origin's hop, or that and a site's. */
    static String trace(String origin, int i) {
        return switch (i % 3) {
            case 0 -> "";
            case 1 -> "node %s sent +%dms".formatted(origin, i % 10);
            default -> "node %s sent +%dms; site s%d relayed +%dms".formatted(origin, i % 10, i % 4, i * 3);
        };
    }

    /**
     * The traceparent text of sample {@code i}: none for every fourth, else {@code i} in its trace and parent ids,
     * sampled when {@code i} is odd.
     */
    static String traceParent(int i) {
        return (i % 4 == 0) ? "" : "00-4bf92f3577b34da6a3ce929d%08x-%016x-%02x".formatted(i, i, i % 2);
    }

    /**
     * What a peer prints for one received sample: {@code SAMPLE} and twelve tab-separated fields, the body reduced
     * to its length and CRC-32, the trace and the traceparent last.
     */
    record PeerLine(String messageId, String origin, String messageType, int precedence, String classification,
            long createdAtNanos, long seq, long sentAtNanos, int bodyLength, String bodyCrc32, String trace,
            String traceParent) {

        static PeerLine parse(String line) {
            String[] f = line.split("\t", -1);
            if (f.length != 13 || !f[0].equals("SAMPLE")) {
                throw new AssertionError("Malformed peer sample line: " + line);
            }
            return new PeerLine(f[1], f[2], f[3], Integer.parseInt(f[4]), f[5], Long.parseLong(f[6]),
                    Long.parseUnsignedLong(f[7]), Long.parseLong(f[8]), Integer.parseInt(f[9]), f[10], f[11], f[12]);
        }

        static PeerLine of(KmtfMessageSample s) {
            return new PeerLine(s.messageId(), s.origin(), s.messageType(),
                    KmtfTypes.PRECEDENCE_ENUMERATORS.indexOf(s.precedence().name()), s.classification(),
                    s.createdAtNanos(), s.seq(), s.sentAtNanos(), s.body().length, crc32(s.body()), s.trace(),
                    s.traceParent());
        }
    }

    static String crc32(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return "%08x".formatted(crc.getValue());
    }
}
