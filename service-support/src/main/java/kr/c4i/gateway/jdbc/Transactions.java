package kr.c4i.gateway.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * PostgreSQL transactions whose commit is as durable as custody needs: one connection, autocommit off, the commit's
 * durability (and custom plans) set first, the work, then commit, or rollback (a failed rollback suppressed into the
 * cause) and the cause thrown. The bridge's inbox and the gateway's store both hand messages on once a commit returns.
 */
public final class Transactions {

    // Custody: the sender forgets the messages once the commit returns, so it must be on disk whatever the server's
    // default; every setting but off flushes locally first, and a stronger one (remote_apply, ...) is kept.
    // Every transaction also plans its statements for the rows the tables hold now (plan_cache_mode): the outbox,
    // inbox and relay store are queues that swing from empty to hundreds of thousands of rows, and a generic plan
    // cached while one was empty scans the whole table for each delete once it has filled (seen in wan-bench: after
    // a vacuum the relay store's deletes and reads took ever more CPU until autovacuum came round again).
    static final String DURABLE_COMMIT = """
            SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
                   CASE WHEN current_setting('synchronous_commit') = 'off'
                        THEN set_config('synchronous_commit', 'on', true) END""";

    // For work whose loss in a crash only brings back what is sent again and absorbed by message id at the next hop
    // (a removal): it spares a flush; PostgreSQL still writes the WAL in order, so a later durable commit never
    // survives an earlier lost lazy one.
    static final String LAZY_COMMIT = """
            SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
                   set_config('synchronous_commit', 'off', true)""";

    /** Work done within one transaction. */
    @FunctionalInterface
    public interface Work<T> {

        T in(Connection tx) throws SQLException;
    }

    private Transactions() {
    }

    /** Does the work in one transaction whose commit is on disk when this returns. */
    public static <T> T durable(DataSource dataSource, Work<T> work) throws SQLException {
        return inTransaction(dataSource, DURABLE_COMMIT, work);
    }

    /** Does the work in one transaction whose commit does not wait for the disk: lost in a crash, it is undone. */
    public static <T> T lazy(DataSource dataSource, Work<T> work) throws SQLException {
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
