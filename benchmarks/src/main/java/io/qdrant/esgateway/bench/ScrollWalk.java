package io.qdrant.esgateway.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;

/**
 * The {@code scroll-10k} workload's step: one whole scroll over the corpus index, as a client's scan helper runs it
 * ({@code _search?scroll=1m} sorted by {@code _doc}, then {@code _search/scroll} until a page is empty, then
 * {@code DELETE _search/scroll}), in pages of {@value #PAGE}. Timed from the first request to the cleared context;
 * valid only when the total is the corpus size and every document of the corpus came exactly once.
 */
final class ScrollWalk implements Measurement.Step {
    static final int PAGE = 1000;

    private final Set<String> ids = new HashSet<>();

    ScrollWalk(Corpus corpus) {
        corpus.docs().forEach(d -> ids.add(d.id()));
    }

    @Override
    public long run(Http http, int client, int iteration) {
        Request open = Request.json("POST", "/" + Corpus.INDEX + "/_search?scroll=1m",
                "{\"size\":" + PAGE + ",\"sort\":[\"_doc\"]}");
        long t0 = System.nanoTime();
        Http.Raw page = http.send(open);
        if (!page.ok()) {
            throw CellFailure.of(open, page);
        }
        long total = page.json().path("hits").path("total").path("value").asLong(-1);
        Set<String> seen = new HashSet<>();
        Request last = open;
        int pages = 0;
        while (true) {
            JsonNode hits = page.json().path("hits").path("hits");
            for (JsonNode hit : hits) {
                String id = hit.path("_id").asText();
                if (!seen.add(id)) {
                    throw new CellFailure(Status.INVALID, "document " + id + " returned twice by " + last);
                }
            }
            String scrollId = page.json().path("_scroll_id").asText("");
            if (hits.isEmpty() || scrollId.isEmpty()) {
                clear(http, scrollId);
                break;
            }
            if (++pages > ids.size() / PAGE + 2) {
                throw new CellFailure(Status.INVALID, "the scroll did not end after " + pages + " pages");
            }
            last = Request.json("POST", "/_search/scroll", "{\"scroll\":\"1m\",\"scroll_id\":\"" + scrollId + "\"}");
            page = http.send(last);
            if (!page.ok()) {
                throw CellFailure.of(last, page);
            }
        }
        long ns = System.nanoTime() - t0;
        if (total != ids.size() || !seen.equals(ids)) {
            throw new CellFailure(Status.INVALID, "the scroll returned " + seen.size() + " documents (total " + total
                    + "), expected each of the " + ids.size() + " of the corpus once");
        }
        return ns;
    }

    /** Every walk is the same request sequence: one entry of the per-request breakdown. */
    @Override
    public int key(int client, int iteration) {
        return 0;
    }

    private static void clear(Http http, String scrollId) {
        if (scrollId.isEmpty()) {
            return;
        }
        Request clear = Request.json("DELETE", "/_search/scroll", "{\"scroll_id\":[\"" + scrollId + "\"]}");
        Http.Raw cleared = http.send(clear);
        if (!cleared.ok()) {
            throw CellFailure.of(clear, cleared);
        }
    }
}
