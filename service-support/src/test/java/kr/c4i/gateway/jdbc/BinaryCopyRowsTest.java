package kr.c4i.gateway.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BinaryCopyRowsTest {

    private static final String COPY = "COPY copy_test (b, i, s, t, ts, body, list) FROM STDIN (FORMAT binary)";

    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void startDatabase() throws Exception {
        postgres = EmbeddedPostgres.start();
    }

    @AfterAll
    static void stopDatabase() throws Exception {
        postgres.close();
    }

    @BeforeEach
    void emptyTable() throws SQLException {
        try (Connection c = connection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS copy_test");
            s.execute("""
                    CREATE TABLE copy_test (b bigint, i integer, s smallint CHECK (s >= 0), t text, ts timestamptz,
                                            body bytea, list text[])""");
        }
    }

    @Test
    void everyTypeArrivesAsWrittenAlsoPastTheBufferFirstSized() throws Exception {
        byte[] large = new byte[100_000];
        Arrays.fill(large, (byte) 0x7f);
        BinaryCopyRows rows = new BinaryCopyRows(0);
        rows.row(7).bigint(Long.MIN_VALUE).integer(-1).smallint((short) 32_767).text("위치 보고 ✓ Ä")
                .timestamptz(Instant.parse("1999-12-31T23:59:59.999999999Z")).bytea(new byte[] { 0, -1 })
                .textArray(List.of("alpha", "ß"), Function.identity());
        rows.row(7).bigint(Long.MAX_VALUE).integer(Integer.MAX_VALUE).smallint((short) 0).text(null)
                .timestamptz(Instant.parse("2026-11-23T22:00:00.000001Z")).bytea(large)
                .textArray(List.of(), Function.identity());

        try (Connection c = connection()) {
            rows.copyIn(c, COPY);
        }

        assertThat(strings("""
                SELECT concat_ws(' | ', b, i, s, coalesce(t, 'null'), ts AT TIME ZONE 'UTC', encode(body, 'hex'),
                                 array_to_string(list, ','), cardinality(list))
                  FROM copy_test WHERE b < 0""")).containsExactly(
                "-9223372036854775808 | -1 | 32767 | 위치 보고 ✓ Ä | 1999-12-31 23:59:59.999999 | 00ff | alpha,ß | 2");
        assertThat(strings("""
                SELECT concat_ws(' | ', b, i, s, coalesce(t, 'null'), ts AT TIME ZONE 'UTC', length(body),
                                 cardinality(list), body = decode(repeat('7f', 100000), 'hex'))
                  FROM copy_test WHERE b > 0""")).containsExactly(
                "9223372036854775807 | 2147483647 | 0 | null | 2026-11-23 22:00:00.000001 | 100000 | 0 | t");
    }

    @Test
    void aRowTheServerRefusesFailsTheWholeCopy() throws Exception {
        BinaryCopyRows rows = new BinaryCopyRows(64);
        rows.row(7).bigint(1).integer(1).smallint((short) 1).text("kept?").timestamptz(Instant.EPOCH)
                .bytea(new byte[0]).textArray(List.of("a"), Function.identity());
        rows.row(7).bigint(2).integer(2).smallint((short) -1).text("refused").timestamptz(Instant.EPOCH)
                .bytea(new byte[0]).textArray(List.of("a"), Function.identity());

        try (Connection c = connection()) {
            assertThatThrownBy(() -> rows.copyIn(c, COPY)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("copy_test_s_check");
        }

        assertThat(strings("SELECT count(*) FROM copy_test")).containsExactly("0");
    }

    @Test
    void nothingIsNullInAColumnOfAnyType() throws Exception {
        BinaryCopyRows rows = new BinaryCopyRows(0);
        rows.row(7).nothing().nothing().nothing().nothing().nothing().nothing().nothing();

        try (Connection c = connection()) {
            rows.copyIn(c, COPY);
        }

        assertThat(strings("""
                SELECT concat_ws(' ', b IS NULL, i IS NULL, s IS NULL, t IS NULL, ts IS NULL, body IS NULL,
                                 list IS NULL)
                  FROM copy_test""")).containsExactly("t t t t t t t");
    }

    private static Connection connection() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }

    private static List<String> strings(String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = connection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
