package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.util.IntSummaryStatistics;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.node.WanLinkKind;

/**
 * What the {@code wan} experiment does per link: the loss experiment's cells on the WAN link between two sites'
 * gateways (LANs unimpaired), ROUTINE load with FLASH probes, and an outage under load.
 *
 * @param links WAN links to run, each with its own deployment (the LANs run the link's transport)
 * @param nodesPerSite nodes on each site's LAN (1 or 2; the third host is the gateway)
 * @param messages ROUTINE messages per loss cell at least, from site 1's first node to site 2's first node
 * @param size bytes per message
 * @param flashMessages FLASH messages sent one by one while the ROUTINE load crosses the WAN
 * @param cells loss and rate of the WAN link (the loss experiment's cells)
 * @param outage how long the WAN is cut under load in the outage cell; null: no outage cell
 * @param outageRate the WAN link's rate in the outage cell (no loss)
 * @param outageMessages messages of each precedence written while the WAN is cut (ROUTINE first, FLASH last)
 * @param delays one-way delays added on the WAN link, each cell run once per delay (zero: none); absent in runs made
 *        before it existed, which had none
 * @param variants the bodies and compression each cell runs with, each cell once per variant; absent in runs made
 *        before it existed, which ran today's filler bodies, compressed
 * @param cellSeconds seconds of its payload bound each loss cell carries at least, in more than {@code messages}
 *        where the link is fast: a cell of 1,000 messages at 2 Mbit/s is over in about a second, less than a
 *        satellite hop's round trips and the repair of its last frames take, so its rate would be theirs and not the
 *        link's; 0 (and in runs made before it existed): {@code messages} in every cell
 */
public record WanPlan(List<WanLinkKind> links, int nodesPerSite, int messages, int size, int flashMessages,
        List<LossCell> cells, @Nullable Duration outage, Rate outageRate, int outageMessages, List<Duration> delays,
        List<WanVariant> variants, @Nullable Integer cellSeconds) {

    /** The longest delay: the helper holds at most {@code LinkDelay.MAX_PACKETS} frames for it. */
    public static final Duration MAX_DELAY = Duration.ofSeconds(10);

    private static final Duration MIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration MAX_TIMEOUT = Duration.ofSeconds(600);
    /** Rough WAN bytes of a 200-byte message (frames compress), only for deadlines. */
    private static final int DEADLINE_WIRE_BYTES = 400;
    /** Seconds of the payload bound a cell of the full plan carries at least. */
    private static final int FULL_CELL_SECONDS = 10;
    private static final int MAX_CELL_SECONDS = 600;

    public WanPlan {
        links = List.copyOf(links);
        cells = List.copyOf(cells);
        if (links.isEmpty()) {
            throw new IllegalArgumentException("choose at least one WAN link");
        }
        if (nodesPerSite < 1 || nodesPerSite > 2) {
            throw new IllegalArgumentException("nodes per site must be 1 or 2, was " + nodesPerSite);
        }
        if (messages < 1 || flashMessages < 1 || outageMessages < 1 || size < 1) {
            throw new IllegalArgumentException("WAN message counts and size must be positive");
        }
        cellSeconds = cellSeconds == null ? 0 : cellSeconds;
        if (cellSeconds < 0 || cellSeconds > MAX_CELL_SECONDS) {
            throw new IllegalArgumentException("a wan cell's seconds of its bound must be 0 to " + MAX_CELL_SECONDS
                    + ", was " + cellSeconds);
        }
        delays = delays == null ? List.of(Duration.ZERO) : delays.stream().distinct().toList();
        if (delays.isEmpty()) {
            throw new IllegalArgumentException("choose at least one WAN delay (0 for none)");
        }
        for (Duration d : delays) {
            if (d.isNegative() || d.compareTo(MAX_DELAY) > 0 || d.toNanos() % 1_000_000 != 0) {
                throw new IllegalArgumentException("a WAN delay must be whole milliseconds from 0 to "
                        + MAX_DELAY.toSeconds() + " s, was " + d.toMillis() + " ms");
            }
        }
        variants = variants == null ? List.of(WanVariant.FILLER) : variants.stream().distinct().toList();
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("choose at least one wan variant");
        }
    }

    /** A plan without a WAN delay, of today's filler bodies. */
    public WanPlan(List<WanLinkKind> links, int nodesPerSite, int messages, int size, int flashMessages,
            List<LossCell> cells, @Nullable Duration outage, Rate outageRate, int outageMessages) {
        this(links, nodesPerSite, messages, size, flashMessages, cells, outage, outageRate, outageMessages, null,
                null, 0);
    }

    /**
     * Every link, the study's six cells of at least 1,000 messages and 10 s of their bound, and a 60 s outage at 256
     * kbit/s.
     */
    public static WanPlan full() {
        return new WanPlan(List.of(WanLinkKind.JMS, WanLinkKind.DDS, WanLinkKind.NORM), 2, 1000, 200, 20,
                RunPlan.studyLossCells(), Duration.ofSeconds(60), Rate.KBIT_256, 250, null, null, FULL_CELL_SECONDS);
    }

    /**
     * CI: the jms and norm links, each with the smallest cell (10% at 2 Mbit/s, the shortest to run) and a 10 s
     * outage at the same rate (the gateways read their budget at start: one rate, no restart).
     */
    public static WanPlan quick() {
        return new WanPlan(List.of(WanLinkKind.JMS, WanLinkKind.NORM), 1, 200, 200, 10, List.of(new LossCell(0.1, Rate.MBIT_2)),
                Duration.ofSeconds(10), Rate.MBIT_2, 25);
    }

    /** Key of the undelayed outage cell of today's bodies in result files, e.g. {@code outage 60 s 256 kbit/s}. */
    public String outageKey() {
        return outageKey(Duration.ZERO, WanVariant.FILLER);
    }

    /**
     * Key of the outage cell with a WAN delay and a variant, e.g. {@code outage 60 s 256 kbit/s, 250 ms delay, mix}.
     */
    public String outageKey(Duration delay, WanVariant variant) {
        return outage == null ? ""
                : CellKeys.wan("outage " + outage.toSeconds() + " s " + outageRate.label(), delay, variant);
    }

    /** Cells per link (the outage counts as one), once per delay and variant. */
    public int cellCount() {
        return (cells.size() + (outage == null ? 0 : 1)) * delays.size() * variants.size();
    }

    /**
     * ROUTINE messages of a loss cell: {@code messages}, or more where that is under {@code cellSeconds} of its
     * bound.
     */
    public int messagesIn(LossCell cell) {
        return (int) Math.max(messages, Math.ceil(cellSeconds * cell.payloadBound(size)));
    }

    /** The ROUTINE messages of the plan's cells: the fewest and the most ({@code messages} when it has none). */
    public IntSummaryStatistics messageCounts() {
        IntSummaryStatistics counts = cells.stream().mapToInt(this::messagesIn).summaryStatistics();
        if (counts.getCount() == 0) {
            counts.accept(messages);
        }
        return counts;
    }

    /** Whether any cell runs with a WAN delay. */
    public boolean delayed() {
        return delays.stream().anyMatch(d -> !d.isZero());
    }

    /** Seconds the cell's link needs for the load at its loss-adjusted rate, for deadlines and FLASH spacing. */
    public double nominalSeconds(Rate rate, double loss, int count) {
        return count * (double) DEADLINE_WIRE_BYTES * 8 / (rate.bitsPerSecond() * (1 - loss));
    }

    /** 6x the nominal time, within 60-600 s. */
    public Duration timeout(Rate rate, double loss, int count) {
        Duration computed = Duration.ofMillis(Math.round(nominalSeconds(rate, loss, count) * 6000));
        return computed.compareTo(MIN_TIMEOUT) < 0 ? MIN_TIMEOUT
                : computed.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT : computed;
    }

    /** The same plan with other links. */
    public WanPlan withLinks(List<WanLinkKind> chosen) {
        return new WanPlan(chosen, nodesPerSite, messages, size, flashMessages, cells, outage, outageRate,
                outageMessages, delays, variants, cellSeconds);
    }

    /** The same plan with other cells and message count. */
    public WanPlan withLoad(List<LossCell> chosenCells, int messageCount) {
        return new WanPlan(links, nodesPerSite, messageCount, size, flashMessages, chosenCells, outage, outageRate,
                outageMessages, delays, variants, cellSeconds);
    }

    /** The same plan with other WAN delays. */
    public WanPlan withDelays(List<Duration> chosen) {
        return new WanPlan(links, nodesPerSite, messages, size, flashMessages, cells, outage, outageRate,
                outageMessages, chosen, variants, cellSeconds);
    }

    /** The same plan with cells of at least these seconds of their bound (0: {@code messages} in every cell). */
    public WanPlan withCellSeconds(int seconds) {
        return new WanPlan(links, nodesPerSite, messages, size, flashMessages, cells, outage, outageRate,
                outageMessages, delays, variants, seconds);
    }

    /** The same plan with other variants. */
    public WanPlan withVariants(List<WanVariant> chosen) {
        return new WanPlan(links, nodesPerSite, messages, size, flashMessages, cells, outage, outageRate,
                outageMessages, delays, chosen, cellSeconds);
    }
}
