package kr.c4i.gateway.wan.relay;

import static kr.c4i.gateway.wan.relay.S1Gateway.A;
import static kr.c4i.gateway.wan.relay.S1Gateway.CREATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.frame.DataFrame;
import kr.c4i.gateway.wan.frame.FrameFormatException;

/**
 * A link that spends more of its rate on urgent frames (the norm link's proactive parity) gets urgent messages in
 * frames of their own, so the extra is not spent on the routine messages that would fill the frame behind them; a
 * link that spends the same on every frame gets them packed together. On a real store, as the engine runs.
 */
class UrgentFramesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> ROUTINE = List.of("r-1", "r-2", "r-3", "r-4", "r-5", "r-6");

    @Test
    void aLinkThatSpendsMoreOnUrgentFramesCarriesUrgentMessagesInFramesOfTheirOwn() throws Exception {
        List<Carried> frames = sendFlashAmongRoutine(Precedence.IMMEDIATE);

        assertThat(frames).filteredOn(f -> f.ids().contains("f-1"))
                .containsExactly(new Carried(Precedence.FLASH, List.of("f-1")));
        assertThat(frames).filteredOn(f -> !f.ids().contains("f-1"))
                .allSatisfy(f -> assertThat(f.urgency()).isEqualTo(Precedence.ROUTINE))
                .flatMap(Carried::ids).containsExactlyInAnyOrderElementsOf(ROUTINE);
    }

    @Test
    void aLinkThatSpendsTheSameOnEveryFrameGetsThemPackedTogether() throws Exception {
        List<Carried> frames = sendFlashAmongRoutine(null);

        assertThat(frames).singleElement().satisfies(f -> {
            assertThat(f.urgency()).isEqualTo(Precedence.FLASH);
            assertThat(f.ids()).hasSize(ROUTINE.size() + 1).contains("f-1").containsAll(ROUTINE);
        });
    }

    /**
     * Stores six ROUTINE messages with a FLASH among them at s1, starts its engine on a link that spends more on
     * frames from {@code urgentFrom} (null: the same on all), and returns the data frames it sent once they carried
     * all seven.
     */
    private static List<Carried> sendFlashAmongRoutine(@Nullable Precedence urgentFrom) throws Exception {
        try (S1Gateway s1 = new S1Gateway(CustodyLog.off()); RelayEngine engine = s1.engine()) {
            s1.link.urgentFrom = urgentFrom;
            List<Envelope> batch = new ArrayList<>();
            for (String id : ROUTINE) {
                batch.add(message(id, Precedence.ROUTINE));
                if (id.equals("r-3")) {
                    batch.add(message("f-1", Precedence.FLASH));
                }
            }
            assertThat(engine.ingest(batch)).hasSize(batch.size());
            engine.start();
            await().atMost(WAIT)
                    .until(() -> carried(s1).stream().mapToInt(f -> f.ids().size()).sum() == batch.size());
            return carried(s1);
        }
    }

    /** A data frame as the link got it: its urgency and the ids of its messages. */
    private record Carried(Precedence urgency, List<String> ids) {
    }

    private static List<Carried> carried(S1Gateway s1) throws FrameFormatException {
        List<Carried> data = new ArrayList<>();
        for (RecordingLink.Sent sent : List.copyOf(s1.link.sent)) {
            if (s1.codec.decode(sent.frame()) instanceof DataFrame frame) {
                data.add(new Carried(sent.urgency(),
                        frame.envelopes().stream().map(RelayedEnvelope::messageId).toList()));
            }
        }
        return data;
    }

    private static Envelope message(String id, Precedence precedence) {
        return new Envelope(id, A, "SITREP", precedence, "UNCLASSIFIED", CREATED,
                ("MSGID/SITREP/" + id + "//").getBytes(StandardCharsets.UTF_8));
    }
}
