package io.qdrant.esgateway.compat.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The first difference between two normalised documents, as a JSON Pointer. Objects are compared by key (order does
 * not matter: no Elasticsearch client depends on it), arrays element by element (order matters: hits, buckets),
 * numbers by value within their kind (an integer never equals a decimal: {@code 1} vs {@code 1.0} is a difference,
 * and so is {@code 1} vs {@code "1"}). Scores ({@code _score}, {@code max_score}) may differ by a relative
 * {@link #SCORE_TOLERANCE}; their order is still compared through the arrays they sit in.
 */
public final class JsonDiff {
    public static final double SCORE_TOLERANCE = 1e-4;
    private static final Set<String> SCORE_KEYS = Set.of("_score", "max_score");

    /** Where the documents first differ and how. {@code gateway}/{@code oracle} are missing nodes when absent. */
    public record Difference(String path, JsonNode gateway, JsonNode oracle, String what) {
        public String describe(String oracleName) {
            return "first difference at " + path + ": " + what + "\n      gateway:       " + show(gateway)
                    + "\n      " + String.format("%-15s", oracleName + ":") + show(oracle);
        }

        private static String show(JsonNode node) {
            if (node == null || node.isMissingNode()) {
                return "(absent)";
            }
            String text = Json.compact(node);
            return text.length() > 500 ? text.substring(0, 500) + " …" : text;
        }
    }

    private JsonDiff() {
    }

    public static Optional<Difference> first(JsonNode gateway, JsonNode oracle) {
        List<Difference> found = all(gateway, oracle, 1);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    /** Up to {@code limit} differences, in document order (the first one is {@link #first}'s). */
    public static List<Difference> all(JsonNode gateway, JsonNode oracle, int limit) {
        List<Difference> out = new ArrayList<>();
        collect(gateway, oracle, new ArrayList<>(), out, limit);
        return out;
    }

    private static void collect(JsonNode a, JsonNode b, List<String> path, List<Difference> out, int limit) {
        if (out.size() >= limit) {
            return;
        }
        String pointer = PathPattern.pointer(path);
        if (a.isObject() && b.isObject()) {
            Set<String> keys = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(keys::add);
            b.fieldNames().forEachRemaining(keys::add);
            for (String key : keys) {
                JsonNode av = a.get(key);
                JsonNode bv = b.get(key);
                path.add(key);
                if (av == null) {
                    add(out, limit, new Difference(PathPattern.pointer(path), MissingNode.getInstance(), bv,
                            "only the oracle has it"));
                } else if (bv == null) {
                    add(out, limit, new Difference(PathPattern.pointer(path), av, MissingNode.getInstance(),
                            "only the gateway has it"));
                } else {
                    collect(av, bv, path, out, limit);
                }
                path.removeLast();
            }
            return;
        }
        if (a.isArray() && b.isArray()) {
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                path.add(Integer.toString(i));
                collect(a.get(i), b.get(i), path, out, limit);
                path.removeLast();
            }
            if (a.size() != b.size()) {
                add(out, limit, new Difference(pointer, a, b, "arrays of " + a.size() + " and " + b.size()
                        + " elements"));
            }
            return;
        }
        if (a.isNumber() && b.isNumber()) {
            if (!path.isEmpty() && SCORE_KEYS.contains(path.getLast())) {
                double x = a.doubleValue();
                double y = b.doubleValue();
                if (Math.abs(x - y) > SCORE_TOLERANCE * Math.max(1.0, Math.abs(y))) {
                    add(out, limit, new Difference(pointer, a, b, "scores differ beyond the tolerance"));
                }
                return;
            }
            if (a.isIntegralNumber() != b.isIntegralNumber()) {
                add(out, limit, new Difference(pointer, a, b, "an integer and a decimal number"));
                return;
            }
            boolean equal = a.isIntegralNumber() ? a.bigIntegerValue().equals(b.bigIntegerValue())
                    : a.decimalValue().compareTo(b.decimalValue()) == 0;
            if (!equal) {
                add(out, limit, new Difference(pointer, a, b, "different values"));
            }
            return;
        }
        if (a.getNodeType() != b.getNodeType()) {
            add(out, limit, new Difference(pointer, a, b, "different JSON types (" + a.getNodeType().name()
                    .toLowerCase(java.util.Locale.ROOT) + " vs " + b.getNodeType().name()
                    .toLowerCase(java.util.Locale.ROOT) + ")"));
            return;
        }
        if (!a.equals(b)) {
            add(out, limit, new Difference(pointer, a, b, "different values"));
        }
    }

    private static void add(List<Difference> out, int limit, Difference d) {
        if (out.size() < limit) {
            out.add(d);
        }
    }
}
