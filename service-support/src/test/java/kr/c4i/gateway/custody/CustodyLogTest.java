package kr.c4i.gateway.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * How a transaction's steps become the log's rows, on a real PostgreSQL with the table as both services' migrations
 * leave it (the columns the writer fills).
 */
class CustodyLogTest {

    private static EmbeddedPostgres postgres;
    private static DataSource dataSource;

    private final CustodyLog log = new CustodyLog("s1", "dds");

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        dataSource = postgres.getPostgresDatabase();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    @BeforeEach
    void aFreshLog() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS custody_log, custody_forward");
            s.execute("""
                    CREATE TABLE custody_log (
                        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        at timestamptz NOT NULL DEFAULT clock_timestamp(),
                        event text NOT NULL, hop text NOT NULL, peer text[], link text, precedence text, detail text,
                        message_ids text[] NOT NULL, origin text, forwarded_as text, earlier bigint[],
                        found_through text, ids_bloom bytea)""");
            s.execute("CREATE TABLE custody_forward (log_id bigint PRIMARY KEY)");
        }
    }

    @Test
    void interleavedStepsGoIntoOneRowEachAndEachStepLearnsItsRow() throws SQLException {
        CustodyLog.Entries steps = log.entries();
        // A batch's copies for two routes, the routes taking turns, and a drop with its reason in between.
        steps.add(CustodyEvent.STORED, "m1", List.of("s2"), Precedence.ROUTINE, "lan");
        steps.add(CustodyEvent.STORED, "m1", List.of("@lan"), Precedence.ROUTINE, "lan");
        steps.add(CustodyEvent.STORED, "m2", List.of("s2"), Precedence.ROUTINE, "lan");
        steps.add(CustodyEvent.DROPPED, "m0", List.of("s2"), Precedence.ROUTINE, "superseded");
        steps.add(CustodyEvent.STORED, "m2", List.of("@lan"), Precedence.ROUTINE, "lan");
        steps.add(CustodyEvent.STORED, "m3", List.of("s2"), Precedence.ROUTINE, "lan");
        // Another precedence is another row, as is another detail.
        steps.add(CustodyEvent.STORED, "m4", List.of("s2"), Precedence.FLASH, "lan");
        steps.add(CustodyEvent.STORED, "m5", List.of("s2"), Precedence.ROUTINE, "from s3");

        CustodyLog.Written written = write(steps);

        List<Row> rows = rows();
        assertThat(rows).extracting(Row::event, Row::peer, Row::precedence, Row::detail, Row::ids).containsExactly(
                tuple("stored", "s2", "ROUTINE", "lan", List.of("m1", "m2", "m3")),
                tuple("stored", "@lan", "ROUTINE", "lan", List.of("m1", "m2")),
                tuple("dropped", "s2", "ROUTINE", "superseded", List.of("m0")),
                tuple("stored", "s2", "FLASH", "lan", List.of("m4")),
                tuple("stored", "s2", "ROUTINE", "from s3", List.of("m5")));
        long toS2 = rows.get(0).id();
        long toLan = rows.get(1).id();
        assertThat(List.of(written.row(0), written.row(1), written.row(2), written.row(3), written.row(4),
                written.row(5), written.row(6), written.row(7))).containsExactly(toS2, toLan, toS2, rows.get(2).id(),
                toLan, toS2, rows.get(3).id(), rows.get(4).id());
        assertThat(written.row(8)).as("no such step").isZero();
    }

    @Test
    void aStepThatDiffersFromTheOneBeforeInAnyAttributeGoesIntoItsOwnRow() throws SQLException {
        CustodyLog.Entries steps = log.entries();
        // Steps taking turns with the first one's kind, each of the others differing from it in one attribute.
        steps.add(CustodyEvent.STORED, "m1", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m2", List.of("s2", "s3"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m3", List.of("s2"), Precedence.ROUTINE, "d");
        // A detail the log mends (a NUL), twice in a row.
        steps.add(CustodyEvent.STORED, "m4", List.of("s2"), Precedence.ROUTINE, "d\0x");
        steps.add(CustodyEvent.STORED, "m5", List.of("s2"), Precedence.ROUTINE, "d\0x");
        steps.add(CustodyEvent.STORED, "m6", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m7", List.of("s2"), null, "d");
        steps.add(CustodyEvent.STORED, "m8", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m9", List.of(), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m10", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m11", "dds", List.of("s2"), Precedence.ROUTINE, "d", NodeId.of("c"));
        steps.add(CustodyEvent.STORED, "m12", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m13", "lan", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m14", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m15", List.of("s2"), Precedence.ROUTINE, null);
        steps.add(CustodyEvent.STORED, "m16", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.SENT, "m17", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m18", List.of("s2"), Precedence.ROUTINE, "d");
        steps.add(CustodyEvent.STORED, "m19", List.of("s3"), Precedence.ROUTINE, "d");

        write(steps);

        assertThat(rows()).extracting(Row::event, Row::peer, Row::precedence, Row::detail, Row::ids).containsExactly(
                tuple("stored", "s2", "ROUTINE", "d", List.of("m1", "m3", "m6", "m8", "m10", "m12", "m14", "m16",
                        "m18")),
                tuple("stored", "s2,s3", "ROUTINE", "d", List.of("m2")),
                tuple("stored", "s2", "ROUTINE", "d\uFFFDx", List.of("m4", "m5")),
                tuple("stored", "s2", null, "d", List.of("m7")),
                tuple("stored", null, "ROUTINE", "d", List.of("m9")),
                tuple("stored", "s2", "ROUTINE", "d", List.of("m11")),
                tuple("stored", "s2", "ROUTINE", "d", List.of("m13")),
                tuple("stored", "s2", "ROUTINE", null, List.of("m15")),
                tuple("sent", "s2", "ROUTINE", "d", List.of("m17")),
                tuple("stored", "s3", "ROUTINE", "d", List.of("m19")));
    }

    @Test
    void laterStepsShareRowsOnlyAmongThemselvesAndNameTheirEarlierRows() throws SQLException {
        CustodyLog.Entries stored = log.entries();
        stored.add(CustodyEvent.STORED, "m1", List.of("s2"), Precedence.ROUTINE, null);
        stored.add(CustodyEvent.STORED, "m2", List.of("s2"), Precedence.ROUTINE, null);
        long storedRow = write(stored).row(0);
        CustodyLog.Entries storedLater = log.entries();
        storedLater.add(CustodyEvent.STORED, "m3", List.of("s2"), Precedence.ROUTINE, null);
        long otherRow = write(storedLater).row(0);

        CustodyLog.Entries removed = log.entries();
        removed.add(CustodyEvent.ACKNOWLEDGED, "m1", "dds", List.of("s2"), Precedence.ROUTINE, null, null,
                storedRow);
        // Stored before a restart: its earlier row is not known, so it is found by its id.
        removed.add(CustodyEvent.ACKNOWLEDGED, "m9", "dds", List.of("s2"), Precedence.ROUTINE, null, null, 0);
        removed.add(CustodyEvent.ACKNOWLEDGED, "m3", "dds", List.of("s2"), Precedence.ROUTINE, null, null,
                otherRow);
        // Its earlier row named again after another: still named once.
        removed.add(CustodyEvent.ACKNOWLEDGED, "m2", "dds", List.of("s2"), Precedence.ROUTINE, null, null,
                storedRow);
        CustodyLog.Written written = write(removed);

        List<Row> rows = rows();
        assertThat(rows).hasSize(4);
        assertThat(rows.get(2).ids()).containsExactly("m1", "m3", "m2");
        assertThat(rows.get(2).earlier()).containsExactly(storedRow, otherRow);
        assertThat(rows.get(3).ids()).containsExactly("m9");
        assertThat(rows.get(3).earlier()).isNull();
        assertThat(List.of(written.row(0), written.row(1), written.row(2), written.row(3))).containsExactly(
                rows.get(2).id(), rows.get(3).id(), rows.get(2).id(), rows.get(2).id());
    }

    @Test
    void aForwardingLogQueuesTheRowsOfOtherSitesMessagesOnceEach() throws SQLException {
        CustodyLog forwarding = log.forwarding(origin -> origin.value().startsWith("c"),
                Set.of(CustodyEvent.DELIVERED));
        CustodyLog.Entries steps = forwarding.entries();
        steps.add(CustodyEvent.DELIVERED, "m1", "lan", List.of("@lan"), Precedence.ROUTINE, null, NodeId.of("c"));
        steps.add(CustodyEvent.DELIVERED, "m2", "lan", List.of("@lan"), Precedence.ROUTINE, null, NodeId.of("a"));
        steps.add(CustodyEvent.DELIVERED, "m3", "lan", List.of("@lan"), Precedence.ROUTINE, null, NodeId.of("c"));
        CustodyLog.Written written = write(steps);

        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT log_id FROM custody_forward")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(written.row(0)).isEqualTo(written.row(2));
            assertThat(rs.next()).as("only c's row").isFalse();
        }
        assertThat(written.row(1)).isNotEqualTo(written.row(0));
    }

    /**
     * A bloomed log's rows that no earlier row finds carry a filter of their ids, each row's slice of the statement's
     * filters its own; a later row carries none, nor does any row of a log that is not bloomed.
     */
    @Test
    void aBloomedLogsRowsThatNoEarlierRowFindsCarryAFilterOfTheirIds() throws SQLException {
        CustodyLog bloomed = log.bloomed();
        CustodyLog.Entries stored = bloomed.entries();
        List<String> many = IntStream.range(0, 300).mapToObj(i -> "m" + i).toList();
        many.forEach(id -> stored.add(CustodyEvent.STORED, id, List.of("s2"), Precedence.ROUTINE, null));
        stored.add(CustodyEvent.STORED, "f1", List.of("s2"), Precedence.FLASH, null);
        long storedRow = write(stored).row(0);
        CustodyLog.Entries removed = bloomed.entries();
        removed.add(CustodyEvent.ACKNOWLEDGED, "m1", "dds", List.of("s2"), Precedence.ROUTINE, null, null, storedRow);
        write(removed);
        CustodyLog.Entries plain = log.entries();
        plain.add(CustodyEvent.STORED, "p1", List.of("s2"), Precedence.ROUTINE, null);
        write(plain);

        List<byte[]> blooms = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT ids_bloom FROM custody_log ORDER BY id")) {
            while (rs.next()) {
                blooms.add(rs.getBytes(1));
            }
        }
        assertThat(blooms).hasSize(4);
        assertThat(blooms.get(0)).as("300 ids at 10 bits each").hasSize(375);
        assertThat(many).allMatch(id -> MessageIdBloom.mightContain(blooms.get(0), id));
        assertThat(blooms.get(1)).as("one id: the smallest filter").hasSize(MessageIdBloom.MIN_BYTES);
        assertThat(MessageIdBloom.mightContain(blooms.get(1), "f1")).isTrue();
        assertThat(blooms.get(2)).as("a later row, found through its earlier row").isNull();
        assertThat(blooms.get(3)).as("a log that is not bloomed").isNull();
    }

    @Test
    void aPeerWithACommaIsRefusedAloneOrAmongOthers() {
        assertThatThrownBy(() -> log.entries().add(CustodyEvent.STORED, "m1", List.of("s2,s3"), Precedence.ROUTINE,
                null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a comma");
        assertThatThrownBy(() -> log.entries().add(CustodyEvent.STORED, "m1", List.of("s2", "s3,s4"),
                Precedence.ROUTINE, null)).isInstanceOf(IllegalArgumentException.class);
    }

    private static CustodyLog.Written write(CustodyLog.Entries steps) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return steps.write(c);
        }
    }

    private record Row(long id, String event, String peer, String precedence, String detail, List<String> ids,
            List<Long> earlier) {
    }

    private static List<Row> rows() throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("""
                        SELECT id, event, array_to_string(peer, ','), precedence, detail, message_ids, earlier
                          FROM custody_log ORDER BY id""")) {
            while (rs.next()) {
                Array earlier = rs.getArray(7);
                rows.add(new Row(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        Arrays.asList((String[]) rs.getArray(6).getArray()),
                        earlier == null ? null : Arrays.asList((Long[]) earlier.getArray())));
            }
        }
        return rows;
    }
}
