package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import java.nio.file.Path;
import org.apache.lucene.store.FSDirectory;

/** Opens the embedded document store: one Apache Lucene index per concrete index under a data directory. */
public final class LuceneStores {

    /** An open store; {@link #close()} closes every index and releases the data directory. */
    public interface Handle extends DocumentStore, AutoCloseable {

        /** The data directory, absolute and normalised. */
        Path dataDirectory();

        /** Commits and closes every open index and releases the data directory; idempotent. Later calls fail as
         * unavailable. */
        @Override
        void close();
    }

    private LuceneStores() {
    }

    /**
     * Opens (or creates) the store in {@code dataDirectory}. Indices live in {@code <dataDirectory>/indices/<uuid>}
     * and are opened when first used, so indices created by an earlier process are found again. One store per data
     * directory: it is locked ({@code store.lock}) until {@link Handle#close()}.
     *
     * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE} if the directory cannot
     *         be created or written, or another store (in this process or another) has it open
     */
    public static Handle open(Path dataDirectory) {
        return LuceneDocumentStore.open(dataDirectory, FSDirectory::open);
    }

    /**
     * Elasticsearch's matching and BM25 scores over candidates with whole-index statistics, exactly as this store
     * scores (for backends that cannot score themselves, e.g. Qdrant); stateless and thread-safe.
     */
    public static RelevanceScorer relevanceScorer() {
        return new LuceneRelevanceScorer();
    }
}
