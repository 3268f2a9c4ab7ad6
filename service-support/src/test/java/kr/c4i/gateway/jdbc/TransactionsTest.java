package kr.c4i.gateway.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The settings each kind of transaction runs under, read back from a real PostgreSQL. */
class TransactionsTest {

    private static EmbeddedPostgres postgres;
    private static DataSource dataSource;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().setServerConfig("synchronous_commit", "off").start();
        dataSource = postgres.getPostgresDatabase();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    @Test
    void aDurableTransactionSyncsItsCommitEvenOnAServerThatDoesNotAndPlansForTheRowsThereAre() throws SQLException {
        assertThat(Transactions.durable(dataSource, TransactionsTest::settings)).containsExactly("on",
                "force_custom_plan");
    }

    @Test
    void aLazyTransactionSparesTheFlushAndPlansForTheRowsThereAre() throws SQLException {
        assertThat(Transactions.lazy(dataSource, TransactionsTest::settings)).containsExactly("off",
                "force_custom_plan");
    }

    @Test
    void failedWorkIsRolledBackAndItsCauseThrown() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS t (v int)");
        }
        assertThatThrownBy(() -> Transactions.durable(dataSource, tx -> {
            try (Statement s = tx.createStatement()) {
                s.execute("INSERT INTO t VALUES (1)");
                s.execute("SELECT 1/0");
            }
            return null;
        })).isInstanceOf(SQLException.class).hasMessageContaining("division by zero");
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertThat(rs.getInt(1)).isZero();
        }
    }

    private static List<String> settings(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT current_setting('synchronous_commit'), current_setting('plan_cache_mode')")) {
            rs.next();
            return List.of(rs.getString(1), rs.getString(2));
        }
    }
}
