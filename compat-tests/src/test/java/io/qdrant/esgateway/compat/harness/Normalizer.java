package io.qdrant.esgateway.compat.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns one HTTP answer into the document that is compared: {@code {"status":…, "headers":{…}, "body":…}} (the body
 * parsed as JSON when it is JSON, else kept as text), then applies normalisation rules to it.
 * <ul>
 *   <li>{@link Rule.Mask}: a value that differs for reasons unrelated to compatibility (uuids, dates, timings) is
 *       replaced by {@code "<masked>"} on both sides, so its presence and position are still compared;</li>
 *   <li>{@link Rule.Drop}: the value is removed on both sides (a known, reasoned difference).</li>
 * </ul>
 */
public final class Normalizer {
    public static final TextNode MASKED = TextNode.valueOf("<masked>");

    /** A rule with the reason it exists; the reason is shown in failure output and docs. */
    public sealed interface Rule {
        PathPattern path();

        String why();

        record Mask(PathPattern path, String why) implements Rule {
        }

        record Drop(PathPattern path, String why) implements Rule {
        }

        /** Rewrites string values (a uuid inside an error reason) on both sides. */
        record Rewrite(PathPattern path, UnaryOperator<String> function, String why) implements Rule {
        }
    }

    /**
     * Applied to every comparison: values that no two clusters share, and counters that depend on shard layout or
     * timing rather than on the API.
     */
    public static final List<Rule> DEFAULTS = List.of(
            mask("/body/took", "milliseconds the request took"),
            mask("/body/**/uuid", "random per index / per cluster"),
            mask("/body/**/index_uuid", "random per index (\"_na_\" when there is none: masked as well)"),
            mask("/body/**/index.uuid", "random per index (flat settings)"),
            mask("/body/**/cluster_uuid", "random per cluster"),
            mask("/body/**/creation_date", "creation time of the index"),
            mask("/body/**/index.creation_date", "creation time of the index (flat settings)"),
            mask("/body/cluster_name", "each process has its own cluster name"),
            mask("/body/**/_shards/total", "shard layout detail"),
            mask("/body/**/_shards/successful", "shard layout detail"),
            mask("/body/**/_shards/skipped", "shard layout detail"),
            mask("/body/**/_seq_no", "sequence numbers depend on the engine's history, not on the API"),
            mask("/body/**/_primary_term", "primary terms depend on the engine's history, not on the API"),
            mask("/body/*/store.size", "bytes on disk depend on the storage engine"),
            mask("/body/*/pri.store.size", "bytes on disk depend on the storage engine"),
            mask("/body/*/dataset.size", "bytes on disk depend on the storage engine"),
            mask("/body/task_max_waiting_in_queue_millis", "timing"),
            mask("/body/number_of_pending_tasks", "cluster-state tasks still queued right after a change: timing"),
            mask("/body/number_of_in_flight_fetch", "shard fetches in flight right after a change: timing"),
            rewrite("/body/**", Pattern.compile("\\[([^\\[\\]/\\s]+)/[A-Za-z0-9_-]{20,22}\\]"),
                    m -> "[" + m.group(1) + "/<uuid>]",
                    "index uuids inside messages such as \"index [name/uuid] already exists\""),
            rewrite("/body/**", Pattern.compile("(must not contain the following characters )(\\[[^\\]]*\\])"),
                    m -> m.group(1) + sortedList(m.group(2)),
                    "Elasticsearch prints the forbidden characters from a Set.of(…), whose order is randomised per "
                            + "JVM: compared as a set"));

    private Normalizer() {
    }

    static Rule rewrite(String path, Pattern regex, Function<MatchResult, String> replacement, String why) {
        return new Rule.Rewrite(PathPattern.of(path), text -> regex.matcher(text).replaceAll(
                m -> Matcher.quoteReplacement(replacement.apply(m))), why);
    }

    /** {@code ['b','a']} → {@code ['a','b']} (elements split at {@code ','} between quotes). */
    static String sortedList(String list) {
        String inner = list.substring(1, list.length() - 1);
        List<String> items = new ArrayList<>(Arrays.asList(inner.split("(?<='),(?=')")));
        Collections.sort(items);
        return "[" + String.join(",", items) + "]";
    }

    public static Rule mask(String path, String why) {
        return new Rule.Mask(PathPattern.of(path), why);
    }

    public static Rule drop(String path, String why) {
        return new Rule.Drop(PathPattern.of(path), why);
    }

    /** The comparable document of one answer, before any rule. */
    public static ObjectNode document(HttpTarget.Exchange exchange, List<String> comparedHeaders) {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("status", exchange.status());
        ObjectNode headers = doc.putObject("headers");
        for (String name : comparedHeaders) {
            String value = exchange.headers().get(name);
            if (value != null) {
                headers.put(name, name.equals("content-type") ? mediaType(value) : value);
            }
        }
        doc.set("body", Json.parseOrText(exchange.body()));
        return doc;
    }

    /** {@code application/json; charset=UTF-8} → {@code application/json}: the charset is UTF-8 either way. */
    static String mediaType(String contentType) {
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
    }

    /** Applies the rules in order to a copy of {@code doc}. */
    public static JsonNode apply(JsonNode doc, List<? extends Rule> rules) {
        JsonNode copy = doc.deepCopy();
        for (Rule rule : rules) {
            apply(copy, new ArrayList<>(), rule);
        }
        return copy;
    }

    private static void apply(JsonNode node, List<String> path, Rule rule) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator();
            List<String> toMask = new ArrayList<>();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                path.add(e.getKey());
                if (rule instanceof Rule.Rewrite rewrite) {
                    if (e.getValue().isTextual() && rule.path().matches(path)) {
                        e.setValue(TextNode.valueOf(rewrite.function().apply(e.getValue().asText())));
                    } else {
                        apply(e.getValue(), path, rule);
                    }
                } else if (rule.path().matches(path)) {
                    if (rule instanceof Rule.Drop) {
                        it.remove();
                    } else {
                        toMask.add(e.getKey());
                    }
                } else {
                    apply(e.getValue(), path, rule);
                }
                path.removeLast();
            }
            toMask.forEach(k -> object.set(k, MASKED));
        } else if (node instanceof ArrayNode array) {
            for (int i = array.size() - 1; i >= 0; i--) {
                path.add(Integer.toString(i));
                if (rule instanceof Rule.Rewrite rewrite) {
                    if (array.get(i).isTextual() && rule.path().matches(path)) {
                        array.set(i, TextNode.valueOf(rewrite.function().apply(array.get(i).asText())));
                    } else {
                        apply(array.get(i), path, rule);
                    }
                } else if (rule.path().matches(path)) {
                    if (rule instanceof Rule.Drop) {
                        array.remove(i);
                    } else {
                        array.set(i, MASKED);
                    }
                } else {
                    apply(array.get(i), path, rule);
                }
                path.removeLast();
            }
        }
    }
}
