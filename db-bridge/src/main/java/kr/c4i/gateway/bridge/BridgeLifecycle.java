package kr.c4i.gateway.bridge;

import java.sql.SQLException;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import kr.c4i.gateway.bridge.outbox.DeliveryLedger;
import kr.c4i.gateway.bridge.outbox.OutboxPoller;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.ReceiptingTransport;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportException;

/**
 * Starts the bridge once the context (and Flyway's schema) is ready: transport first, then the
 * inbox subscription, then the {@link PublishGate}s (the context, and so readiness, waits for them),
 * then the outbox poller; stops in reverse so no claimed batch is cut off.
 */
final class BridgeLifecycle implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(BridgeLifecycle.class);

    private final Transport transport;
    private final InboundHandler inbox;
    private final OutboxPoller poller;
    private final @Nullable DeliveryLedger ledger;
    private final boolean publish;
    private final boolean receive;
    private final List<PublishGate> gates;
    private volatile boolean running;

    BridgeLifecycle(Transport transport, InboundHandler inbox, OutboxPoller poller, @Nullable DeliveryLedger ledger,
            boolean publish, boolean receive, List<PublishGate> gates) {
        this.gates = List.copyOf(gates);
        this.transport = transport;
        this.inbox = inbox;
        this.poller = poller;
        this.ledger = ledger;
        this.publish = publish;
        this.receive = receive;
    }

    @Override
    public void start() {
        try {
            if (ledger != null && transport instanceof ReceiptingTransport receipting) {
                receipting.onReceipts(ledger);
            }
            transport.open();
            if (receive) {
                transport.subscribe(inbox);
            }
        }
        catch (TransportException | RuntimeException ex) {
            throw new TransportStartException(transport.kind(), ex);
        }
        if (publish) {
            try {
                for (PublishGate gate : gates) {
                    gate.await();
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new TransportStartException(transport.kind(), ex);
            }
            poller.start();
        }
        running = true;
        log.info("Bridge running over {} (publish={}, receive={})", transport.kind(), publish, receive);
    }

    @Override
    public void stop() {
        running = false;
        poller.close();
        if (ledger != null) {
            try {
                ledger.release();
            }
            catch (SQLException ex) {
                log.warn("What awaited receipts in memory is left to the bridge that takes over after resend-max: {}",
                        ex.toString());
            }
        }
        transport.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
