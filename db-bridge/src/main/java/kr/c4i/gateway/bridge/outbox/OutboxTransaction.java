package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import kr.c4i.gateway.core.transport.TransportException;

/**
 * One transaction of the publisher or the resender: committed if the work returns, rolled back if it
 * throws, so an outage leaves every claimed row (and its row locks' effect) as it was.
 */
@FunctionalInterface
interface OutboxTransaction<T> {

    T run(Connection tx) throws SQLException, TransportException, BadRowException;

    static <T> T inTransaction(DataSource dataSource, OutboxTransaction<T> work)
            throws SQLException, TransportException, BadRowException {
        try (Connection tx = dataSource.getConnection()) {
            tx.setAutoCommit(false);
            try {
                T result = work.run(tx);
                tx.commit();
                return result;
            }
            catch (SQLException | TransportException | BadRowException | RuntimeException ex) {
                rollbackQuietly(tx, ex);
                throw ex;
            }
        }
    }

    private static void rollbackQuietly(Connection tx, Exception cause) {
        try {
            tx.rollback();
        }
        catch (SQLException ex) {
            cause.addSuppressed(ex);
        }
    }
}
