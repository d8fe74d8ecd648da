package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.time.DateFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@code fields} and {@code docvalue_fields} of a search hit, as Elasticsearch computes them: the values of
 * mapped leaf fields (patterns allowed; multi-fields included when a pattern names them), read from {@code _source}
 * and parsed as the field's type — so a {@code double} 7 comes back as 7.0, a date in its format, a keyword past
 * {@code ignore_above} not at all. {@code fields} keeps the document's value order; {@code docvalue_fields} gives what
 * doc values hold: each field's values sorted and unique, and refuses {@code text} fields as ES does.
 */
public final class FieldValues {

    /** One requested field (a name or a {@code *} pattern) with an optional date format. */
    public record Request(String pattern, Optional<String> format) {
    }

    private FieldValues() {
    }

    /** Reads {@code "fields"} / {@code "docvalue_fields"}: strings or {@code {field, format}} objects. */
    public static List<Request> parse(String section, JsonValue value) {
        List<Request> out = new ArrayList<>();
        for (JsonValue v : value instanceof JsonArray a ? a.elements() : List.of(value)) {
            if (v instanceof JsonObject o) {
                String field = null;
                Optional<String> format = Optional.empty();
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    switch (e.getKey()) {
                        case "field" -> field = JsonReads.text(e.getValue()).orElse(null);
                        case "format" -> format = JsonReads.text(e.getValue());
                        case "include_unmapped" -> {
                            if (JsonReads.bool(e.getValue()).orElse(false)) {
                                throw GatewayException.unsupported("[" + section + "] [include_unmapped: true]");
                            }
                        }
                        default -> throw SearchRequestParser.parsing("[" + section + "] unknown field [" + e.getKey()
                                + "]");
                    }
                }
                if (field == null) {
                    throw SearchRequestParser.parsing("[" + section + "] requires [field]");
                }
                out.add(new Request(field, format));
            } else {
                out.add(new Request(JsonReads.text(v).orElseThrow(() -> SearchRequestParser.parsing("[" + section
                        + "] must contain strings or objects")), Optional.empty()));
            }
        }
        return out;
    }

    /** The hit's {@code fields}: each matched field with values, in document order (empty map: no key). */
    public static Map<String, List<JsonValue>> fields(String index, JsonObject source, Mappings mappings,
                                                      List<Request> requests) {
        return collect(index, source, mappings, requests, false, Optional.empty());
    }

    /** As {@link #fields(String, JsonObject, Mappings, List)}, for a hit written with {@code routing}. */
    public static Map<String, List<JsonValue>> fields(String index, JsonObject source, Mappings mappings,
                                                      List<Request> requests, Optional<String> routing) {
        return collect(index, source, mappings, requests, false, routing);
    }

    /** The hit's {@code docvalue_fields} (rendered under {@code fields} too): sorted, unique, no text fields. */
    public static Map<String, List<JsonValue>> docValueFields(String index, JsonObject source, Mappings mappings,
                                                              List<Request> requests) {
        return collect(index, source, mappings, requests, true, Optional.empty());
    }

    private static Map<String, List<JsonValue>> collect(String index, JsonObject source, Mappings mappings,
                                                        List<Request> requests, boolean docValues,
                                                        Optional<String> routing) {
        if (requests.isEmpty()) {
            return Map.of();
        }
        Map<String, FieldMapping> leaves = new TreeMap<>();
        leaves(mappings.properties(), "", leaves);
        for (Request r : requests) {
            // the indexed metadata fields, when named exactly (patterns do not reach them, as in Elasticsearch)
            if (r.pattern().equals(Mappings.IGNORED) || r.pattern().equals(Mappings.ROUTING)) {
                leaves.put(r.pattern(), mappings.field(r.pattern()).orElseThrow());
            }
        }
        Map<String, Optional<String>> wanted = new LinkedHashMap<>();
        for (Request r : requests) {
            for (Map.Entry<String, FieldMapping> leaf : leaves.entrySet()) {
                if (IndexName.matches(r.pattern(), leaf.getKey())) {
                    if (docValues && !leaf.getValue().options().docValues()) {
                        if (IndexName.isWildcard(r.pattern())) {
                            continue;
                        }
                        throw GatewayException.noDocValues(leaf.getKey(), leaf.getValue().type());
                    }
                    if (docValues && leaf.getValue() instanceof FieldMapping.TextField) {
                        if (IndexName.isWildcard(r.pattern())) {
                            continue;
                        }
                        throw GatewayException.fielddataDisabled(index, leaf.getKey());
                    }
                    wanted.merge(leaf.getKey(), r.format(), (a, b) -> a.isPresent() ? a : b);
                }
            }
        }
        if (wanted.isEmpty()) {
            return Map.of();
        }
        List<IndexedValue> values;
        try {
            values = DocumentParser.parse(mappings, source, "_", routing).values();
        } catch (GatewayException e) {
            return Map.of();
        }
        Map<String, List<JsonValue>> out = new LinkedHashMap<>();
        for (Map.Entry<String, Optional<String>> w : wanted.entrySet()) {
            FieldMapping mapping = leaves.get(w.getKey());
            List<IndexedValue> own = values.stream().filter(v -> v.field().equals(w.getKey())).toList();
            if (own.isEmpty()) {
                continue;
            }
            if (docValues) {
                own = sortedUnique(own);
            }
            List<JsonValue> rendered = new ArrayList<>();
            for (IndexedValue v : own) {
                rendered.add(render(v, mapping, w.getValue(), docValues));
            }
            out.put(w.getKey(), rendered);
        }
        return out;
    }

    private static void leaves(Map<String, FieldMapping> properties, String prefix, Map<String, FieldMapping> out) {
        properties.forEach((name, field) -> {
            String path = prefix + name;
            switch (field) {
                case FieldMapping.ObjectField o -> leaves(o.properties(), path + ".", out);
                case FieldMapping.TextField t -> {
                    out.put(path, t);
                    leaves(t.fields(), path + ".", out);
                }
                case FieldMapping.KeywordField k -> {
                    out.put(path, k);
                    leaves(k.fields(), path + ".", out);
                }
                default -> out.put(path, field);
            }
        });
    }

    private static List<IndexedValue> sortedUnique(List<IndexedValue> values) {
        Comparator<IndexedValue> order = (a, b) -> switch (a) {
            case IndexedValue.Keyword k -> Arrays.compareUnsigned(k.value().getBytes(StandardCharsets.UTF_8),
                    ((IndexedValue.Keyword) b).value().getBytes(StandardCharsets.UTF_8));
            case IndexedValue.LongValue l -> Long.compare(l.value(), ((IndexedValue.LongValue) b).value());
            case IndexedValue.DoubleValue d -> Double.compare(d.value(), ((IndexedValue.DoubleValue) b).value());
            case IndexedValue.FloatValue f -> Float.compare(f.value(), ((IndexedValue.FloatValue) b).value());
            case IndexedValue.DateValue d -> Long.compare(d.epochMillis(), ((IndexedValue.DateValue) b).epochMillis());
            case IndexedValue.BooleanValue x -> Boolean.compare(x.value(), ((IndexedValue.BooleanValue) b).value());
            case IndexedValue.Text t -> t.value().compareTo(((IndexedValue.Text) b).value());
            case IndexedValue.Vector v -> 0;
        };
        List<IndexedValue> sorted = new ArrayList<>(values);
        sorted.sort(order);
        List<IndexedValue> unique = new ArrayList<>();
        for (IndexedValue v : sorted) {
            if (unique.isEmpty() || order.compare(unique.get(unique.size() - 1), v) != 0) {
                unique.add(v);
            }
        }
        return unique;
    }

    private static JsonValue render(IndexedValue v, FieldMapping mapping, Optional<String> format, boolean docValues) {
        return switch (v) {
            case IndexedValue.Keyword k -> JsonValue.string(k.value());
            case IndexedValue.Text t -> JsonValue.string(t.value());
            case IndexedValue.LongValue l -> JsonValue.number(l.value());
            case IndexedValue.DoubleValue d -> new JsonValue.JsonNumber(d.value());
            case IndexedValue.FloatValue f -> new JsonValue.JsonNumber(f.value());
            case IndexedValue.BooleanValue b -> JsonValue.bool(b.value());
            case IndexedValue.DateValue d -> {
                String pattern = format.orElseGet(() -> mapping instanceof FieldMapping.DateField df
                        ? df.format().orElse(DateFormat.DEFAULT_PATTERN) : DateFormat.DEFAULT_PATTERN);
                yield JsonValue.string(DateFormat.of(pattern).format(d.epochMillis()));
            }
            case IndexedValue.Vector vec -> {
                List<JsonValue> components = new ArrayList<>();
                for (float c : vec.values()) {
                    components.add(new JsonValue.JsonNumber(c));
                }
                yield new JsonArray(components);
            }
        };
    }
}
