package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.application.port.out.DocumentStore.FetchRef;
import io.qdrant.esgateway.domain.aggregation.FieldRef;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.StreamedJsonNodes;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * A page of hits sorted by a numeric or date field through Qdrant's {@code order_by} (guide §5, §8, §11.4), made to
 * be Elasticsearch's page: Qdrant's stream only chooses <em>which</em> documents can be on the page; their order and
 * sort values come from the gateway's own {@link GatewaySort} over their values, as on the complete scan.
 *
 * <p>Applies when the sort's first key is a field sort on a mapped {@code long}-like, {@code double}, {@code float}
 * or {@code date} field with its default mode ({@code min} ascending, {@code max} descending); the coverage rules
 * send other modes to the complete scan ({@code firstKeyOrderOnly}); further keys of any kind, mode or missing value are applied here, over the candidates. How Qdrant's semantics are compensated:
 * <ul>
 *   <li><b>repeats</b>: a point comes once per value; ascending, its first appearance is at its smallest value (ES's
 *       {@code min}), descending at its largest ({@code max}); later appearances are dropped;</li>
 *   <li><b>ties</b>: Qdrant breaks them by point id in the sort's direction, ES by the further keys and then index
 *       order; the stream is read past the page until the primary value changes, so the whole tie group at the
 *       page's boundary is a candidate, and the candidates are ordered by {@link GatewaySort#order()};</li>
 *   <li><b>missing values</b>: {@code order_by} leaves out points without the field; they are read separately
 *       ({@code is_empty} on the field, by scroll in index order) when they can reach the page: always
 *       with {@code missing: _first}, and with {@code _last} (or a value) when the stream ran out or the missing
 *       key does not sort after the boundary. With a single sort key the first {@code topN} suffice; with further
 *       keys the whole group is read (it is one tie group);</li>
 *   <li><b>search_after</b>: the stream starts at the primary value ({@code start_from}, inclusive); documents whose
 *       key is not strictly after the given values are dropped (a point reached there through one of its later
 *       values has a smaller primary key, so it is dropped too).</li>
 * </ul>
 * Each record of the stream carries the {@code _id} and the sort fields' source keys ({@code with_payload} include
 * list); the records of the first request (at most {@code topN + 2}) also carry the stored document, so that a page
 * the first request decides needs no second call, and the caller retrieves in one batch only the page's documents
 * that came with later requests or the missing-values scroll. The stream's first request
 * asks for {@code topN + 1} records ({@code topN + 2} after a {@code search_after} cursor, whose own document comes
 * first again and is dropped); when it ends inside the boundary's tie group, one exact count of the points
 * holding the boundary value sizes the next request to the rest of the group (plus one), so a page of {@code n}
 * moves {@code n + 1} small records plus the tie group (and the repeats of multi-valued points), not the corpus.
 */
public final class QdrantOrderedPages {
    private static final Set<ValueKind> ORDERED = Set.of(ValueKind.LONG, ValueKind.DOUBLE, ValueKind.FLOAT,
            ValueKind.DATE);
    /** The largest page of the stream after the first one (which asks for {@code topN + 1} or {@code + 2}). */
    static final int MAX_PAGE = 1024;

    /** One read-only call to the index's collection, its result read by {@code decoder}. */
    public interface Reads {
        <T> T post(String rest, ObjectNode body, String what, QdrantClient.ResultDecoder<T> decoder);
    }

    /** A scroll in index order of the matches, with a payload include list, at most {@code limit} records. */
    @FunctionalInterface
    public interface Scroll {
        void scroll(Translated matches, List<String> include, int limit, Predicate<JsonNode> sink);
    }

    private record Candidate(String id, GatewaySort.Key key) {
    }

    private QdrantOrderedPages() {
    }

    /** The sort's first key when this path serves the sort (see the class comment). */
    public static Optional<SortSpec.Field> primary(IndexMetadata index, List<SortSpec> sort) {
        if (sort.isEmpty() || !(sort.get(0) instanceof SortSpec.Field f)) {
            return Optional.empty();
        }
        FieldRef field;
        try {
            field = FieldRef.of(index.name(), f.field(), index.mappings());
        } catch (GatewayException e) {
            return Optional.empty();
        }
        SortSpec.Mode natural = f.order() == SortSpec.Order.ASC ? SortSpec.Mode.MIN : SortSpec.Mode.MAX;
        return ORDERED.contains(field.kind()) && f.effectiveMode() == natural ? Optional.of(f) : Optional.empty();
    }

    /**
     * The best {@code topN} hits (after {@code search_after}) as fetch references with their sort values, in the
     * request's order. When {@code documents} is not {@code null}, the stream's first request (at most {@code topN + 2}
     * records) also asks for the stored fields and its records' documents are put there by id (what the caller would
     * otherwise retrieve for the page: the page's documents read in the same call, so bytes stay bounded by the page);
     * later requests stay lean, and the caller retrieves whatever page document is not there.
     */
    public static List<FetchRef> page(IndexMetadata index, SearchRequest request, int topN, Translated matches, float score,
                               GatewaySort sort, SortSpec.Field primary, Reads reads, Scroll scroll,
                               Map<String, StoredDocument> documents) {
        Object[] after = request.searchAfter().map(sort::parseAfter).orElse(null);
        SortPayload payload = new SortPayload(index.mappings(), sort);
        List<String> include = payload.include();
        boolean desc = primary.order() == SortSpec.Order.DESC;
        String key = QdrantLayout.fieldPath(primary.field());

        List<Candidate> candidates = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        JsonNode boundary = null;
        Candidate boundaryDoc = null;
        int accepted = 0;
        Optional<JsonNode> startFrom = after == null ? Optional.empty() : startFrom(after[0], desc);
        if (startFrom.isEmpty() || !startFrom.get().isNull()) {
            int offset = 0;
            // with search_after the stream starts at the cursor's primary value, where the cursor's own document (the
            // previous page's last hit, when it matches) comes again and is dropped: one record more lets the first
            // request see the page's boundary and the value after it, instead of a tie count and a second request
            int limit = topN + (after == null ? 1 : 2);
            JsonNode last = null;
            int atValue = 0;
            boolean tiesCounted = false;
            ObjectNode filter = CollectionReads.filter(matches);
            read:
            while (true) {
                ObjectNode body = QdrantClient.object();
                ObjectNode orderBy = body.putObject("query").putObject("order_by");
                orderBy.put("key", key);
                orderBy.put("direction", desc ? "desc" : "asc");
                startFrom.ifPresent(s -> orderBy.set("start_from", s));
                body.set("filter", filter);
                body.put("limit", limit);
                if (offset > 0) {
                    body.put("offset", offset);
                }
                ArrayNode with = body.putArray("with_payload");
                include.forEach(with::add);
                boolean withDocuments = documents != null && offset == 0;
                if (withDocuments) {
                    CollectionReads.STORED.stream().filter(f -> !include.contains(f)).forEach(with::add);
                }
                body.put("with_vector", false);
                List<SortRecord> points = reads.post("/points/query", body, "read the documents of index ["
                        + index.name() + "] in the order of [" + primary.field() + "]",
                        SortRecord.points(withDocuments ? documents : null));
                for (SortRecord record : points) {
                    JsonNode value = record.orderValue();
                    if (boundary != null && !sameNumber(value, boundary)) {
                        break read;
                    }
                    atValue = last != null && sameNumber(value, last) ? atValue + 1 : 1;
                    last = value;
                    if (!seen.add(record.pointId())) {
                        continue; // a repeat: the point came first at its min (asc) or max (desc)
                    }
                    Candidate c = candidate(record, payload, score);
                    if (after != null && !sort.isAfter(c.key(), after)) {
                        continue;
                    }
                    candidates.add(c);
                    if (++accepted == topN) {
                        boundary = value;
                        boundaryDoc = c;
                    }
                }
                if (points.size() < limit) {
                    break; // the stream ran out
                }
                offset += points.size();
                if (boundary != null && !tiesCounted) {
                    // the page ended inside the boundary's tie group: ask for exactly the rest of it, plus one record
                    // to see the value change (a point holds a value at most once, so the count bounds the group)
                    tiesCounted = true;
                    long group = countAt(index, matches, key, boundary, reads);
                    limit = (int) Math.max(1, Math.min(Integer.MAX_VALUE - 1, group - atValue + 1));
                } else {
                    limit = Math.min(MAX_PAGE, Math.max(limit * 2, 16));
                }
            }
        }
        // the documents without the field share one primary key (ES's substitute, or the [missing] value): they can
        // reach the page unless topN documents with values (and their whole tie group) come strictly before it
        GatewaySort.Key missing = sort.key(new ValuesDoc("", score, List.of(), i -> false), 0);
        if (boundaryDoc == null || comparePrimary(missing.values()[0], boundaryDoc.key().values()[0], desc) <= 0) {
            boolean single = request.sort().size() == 1;
            if (!single || after == null || sort.isAfter(missing, after)) {
                ObjectNode empty = QdrantClient.object();
                empty.putObject("is_empty").put("key", key);
                Translated without = FilterTranslator.and(List.of(matches, new FilterTranslator.Condition(empty)));
                scroll.scroll(without, include, single ? topN : Integer.MAX_VALUE, record -> {
                    Candidate c = candidate(SortRecord.of(record), payload, score);
                    if (after == null || sort.isAfter(c.key(), after)) {
                        candidates.add(c);
                    }
                    return true;
                });
            }
        }
        candidates.sort((a, b) -> sort.order().compare(a.key(), b.key()));
        List<FetchRef> refs = new ArrayList<>();
        for (Candidate c : candidates.subList(0, Math.min(topN, candidates.size()))) {
            refs.add(new FetchRef(c.id(), score, sort.render(c.key())));
        }
        return refs;
    }

    /** The matches holding {@code value} in the field (each once): the size of the tie group at that value. */
    private static long countAt(IndexMetadata index, Translated matches, String key, JsonNode value, Reads reads) {
        ObjectNode range = QdrantClient.object();
        range.put("key", key);
        ObjectNode bounds = range.putObject("range");
        bounds.set("gte", value);
        bounds.set("lte", value);
        ObjectNode body = QdrantClient.object();
        body.set("filter", CollectionReads.filter(FilterTranslator.and(List.of(matches,
                new FilterTranslator.Condition(range)))));
        body.put("exact", true);
        return reads.post("/points/count", body, "count the documents tied at the page boundary of index ["
                + index.name() + "]", StreamedJsonNodes.count());
    }

    private static Candidate candidate(SortRecord record, SortPayload payload, float score) {
        return new Candidate(record.docId(), payload.key(record, score));
    }

    /**
     * Where the stream starts for a {@code search_after} primary value: empty for "from the beginning", a JSON null
     * for "nothing can follow" (an infinite or NaN value past every finite one in the sort's direction; JSON has no
     * such numbers).
     */
    private static Optional<JsonNode> startFrom(Object value, boolean desc) {
        return switch (value) {
            case Long l -> Optional.of(QdrantClient.NODES.numberNode(l));
            // NaN sorts above +Infinity (Double.compare, as GatewaySort compares)
            case Double d when !Double.isFinite(d) -> (Double.isNaN(d) || d > 0) != desc
                    ? Optional.of(QdrantClient.NODES.nullNode()) : Optional.empty();
            case Double d -> Optional.of(QdrantClient.NODES.numberNode(d));
            case Float f when !Float.isFinite(f) -> (Float.isNaN(f) || f > 0) != desc
                    ? Optional.of(QdrantClient.NODES.nullNode()) : Optional.empty();
            case Float f -> Optional.of(QdrantClient.NODES.numberNode((double) f));
            default -> Optional.empty();
        };
    }

    /** The primary keys' order in the sort's direction (Long, Double or Float keys). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int comparePrimary(Object a, Object b, boolean desc) {
        int c = ((Comparable) a).compareTo(b);
        return desc ? -c : c;
    }

    private static boolean sameNumber(JsonNode a, JsonNode b) {
        if (a.isIntegralNumber() && b.isIntegralNumber() && a.canConvertToLong() && b.canConvertToLong()) {
            return a.longValue() == b.longValue(); // what the decimal comparison gives, without two BigDecimals
        }
        return a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
}
