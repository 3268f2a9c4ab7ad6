package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.net.Rate;

/**
 * One cell of the {@code wan} experiment as it is run: a loss cell, or the outage (no cell), with a WAN delay and a
 * variant.
 *
 * @param cell the loss cell, or null for the outage
 * @param rate the WAN link's rate
 * @param delay the one-way delay added on the WAN link (zero: none)
 * @param variant the bodies written and whether the gateways compress their frames
 */
record WanStep(@Nullable LossCell cell, Rate rate, Duration delay, WanVariant variant) {

    /**
     * The plan's cells by rate, then compression, then delay, then loss, the outage with its rate's cells, a cell's
     * variants one after the other: the gateways read their budget and their compression at start, so this order
     * restarts them at most twice per rate, and the delay helper changes at most once per delay within those.
     */
    static List<WanStep> ordered(WanPlan wan) {
        List<WanStep> steps = new ArrayList<>();
        for (WanVariant variant : wan.variants()) {
            for (Duration delay : wan.delays()) {
                wan.cells().forEach(c -> steps.add(new WanStep(c, c.rate(), delay, variant)));
                if (wan.outage() != null) {
                    steps.add(new WanStep(null, wan.outageRate(), delay, variant));
                }
            }
        }
        steps.sort(Comparator.comparingLong((WanStep s) -> s.rate().bitsPerSecond())
                .thenComparing(s -> !s.variant().compressed())
                .thenComparing(WanStep::delay)
                .thenComparingDouble(s -> s.cell() == null ? 2 : s.cell().loss())
                .thenComparing(WanStep::variant));
        return steps;
    }

    /**
     * Messages that warm gateways up which start for this step: as many as its cell writes, at least {@code least}.
     * Twenty left their JIT cold, and the first repetition after a start measured it: a FLASH message behind the
     * first burst of 11,250 waited 0.8-1.1 s in a node or a gateway, where the next repetitions waited 13-382 ms
     * (docs/results.md).
     */
    int warmUpMessages(WanPlan wan, int least) {
        return cell == null ? least : Math.max(least, wan.messagesIn(cell));
    }

    String key(WanPlan wan) {
        return cell == null ? wan.outageKey(delay, variant) : CellKeys.wan(cell.key(), delay, variant);
    }
}
