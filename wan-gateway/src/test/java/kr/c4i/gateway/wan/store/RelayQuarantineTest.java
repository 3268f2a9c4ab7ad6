package kr.c4i.gateway.wan.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

class RelayQuarantineTest {

    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00.654321Z");
    private static final Instant CREATED = Instant.parse("2026-11-22T08:00:00.123456Z");

    private static StoreDatabase db;

    private final RelayQuarantine quarantine = new RelayQuarantine(db.dataSource(), Clock.fixed(NOW, ZoneOffset.UTC),
            CustodyLog.off());

    @BeforeAll
    static void startDatabase() throws Exception {
        db = new StoreDatabase();
    }

    @AfterAll
    static void stopDatabase() throws Exception {
        db.close();
    }

    @BeforeEach
    void emptyQuarantine() throws Exception {
        db.execute("TRUNCATE relay_quarantine");
    }

    @Test
    void keepsEveryFieldAndTheBodyAsItCame() throws Exception {
        Envelope envelope = new Envelope("msg-ü-1", NodeId.of("node-a"), "ZZNEW", Precedence.IMMEDIATE,
                "SECRET//REL KOR", CREATED, "위치 보고/ÄÖ ✓//".getBytes(StandardCharsets.UTF_8));

        assertThat(quarantine.keep(List.of(envelope), RelayQuarantine.UNKNOWN_TYPE)).containsExactly("msg-ü-1");

        assertThat(db.strings("SELECT concat_ws(' | ', message_id, origin_node, kmtf_type, precedence, classification, "
                + "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), convert_from(body, 'UTF8'), "
                + "reason, to_char(quarantined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')) "
                + "FROM relay_quarantine")).containsExactly("msg-ü-1 | node-a | ZZNEW | 1 | SECRET//REL KOR | "
                        + "2026-11-22 08:00:00.123456 | 위치 보고/ÄÖ ✓// | unknown-type | 2026-11-22 09:00:00.654321");
    }

    @Test
    void keepsTheTraceAsItCame() throws Exception {
        HopTrace sent = HopTrace.EMPTY.with(Hop.node(NodeId.of("node-a"), Action.SENT, CREATED.plusMillis(3)));

        quarantine.keep(List.of(envelope("m-1", "traced").withTrace(sent), envelope("m-2", "untraced")),
                RelayQuarantine.UNKNOWN_TYPE);

        assertThat(db.strings("SELECT message_id || '=' || trace FROM relay_quarantine ORDER BY message_id"))
                .containsExactly("m-1=node node-a sent +3ms", "m-2=");
    }

    @Test
    void keepsTheTraceContextAsItCame() throws Exception {
        TraceParent context = new TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

        quarantine.keep(List.of(envelope("m-1", "traced").withTraceParent(context), envelope("m-2", "untraced")),
                RelayQuarantine.UNKNOWN_TYPE);

        assertThat(db.strings("SELECT message_id || '=' || coalesce(trace_parent, 'NULL') FROM relay_quarantine "
                + "ORDER BY message_id")).containsExactly("m-1=" + context.value(), "m-2=NULL");
    }

    @Test
    void aMessageOfferedAgainIsAbsorbed() throws Exception {
        Envelope first = envelope("m-1", "first");
        quarantine.keep(List.of(first), RelayQuarantine.UNKNOWN_TYPE);

        // Again in a later batch, twice within one batch, beside a new one: one row each, the first body kept.
        var kept = quarantine.keep(List.of(envelope("m-1", "again"), envelope("m-2", "new"), envelope("m-2", "new")),
                RelayQuarantine.UNKNOWN_TYPE);

        assertThat(kept).containsExactly("m-2");
        assertThat(db.strings("SELECT message_id || '=' || convert_from(body, 'UTF8') FROM relay_quarantine "
                + "ORDER BY message_id")).containsExactly("m-1=first", "m-2=new");
    }

    @Test
    void aFailedBatchKeepsNothing() throws Exception {
        // A constraint the test adds refuses the second message: the first, written before it, goes back too.
        db.execute("ALTER TABLE relay_quarantine ADD CONSTRAINT test_no_m2 CHECK (message_id <> 'm-2')");
        try {
            assertThatThrownBy(() -> quarantine.keep(List.of(envelope("m-1", "a"), envelope("m-2", "b")),
                    RelayQuarantine.UNKNOWN_TYPE)).isInstanceOf(SQLException.class);

            assertThat(db.count("SELECT count(*) FROM relay_quarantine")).isZero();
        }
        finally {
            db.execute("ALTER TABLE relay_quarantine DROP CONSTRAINT test_no_m2");
        }
    }

    private static Envelope envelope(String id, String body) {
        return new Envelope(id, NodeId.of("node-a"), "ZZNEW", Precedence.ROUTINE, "UNCLASSIFIED", CREATED,
                body.getBytes(StandardCharsets.UTF_8));
    }
}
