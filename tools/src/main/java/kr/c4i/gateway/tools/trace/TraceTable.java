package kr.c4i.gateway.tools.trace;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.custody.CustodyStep;

/** The steps of a trail as a table, a column as wide as its widest cell; the detail last, as long as it is. */
final class TraceTable {

    private static final List<String> HEADINGS = List.of("TIME (UTC)", "WHERE", "STEP", "PEER", "LINK", "PRECEDENCE",
            "DETAIL");

    private TraceTable() {
    }

    private static final List<String> HOP_HEADINGS = List.of("TIME (UTC)", "WHERE", "ACTION");

    static void print(PrintWriter out, List<CustodyStep> steps) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADINGS);
        for (CustodyStep step : steps) {
            rows.add(List.of(step.at().toString(), step.hopKind() + " " + step.hop(), step.event(),
                    step.peers().isEmpty() ? "-" : String.join(",", step.peers()), cell(step.link()),
                    cell(step.precedence()), cell(step.detail())));
        }
        printRows(out, rows);
    }

    /** The hops a message carried, indented under the steps; each time by that hop's clock. */
    static void printHops(PrintWriter out, HopTrace trace) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HOP_HEADINGS);
        for (int i = 0; i < trace.hops().size(); i++) {
            HopTrace.Hop hop = trace.hops().get(i);
            rows.add(List.of("  " + hop.at(), hop.place(), hop.action().label()));
            if (i == 0 && trace.omitted() > 0) {
                rows.add(List.of("  ...", "(" + trace.omitted() + " hops omitted)", ""));
            }
        }
        printRows(out, rows);
    }

    private static void printRows(PrintWriter out, List<List<String>> rows) {
        int[] widths = new int[rows.getFirst().size()];
        for (List<String> row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < widths.length - 1; i++) {
                line.append(String.format("%-" + widths[i] + "s  ", row.get(i)));
            }
            out.println(line.append(row.getLast()).toString().stripTrailing());
        }
    }

    private static String cell(@Nullable String value) {
        return value == null ? "-" : value;
    }
}
