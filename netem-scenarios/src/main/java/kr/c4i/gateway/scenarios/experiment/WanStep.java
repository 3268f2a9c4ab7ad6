package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.net.Rate;

/**
 * One cell of the {@code wan} experiment as it is run: a loss cell, or the outage (no cell), with a WAN delay.
 *
 * @param cell the loss cell, or null for the outage
 * @param rate the WAN link's rate
 * @param delay the one-way delay added on the WAN link (zero: none)
 */
record WanStep(@Nullable LossCell cell, Rate rate, Duration delay) {

    /**
     * The plan's cells by rate, then delay, then loss, the outage with its rate's cells: the gateways read their
     * budget at start, so this order restarts them once per rate, and the delay helper changes at most once per
     * delay within a rate.
     */
    static List<WanStep> ordered(WanPlan wan) {
        List<WanStep> steps = new ArrayList<>();
        for (Duration delay : wan.delays()) {
            wan.cells().forEach(c -> steps.add(new WanStep(c, c.rate(), delay)));
            if (wan.outage() != null) {
                steps.add(new WanStep(null, wan.outageRate(), delay));
            }
        }
        steps.sort(Comparator.comparingLong((WanStep s) -> s.rate().bitsPerSecond())
                .thenComparing(WanStep::delay)
                .thenComparingDouble(s -> s.cell() == null ? 2 : s.cell().loss()));
        return steps;
    }

    String key(WanPlan wan) {
        return cell == null ? wan.outageKey(delay) : CellKeys.wan(cell, delay);
    }
}
