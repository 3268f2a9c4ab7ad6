package kr.c4i.gateway.tools.embedded;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.tools.embedded.ReplicationReference.Durability;
import kr.c4i.gateway.tools.embedded.ReplicationReference.Result;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The bench's reference on real embedded PostgreSQL: two clusters, logical replication between them. */
class ReplicationReferenceTest {

    private static final Durability DURABLE = new Durability(Map.of("fsync", "on", "synchronous_commit", "on",
            "full_page_writes", "on"));

    @TempDir
    Path workDir;

    @Test
    void everyRowArrivesWithItsBodyAndTheFigureIsAThroughput() throws Exception {
        try (ReplicationReference reference = ReplicationReference.start(workDir, DURABLE)) {
            Result result = reference.measure(new KmtfLoadGenerator(KmtfCatalogue.loadDefault(), "NODEA", 200, true, 7),
                    200, 2000);

            assertThat(result.latency().rows()).isEqualTo(2000);
            assertThat(result.rowsPerSecond()).isPositive().isFinite();
            assertThat(result.fedPerSecond()).isPositive().isFinite();
            assertThat(result.latency().p99Millis()).isFinite().isGreaterThanOrEqualTo(result.latency().p50Millis());
            Map<String, String> sent = bodies(reference.publisher());
            assertThat(sent).hasSize(2200).allSatisfy((id, body) -> assertThat(body).hasSize(2 * 200));
            assertThat(bodies(reference.subscriber())).isEqualTo(sent);
        }
    }

    @Test
    void clustersRunWithTheGivenDurabilityAndTheReplicationRoleNeedsItsPassword() throws Exception {
        try (ReplicationReference reference = ReplicationReference.start(workDir, DURABLE)) {
            // zonky starts the postmaster with -F: fsync must still be on, as the bridge's databases have it.
            assertThat(Durability.of(reference.publisher()).settings()).containsAllEntriesOf(DURABLE.settings());
            assertThat(Durability.of(reference.subscriber()).settings()).containsAllEntriesOf(DURABLE.settings());
            assertThat(InboxProbe.count(reference.publisher(),
                    "SELECT count(*) FROM pg_settings WHERE name = 'wal_level' AND setting = 'logical'")).isEqualTo(1);
            String url = "jdbc:postgresql://127.0.0.1:" + reference.publisherPort() + "/postgres";
            assertThatExceptionOfType(SQLException.class)
                    .isThrownBy(() -> DriverManager.getConnection(url, "reference_replication", "wrong").close())
                    .withMessageContaining("password authentication failed");
        }
        assertThat(new Durability(Map.of("synchronous_commit", "off", "fsync", "off")))
                .hasToString("fsync=off, synchronous_commit=off");
    }

    /** message_id to hex body, bodies hex-encoded so that the map compares their bytes. */
    private static Map<String, String> bodies(DataSource db) throws SQLException {
        Map<String, String> bodies = new HashMap<>();
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT message_id, encode(body, 'hex') FROM outbox");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                bodies.put(rs.getString(1), rs.getString(2));
            }
        }
        return bodies;
    }
}
