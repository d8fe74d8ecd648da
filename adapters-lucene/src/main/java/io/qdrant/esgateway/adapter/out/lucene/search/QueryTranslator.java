package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.adapter.out.lucene.analysis.IndexAnalyzers;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.FieldMapping.BooleanField;
import io.qdrant.esgateway.domain.index.FieldMapping.DateField;
import io.qdrant.esgateway.domain.index.FieldMapping.DenseVectorField;
import io.qdrant.esgateway.domain.index.FieldMapping.KeywordField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.FieldMapping.ObjectField;
import io.qdrant.esgateway.domain.index.FieldMapping.TextField;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.query.Fuzziness;
import io.qdrant.esgateway.domain.query.MinimumShouldMatch;
import io.qdrant.esgateway.domain.query.NumberBounds;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.QueryStringParser;
import io.qdrant.esgateway.domain.script.FunctionScoring;
import io.qdrant.esgateway.domain.script.ScoreScript;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.FloatPoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.queries.function.FunctionScoreQuery;
import org.apache.lucene.search.AutomatonQuery;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.MultiPhraseQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.RegexpQuery;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;
import org.apache.lucene.util.automaton.RegExp;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;
import io.qdrant.esgateway.adapter.out.lucene.encoding.HalfFloats;

/**
 * Translates the gateway's query tree into a Lucene query over the layout of {@link FieldEncoding}, per field type as
 * Elasticsearch 8.15 builds its Lucene queries (so that scores match): term-level queries on keyword and text are not
 * analysed; numbers, dates and booleans are parsed as the field's type; full-text queries analyse with the standard
 * analyzer on text fields and take the whole text as one term on keyword fields; unmapped fields match nothing.
 *
 * <p>One translator serves one search: it reads the index (for {@code match_phrase_prefix} expansion) and fixes
 * {@code now} once. {@code lenient} turns per-field type errors into "no match" (the {@code lenient} flag, and fields
 * expanded from patterns such as {@code *}); {@code normalize} lowercases the patterns of multi-term queries on text
 * fields, as Elasticsearch's {@code query_string} does through the analyzer's normalizer (the DSL's
 * {@code prefix}/{@code wildcard}/{@code regexp}/{@code fuzzy} queries do not), and drops the clauses of a query
 * string whose text analyses to nothing (stopwords), as Elasticsearch's query string parsers do: {@code +quick +the}
 * is {@code quick}, and a query string of nothing else matches nothing.
 */
public final class QueryTranslator {
    private static final int DEFAULT_DETERMINIZE_LIMIT = 10_000;

    private final Mappings mappings;
    private final IndexAnalyzers analyzers;
    /** A full-text query's own {@code analyzer}, or null for the field's. */
    private final Analyzer override;
    private final IndexReader reader;
    private final LongSupplier now;
    private final boolean lenient;
    private final boolean normalize;
    /** The index's name, for the errors of scripts. */
    private final String indexName;

    /** With the built-in analyzers only (an index without analysis settings). */
    public QueryTranslator(Mappings mappings, IndexReader reader, LongSupplier now) {
        this(mappings, IndexAnalyzers.DEFAULT, null, reader, now, false, false, "");
    }

    /** With the index's mapping and analyzers. */
    public QueryTranslator(io.qdrant.esgateway.domain.index.IndexMetadata index, IndexReader reader, LongSupplier now) {
        this(index.mappings(), IndexAnalyzers.of(index), null, reader, now, false, false, index.name());
    }

    private QueryTranslator(Mappings mappings, IndexAnalyzers analyzers, Analyzer override, IndexReader reader,
                            LongSupplier now, boolean lenient, boolean normalize, String indexName) {
        this.indexName = indexName;
        this.mappings = mappings;
        this.analyzers = analyzers;
        this.override = override;
        this.reader = reader;
        this.now = now;
        this.lenient = lenient;
        this.normalize = normalize;
    }

    private QueryTranslator with(boolean lenient, boolean normalize) {
        return lenient == this.lenient && normalize == this.normalize ? this
                : new QueryTranslator(mappings, analyzers, override, reader, now, lenient, normalize, indexName);
    }

    /** This translator with a full-text query's own analyzer, or Elasticsearch's error for an unknown one. */
    private QueryTranslator analysedWith(String query, Optional<String> analyzer) {
        if (analyzer.isEmpty()) {
            return override == null ? this
                    : new QueryTranslator(mappings, analyzers, null, reader, now, lenient, normalize, indexName);
        }
        Analyzer named = analyzers.find(analyzer.get()).orElseThrow(() -> illegal("[" + query + "] analyzer ["
                + analyzer.get() + "] not found"));
        return new QueryTranslator(mappings, analyzers, named, reader, now, lenient, normalize, indexName);
    }

    /** The Lucene query for {@code query}. */
    public org.apache.lucene.search.Query translate(Query query) {
        org.apache.lucene.search.Query q = switch (query) {
            case Query.MatchAll m -> new MatchAllDocsQuery();
            case Query.MatchNone m -> new MatchNoDocsQuery();
            case Query.Term t -> perField(t.field(), f -> term(f, t.value(), t.caseInsensitive()));
            case Query.Terms t -> perField(t.field(), f -> terms(f, t.values()));
            case Query.Range r -> perField(r.field(), f -> range(f, r));
            case Query.Exists e -> exists(e.field());
            case Query.Ids ids -> ids.ids().isEmpty() ? new MatchNoDocsQuery()
                    : new TermInSetQuery(FieldEncoding.ID, ids.ids().stream().map(BytesRef::new).toList());
            case Query.Prefix p -> perField(p.field(), f -> prefix(f, p));
            case Query.Wildcard w -> perField(w.field(), f -> wildcard(f, w));
            case Query.Regexp r -> perField(r.field(), f -> regexp(f, r));
            case Query.Fuzzy fz -> perField(fz.field(), f -> fuzzy(f, fz));
            case Query.Bool b -> bool(b);
            case Query.ConstantScore c -> new ConstantScoreQuery(translate(c.filter()));
            case Query.Boosting b -> FunctionScoreQuery.boostByQuery(translate(b.positive()), translate(b.negative()),
                    b.negativeBoost());
            case Query.DisMax d -> d.queries().isEmpty() ? new MatchNoDocsQuery()
                    : new DisjunctionMaxQuery(d.queries().stream().map(this::translate).toList(), d.tieBreaker());
            case Query.Match m -> {
                QueryTranslator t = analysedWith("match", m.analyzer());
                yield t.perField(m.field(), f -> t.match(f, m.text(), m.operator(), m.minimumShouldMatch(),
                        m.fuzziness(), m.prefixLength(), m.maxExpansions(), m.zeroTermsQuery(), m.lenient()));
            }
            case Query.MatchPhrase m -> {
                QueryTranslator t = analysedWith("match_phrase", m.analyzer());
                yield t.perField(m.field(), f -> t.phrase(f, m.text(), m.slop(), m.zeroTermsQuery(), false));
            }
            case Query.MatchPhrasePrefix m -> {
                QueryTranslator t = analysedWith("match_phrase_prefix", m.analyzer());
                yield t.perField(m.field(), f -> t.phrasePrefix(f, m.text(), m.slop(), m.maxExpansions(), false));
            }
            case Query.MultiMatch m -> multiMatch(m);
            // the boost is applied once, below (the parser would wrap the tree in it too)
            case Query.QueryString s -> {
                String name = s.simple() ? "simple_query_string" : "query_string";
                analysedWith(name, s.analyzer());
                s.quoteAnalyzer().ifPresent(a -> analyzers.find(a).orElseThrow(() -> illegal("[" + name
                        + "] quote_analyzer [" + a + "] not found")));
                yield with(lenient || s.lenient(), true).translate(QueryStringParser.unboosted(s));
            }
            case Query.Knn k -> knn(k);
            case Query.ScriptScore s -> {
                // the script's score times the boost, then min_score on the boosted score (as Elasticsearch)
                org.apache.lucene.search.Query scored = boost(new ScriptScoreQuery(translate(s.query()),
                        ScoreScript.compile(s.source(), s.script(), mappings, indexName), mappings, s.source()),
                        s.boost());
                yield s.minScore().isPresent() ? new MinScoreQuery(scored, s.minScore().get()) : scored;
            }
            case Query.FunctionScore f -> {
                // the boost reaches the inner query, and min_score sees the boosted score (as Elasticsearch)
                List<org.apache.lucene.search.Query> filters = new ArrayList<>();
                for (Query.ScoreFunction fn : f.functions()) {
                    filters.add(fn.filter().map(this::translate).orElse(null));
                }
                org.apache.lucene.search.Query scored = new GatewayFunctionScoreQuery(translate(f.query()), filters,
                        FunctionScoring.bind(f.functions().stream().map(Query.ScoreFunction::fn).toList(),
                                f.functions().stream().map(fn -> fn.weight().orElse(null)).toList(), f.filtered(),
                                f.scoreMode(), f.boostMode(), f.maxBoost(), mappings, indexName, now), mappings);
                yield boost(f.minScore().isPresent() ? new MinScoreQuery(scored, f.minScore().get()) : scored,
                        f.boost());
            }
        };
        if (query instanceof Query.ScriptScore || query instanceof Query.FunctionScore) {
            return q;
        }
        return boost(q, query.boost());
    }

    static org.apache.lucene.search.Query boost(org.apache.lucene.search.Query q, float boost) {
        return boost == 1f ? q : new BoostQuery(q, boost);
    }

    // ---------------------------------------------------------------- fields

    /** Runs {@code build} on the field, or on every field a pattern names (leniently, as a dis_max over them). */
    private org.apache.lucene.search.Query perField(String field, Function<String, org.apache.lucene.search.Query> build) {
        if (!field.contains("*")) {
            return build.apply(field);
        }
        List<org.apache.lucene.search.Query> each = new ArrayList<>();
        QueryTranslator lenientOne = with(true, normalize);
        for (String f : searchableFields(field)) {
            each.add(lenientOne.guarded(() -> build.apply(f)));
        }
        return each.isEmpty() ? new MatchNoDocsQuery() : each.size() == 1 ? each.get(0)
                : new DisjunctionMaxQuery(each, 0f);
    }

    private org.apache.lucene.search.Query guarded(java.util.function.Supplier<org.apache.lucene.search.Query> build) {
        try {
            return build.get();
        } catch (GatewayException e) {
            if (lenient) {
                return new MatchNoDocsQuery();
            }
            throw e;
        }
    }

    /** The leaf fields a pattern such as {@code *} or {@code title*} names that term and text queries can search. */
    List<String> searchableFields(String pattern) {
        Pattern regex = glob(pattern);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, FieldMapping> e : leaves(mappings.properties(), "").entrySet()) {
            FieldMapping m = e.getValue();
            boolean searchable = m instanceof TextField || m instanceof KeywordField || m instanceof NumberField
                    || m instanceof DateField || m instanceof BooleanField;
            if (searchable && regex.matcher(e.getKey()).matches()) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    static Pattern glob(String pattern) {
        StringBuilder re = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (!re.isEmpty()) {
                re.append(".*");
            }
            re.append(Pattern.quote(part));
        }
        return Pattern.compile(re.toString());
    }

    /** Every field path below {@code properties} (objects excluded, multi-fields included), in path order. */
    static SortedMap<String, FieldMapping> leaves(SortedMap<String, FieldMapping> properties, String prefix) {
        SortedMap<String, FieldMapping> out = new java.util.TreeMap<>();
        properties.forEach((name, mapping) -> {
            String path = prefix + name;
            switch (mapping) {
                case ObjectField o -> out.putAll(leaves(o.properties(), path + "."));
                case TextField t -> {
                    out.put(path, t);
                    out.putAll(leaves(t.fields(), path + "."));
                }
                case KeywordField k -> {
                    out.put(path, k);
                    out.putAll(leaves(k.fields(), path + "."));
                }
                default -> out.put(path, mapping);
            }
        });
        return out;
    }

    private Optional<FieldMapping> mapping(String field) {
        if (field.equals(FieldEncoding.ROUTING) && reader != null && FieldEncoding.routingStoredOnly(reader)) {
            // an index written before _routing was indexed: its routed documents have no _routing term to match
            throw illegal("the [" + field + "] field of index [" + indexName + "] holds values written before it was"
                    + " indexed and cannot be searched; reindex the index into a new one to search it");
        }
        return mappings.field(field);
    }

    private static GatewayException illegal(String reason) {
        return GatewayException.illegalArgument(reason);
    }

    private static String text(JsonValue value, String field) {
        return io.qdrant.esgateway.domain.query.DateRange.text(value, field);
    }

    // ---------------------------------------------------------------- term level

    private org.apache.lucene.search.Query term(String field, JsonValue value, boolean caseInsensitive) {
        if (field.equals(FieldEncoding.ID)) {
            return new TermInSetQuery(FieldEncoding.ID, List.of(new BytesRef(text(value, field))));
        }
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        return switch (mapping.get()) {
            case TextField t -> stringTerm(field, text(value, field), caseInsensitive);
            case KeywordField k -> stringTerm(field, k.normalize(text(value, field)), caseInsensitive);
            case NumberField n -> numberTerm(field, n.numberType(), value);
            case DateField d -> dateRange(field, d, Optional.of(new Query.Bound(value, true)),
                    Optional.of(new Query.Bound(value, true)), Optional.empty(), Optional.empty());
            case BooleanField b -> new TermQuery(new Term(field, booleanTerm(field, value)));
            case DenseVectorField v -> throw illegal("Field [" + field
                    + "] of type [dense_vector] does not support term queries");
            case ObjectField o -> new MatchNoDocsQuery();
        };
    }

    private static org.apache.lucene.search.Query stringTerm(String field, String value, boolean caseInsensitive) {
        if (!caseInsensitive) {
            return new TermQuery(new Term(field, value));
        }
        return new AutomatonQuery(new Term(field, value), caseInsensitiveString(value));
    }

    private org.apache.lucene.search.Query terms(String field, List<JsonValue> values) {
        if (field.equals(FieldEncoding.ID)) {
            return new TermInSetQuery(FieldEncoding.ID, values.stream().map(v -> new BytesRef(text(v, field)))
                    .toList());
        }
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty() || values.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        return switch (mapping.get()) {
            case TextField t -> new TermInSetQuery(field, values.stream().map(v -> new BytesRef(text(v, field)))
                    .toList());
            case KeywordField k -> new TermInSetQuery(field, values.stream()
                    .map(v -> new BytesRef(k.normalize(text(v, field)))).toList());
            case BooleanField b -> new TermInSetQuery(field, values.stream()
                    .map(v -> new BytesRef(booleanTerm(field, v))).toList());
            case NumberField n -> {
                if (n.numberType().isIntegral()) {
                    List<Long> longs = new ArrayList<>();
                    for (JsonValue v : values) {
                        BigDecimal d = decimal(field, v);
                        if (d.stripTrailingZeros().scale() <= 0) {
                            longs.add(integral(field, n.numberType(), d));
                        }
                    }
                    yield longs.isEmpty() ? new MatchNoDocsQuery()
                            : LongPoint.newSetQuery(field, longs.stream().mapToLong(Long::longValue).toArray());
                }
                if (n.numberType() == NumberType.DOUBLE) {
                    yield DoublePoint.newSetQuery(field, values.stream()
                            .mapToDouble(v -> decimal(field, v).doubleValue()).toArray());
                }
                float[] floats = new float[values.size()];
                for (int i = 0; i < floats.length; i++) {
                    floats[i] = HalfFloats.valueOf(n.numberType(), decimal(field, values.get(i)).floatValue());
                }
                yield FloatPoint.newSetQuery(field, floats);
            }
            case DateField d -> {
                BooleanQuery.Builder any = new BooleanQuery.Builder();
                for (JsonValue v : values) {
                    any.add(dateRange(field, d, Optional.of(new Query.Bound(v, true)),
                            Optional.of(new Query.Bound(v, true)), Optional.empty(), Optional.empty()), Occur.SHOULD);
                }
                yield new ConstantScoreQuery(any.build());
            }
            case DenseVectorField v -> throw illegal("Field [" + field
                    + "] of type [dense_vector] does not support term queries");
            case ObjectField o -> new MatchNoDocsQuery();
        };
    }

    private static String booleanTerm(String field, JsonValue value) {
        return switch (value) {
            case JsonBool b -> b.value() ? FieldEncoding.TRUE : FieldEncoding.FALSE;
            case JsonString s when s.value().equals("true") -> FieldEncoding.TRUE;
            case JsonString s when s.value().equals("false") || s.value().isEmpty() -> FieldEncoding.FALSE;
            default -> throw illegal("Can't parse boolean value [" + JsonReads.text(value).orElse(value.tokenName())
                    + "], expected [true] or [false]");
        };
    }

    private static BigDecimal decimal(String field, JsonValue value) {
        return NumberBounds.decimal(field, value);
    }


    private static long integral(String field, NumberType type, BigDecimal value) {
        return NumberBounds.integral(type, value);
    }

    private static org.apache.lucene.search.Query numberTerm(String field, NumberType type, JsonValue value) {
        BigDecimal d = decimal(field, value);
        if (type.isIntegral()) {
            if (d.stripTrailingZeros().scale() > 0) {
                return new MatchNoDocsQuery();
            }
            return LongPoint.newExactQuery(field, integral(field, type, d));
        }
        if (type == NumberType.DOUBLE) {
            return DoublePoint.newExactQuery(field, d.doubleValue());
        }
        return FloatPoint.newExactQuery(field, HalfFloats.valueOf(type, d.floatValue()));
    }

    private org.apache.lucene.search.Query range(String field, Query.Range r) {
        if (field.equals(FieldEncoding.ID)) {
            return new TermRangeQuery(field, r.lower().map(b -> new BytesRef(text(b.value(), field))).orElse(null),
                    r.upper().map(b -> new BytesRef(text(b.value(), field))).orElse(null),
                    r.lower().map(Query.Bound::inclusive).orElse(true), r.upper().map(Query.Bound::inclusive)
                    .orElse(true));
        }
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        Optional<Query.Bound> lo = r.lower().filter(b -> b.value() != JsonValue.JsonNull.INSTANCE);
        Optional<Query.Bound> hi = r.upper().filter(b -> b.value() != JsonValue.JsonNull.INSTANCE);
        return switch (mapping.get()) {
            case TextField t -> stringRange(field, lo, hi);
            case KeywordField k -> stringRange(field, lo.map(b -> normalizedBound(k, field, b)),
                    hi.map(b -> normalizedBound(k, field, b)));
            case NumberField n -> numberRange(field, n.numberType(), lo, hi);
            case DateField d -> dateRange(field, d, lo, hi, r.format(), r.timeZone());
            case BooleanField b -> new TermRangeQuery(field,
                    lo.map(x -> new BytesRef(booleanTerm(field, x.value()))).orElse(null),
                    hi.map(x -> new BytesRef(booleanTerm(field, x.value()))).orElse(null),
                    lo.map(Query.Bound::inclusive).orElse(true), hi.map(Query.Bound::inclusive).orElse(true));
            case DenseVectorField v -> throw illegal("Field [" + field
                    + "] of type [dense_vector] does not support range queries");
            case ObjectField o -> new MatchNoDocsQuery();
        };
    }

    private static org.apache.lucene.search.Query stringRange(String field, Optional<Query.Bound> lo,
                                                              Optional<Query.Bound> hi) {
        return new TermRangeQuery(field, lo.map(b -> new BytesRef(text(b.value(), field))).orElse(null),
                hi.map(b -> new BytesRef(text(b.value(), field))).orElse(null),
                lo.map(Query.Bound::inclusive).orElse(true), hi.map(Query.Bound::inclusive).orElse(true));
    }

    private static org.apache.lucene.search.Query numberRange(String field, NumberType type, Optional<Query.Bound> lo,
                                                              Optional<Query.Bound> hi) {
        if (type.isIntegral()) {
            Optional<NumberBounds.Integral> range = NumberBounds.range(field, type, lo, hi);
            return range.isEmpty() ? new MatchNoDocsQuery()
                    : LongPoint.newRangeQuery(field, range.get().from(), range.get().to());
        }
        if (type == NumberType.DOUBLE) {
            double l = Double.NEGATIVE_INFINITY;
            double h = Double.POSITIVE_INFINITY;
            if (lo.isPresent()) {
                double v = decimal(field, lo.get().value()).doubleValue();
                l = lo.get().inclusive() ? v : Math.nextUp(v);
            }
            if (hi.isPresent()) {
                double v = decimal(field, hi.get().value()).doubleValue();
                h = hi.get().inclusive() ? v : Math.nextDown(v);
            }
            return DoublePoint.newRangeQuery(field, l, h);
        }
        float l = Float.NEGATIVE_INFINITY;
        float h = Float.POSITIVE_INFINITY;
        boolean half = type == NumberType.HALF_FLOAT;
        if (lo.isPresent()) {
            float v = decimal(field, lo.get().value()).floatValue();
            l = half ? HalfFloats.lowest(v, lo.get().inclusive()) : lo.get().inclusive() ? v : Math.nextUp(v);
        }
        if (hi.isPresent()) {
            float v = decimal(field, hi.get().value()).floatValue();
            h = half ? HalfFloats.highest(v, hi.get().inclusive()) : hi.get().inclusive() ? v : Math.nextDown(v);
        }
        return FloatPoint.newRangeQuery(field, l, h);
    }

    /**
     * A date range as Elasticsearch builds it: {@code gte} parses rounding down, {@code gt} rounding up plus one
     * millisecond, {@code lte} rounding up, {@code lt} rounding down minus one millisecond.
     */
    private org.apache.lucene.search.Query dateRange(String field, DateField mapping, Optional<Query.Bound> lo,
                                                     Optional<Query.Bound> hi, Optional<String> format,
                                                     Optional<String> timeZone) {
        Optional<io.qdrant.esgateway.domain.query.DateRange> range = io.qdrant.esgateway.domain.query.DateRange.of(
                field, mapping, lo, hi, format, timeZone, now);
        if (range.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        return LongPoint.newRangeQuery(field, range.get().from().orElse(Long.MIN_VALUE),
                range.get().to().orElse(Long.MAX_VALUE));
    }

    /**
     * A leaf path exists in the documents where it has doc values, norms (text) or a vector: every value the layout
     * indexes has one of them ({@link FieldEncoding}), also a text value without tokens ({@code ""}, a norm of 0),
     * as Elasticsearch answers {@code exists} for fields with doc values or norms; an object exists when one of its
     * leaves does.
     */
    private org.apache.lucene.search.Query exists(String field) {
        if (field.equals(FieldEncoding.ID)) {
            return new MatchAllDocsQuery();
        }
        Set<String> paths = new LinkedHashSet<>();
        if (field.contains("*")) {
            Pattern regex = glob(field);
            for (String path : leaves(mappings.properties(), "").keySet()) {
                if (regex.matcher(path).matches()) {
                    paths.add(path);
                }
            }
        } else {
            Optional<FieldMapping> mapping = mapping(field);
            if (mapping.isEmpty()) {
                return new MatchNoDocsQuery();
            }
            if (mapping.get() instanceof ObjectField o) {
                paths.addAll(leaves(o.properties(), field + ".").keySet());
            } else {
                paths.add(field);
            }
        }
        if (paths.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        if (paths.size() == 1) {
            return new ConstantScoreQuery(new FieldExistsQuery(paths.iterator().next()));
        }
        if (paths.size() > EXISTS_CLAUSES) {
            // one leaf query, not a clause per path: a wide object or wildcard stays under Lucene's clause limit
            return new ConstantScoreQuery(new AnyFieldExistsQuery(List.copyOf(paths)));
        }
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        for (String path : paths) {
            any.add(new FieldExistsQuery(path), Occur.SHOULD);
        }
        return new ConstantScoreQuery(any.build());
    }

    /** Above this many leaf paths an {@code exists} is one {@link AnyFieldExistsQuery} instead of a clause each. */
    static final int EXISTS_CLAUSES = 64;

    /** The field when prefix/wildcard/regexp/fuzzy may run on it (keyword, text, {@code _id}), else a 400. */
    private Optional<FieldMapping> stringField(String field, String queryType) {
        if (field.equals(FieldEncoding.ID)) {
            return Optional.of(new KeywordField(Optional.empty(), new java.util.TreeMap<>()));
        }
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty() || mapping.get() instanceof ObjectField) {
            return Optional.empty();
        }
        if (mapping.get() instanceof TextField || mapping.get() instanceof KeywordField) {
            return mapping;
        }
        throw illegal("Can only use " + queryType + " queries on keyword and text fields - not on [" + field
                + "] which is of type [" + mapping.get().type() + "]");
    }

    private String normalized(FieldMapping mapping, String value) {
        return normalize && mapping instanceof TextField ? value.toLowerCase(java.util.Locale.ROOT) : value;
    }

    /** A prefix, pattern or fuzzy value as a keyword field's normalizer normalizes it (as {@link #normalized}). */
    private String keywordNormalized(FieldMapping mapping, String value) {
        return mapping instanceof KeywordField k ? k.normalize(value) : normalized(mapping, value);
    }

    private Query.Bound normalizedBound(KeywordField keyword, String field, Query.Bound bound) {
        return new Query.Bound(JsonValue.string(keyword.normalize(text(bound.value(), field))), bound.inclusive());
    }

    private org.apache.lucene.search.Query prefix(String field, Query.Prefix p) {
        Optional<FieldMapping> mapping = stringField(field, "prefix");
        if (mapping.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        String prefix = keywordNormalized(mapping.get(), p.prefix());
        if (p.caseInsensitive()) {
            return new AutomatonQuery(new Term(field, prefix), Operations.concatenate(caseInsensitiveString(prefix),
                    Automata.makeAnyString()));
        }
        return new PrefixQuery(new Term(field, prefix));
    }

    private org.apache.lucene.search.Query wildcard(String field, Query.Wildcard w) {
        Optional<FieldMapping> mapping = stringField(field, "wildcard");
        if (mapping.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        String pattern = keywordNormalized(mapping.get(), w.pattern());
        if (!w.caseInsensitive()) {
            return new WildcardQuery(new Term(field, pattern));
        }
        List<Automaton> parts = new ArrayList<>();
        for (int i = 0; i < pattern.length(); ) {
            int c = pattern.codePointAt(i);
            int len = Character.charCount(c);
            switch (c) {
                case '*' -> parts.add(Automata.makeAnyString());
                case '?' -> parts.add(Automata.makeAnyChar());
                case '\\' -> {
                    if (i + len < pattern.length()) {
                        int next = pattern.codePointAt(i + len);
                        parts.add(caseInsensitiveChar(next));
                        len += Character.charCount(next);
                    } else {
                        parts.add(Automata.makeChar(c));
                    }
                }
                default -> parts.add(caseInsensitiveChar(c));
            }
            i += len;
        }
        Automaton a = parts.isEmpty() ? Automata.makeEmptyString() : Operations.concatenate(parts);
        return new AutomatonQuery(new Term(field, pattern), Operations.determinize(a, DEFAULT_DETERMINIZE_LIMIT));
    }

    private org.apache.lucene.search.Query regexp(String field, Query.Regexp r) {
        Optional<FieldMapping> mapping = stringField(field, "regexp");
        if (mapping.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        String pattern = normalized(mapping.get(), r.pattern());
        try {
            return new RegexpQuery(new Term(field, pattern), RegExp.ALL,
                    r.caseInsensitive() ? RegExp.ASCII_CASE_INSENSITIVE : 0, r.maxDeterminizedStates());
        } catch (IllegalArgumentException e) {
            throw illegal("failed to create query: " + e.getMessage());
        }
    }

    private org.apache.lucene.search.Query fuzzy(String field, Query.Fuzzy f) {
        Optional<FieldMapping> mapping = stringField(field, "fuzzy");
        if (mapping.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        String value = keywordNormalized(mapping.get(), text(f.value(), field));
        return fuzzyTerm(field, value, f.fuzziness(), f.prefixLength(), f.maxExpansions(), f.transpositions());
    }

    private static org.apache.lucene.search.Query fuzzyTerm(String field, String value, Fuzziness fuzziness,
                                                            int prefixLength, int maxExpansions,
                                                            boolean transpositions) {
        int edits = fuzziness.editsFor(value.codePointCount(0, value.length()));
        if (edits == 0) {
            return new TermQuery(new Term(field, value));
        }
        return new FuzzyQuery(new Term(field, value), edits, prefixLength, maxExpansions, transpositions);
    }

    private static Automaton caseInsensitiveString(String s) {
        List<Automaton> parts = new ArrayList<>();
        s.codePoints().forEach(c -> parts.add(caseInsensitiveChar(c)));
        return parts.isEmpty() ? Automata.makeEmptyString() : Operations.determinize(Operations.concatenate(parts),
                DEFAULT_DETERMINIZE_LIMIT);
    }

    private static Automaton caseInsensitiveChar(int c) {
        int lower = Character.toLowerCase(c);
        int upper = Character.toUpperCase(c);
        if (lower == c && upper == c) {
            return Automata.makeChar(c);
        }
        int[] set = java.util.stream.IntStream.of(c, lower, upper).distinct().sorted().toArray();
        return Automata.makeCharSet(set);
    }

    // ---------------------------------------------------------------- compound

    private org.apache.lucene.search.Query bool(Query.Bool b) {
        if (b.must().isEmpty() && b.filter().isEmpty() && b.should().isEmpty() && b.mustNot().isEmpty()) {
            return new MatchAllDocsQuery();
        }
        if (normalize) {
            Query.Bool kept = withoutEmptyClauses(b);
            if (kept != b) {
                return kept == null ? new MatchNoDocsQuery("no terms left after analysis") : bool(kept);
            }
        }
        BooleanQuery.Builder builder = new BooleanQuery.Builder();
        b.must().forEach(q -> builder.add(translate(q), Occur.MUST));
        b.filter().forEach(q -> builder.add(translate(q), Occur.FILTER));
        b.should().forEach(q -> builder.add(translate(q), Occur.SHOULD));
        b.mustNot().forEach(q -> builder.add(translate(q), Occur.MUST_NOT));
        boolean pureNegation = b.must().isEmpty() && b.filter().isEmpty() && b.should().isEmpty();
        if (pureNegation) {
            // a pure negation matches everything else, with score 0, whatever minimum_should_match says, as
            // Elasticsearch
            builder.add(new MatchAllDocsQuery(), Occur.FILTER);
        } else {
            // Elasticsearch's number, also above the should clauses there are (then nothing matches)
            builder.setMinimumNumberShouldMatch(b.minimumShouldMatch().required(b.should().size()));
        }
        return builder.build();
    }

    // ---------------------------------------------------------------- query strings

    /**
     * A query string's boolean clause without its clauses that analyse to nothing ({@code b} itself when there are
     * none), or null when no clause but the {@code match_all} of a purely negative query string is left.
     */
    private Query.Bool withoutEmptyClauses(Query.Bool b) {
        List<Query> must = kept(b.must());
        List<Query> filter = kept(b.filter());
        List<Query> should = kept(b.should());
        List<Query> mustNot = kept(b.mustNot());
        if (must.size() == b.must().size() && filter.size() == b.filter().size() && should.size() == b.should().size()
                && mustNot.size() == b.mustNot().size()) {
            return b;
        }
        if (must.size() == 1 && must.get(0) == QueryStringParser.NEGATED_BASE && mustNot.isEmpty()) {
            must = List.of();
        }
        if (must.isEmpty() && filter.isEmpty() && should.isEmpty() && mustNot.isEmpty()) {
            return null;
        }
        return new Query.Bool(must, filter, should, mustNot, b.minimumShouldMatch(), b.boost());
    }

    private List<Query> kept(List<Query> clauses) {
        List<Query> out = new ArrayList<>(clauses.size());
        for (Query q : clauses) {
            if (!analysesToNothing(q)) {
                out.add(q);
            }
        }
        return out.size() == clauses.size() ? clauses : out;
    }

    /**
     * Whether a query string's clause analyses to nothing on every field it searches: a term or phrase on text fields
     * whose (search or query) analyzer leaves no token, or a group, boost or multi-field clause of only such clauses.
     */
    private boolean analysesToNothing(Query q) {
        return switch (q) {
            case Query.Match m -> m.fuzziness().isEmpty() && noTokens(m.field(), m.text(), false, m.analyzer());
            case Query.MatchPhrase m -> noTokens(m.field(), m.text(), true, m.analyzer());
            case Query.DisMax d -> !d.queries().isEmpty() && d.queries().stream().allMatch(this::analysesToNothing);
            case Query.Bool b -> {
                List<Query> all = new ArrayList<>(b.must());
                all.addAll(b.filter());
                all.addAll(b.should());
                all.addAll(b.mustNot());
                all.removeIf(c -> c == QueryStringParser.NEGATED_BASE);
                yield !all.isEmpty() && all.stream().allMatch(this::analysesToNothing);
            }
            default -> false;
        };
    }

    /** Whether {@code text} analyses to no token on the text field (every text field a pattern names). */
    private boolean noTokens(String field, String text, boolean quote, Optional<String> analyzer) {
        List<String> fields = field.contains("*") ? searchableFields(field) : List.of(field);
        if (fields.isEmpty()) {
            return false;
        }
        QueryTranslator t = analysedWith("query_string", analyzer);
        for (String f : fields) {
            if (!(mapping(f).orElse(null) instanceof TextField) || !t.analyze(f, text, quote).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- full text

    /** A token of a query's text; a {@code length} above 1 spans positions (a multi-word synonym: a graph). */
    private record Token(String term, int position, int length) {
    }

    /** The analyzer of a full-text query on a field: its own, else the field's search (or search-quote) analyzer. */
    private Analyzer searchAnalyzer(String field, boolean quote) {
        return override != null ? override : quote ? analyzers.searchQuoteAnalyzer(mappings, field)
                : analyzers.searchAnalyzer(mappings, field);
    }

    /** The tokens of a full-text query's text: the field's search analyzer ({@code quote}: its search-quote one). */
    private List<Token> analyze(String field, String text, boolean quote) {
        Analyzer analyzer = searchAnalyzer(field, quote);
        List<Token> tokens = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            PositionIncrementAttribute inc = stream.addAttribute(PositionIncrementAttribute.class);
            PositionLengthAttribute length = stream.addAttribute(PositionLengthAttribute.class);
            stream.reset();
            int position = -1;
            while (stream.incrementToken()) {
                position += inc.getPositionIncrement();
                tokens.add(new Token(term.toString(), position, length.getPositionLength()));
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tokens;
    }

    private static org.apache.lucene.search.Query zeroTerms(Query.ZeroTermsQuery zero) {
        return zero == Query.ZeroTermsQuery.ALL ? new MatchAllDocsQuery() : new MatchNoDocsQuery();
    }

    /**
     * The query a full-text query becomes on a field that is not text: keyword takes the whole text as one term,
     * numbers, dates and booleans a term on the parsed value (leniently: no match when it does not parse).
     */
    private org.apache.lucene.search.Query nonTextMatch(String field, FieldMapping mapping, String text,
                                                        boolean lenientHere, Optional<Fuzziness> fuzziness,
                                                        int prefixLength, int maxExpansions) {
        QueryTranslator t = with(lenient || lenientHere, normalize);
        return t.guarded(() -> switch (mapping) {
            case KeywordField k -> fuzziness.isPresent()
                    ? fuzzyTerm(field, k.normalize(text), fuzziness.get(), prefixLength, maxExpansions, true)
                    : new TermQuery(new Term(field, k.normalize(text)));
            case DenseVectorField v -> throw illegal("Field [" + field
                    + "] of type [dense_vector] does not support match queries");
            default -> t.term(field, JsonValue.string(text), false);
        });
    }

    private org.apache.lucene.search.Query match(String field, String text, Query.Operator operator,
                                                 MinimumShouldMatch msm, Optional<Fuzziness> fuzziness,
                                                 int prefixLength, int maxExpansions, Query.ZeroTermsQuery zero,
                                                 boolean lenientHere) {
        Optional<FieldMapping> mapping = mapping(field);
        if (field.equals(FieldEncoding.ID)) {
            return new TermInSetQuery(FieldEncoding.ID, List.of(new BytesRef(text)));
        }
        if (mapping.isEmpty() || mapping.get() instanceof ObjectField) {
            return new MatchNoDocsQuery();
        }
        if (!(mapping.get() instanceof TextField)) {
            return nonTextMatch(field, mapping.get(), text, lenientHere, fuzziness, prefixLength, maxExpansions);
        }
        List<Token> tokens = analyze(field, text, false);
        if (tokens.isEmpty()) {
            return zeroTerms(zero);
        }
        if (fuzziness.isEmpty() && isGraph(tokens)) {
            return GraphQueries.bool(searchAnalyzer(field, false), field, text, operator == Query.Operator.AND, msm);
        }
        if (isGraph(tokens)) {
            return GraphQueries.bool(searchAnalyzer(field, false), field, text, operator == Query.Operator.AND, msm,
                    t -> fuzzyTerm(field, t.text(), fuzziness.get(), prefixLength, maxExpansions, true),
                    terms -> {
                        BooleanQuery.Builder any = new BooleanQuery.Builder();
                        terms.forEach(t -> any.add(fuzzyTerm(field, t.text(), fuzziness.get(), prefixLength,
                                maxExpansions, true), Occur.SHOULD));
                        return any.build();
                    });
        }
        List<org.apache.lucene.search.Query> clauses = new ArrayList<>();
        for (List<Token> group : samePosition(tokens)) {
            if (group.size() == 1) {
                Token token = group.get(0);
                clauses.add(fuzziness.isPresent()
                        ? fuzzyTerm(field, token.term(), fuzziness.get(), prefixLength, maxExpansions, true)
                        : new TermQuery(new Term(field, token.term())));
            } else if (fuzziness.isPresent()) {
                // tokens at one position (synonyms): any of them, as Elasticsearch
                BooleanQuery.Builder any = new BooleanQuery.Builder();
                group.forEach(t -> any.add(fuzzyTerm(field, t.term(), fuzziness.get(), prefixLength, maxExpansions,
                        true), Occur.SHOULD));
                clauses.add(any.build());
            } else {
                // tokens at one position (synonyms) score as one term, as Elasticsearch's SynonymQuery
                org.apache.lucene.search.SynonymQuery.Builder synonyms =
                        new org.apache.lucene.search.SynonymQuery.Builder(field);
                group.forEach(t -> synonyms.addTerm(new Term(field, t.term())));
                clauses.add(synonyms.build());
            }
        }
        if (clauses.size() == 1) {
            return clauses.get(0);
        }
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        Occur occur = operator == Query.Operator.AND ? Occur.MUST : Occur.SHOULD;
        clauses.forEach(c -> b.add(c, occur));
        if (occur == Occur.SHOULD) {
            b.setMinimumNumberShouldMatch(msm.required(clauses.size()));
        }
        return b.build();
    }

    private org.apache.lucene.search.Query phrase(String field, String text, int slop, Query.ZeroTermsQuery zero,
                                                  boolean lenientHere) {
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty() || mapping.get() instanceof ObjectField) {
            return new MatchNoDocsQuery();
        }
        if (!(mapping.get() instanceof TextField)) {
            return nonTextMatch(field, mapping.get(), text, lenientHere, Optional.empty(), 0, 50);
        }
        List<Token> tokens = analyze(field, text, true);
        if (tokens.isEmpty()) {
            return zeroTerms(zero);
        }
        if (isGraph(tokens)) {
            return GraphQueries.phrase(searchAnalyzer(field, true), field, text, slop);
        }
        if (tokens.size() == 1) {
            return new TermQuery(new Term(field, tokens.get(0).term()));
        }
        List<List<Token>> groups = samePosition(tokens);
        if (slop == 0 && ((TextField) mapping.get()).text().indexPhrases() && groups.size() > 1 && !hasGaps(tokens)) {
            return shinglePhrase(field, text, groups.size() < tokens.size());
        }
        if (groups.size() < tokens.size()) {
            if (groups.size() == 1) {
                org.apache.lucene.search.SynonymQuery.Builder synonyms =
                        new org.apache.lucene.search.SynonymQuery.Builder(field);
                tokens.forEach(t -> synonyms.addTerm(new Term(field, t.term())));
                return synonyms.build();
            }
            MultiPhraseQuery.Builder mb = new MultiPhraseQuery.Builder().setSlop(slop);
            for (List<Token> group : groups) {
                mb.add(group.stream().map(t -> new Term(field, t.term())).toArray(Term[]::new),
                        group.get(0).position());
            }
            return mb.build();
        }
        PhraseQuery.Builder b = new PhraseQuery.Builder().setSlop(slop);
        tokens.forEach(t -> b.add(new Term(field, t.term()), t.position()));
        return b.build();
    }

    /** Whether a position is skipped (a removed stop word, also before the first token), as ES's check. */
    private static boolean hasGaps(List<Token> tokens) {
        int previous = -1;
        for (Token t : tokens) {
            if (t.position() - previous > 1) {
                return true;
            }
            previous = t.position();
        }
        return false;
    }

    /**
     * A phrase without slop on a field with {@code index_phrases}, as Elasticsearch rewrites it: the query's tokens
     * made into two-term shingles, searched as a phrase ({@code synonyms}: a multi-phrase) over the field's hidden
     * field of shingles, which therefore supplies the statistics and norms that score it.
     */
    private org.apache.lucene.search.Query shinglePhrase(String field, String text, boolean synonyms) {
        String shingles = field + io.qdrant.esgateway.domain.index.TextOptions.PHRASE_SUFFIX;
        PhraseQuery.Builder phrase = new PhraseQuery.Builder();
        MultiPhraseQuery.Builder multi = new MultiPhraseQuery.Builder();
        List<Term> stacked = new ArrayList<>();
        try (TokenStream stream = new org.apache.lucene.analysis.shingle.FixedShingleFilter(
                searchAnalyzer(field, true).tokenStream(field, text), 2)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            PositionIncrementAttribute inc = stream.addAttribute(PositionIncrementAttribute.class);
            stream.reset();
            int position = -1;
            while (stream.incrementToken()) {
                Term t = new Term(shingles, term.toString());
                if (!synonyms) {
                    position += inc.getPositionIncrement();
                    phrase.add(t, position);
                    continue;
                }
                if (inc.getPositionIncrement() > 0 && !stacked.isEmpty()) {
                    multi.add(stacked.toArray(new Term[0]), position);
                    stacked.clear();
                }
                position += inc.getPositionIncrement();
                stacked.add(t);
            }
            stream.end();
            if (synonyms) {
                multi.add(stacked.toArray(new Term[0]), position);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return synonyms ? multi.build() : phrase.build();
    }

    /** Whether a token spans several positions (multi-word synonyms of a {@code synonym_graph} filter). */
    private static boolean isGraph(List<Token> tokens) {
        for (Token t : tokens) {
            if (t.length() > 1) {
                return true;
            }
        }
        return false;
    }

    /** The tokens grouped by position, in order (a group of more than one: synonyms). */
    private static List<List<Token>> samePosition(List<Token> tokens) {
        List<List<Token>> out = new ArrayList<>();
        for (Token t : tokens) {
            if (!out.isEmpty() && out.get(out.size() - 1).get(0).position() == t.position()) {
                out.get(out.size() - 1).add(t);
            } else {
                List<Token> group = new ArrayList<>();
                group.add(t);
                out.add(group);
            }
        }
        return out;
    }

    private org.apache.lucene.search.Query phrasePrefix(String field, String text, int slop, int maxExpansions,
                                                        boolean lenientHere) {
        Optional<FieldMapping> mapping = mapping(field);
        if (mapping.isEmpty() || mapping.get() instanceof ObjectField) {
            return new MatchNoDocsQuery();
        }
        if (mapping.get() instanceof KeywordField k) {
            return new PrefixQuery(new Term(field, k.normalize(text)));
        }
        if (!(mapping.get() instanceof TextField)) {
            return nonTextMatch(field, mapping.get(), text, lenientHere, Optional.empty(), 0, 50);
        }
        List<Token> tokens = analyze(field, text, true);
        if (tokens.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        if (isGraph(tokens)) {
            TextField text0 = (TextField) mapping.get();
            return GraphQueries.phrasePrefix(searchAnalyzer(field, true), field, text, slop,
                    t -> spanPrefix(field, text0, t.text(), maxExpansions),
                    path -> phrasePrefix(field, text0, slop, maxExpansions,
                            path.stream().map(e -> new Token(e.getKey(), e.getValue(), 1)).toList()));
        }
        return phrasePrefix(field, (TextField) mapping.get(), slop, maxExpansions, tokens);
    }

    /**
     * A span prefix query as Elasticsearch builds one inside a graph phrase prefix: the term of the field's
     * {@code index_prefixes} when the prefix fits them, else a span-or of the first {@code maxExpansions} indexed terms
     * starting with it ({@code null} when there is none).
     */
    private org.apache.lucene.queries.spans.SpanQuery spanPrefix(String field, TextField mapping, String prefix,
                                                                 int maxExpansions) {
        if (mapping.text().indexPrefixes().isPresent()) {
            io.qdrant.esgateway.domain.index.TextOptions.IndexPrefixes prefixes = mapping.text().indexPrefixes().get();
            int length = prefix.length();
            if (length >= prefixes.minChars() && length <= prefixes.maxChars()) {
                return new org.apache.lucene.queries.spans.FieldMaskingSpanQuery(
                        new org.apache.lucene.queries.spans.SpanTermQuery(new Term(
                                field + io.qdrant.esgateway.domain.index.TextOptions.PREFIX_SUFFIX, prefix)), field);
            }
        }
        List<Term> expansions = expand(field, prefix, maxExpansions);
        if (expansions.isEmpty()) {
            return null;
        }
        return new org.apache.lucene.queries.spans.SpanOrQuery(expansions.stream()
                .map(org.apache.lucene.queries.spans.SpanTermQuery::new)
                .toArray(org.apache.lucene.queries.spans.SpanQuery[]::new));
    }

    /** A phrase prefix over tokens without a graph: index_prefixes' query where it applies, else a multi-phrase. */
    private org.apache.lucene.search.Query phrasePrefix(String field, TextField mapping, int slop, int maxExpansions,
                                                        List<Token> tokens) {
        Token last = tokens.get(tokens.size() - 1);
        Optional<org.apache.lucene.search.Query> indexed = indexedPrefixes(field, mapping, slop, tokens,
                last.position());
        if (indexed.isPresent()) {
            return indexed.get();
        }
        List<Term> expansions = expand(field, last.term(), maxExpansions);
        if (expansions.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        MultiPhraseQuery.Builder b = new MultiPhraseQuery.Builder().setSlop(slop);
        for (int i = 0; i < tokens.size() - 1; i++) {
            b.add(new Term[] {new Term(field, tokens.get(i).term())}, tokens.get(i).position());
        }
        b.add(expansions.toArray(new Term[0]), last.position());
        return b.build();
    }

    /**
     * A phrase prefix on a field with {@code index_prefixes}, without slop and with every last-position term of
     * {@code min_chars}..{@code max_chars} characters, as Elasticsearch answers it from the field's hidden field of
     * prefixes: one position, a synonym query over those terms there; several, an in-order span-near query whose last
     * clause is the prefix terms masked as the field (a span-or where synonyms stack). Otherwise empty: the expanded
     * multi-phrase.
     */
    private static Optional<org.apache.lucene.search.Query> indexedPrefixes(String field, TextField mapping, int slop,
                                                                            List<Token> tokens, int lastPosition) {
        if (slop > 0 || mapping.text().indexPrefixes().isEmpty()) {
            return Optional.empty();
        }
        io.qdrant.esgateway.domain.index.TextOptions.IndexPrefixes prefixes = mapping.text().indexPrefixes().get();
        for (Token t : tokens) {
            int length = t.term().length();
            if (t.position() == lastPosition && (length < prefixes.minChars() || length > prefixes.maxChars())) {
                return Optional.empty();
            }
        }
        String prefixField = field + io.qdrant.esgateway.domain.index.TextOptions.PREFIX_SUFFIX;
        List<List<Token>> groups = samePosition(tokens);
        if (groups.size() == 1) {
            org.apache.lucene.search.SynonymQuery.Builder synonyms =
                    new org.apache.lucene.search.SynonymQuery.Builder(prefixField);
            groups.get(0).forEach(t -> synonyms.addTerm(new Term(prefixField, t.term())));
            return Optional.of(synonyms.build());
        }
        org.apache.lucene.queries.spans.SpanNearQuery.Builder near =
                new org.apache.lucene.queries.spans.SpanNearQuery.Builder(field, true);
        near.setSlop(slop);
        int previous = -1;
        for (int i = 0; i < groups.size(); i++) {
            List<Token> group = groups.get(i);
            int position = group.get(0).position();
            if (position - previous > 1) {
                near.addGap(position - previous - 1);
            }
            previous = position;
            boolean lastGroup = i == groups.size() - 1;
            List<org.apache.lucene.queries.spans.SpanQuery> clauses = new ArrayList<>();
            for (Token t : group) {
                clauses.add(lastGroup ? new org.apache.lucene.queries.spans.FieldMaskingSpanQuery(
                        new org.apache.lucene.queries.spans.SpanTermQuery(new Term(prefixField, t.term())), field)
                        : new org.apache.lucene.queries.spans.SpanTermQuery(new Term(field, t.term())));
            }
            near.addClause(clauses.size() == 1 ? clauses.get(0) : new org.apache.lucene.queries.spans.SpanOrQuery(
                    clauses.toArray(new org.apache.lucene.queries.spans.SpanQuery[0])));
        }
        return Optional.of(near.build());
    }

    /** Up to {@code max} indexed terms of the field starting with {@code prefix}, as ES's phrase prefix expands. */
    private List<Term> expand(String field, String prefix, int max) {
        Set<BytesRef> found = new LinkedHashSet<>();
        BytesRef start = new BytesRef(prefix);
        try {
            for (LeafReaderContext leaf : reader.leaves()) {
                Terms terms = leaf.reader().terms(field);
                if (terms == null) {
                    continue;
                }
                TermsEnum e = terms.iterator();
                if (e.seekCeil(start) == TermsEnum.SeekStatus.END) {
                    continue;
                }
                for (BytesRef t = e.term(); t != null && found.size() < max; t = e.next()) {
                    if (!org.apache.lucene.util.StringHelper.startsWith(t, start)) {
                        break;
                    }
                    found.add(BytesRef.deepCopyOf(t));
                }
                if (found.size() >= max) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found.stream().map(t -> new Term(field, t)).toList();
    }

    private org.apache.lucene.search.Query multiMatch(Query.MultiMatch m) {
        if (m.type() == Query.MultiMatchType.CROSS_FIELDS || m.type() == Query.MultiMatchType.BOOL_PREFIX) {
            throw GatewayException.unsupported("[multi_match] of type [" + m.type().name().toLowerCase(
                    java.util.Locale.ROOT) + "]");
        }
        List<Query.BoostedField> fields = m.fields().isEmpty() ? List.of(new Query.BoostedField("*", 1f))
                : m.fields();
        List<org.apache.lucene.search.Query> perField = new ArrayList<>();
        for (Query.BoostedField bf : fields) {
            boolean pattern = bf.field().contains("*");
            List<String> names = pattern ? searchableFields(bf.field()) : List.of(bf.field());
            QueryTranslator t = analysedWith("multi_match", m.analyzer()).with(lenient || m.lenient() || pattern,
                    normalize);
            for (String f : names) {
                org.apache.lucene.search.Query q = t.guarded(() -> switch (m.type()) {
                    case PHRASE -> t.phrase(f, m.text(), m.slop(), m.zeroTermsQuery(), t.lenient);
                    case PHRASE_PREFIX -> t.phrasePrefix(f, m.text(), m.slop(), 50, t.lenient);
                    default -> t.match(f, m.text(), m.operator(), m.minimumShouldMatch(), m.fuzziness(), 0, 50,
                            m.zeroTermsQuery(), t.lenient);
                });
                perField.add(boost(q, bf.boost()));
            }
        }
        if (perField.isEmpty()) {
            return new MatchNoDocsQuery();
        }
        if (perField.size() == 1) {
            return perField.get(0);
        }
        float tie = m.tieBreaker().orElse(m.type() == Query.MultiMatchType.MOST_FIELDS ? 1f : 0f);
        return new DisjunctionMaxQuery(perField, tie);
    }

    // ---------------------------------------------------------------- vectors

    private org.apache.lucene.search.Query knn(Query.Knn k) {
        Optional<FieldMapping> mapping = mapping(k.field());
        if (!(mapping.orElse(null) instanceof DenseVectorField dense)) {
            throw illegal("[knn] queries are only supported on [dense_vector] fields, but [" + k.field() + "] is "
                    + mapping.map(m -> "of type [" + m.type() + "]").orElse("not mapped"));
        }
        if (!dense.index()) {
            throw illegal("to perform knn search on field [" + k.field()
                    + "], its mapping must have [index] set to [true]");
        }
        if (!dense.hasDims()) {
            return new org.apache.lucene.search.MatchNoDocsQuery(); // no vector indexed yet
        }
        if (k.queryVector().length != dense.dims()) {
            throw illegal("the query vector has a different dimension [" + k.queryVector().length
                    + "] than the index vectors [" + dense.dims() + "]");
        }
        org.apache.lucene.search.Query filter = null;
        if (!k.filter().isEmpty()) {
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            k.filter().forEach(f -> b.add(translate(f), Occur.FILTER));
            filter = b.build();
        }
        TopKnnQuery nearest = new TopKnnQuery(k.field(), k.queryVector(), k.k(), Math.max(k.k(), k.numCandidates()),
                filter);
        if (k.similarity().isEmpty()) {
            return nearest;
        }
        // ES: of the k nearest, only those at least this similar (in the similarity's own space) match; the
        // threshold becomes a score threshold with the same transformation Lucene applies to the similarity
        float threshold = scoreOf(dense.similarity(), k.similarity().get());
        return new BooleanQuery.Builder()
                .add(nearest, Occur.MUST)
                .add(new org.apache.lucene.search.FloatVectorSimilarityQuery(k.field(), k.queryVector(), threshold,
                        threshold, filter), Occur.FILTER)
                .build();
    }

    /** A raw similarity (cosine, dot product, l2 distance, inner product) as the score Lucene gives it. */
    static float scoreOf(io.qdrant.esgateway.domain.index.FieldMapping.Similarity similarity, float raw) {
        return switch (similarity) {
            case COSINE, DOT_PRODUCT -> (1 + raw) / 2;
            case L2_NORM -> 1 / (1 + raw * raw);
            case MAX_INNER_PRODUCT -> raw < 0 ? 1 / (1 - raw) : raw + 1;
        };
    }

    /** ES's kNN: the HNSW search explores {@code num_candidates} and keeps the best {@code k}. */
    static final class TopKnnQuery extends KnnFloatVectorQuery {
        private final int topK;

        TopKnnQuery(String field, float[] target, int k, int candidates, org.apache.lucene.search.Query filter) {
            super(field, target, candidates, filter);
            this.topK = k;
        }

        @Override
        protected TopDocs mergeLeafResults(TopDocs[] perLeafResults) {
            return TopDocs.merge(topK, perLeafResults);
        }

        @Override
        public boolean equals(Object o) {
            return super.equals(o) && ((TopKnnQuery) o).topK == topK;
        }

        @Override
        public int hashCode() {
            return 31 * super.hashCode() + topK;
        }
    }
}
