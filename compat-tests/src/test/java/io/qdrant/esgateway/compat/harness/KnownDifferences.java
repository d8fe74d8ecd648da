package io.qdrant.esgateway.compat.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code known-differences.yaml}: every place where the gateway's answer is allowed to differ from an oracle's, each
 * with the reason. An entry drops its paths from both normalised documents before they are compared again, and
 * counts as used when it hid a real difference; an entry that hid nothing in a whole run is stale and fails the run
 * (see ScenarioTest), so the file cannot rot. Entries for Elasticsearch are the gateway's documented differences and
 * must be named in docs/compatibility.md; entries for OpenSearch record where OpenSearch is not a faithful oracle.
 */
public final class KnownDifferences {
    public static final String RESOURCE = "/known-differences.yaml";

    /** One reasoned difference. {@code scenario} and {@code cases} are globs ({@code *} = any). */
    public record Entry(String id, Set<Engine> engines, String scenario, List<String> cases, List<PathPattern> paths,
                        String why) {
        boolean appliesTo(Engine engine, String scenarioId, String caseTitle) {
            return engines.contains(engine) && glob(scenario, scenarioId)
                    && cases.stream().anyMatch(c -> glob(c, caseTitle));
        }

        List<Normalizer.Rule> rules() {
            return paths.stream().map(p -> (Normalizer.Rule) new Normalizer.Rule.Drop(p, id + ": " + why)).toList();
        }

        private static boolean glob(String pattern, String value) {
            String regex = java.util.Arrays.stream(pattern.split("\\*", -1)).map(java.util.regex.Pattern::quote)
                    .reduce((a, b) -> a + ".*" + b).orElse("");
            return value.matches(regex);
        }
    }

    private final Map<String, Entry> entries;
    private final Set<String> used = ConcurrentHashMap.newKeySet();

    public KnownDifferences(List<Entry> entries) {
        Map<String, Entry> byId = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (byId.put(e.id(), e) != null) {
                throw new IllegalArgumentException("known difference id [" + e.id() + "] is used twice");
            }
        }
        this.entries = byId;
    }

    public static KnownDifferences load() {
        try (InputStream in = KnownDifferences.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the test class path");
            }
            return parse(ScenarioLoader.YAML.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static KnownDifferences parse(JsonNode root) {
        List<Entry> list = new ArrayList<>();
        for (JsonNode n : root.path("differences")) {
            n.fieldNames().forEachRemaining(k -> {
                if (!Set.of("id", "engines", "scenario", "case", "paths", "why").contains(k)) {
                    throw new IllegalArgumentException("known-differences.yaml: unknown key [" + k + "] in " + n);
                }
            });
            String id = n.path("id").asText("");
            String why = n.path("why").asText("");
            if (id.isBlank() || why.isBlank() || !n.path("paths").isArray() || n.path("paths").isEmpty()
                    || !n.path("engines").isArray() || n.path("engines").isEmpty()) {
                throw new IllegalArgumentException("known-differences.yaml: every entry needs id, engines, paths and "
                        + "why: " + n);
            }
            Set<Engine> engines = EnumSet.noneOf(Engine.class);
            n.get("engines").forEach(e -> engines.add(Engine.byId(e.asText())));
            List<PathPattern> paths = new ArrayList<>();
            n.get("paths").forEach(p -> paths.add(PathPattern.of(p.asText())));
            List<String> cases = new ArrayList<>();
            if (n.path("case").isArray()) {
                n.get("case").forEach(c -> cases.add(c.asText()));
            } else {
                cases.add(n.path("case").asText("*"));
            }
            list.add(new Entry(id, engines, n.path("scenario").asText("*"), List.copyOf(cases), paths, why));
        }
        return new KnownDifferences(list);
    }

    public List<Entry> all() {
        return List.copyOf(entries.values());
    }

    public List<Entry> applicable(Engine engine, String scenarioId, String caseName) {
        return entries.values().stream().filter(e -> e.appliesTo(engine, scenarioId, caseName)).toList();
    }

    void markUsed(String id, Engine engine) {
        used.add(id + "@" + engine.id());
    }

    /** Entries for {@code engine} that never hid a difference with it (meaningful after all its scenarios ran). */
    public List<Entry> unused(Engine engine) {
        return entries.values().stream().filter(e -> e.engines().contains(engine))
                .filter(e -> !used.contains(e.id() + "@" + engine.id())).toList();
    }
}
