package io.qdrant.esgateway.compat.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qdrant.esgateway.compat.generator.GeneratedScenarios;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads scenario files (YAML) strictly: an unknown key, a missing name or reason, or an unknown engine or capability
 * is an error naming the file, so a typo cannot silently turn a case into a no-op.
 */
public final class ScenarioLoader {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> SCENARIO_KEYS = Set.of("description", "engines", "normalise", "setup", "cases",
            "generated");
    private static final Set<String> STEP_KEYS = Set.of("request", "body", "raw_body", "content_type", "headers",
            "requires");
    private static final Set<String> CASE_KEYS = Set.of("name", "request", "body", "raw_body", "content_type",
            "headers", "requires", "compare_headers", "normalise", "engines", "capture");
    /** Compared on every case unless the case lists its own. */
    public static final List<String> DEFAULT_HEADERS = List.of("content-type", "x-elastic-product");

    private ScenarioLoader() {
    }

    /** Every {@code *.yaml} under {@code scenarios/} on the test class path, sorted by file name. */
    public static List<Scenario> loadAll() {
        URL dir = ScenarioLoader.class.getResource("/scenarios");
        if (dir == null) {
            throw new IllegalStateException("no scenarios/ directory on the test class path");
        }
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".yaml")).sorted()
                    .map(ScenarioLoader::load).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Scenario load(Path file) {
        String name = file.getFileName().toString();
        String id = name.substring(0, name.length() - ".yaml".length());
        try {
            return parse(id, YAML.readTree(file.toFile()));
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": not valid YAML: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    public static Scenario parse(String id, JsonNode root) {
        checkKeys(root, SCENARIO_KEYS, "scenario");
        List<Scenario.Step> setup = new ArrayList<>();
        List<Scenario.Case> cases = new ArrayList<>();
        if (root.has("generated")) {
            JsonNode g = root.get("generated");
            checkKeys(g, Set.of("seed", "documents", "queries", "kind"), "generated");
            String kind = g.path("kind").asText("search");
            if (!kind.equals("search") && !kind.equals("highlight")) {
                throw new IllegalArgumentException("generated kind [" + kind + "]: search or highlight");
            }
            Scenario generated = kind.equals("highlight") ? GeneratedScenarios.highlightScenario(id,
                    g.path("seed").asLong(1), g.path("documents").asInt(30), g.path("queries").asInt(10))
                    : GeneratedScenarios.scenario(id, g.path("seed").asLong(1),
                    g.path("documents").asInt(30), g.path("queries").asInt(10));
            setup.addAll(generated.setup());
            cases.addAll(generated.cases());
        }
        for (JsonNode step : root.path("setup")) {
            checkKeys(step, STEP_KEYS, "setup step");
            setup.add(new Scenario.Step(request(step), requires(step)));
        }
        for (JsonNode c : root.path("cases")) {
            checkKeys(c, CASE_KEYS, "case");
            String caseName = text(c, "name");
            if (caseName == null || caseName.isBlank()) {
                throw new IllegalArgumentException("every case needs a name (near " + c + ")");
            }
            List<String> headers = c.has("compare_headers") ? strings(c.get("compare_headers")).stream()
                    .map(h -> h.toLowerCase(Locale.ROOT)).toList() : DEFAULT_HEADERS;
            java.util.Map<String, String> capture = new java.util.LinkedHashMap<>();
            c.path("capture").fields().forEachRemaining(e -> capture.put(e.getKey(), e.getValue().asText()));
            cases.add(new Scenario.Case(caseName, request(c), headers, rules(c.path("normalise")), engines(c),
                    requires(c), capture));
        }
        if (cases.isEmpty()) {
            throw new IllegalArgumentException("a scenario needs at least one case");
        }
        return new Scenario(id, text(root, "description"), engines(root), rules(root.path("normalise")), setup,
                cases);
    }

    private static RequestSpec request(JsonNode node) {
        String line = text(node, "request");
        if (line == null || !line.contains(" ")) {
            throw new IllegalArgumentException("request must read 'METHOD /path?query' (near " + node + ")");
        }
        String method = line.substring(0, line.indexOf(' ')).trim().toUpperCase(Locale.ROOT);
        String path = line.substring(line.indexOf(' ') + 1).trim();
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("the path must start with '/': " + line);
        }
        if (node.has("body") && node.has("raw_body")) {
            throw new IllegalArgumentException("body and raw_body exclude each other: " + line);
        }
        String body = null;
        String contentType = null;
        if (node.has("body")) {
            JsonNode b = node.get("body");
            if (b.isArray() && line.contains("_bulk")) {
                // NDJSON: one line per element
                StringBuilder s = new StringBuilder();
                b.forEach(l -> s.append(Json.compact(l)).append('\n'));
                body = s.toString();
                contentType = "application/x-ndjson";
            } else {
                body = Json.compact(b);
                contentType = "application/json";
            }
        } else if (node.has("raw_body")) {
            body = node.get("raw_body").asText();
            contentType = "application/json";
        }
        if (node.has("content_type")) {
            contentType = node.get("content_type").isNull() ? null : node.get("content_type").asText();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        node.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
        return new RequestSpec(method, path, body, contentType, headers);
    }

    private static List<Normalizer.Rule> rules(JsonNode list) {
        List<Normalizer.Rule> rules = new ArrayList<>();
        for (JsonNode r : list) {
            checkKeys(r, Set.of("path", "why"), "normalise entry");
            String path = text(r, "path");
            String why = text(r, "why");
            if (path == null || why == null || why.isBlank()) {
                throw new IllegalArgumentException("a normalise entry needs a path and a why: " + r);
            }
            rules.add(Normalizer.mask(path, why));
        }
        return rules;
    }

    private static Set<Engine> engines(JsonNode node) {
        if (!node.has("engines")) {
            return EnumSet.allOf(Engine.class);
        }
        Set<Engine> engines = EnumSet.noneOf(Engine.class);
        strings(node.get("engines")).forEach(e -> engines.add(Engine.byId(e)));
        return engines;
    }

    private static Set<String> requires(JsonNode node) {
        Set<String> requires = new LinkedHashSet<>(strings(node.path("requires")));
        for (String r : requires) {
            if (!Capabilities.KNOWN.contains(r)) {
                throw new IllegalArgumentException("unknown capability [" + r + "]; known: " + Capabilities.KNOWN);
            }
        }
        return requires;
    }

    private static List<String> strings(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(n -> out.add(n.asText()));
        } else if (!node.isMissingNode() && !node.isNull()) {
            out.add(node.asText());
        }
        return out;
    }

    private static String text(JsonNode node, String key) {
        JsonNode v = node.get(key);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static void checkKeys(JsonNode node, Set<String> allowed, String what) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("a " + what + " must be a mapping: " + node);
        }
        node.fieldNames().forEachRemaining(k -> {
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException("unknown key [" + k + "] in a " + what + "; allowed: "
                        + new java.util.TreeSet<>(allowed));
            }
        });
    }
}
