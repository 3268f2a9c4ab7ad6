package kr.c4i.gateway.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Who a database belongs to, on a real PostgreSQL with the table the services' migrations create. */
class DatabaseOwnerTest {

    private static EmbeddedPostgres postgres;
    private static DataSource dataSource;

    private static final DatabaseOwner NODE_A = new DatabaseOwner("node", "a", "gateway.node.id");

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
    void aFreshTable() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS database_owner");
            // As in db-bridge's V6__database_owner.sql and the relay store's.
            s.execute("""
                    CREATE TABLE database_owner (
                        one   boolean     PRIMARY KEY DEFAULT true CHECK (one),
                        kind  text        NOT NULL,
                        owner text        NOT NULL,
                        since timestamptz NOT NULL DEFAULT clock_timestamp()
                    )""");
        }
    }

    @Test
    void theFirstClaimOwnsTheDatabaseAndTheSameOwnerClaimsItAgainSinceThen() throws SQLException {
        OffsetDateTime since = NODE_A.claim(dataSource, "The interface database");

        assertThat(new DatabaseOwner("node", "a", "other.property").claim(dataSource, "The interface database"))
                .isEqualTo(since);
    }

    @Test
    void anotherIdOrAnotherKindIsRefusedWithTheOwnerAndTheProperty() throws SQLException {
        NODE_A.claim(dataSource, "The interface database");

        assertThatThrownBy(() -> new DatabaseOwner("node", "b", "gateway.node.id").claim(dataSource,
                "The interface database")).isInstanceOf(DatabaseOwnedElsewhereException.class)
                .hasMessageStartingWith("The interface database (postgres) belongs to node a since ")
                .hasMessageContaining("this process is node b (gateway.node.id)")
                .hasMessageContaining("DELETE FROM database_owner");
        // A site's gateway pointed at a node's database, even one named alike.
        assertThatThrownBy(() -> new DatabaseOwner("site", "a", "gateway.wan.site").claim(dataSource,
                "The relay store")).isInstanceOf(DatabaseOwnedElsewhereException.class)
                .hasMessageContaining("belongs to node a").hasMessageContaining("this process is site a");
    }

    @Test
    void ofTwoOwnersClaimingAtOnceExactlyOneGetsTheDatabase() throws Exception {
        List<Callable<String>> claims = new ArrayList<>();
        for (String id : List.of("a", "b", "c", "d")) {
            claims.add(() -> {
                try {
                    new DatabaseOwner("node", id, "gateway.node.id").claim(dataSource, "The interface database");
                    return id;
                }
                catch (DatabaseOwnedElsewhereException refused) {
                    return "refused";
                }
            });
        }
        List<String> outcomes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(claims.size())) {
            for (Future<String> outcome : pool.invokeAll(claims)) {
                outcomes.add(outcome.get());
            }
        }
        assertThat(outcomes).filteredOn(o -> !o.equals("refused")).hasSize(1);
    }
}
