package kr.c4i.gateway.tools;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * Has a database clear the dead rows a warm-up left and analyse its tables (a vacuum) and write out its dirty pages (a
 * checkpoint), which it would otherwise do on its own schedule during the measured phase: the bridge's databases and
 * the reference's clusters alike, so that neither side's figure carries this work, and the WAN gateways' stores.
 */
public final class WarmUpTidy {

    private WarmUpTidy() {
    }

    public static void tidy(DataSource db, String... tables) throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            for (String table : tables) {
                s.execute("VACUUM ANALYZE " + table);
            }
            s.execute("CHECKPOINT");
        }
    }
}
