package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.document.IndexedValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link ValuesDoc}'s arrays per field, against a reference that builds them the plain way (sets and lists per field,
 * then arrays — how ValuesDoc built them before its single pass): equal on random documents with repeated, mixed
 * and unsorted values, fields of several kinds at once, text and vectors.
 */
class ValuesDocTest {
    private static final String[] FIELDS = {"a", "b", "c.d", "e"};
    private static final String[] WORDS = {"x", "y", "", "é", "😀", "\uffff", "Z", "x"};

    @Test
    void randomDocumentsGiveTheReferenceArrays() {
        Random r = new Random(11);
        for (int i = 0; i < 5000; i++) {
            List<IndexedValue> values = new ArrayList<>();
            int n = r.nextInt(12);
            for (int k = 0; k < n; k++) {
                values.add(value(r));
            }
            ValuesDoc doc = new ValuesDoc("id", 1f, values, f -> false);
            Reference ref = new Reference(values);
            for (String f : FIELDS) {
                assertThat(doc.keywords(f)).as("%s %s", f, values).isEqualTo(ref.keywords.getOrDefault(f,
                        new String[0]));
                assertThat(doc.longs(f)).as("%s %s", f, values).isEqualTo(ref.longs.getOrDefault(f, new long[0]));
                assertThat(doc.doubles(f)).as("%s %s", f, values).isEqualTo(ref.doubles.getOrDefault(f,
                        new double[0]));
            }
        }
    }

    @Test
    void anIntegralValueWinsOverAFloatingOneInTheSameField() {
        ValuesDoc doc = new ValuesDoc("id", 1f, List.of(new IndexedValue.DoubleValue("a", 2.5),
                new IndexedValue.LongValue("a", 7), new IndexedValue.FloatValue("a", 1.5f)), f -> false);
        assertThat(doc.longs("a")).containsExactly(7);
        assertThat(doc.doubles("a")).containsExactly(7.0);
    }

    private static IndexedValue value(Random r) {
        String f = FIELDS[r.nextInt(FIELDS.length)];
        return switch (r.nextInt(8)) {
            case 0 -> new IndexedValue.Keyword(f, WORDS[r.nextInt(WORDS.length)]);
            case 1 -> new IndexedValue.LongValue(f, r.nextInt(5) - 2);
            case 2 -> new IndexedValue.DateValue(f, r.nextLong());
            case 3 -> new IndexedValue.BooleanValue(f, r.nextBoolean());
            case 4 -> new IndexedValue.DoubleValue(f, r.nextInt(4) == 0 ? -0.0 : r.nextGaussian() * 1e10);
            case 5 -> new IndexedValue.FloatValue(f, r.nextInt(4) == 0 ? Float.NaN : r.nextFloat() * 10 - 5);
            case 6 -> new IndexedValue.Text(f, "some text");
            default -> new IndexedValue.Vector(f, new float[] {1f, 2f});
        };
    }

    /** The arrays built with a set per keyword field and a list per numeric field (integral ones put last, winning). */
    private static final class Reference {
        final Map<String, String[]> keywords = new HashMap<>();
        final Map<String, long[]> longs = new HashMap<>();
        final Map<String, double[]> doubles = new HashMap<>();

        Reference(List<IndexedValue> values) {
            Map<String, TreeSet<String>> kw = new HashMap<>();
            Map<String, List<Long>> ints = new HashMap<>();
            Map<String, List<Double>> floats = new HashMap<>();
            for (IndexedValue v : values) {
                switch (v) {
                    case IndexedValue.Keyword k -> kw.computeIfAbsent(k.field(),
                            f -> new TreeSet<>(Keys::compareCodePoints)).add(k.value());
                    case IndexedValue.LongValue l -> ints.computeIfAbsent(l.field(), f -> new ArrayList<>())
                            .add(l.value());
                    case IndexedValue.DateValue d -> ints.computeIfAbsent(d.field(), f -> new ArrayList<>())
                            .add(d.epochMillis());
                    case IndexedValue.BooleanValue b -> ints.computeIfAbsent(b.field(), f -> new ArrayList<>())
                            .add(b.value() ? 1L : 0L);
                    case IndexedValue.DoubleValue d -> floats.computeIfAbsent(d.field(), f -> new ArrayList<>())
                            .add(d.value());
                    case IndexedValue.FloatValue f -> floats.computeIfAbsent(f.field(), x -> new ArrayList<>())
                            .add((double) f.value());
                    default -> {
                    }
                }
            }
            kw.forEach((f, set) -> keywords.put(f, set.toArray(String[]::new)));
            floats.forEach((f, list) -> {
                double[] d = list.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                doubles.put(f, d);
                longs.put(f, Arrays.stream(d).mapToLong(x -> (long) x).toArray());
            });
            ints.forEach((f, list) -> {
                long[] l = list.stream().mapToLong(Long::longValue).sorted().toArray();
                longs.put(f, l);
                doubles.put(f, Arrays.stream(l).mapToDouble(x -> x).toArray());
            });
        }
    }
}
