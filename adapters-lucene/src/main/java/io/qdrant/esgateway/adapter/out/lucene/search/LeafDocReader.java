package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.script.DocReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.util.NumericUtils;

/** The doc values of one segment's current document, as scripts read them ({@code doc['field']}). */
final class LeafDocReader implements DocReader {
    private final LeafReaderContext context;
    private final Mappings mappings;
    int doc = -1;
    private final Map<String, SortedSetDocValues> keywords = new HashMap<>();
    private final Map<String, SortedNumericDocValues> numbers = new HashMap<>();
    private final Map<String, FloatVectorValues> vectors = new HashMap<>();
    private final Map<String, KnnVectorValues.DocIndexIterator> vectorIterators = new HashMap<>();
    private final Map<String, Object> read = new HashMap<>();
    private int readDoc = -1;

    LeafDocReader(LeafReaderContext context, Mappings mappings) {
        this.context = context;
        this.mappings = mappings;
    }

    private Object cached(String key) {
        if (readDoc != doc) {
            read.clear();
            readDoc = doc;
        }
        return read.get(key);
    }

    @Override
    public List<String> keywords(String field) {
        Object hit = cached(field);
        if (hit != null) {
            return castList(hit);
        }
        try {
            SortedSetDocValues values = keywords.get(field);
            if (values == null || values.docID() > doc) {
                values = DocValues.getSortedSet(context.reader(), field);
                keywords.put(field, values);
            }
            List<String> out = new ArrayList<>();
            if (values.advanceExact(doc)) {
                for (int i = 0; i < values.docValueCount(); i++) {
                    out.add(values.lookupOrd(values.nextOrd()).utf8ToString());
                }
            }
            read.put(field, out);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> castList(Object o) {
        return (List<String>) o;
    }

    private long[] raw(String field) {
        Object hit = cached(field);
        if (hit != null) {
            return (long[]) hit;
        }
        try {
            SortedNumericDocValues values = numbers.get(field);
            if (values == null || values.docID() > doc) {
                values = DocValues.getSortedNumeric(context.reader(), field);
                numbers.put(field, values);
            }
            long[] out = new long[0];
            if (values.advanceExact(doc)) {
                out = new long[values.docValueCount()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = values.nextValue();
                }
            }
            read.put(field, out);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long[] longs(String field) {
        return raw(field);
    }

    @Override
    public double[] doubles(String field) {
        long[] raw = raw(field);
        boolean isDouble = mappings.field(field).orElse(null) instanceof FieldMapping.NumberField n
                && n.numberType() == FieldMapping.NumberType.DOUBLE;
        double[] out = new double[raw.length];
        for (int i = 0; i < raw.length; i++) {
            out[i] = isDouble ? NumericUtils.sortableLongToDouble(raw[i])
                    : NumericUtils.sortableIntToFloat((int) raw[i]);
        }
        return out;
    }

    @Override
    public float[] vector(String field) {
        try {
            FloatVectorValues values = vectors.get(field);
            KnnVectorValues.DocIndexIterator it = vectorIterators.get(field);
            if (values == null || it.docID() > doc) {
                values = context.reader().getFloatVectorValues(field);
                if (values == null) {
                    return null;
                }
                it = values.iterator();
                vectors.put(field, values);
                vectorIterators.put(field, it);
            }
            int at = it.docID() < doc ? it.advance(doc) : it.docID();
            return at == doc ? values.vectorValue(it.index()) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public int docId() {
        return context.docBase + doc;
    }
}
