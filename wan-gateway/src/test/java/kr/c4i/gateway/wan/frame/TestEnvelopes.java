package kr.c4i.gateway.wan.frame;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/** Realistic relayed envelopes of catalogue types, reproducible from a seed. */
final class TestEnvelopes {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final String[] WORDS = { "FRIENDLY", "FORCES", "HOLD", "LINE", "PHASE", "ALPHA", "ENEMY",
            "ARTILLERY", "FIRE", "GRID", "48SUD", "0912", "3344", "REPORT", "AT", "NO", "CHANGE", "VEHICLES",
            "SUPPLY", "CONVOY", "DELAYED", "BY", "WEATHER", "RIVER", "CROSSING", "COMPLETE", "/" };

    private final SplittableRandom random;

    TestEnvelopes(long seed) {
        this.random = new SplittableRandom(seed);
    }

    List<RelayedEnvelope> list(int count, int minBody, int maxBody) {
        List<RelayedEnvelope> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(next(minBody + random.nextInt(maxBody - minBody + 1)));
        }
        return list;
    }

    RelayedEnvelope next(int bodyBytes) {
        MessageType type = CATALOGUE.types().get(random.nextInt(CATALOGUE.size()));
        String messageId = new UUID(random.nextLong(), random.nextLong()).toString();
        Instant createdAt = Instant.ofEpochSecond(1_790_000_000L + random.nextInt(1_000_000),
                random.nextInt(1_000_000_000));
        NodeId origin = NodeId.of("node-" + (char) ('a' + random.nextInt(4)));
        Envelope envelope = new Envelope(messageId, origin, type.id(), Precedence.values()[random.nextInt(4)],
                "UNCLASSIFIED", createdAt, body(type, bodyBytes), trace(origin, createdAt));
        return RelayedEnvelope.of(envelope, List.of(SiteId.of("seoul"), SiteId.of("daejeon")),
                Set.of(SiteId.of("busan")));
    }

    /**
     * The trace such a message has when it leaves daejeon: its node's hop and the two sites' (times from the creation
     * time, so the random sequence, and with it every other field, stays what it was before envelopes had traces).
     */
    private static HopTrace trace(NodeId origin, Instant createdAt) {
        long millis = createdAt.getNano() / 1_000_000;
        return HopTrace.EMPTY.with(Hop.node(origin, Action.SENT, createdAt.plusMillis(millis % 20)))
                .with(Hop.site(SiteId.of("seoul"), Action.RELAYED, createdAt.plusMillis(20 + millis % 300)))
                .with(Hop.site(SiteId.of("daejeon"), Action.RELAYED, createdAt.plusMillis(400 + millis * 7)));
    }

    private byte[] body(MessageType type, int size) {
        StringBuilder narrative = new StringBuilder();
        while (narrative.length() < Math.max(8, size - 60)) {
            narrative.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        String text = new KmtfMessageBuilder().classification("UNCLASSIFIED").msgid(type.id(), "2DIV", "17")
                .set("DTG", "211430ZNOV2026").freeText("NARR", "X " + narrative.toString().strip() + " X").build()
                .render();
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
