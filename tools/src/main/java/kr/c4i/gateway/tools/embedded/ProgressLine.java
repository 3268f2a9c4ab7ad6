package kr.c4i.gateway.tools.embedded;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import me.tongfei.progressbar.ProgressBarRenderer;
import me.tongfei.progressbar.ProgressState;

/**
 * The demo's live status line, drawn by the progress bar library's refresh thread from the latest
 * {@link Status}: a bar, then one field per fact, each with its unit, separated by {@code |}.
 */
final class ProgressLine implements ProgressBarRenderer {

    private static final int BAR = 20;
    private static final String SEPARATOR = " | ";

    /** What the demo is doing: the percentage while sending, the phase's name once only waiting is left. */
    enum Phase { SENDING, RECEIPTS, SETTLING }

    /**
     * One observation of the cluster.
     *
     * @param phase what the demo is doing
     * @param delivered messages in the receivers' inboxes, each receiver counted up to what it should get
     * @param expected what all receivers together should get
     * @param sent outbox rows the publisher sent
     * @param toSend valid messages the demo writes into the outbox
     * @param quarantined rows the publisher quarantined
     * @param unreceipted RELIABLE deliveries still awaiting a receipt (DDS)
     * @param p99 the first receiver's p99 latency, e.g. {@code 12 ms}, or {@code -}
     */
    record Status(Phase phase, long delivered, long expected, long sent, long toSend, long quarantined,
            long unreceipted, String p99) {
    }

    private final Supplier<Status> status;

    /**
     * Deliveries so far, each receiver counted up to what it should get, so the total never passes what all
     * receivers together should get (an inbox may also hold rows from before the run).
     */
    static long delivered(List<Long> inboxRows, long eachShouldGet) {
        return inboxRows.stream().mapToLong(rows -> Math.min(rows, eachShouldGet)).sum();
    }

    ProgressLine(Supplier<Status> status) {
        this.status = status;
    }

    @Override
    public String render(ProgressState state, int maxLength) {
        return render(status.get(), state.getTotalElapsed(), maxLength);
    }

    /** The line for this status after {@code elapsed}, at most {@code width} characters (the bar goes first). */
    static String render(Status s, Duration elapsed, int width) {
        String where = switch (s.phase()) {
            case SENDING -> String.format(Locale.ROOT, "%3d%%", s.expected() == 0 ? 100 : s.delivered() * 100 / s.expected());
            case RECEIPTS -> String.format(Locale.ENGLISH, "waiting for receipts/resends (%,d unreceipted)", s.unreceipted());
            case SETTLING -> "waiting for the last deliveries";
        };
        double seconds = elapsed.toNanos() / 1e9;
        String fields = String.join(SEPARATOR, where,
                String.format(Locale.ENGLISH, "delivered %,d of %,d", s.delivered(), s.expected()),
                String.format(Locale.ENGLISH, "sent %,d of %,d", s.sent(), s.toSend()),
                String.format(Locale.ENGLISH, "%,.0f msg/s", seconds <= 0 ? 0 : s.delivered() / seconds),
                String.format(Locale.ENGLISH, "quarantined %,d", s.quarantined()),
                "p99 " + s.p99(),
                duration(elapsed));
        String line = bar(s) + " " + fields;
        if (line.length() <= width) {
            return line;
        }
        return fields.length() <= width ? fields : fields.substring(0, Math.max(0, width));
    }

    private static String bar(Status s) {
        int filled = s.expected() == 0 ? BAR : (int) (s.delivered() * BAR / s.expected());
        StringBuilder bar = new StringBuilder(BAR + 2).append('[');
        for (int i = 0; i < BAR; i++) {
            bar.append(i < filled ? '=' : i == filled ? '>' : ' ');
        }
        return bar.append(']').toString();
    }

    /** {@code 0.4 s}, {@code 8.2 s}, {@code 1 min 05 s}, {@code 2 h 03 min}: what a person reads at a glance. */
    static String duration(Duration d) {
        if (d.compareTo(Duration.ofMinutes(1)) < 0) {
            return String.format(Locale.ROOT, "%.1f s", Math.max(0, d.toMillis() / 100) / 10.0);
        }
        if (d.compareTo(Duration.ofHours(1)) < 0) {
            return String.format(Locale.ROOT, "%d min %02d s", d.toMinutes(), d.toSecondsPart());
        }
        return String.format(Locale.ROOT, "%d h %02d min", d.toHours(), d.toMinutesPart());
    }
}
