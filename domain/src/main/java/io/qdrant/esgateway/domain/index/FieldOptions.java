package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * The common mapping parameters of a leaf field, as Elasticsearch has them on {@code keyword}, {@code text}, numeric,
 * {@code date} and {@code boolean} fields: {@code index} (searchable through the inverted index), {@code doc_values}
 * (sortable and aggregatable; a non-indexed field with doc values is still searchable, as in ES 8), {@code store},
 * {@code null_value} (indexed in place of a JSON {@code null}), {@code copy_to} (the value is also indexed into these
 * fields), {@code coerce} and {@code ignore_malformed} (absent: the default, {@code true} and {@code false}).
 * Only the parameters given are rendered, as Elasticsearch renders a mapping.
 */
public record FieldOptions(boolean index, boolean docValues, boolean store, Optional<JsonValue> nullValue,
                           List<String> copyTo, Optional<Boolean> coerce, Optional<Boolean> ignoreMalformed) {
    /** No parameter given: indexed, with doc values, not stored, nothing else. */
    public static final FieldOptions DEFAULT = new FieldOptions(true, true, false, Optional.empty(), List.of(),
            Optional.empty(), Optional.empty());

    public FieldOptions {
        copyTo = List.copyOf(copyTo);
    }

    /** Whether every parameter has its default (so parsing a value needs no extra step). */
    public boolean isDefault() {
        return this == DEFAULT || equals(DEFAULT);
    }

    /** These options with {@code ignore_malformed} set when given (types that have it but not {@code coerce}). */
    FieldOptions withIgnoreMalformed(Optional<Boolean> given) {
        if (given.isEmpty()) {
            return this;
        }
        return new FieldOptions(index, docValues, store, nullValue, copyTo, coerce, given);
    }

    public boolean coerces() {
        return coerce.orElse(true);
    }

    public boolean ignoresMalformed() {
        return ignoreMalformed.orElse(false);
    }

    /** Adds the parameters that differ from the defaults, in Elasticsearch's order. */
    void render(JsonObjectBuilder b) {
        if (!index) {
            b.put("index", false);
        }
        if (!docValues) {
            b.put("doc_values", false);
        }
        if (store) {
            b.put("store", true);
        }
        nullValue.ifPresent(v -> b.put("null_value", v));
        if (!copyTo.isEmpty()) {
            b.put("copy_to", new JsonValue.JsonArray(copyTo.stream().map(c -> (JsonValue) new JsonValue.JsonString(c))
                    .toList()));
        }
        coerce.ifPresent(c -> b.put("coerce", c));
        ignoreMalformed.ifPresent(c -> b.put("ignore_malformed", c));
    }
}
