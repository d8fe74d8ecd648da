package io.qdrant.esgateway.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code _bulk} bodies of a corpus' ingest, encoded before the ingest is timed, so that the timed span holds the
 * engine's work and not the runner's: building and encoding the 10 bodies of the 10,000-document corpus took the
 * runner 12-90 ms (Jackson serialising every source), during which the engine sat idle between two requests. Corpora
 * above {@link #PREBUILT_MAX_DOCS} documents are built per batch instead (1,000,000 documents would hold ~700 MB),
 * which the report's ingest times of such runs include.
 */
final class BulkBodies {
    static final int PREBUILT_MAX_DOCS = 100_000;
    private static final JsonFactory JSON = new JsonFactory();

    private final Corpus corpus;
    private final int batch;
    private final boolean vectors;
    private final boolean cosine;
    private final List<byte[]> prebuilt;

    BulkBodies(Corpus corpus, int batch, boolean vectors) {
        this(corpus, batch, vectors, false);
    }

    /** With the vector index's cosine twin field ({@link Corpus#vectorMapping(boolean)}) when {@code cosine}. */
    BulkBodies(Corpus corpus, int batch, boolean vectors, boolean cosine) {
        this.corpus = corpus;
        this.batch = batch;
        this.vectors = vectors;
        this.cosine = cosine;
        if (corpus.size() <= PREBUILT_MAX_DOCS) {
            List<byte[]> bodies = new ArrayList<>();
            for (int n = 0; n < corpus.batches(batch); n++) {
                bodies.add(build(n));
            }
            this.prebuilt = List.copyOf(bodies);
        } else {
            this.prebuilt = null;
        }
    }

    int count() {
        return corpus.batches(batch);
    }

    boolean prebuilt() {
        return prebuilt != null;
    }

    /** The body of batch {@code n} as UTF-8 bytes. */
    byte[] body(int n) {
        return prebuilt != null ? prebuilt.get(n) : build(n);
    }

    private byte[] build(int n) {
        return corpus.bulkBody(n, batch, vectors, cosine).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Whether a {@code _bulk} answer reports errors: its top-level {@code errors} flag, read by a streaming parser that
     * skips the items (no tree of 1,000 items per answer inside the timed span). An answer without the flag, or not
     * a JSON object, counts as having errors.
     */
    static boolean reportsErrors(byte[] answer) {
        try (JsonParser p = JSON.createParser(answer)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return true;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("errors")) {
                    return value != JsonToken.VALUE_FALSE;
                }
                p.skipChildren();
            }
            return true;
        } catch (IOException e) {
            return true;
        }
    }
}
