package kr.c4i.gateway.bridge.outbox;

import java.sql.SQLException;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;

/**
 * The outbox's gauges ({@code backlog}, and {@code unreceipted} for receipting transports), read from
 * the database when the poller says so; the same look tells {@link RowFailures} which of its rows
 * still wait, so a row sent or removed by someone else stops being reported as retried.
 */
public final class OutboxGauges {

    private final OutboxRepository outbox;
    private final RowFailures failures;
    private final @Nullable DeliveryLedger ledger;
    private final BridgeMetrics metrics;

    /** @param ledger for transports that receipt deliveries; {@code null} for the others */
    OutboxGauges(OutboxRepository outbox, RowFailures failures, @Nullable DeliveryLedger ledger,
            BridgeMetrics metrics) {
        this.outbox = outbox;
        this.failures = failures;
        this.ledger = ledger;
        this.metrics = metrics;
    }

    void refresh() throws SQLException {
        metrics.backlog(outbox.backlog());
        if (!failures.ids().isEmpty()) {
            failures.retainOnly(outbox.waiting(failures.ids()));
        }
        if (ledger != null) {
            metrics.unreceipted(ledger.unreceipted());
        }
    }
}
