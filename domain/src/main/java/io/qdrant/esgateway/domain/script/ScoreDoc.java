package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code doc} of a score script: one document's doc values by field name, typed by the mapping, with
 * Elasticsearch's errors for an unmapped field and for a {@code text} field (no field data). It is also the run's
 * context for the score functions ({@code cosineSimilarity(…, 'field')} reads the vector through it).
 */
final class ScoreDoc extends AbstractMap<String, Object> {
    final ScoreScript script;
    final DocReader reader;

    ScoreDoc(ScoreScript script, DocReader reader) {
        this.script = script;
        this.reader = reader;
    }

    @Override
    public Object get(Object key) {
        String field = String.valueOf(key);
        Optional<FieldMapping> mapping = script.mappings.field(field);
        if (mapping.isEmpty()) {
            throw PainlessRuntimeError.illegalArgument("No field found for [" + field + "] in mapping");
        }
        return switch (mapping.get()) {
            case FieldMapping.KeywordField k -> ScriptDocValues.ofKeywords(reader.keywords(field));
            case FieldMapping.NumberField n -> n.numberType().isIntegral()
                    ? ScriptDocValues.ofLongs(reader.longs(field)) : ScriptDocValues.ofDoubles(reader.doubles(field));
            case FieldMapping.DateField d -> ScriptDocValues.ofDates(reader.longs(field));
            case FieldMapping.BooleanField b -> ScriptDocValues.ofBooleans(reader.longs(field));
            case FieldMapping.DenseVectorField v -> new ScriptDocValues.Vector(field, reader.vector(field));
            case FieldMapping.TextField t -> {
                GatewayException e = GatewayException.fielddataDisabled(script.index, field);
                throw PainlessRuntimeError.illegalArgument(e.getMessage());
            }
            default -> throw PainlessRuntimeError.illegalArgument("No field found for [" + field + "] in mapping");
        };
    }

    @Override
    public boolean containsKey(Object key) {
        return script.mappings.field(String.valueOf(key)).isPresent();
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
        throw new UnsupportedOperationException("doc cannot be iterated");
    }

    /** The vector of {@code field} for the vector functions, checked against the query vector's dimensions. */
    float[] vector(String field, int queryDims) {
        Optional<FieldMapping> mapping = script.mappings.field(field);
        if (mapping.isEmpty()) {
            throw PainlessRuntimeError.illegalArgument("No field found for [" + field + "] in mapping");
        }
        if (!(mapping.get() instanceof FieldMapping.DenseVectorField dense)) {
            throw PainlessRuntimeError.illegalArgument("field [" + field + "] is not a dense_vector field");
        }
        if (dense.dims() != queryDims) {
            throw PainlessRuntimeError.illegalArgument("The query vector has a different number of dimensions ["
                    + queryDims + "] than the document vectors [" + dense.dims() + "].");
        }
        float[] v = reader.vector(field);
        if (v == null) {
            throw PainlessRuntimeError.illegalArgument("A document doesn't have a value for a vector field!");
        }
        return v;
    }

}
