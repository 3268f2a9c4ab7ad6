package kr.c4i.gateway.wan.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * The store's transactions: one connection, autocommit off, the commit's durability set first, the work, then commit,
 * or rollback (a failed rollback suppressed into the cause) and the cause thrown.
 */
final class StoreTransactions {

    // Custody: the sender forgets the copies once the store returns, so the commit must be on disk whatever the
    // server's default; every setting but off flushes locally first, and a stronger one (remote_apply, ...) is kept.
    static final String DURABLE_COMMIT = """
            SELECT set_config('synchronous_commit', 'on', true) WHERE current_setting('synchronous_commit') = 'off'""";

    // A delete lost in a crash only brings its copies back: they are sent again and absorbed by message id at the
    // next hop. So removing does not wait for the disk, which spares a flush per receipt and per LAN delivery;
    // PostgreSQL still writes the WAL in order, so a later store never survives an earlier lost delete.
    static final String LAZY_COMMIT = "SET LOCAL synchronous_commit TO off";

    /** Work done within one transaction. */
    @FunctionalInterface
    interface Work<T> {

        T in(Connection tx) throws SQLException;
    }

    private StoreTransactions() {
    }

    /** Does the work in one transaction whose commit is on disk when this returns. */
    static <T> T durable(DataSource dataSource, Work<T> work) throws SQLException {
        return inTransaction(dataSource, DURABLE_COMMIT, work);
    }

    /** Does the work in one transaction whose commit does not wait for the disk: lost in a crash, it is undone. */
    static <T> T lazy(DataSource dataSource, Work<T> work) throws SQLException {
        return inTransaction(dataSource, LAZY_COMMIT, work);
    }

    private static <T> T inTransaction(DataSource dataSource, String commitSetting, Work<T> work)
            throws SQLException {
        try (Connection tx = dataSource.getConnection()) {
            tx.setAutoCommit(false);
            try {
                try (Statement setting = tx.createStatement()) {
                    setting.execute(commitSetting);
                }
                T result = work.in(tx);
                tx.commit();
                return result;
            }
            catch (SQLException | RuntimeException ex) {
                try {
                    tx.rollback();
                }
                catch (SQLException rollback) {
                    ex.addSuppressed(rollback);
                }
                throw ex;
            }
        }
    }
}
