package kr.c4i.gateway.bridge.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.MutableClock;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.tracing.MessageTracing;

class InboxWriterTest {

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MutableClock clock = new MutableClock();
    private InboxWriter writer;

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        writer = new InboxWriter(db.dataSource(), new BridgeMetrics(registry, TransportKind.JMS),
                new CustodyLog("b", "jms"), MessageTracing.off(), clock);
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private static Envelope envelope(int i, Instant created) {
        return new Envelope("m-" + i, NodeId.of("a"), "SITREP", Precedence.FLASH, "SECRET", created,
                ("MSGID/SITREP/X/" + i + "//").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void batchIsWrittenWithEveryEnvelopeField() throws Exception {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS).minusMillis(5);
        writer.deliver(List.of(envelope(1, created), envelope(2, created)));

        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(2);
        assertThat(db.strings("SELECT concat_ws('|', origin_node, kmtf_type, precedence, classification, "
                + "convert_from(body, 'UTF8'), transport) FROM inbox WHERE message_id = 'm-1'"))
                .containsExactly("a|SITREP|FLASH|SECRET|MSGID/SITREP/X/1//|jms");
        assertThat(db.strings("SELECT created_at = '" + created + "'::timestamptz FROM inbox WHERE message_id = 'm-1'"))
                .containsExactly("t");
        assertThat(registry.get("gateway.delivery.latency").timer().count()).isEqualTo(2);
    }

    @Test
    void eachRowKeepsTheHopsItsMessagePassed() throws Exception {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusMillis(400);
        Envelope relayed = envelope(1, created)
                .withHop(HopTrace.Hop.node(NodeId.of("a"), HopTrace.Action.SENT, created.plusMillis(3)))
                .withHop(HopTrace.Hop.site(SiteId.of("s1"), HopTrace.Action.RELAYED, created.plusMillis(17)))
                .withHop(HopTrace.Hop.site(SiteId.of("s2"), HopTrace.Action.RELAYED, created.plusMillis(340)));
        writer.deliver(List.of(relayed, envelope(2, created)));

        assertThat(db.strings("SELECT trace FROM inbox WHERE message_id = 'm-1'"))
                .containsExactly("node a sent +3ms; site s1 relayed +17ms; site s2 relayed +340ms");
        assertThat(db.strings("SELECT trace FROM inbox WHERE message_id = 'm-2'")).as("a message that carried none")
                .containsExactly("");
    }

    @Test
    void redeliveredMessagesAreAbsorbedNotDuplicated() throws Exception {
        Instant created = Instant.now();
        List<Envelope> first = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            first.add(envelope(i, created));
        }
        writer.deliver(first);
        List<Envelope> overlapping = new ArrayList<>(first.subList(50, 100));
        overlapping.add(envelope(100, created));
        overlapping.add(envelope(100, created));
        writer.deliver(overlapping);

        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(101);
        assertThat(registry.get("gateway.inbox.inserted").counter().count()).isEqualTo(101);
        assertThat(registry.get("gateway.inbox.duplicates").counter().count()).isEqualTo(51);
        assertThat(db.count("SELECT count(DISTINCT m.id) FROM custody_log, unnest(message_ids) AS m(id) "
                + "WHERE event = 'delivered'")).as("a redelivery absorbed is no custody step").isEqualTo(101);
        assertThat(db.count("SELECT count(*) FROM custody_log, unnest(message_ids)")).isEqualTo(101);
        assertThat(db.count("SELECT count(*) FROM inbox i JOIN custody_log c ON c.id = i.delivered_in "
                + "WHERE c.found_through = 'inbox' AND i.message_id = ANY (c.message_ids)"))
                .as("each row names the step that delivered it").isEqualTo(101);
        assertThat(db.count("SELECT count(*) FROM custody_log WHERE earlier IS NULL AND found_through IS NULL"))
                .as("none of them in the message id index").isZero();

        long rows = db.count("SELECT count(*) FROM custody_log");
        writer.deliver(first.subList(0, 10));
        assertThat(db.count("SELECT count(*) FROM custody_log")).as("a batch wholly absorbed is no step").isEqualTo(rows);
    }

    @Test
    void aBatchRolledBackAtCommitLeavesNoStepLoggedAndOneThatCommitsLogsEachMessage() throws Exception {
        db.execute("CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS "
                + "$$ BEGIN RAISE EXCEPTION 'the inbox refuses it at commit (test)'; END $$");
        db.execute("CREATE CONSTRAINT TRIGGER inbox_refused_at_commit AFTER INSERT ON inbox "
                + "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()");
        List<Envelope> batch = List.of(envelope(1, Instant.now()), envelope(2, Instant.now()));

        assertThatThrownBy(() -> writer.deliver(batch)).isInstanceOf(SQLException.class)
                .hasMessageContaining("refuses it at commit");

        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(db.count("SELECT count(*) FROM custody_log")).isZero();
        db.execute("DROP TRIGGER inbox_refused_at_commit ON inbox");
        writer.deliver(batch);
        assertThat(db.strings("SELECT concat_ws(' ', event, hop, array_to_string(peer, ','), link, precedence, "
                + "array_to_string(message_ids, ',')) FROM custody_log"))
                .containsExactly("delivered b a jms FLASH m-1,m-2");
    }

    @Test
    void commitIsSynchronousEvenWhereTheServerDefaultIsAsynchronous() throws Exception {
        // What the writer's own transaction runs with, seen from inside it by a trigger.
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE commit_setting (setting text)");
            s.execute("""
                    CREATE FUNCTION record_commit_setting() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        INSERT INTO commit_setting VALUES (current_setting('synchronous_commit'));
                        RETURN NULL;
                    END $$""");
            s.execute("CREATE TRIGGER record_commit_setting AFTER INSERT ON inbox FOR EACH STATEMENT "
                    + "EXECUTE FUNCTION record_commit_setting()");
        }
        assertThat(db.strings("SHOW synchronous_commit")).as("zonky's test server commits asynchronously")
                .containsExactly("off");

        writer.deliver(List.of(envelope(1, Instant.now())));

        assertThat(db.strings("SELECT setting FROM commit_setting")).containsExactly("on");
    }

    @Test
    void aBatchThatMeetsMessagesAlreadyThereIsWrittenWithoutThemAndTheNextOnesSkipThemUntilTheCoolDownEnds()
            throws Exception {
        Instant created = Instant.now();
        assertThat(writer.copies()).isTrue();
        writer.deliver(List.of(envelope(1, created), envelope(2, created)));
        assertThat(writer.copies()).as("nothing met so far").isTrue();

        writer.deliver(List.of(envelope(2, created), envelope(3, created)));

        assertThat(db.strings("SELECT string_agg(message_id, ',' ORDER BY message_id) FROM inbox"))
                .containsExactly("m-1,m-2,m-3");
        assertThat(registry.get("gateway.inbox.duplicates").counter().count()).isEqualTo(1);
        assertThat(db.strings("SELECT array_to_string(message_ids, ',') FROM custody_log ORDER BY id"))
                .as("the copy that failed left no step; the insert after it logged only the new message")
                .containsExactly("m-1,m-2", "m-3");
        assertThat(writer.copies()).isFalse();
        clock.advance(InboxWriter.CONFLICT_COOL_DOWN.minusMillis(1));
        assertThat(writer.copies()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(writer.copies()).isTrue();
    }

    @Test
    void aMessageTwiceInOneCopiedBatchIsWrittenOnceAndCountedOnceAsADuplicate() throws Exception {
        Instant created = Instant.now();

        writer.deliver(List.of(envelope(7, created), envelope(8, created), envelope(7, created)));

        assertThat(db.strings("SELECT string_agg(message_id, ',' ORDER BY message_id) FROM inbox"))
                .containsExactly("m-7,m-8");
        assertThat(registry.get("gateway.inbox.duplicates").counter().count()).isEqualTo(1);
        assertThat(writer.copies()).as("a repeat inside the batch is no conflict").isTrue();
        assertThat(db.count("SELECT count(*) FROM inbox i JOIN custody_log c ON c.id = i.delivered_in "
                + "WHERE i.message_id = ANY (c.message_ids)")).as("each copied row names its step").isEqualTo(2);
    }

    @Test
    void twoWritersDeliveringTheSameBatchesAtOnceAsANodePairDoesStoreEachMessageOnce() throws Exception {
        SimpleMeterRegistry otherRegistry = new SimpleMeterRegistry();
        InboxWriter other = new InboxWriter(db.dataSource(), new BridgeMetrics(otherRegistry, TransportKind.JMS),
                new CustodyLog("b2", "jms"));
        Instant created = Instant.now();
        List<List<Envelope>> batches = new ArrayList<>();
        for (int b = 0; b < 40; b++) {
            List<Envelope> batch = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                // Each batch in another order, as two transports' arrivals come.
                batch.add(envelope(b * 50 + ((i * 7 + b) % 50), created));
            }
            batches.add(batch);
        }
        ExecutorService pair = Executors.newFixedThreadPool(2);
        try {
            List<Future<Void>> done = pair.invokeAll(List.<Callable<Void>>of(() -> {
                for (List<Envelope> batch : batches) {
                    writer.deliver(batch);
                }
                return null;
            }, () -> {
                for (List<Envelope> batch : batches.reversed()) {
                    other.deliver(batch);
                }
                return null;
            }), 2, TimeUnit.MINUTES);
            for (Future<Void> f : done) {
                f.get();
            }
        }
        finally {
            pair.shutdownNow();
        }

        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(2_000);
        assertThat(registry.get("gateway.inbox.inserted").counter().count()
                + otherRegistry.get("gateway.inbox.inserted").counter().count()).isEqualTo(2_000);
        assertThat(db.count("SELECT count(*) FROM custody_log, unnest(message_ids)"))
                .as("each message delivered once in the log, by one of the two").isEqualTo(2_000);
    }
}
