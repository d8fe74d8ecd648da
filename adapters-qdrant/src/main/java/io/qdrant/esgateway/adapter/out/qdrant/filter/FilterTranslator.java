package io.qdrant.esgateway.adapter.out.qdrant.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.HalfFloat;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.predicate.Predicate;
import io.qdrant.esgateway.domain.predicate.QueryNormalizer;
import io.qdrant.esgateway.domain.query.NumberBounds;
import io.qdrant.esgateway.domain.query.Query;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.LongSupplier;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * The normalised boolean predicate of a query ({@link QueryNormalizer}) as a Qdrant {@code Filter}, with
 * Elasticsearch's semantics exactly (guide §9, §11.8). Conditions run on the indexed values in {@code _f}
 * ({@link QdrantLayout}), which hold exactly the terms Elasticsearch would index, one array per field path:
 * <ul>
 *   <li>{@code And} → {@code must}; {@code Or} → a filter of only {@code should} (Qdrant's {@code should} is a hard
 *       OR, which is what an {@code Or} is; Elasticsearch's optional {@code should} never reaches here: the normaliser
 *       has dropped it or turned it into an {@code AtLeast}); {@code AtLeast(n)} → {@code min_should} with
 *       {@code min_count: n}; {@code Not} → {@code must_not} (which, like Elasticsearch's, matches the points missing
 *       the field);</li>
 *   <li>no clause array is ever empty: {@link Always} and {@link Never} are absorbed here, and a filter that can
 *       match nothing is reported as {@link Never} so that the caller sends no request;</li>
 *   <li>match types are strict in Qdrant, so values are converted to the field's type first: keyword values as
 *       strings ({@code match value}/{@code any}), integers as integers, {@code double}/{@code float}/
 *       {@code half_float} equality as {@code range gte=lte} at the field's precision, booleans via
 *       {@code match value} (a {@code terms} of booleans is a {@code should} of them), dates as epoch-millisecond
 *       ranges computed with Elasticsearch's date math and rounding;</li>
 *   <li>{@code exists} → {@code must_not is_empty} (an object exists when one of its leaves does; a
 *       {@code dense_vector} when the point has the named vector); {@code ids} → {@code has_id} of the point ids.</li>
 * </ul>
 * What Qdrant cannot evaluate with Elasticsearch's semantics is refused here with a 400 naming the feature (with a
 * scorer, the store sends such queries to the gateway's matching instead, {@link SupersetFilter#textual}): full-text
 * queries (analysis and scoring), {@code fuzzy}, {@code regexp}, {@code wildcard}, case-insensitive terms, ranges on
 * strings, field-name patterns, and {@code knn} queries unless their neighbours were found beforehand
 * ({@link io.qdrant.esgateway.adapter.out.qdrant.read.QdrantKnn}), which they then match.
 */
public final class FilterTranslator {
    static final String BACKEND = "on the Qdrant backend";

    /** A translated predicate: matches everything, nothing, or what the Qdrant condition matches. */
    public sealed interface Translated {
    }

    public record Always() implements Translated {
    }

    public record Never() implements Translated {
    }

    /** One Qdrant condition (a field condition, {@code has_id}, {@code has_vector}, or a nested {@code Filter}). */
    public record Condition(ObjectNode node) implements Translated {
    }

    private final IndexMetadata index;
    private final LongSupplier now;
    private final java.util.function.Function<Query.Knn, Translated> knn;

    public FilterTranslator(IndexMetadata index, LongSupplier now) {
        this(index, now, k -> {
            throw unsupported("the [knn] query");
        });
    }

    /** A translator whose {@code knn} queries match what {@code knn} says (their neighbours, found beforehand). */
    public FilterTranslator(IndexMetadata index, LongSupplier now, java.util.function.Function<Query.Knn, Translated> knn) {
        this.index = index;
        this.now = now;
        this.knn = knn;
    }

    /** The matches of {@code query}, as a translation of its normalised predicate. */
    public Translated query(Query query) {
        return predicate(QueryNormalizer.predicate(query));
    }

    /** The conjunction of several translations. */
    public static Translated and(List<Translated> parts) {
        List<ObjectNode> conditions = new ArrayList<>();
        for (Translated t : parts) {
            switch (t) {
                case Never n -> {
                    return n;
                }
                case Always a -> {
                }
                case Condition c -> conditions.add(c.node());
            }
        }
        if (conditions.isEmpty()) {
            return new Always();
        }
        if (conditions.size() == 1) {
            return new Condition(conditions.get(0));
        }
        ObjectNode filter = QdrantClient.object();
        ArrayNode must = filter.putArray("must");
        conditions.forEach(must::add);
        return new Condition(filter);
    }

    public static Translated or(List<Translated> parts) {
        List<ObjectNode> conditions = new ArrayList<>();
        for (Translated t : parts) {
            switch (t) {
                case Always a -> {
                    return a;
                }
                case Never n -> {
                }
                case Condition c -> conditions.add(c.node());
            }
        }
        if (conditions.isEmpty()) {
            return new Never();
        }
        if (conditions.size() == 1) {
            return new Condition(conditions.get(0));
        }
        ObjectNode filter = QdrantClient.object();
        ArrayNode should = filter.putArray("should");
        conditions.forEach(should::add);
        return new Condition(filter);
    }

    public static Translated not(Translated part) {
        return switch (part) {
            case Always a -> new Never();
            case Never n -> new Always();
            case Condition c -> {
                ObjectNode filter = QdrantClient.object();
                filter.putArray("must_not").add(c.node());
                yield new Condition(filter);
            }
        };
    }

    static Translated atLeast(int count, List<Translated> parts) {
        List<ObjectNode> conditions = new ArrayList<>();
        int needed = count;
        for (Translated t : parts) {
            switch (t) {
                case Always a -> needed--;
                case Never n -> {
                }
                case Condition c -> conditions.add(c.node());
            }
        }
        if (needed <= 0) {
            return new Always();
        }
        if (needed > conditions.size()) {
            return new Never();
        }
        List<Translated> rest = conditions.stream().map(c -> (Translated) new Condition(c)).toList();
        if (needed == 1) {
            return or(rest);
        }
        if (needed == conditions.size()) {
            return and(rest);
        }
        ObjectNode filter = QdrantClient.object();
        ObjectNode minShould = filter.putObject("min_should");
        ArrayNode list = minShould.putArray("conditions");
        conditions.forEach(list::add);
        minShould.put("min_count", needed);
        return new Condition(filter);
    }

    Translated predicate(Predicate p) {
        return switch (p) {
            case Predicate.Always a -> new Always();
            case Predicate.Never n -> new Never();
            case Predicate.And a -> and(a.parts().stream().map(this::predicate).toList());
            case Predicate.Or o -> or(o.parts().stream().map(this::predicate).toList());
            case Predicate.Not n -> not(predicate(n.part()));
            case Predicate.AtLeast l -> atLeast(l.count(), l.parts().stream().map(this::predicate).toList());
            case Predicate.Condition c -> leaf(c.field(), c.leaf());
        };
    }

    // ---------------------------------------------------------------- leaves

    private Translated leaf(String field, Query leaf) {
        if (field.contains("*")) {
            throw unsupported("field name patterns ([" + field + "])");
        }
        return switch (leaf) {
            case Query.Term t -> term(field, t);
            case Query.Terms t -> terms(field, t.values());
            case Query.Range r -> range(field, r);
            case Query.Exists e -> exists(field);
            case Query.Ids i -> ids(i.ids());
            case Query.Prefix pr -> prefix(field, pr);
            case Query.Wildcard w -> throw unsupported("the [wildcard] query");
            case Query.Regexp r -> throw unsupported("the [regexp] query");
            case Query.Fuzzy f -> throw unsupported("the [fuzzy] query");
            case Query.Match m -> throw unsupported("the full-text [match] query");
            case Query.MatchPhrase m -> throw unsupported("the full-text [match_phrase] query");
            case Query.MatchPhrasePrefix m -> throw unsupported("the full-text [match_phrase_prefix] query");
            case Query.MultiMatch m -> throw unsupported("the full-text [multi_match] query");
            case Query.QueryString q -> throw unsupported("the full-text [query_string] query");
            case Query.Knn k -> knn.apply(k);
            // the normaliser never leaves compound queries in a leaf; should one appear, translate it whole
            case Query.MatchAll m -> new Always();
            case Query.MatchNone m -> new Never();
            case Query.Bool b -> query(b);
            case Query.ConstantScore c -> query(c);
            case Query.Boosting b -> query(b);
            case Query.DisMax d -> query(d);
            case Query.ScriptScore s -> throw unsupported("[min_score] of the [script_score] query where only a"
                    + " filter applies");
            case Query.FunctionScore f -> throw unsupported("[min_score] of the [function_score] query where only a"
                    + " filter applies");
        };
    }

    public static GatewayException unsupported(String feature) {
        return GatewayException.unsupported(feature + " " + BACKEND);
    }

    private Optional<FieldMapping> mapping(String field) {
        return index.mappings().field(field);
    }

    private Translated term(String field, Query.Term t) {
        if (field.equals(QdrantLayout.ID)) {
            return match(QdrantLayout.ID, QdrantClient.NODES.textNode(text(t.value(), field)));
        }
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty()) {
            return new Never();
        }
        return switch (mapping.get()) {
            case FieldMapping.KeywordField k -> {
                if (t.caseInsensitive()) {
                    throw unsupported("[case_insensitive] term queries");
                }
                yield match(QdrantLayout.fieldPath(field), QdrantClient.NODES.textNode(k.normalize(text(t.value(),
                        field))));
            }
            case FieldMapping.TextField x -> throw unsupported("term-level queries on [text] fields ([" + field + "])");
            case FieldMapping.NumberField n -> numberTerm(field, n.numberType(), t.value());
            case FieldMapping.BooleanField b -> match(QdrantLayout.fieldPath(field),
                    QdrantClient.NODES.booleanNode(bool(field, t.value())));
            case FieldMapping.DateField d -> dateRange(field, d, Optional.of(new Query.Bound(t.value(), true)),
                    Optional.of(new Query.Bound(t.value(), true)), Optional.empty(), Optional.empty());
            case FieldMapping.DenseVectorField v -> throw GatewayException.illegalArgument("Field [" + field
                    + "] of type [dense_vector] does not support term queries");
            case FieldMapping.ObjectField o -> new Never();
        };
    }

    private Translated terms(String field, List<JsonValue> values) {
        if (values.isEmpty()) {
            return new Never();
        }
        if (field.equals(QdrantLayout.ID)) {
            return matchAny(QdrantLayout.ID, values.stream().map(v -> text(v, field)).toList());
        }
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty()) {
            return new Never();
        }
        return switch (mapping.get()) {
            case FieldMapping.KeywordField k -> matchAny(QdrantLayout.fieldPath(field),
                    values.stream().map(v -> k.normalize(text(v, field))).toList());
            case FieldMapping.TextField x -> throw unsupported("term-level queries on [text] fields ([" + field + "])");
            case FieldMapping.NumberField n -> {
                if (n.numberType().isIntegral()) {
                    List<Long> longs = new ArrayList<>();
                    for (JsonValue v : values) {
                        BigDecimal d = decimal(field, v);
                        if (d.stripTrailingZeros().scale() <= 0) {
                            longs.add(integral(n.numberType(), d));
                        }
                    }
                    if (longs.isEmpty()) {
                        yield new Never();
                    }
                    ObjectNode c = fieldCondition(QdrantLayout.fieldPath(field));
                    ArrayNode any = c.putObject("match").putArray("any");
                    longs.stream().distinct().forEach(any::add);
                    yield new Condition(c);
                }
                yield or(values.stream().map(v -> numberTerm(field, n.numberType(), v)).toList());
            }
            case FieldMapping.BooleanField b -> or(values.stream().map(v -> bool(field, v)).distinct()
                    .map(v -> match(QdrantLayout.fieldPath(field), QdrantClient.NODES.booleanNode(v))).toList());
            case FieldMapping.DateField d -> or(values.stream().map(v -> dateRange(field, d,
                    Optional.of(new Query.Bound(v, true)), Optional.of(new Query.Bound(v, true)), Optional.empty(),
                    Optional.empty())).toList());
            case FieldMapping.DenseVectorField v -> throw GatewayException.illegalArgument("Field [" + field
                    + "] of type [dense_vector] does not support term queries");
            case FieldMapping.ObjectField o -> new Never();
        };
    }

    private Translated numberTerm(String field, NumberType type, JsonValue value) {
        BigDecimal d = decimal(field, value);
        String path = QdrantLayout.fieldPath(field);
        if (type.isIntegral()) {
            if (d.stripTrailingZeros().scale() > 0) {
                return new Never();
            }
            return match(path, QdrantClient.NODES.numberNode(integral(type, d)));
        }
        // Qdrant has no float equality (guide §11.8): range gte = lte at the field's precision
        double v = type == NumberType.DOUBLE ? d.doubleValue() : storedFloat(type, d.floatValue());
        return numericRange(path, v, true, v, true);
    }

    private Translated range(String field, Query.Range r) {
        Optional<Query.Bound> lo = r.lower().filter(b -> b.value() != JsonValue.JsonNull.INSTANCE);
        Optional<Query.Bound> hi = r.upper().filter(b -> b.value() != JsonValue.JsonNull.INSTANCE);
        if (field.equals(QdrantLayout.ID)) {
            throw unsupported("[range] queries on [_id]");
        }
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty()) {
            return new Never();
        }
        String path = QdrantLayout.fieldPath(field);
        return switch (mapping.get()) {
            case FieldMapping.KeywordField k -> throw unsupported("[range] queries on [keyword] fields ([" + field
                    + "])");
            case FieldMapping.TextField t -> throw unsupported("[range] queries on [text] fields ([" + field + "])");
            case FieldMapping.BooleanField b -> throw unsupported("[range] queries on [boolean] fields ([" + field
                    + "])");
            case FieldMapping.NumberField n -> numberRange(field, path, n.numberType(), lo, hi);
            case FieldMapping.DateField d -> dateRange(field, d, lo, hi, r.format(), r.timeZone());
            case FieldMapping.DenseVectorField v -> throw GatewayException.illegalArgument("Field [" + field
                    + "] of type [dense_vector] does not support range queries");
            case FieldMapping.ObjectField o -> new Never();
        };
    }

    private Translated numberRange(String field, String path, NumberType type, Optional<Query.Bound> lo,
                                   Optional<Query.Bound> hi) {
        if (type.isIntegral()) {
            Optional<NumberBounds.Integral> bounds = NumberBounds.range(field, type, lo, hi);
            if (bounds.isEmpty()) {
                return new Never();
            }
            ObjectNode c = fieldCondition(path);
            ObjectNode range = c.putObject("range");
            if (lo.isPresent()) {
                range.put("gte", bounds.get().from());
            }
            if (hi.isPresent()) {
                range.put("lte", bounds.get().to());
            }
            return lo.isEmpty() && hi.isEmpty() ? exists(field) : new Condition(c);
        }
        if (lo.isEmpty() && hi.isEmpty()) {
            return exists(field);
        }
        if (type == NumberType.DOUBLE) {
            Double l = lo.map(x -> {
                double v = decimal(field, x.value()).doubleValue();
                return x.inclusive() ? v : Math.nextUp(v);
            }).orElse(null);
            Double h = hi.map(x -> {
                double v = decimal(field, x.value()).doubleValue();
                return x.inclusive() ? v : Math.nextDown(v);
            }).orElse(null);
            return numericRange(path, l, true, h, true);
        }
        boolean half = type == NumberType.HALF_FLOAT;
        Double l = lo.map(x -> {
            float v = decimal(field, x.value()).floatValue();
            return (double) (half ? halfLowest(v, x.inclusive()) : x.inclusive() ? v : Math.nextUp(v));
        }).orElse(null);
        Double h = hi.map(x -> {
            float v = decimal(field, x.value()).floatValue();
            return (double) (half ? -halfLowest(-v, x.inclusive()) : x.inclusive() ? v : Math.nextDown(v));
        }).orElse(null);
        return numericRange(path, l, true, h, true);
    }

    /**
     * A date range as Elasticsearch builds it: {@code gte} parses rounding down, {@code gt} rounding up plus one
     * millisecond, {@code lte} rounding up, {@code lt} rounding down minus one millisecond; compared with the
     * epoch milliseconds in {@code _f}.
     */
    private Translated dateRange(String field, FieldMapping.DateField mapping, Optional<Query.Bound> lo,
                                 Optional<Query.Bound> hi, Optional<String> format, Optional<String> timeZone) {
        Optional<io.qdrant.esgateway.domain.query.DateRange> bounds = io.qdrant.esgateway.domain.query.DateRange.of(
                field, mapping, lo, hi, format, timeZone, now);
        if (bounds.isEmpty()) {
            return new Never();
        }
        if (lo.isEmpty() && hi.isEmpty()) {
            return exists(field);
        }
        Long l = bounds.get().from().orElse(null);
        Long h = bounds.get().to().orElse(null);
        if (l != null && h != null && l > h) {
            return new Never();
        }
        ObjectNode c = fieldCondition(QdrantLayout.fieldPath(field));
        ObjectNode range = c.putObject("range");
        if (l != null) {
            range.put("gte", l);
        }
        if (h != null) {
            range.put("lte", h);
        }
        return new Condition(c);
    }

    private Translated exists(String field) {
        if (field.equals(QdrantLayout.ID)) {
            return new Always();
        }
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty()) {
            return new Never();
        }
        List<Translated> leaves = new ArrayList<>();
        collectExists(field, mapping.get(), leaves, true);
        return or(leaves);
    }

    /** The leaves an {@code exists} on {@code field} covers: the field itself, or an object's leaves. */
    private static void collectExists(String path, FieldMapping mapping, List<Translated> out, boolean top) {
        switch (mapping) {
            case FieldMapping.ObjectField o -> o.properties().forEach((name, child) ->
                    collectExists(path + "." + name, child, out, false));
            case FieldMapping.DenseVectorField v -> {
                ObjectNode c = QdrantClient.object();
                c.put("has_vector", path);
                out.add(new Condition(c));
            }
            default -> {
                ObjectNode isEmpty = QdrantClient.object();
                isEmpty.putObject("is_empty").put("key", QdrantLayout.fieldPath(path));
                ObjectNode filter = QdrantClient.object();
                filter.putArray("must_not").add(isEmpty);
                out.add(new Condition(filter));
                if (!top) {
                    // exists on an object also holds through its leaves' multi-fields, which share their values
                    return;
                }
            }
        }
    }

    private Translated ids(List<String> ids) {
        if (ids.isEmpty()) {
            return new Never();
        }
        ObjectNode c = QdrantClient.object();
        ArrayNode list = c.putArray("has_id");
        ids.stream().distinct().forEach(id -> list.add(QdrantLayout.pointId(index, id)));
        return new Condition(c);
    }

    private Translated prefix(String field, Query.Prefix p) {
        String path;
        String prefix = p.prefix();
        if (field.equals(QdrantLayout.ID)) {
            path = QdrantLayout.ID;
        } else {
            Optional<FieldMapping> mapping = mapping(field);
            if (mapping.isEmpty()) {
                return new Never();
            }
            if (!(mapping.get() instanceof FieldMapping.KeywordField k)) {
                throw unsupported("[prefix] queries on [" + mapping.get().type() + "] fields ([" + field + "])");
            }
            path = QdrantLayout.fieldPath(field);
            prefix = k.normalize(prefix);
        }
        if (p.caseInsensitive()) {
            throw unsupported("[case_insensitive] prefix queries");
        }
        if (prefix.isEmpty()) {
            return field.equals(QdrantLayout.ID) ? new Always() : exists(field);
        }
        ObjectNode c = fieldCondition(path);
        c.putObject("match").put("prefix", prefix);
        return new Condition(c);
    }

    // ---------------------------------------------------------------- helpers

    private static ObjectNode fieldCondition(String key) {
        ObjectNode c = QdrantClient.object();
        c.put("key", key);
        return c;
    }

    private static Translated match(String key, JsonNode value) {
        ObjectNode c = fieldCondition(key);
        c.putObject("match").set("value", value);
        return new Condition(c);
    }

    private static Translated matchAny(String key, List<String> values) {
        ObjectNode c = fieldCondition(key);
        ArrayNode any = c.putObject("match").putArray("any");
        values.stream().distinct().forEach(any::add);
        return new Condition(c);
    }

    private static Translated numericRange(String key, Double lower, boolean lowerInclusive, Double upper,
                                           boolean upperInclusive) {
        if (lower != null && upper != null && lower > upper) {
            return new Never();
        }
        ObjectNode c = fieldCondition(key);
        ObjectNode range = c.putObject("range");
        if (lower != null) {
            if (lower.isInfinite() && lower < 0) {
                lower = null;
            } else {
                range.put(lowerInclusive ? "gte" : "gt", lower);
            }
        }
        if (upper != null) {
            if (upper.isInfinite() && upper > 0) {
                upper = null;
            } else {
                range.put(upperInclusive ? "lte" : "lt", upper);
            }
        }
        if (range.isEmpty()) {
            // every number of the field: the field has a value
            ObjectNode isEmpty = QdrantClient.object();
            isEmpty.putObject("is_empty").put("key", key);
            ObjectNode filter = QdrantClient.object();
            filter.putArray("must_not").add(isEmpty);
            return new Condition(filter);
        }
        return new Condition(c);
    }

    private static double storedFloat(NumberType type, float value) {
        return type == NumberType.HALF_FLOAT ? Float.float16ToFloat(Float.floatToFloat16(value)) : value;
    }

    /** The smallest half-precision value above {@code bound} (or equal to it when inclusive). */
    static float halfLowest(float bound, boolean inclusive) {
        return HalfFloat.lowest(bound, inclusive);
    }

    private static String text(JsonValue value, String field) {
        return io.qdrant.esgateway.domain.query.DateRange.text(value, field);
    }

    private static boolean bool(String field, JsonValue value) {
        return switch (value) {
            case JsonBool b -> b.value();
            case JsonString s when s.value().equals("true") -> true;
            case JsonString s when s.value().equals("false") || s.value().isEmpty() -> false;
            default -> throw GatewayException.illegalArgument("Can't parse boolean value ["
                    + JsonReads.text(value).orElse(value.tokenName()) + "], expected [true] or [false]");
        };
    }

    private static BigDecimal decimal(String field, JsonValue value) {
        return NumberBounds.decimal(field, value);
    }


    private static long integral(NumberType type, BigDecimal value) {
        return NumberBounds.integral(type, value);
    }

    /** Every field path of the mapping with the payload index it needs (multi-fields included). */
    public static void payloadIndexes(String prefix, SortedMap<String, FieldMapping> fields, Map<String, ObjectNode> out) {
        fields.forEach((name, mapping) -> {
            String path = prefix + name;
            switch (mapping) {
                case FieldMapping.KeywordField k -> {
                    out.put(path, schema("keyword"));
                    payloadIndexes(path + ".", k.fields(), out);
                }
                case FieldMapping.TextField t -> {
                    // only [exists] filters on text today; indexed so that strict mode (Qdrant Cloud) accepts them
                    ObjectNode s = schema("text");
                    s.put("tokenizer", "word");
                    s.put("lowercase", true);
                    out.put(path, s);
                    payloadIndexes(path + ".", t.fields(), out);
                }
                case FieldMapping.NumberField n -> {
                    if (n.numberType().isIntegral()) {
                        ObjectNode s = schema("integer");
                        s.put("lookup", true);
                        s.put("range", true);
                        out.put(path, s);
                    } else {
                        out.put(path, schema("float"));
                    }
                }
                case FieldMapping.BooleanField b -> out.put(path, schema("bool"));
                // epoch milliseconds: an integer index serves ranges and order_by exactly (see QdrantLayout)
                case FieldMapping.DateField d -> {
                    ObjectNode s = schema("integer");
                    s.put("lookup", true);
                    s.put("range", true);
                    out.put(path, s);
                }
                case FieldMapping.DenseVectorField v -> {
                }
                case FieldMapping.ObjectField o -> payloadIndexes(path + ".", o.properties(), out);
            }
        });
    }

    private static ObjectNode schema(String type) {
        ObjectNode s = QdrantClient.object();
        s.put("type", type);
        return s;
    }
}
