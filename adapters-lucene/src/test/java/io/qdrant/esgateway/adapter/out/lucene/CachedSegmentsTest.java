package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's directory ({@link LuceneStores#directory}) holds the small segments that refreshes flush in memory, and
 * a commit writes them to disk. Crash recovery with it: {@link LuceneTranslogRecoveryTest}, whose crash copies hold
 * only what is on disk.
 */
class CachedSegmentsTest {

    @TempDir
    Path temp;

    private static final IndexMetadata INDEX = new IndexMetadata("cached", "uuid-cached", Instant.EPOCH,
            IndexSettings.DEFAULTS, Mappings.parse(Json.parse("{\"properties\": {\"tag\": {\"type\": \"keyword\"}}}")));

    private static IndexableDocument doc(int n) {
        JsonObject source = (JsonObject) Json.parse("{\"tag\": \"t\", \"n\": " + n + "}");
        return new IndexableDocument("d" + n, new DocumentVersion(1, n, DocumentVersion.PRIMARY_TERM), source,
                List.of(new IndexedValue.Keyword("tag", "t")));
    }

    private static long count(LuceneStores.Handle store) {
        return store.count(INDEX, Optional.of(new Query.Term("tag", new JsonValue.JsonString("t"), false, 1f)));
    }

    private Path indexDirectory(Path data) {
        return data.resolve(LuceneDocumentStore.INDICES).resolve(INDEX.uuid());
    }

    /** The segments on disk, by their segment-info files. */
    private Set<String> segmentsOnDisk(Path data) throws IOException {
        try (Stream<Path> files = Files.list(indexDirectory(data))) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".si"))
                    .collect(Collectors.toSet());
        }
    }

    @Test
    void refreshesAfterSingleWritesFlushTheirSegmentsToMemoryNotToDisk() throws IOException {
        Path data = temp.resolve("data");
        try (LuceneStores.Handle store = LuceneStores.open(data)) {
            store.createIndex(INDEX);
            Set<String> before = segmentsOnDisk(data);
            for (int i = 0; i < 5; i++) {
                store.write(INDEX, List.of(new DocumentWrite.Upsert(doc(i))), i);
                assertThat(count(store)).isEqualTo(i + 1); // the search refreshes: a new segment each time
            }
            assertThat(segmentsOnDisk(data)).isEqualTo(before);
        }
    }

    @Test
    void closingCommitsTheHeldSegmentsToDisk() throws IOException {
        Path data = temp.resolve("data");
        try (LuceneStores.Handle store = LuceneStores.open(data)) {
            store.createIndex(INDEX);
            for (int i = 0; i < 5; i++) {
                store.write(INDEX, List.of(new DocumentWrite.Upsert(doc(i))), i);
                assertThat(count(store)).isEqualTo(i + 1);
            }
        }
        try (FSDirectory onDisk = FSDirectory.open(indexDirectory(data));
                DirectoryReader reader = DirectoryReader.open(onDisk)) {
            assertThat(reader.numDocs()).isEqualTo(5);
        }
        try (LuceneStores.Handle reopened = LuceneStores.open(data)) {
            assertThat(count(reopened)).isEqualTo(5);
        }
    }
}
