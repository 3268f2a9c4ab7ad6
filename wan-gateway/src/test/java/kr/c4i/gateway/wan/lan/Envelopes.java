package kr.c4i.gateway.wan.lan;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/** Messages for the LAN side tests. */
final class Envelopes {

    static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    /** RELIABLE, TRANSIENT_LOCAL. */
    static final MessageType SITREP = CATALOGUE.find("SITREP").orElseThrow();

    private Envelopes() {
    }

    static Envelope sitrep(String messageId, NodeId origin) {
        byte[] body = ("EXER/ULCHI FREEDOM//\nMSGID/SITREP/1군단/" + messageId
                + "//\nRMKS/적 기갑 대대 이동 중//").getBytes(StandardCharsets.UTF_8);
        // JMS carries createdAt in microseconds.
        return new Envelope(messageId, origin, SITREP.id(), SITREP.defaultPrecedence(), "SECRET",
                Instant.now().truncatedTo(ChronoUnit.MICROS), body);
    }

    /** A message that came from {@code from} to {@code to} over the WAN. */
    static RelayedEnvelope relayed(Envelope envelope, SiteId from, SiteId to) {
        return RelayedEnvelope.of(envelope, List.of(from, to), Set.of(to));
    }
}
