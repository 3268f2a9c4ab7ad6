package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.interfacedb.RawOutboxRow;

/** V3: the outbox refuses at INSERT what the bridge could never send, without failing on old rows. */
class OutboxConstraintsTest {

    private static final String NOW = "2026-11-21 14:30:00+00";

    @TempDir
    Path dir;

    private record Row(String messageId, String createdAt, String precedence) {
    }

    @Test
    void theOutboxRefusesBlankIdsOutOfRangeTimesAndUnknownPrecedences() throws Exception {
        List<Row> refused = List.of(new Row("", NOW, null), new Row("   ", NOW, null), new Row("\t\n", NOW, null),
                new Row("x".repeat(256), NOW, null), new Row("inf", "infinity", null),
                new Row("-inf", "-infinity", null), new Row("julian", "1500-01-01 00:00:00+00", null),
                new Row("before", "1677-12-31 23:59:59.999999+00", null),
                new Row("after", "2262-01-01 00:00:00+00", null), new Row("urgent", NOW, "urgent"),
                new Row("blank-precedence", NOW, " "), new Row("x-prosign", NOW, "x"));
        List<Row> accepted = List.of(new Row("m-1", NOW, null), new Row("x".repeat(255), NOW, null),
                new Row("메시지-1", NOW, null), new Row("earliest", "1678-01-01 00:00:00+00", null),
                new Row("latest", "2261-12-31 23:59:59.999999+00", null), new Row("flash", NOW, "flash"),
                new Row("routine", NOW, "ROUTINE"), new Row("prosign", NOW, " z "), new Row("priority", NOW, "Priority"));
        try (InterfaceDatabase db = new InterfaceDatabase(dir.resolve("pg"))) {
            for (Row row : refused) {
                assertThatThrownBy(() -> insert(db.dataSource(), row)).as("%s", row).isInstanceOf(SQLException.class)
                        .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23514");
            }
            for (Row row : accepted) {
                insert(db.dataSource(), row);
            }
            assertThat(db.count("SELECT count(*) FROM outbox")).isEqualTo(accepted.size());
        }
    }

    @Test
    void theMigrationSucceedsOnADatabaseThatAlreadyHoldsSuchRowsAndKeepsThem() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("legacy")).start()) {
            DataSource dataSource = postgres.getPostgresDatabase();
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").target("2").load().migrate();
            insert(dataSource, new Row("", NOW, null));
            insert(dataSource, new Row("inf", "infinity", null));
            insert(dataSource, new Row("urgent", NOW, "urgent"));

            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();

            try (Connection c = dataSource.getConnection();
                    var rs = c.createStatement().executeQuery("SELECT count(*) FROM outbox")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(3);
            }
            assertThatThrownBy(() -> insert(dataSource, new Row(" ", NOW, null))).isInstanceOf(SQLException.class);
        }
    }

    private static void insert(DataSource dataSource, Row row) throws SQLException {
        new InterfaceDatabaseClient(dataSource).insertRaw(RawOutboxRow.of(row.messageId(), "SITREP", row.precedence(),
                Kmtf.message("SITREP", 1), row.createdAt()));
    }
}
