package kr.c4i.gateway.wan.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

class CopyTest {

    @Test
    void estimateCountsEveryHeaderFieldInUtf8BytesAndTheSites() {
        String id = "msg-ü-위치-\uD83D\uDEA9";
        String origin = "node-a";
        String type = "POSREP";
        String classification = "SECRET//REL KOR 한국";
        byte[] body = "MSGID/POSREP//".getBytes(StandardCharsets.UTF_8);
        RelayedEnvelope relayed = RelayedEnvelope.of(new Envelope(id, NodeId.of(origin), type, Precedence.FLASH,
                classification, Instant.parse("2026-11-23T08:00:00Z"), body), List.of(SiteId.of("alpha")),
                Set.of(SiteId.of("bravo"), SiteId.of("charlie")));

        int headers = utf8(id) + utf8(origin) + utf8(type) + utf8(classification);
        int sites = "alpha,".length() + "bravo,".length() + "charlie,".length();

        assertThat(utf8(id)).as("ü 2, 위치 3 each, the flag 4 bytes").isEqualTo(4 + 2 + 1 + 6 + 1 + 4);
        assertThat(Copy.estimateBytes(relayed)).isEqualTo(24 + body.length + headers + sites);
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
