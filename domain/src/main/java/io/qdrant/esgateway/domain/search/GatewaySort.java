package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.aggregation.AggregationDoc;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.sort.SortSpec;
import io.qdrant.esgateway.domain.time.DateFormat;
import io.qdrant.esgateway.domain.time.DateMath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A search's sort computed in the gateway over documents' values (the complete-scan path), with Elasticsearch 8.15's
 * single-shard semantics — the same a native backend must reproduce:
 *
 * <ul>
 *   <li>{@code min}/{@code max} pick a multi-valued field's smallest/largest value; {@code sum}/{@code avg}/
 *       {@code median} reduce integral fields to a rounded long ({@code Math.round}) and doubles exactly;</li>
 *   <li>a document without a value sorts as {@code missing} says: last (default) or first in the sort's own direction,
 *       rendered as ES renders its substitute ({@code Long.MAX_VALUE}/{@code MIN_VALUE} for integral kinds,
 *       {@code "Infinity"} strings for floating ones, {@code null} for keywords), or as the given value;</li>
 *   <li>ties on every key keep index order ({@code position} ascending);</li>
 *   <li>{@code search_after} continues strictly after the given values (documents with equal values are skipped, as
 *       Lucene's {@code searchAfter} from a document id of {@code Integer.MAX_VALUE} does).</li>
 * </ul>
 */
public final class GatewaySort {
    private enum Kind { SCORE, DOC, KEYWORD, LONG, DATE, BOOLEAN, DOUBLE, FLOAT, SCRIPT_NUMBER, SCRIPT_STRING }

    /** One key: how a document's value is picked, compared and rendered. */
    private record Column(String field, Kind kind, boolean reverse, SortSpec.Mode mode, boolean naturalHigh,
                          Object missing, Optional<DateFormat> format) {
    }

    /** A document's values for every key, and its index order. */
    public record Key(Object[] values, long position) {
    }

    /** Elasticsearch's refusal to sort by {@code _id} (its fielddata is disabled by default). */
    public static final String ID_FIELDDATA = "Fielddata access on the _id field is disallowed, you can re-enable it"
            + " by updating the dynamic cluster setting: indices.id_field_data.enabled";

    private final List<Column> columns;
    /** The compiled script of each {@code _script} column, null for the others. */
    private final io.qdrant.esgateway.domain.script.ScoreScript[] scripts;
    private final LongSupplier now;

    private GatewaySort(List<Column> columns, io.qdrant.esgateway.domain.script.ScoreScript[] scripts,
                        LongSupplier now) {
        this.columns = columns;
        this.scripts = scripts;
        this.now = now;
    }

    /**
     * The sort for one index; the same errors as a native sort (unmapped without type, text, vectors, …).
     *
     * @param now the request's current time in epoch millis, for date math in {@code missing} and
     *            {@code search_after} values
     */
    public static GatewaySort of(String index, List<SortSpec> specs, Mappings mappings, LongSupplier now) {
        List<Column> columns = new ArrayList<>();
        io.qdrant.esgateway.domain.script.ScoreScript[] scripts =
                new io.qdrant.esgateway.domain.script.ScoreScript[specs.size()];
        for (SortSpec spec : specs) {
            if (spec instanceof SortSpec.Script s) {
                if (s.source() == null) {
                    throw GatewayException.unsupported("a stored script ([id]) in a [_script] sort on this path");
                }
                scripts[columns.size()] = io.qdrant.esgateway.domain.script.ScoreScript.compile(
                        io.qdrant.esgateway.domain.script.ScriptContext.SORT, s.source(), s.script(), mappings, index);
            }
            columns.add(switch (spec) {
                case SortSpec.Score s -> new Column(null, Kind.SCORE, s.order() == SortSpec.Order.ASC,
                        SortSpec.Mode.MIN, false, null, Optional.empty());
                case SortSpec.Doc d -> new Column(null, Kind.DOC, d.order() == SortSpec.Order.DESC,
                        SortSpec.Mode.MIN, false, null, Optional.empty());
                case SortSpec.Field f -> column(index, f, mappings, now);
                case SortSpec.Script s -> new Column(null, s.type() == SortSpec.ScriptType.NUMBER
                        ? Kind.SCRIPT_NUMBER : Kind.SCRIPT_STRING, s.order() == SortSpec.Order.DESC,
                        SortSpec.Mode.MIN, false, null, Optional.empty());
            });
        }
        return new GatewaySort(columns, scripts, now);
    }

    /**
     * Whether a key runs a {@code _script}: it then reads the document's whole {@code _source} (as
     * {@code params._source}, and its doc values from it) and its score (as {@code _score}).
     */
    public boolean runsScripts() {
        for (io.qdrant.esgateway.domain.script.ScoreScript script : scripts) {
            if (script != null) {
                return true;
            }
        }
        return false;
    }

    /** The fields whose values the keys read. */
    public Set<String> fields() {
        Set<String> out = new LinkedHashSet<>();
        columns.stream().filter(c -> c.field != null).forEach(c -> out.add(c.field));
        return out;
    }

    public Key key(AggregationDoc doc, long position) {
        return key(doc, position, JsonValue.JsonObject.of());
    }

    /** The key of a document whose {@code _source} is {@code source} (what the {@code _script} keys read). */
    public Key key(AggregationDoc doc, long position, JsonValue.JsonObject source) {
        Object[] values = new Object[columns.size()];
        io.qdrant.esgateway.domain.script.DocReader reader = null;
        for (int i = 0; i < values.length; i++) {
            Column col = columns.get(i);
            if (scripts[i] != null) {
                if (reader == null) {
                    reader = new io.qdrant.esgateway.domain.aggregation.AggregationDocReader(doc, position);
                }
                values[i] = col.kind == Kind.SCRIPT_NUMBER ? (Object) scripts[i].number(reader, doc.score(), source)
                        : scripts[i].string(reader, doc.score(), source);
            } else {
                values[i] = value(col, doc, position);
            }
        }
        return new Key(values, position);
    }

    /** The order of hits: key by key (each in its direction), then index order. */
    public Comparator<Key> order() {
        return (a, b) -> {
            int c = compareValues(a.values, b.values);
            return c != 0 ? c : Long.compare(a.position, b.position);
        };
    }

    /** Whether {@code key} comes strictly after {@code after} (the parsed {@code search_after} values). */
    public boolean isAfter(Key key, Object[] after) {
        return compareValues(key.values, after) > 0;
    }

    private int compareValues(Object[] a, Object[] b) {
        for (int i = 0; i < columns.size(); i++) {
            Column col = columns.get(i);
            int c = compareOne(col, a[i], b[i]);
            if (c != 0) {
                return col.reverse ? -c : c;
            }
        }
        return 0;
    }

    private static int compareOne(Column col, Object a, Object b) {
        return switch (col.kind) {
            // Lucene's natural score order is descending
            case SCORE -> Float.compare((Float) b, (Float) a);
            case DOC, LONG, DATE, BOOLEAN -> Long.compare((Long) a, (Long) b);
            case DOUBLE, SCRIPT_NUMBER -> Double.compare((Double) a, (Double) b);
            case FLOAT -> Float.compare((Float) a, (Float) b);
            case SCRIPT_STRING -> compareCodePoints((String) a, (String) b);
            case KEYWORD -> {
                if (a == null || b == null) {
                    if (a == b) {
                        yield 0;
                    }
                    int missingVsValue = col.naturalHigh ? 1 : -1;
                    yield a == null ? missingVsValue : -missingVsValue;
                }
                yield compareCodePoints((String) a, (String) b);
            }
        };
    }

    private static int compareCodePoints(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(i);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
        }
        return Integer.compare(a.length(), b.length());
    }

    private static Object value(Column col, AggregationDoc doc, long position) {
        return switch (col.kind) {
            case SCRIPT_NUMBER, SCRIPT_STRING -> throw new IllegalStateException("a script key is run by key()");
            case SCORE -> doc.score();
            case DOC -> position;
            case KEYWORD -> {
                if (col.field == null) {
                    yield col.missing;
                }
                String[] v = doc.keywords(col.field);
                yield v.length == 0 ? col.missing : col.mode == SortSpec.Mode.MAX ? v[v.length - 1] : v[0];
            }
            case LONG, DATE, BOOLEAN -> {
                long[] v = doc.longs(col.field);
                if (v.length == 0) {
                    yield col.missing;
                }
                yield switch (col.mode) {
                    case MIN -> v[0];
                    case MAX -> v[v.length - 1];
                    default -> Math.round(reduce(col.mode, Arrays.stream(v).asDoubleStream().toArray()));
                };
            }
            case DOUBLE -> {
                double[] v = doc.doubles(col.field);
                if (v.length == 0) {
                    yield col.missing;
                }
                yield switch (col.mode) {
                    case MIN -> v[0];
                    case MAX -> v[v.length - 1];
                    default -> reduce(col.mode, v);
                };
            }
            case FLOAT -> {
                double[] v = doc.doubles(col.field);
                if (v.length == 0) {
                    yield col.missing;
                }
                yield switch (col.mode) {
                    case MIN -> (float) v[0];
                    case MAX -> (float) v[v.length - 1];
                    default -> (float) reduce(col.mode, v);
                };
            }
        };
    }

    private static double reduce(SortSpec.Mode mode, double[] sorted) {
        int n = sorted.length;
        return switch (mode) {
            case SUM -> Arrays.stream(sorted).sum();
            case AVG -> Arrays.stream(sorted).sum() / n;
            case MEDIAN -> n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
            case MIN, MAX -> throw new IllegalStateException("min and max pick a value");
        };
    }

    /** The {@code sort} array of a hit, as Elasticsearch renders it. */
    public List<JsonValue> render(Key key) {
        List<JsonValue> out = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            Column col = columns.get(i);
            Object v = key.values[i];
            out.add(switch (col.kind) {
                case SCORE, FLOAT -> SortValues.floatNumber((Float) v);
                case DOC, LONG, BOOLEAN -> new JsonNumber((Long) v);
                case DATE -> {
                    long millis = (Long) v;
                    // ES formats the missing-value substitutes too (Long.MIN_VALUE as "+292275056-05-16")
                    yield col.format.isPresent()
                            ? new JsonString(col.format.get().format(millis)) : new JsonNumber(millis);
                }
                case DOUBLE, SCRIPT_NUMBER -> SortValues.doubleNumber((Double) v);
                case SCRIPT_STRING -> new JsonString((String) v);
                case KEYWORD -> v == null ? JsonNull.INSTANCE : new JsonString((String) v);
            });
        }
        return out;
    }


    /** The {@code search_after} values read as keys (ES's error for a value that does not fit its key). */
    public Object[] parseAfter(List<JsonValue> values) {
        Object[] out = new Object[columns.size()];
        for (int i = 0; i < out.length; i++) {
            Column col = columns.get(i);
            JsonValue v = values.get(i);
            String name = col.field != null ? col.field : switch (col.kind) {
                case SCORE -> "_score";
                case SCRIPT_NUMBER, SCRIPT_STRING -> "_script";
                default -> "_doc";
            };
            try {
                out[i] = switch (col.kind) {
                    case SCORE -> Float.parseFloat(SortValues.text(v));
                    // a position: a Lucene doc id, or on Qdrant the document's _seq_no (its position in index order)
                    case DOC -> Long.parseLong(SortValues.text(v));
                    case KEYWORD -> v == JsonNull.INSTANCE ? null : SortValues.text(v);
                    case LONG -> SortValues.longOf(v);
                    case BOOLEAN -> JsonReads.bool(v).map(b -> b ? 1L : 0L).orElseGet(() -> SortValues.longOf(v));
                    case DATE -> v instanceof JsonNumber ? SortValues.longOf(v) : DateMath.parse(SortValues.text(v),
                            col.format.orElse(DateFormat.defaultFormat()), null, false, now);
                    case DOUBLE, SCRIPT_NUMBER -> Double.parseDouble(SortValues.text(v));
                    case SCRIPT_STRING -> SortValues.text(v);
                    case FLOAT -> Float.parseFloat(SortValues.text(v));
                };
            } catch (NumberFormatException | ArithmeticException e) {
                throw GatewayException.illegalArgument("Failed to parse search_after value [" + JsonReads.text(v)
                        .orElse(v.tokenName()) + "] for sort field [" + name + "]");
            }
        }
        return out;
    }



    private static Column column(String index, SortSpec.Field f, Mappings mappings, LongSupplier now) {
        String name = f.field();
        if (name.equals("_id")) {
            throw GatewayException.illegalArgument(ID_FIELDDATA);
        }
        Optional<FieldMapping> mapping = mappings.field(name);
        boolean unmapped = mapping.isEmpty();
        if (unmapped) {
            if (f.unmappedType().isEmpty()) {
                throw GatewayException.illegalArgument("No mapping found for [" + name + "] in order to sort on");
            }
            mapping = Optional.of(FieldMapping.ofUnmappedType(f.unmappedType().get()));
        }
        boolean reverse = f.order() == SortSpec.Order.DESC;
        SortSpec.Mode mode = f.effectiveMode();
        boolean naturalHigh = (f.missing() instanceof SortSpec.Missing.First) == reverse;
        String field = unmapped ? null : name;
        boolean reduced = mode != SortSpec.Mode.MIN && mode != SortSpec.Mode.MAX;
        FieldMapping m = mapping.get();
        if (!m.options().docValues()) {
            throw GatewayException.noDocValues(name, m.type());
        }
        if (reduced) {
            String modeName = mode.name().toLowerCase(java.util.Locale.ROOT);
            if (!(m instanceof FieldMapping.NumberField)) {
                throw GatewayException.illegalArgument("Sort mode [" + modeName + "] is not supported on field ["
                        + name + "] of type [" + m.type() + "]");
            }
        }
        return switch (m) {
            case FieldMapping.KeywordField k -> new Column(field, Kind.KEYWORD, reverse, mode, naturalHigh,
                    f.missing() instanceof SortSpec.Missing.Value v ? SortValues.text(v.value()) : null, Optional.empty());
            case FieldMapping.NumberField n when n.numberType().isIntegral() -> longColumn(field, name, Kind.LONG,
                    reverse, mode, naturalHigh, f, Optional.empty(), DateFormat.defaultFormat(), now);
            case FieldMapping.BooleanField b -> longColumn(field, name, Kind.BOOLEAN, reverse, mode, naturalHigh, f,
                    Optional.empty(), DateFormat.defaultFormat(), now);
            case FieldMapping.DateField d -> {
                Optional<DateFormat> format = f.format().map(DateFormat::of);
                DateFormat input = format.orElse(DateFormat.of(d.format().orElse(DateFormat.DEFAULT_PATTERN)));
                yield longColumn(field, name, Kind.DATE, reverse, mode, naturalHigh, f, format, input, now);
            }
            case FieldMapping.NumberField n when n.numberType() == FieldMapping.NumberType.DOUBLE -> new Column(field,
                    Kind.DOUBLE, reverse, mode, naturalHigh, f.missing() instanceof SortSpec.Missing.Value v
                    ? (Object) Double.parseDouble(SortValues.text(v.value()))
                    : (Object) (naturalHigh ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY), Optional.empty());
            case FieldMapping.NumberField n -> new Column(field, Kind.FLOAT, reverse, mode, naturalHigh,
                    f.missing() instanceof SortSpec.Missing.Value v ? (Object) Float.parseFloat(SortValues.text(v.value()))
                            : (Object) (naturalHigh ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY),
                    Optional.empty());
            case FieldMapping.TextField t -> throw GatewayException.fielddataDisabled(index, name);
            case FieldMapping.DenseVectorField v -> throw GatewayException.illegalArgument("Field [" + name
                    + "] of type [dense_vector] doesn't support sort");
            case FieldMapping.ObjectField o -> throw GatewayException.illegalArgument("No mapping found for [" + name
                    + "] in order to sort on");
        };
    }

    private static Column longColumn(String field, String name, Kind kind, boolean reverse, SortSpec.Mode mode,
                                     boolean naturalHigh, SortSpec.Field f, Optional<DateFormat> format,
                                     DateFormat input, LongSupplier now) {
        long missing;
        if (f.missing() instanceof SortSpec.Missing.Value v) {
            missing = SortValues.missingLong(v.value(), switch (kind) {
                case DATE -> SortValues.IntegralKind.DATE;
                case BOOLEAN -> SortValues.IntegralKind.BOOLEAN;
                default -> SortValues.IntegralKind.LONG;
            }, input, name, now);
        } else {
            missing = naturalHigh ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return new Column(field, kind, reverse, mode, naturalHigh, missing, format);
    }

}
