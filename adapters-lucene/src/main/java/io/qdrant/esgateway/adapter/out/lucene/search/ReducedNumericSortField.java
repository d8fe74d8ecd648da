package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.sort.SortSpec;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.search.FieldComparator;
import org.apache.lucene.search.LeafFieldComparator;
import org.apache.lucene.search.Pruning;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.comparators.DoubleComparator;
import org.apache.lucene.search.comparators.LongComparator;
import org.apache.lucene.util.NumericUtils;

/**
 * A numeric sort over a multi-valued field by Elasticsearch's {@code sum}, {@code avg} or {@code median} of a
 * document's values (Lucene's own selectors only pick the min or the max). For integral fields the average and the
 * median of an even count are rounded to the nearest long ({@code Math.round}), as Elasticsearch reports them
 * (checked: [1, 10] sorts as 6); for doubles they are exact.
 */
final class ReducedNumericSortField extends SortField {
    private final SortSpec.Mode mode;
    private final boolean isDouble;

    ReducedNumericSortField(String field, boolean isDouble, boolean reverse, SortSpec.Mode mode) {
        super(field, isDouble ? Type.DOUBLE : Type.LONG, reverse);
        this.mode = mode;
        this.isDouble = isDouble;
    }

    @Override
    public FieldComparator<?> getComparator(int numHits, Pruning pruning) {
        String field = getField();
        SortSpec.Mode m = mode;
        if (isDouble) {
            return new DoubleComparator(numHits, field, (Double) getMissingValue(), getReverse(), Pruning.NONE) {
                @Override
                public LeafFieldComparator getLeafComparator(LeafReaderContext context) throws IOException {
                    return new DoubleLeafComparator(context) {
                        @Override
                        protected NumericDocValues getNumericDocValues(LeafReaderContext c, String f)
                                throws IOException {
                            return reduce(DocValues.getSortedNumeric(c.reader(), f), m, true);
                        }
                    };
                }
            };
        }
        return new LongComparator(numHits, field, (Long) getMissingValue(), getReverse(), Pruning.NONE) {
            @Override
            public LeafFieldComparator getLeafComparator(LeafReaderContext context) throws IOException {
                return new LongLeafComparator(context) {
                    @Override
                    protected NumericDocValues getNumericDocValues(LeafReaderContext c, String f) throws IOException {
                        return reduce(DocValues.getSortedNumeric(c.reader(), f), m, false);
                    }
                };
            }
        };
    }

    /** One value per document: the reduction of its values (double results as raw double bits, as Lucene expects). */
    static NumericDocValues reduce(SortedNumericDocValues in, SortSpec.Mode mode, boolean isDouble) {
        return new NumericDocValues() {
            private long value;

            @Override
            public long longValue() {
                return value;
            }

            @Override
            public boolean advanceExact(int target) throws IOException {
                if (!in.advanceExact(target)) {
                    return false;
                }
                compute();
                return true;
            }

            @Override
            public int docID() {
                return in.docID();
            }

            @Override
            public int nextDoc() throws IOException {
                int doc = in.nextDoc();
                if (doc != NO_MORE_DOCS) {
                    compute();
                }
                return doc;
            }

            @Override
            public int advance(int target) throws IOException {
                int doc = in.advance(target);
                if (doc != NO_MORE_DOCS) {
                    compute();
                }
                return doc;
            }

            @Override
            public long cost() {
                return in.cost();
            }

            private void compute() throws IOException {
                int count = in.docValueCount();
                double[] values = new double[count];
                for (int i = 0; i < count; i++) {
                    long raw = in.nextValue();
                    values[i] = isDouble ? NumericUtils.sortableLongToDouble(raw) : raw;
                }
                double result = switch (mode) {
                    case SUM -> Arrays.stream(values).sum();
                    case AVG -> Arrays.stream(values).sum() / count;
                    case MEDIAN -> {
                        // values arrive sorted (SortedNumericDocValues)
                        yield count % 2 == 1 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
                    }
                    case MIN, MAX -> throw new IllegalStateException("min and max use Lucene's own selectors");
                };
                value = isDouble ? Double.doubleToRawLongBits(result) : Math.round(result);
            }
        };
    }
}
