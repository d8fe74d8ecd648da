package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One search hit as a backend returns it: the concrete index, the id, the score ({@link Float#NaN} when the search
 * does not score), the sort values exactly as Elasticsearch renders them in {@code hits.hits[].sort} (empty without
 * a sort), the full {@code _source} (filtered later), the version triple, and the highlighted fragments per field
 * (only fields with fragments; empty without {@code highlight}), the document's {@code _routing} (empty when it
 * was written without one), and the values of the search's {@code script_fields} ({@link ScriptField}), computed for
 * the hits of the page. The highlight map is not copied: a backend may compute it when it is first read, so that only
 * the hits of the returned page are highlighted.
 */
public record Hit(String index, String id, float score, List<JsonValue> sort, JsonObject source,
                  DocumentVersion version, Map<String, List<String>> highlight, Optional<String> routing,
                  Map<String, List<JsonValue>> scriptFields) {
    public Hit {
        sort = List.copyOf(sort);
        // wrapped, not copied: a backend may compute the fragments on first use (only for the hits rendered)
        highlight = java.util.Collections.unmodifiableMap(highlight);
        scriptFields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(scriptFields));
    }

    public Hit(String index, String id, float score, List<JsonValue> sort, JsonObject source,
               DocumentVersion version, Map<String, List<String>> highlight, Optional<String> routing) {
        this(index, id, score, sort, source, version, highlight, routing, Map.of());
    }

    public Hit(String index, String id, float score, List<JsonValue> sort, JsonObject source,
               DocumentVersion version, Map<String, List<String>> highlight,
               Map<String, List<JsonValue>> scriptFields) {
        this(index, id, score, sort, source, version, highlight, Optional.empty(), scriptFields);
    }

    public Hit(String index, String id, float score, List<JsonValue> sort, JsonObject source,
               DocumentVersion version, Map<String, List<String>> highlight) {
        this(index, id, score, sort, source, version, highlight, Optional.empty(), Map.of());
    }

    /** This hit with the values of its {@code script_fields}. */
    public Hit withScriptFields(Map<String, List<JsonValue>> values) {
        return new Hit(index, id, score, sort, source, version, highlight, routing, values);
    }

    public Hit(String index, String id, float score, List<JsonValue> sort, JsonObject source,
               DocumentVersion version) {
        this(index, id, score, sort, source, version, Map.of());
    }

    /** This hit with another score, sort values and highlight (the document's own parts kept). */
    public Hit with(float otherScore, List<JsonValue> otherSort, Map<String, List<String>> otherHighlight) {
        return new Hit(index, id, otherScore, otherSort, source, version, otherHighlight, routing, scriptFields);
    }

    public boolean scored() {
        return !Float.isNaN(score);
    }
}
