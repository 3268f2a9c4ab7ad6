package kr.c4i.gateway.kmtf.catalogue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Reads the catalogue's CSV text. Checks every cell and every cross-row rule before giving up, so that one
 * {@link CatalogueException} lists all problems.
 *
 * <p>Format: UTF-8; lines starting with {@code #} and blank lines are ignored; the first other line is the header
 * naming the columns of {@link CatalogueColumns#ALL} in any order; cells may be quoted with {@code "} (a doubled
 * {@code ""} inside quotes is one quote).
 */
final class CatalogueReader {

    private final String source;
    private final List<CatalogueException.Problem> problems = new ArrayList<>();

    private CatalogueReader(String source) {
        this.source = source;
    }

    static List<MessageType> read(String source, List<String> lines) {
        return new CatalogueReader(source).readAll(lines);
    }

    private List<MessageType> readAll(List<String> lines) {
        Map<CatalogueColumn<?>, Integer> positions = null;
        int width = 0;
        List<MessageType> types = new ArrayList<>();
        Map<String, Integer> idLines = new HashMap<>();
        Map<String, Integer> topicLines = new HashMap<>();
        for (int index = 0; index < lines.size(); index++) {
            int lineNumber = index + 1;
            String line = lines.get(index);
            if (index == 0 && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            if (line.isBlank() || line.stripLeading().startsWith("#")) {
                continue;
            }
            List<String> cells = split(line, lineNumber);
            if (cells == null) {
                continue;
            }
            if (positions == null) {
                positions = header(cells, lineNumber);
                width = cells.size();
                continue;
            }
            if (cells.size() != width) {
                problem(lineNumber, null, null, "expected " + width + " columns as in the header, found " + cells.size());
                continue;
            }
            MessageType type = row(cells, positions, lineNumber);
            if (type != null) {
                unique(idLines, type.id(), lineNumber, CatalogueColumns.ID, "duplicate id");
                unique(topicLines, type.topicName(), lineNumber, CatalogueColumns.TOPIC, "duplicate topic");
                types.add(type);
            }
        }
        if (positions == null) {
            problem(0, null, null, "no header row; expected the columns " + columnNames());
        }
        else if (types.isEmpty() && this.problems.isEmpty()) {
            problem(0, null, null, "the catalogue defines no message types");
        }
        if (!this.problems.isEmpty()) {
            throw new CatalogueException(this.source, this.problems);
        }
        return types;
    }

    private Map<CatalogueColumn<?>, Integer> header(List<String> cells, int lineNumber) {
        Map<String, CatalogueColumn<?>> byName = new HashMap<>();
        CatalogueColumns.ALL.forEach((column) -> byName.put(column.name(), column));
        Map<CatalogueColumn<?>, Integer> positions = new LinkedHashMap<>();
        for (int i = 0; i < cells.size(); i++) {
            String name = cells.get(i).strip();
            CatalogueColumn<?> column = byName.get(name);
            if (column == null) {
                problem(lineNumber, name, name, "unknown column; expected " + columnNames());
            }
            else if (positions.putIfAbsent(column, i) != null) {
                problem(lineNumber, name, name, "column named twice in the header");
            }
        }
        for (CatalogueColumn<?> column : CatalogueColumns.ALL) {
            if (!positions.containsKey(column)) {
                problem(lineNumber, column.name(), null, "missing column: " + column.description());
            }
        }
        return positions;
    }

    private @Nullable MessageType row(List<String> cells, Map<CatalogueColumn<?>, Integer> positions, int lineNumber) {
        int before = this.problems.size();
        Object[] values = new Object[CatalogueColumns.ALL.size()];
        for (int i = 0; i < values.length; i++) {
            CatalogueColumn<?> column = CatalogueColumns.ALL.get(i);
            Integer position = positions.get(column);
            if (position != null) {
                String text = cells.get(position);
                try {
                    values[i] = column.parse(text);
                }
                catch (IllegalArgumentException ex) {
                    problem(lineNumber, column.name(), text, ex.getMessage());
                }
            }
        }
        if (this.problems.size() > before || positions.size() < values.length) {
            return null;
        }
        return new MessageType((String) values[0], (String) values[1], (Category) values[2], (String) values[3],
                (Reliability) values[4], (Integer) values[5], (Durability) values[6], (Precedence) values[7],
                (Integer) values[8]);
    }

    private void unique(Map<String, Integer> seen, String value, int lineNumber, CatalogueColumn<?> column,
            String what) {
        Integer first = seen.putIfAbsent(value, lineNumber);
        if (first != null) {
            problem(lineNumber, column.name(), value, what + ", first defined on line " + first);
        }
    }

    private @Nullable List<String> split(String line, int lineNumber) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                }
                else if (c == '"') {
                    quoted = false;
                }
                else {
                    cell.append(c);
                }
            }
            else if (c == '"' && cell.toString().isBlank()) {
                quoted = true;
                cell.setLength(0);
            }
            else if (c == ',') {
                cells.add(cell.toString());
                cell.setLength(0);
            }
            else {
                cell.append(c);
            }
        }
        if (quoted) {
            problem(lineNumber, null, null, "unterminated quoted cell");
            return null;
        }
        cells.add(cell.toString());
        return cells;
    }

    private void problem(int line, @Nullable String column, @Nullable String value, String reason) {
        this.problems.add(new CatalogueException.Problem(this.source, line, column, value, reason));
    }

    private static String columnNames() {
        return String.join(",", CatalogueColumns.ALL.stream().map(CatalogueColumn::name).toList());
    }
}
