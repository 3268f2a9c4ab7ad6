package kr.c4i.gateway.wan.policy;

import java.io.StringReader;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.wan.schedule.NanoClock;
import kr.c4i.gateway.wan.schedule.TokenBucket;

/**
 * Reads the policy file (YAML) into a {@link RelayPolicy}, resolving every pattern against the catalogue. Reads the
 * YAML as nodes, not objects, so each problem names its line; collects every problem and throws once,
 * in line order.
 */
final class PolicyReader {

    private static final Set<String> SECTIONS = Set.of("default", "rules", "rate-limits", "supersede", "expiry");
    private static final Pattern RATE = Pattern.compile("\\s*(\\d+)\\s*/\\s*(\\S+)\\s*");
    private static final Pattern SET_FIELD = Pattern.compile("([A-Z0-9][A-Z0-9 ]*)(?:/(\\d+))?");

    private final String source;
    private final KmtfCatalogue catalogue;
    private final NanoClock nanoClock;
    private final InstantSource clock;
    private final List<Problem> problems = new ArrayList<>();

    PolicyReader(String source, KmtfCatalogue catalogue, NanoClock nanoClock, InstantSource clock) {
        this.source = source;
        this.catalogue = catalogue;
        this.nanoClock = nanoClock;
        this.clock = clock;
    }

    RelayPolicy read(String text) {
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            root = new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
        }
        catch (MarkedYAMLException ex) {
            String where = (ex.getProblemMark() != null) ? "line " + (ex.getProblemMark().getLine() + 1) + ": " : "";
            throw new PolicyException(this.source, where + "not valid YAML: " + ex.getProblem(), ex);
        }
        catch (YAMLException ex) {
            throw new PolicyException(this.source, "not valid YAML: " + ex.getMessage(), ex);
        }
        boolean defaultAllow = true;
        List<RelayPolicy.Rule> rules = new ArrayList<>();
        Map<String, RelayPolicy.RateLimit> rateLimits = new HashMap<>();
        Map<String, RelayPolicy.SupersedeKey> supersede = new HashMap<>();
        Map<String, Duration> maxAgeByType = new HashMap<>();
        Map<Precedence, Duration> maxAgeBestEffort = new EnumMap<>(Precedence.class);
        Map<Precedence, Duration> maxAgeReliable = new EnumMap<>(Precedence.class);
        if (root != null) {
            Map<String, Node> sections = mapping(root, SECTIONS);
            Node defaultNode = sections.get("default");
            if (defaultNode != null) {
                defaultAllow = action(defaultNode);
            }
            for (Node entry : sequence(sections.get("rules"))) {
                rule(entry, rules);
            }
            for (Node entry : sequence(sections.get("rate-limits"))) {
                rateLimit(entry, rateLimits);
            }
            for (Node entry : sequence(sections.get("supersede"))) {
                supersede(entry, supersede);
            }
            for (Node entry : sequence(sections.get("expiry"))) {
                expiry(entry, maxAgeByType, maxAgeBestEffort, maxAgeReliable);
            }
        }
        if (!this.problems.isEmpty()) {
            throw new PolicyException(this.source, this.problems.stream()
                .sorted(Comparator.comparingInt(Problem::line))
                .map((p) -> "line " + p.line() + ": " + p.message())
                .toList());
        }
        return new RelayPolicy(defaultAllow, rules, rateLimits, supersede, maxAgeByType, maxAgeBestEffort,
                maxAgeReliable, this.catalogue, this.clock);
    }

    private void rule(Node entry, List<RelayPolicy.Rule> rules) {
        Map<String, Node> fields = mapping(entry, Set.of("allow", "deny"));
        if (fields.size() != 1) {
            problem(entry, "a rule is one of 'allow: <patterns>' or 'deny: <patterns>'");
            return;
        }
        Map.Entry<String, Node> only = fields.entrySet().iterator().next();
        Set<String> types = new LinkedHashSet<>();
        List<String> patterns = new ArrayList<>();
        for (Node pattern : scalars(only.getValue())) {
            String text = ((ScalarNode) pattern).getValue();
            patterns.add(text);
            resolve(pattern).forEach((t) -> types.add(t.id()));
        }
        rules.add(new RelayPolicy.Rule(only.getKey().equals("allow"), String.join(", ", patterns), Set.copyOf(types)));
    }

    private void rateLimit(Node entry, Map<String, RelayPolicy.RateLimit> rateLimits) {
        Map<String, Node> fields = mapping(entry, Set.of("types", "rate", "burst", "drop-reliable"));
        List<MessageType> types = limitedTypes(entry, fields, "a rate limit");
        Node rateNode = required(entry, fields, "rate");
        if (rateNode == null) {
            return;
        }
        String rate = scalar(rateNode);
        Matcher matcher = RATE.matcher(rate);
        Duration per = matcher.matches() ? duration(matcher.group(2)) : null;
        long count = matcher.matches() ? parseLong(rateNode, matcher.group(1)) : 0;
        if (!matcher.matches() || per == null || count < 1 || per.isZero() || per.isNegative()) {
            problem(rateNode, "rate '" + rate + "' is not <messages>/<period> with both positive, such as 10/s, "
                    + "600/m or 1/5s");
            return;
        }
        Node burstNode = fields.get("burst");
        long burst = (burstNode != null) ? parseLong(burstNode, scalar(burstNode)) : count;
        if (burst < 1) {
            problem((burstNode != null) ? burstNode : entry, "burst must be at least 1, was " + burst);
            return;
        }
        RelayPolicy.RateLimit limit = new RelayPolicy.RateLimit(new TokenBucket(count, per, burst, this.nanoClock));
        types.forEach((t) -> rateLimits.putIfAbsent(t.id(), limit));
    }

    private void supersede(Node entry, Map<String, RelayPolicy.SupersedeKey> supersede) {
        Map<String, Node> fields = mapping(entry, Set.of("types", "field", "drop-reliable"));
        List<MessageType> types = limitedTypes(entry, fields, "a supersede entry");
        Node fieldNode = fields.get("field");
        RelayPolicy.SupersedeKey key = new RelayPolicy.SupersedeKey(null, 0);
        if (fieldNode != null) {
            Matcher matcher = SET_FIELD.matcher(scalar(fieldNode).strip());
            if (!matcher.matches() || (matcher.group(2) != null && parseLong(fieldNode, matcher.group(2)) < 1)) {
                problem(fieldNode, "field '" + scalar(fieldNode) + "' is not <SET> or <SET>/<field number from 1>, "
                        + "such as UNITID/1");
                return;
            }
            int field = (matcher.group(2) != null) ? Integer.parseInt(matcher.group(2)) : 0;
            key = new RelayPolicy.SupersedeKey(matcher.group(1), field);
        }
        RelayPolicy.SupersedeKey chosen = key;
        types.forEach((t) -> supersede.putIfAbsent(t.id(), chosen));
    }

    private void expiry(Node entry, Map<String, Duration> byType, Map<Precedence, Duration> bestEffort,
            Map<Precedence, Duration> reliable) {
        Map<String, Node> fields = mapping(entry, Set.of("types", "precedence", "max-age", "drop-reliable"));
        Node ageNode = required(entry, fields, "max-age");
        Duration maxAge = (ageNode != null) ? duration(scalar(ageNode)) : null;
        if (ageNode != null && (maxAge == null || maxAge.isNegative() || maxAge.isZero())) {
            problem(ageNode, "max-age '" + scalar(ageNode) + "' is not a positive duration, such as 90s, 10m or 1h");
            return;
        }
        Node precedenceNode = fields.get("precedence");
        if ((precedenceNode == null) == (fields.get("types") == null)) {
            problem(entry, "an expiry entry names either 'types' or 'precedence', not both or neither");
            return;
        }
        if (maxAge == null) {
            return;
        }
        if (precedenceNode != null) {
            boolean dropReliable = dropReliable(fields);
            for (Node node : scalars(precedenceNode)) {
                try {
                    Precedence precedence = Precedence.parse(scalar(node));
                    bestEffort.putIfAbsent(precedence, maxAge);
                    if (dropReliable) {
                        reliable.putIfAbsent(precedence, maxAge);
                    }
                }
                catch (IllegalArgumentException ex) {
                    problem(node, ex.getMessage());
                }
            }
            return;
        }
        limitedTypes(entry, fields, "an expiry entry").forEach((t) -> byType.putIfAbsent(t.id(), maxAge));
    }

    /**
     * The types of an entry that may drop messages: RELIABLE ones only with {@code drop-reliable: true}. An entry
     * that so matches nothing is a mistake worth failing on.
     */
    private List<MessageType> limitedTypes(Node entry, Map<String, Node> fields, String what) {
        Node typesNode = required(entry, fields, "types");
        if (typesNode == null) {
            return List.of();
        }
        boolean dropReliable = dropReliable(fields);
        List<MessageType> matched = new ArrayList<>();
        for (Node pattern : scalars(typesNode)) {
            List<MessageType> types = resolve(pattern);
            List<MessageType> kept = dropReliable ? types
                    : types.stream().filter((t) -> t.reliability() == Reliability.BEST_EFFORT).toList();
            if (!types.isEmpty() && kept.isEmpty()) {
                problem(pattern, what + " on '" + scalar(pattern) + "' matches only RELIABLE types, which it never "
                        + "drops unless the entry says drop-reliable: true");
            }
            matched.addAll(kept);
        }
        return matched;
    }

    private boolean dropReliable(Map<String, Node> fields) {
        Node node = fields.get("drop-reliable");
        if (node == null) {
            return false;
        }
        String text = scalar(node).strip().toLowerCase(Locale.ROOT);
        if (!text.equals("true") && !text.equals("false")) {
            problem(node, "drop-reliable must be true or false, was '" + scalar(node) + "'");
        }
        return text.equals("true");
    }

    private List<MessageType> resolve(Node pattern) {
        try {
            return TypePatterns.resolve(scalar(pattern), this.catalogue);
        }
        catch (IllegalArgumentException ex) {
            problem(pattern, "pattern " + ex.getMessage());
            return List.of();
        }
    }

    private boolean action(Node node) {
        String text = scalar(node).strip().toLowerCase(Locale.ROOT);
        if (!text.equals("allow") && !text.equals("deny")) {
            problem(node, "default must be allow or deny, was '" + scalar(node) + "'");
        }
        return !text.equals("deny");
    }

    private static @Nullable Duration duration(String text) {
        String value = text.strip();
        // "10/s" reads as ten per second: a bare unit means one of it.
        String withCount = (!value.isEmpty() && Character.isLetter(value.charAt(0))) ? "1" + value : value;
        try {
            return DurationStyle.detectAndParse(withCount);
        }
        catch (IllegalArgumentException ex) {
            return null;
        }
    }

    private long parseLong(Node node, String text) {
        try {
            return Long.parseLong(text.strip());
        }
        catch (NumberFormatException ex) {
            problem(node, "'" + text + "' is not a whole number");
            return -1;
        }
    }

    private @Nullable Node required(Node entry, Map<String, Node> fields, String key) {
        Node node = fields.get(key);
        if (node == null && !fields.isEmpty()) {
            problem(entry, "'" + key + "' is missing");
        }
        return node;
    }

    /** The keys of a mapping, checked against the allowed ones; empty (with a problem) if it is not a mapping. */
    private Map<String, Node> mapping(Node node, Set<String> allowed) {
        if (!(node instanceof MappingNode mapping)) {
            problem(node, "expected 'key: value' lines here (" + String.join(", ", allowed) + ")");
            return Map.of();
        }
        Map<String, Node> fields = new LinkedHashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
            String key = (tuple.getKeyNode() instanceof ScalarNode scalar) ? scalar.getValue() : "";
            if (!allowed.contains(key)) {
                problem(tuple.getKeyNode(), "unknown key '" + key + "'; expected one of " + String.join(", ",
                        allowed.stream().sorted().toList()));
            }
            else if (fields.put(key, tuple.getValueNode()) != null) {
                problem(tuple.getKeyNode(), "key '" + key + "' appears twice");
            }
        }
        return fields;
    }

    private List<Node> sequence(@Nullable Node node) {
        if (node == null) {
            return List.of();
        }
        if (!(node instanceof SequenceNode sequence)) {
            problem(node, "expected a list of entries, each starting with '- '");
            return List.of();
        }
        return sequence.getValue();
    }

    /** One scalar or a list of scalars, such as a pattern or several. */
    private List<Node> scalars(Node node) {
        if (node instanceof ScalarNode) {
            return List.of(node);
        }
        List<Node> scalars = new ArrayList<>();
        for (Node item : sequence(node)) {
            if (item instanceof ScalarNode) {
                scalars.add(item);
            }
            else {
                problem(item, "expected a single value here");
            }
        }
        return scalars;
    }

    private String scalar(Node node) {
        if (node instanceof ScalarNode scalar) {
            return scalar.getValue();
        }
        problem(node, "expected a single value here");
        return "";
    }

    private void problem(Node node, String message) {
        this.problems.add(new Problem(node.getStartMark().getLine() + 1, message));
    }

    private record Problem(int line, String message) {
    }
}
