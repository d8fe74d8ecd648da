package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.HashMap;
import java.util.Map;

/**
 * A document whose reserved script field names ({@link ScriptedField}) read the values of the aggregations'
 * scripts, each run once for the document when first read; every other read goes to the document itself.
 */
final class ScriptedDoc implements AggregationDoc {
    private static final String[] NO_KEYWORDS = new String[0];
    private static final long[] NO_LONGS = new long[0];
    private static final double[] NO_DOUBLES = new double[0];

    private final AggregationDoc doc;
    private final JsonObject source;
    private final Map<String, ScriptedField.Bound> scripts;
    private final Map<String, Object> values = new HashMap<>();

    ScriptedDoc(AggregationDoc doc, JsonObject source, Map<String, ScriptedField.Bound> scripts) {
        this.doc = doc;
        this.source = source;
        this.scripts = scripts;
    }

    /** The document's {@code _source}. */
    JsonObject source() {
        return source;
    }

    private Object values(String field) {
        ScriptedField.Bound bound = scripts.get(field);
        if (bound == null) {
            return null;
        }
        return values.computeIfAbsent(field, f -> bound.values(doc, source));
    }

    @Override
    public String[] keywords(String field) {
        Object v = values(field);
        if (v == null) {
            return doc.keywords(field);
        }
        return v instanceof String[] s ? s : NO_KEYWORDS;
    }

    @Override
    public long[] longs(String field) {
        Object v = values(field);
        if (v == null) {
            return doc.longs(field);
        }
        if (v instanceof double[] d) {
            long[] out = new long[d.length];
            for (int i = 0; i < d.length; i++) {
                out[i] = (long) d[i];
            }
            return out;
        }
        return NO_LONGS;
    }

    @Override
    public double[] doubles(String field) {
        Object v = values(field);
        if (v == null) {
            return doc.doubles(field);
        }
        return v instanceof double[] d ? d : NO_DOUBLES;
    }

    @Override
    public boolean matches(int filter) {
        return doc.matches(filter);
    }

    @Override
    public float score() {
        return doc.score();
    }

    @Override
    public long position() {
        return doc.position();
    }

    @Override
    public java.util.function.Supplier<io.qdrant.esgateway.domain.document.StoredDocument> stored() {
        return doc.stored();
    }
}
