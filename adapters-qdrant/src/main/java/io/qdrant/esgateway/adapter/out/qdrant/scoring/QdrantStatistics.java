package io.qdrant.esgateway.adapter.out.qdrant.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.FieldStatistics;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantFacets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import io.qdrant.esgateway.adapter.out.qdrant.read.CollectionReads;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.payload.TextPayload;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * The whole index's BM25 statistics, read from Qdrant for one request (cached for its duration): per field one exact
 * {@code facet} over {@code _n.<field>} ({@link TextPayload}: the {@code -1} marker counts the documents with the field,
 * each bit's count times its weight sums the lengths), per term one exact {@code count} — {@code _t.<field>} for text,
 * {@code _f.<field>} for keyword and boolean values.
 */
public final class QdrantStatistics implements RelevanceScorer.Statistics {
    /** Qdrant call for one collection: method, path after the collection, body, what (for errors). */
    public interface Calls {
        JsonNode read(String rest, ObjectNode body, String what);
    }

    /** Statistics requests in flight at once for one search. */
    static final int PARALLEL = 8;

    private final IndexMetadata index;
    private final Calls calls;
    private final Map<String, FieldStatistics> fields = new ConcurrentHashMap<>();
    private final Map<String, Long> docFreqs = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Long>> dictionaries = new ConcurrentHashMap<>();
    private final AtomicInteger requests = new AtomicInteger();

    public QdrantStatistics(IndexMetadata index, Calls calls) {
        this.index = index;
        this.calls = calls;
    }

    /** How many Qdrant requests the statistics took so far. */
    int requests() {
        return requests.get();
    }

    /**
     * Fetches what scoring will need, concurrently (one virtual thread per request, at most {@link #PARALLEL} at a
     * time), so that a query of n terms costs about one round trip instead of n + 1.
     */
    void prefetch(RelevanceScorer.Needed needed) {
        List<Callable<Object>> tasks = new ArrayList<>();
        for (String field : needed.fields()) {
            if (!fields.containsKey(field)) {
                tasks.add(() -> field(field));
            }
        }
        needed.terms().forEach((field, terms) -> {
            for (String term : terms) {
                if (!docFreqs.containsKey(key(field, term))) {
                    tasks.add(() -> docFreq(field, term));
                }
            }
        });
        if (tasks.size() <= 1) {
            for (Callable<Object> t : tasks) {
                call(t);
            }
            return;
        }
        Semaphore slots = new Semaphore(PARALLEL);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Object>> futures = new ArrayList<>();
            for (Callable<Object> t : tasks) {
                futures.add(threads.submit(() -> {
                    slots.acquire();
                    try {
                        return t.call();
                    } finally {
                        slots.release();
                    }
                }));
            }
            for (Future<Object> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new GatewayException(ErrorKind.BACKEND_FAILURE, "interrupted while reading statistics", Map.of(), e);
                }
            }
        }
    }

    private static void call(Callable<Object> task) {
        try {
            task.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String key(String field, String term) {
        return field + '\u0000' + term;
    }

    @Override
    public FieldStatistics field(String field) {
        FieldStatistics known = fields.get(field);
        if (known != null) {
            return known;
        }
        ObjectNode body = QdrantClient.object();
        body.put("key", TextPayload.lengthsPath(field));
        body.put("limit", 64);
        body.put("exact", true);
        requests.incrementAndGet();
        JsonNode result = calls.read("/facet", body, "read the statistics of field [" + field + "] of index ["
                + index.name() + "]");
        long docCount = 0;
        long sum = 0;
        for (JsonNode hit : result.path("hits")) {
            long value = hit.path("value").asLong();
            long count = hit.path("count").asLong();
            if (value == TextPayload.PRESENT) {
                docCount = count;
            } else if (value >= 0 && value < 63) {
                sum += count << value;
            } else {
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "unexpected length bit [" + value
                        + "] in the statistics of field [" + field + "] of index [" + index.name() + "]");
            }
        }
        FieldStatistics out = new FieldStatistics(docCount, sum);
        fields.put(field, out);
        return out;
    }

    /**
     * The field's distinct terms with their document counts: one exact {@code facet} over {@code _t.<field>} (text)
     * or {@code _f.<field>} (keyword); when the answer may be cut at {@link QdrantFacets#LIMIT} values, a scroll
     * over every point holding the field counts them instead. The counts also answer {@link #docFreq}.
     */
    @Override
    public Map<String, Long> dictionary(String field) {
        Map<String, Long> known = dictionaries.get(field);
        if (known != null) {
            return known;
        }
        FieldMapping mapping = index.mappings().field(field).orElse(null);
        String key;
        String top;
        if (mapping instanceof FieldMapping.TextField
                || io.qdrant.esgateway.domain.index.TextOptions.hidden(index.mappings(), field).isPresent()) {
            key = TextPayload.termsPath(field);
            top = TextPayload.TERMS;
        } else if (mapping instanceof FieldMapping.KeywordField) {
            key = QdrantLayout.fieldPath(field);
            top = QdrantLayout.FIELDS;
        } else {
            return Map.of();
        }
        ObjectNode body = QdrantClient.object();
        body.put("key", key);
        body.put("limit", QdrantFacets.LIMIT);
        body.put("exact", true);
        requests.incrementAndGet();
        String what = "read the terms of field [" + field + "] of index [" + index.name() + "]";
        JsonNode result = calls.read("/facet", body, what);
        Map<String, Long> out = new HashMap<>();
        for (JsonNode hit : result.path("hits")) {
            out.put(hit.path("value").asText(), hit.path("count").asLong());
        }
        if (out.size() >= QdrantFacets.LIMIT) {
            out.clear();
            ObjectNode isEmpty = QdrantClient.object();
            isEmpty.putObject("is_empty").put("key", key);
            ObjectNode holding = QdrantClient.object();
            holding.putArray("must_not").add(isEmpty);
            JsonNode offset = null;
            do {
                ObjectNode scroll = QdrantClient.object();
                scroll.set("filter", holding);
                scroll.put("limit", 1024);
                scroll.putArray("with_payload").add(key);
                scroll.put("with_vector", false);
                if (offset != null) {
                    scroll.set("offset", offset);
                }
                requests.incrementAndGet();
                JsonNode page = calls.read("/points/scroll", scroll, what);
                for (JsonNode point : page.path("points")) {
                    JsonNode values = point.path("payload").path(top).path(field);
                    java.util.Set<String> distinct = new java.util.HashSet<>();
                    (values.isArray() ? values : List.of(values)).forEach(v -> {
                        if (v.isValueNode() && !v.isNull()) {
                            distinct.add(v.asText());
                        }
                    });
                    distinct.forEach(t -> out.merge(t, 1L, Long::sum));
                }
                offset = page.get("next_page_offset");
            } while (offset != null && !offset.isNull());
        }
        out.forEach((term, count) -> docFreqs.putIfAbsent(key(field, term), count));
        Map<String, Long> frozen = Map.copyOf(out);
        dictionaries.put(field, frozen);
        return frozen;
    }

    @Override
    public long docFreq(String field, String term) {
        String key = key(field, term);
        Long known = docFreqs.get(key);
        if (known != null) {
            return known;
        }
        ObjectNode condition = QdrantClient.object();
        FieldMapping mapping = index.mappings().field(field).orElse(null);
        if (io.qdrant.esgateway.domain.index.TextOptions.hidden(index.mappings(), field).isPresent()) {
            // a text field's hidden field (shingles, prefixes): its tokens are kept as a text field's
            mapping = io.qdrant.esgateway.domain.index.TextOptions.hidden(index.mappings(), field).get().mapping();
        }
        switch (mapping) {
            case FieldMapping.TextField t -> {
                condition.put("key", TextPayload.termsPath(field));
                condition.putObject("match").put("value", term);
            }
            case FieldMapping.BooleanField b -> {
                condition.put("key", QdrantLayout.fieldPath(field));
                condition.putObject("match").put("value", Boolean.parseBoolean(term));
            }
            case null, default -> {
                condition.put("key", QdrantLayout.fieldPath(field));
                condition.putObject("match").put("value", term);
            }
        }
        ObjectNode body = QdrantClient.object();
        body.set("filter", CollectionReads.filter(new FilterTranslator.Condition(condition)));
        body.put("exact", true);
        requests.incrementAndGet();
        JsonNode result = calls.read("/points/count", body, "count the documents holding a term of field [" + field
                + "] of index [" + index.name() + "]");
        long out = result.path("count").asLong();
        docFreqs.put(key, out);
        return out;
    }
}
