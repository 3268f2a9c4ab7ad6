package kr.c4i.gateway.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Objects;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node or site a database belongs to, recorded by the first process that starts on it in its
 * {@code database_owner} table (each service's Flyway migrations create it). The processes of one node (a bridge
 * and its pair) share one interface database, those of one site one relay store; a process of another node or site
 * pointed at it by mistake would send that node's outbox under its own name, or take over another site's custody, so
 * it is refused before it touches anything.
 *
 * @param kind what owns such a database: {@code node} or {@code site}
 * @param id this process's node or site
 * @param property where that id is set, for the operator
 */
public record DatabaseOwner(String kind, String id, String property) {

    static final String CLAIM = "INSERT INTO database_owner (kind, owner) VALUES (?, ?) ON CONFLICT (one) DO NOTHING";

    static final String READ = "SELECT kind, owner, since FROM database_owner";

    private static final Logger log = LoggerFactory.getLogger(DatabaseOwner.class);

    public DatabaseOwner {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(property, "property");
    }

    /** A service's claim at start: {@link #claim}, said in the log. */
    public static DatabaseOwner claimed(DataSource dataSource, String database, String kind, String id,
            String property) throws SQLException {
        DatabaseOwner owner = new DatabaseOwner(kind, id, property);
        log.info("{} is {} {}'s since {}", database, kind, id, owner.claim(dataSource, database));
        return owner;
    }

    /**
     * Records this process's node or site as the database's owner if it has none yet, and checks it against the one
     * recorded.
     *
     * @param database what the database is to the operator, e.g. "the interface database"
     * @return since when the database has been this owner's
     * @throws DatabaseOwnedElsewhereException if it belongs to another node or site
     */
    public OffsetDateTime claim(DataSource dataSource, String database) throws SQLException {
        return Transactions.durable(dataSource, tx -> {
            try (PreparedStatement ps = tx.prepareStatement(CLAIM)) {
                ps.setString(1, kind);
                ps.setString(2, id);
                ps.executeUpdate();
            }
            return check(tx, database);
        });
    }

    private OffsetDateTime check(Connection tx, String database) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(READ); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("database_owner is empty after the claim of " + kind + " " + id);
            }
            String ownerKind = rs.getString(1);
            String owner = rs.getString(2);
            OffsetDateTime since = rs.getObject(3, OffsetDateTime.class);
            if (!ownerKind.equals(kind) || !owner.equals(id)) {
                throw new DatabaseOwnedElsewhereException(database + " (" + tx.getCatalog() + ") belongs to "
                        + ownerKind + " " + owner + " since " + since + ", and this process is " + kind + " " + id
                        + " (" + property + "): only the processes of one " + kind + " share a database; point "
                        + property + " or the datasource at the right one, or, to hand the database over, stop "
                        + ownerKind + " " + owner + "'s processes and DELETE FROM database_owner");
            }
            return since;
        }
    }
}
