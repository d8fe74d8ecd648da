package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.ConstantScores;
import io.qdrant.esgateway.adapter.out.qdrant.transport.CollectionCalls;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.application.port.out.DocumentStore.FetchRef;
import io.qdrant.esgateway.application.port.out.DocumentStore.ReadValue;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScanRequest;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScannedDocument;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The searches Qdrant answers from a translated filter alone (every match scores the same constant): pages in index
 * order, in {@code order_by} order ({@link QdrantOrderedPages}) or in the gateway's own order over a scan of the sort
 * fields; exact counts beside the page; complete scans.
 */
public final class FilterSearches {
    private final CollectionReads reads;
    private final CollectionCalls calls;

    public FilterSearches(CollectionReads reads) {
        this.reads = reads;
        this.calls = reads.calls();
    }

    /** Everything a request's hits must match: query (kNN refused), post_filter when asked, an extra filter. */
    public static Translated matches(IndexMetadata index, SearchRequest search, boolean postFilter,
                                     Optional<Query> extra, FilterTranslator translator) {
        if (!search.knn().isEmpty()) {
            throw FilterTranslator.unsupported("[knn] search");
        }
        if (search.minScore().isPresent()) {
            throw FilterTranslator.unsupported("[min_score]");
        }
        List<Translated> parts = new ArrayList<>();
        search.query().ifPresent(q -> parts.add(translator.query(q)));
        if (postFilter) {
            search.postFilter().ifPresent(q -> parts.add(translator.query(q)));
        }
        extra.ifPresent(q -> parts.add(translator.query(q)));
        return FilterTranslator.and(parts);
    }

    /**
     * What a search on the filter path settles before any call: its matches, score, sort and parsed
     * {@code search_after} (null without one).
     */
    private record Prepared(Translated matches, float score, GatewaySort sort, Object[] after) {
    }

    /** The filter path's translation, constant score, sort and {@code search_after} (their 400s thrown here). */
    private static Prepared prepare(IndexMetadata index, SearchRequest request) {
        LongSupplier now = CollectionReads.now();
        Translated matches = matches(index, request, true, Optional.empty(), new FilterTranslator(index, now));
        float score = request.needsScores() ? ConstantScores.of(request.query()) : Float.NaN;
        GatewaySort sort = GatewaySort.of(index.name(), request.sort(), index.mappings(), now);
        // a bad value is a 400 before any call
        Object[] after = request.searchAfter().map(sort::parseAfter).orElse(null);
        return new Prepared(matches, score, sort, after);
    }

    /** The exact count of the query's matches ({@link CollectionReads#count}). */
    public long count(IndexMetadata index, Optional<Query> query) {
        FilterTranslator translator = new FilterTranslator(index, CollectionReads.now());
        Translated matches = query.map(translator::query).orElse(new FilterTranslator.Always());
        return reads.count(index, matches);
    }

    /** A search on the filter path: its page of {@code topN} hits and its total. */
    public IndexHits search(IndexMetadata index, SearchRequest request, int topN) {
        Prepared prepared = prepare(index, request);
        Translated matches = prepared.matches();
        float score = prepared.score();
        GatewaySort sort = prepared.sort();
        // every match scores the same, so relevance order is index order
        boolean indexOrder = request.searchAfter().isEmpty()
                && request.sort().stream().allMatch(s -> s instanceof SortSpec.Score);
        Object[] after = prepared.after();
        // a sort that is index order (_score ties, then _doc): from the start, or after the search_after's position
        OptionalLong start = after == null ? (!indexOrder && inIndexOrder(request.sort()) ? OptionalLong.of(0L)
                : OptionalLong.empty()) : indexOrderStart(request.sort(), sort, after, score);
        Optional<IndexHits.Total> total = Optional.empty();
        boolean counted = !(request.trackTotalHits() instanceof TrackTotalHits.Disabled);
        if (topN <= 0 || matches instanceof FilterTranslator.Never) {
            if (counted) {
                total = IndexHits.Total.of(request.trackTotalHits(), reads.count(index, matches));
            }
            return new IndexHits(total, List.of(), Float.NaN);
        }
        // the exact count runs beside the page: two Qdrant calls overlapping (its failure still wins, as when it ran
        // first); an order_by page sends it right after its first request, else it runs on a thread of its own
        Optional<SortSpec.Field> primary = indexOrder ? Optional.empty()
                : QdrantOrderedPages.primary(index, request.sort());
        QdrantClient.Beside<Long> beside = counted && primary.isPresent() ? reads.countBeside(index, matches) : null;
        BesideRead<Long> count = !counted ? null : beside != null ? BesideRead.beside(() -> reads.besideResult(index,
                beside)) : BesideRead.start(() -> reads.count(index, matches));
        List<Hit> hits;
        try {
            hits = start.isPresent() ? continuation(index, request, topN, matches, score, sort, start.getAsLong())
                    : page(index, request, topN, matches, score, sort, after, indexOrder, primary, beside);
        } catch (RuntimeException e) {
            throw count == null ? e : count.settle(e);
        }
        if (count != null) {
            total = IndexHits.Total.of(request.trackTotalHits(), count.join());
        }
        return new IndexHits(total, hits, hits.isEmpty() ? Float.NaN : score);
    }

    /**
     * The hits of a search's page (see {@link #search}); {@code after}: its parsed {@code search_after} (null: none);
     * {@code primary}: the {@code order_by} path's first key when
     * that path serves the sort, {@code beside}: a read to send beside its first call (null: none).
     */
    private List<Hit> page(IndexMetadata index, SearchRequest request, int topN, Translated matches, float score,
                           GatewaySort sort, Object[] after, boolean indexOrder, Optional<SortSpec.Field> primary,
                           QdrantClient.Beside<?> beside) {
        List<Hit> hits = new ArrayList<>();
        BiFunction<String, JsonObject, Map<String, List<String>>> highlights = reads.highlighter(index, request);
        if (indexOrder) {
            // every match scores the same: the best topN are the first topN in index (_seq_no) order
            reads.scroll(index, matches, CollectionReads.STORED, topN, record -> {
                StoredDocument d = CollectionReads.stored(index, record.path("payload"));
                hits.add(new Hit(index.name(), d.id(), score, request.sort().stream().map(s -> floatValue(score))
                        .toList(), d.source(), d.version(), highlights.apply(d.id(), d.source()), d.routing()));
                return true;
            });
        } else {
            if (primary.isPresent()) {
                String collection = calls.collection(index);
                Map<String, StoredDocument> streamed = new HashMap<>();
                List<FetchRef> refs = QdrantOrderedPages.page(index, request, topN, matches, score, sort,
                        primary.get(), new QdrantOrderedPages.Reads() {
                            private QdrantClient.Beside<?> first = beside; // goes with the first request only

                            @Override
                            public <T> T post(String rest, ObjectNode body, String what,
                                              QdrantClient.ResultDecoder<T> decoder) {
                                QdrantClient.Beside<?> carried = first;
                                first = null;
                                return calls.call(index, "POST", collection, rest, Map.of(), body, true, what,
                                        decoder, carried);
                            }
                        }, (m, include, limit, sink) -> reads.scroll(index, m, include, limit, sink), streamed);
                hits.addAll(refs.isEmpty() ? List.of() : reads.fetch(index, request, refs, streamed));
            } else {
                hits.addAll(sortedHits(index, request, topN, matches, score, sort, after));
            }
        }
        return hits;
    }

    /**
     * Where a page in index order continues after its {@code search_after} ({@code after}, parsed): its sort keys
     * are {@code _score} (every match scores {@code score}) and at most one {@code _doc} ascending, last — a scroll's
     * or a point in time's next page. Empty when the sort is another; else the first position in index order
     * ({@code _seq_no}, {@link QdrantLayout#position}) the page starts at, or -1 when no match comes after.
     */
    static OptionalLong indexOrderStart(List<SortSpec> specs, GatewaySort sort, Object[] after, float score) {
        int n = specs.size();
        if (!inIndexOrder(specs)) {
            return OptionalLong.empty();
        }
        boolean byDoc = specs.get(n - 1) instanceof SortSpec.Doc;
        Object[] first = new Object[n];
        Object[] last = new Object[n];
        for (int i = 0; i < n; i++) {
            boolean doc = byDoc && i == n - 1;
            first[i] = doc ? (Object) 0L : (Object) score;
            last[i] = doc ? (Object) Long.MAX_VALUE : (Object) score;
        }
        if (sort.isAfter(new GatewaySort.Key(first, 0L), after)) {
            return OptionalLong.of(0L); // the scores decide: every match comes after
        }
        if (!byDoc || !sort.isAfter(new GatewaySort.Key(last, Long.MAX_VALUE), after)) {
            return OptionalLong.of(-1L); // none does
        }
        // the scores tie: the matches after the search_after's position
        return OptionalLong.of((Long) after[n - 1] + 1);
    }

    /** Whether the sort keys are {@code _score} (every match ties) and at most one {@code _doc} ascending, last. */
    private static boolean inIndexOrder(List<SortSpec> specs) {
        int n = specs.size();
        if (n == 0) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            SortSpec spec = specs.get(i);
            boolean lastDoc = i == n - 1 && spec instanceof SortSpec.Doc d && d.order() == SortSpec.Order.ASC;
            if (!(spec instanceof SortSpec.Score) && !lastDoc) {
                return false;
            }
        }
        return true;
    }

    /** A page in index order from position {@code start} on ({@link #indexOrderStart}; -1: none). */
    private List<Hit> continuation(IndexMetadata index, SearchRequest request, int topN, Translated matches,
                                   float score, GatewaySort sort, long start) {
        List<Hit> hits = new ArrayList<>();
        if (start < 0) {
            return hits;
        }
        BiFunction<String, JsonObject, Map<String, List<String>>> highlights = reads.highlighter(index, request);
        int keys = request.sort().size();
        boolean byDoc = request.sort().get(keys - 1) instanceof SortSpec.Doc;
        reads.scroll(index, matches, CollectionReads.STORED, topN, start,
                record -> {
                    StoredDocument d = CollectionReads.stored(index, record.path("payload"));
                    long position = QdrantLayout.position(record);
                    Object[] values = new Object[keys];
                    for (int i = 0; i < keys; i++) {
                        values[i] = byDoc && i == keys - 1 ? (Object) position : (Object) score;
                    }
                    hits.add(new Hit(index.name(), d.id(), score, sort.render(new GatewaySort.Key(values, position)),
                            d.source(), d.version(), highlights.apply(d.id(), d.source()), d.routing()));
                    return true;
                });
        return hits;
    }

    private static JsonValue floatValue(float f) {
        return new JsonValue.JsonNumber(Double.parseDouble(Float.toString(f)));
    }

    /** Any other order: the gateway's own sort over a scan of the sort fields, then one retrieve of the page. */
    private List<Hit> sortedHits(IndexMetadata index, SearchRequest request, int topN, Translated matches,
                                 float score, GatewaySort sort, Object[] after) {
        SortPayload payload = new SortPayload(index.mappings(), sort);
        List<GatewaySort.Key> keys = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        reads.scroll(index, matches, payload.include(), Integer.MAX_VALUE, record -> {
            GatewaySort.Key key = payload.key(record, score);
            if (after == null || sort.isAfter(key, after)) {
                keys.add(key);
                ids.add(SortPayload.id(record));
            }
            return true;
        });
        List<Integer> order = payload.order(keys);
        List<FetchRef> refs = new ArrayList<>();
        for (int i = 0; i < Math.min(topN, order.size()); i++) {
            int at = order.get(i);
            refs.add(new FetchRef(ids.get(at), score, request.sort().isEmpty() ? List.of()
                    : sort.render(keys.get(at))));
        }
        return refs.isEmpty() ? List.of() : reads.fetch(index, request, refs);
    }

    /**
     * A count-only search (no page) of {@link BesideReads}: its exact count prepared to go beside another call, after
     * the checks {@link #search} makes first (their 400s thrown here).
     */
    public BesideReads.Step countOnly(IndexMetadata index, SearchRequest request) {
        // as search() before its count: translation, the score, the sort and search_after (their 400s)
        Translated matches = prepare(index, request).matches();
        if (request.trackTotalHits() instanceof TrackTotalHits.Disabled) {
            return new BesideReads.Step.Done(new ReadValue.Hits(new IndexHits(Optional.empty(), List.of(),
                    Float.NaN)));
        }
        if (matches instanceof FilterTranslator.Never) {
            return new BesideReads.Step.Done(new ReadValue.Hits(new IndexHits(IndexHits.Total.of(
                    request.trackTotalHits(), 0), List.of(), Float.NaN)));
        }
        QdrantClient.Beside<Long> count = reads.countBeside(index, matches);
        return new BesideReads.Step.Beside(count, () -> new ReadValue.Hits(new IndexHits(IndexHits.Total.of(
                request.trackTotalHits(), reads.besideResult(index, count)), List.of(), Float.NaN)));
    }

    /** The complete scan on the filter path: every match in index order, with the requested source fields. */
    public void scan(IndexMetadata index, ScanRequest scan, Consumer<ScannedDocument> sink) {
        FilterTranslator translator = new FilterTranslator(index, CollectionReads.now());
        Translated matches = matches(index, scan.search(), scan.postFilter(), scan.filter(), translator);
        float score = scan.scores() ? ConstantScores.of(scan.search().query()) : Float.NaN;
        if (matches instanceof FilterTranslator.Never) {
            return;
        }
        ScanPayload read = ScanPayload.of(scan.fields());
        reads.scroll(index, matches, read.include(), Integer.MAX_VALUE, record -> {
            JsonNode payload = record.path("payload");
            sink.accept(new ScannedDocument(payload.path(QdrantLayout.ID).asText(),
                    QdrantLayout.position(record), score, read.source(payload)));
            return true;
        });
    }
}
