package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of one index in {@code GET /{index}/_mapping/field/{fields}}: each leaf field (multi-fields included,
 * objects not) and metadata field a name or {@code *} pattern matches, as {@code {full_name, mapping: {leaf: …}}}.
 */
final class FieldMappingView {
    /** The metadata fields Elasticsearch 8.15 lists for a pattern that matches them (with an empty mapping). */
    private static final List<String> METADATA = List.of("_data_stream_timestamp", "_doc_count", "_field_names", "_id",
            "_ignored", "_ignored_source", "_index", "_nested_path", "_routing", "_seq_no", "_source", "_version");

    private FieldMappingView() {
    }

    static JsonObject of(Mappings mappings, List<String> patterns) {
        Map<String, FieldMapping> leaves = new LinkedHashMap<>();
        leaves(mappings.properties(), "", leaves);
        JsonObjectBuilder out = JsonObjectBuilder.object();
        for (String name : METADATA) {
            if (patterns.stream().anyMatch(p -> IndexName.matches(p, name))) {
                out.put(name, JsonObjectBuilder.object().put("full_name", name)
                        .put("mapping", JsonObjectBuilder.object().build()).build());
            }
        }
        leaves.forEach((path, field) -> {
            if (patterns.stream().anyMatch(p -> IndexName.matches(p, path))) {
                String leaf = path.substring(path.lastIndexOf('.') + 1);
                out.put(path, JsonObjectBuilder.object().put("full_name", path)
                        .put("mapping", JsonObjectBuilder.object().put(leaf, field.toJson()).build()).build());
            }
        });
        return out.build();
    }

    private static void leaves(Map<String, FieldMapping> fields, String prefix, Map<String, FieldMapping> out) {
        fields.forEach((name, field) -> {
            switch (field) {
                case FieldMapping.ObjectField o -> leaves(o.properties(), prefix + name + ".", out);
                case FieldMapping.TextField t -> {
                    out.put(prefix + name, field);
                    leaves(t.fields(), prefix + name + ".", out);
                }
                case FieldMapping.KeywordField k -> {
                    out.put(prefix + name, field);
                    leaves(k.fields(), prefix + name + ".", out);
                }
                default -> out.put(prefix + name, field);
            }
        });
    }
}
