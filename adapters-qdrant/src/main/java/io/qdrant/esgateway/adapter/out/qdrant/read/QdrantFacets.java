package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.FieldRef;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.aggregation.Partial;
import io.qdrant.esgateway.domain.aggregation.TermsCounts;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.StreamedJsonNodes;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * {@code terms} aggregations on keyword, integral, date and boolean fields answered by Qdrant's {@code facet}
 * (guide §7): one {@code exact: true} facet
 * call per aggregation over the matches' filter, whose hits are the document count of every value of the field —
 * Qdrant counts a point once per distinct array element, as Elasticsearch counts a document once per distinct term.
 * The counts feed {@link TermsCounts}, which applies {@code include}/{@code exclude}, {@code missing}, {@code size},
 * the order and {@code min_doc_count} exactly as the collectors would, so the answer (with
 * {@code doc_count_error_upper_bound} 0 and the exact {@code sum_other_doc_count}) is the complete scan's.
 *
 * <p>The facet asks for {@link #LIMIT} values; an answer with that many may have been cut, and then the caller
 * computes the aggregations over the complete scan instead (an index with more distinct values than ES's default
 * {@code search.max_buckets} is rare; a wrong answer is not acceptable). With {@code missing}, one exact
 * {@code count} of the matches without a value ({@code is_empty} on the field) adds the missing bucket.
 */
public final class QdrantFacets {
    /** The most values one facet call asks for: ES's default {@code search.max_buckets}. */
    public static final int LIMIT = 65_536;

    /**
     * One read-only call to the index's collection ({@code rest} below {@code /collections/{c}}), its result read by
     * {@code decoder}.
     */
    public interface Reads {
        <T> T post(String rest, ObjectNode body, String what, QdrantClient.ResultDecoder<T> decoder);
    }

    /**
     * One hit of a facet answer as the tree gave it: {@code hit.get("value")} ({@code null} when absent) and
     * {@code hit.path("count")}.
     */
    record Hit(JsonNode value, JsonNode count) {
        static Hit of(JsonNode hit) {
            return new Hit(hit.get("value"), hit.path("count"));
        }
    }

    /**
     * A decoder of a facet result: its {@code hits} as iterating {@code result.path("hits")} gave them, straight from
     * the parser (no tree; rare shapes — {@code hits} not an array, a hit not an object — through the tree).
     */
    static QdrantClient.ResultDecoder<List<Hit>> hits() {
        return parser -> {
            List<Hit> hits = List.of();
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return hits;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                if (!name.equals("hits")) {
                    parser.skipChildren();
                    continue;
                }
                hits = new ArrayList<>();
                if (token != JsonToken.START_ARRAY) {
                    for (JsonNode hit : StreamedJsonNodes.node(parser)) {
                        hits.add(Hit.of(hit));
                    }
                    continue;
                }
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    if (parser.currentToken() != JsonToken.START_OBJECT) {
                        hits.add(Hit.of(StreamedJsonNodes.node(parser)));
                        continue;
                    }
                    JsonNode value = null;
                    JsonNode count = MissingNode.getInstance();
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String field = parser.currentName();
                        parser.nextToken();
                        switch (field) {
                            case "value" -> value = StreamedJsonNodes.node(parser);
                            case "count" -> count = StreamedJsonNodes.node(parser);
                            default -> parser.skipChildren();
                        }
                    }
                    hits.add(new Hit(value, count));
                }
            }
            return hits;
        };
    }

    private QdrantFacets() {
    }

    /**
     * Whether facets answer the whole plan: top-level {@link TermsCounts#countable} terms on {@link #FACETED} fields
     * only, nothing over all documents, no filter queries.
     */
    public static boolean covers(IndexMetadata index, AggregationPlan plan) {
        if (plan.allDocuments().isPresent() || !plan.filters().isEmpty() || plan.aggregations().isEmpty()) {
            return false;
        }
        for (Aggregation agg : plan.aggregations().values()) {
            if (!(agg instanceof Aggregation.Terms t) || !TermsCounts.countable(t)
                    || !FACETED.contains(FieldRef.of(index.name(), t.field(), index.mappings()).kind())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The kinds whose payload index serves {@code facet} (guide §3, §7): keyword ({@code keyword} index), integral
     * numbers and dates (epoch millis in an {@code integer} index with {@code lookup}), booleans ({@code bool}).
     * Floating-point fields have a {@code float} index, which cannot be faceted.
     */
    public static final java.util.Set<FieldRef.ValueKind> FACETED = java.util.Set.of(FieldRef.ValueKind.KEYWORD,
            FieldRef.ValueKind.LONG, FieldRef.ValueKind.DATE, FieldRef.ValueKind.BOOLEAN);

    /** A facet value as the domain's key of the field's kind (Strings, Longs; booleans as 1/0). */
    private static Object key(FieldRef.ValueKind kind, JsonNode value) {
        return switch (kind) {
            case KEYWORD -> value.isTextual() ? value.asText() : null;
            case LONG, DATE -> value.isIntegralNumber() && value.canConvertToLong() ? (Object) value.asLong() : null;
            case BOOLEAN -> value.isBoolean() ? (Object) (value.asBoolean() ? 1L : 0L) : null;
            case DOUBLE, FLOAT, UNMAPPED -> null;
        };
    }

    /**
     * The plan's partials from facets over {@code matches} (a filter made with {@link CollectionReads#filter}),
     * or empty when a facet answer may have been cut at {@link #LIMIT}.
     */
    public static Optional<NamedPartials> aggregate(IndexMetadata index, AggregationPlan plan, Translated matches,
                                             Reads reads) {
        Map<String, Partial> out = new LinkedHashMap<>();
        for (Map.Entry<String, Aggregation> e : plan.aggregations().entrySet()) {
            Aggregation.Terms terms = (Aggregation.Terms) e.getValue();
            Map<Object, Long> counts = new HashMap<>();
            long without = 0;
            if (!(matches instanceof FilterTranslator.Never)) {
                ObjectNode body = QdrantClient.object();
                body.put("key", QdrantLayout.fieldPath(terms.field()));
                body.set("filter", CollectionReads.filter(matches));
                body.put("limit", LIMIT);
                body.put("exact", true);
                List<Hit> hits = reads.post("/facet", body, "count the values of [" + terms.field()
                        + "] in index [" + index.name() + "]", hits());
                if (hits.size() >= LIMIT) {
                    return Optional.empty();
                }
                FieldRef.ValueKind kind = FieldRef.of(index.name(), terms.field(), index.mappings()).kind();
                for (Hit hit : hits) {
                    JsonNode value = hit.value();
                    Object bucket = value == null ? null : key(kind, value);
                    if (bucket == null) {
                        throw new GatewayException(ErrorKind.BACKEND_FAILURE, "Qdrant's facet of [" + terms.field()
                                + "] in index [" + index.name() + "] returned the value " + value + ", which is not of"
                                + " the field's type", Map.of(), null);
                    }
                    counts.merge(bucket, hit.count().asLong(), Long::sum);
                }
                if (terms.missing().isPresent()) {
                    without = countWithout(index, terms.field(), matches, reads);
                }
            }
            out.put(e.getKey(), TermsCounts.partial(index.name(), e.getKey(), terms, index.mappings(), counts,
                    without, plan.now()));
        }
        return Optional.of(new NamedPartials(out));
    }

    /** The matches without any value of the field (missing, null, or every value left out by the mapping). */
    private static long countWithout(IndexMetadata index, String field, Translated matches, Reads reads) {
        ObjectNode filter = CollectionReads.filter(matches);
        ArrayNode must = filter.has("must") ? (ArrayNode) filter.get("must") : filter.putArray("must");
        must.addObject().putObject("is_empty").put("key", QdrantLayout.fieldPath(field));
        ObjectNode body = QdrantClient.object();
        body.set("filter", filter);
        body.put("exact", true);
        return reads.post("/points/count", body, "count the documents without [" + field + "] in index ["
                + index.name() + "]", StreamedJsonNodes.count());
    }
}
