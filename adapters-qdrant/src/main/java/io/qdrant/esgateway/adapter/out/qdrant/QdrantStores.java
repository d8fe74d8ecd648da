package io.qdrant.esgateway.adapter.out.qdrant;

import io.qdrant.esgateway.application.port.out.BackendObserver;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/** Opens the Qdrant document store: one Qdrant collection per concrete index, over Qdrant's REST API (1.19). */
public final class QdrantStores {

    /**
     * How to reach Qdrant.
     *
     * @param url            the REST endpoint, e.g. {@code http://127.0.0.1:6333} (no credentials in it)
     * @param apiKey         sent as the {@code api-key} header when present; never logged nor shown in errors
     * @param connectTimeout TCP connect timeout
     * @param requestTimeout the longest wait for one response
     * @param collectionPrefix the start of every collection name ({@code qeg-}), so that several gateways (or a test
     *                         run) can share one Qdrant: letters, digits, {@code _} and {@code -}
     * @param poolSize       the most requests to Qdrant in flight at once, hence the most connections the gateway
     *                       opens to it (1 to 1024; {@link #DEFAULT_POOL_SIZE})
     */
    /**
     * @param sharedWriters other gateway processes write to the same collections (shared mode): an index's highest
     *                      sequence number is read from Qdrant for every write instead of remembered
     */
    public record Settings(URI url, Optional<String> apiKey, Duration connectTimeout, Duration requestTimeout,
                           String collectionPrefix, int poolSize, boolean sharedWriters) {
        public static final String DEFAULT_PREFIX = "qeg-";
        public static final int DEFAULT_POOL_SIZE = 32;

        public Settings(URI url, Optional<String> apiKey, Duration connectTimeout, Duration requestTimeout) {
            this(url, apiKey, connectTimeout, requestTimeout, DEFAULT_PREFIX);
        }

        public Settings(URI url, Optional<String> apiKey, Duration connectTimeout, Duration requestTimeout,
                        String collectionPrefix, int poolSize) {
            this(url, apiKey, connectTimeout, requestTimeout, collectionPrefix, poolSize, false);
        }

        public Settings(URI url, Optional<String> apiKey, Duration connectTimeout, Duration requestTimeout,
                        String collectionPrefix) {
            this(url, apiKey, connectTimeout, requestTimeout, collectionPrefix, DEFAULT_POOL_SIZE);
        }

        public Settings {
            if (poolSize < 1 || poolSize > 1024) {
                throw new IllegalArgumentException("the Qdrant pool size must be from 1 to 1024, got " + poolSize);
            }
            if (collectionPrefix == null || !collectionPrefix.matches("[A-Za-z0-9_-]{1,64}")) {
                throw new IllegalArgumentException("the collection prefix must be 1 to 64 letters, digits, _ or -");
            }
            Objects.requireNonNull(url, "url");
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
                throw new IllegalArgumentException("the Qdrant URL must be http://host:port or https://host:port");
            }
            if (url.getRawUserInfo() != null) {
                throw new IllegalArgumentException("the Qdrant URL must not carry credentials; give the API key"
                        + " separately (QEG_QDRANT_API_KEY)");
            }
            apiKey = apiKey.filter(k -> !k.isBlank());
            if (connectTimeout.isNegative() || connectTimeout.isZero() || requestTimeout.isNegative()
                    || requestTimeout.isZero()) {
                throw new IllegalArgumentException("Qdrant timeouts must be positive");
            }
        }

        /** The URL as safe to show: scheme, host and port only. */
        public String display() {
            return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort());
        }

        @Override
        public String toString() {
            return "Settings[url=" + display() + ", apiKey=" + (apiKey.isPresent() ? "<set>" : "<none>")
                    + ", connectTimeout=" + connectTimeout + ", requestTimeout=" + requestTimeout + ", poolSize="
                    + poolSize + ", sharedWriters=" + sharedWriters + "]";
        }
    }

    /** An open store; {@link #close()} releases its HTTP connections. */
    public interface Handle extends DocumentStore, AutoCloseable {
        @Override
        void close();
    }

    private QdrantStores() {
    }

    /** A store talking to the Qdrant at {@code settings.url()}. Opening does not contact Qdrant; {@code ping} does. */
    public static Handle open(Settings settings) {
        return open(settings, BackendObserver.NONE);
    }

    /** The same, reporting every call to Qdrant to {@code observer} (metrics). */
    public static Handle open(Settings settings, BackendObserver observer) {
        return new QdrantDocumentStore(new QdrantClient(settings, observer));
    }

    /**
     * A store that also matches full-text queries and scores per document, with {@code scorer} computing
     * Elasticsearch's matches and BM25 scores over the candidates Qdrant selects (see {@code GatewayScoring}).
     * Points written by this store carry the analysed terms and field lengths the scoring needs.
     */
    public static Handle open(Settings settings, RelevanceScorer scorer) {
        return open(settings, BackendObserver.NONE, scorer);
    }

    /** The same, reporting every call to Qdrant to {@code observer} (metrics). */
    public static Handle open(Settings settings, BackendObserver observer, RelevanceScorer scorer) {
        return new QdrantDocumentStore(new QdrantClient(settings, observer),
                java.util.Objects.requireNonNull(scorer, "scorer"));
    }
}
