package kr.c4i.gateway.bridge.inbox;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.InboundRefusal;

/**
 * The handler a transport delivers to: checks every envelope with the {@link InboundValidator}, writes the good ones
 * through the {@link InboxWriter} and keeps the rest, with what the transport could not read at all, in the
 * {@link InboundQuarantine}. A bad message never reaches the inbox and never holds up the good ones of its batch; a
 * database failure still throws, so the transport hands the whole batch again (the inbox absorbs what it already
 * has, the quarantine counts what it already kept).
 *
 * <p>Should the inbox still refuse an envelope the validator passed (a constraint an operator added, say), the
 * batch is written one envelope at a time and the one the database refuses is quarantined as
 * {@value #INBOX_REFUSED}, so it cannot be handed again for ever.
 *
 * <p>Each refusal is counted in {@code gateway.inbound.rejected} by reason; the log gets one WARN per reason and
 * minute, so a flood cannot fill it.
 */
public final class ValidatingInbox implements InboundHandler {

    /** The inbox refused an envelope the validator passed. */
    public static final String INBOX_REFUSED = "inbox-refused";

    private static final Logger log = LoggerFactory.getLogger(ValidatingInbox.class);
    private static final Duration LOG_EVERY = Duration.ofMinutes(1);

    private final InboundValidator validator;
    private final InboxWriter inbox;
    private final InboundQuarantine quarantine;
    private final BridgeMetrics metrics;
    private final Map<String, LogWindow> logWindows = new HashMap<>();

    public ValidatingInbox(InboundValidator validator, InboxWriter inbox, InboundQuarantine quarantine,
            BridgeMetrics metrics) {
        this.validator = validator;
        this.inbox = inbox;
        this.quarantine = quarantine;
        this.metrics = metrics;
    }

    @Override
    public void deliver(List<Envelope> batch) throws SQLException {
        deliver(batch, List.of());
    }

    @Override
    public List<Envelope> deliver(List<Envelope> batch, List<InboundRefusal> refused) throws SQLException {
        List<Envelope> valid = new ArrayList<>(batch.size());
        List<InboundQuarantine.Kept> kept = new ArrayList<>();
        refused.forEach(r -> kept.add(InboundQuarantine.Kept.of(r)));
        for (Envelope envelope : batch) {
            Optional<InboundValidator.Rejection> rejection = this.validator.check(envelope);
            if (rejection.isPresent()) {
                kept.add(InboundQuarantine.Kept.of(envelope, rejection.get().kind(), rejection.get().reason()));
            }
            else {
                valid.add(envelope);
            }
        }
        List<Envelope> delivered = write(valid, kept);
        this.quarantine.keep(kept);
        // Counted and logged once kept: a batch handed again after a failure is not counted twice.
        for (InboundQuarantine.Kept k : kept) {
            this.metrics.inboundRejected(k.kind());
            logRejection(k);
        }
        return delivered;
    }

    private List<Envelope> write(List<Envelope> valid, List<InboundQuarantine.Kept> kept) throws SQLException {
        try {
            this.inbox.deliver(valid);
            return valid;
        }
        catch (SQLException ex) {
            if (!refusesData(ex)) {
                throw ex;
            }
        }
        List<Envelope> delivered = new ArrayList<>(valid.size());
        for (Envelope envelope : valid) {
            try {
                this.inbox.deliver(List.of(envelope));
                delivered.add(envelope);
            }
            catch (SQLException ex) {
                if (!refusesData(ex)) {
                    throw ex;
                }
                kept.add(InboundQuarantine.Kept.of(envelope, INBOX_REFUSED, "message " + envelope.messageId()
                        + ": the inbox refused it: " + ex.getMessage()));
            }
        }
        return delivered;
    }

    /** Data exceptions, constraint violations and limits such as the index row size: the row, not the database. */
    private static boolean refusesData(SQLException ex) {
        String state = ex.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23") || state.startsWith("54"));
    }

    private synchronized void logRejection(InboundQuarantine.Kept kept) {
        long now = System.nanoTime();
        LogWindow window = this.logWindows.get(kept.kind());
        if (window != null && now - window.started < LOG_EVERY.toNanos()) {
            window.suppressed++;
            return;
        }
        long suppressed = window == null ? 0 : window.suppressed;
        this.logWindows.put(kept.kind(), new LogWindow(now));
        log.warn("Refused a received message into inbound quarantine ({} from '{}', message '{}', type '{}'): {}: {}"
                + (suppressed > 0 ? " ({} more of this kind in the last minute)" : ""),
                this.metrics.transport().label(),
                InboundQuarantine.text(kept.origin(), 64), InboundQuarantine.text(kept.messageId(), 64),
                InboundQuarantine.text(kept.kmtfType(), 64), kept.kind(), InboundQuarantine.text(kept.reason(), 500),
                suppressed);
    }

    private static final class LogWindow {

        final long started;
        long suppressed;

        LogWindow(long started) {
            this.started = started;
        }
    }
}
