package io.qdrant.esgateway.compat.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compares one case's two answers: normalise both (defaults, the scenario's and the case's masks), find the first
 * difference; if there is one, drop the known differences that apply and compare again. The result is either a match
 * or a readable report: the request, the first differing path with both values, and both normalised answers.
 */
public final class Comparison {
    private static final int MAX_SHOWN = 6000;

    private Comparison() {
    }

    public static Optional<String> compare(Scenario scenario, Scenario.Case c, Engine engine,
            HttpTarget.Exchange gateway, HttpTarget.Exchange oracle, KnownDifferences known) {
        List<Normalizer.Rule> rules = new ArrayList<>(Normalizer.DEFAULTS);
        rules.addAll(scenario.normalise());
        rules.addAll(c.normalise());
        JsonNode g = Normalizer.apply(Normalizer.document(gateway, c.compareHeaders()), rules);
        JsonNode o = Normalizer.apply(Normalizer.document(oracle, c.compareHeaders()), rules);
        Optional<JsonDiff.Difference> strict = JsonDiff.first(g, o);
        if (strict.isEmpty()) {
            return Optional.empty();
        }
        List<KnownDifferences.Entry> applicable = known.applicable(engine, scenario.id(), c.name());
        List<Normalizer.Rule> drops = new ArrayList<>();
        List<List<String>> differing = JsonDiff.all(g, o, 1000).stream().map(d -> PathPattern.segments(d.path()))
                .toList();
        for (KnownDifferences.Entry e : applicable) {
            drops.addAll(e.rules());
            // used when it covers a path that really differs (the path itself or one of its ancestors)
            if (differing.stream().anyMatch(path -> e.paths().stream().anyMatch(p -> p.matchesSelfOrAncestor(path)))) {
                known.markUsed(e.id(), engine);
            }
        }
        JsonNode g2 = Normalizer.apply(g, drops);
        JsonNode o2 = Normalizer.apply(o, drops);
        Optional<JsonDiff.Difference> remaining = JsonDiff.first(g2, o2);
        if (remaining.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder s = new StringBuilder();
        s.append("[").append(engine.id()).append("] scenario ").append(scenario.id()).append(", case \"")
                .append(c.name()).append("\": the gateway answers differently from ").append(engine.displayName())
                .append("\n  request: ").append(c.request().describe())
                .append("\n  ").append(remaining.get().describe(engine.id()))
                .append(otherPaths(g2, o2))
                .append("\n  gateway, normalised:\n").append(indent(shorten(Json.pretty(g2))))
                .append("\n  ").append(engine.id()).append(", normalised:\n").append(indent(shorten(Json.pretty(o2))))
                .append("\n  (masked: ").append(rules.size()).append(" rules — Normalizer.DEFAULTS and the scenario's;")
                .append(" known differences dropped: ")
                .append(applicable.isEmpty() ? "none" : String.join(", ",
                        applicable.stream().map(KnownDifferences.Entry::id).toList()))
                .append(")");
        return Optional.of(s.toString());
    }

    private static String otherPaths(JsonNode g, JsonNode o) {
        List<JsonDiff.Difference> all = JsonDiff.all(g, o, 20);
        if (all.size() < 2) {
            return "";
        }
        return "\n  all differing paths: " + String.join(", ", all.stream().map(JsonDiff.Difference::path).toList())
                + (all.size() == 20 ? ", …" : "");
    }

    private static String shorten(String text) {
        return text.length() > MAX_SHOWN ? text.substring(0, MAX_SHOWN) + "\n… (" + text.length() + " characters)"
                : text;
    }

    private static String indent(String text) {
        return "    " + text.replace("\n", "\n    ");
    }
}
