package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NRTCachingDirectory;
import io.qdrant.esgateway.adapter.out.lucene.analysis.LuceneTextAnalysis;
import io.qdrant.esgateway.adapter.out.lucene.search.LuceneRelevanceScorer;

/** Opens the embedded document store: one Apache Lucene index per concrete index under a data directory. */
public final class LuceneStores {

    /** An open store; {@link #close()} closes every index and releases the data directory. */
    public interface Handle extends DocumentStore, io.qdrant.esgateway.application.port.out.ReadSnapshots,
            AutoCloseable {

        /** The data directory, absolute and normalised. */
        Path dataDirectory();

        /** Commits and closes every open index and releases the data directory; idempotent. Later calls fail as
         * unavailable. */
        @Override
        void close();
    }

    /**
     * The largest segment a flush or merge may write to memory instead of disk ({@link #directory}), in MB: a refresh
     * after a few writes flushes a segment of a few KB, and merges of such segments stay small; a refresh after
     * {@code _bulk}s of 1,000 documents writes several MB and goes to disk as before.
     */
    static final double CACHED_SEGMENT_MB = 1.0;
    /**
     * The most memory the segments held by {@link #directory} may take per index, in MB (a flush that would exceed it
     * goes to disk); held until the index's next commit, at most {@link LuceneDocumentStore#FLUSH_INTERVAL} away.
     * Lucene's own indexing buffer is 16 MB per index.
     */
    static final double CACHED_TOTAL_MB = 4.0;

    private LuceneStores() {
    }

    /**
     * The Lucene directory of one index: files on disk, except that small segments written by a flush or a merge are
     * held in memory ({@link NRTCachingDirectory}) until a commit writes them to disk (every commit syncs its files,
     * and the directory writes a held file before it syncs it) or a merge folds them into a larger one. Each
     * {@code refresh=true} write flushes a new segment: on disk that is some twenty file creations (the codec's
     * files, then the compound file built from them) and as many deletions, which took the larger part of a
     * write-then-refresh cycle (docs/benchmarks/README.md, "Write path"). Durability is unchanged: an
     * acknowledged write is in the translog, and what a crash loses of the held segments was never committed.
     */
    static Directory directory(Path path) throws IOException {
        return new NRTCachingDirectory(FSDirectory.open(path), CACHED_SEGMENT_MB, CACHED_TOTAL_MB);
    }

    /**
     * Opens (or creates) the store in {@code dataDirectory}. Indices live in {@code <dataDirectory>/indices/<uuid>}
     * and are opened when first used, so indices created by an earlier process are found again. One store per data
     * directory: it is locked ({@code store.lock}) until {@link Handle#close()}.
     *
     * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE} if the directory cannot
     *         be created or written, or another store (in this process or another) has it open
     */
    static {
        // keyword normalizers: this module's analysis, for every backend (the scorer and _analyze come from here too)
        io.qdrant.esgateway.domain.analysis.KeywordNormalizer.install(
                io.qdrant.esgateway.adapter.out.lucene.analysis.IndexAnalyzers::normalizing);
    }

    public static Handle open(Path dataDirectory) {
        return LuceneDocumentStore.open(dataDirectory, LuceneStores::directory);
    }

    /**
     * Text analysis as Elasticsearch defines it, on Lucene's analysis components: the same analyzers the embedded
     * store and {@link #relevanceScorer()} use, for {@code _analyze} and for checking analysis settings.
     */
    public static io.qdrant.esgateway.application.port.out.TextAnalysis textAnalysis() {
        return new LuceneTextAnalysis();
    }

    /**
     * The directory the analysis settings' {@code *_path} files are read from, as Elasticsearch's config directory
     * (one per process; both backends build their analyzers here).
     */
    public static void analysisFiles(Path configDirectory) {
        io.qdrant.esgateway.adapter.out.lucene.analysis.AnalysisFiles.configure(configDirectory);
    }

    /** The directory of {@link #analysisFiles(Path)}. */
    public static Path analysisFiles() {
        return io.qdrant.esgateway.adapter.out.lucene.analysis.AnalysisFiles.configDir();
    }

    /**
     * Elasticsearch's matching and BM25 scores over candidates with whole-index statistics, exactly as this store
     * scores (for backends that cannot score themselves, e.g. Qdrant); stateless and thread-safe.
     */
    public static RelevanceScorer relevanceScorer() {
        return new LuceneRelevanceScorer();
    }
}
