package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SortValues;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import io.qdrant.esgateway.domain.sort.SortSpec;
import io.qdrant.esgateway.domain.time.DateFormat;
import io.qdrant.esgateway.domain.time.DateMath;
import io.qdrant.esgateway.domain.time.Now;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSelector;
import org.apache.lucene.search.SortedNumericSortField;
import org.apache.lucene.search.SortedSetSelector;
import org.apache.lucene.search.SortedSetSortField;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopFieldCollector;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.TotalHitCountCollectorManager;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.util.BytesRef;
import io.qdrant.esgateway.adapter.out.lucene.cache.SortedTermValuesCache;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.TermRangePages;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * One search over one index's reader, as Elasticsearch 8.15 runs it on a single shard: the query (with top-level kNN
 * sections as extra {@code should} clauses, scores summed), {@code post_filter} and {@code min_score} applied to hits
 * and totals, Elasticsearch's BM25 scale, the sort with ES's missing-value placement, and the sort values rendered
 * as ES renders {@code hits.hits[].sort}:
 *
 * <ul>
 *   <li>keyword: the string; a document without a value: {@code null};</li>
 *   <li>long, integer, short, byte, boolean (0/1), date (epoch millis): a JSON integer; a date sort with
 *       {@code format}: the formatted string; without a value: the substituted missing value
 *       ({@code Long.MAX_VALUE} sorting last ascending, {@code Long.MIN_VALUE} last descending, or the given
 *       {@code missing});</li>
 *   <li>double, float, half_float: a JSON number (floats in their shortest float form); without a value:
 *       {@code "Infinity"} / {@code "-Infinity"} as strings (Jackson's, hence ES's, rendering of non-finite
 *       numbers);</li>
 *   <li>{@code _score}: the float score; {@code _doc}: the Lucene document id.</li>
 * </ul>
 *
 * <p>{@code search_after} takes values in that rendered form and continues after them with Lucene's
 * {@code searchAfter} from a {@code FieldDoc(Integer.MAX_VALUE, …)}, as ES does.
 */
public final class LuceneSearch {
    /**
     * What the embedded store computes natively: ordering and aggregating every field kind from doc values, exact
     * counts, ES's placement of missing values and index order for ties. Not native (the coverage rules send these
     * to the complete scan): {@code sum}/{@code avg}/{@code median} sorts on float and half_float fields, and a
     * keyword sort's {@code missing} value (Lucene's keyword sort only puts missing documents first or last).
     */
    public static final io.qdrant.esgateway.domain.plan.BackendCapabilities CAPABILITIES;

    static {
        java.util.Set<io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind> all = java.util.EnumSet.complementOf(
                java.util.EnumSet.of(io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind.UNMAPPED));
        CAPABILITIES = new io.qdrant.esgateway.domain.plan.BackendCapabilities(all, java.util.EnumSet.of(
                io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind.LONG,
                io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind.DOUBLE), false, all, true, false, true, true);
    }

    private LuceneSearch() {
    }

    public static IndexSearcher searcher(IndexReader reader, IndexMetadata index) {
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setSimilarity(IndexSimilarity.of(index));
        // the search's timeout: Lucene checks it between collection intervals and keeps what was collected
        io.qdrant.esgateway.domain.search.SearchDeadline.current()
                .ifPresent(deadline -> searcher.setTimeout(deadline::reached));
        return searcher;
    }

    public static long count(IndexReader reader, IndexMetadata index, Optional<Query> query) throws IOException {
        IndexSearcher searcher = searcher(reader, index);
        QueryTranslator translator = new QueryTranslator(index, reader, now());
        org.apache.lucene.search.Query q = query.map(translator::translate).orElseGet(MatchAllDocsQuery::new);
        java.util.OptionalLong counted = TermRangePages.count(searcher, q, SortedTermValuesCache.SHARED);
        return counted.isPresent() ? counted.getAsLong() : searcher.count(q);
    }

    /** The current time of one search: read once, whatever date math it holds. */
    public static LongSupplier now() {
        return Now.once(System::currentTimeMillis);
    }

    /** The Lucene query of a request: query ∪ kNN sections (scores summed), then post_filter and min_score. */
    static org.apache.lucene.search.Query query(QueryTranslator translator, SearchRequest request) {
        org.apache.lucene.search.Query main;
        if (request.knn().isEmpty()) {
            main = request.query().map(translator::translate).orElseGet(MatchAllDocsQuery::new);
        } else {
            BooleanQuery.Builder union = new BooleanQuery.Builder();
            request.query().ifPresent(q -> union.add(translator.translate(q), Occur.SHOULD));
            request.knn().forEach(k -> union.add(translator.translate(k), Occur.SHOULD));
            main = union.build();
        }
        if (request.postFilter().isPresent()) {
            main = new BooleanQuery.Builder().add(main, Occur.MUST)
                    .add(translator.translate(request.postFilter().get()), Occur.FILTER).build();
        }
        if (request.minScore().isPresent()) {
            main = new MinScoreQuery(main, request.minScore().get());
        }
        return main;
    }

    /**
     * The documents aggregations see: the query ∪ kNN sections with {@code min_score}, but not {@code post_filter}
     * (which applies to hits only).
     */
    public static org.apache.lucene.search.Query aggregationQuery(QueryTranslator translator, SearchRequest request) {
        return query(translator, request.withoutPostFilter());
    }

    public static IndexHits search(IndexReader reader, IndexMetadata index, SearchRequest request, int topN)
            throws IOException {
        IndexSearcher searcher = searcher(reader, index);
        LongSupplier now = now();
        QueryTranslator translator = new QueryTranslator(index, reader, now);
        org.apache.lucene.search.Query query = query(translator, request);
        List<SortKey> keys = new ArrayList<>();
        for (SortSpec spec : request.sort()) {
            keys.add(sortKey(index, spec, now));
        }
        int threshold = switch (request.trackTotalHits()) {
            case TrackTotalHits.UpTo u -> u.threshold();
            case TrackTotalHits.Exact e -> Integer.MAX_VALUE;
            case TrackTotalHits.Disabled d -> 0;
        };

        TopDocs top;
        Float bestScore = null;
        if (topN <= 0) {
            java.util.OptionalLong counted = request.trackTotalHits() instanceof TrackTotalHits.Disabled
                    ? java.util.OptionalLong.of(0) : TermRangePages.count(searcher, query, SortedTermValuesCache.SHARED);
            long count = counted.isPresent() ? counted.getAsLong()
                    : searcher.search(query, new TotalHitCountCollectorManager(searcher.getSlices()));
            top = new TopDocs(new TotalHits(count, TotalHits.Relation.EQUAL_TO), new ScoreDoc[0]);
        } else if (keys.isEmpty()) {
            top = searcher.search(query, new TopScoreDocCollectorManager(topN, null, threshold));
        } else {
            Sort sort = new Sort(keys.stream().map(SortKey::field).toArray(SortField[]::new));
            FieldDoc after = null;
            if (request.searchAfter().isPresent()) {
                List<JsonValue> values = request.searchAfter().get();
                Object[] fields = new Object[keys.size()];
                for (int i = 0; i < keys.size(); i++) {
                    fields[i] = keys.get(i).parse(values.get(i));
                }
                after = new FieldDoc(Integer.MAX_VALUE, Float.NaN, fields);
            }
            top = TermRangePages.search(searcher, query, sort, topN, after, threshold, SortedTermValuesCache.SHARED)
                    .orElse(null);
            if (top == null) {
                top = SortedTopDocs.search(searcher, query, sort, topN, after, threshold);
            }
            if (request.needsScores()) {
                TopFieldCollector.populateScores(top.scoreDocs, searcher, query);
            }
            if (request.trackScores()) {
                // ES's max_score under a field sort with track_scores is the best score of all matching documents,
                // not of the returned page
                TopDocs best = searcher.search(query, 1);
                bestScore = best.scoreDocs.length == 0 ? Float.NaN : best.scoreDocs[0].score;
            }
        }

        Optional<IndexHits.Total> total = switch (request.trackTotalHits()) {
            case TrackTotalHits.Disabled d -> Optional.empty();
            case TrackTotalHits.Exact e -> Optional.of(new IndexHits.Total(top.totalHits.value(), true));
            case TrackTotalHits.UpTo u -> top.totalHits.relation() == TotalHits.Relation.EQUAL_TO
                    && top.totalHits.value() <= u.threshold()
                    ? Optional.of(new IndexHits.Total(top.totalHits.value(), true))
                    : Optional.of(new IndexHits.Total(u.threshold(), false));
        };

        boolean scored = request.needsScores();
        // highlighting uses the query's own terms (not post_filter, min_score or the kNN sections); it needs no
        // reader, so it runs when a hit is rendered: only the hits of the returned page are highlighted
        LuceneHighlighter highlighter = request.highlight().map(h -> new LuceneHighlighter(h, index,
                request.query().map(translator::translate).orElseGet(MatchAllDocsQuery::new))).orElse(null);
        List<Hit> hits = new ArrayList<>(top.scoreDocs.length);
        StoredFields stored = reader.storedFields();
        float maxScore = Float.NaN;
        for (ScoreDoc doc : top.scoreDocs) {
            StoredDocument document = FieldEncoding.decodeForAnswer(stored.document(doc.doc, FieldEncoding.STORED));
            float score = scored ? doc.score : Float.NaN;
            if (scored && !Float.isNaN(score) && (Float.isNaN(maxScore) || score > maxScore)) {
                maxScore = score;
            }
            List<JsonValue> sortValues = new ArrayList<>();
            if (doc instanceof FieldDoc fd && !keys.isEmpty()) {
                for (int i = 0; i < keys.size(); i++) {
                    sortValues.add(keys.get(i).render(fd.fields[i], doc.doc));
                }
            }
            hits.add(new Hit(index.name(), document.id(), score, sortValues, document.source(),
                    document.version(), highlighter == null ? java.util.Map.of()
                    : highlighter.lazily(document.id(), document.source()), document.routing()));
        }
        return new IndexHits(total, hits, bestScore != null ? bestScore : maxScore);
    }

    // ---------------------------------------------------------------- complete scan and fetch

    /**
     * Every match in index order (one slice, leaves by doc base), with its global doc id as position, its score when
     * asked and its source reduced to the asked fields (loaded from the stored source, which Lucene reads whole).
     */
    public static void scan(IndexReader reader, IndexMetadata index,
                     io.qdrant.esgateway.application.port.out.DocumentStore.ScanRequest scan,
                     java.util.function.Consumer<io.qdrant.esgateway.application.port.out.DocumentStore.ScannedDocument>
                             sink) throws IOException {
        IndexSearcher searcher = searcher(reader, index);
        QueryTranslator translator = new QueryTranslator(index, reader, now());
        org.apache.lucene.search.Query query = scan.postFilter() ? query(translator, scan.search())
                : aggregationQuery(translator, scan.search());
        if (scan.filter().isPresent()) {
            query = new BooleanQuery.Builder().add(query, Occur.MUST)
                    .add(translator.translate(scan.filter().get()), Occur.FILTER).build();
        }
        io.qdrant.esgateway.domain.document.SourceFilter projection = scan.fields().isEmpty()
                ? io.qdrant.esgateway.domain.document.SourceFilter.NONE
                : new io.qdrant.esgateway.domain.document.SourceFilter(true, List.copyOf(scan.fields()), List.of());
        boolean scores = scan.scores();
        org.apache.lucene.search.ScoreMode mode = scores ? org.apache.lucene.search.ScoreMode.COMPLETE
                : org.apache.lucene.search.ScoreMode.COMPLETE_NO_SCORES;
        org.apache.lucene.search.Weight weight = searcher.createWeight(searcher.rewrite(query), mode, 1f);
        java.util.Set<String> load = projection.fetch() ? FieldEncoding.STORED : java.util.Set.of(FieldEncoding.ID);
        for (org.apache.lucene.index.LeafReaderContext leaf : reader.leaves()) {
            if (io.qdrant.esgateway.domain.search.SearchDeadline.passed()) {
                return; // the search's timeout: the segments scanned so far are its partial result
            }
            org.apache.lucene.search.Scorer scorer = weight.scorer(leaf);
            if (scorer == null) {
                continue;
            }
            org.apache.lucene.util.Bits live = leaf.reader().getLiveDocs();
            StoredFields stored = leaf.reader().storedFields();
            org.apache.lucene.search.DocIdSetIterator it = scorer.iterator();
            for (int doc = it.nextDoc(); doc != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS;
                 doc = it.nextDoc()) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                float score = scores ? scorer.score() : Float.NaN;
                org.apache.lucene.document.Document fields = stored.document(doc, load);
                io.qdrant.esgateway.domain.json.JsonValue.JsonObject source = projection.fetch()
                        ? projection.apply(FieldEncoding.decode(fields).source())
                        : io.qdrant.esgateway.domain.json.JsonValue.JsonObject.of();
                sink.accept(new io.qdrant.esgateway.application.port.out.DocumentStore.ScannedDocument(
                        fields.get(FieldEncoding.ID), leaf.docBase + doc, score, source));
            }
        }
    }

    /** Hits for documents the gateway chose, highlighted as a native search would highlight them. */
    public static List<Hit> fetch(IndexReader reader, IndexMetadata index, SearchRequest request,
                           List<io.qdrant.esgateway.application.port.out.DocumentStore.FetchRef> refs,
                           java.util.Map<String, StoredDocument> documents) {
        QueryTranslator translator = new QueryTranslator(index, reader, now());
        LuceneHighlighter highlighter = request.highlight().map(h -> new LuceneHighlighter(h, index,
                request.query().map(translator::translate).orElseGet(MatchAllDocsQuery::new))).orElse(null);
        List<Hit> hits = new ArrayList<>();
        for (io.qdrant.esgateway.application.port.out.DocumentStore.FetchRef ref : refs) {
            StoredDocument document = documents.get(ref.id());
            if (document == null) {
                continue;
            }
            hits.add(new Hit(index.name(), document.id(), ref.score(), ref.sort(), document.source(),
                    document.version(), highlighter == null ? java.util.Map.of()
                    : highlighter.lazily(document.id(), document.source()), document.routing()));
        }
        return hits;
    }

    // ---------------------------------------------------------------- sorting

    private enum Kind { SCORE, DOC, KEYWORD, LONG, DATE, BOOLEAN, DOUBLE, FLOAT }

    /** One sort key: the Lucene sort field and how its values are rendered and read back. */
    private record SortKey(SortField field, Kind kind, Optional<DateFormat> format) {
        JsonValue render(Object value, int doc) {
            return switch (kind) {
                case SCORE -> SortValues.floatNumber((Float) value);
                case DOC -> new JsonNumber((long) (value instanceof Integer i ? i : doc));
                case KEYWORD -> value == null ? JsonNull.INSTANCE : new JsonString(((BytesRef) value).utf8ToString());
                case LONG, BOOLEAN -> new JsonNumber((Long) value);
                case DATE -> {
                    long millis = (Long) value;
                    if (format.isPresent()) {
                        // ES formats the missing-value substitutes too (Long.MIN_VALUE as "+292275056-05-16")
                        yield new JsonString(format.get().format(millis));
                    }
                    yield new JsonNumber(millis);
                }
                case DOUBLE -> SortValues.doubleNumber((Double) value);
                case FLOAT -> SortValues.floatNumber((Float) value);
            };
        }

        Object parse(JsonValue value) {
            String name = field.getField() == null ? (kind == Kind.SCORE ? "_score" : "_doc") : field.getField();
            try {
                return switch (kind) {
                    case SCORE -> Float.parseFloat(SortValues.text(value));
                    // a position past either end (a point in time's other indices) stays past it as an int doc id
                    case DOC -> (int) Math.max(-1, Math.min(Integer.MAX_VALUE, Long.parseLong(SortValues.text(value))));
                    case KEYWORD -> value == JsonNull.INSTANCE ? null : new BytesRef(SortValues.text(value));
                    case LONG -> SortValues.longOf(value);
                    case BOOLEAN -> JsonReads.bool(value).map(b -> b ? 1L : 0L).orElseGet(() -> SortValues.longOf(value));
                    case DATE -> value instanceof JsonNumber ? SortValues.longOf(value)
                            : DateMath.parse(SortValues.text(value), format.orElse(DateFormat.defaultFormat()), null, false,
                            System::currentTimeMillis);
                    case DOUBLE -> Double.parseDouble(SortValues.text(value));
                    case FLOAT -> Float.parseFloat(SortValues.text(value));
                };
            } catch (NumberFormatException | ArithmeticException e) {
                throw GatewayException.illegalArgument("Failed to parse search_after value [" + JsonReads.text(value)
                        .orElse(value.tokenName()) + "] for sort field [" + name + "]");
            }
        }
    }





    private static SortKey sortKey(IndexMetadata index, SortSpec spec, LongSupplier now) {
        return switch (spec) {
            case SortSpec.Score s -> new SortKey(new SortField(null, SortField.Type.SCORE,
                    s.order() == SortSpec.Order.ASC), Kind.SCORE, Optional.empty());
            case SortSpec.Doc d -> new SortKey(new SortField(null, SortField.Type.DOC,
                    d.order() == SortSpec.Order.DESC), Kind.DOC, Optional.empty());
            case SortSpec.Field f -> fieldSortKey(index, f, now);
            // the gateway computes a script sort over a complete scan (CoverageRules)
            case SortSpec.Script sc -> throw GatewayException.unsupported("a [_script] sort in a native search");
        };
    }

    private static SortKey fieldSortKey(IndexMetadata index, SortSpec.Field f, LongSupplier now) {
        String name = f.field();
        if (name.equals("_id")) {
            throw GatewayException.illegalArgument(GatewaySort.ID_FIELDDATA);
        }
        Optional<FieldMapping> mapping = index.mappings().field(name);
        if (mapping.isEmpty()) {
            if (f.unmappedType().isEmpty()) {
                throw GatewayException.illegalArgument("No mapping found for [" + name + "] in order to sort on");
            }
            mapping = Optional.of(FieldMapping.ofUnmappedType(f.unmappedType().get()));
        }
        boolean reverse = f.order() == SortSpec.Order.DESC;
        SortSpec.Mode mode = f.effectiveMode();
        boolean max = mode == SortSpec.Mode.MAX;
        // "missing last" in the sort's own direction: in Lucene's natural order that is "first" when reversed
        boolean missingFirst = f.missing() instanceof SortSpec.Missing.First;
        boolean naturalHigh = missingFirst == reverse;
        if (mode != SortSpec.Mode.MIN && mode != SortSpec.Mode.MAX) {
            return reducedKey(name, mapping.get(), reverse, mode, naturalHigh, f.missing());
        }
        return switch (mapping.get()) {
            case FieldMapping.KeywordField k -> {
                if (f.missing() instanceof SortSpec.Missing.Value) {
                    throw GatewayException.unsupported("a [missing] value other than _first/_last for keyword sort");
                }
                SortedSetSortField field = new SortedSetSortField(name, reverse,
                        max ? SortedSetSelector.Type.MAX : SortedSetSelector.Type.MIN);
                field.setMissingValue(naturalHigh ? SortField.STRING_LAST : SortField.STRING_FIRST);
                yield new SortKey(field, Kind.KEYWORD, Optional.empty());
            }
            case FieldMapping.NumberField n when n.numberType().isIntegral() ->
                    longKey(name, reverse, max, naturalHigh, f.missing(), Kind.LONG, Optional.empty(), now);
            case FieldMapping.BooleanField b ->
                    longKey(name, reverse, max, naturalHigh, f.missing(), Kind.BOOLEAN, Optional.empty(), now);
            case FieldMapping.DateField d -> longKey(name, reverse, max, naturalHigh, f.missing(), Kind.DATE,
                    f.format().map(DateFormat::of), d, now);
            case FieldMapping.NumberField n when n.numberType() == NumberType.DOUBLE -> {
                SortedNumericSortField field = new SortedNumericSortField(name, SortField.Type.DOUBLE, reverse,
                        max ? SortedNumericSelector.Type.MAX : SortedNumericSelector.Type.MIN);
                field.setMissingValue(f.missing() instanceof SortSpec.Missing.Value v
                        ? Double.parseDouble(SortValues.text(v.value()))
                        : naturalHigh ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
                yield new SortKey(field, Kind.DOUBLE, Optional.empty());
            }
            case FieldMapping.NumberField n -> {
                SortedNumericSortField field = new SortedNumericSortField(name, SortField.Type.FLOAT, reverse,
                        max ? SortedNumericSelector.Type.MAX : SortedNumericSelector.Type.MIN);
                field.setMissingValue(f.missing() instanceof SortSpec.Missing.Value v
                        ? Float.parseFloat(SortValues.text(v.value()))
                        : naturalHigh ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY);
                yield new SortKey(field, Kind.FLOAT, Optional.empty());
            }
            case FieldMapping.TextField t -> throw GatewayException.fielddataDisabled(index.name(), name);
            case FieldMapping.DenseVectorField v -> throw GatewayException.illegalArgument("Field [" + name
                    + "] of type [dense_vector] doesn't support sort");
            case FieldMapping.ObjectField o -> throw GatewayException.illegalArgument("No mapping found for [" + name
                    + "] in order to sort on");
        };
    }

    /** {@code sum}, {@code avg}, {@code median}: on integral and double fields (ES allows them on numbers only). */
    private static SortKey reducedKey(String name, FieldMapping mapping, boolean reverse, SortSpec.Mode mode,
                                      boolean naturalHigh, SortSpec.Missing missing) {
        String modeName = mode.name().toLowerCase(java.util.Locale.ROOT);
        boolean integral = mapping instanceof FieldMapping.NumberField n && n.numberType().isIntegral();
        boolean isDouble = mapping instanceof FieldMapping.NumberField n && n.numberType() == NumberType.DOUBLE;
        if (!integral && !isDouble) {
            if (mapping instanceof FieldMapping.NumberField) {
                throw GatewayException.unsupported("sort [mode] [" + modeName + "] on a float or half_float field");
            }
            throw GatewayException.illegalArgument("Sort mode [" + modeName + "] is not supported on field [" + name
                    + "] of type [" + mapping.type() + "]");
        }
        ReducedNumericSortField field = new ReducedNumericSortField(name, isDouble, reverse, mode);
        if (missing instanceof SortSpec.Missing.Value v) {
            field.setMissingValue(isDouble ? (Object) Double.parseDouble(SortValues.text(v.value())) : (Object) SortValues.longOf(v.value()));
        } else if (isDouble) {
            field.setMissingValue(naturalHigh ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
        } else {
            field.setMissingValue(naturalHigh ? Long.MAX_VALUE : Long.MIN_VALUE);
        }
        return new SortKey(field, isDouble ? Kind.DOUBLE : Kind.LONG, Optional.empty());
    }

    private static SortKey longKey(String name, boolean reverse, boolean max, boolean naturalHigh,
                                   SortSpec.Missing missing, Kind kind, Optional<DateFormat> format,
                                   LongSupplier now) {
        return longKey(name, reverse, max, naturalHigh, missing, kind, format, null, now);
    }

    /** {@code format} renders the values (dates with a sort {@code format}); {@code date} parses date inputs. */
    private static SortKey longKey(String name, boolean reverse, boolean max, boolean naturalHigh,
                                   SortSpec.Missing missing, Kind kind, Optional<DateFormat> format,
                                   FieldMapping.DateField date, LongSupplier now) {
        DateFormat input = format.orElse(date == null ? DateFormat.defaultFormat()
                : DateFormat.of(date.format().orElse(DateFormat.DEFAULT_PATTERN)));
        SortedNumericSortField field = new SortedNumericSortField(name, SortField.Type.LONG, reverse,
                max ? SortedNumericSelector.Type.MAX : SortedNumericSelector.Type.MIN);
        long missingValue;
        if (missing instanceof SortSpec.Missing.Value v) {
            missingValue = SortValues.missingLong(v.value(), switch (kind) {
                case DATE -> SortValues.IntegralKind.DATE;
                case BOOLEAN -> SortValues.IntegralKind.BOOLEAN;
                default -> SortValues.IntegralKind.LONG;
            }, input, name, now);
        } else {
            missingValue = naturalHigh ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        field.setMissingValue(missingValue);
        return new SortKey(field, kind, format);
    }

}
