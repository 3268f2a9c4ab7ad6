package kr.c4i.gateway.bridge.report;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import javax.sql.DataSource;

import kr.c4i.gateway.jdbc.Transactions;

/**
 * The interface database's side of delivery reports (db-bridge V10): {@code delivery_report}, which the application
 * reads, and {@code delivery_report_cursor}, how far the bridge has read each source. A batch of reports and the
 * cursor past it are written in one transaction, so a report is written once however often it is read.
 */
final class DeliveryReportStore {

    private static final String CURSOR = "SELECT after FROM delivery_report_cursor WHERE source = ?";

    private static final String TYPES = "SELECT message_id, kmtf_type FROM outbox WHERE message_id = ANY(?)";

    private static final String INSERT = """
            INSERT INTO delivery_report (message_id, reported_by, event, delivered, at, detail)
            SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]::boolean[], ?::text[]::timestamptz[],
                                 ?::text[])
            ON CONFLICT DO NOTHING
            RETURNING delivered""";

    private static final String ADVANCE = """
            INSERT INTO delivery_report_cursor (source, after) VALUES (?, ?)
            ON CONFLICT (source) DO UPDATE SET after = greatest(delivery_report_cursor.after, excluded.after)""";

    private final DataSource dataSource;

    DeliveryReportStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** How far the bridge has read {@code source}: 0 before its first report. */
    long cursor(String source) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(CURSOR)) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /**
     * Writes the reports of the messages {@code properties} wants reports of, and moves the cursor of
     * {@code source} to {@code next}, in one transaction on disk when it returns.
     *
     * @return the reports written, one per message and step; those written before are absorbed
     */
    Written write(String source, long next, List<DeliveryReport> reports, ReportProperties properties)
            throws SQLException {
        return Transactions.durable(dataSource, c -> {
            Map<String, String> types = properties.types().isEmpty() ? Map.of() : types(c, reports);
            List<String[]> rows = new ArrayList<>();
            for (DeliveryReport report : reports) {
                for (String id : report.messageIds()) {
                    if (properties.wanted(report.precedence(), types.get(id))) {
                        rows.add(new String[] { id, report.reportedBy(), report.event(),
                                Boolean.toString(report.delivered()), report.at().toString(), report.detail() });
                    }
                }
            }
            Written written = rows.isEmpty() ? new Written(0, 0) : insert(c, rows);
            try (PreparedStatement ps = c.prepareStatement(ADVANCE)) {
                ps.setString(1, source);
                ps.setLong(2, next);
                ps.executeUpdate();
            }
            return written;
        });
    }

    /** How many reports a batch wrote: deliveries and non-deliveries. */
    record Written(int delivered, int notDelivered) {
    }

    private static Map<String, String> types(Connection c, List<DeliveryReport> reports) throws SQLException {
        List<String> ids = reports.stream().flatMap(r -> r.messageIds().stream()).toList();
        Map<String, String> types = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(TYPES)) {
            ps.setArray(1, c.createArrayOf("text", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return types;
    }

    private static Written insert(Connection c, List<String[]> rows) throws SQLException {
        int n = rows.size();
        String[][] columns = new String[6][n];
        for (int i = 0; i < n; i++) {
            for (int col = 0; col < 6; col++) {
                columns[col][i] = rows.get(i)[col];
            }
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            for (int col = 0; col < 6; col++) {
                ps.setArray(col + 1, c.createArrayOf("text", columns[col]));
            }
            int delivered = 0;
            int notDelivered = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getBoolean(1)) {
                        delivered++;
                    }
                    else {
                        notDelivered++;
                    }
                }
            }
            return new Written(delivered, notDelivered);
        }
    }
}
