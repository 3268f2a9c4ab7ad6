package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedDatabaseTest {

    @TempDir
    Path dir;

    private EmbeddedDatabase start() throws Exception {
        return EmbeddedDatabase.start(dir.resolve("postgres"), dir.resolve("postgres.password"),
                EmbeddedPostgres.builder().setCleanDataDirectory(false));
    }

    private static String show(Connection c, String setting) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static Connection connect(EmbeddedDatabase db, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", EmbeddedDatabase.USER);
        if (password != null) {
            p.setProperty("password", password);
        }
        return DriverManager.getConnection(db.jdbcUrl(), p);
    }

    @Test
    void isDurableWhereZonkysTestDefaultsAreNot() throws Exception {
        try (EmbeddedDatabase db = start(); Connection c = connect(db, db.password())) {
            assertThat(show(c, "fsync")).isEqualTo("on");
            assertThat(show(c, "synchronous_commit")).isEqualTo("on");
            assertThat(show(c, "full_page_writes")).isEqualTo("on");
            assertThat(show(c, "listen_addresses")).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void wantsThePasswordFromEveryoneAndKeepsItForTheNextStart() throws Exception {
        String password;
        try (EmbeddedDatabase db = start()) {
            password = db.password();
            assertThatThrownBy(() -> connect(db, null).close()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("password");
            assertThatThrownBy(() -> connect(db, "postgres").close()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("password authentication failed");
            try (Connection c = connect(db, password); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE kept (v int)");
            }
        }
        Path file = dir.resolve("postgres.password");
        assertThat(Files.readString(file).strip()).isEqualTo(password).hasSizeGreaterThanOrEqualTo(40);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(dir.resolve("postgres").resolve("pg_hba.conf"))).doesNotContain("trust");

        try (EmbeddedDatabase again = start(); Connection c = connect(again, password);
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM kept")) {
            assertThat(again.password()).isEqualTo(password);
            assertThat(rs.next()).isTrue();
        }
    }

    @Test
    void aServiceDatabaseKeepsItsDataAndPasswordUnderItsHome() throws Exception {
        Path home = dir.resolve("s1-gw");
        try (EmbeddedDatabase db = EmbeddedDatabase.startIn(home, EmbeddedPostgres.builder().setCleanDataDirectory(false));
                Connection c = connect(db, db.password())) {
            assertThat(show(c, "max_connections")).isEqualTo("60");
            assertThat(show(c, "fsync")).isEqualTo("on");
            assertThat(home.resolve("postgres").resolve("PG_VERSION")).isRegularFile();
            assertThat(Files.readString(home.resolve("postgres.password")).strip()).isEqualTo(db.password());
        }
    }
}
