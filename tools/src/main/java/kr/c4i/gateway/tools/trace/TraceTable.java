package kr.c4i.gateway.tools.trace;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.custody.CustodyStep;

/** The steps of a trail as a table, a column as wide as its widest cell; the detail last, as long as it is. */
final class TraceTable {

    private static final List<String> HEADINGS = List.of("TIME (UTC)", "WHERE", "STEP", "PEER", "LINK", "PRECEDENCE",
            "DETAIL");

    private TraceTable() {
    }

    static void print(PrintWriter out, List<CustodyStep> steps) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADINGS);
        for (CustodyStep step : steps) {
            rows.add(List.of(step.at().toString(), step.hopKind() + " " + step.hop(), step.event(),
                    step.peers().isEmpty() ? "-" : String.join(",", step.peers()), cell(step.link()),
                    cell(step.precedence()), cell(step.detail())));
        }
        int[] widths = new int[HEADINGS.size()];
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
