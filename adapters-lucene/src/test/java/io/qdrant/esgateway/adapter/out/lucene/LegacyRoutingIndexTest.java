package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded index written when {@code _routing} was stored only (no indexed term): Lucene keeps one schema per
 * field, so such an index keeps {@code _routing} stored only, and a query on {@code _routing} there is refused with a
 * 400 that says to reindex, while a new index indexes it.
 */
class LegacyRoutingIndexTest {

    @TempDir
    Path temp;

    private final List<LuceneStores.Handle> stores = new ArrayList<>();

    private static final Mappings MAPPINGS = Mappings.parse(Json.parse(
            "{\"properties\": {\"tag\": {\"type\": \"keyword\"}}}"));
    private static final IndexMetadata LEGACY = new IndexMetadata("legacy", "uuid-legacy", Instant.EPOCH,
            IndexSettings.DEFAULTS, MAPPINGS);
    private static final IndexMetadata FRESH = new IndexMetadata("fresh", "uuid-fresh", Instant.EPOCH,
            IndexSettings.DEFAULTS, MAPPINGS);

    @AfterEach
    void closeStores() {
        stores.forEach(LuceneStores.Handle::close);
    }

    private LuceneStores.Handle open(Path data) {
        LuceneStores.Handle store = LuceneDocumentStore.open(data, LuceneStores::directory, Translog.Fsync.DEFAULT,
                IndexEngine.FLUSH_THRESHOLD_BYTES);
        stores.add(store);
        return store;
    }

    private static Path luceneDirectory(Path data, IndexMetadata index) {
        return data.resolve(LuceneDocumentStore.INDICES).resolve(index.uuid());
    }

    /** A document as the write path gives it now: a routed one also has the {@code _routing} keyword value. */
    private static IndexableDocument doc(String id, long seqNo, String tag, Optional<String> routing) {
        JsonObject source = (JsonObject) Json.parse("{\"tag\": \"" + tag + "\"}");
        List<IndexedValue> values = new ArrayList<>(List.of(new IndexedValue.Keyword("tag", tag)));
        routing.ifPresent(r -> values.add(new IndexedValue.Keyword(Mappings.ROUTING, r)));
        return new IndexableDocument(id, new DocumentVersion(1, seqNo, DocumentVersion.PRIMARY_TERM), source, values,
                routing);
    }

    /**
     * The store's layout for {@code LEGACY} holding one routed document {@code old} as the encoding wrote it before
     * {@code _routing} was indexed: the routing value in the stored {@code _routing} field only.
     */
    private Path legacyData() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle creator = open(data);
        creator.createIndex(LEGACY);
        creator.close();
        stores.remove(creator);
        try (Directory dir = LuceneStores.directory(luceneDirectory(data, LEGACY));
             IndexWriter writer = new IndexWriter(dir, IndexEngine.config(OpenMode.APPEND))) {
            JsonObject source = (JsonObject) Json.parse("{\"tag\": \"old\"}");
            writer.addDocument(FieldEncoding.encode(MAPPINGS, new IndexableDocument("old",
                    new DocumentVersion(1, 0, DocumentVersion.PRIMARY_TERM), source,
                    List.of(new IndexedValue.Keyword("tag", "old")), Optional.of("r-old"))));
            Map<String, String> commitData = new HashMap<>();
            writer.getLiveCommitData().forEach(e -> commitData.put(e.getKey(), e.getValue()));
            commitData.put(IndexEngine.MAX_SEQ_NO, "0");
            writer.setLiveCommitData(commitData.entrySet());
            writer.commit();
        }
        assertThat(routingIndexOptions(data, LEGACY)).isEqualTo(IndexOptions.NONE);
        return data;
    }

    private static IndexOptions routingIndexOptions(Path data, IndexMetadata index) throws IOException {
        try (Directory dir = LuceneStores.directory(luceneDirectory(data, index));
             DirectoryReader reader = DirectoryReader.open(dir)) {
            FieldInfo info = FieldInfos.getMergedFieldInfos(reader).fieldInfo(FieldEncoding.ROUTING);
            return info == null ? null : info.getIndexOptions();
        }
    }

    private static Query term(String field, String value) {
        return new Query.Term(field, new JsonValue.JsonString(value), false, 1f);
    }

    @Test
    void aRoutedWriteToALegacyIndexSucceedsAndKeepsItsRouting() throws IOException {
        LuceneStores.Handle store = open(legacyData());
        assertThat(store.get(LEGACY, List.of("old")).get("old").routing()).contains("r-old");

        store.write(LEGACY, List.of(new DocumentWrite.Upsert(doc("new", 1, "t", Optional.of("r-new")))), 1);
        store.write(LEGACY, List.of(new DocumentWrite.Upsert(doc("plain", 2, "t", Optional.empty()))), 2);

        assertThat(store.get(LEGACY, List.of("new")).get("new").routing()).contains("r-new");
        assertThat(store.count(LEGACY, Optional.of(term("tag", "t")))).isEqualTo(2);
        assertThat(store.count(LEGACY, Optional.empty())).isEqualTo(3);
    }

    @Test
    void aQueryOnRoutingInALegacyIndexIsA400ThatSaysToReindex() throws IOException {
        LuceneStores.Handle store = open(legacyData());
        store.write(LEGACY, List.of(new DocumentWrite.Upsert(doc("new", 1, "t", Optional.of("r-new")))), 1);

        for (Query q : List.of(term(Mappings.ROUTING, "r-new"), term(Mappings.ROUTING, "r-old"),
                new Query.Exists(Mappings.ROUTING, 1f))) {
            GatewayException e = catchThrowableOfType(GatewayException.class,
                    () -> store.count(LEGACY, Optional.of(q)));
            assertThat(e).as(q.toString()).isNotNull();
            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.getMessage()).contains("[_routing]").contains("[legacy]").contains("reindex");
        }
        // other fields are searched as before
        assertThat(store.count(LEGACY, Optional.of(term("tag", "old")))).isEqualTo(1);
    }

    @Test
    void theLegacyLayoutSurvivesRestartAndTranslogReplay() throws IOException {
        Path data = legacyData();
        LuceneStores.Handle store = open(data);
        store.write(LEGACY, List.of(new DocumentWrite.Upsert(doc("new", 1, "t", Optional.of("r-new")))), 1);
        // a copy of the files as they are, uncommitted: opening it replays the routed write from the translog
        Path crash = temp.resolve("crash");
        try (Stream<Path> files = Files.walk(data)) {
            for (Path f : files.toList()) {
                Path to = crash.resolve(data.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else if (!f.getFileName().toString().equals("write.lock")) {
                    Files.copy(f, to);
                }
            }
        }
        store.close();
        stores.remove(store);

        LuceneStores.Handle recovered = open(crash);
        assertThat(recovered.get(LEGACY, List.of("new")).get("new").routing()).contains("r-new");
        recovered.write(LEGACY, List.of(new DocumentWrite.Upsert(doc("after", 2, "t", Optional.of("r-a")))), 2);
        assertThat(recovered.count(LEGACY, Optional.of(term("tag", "t")))).isEqualTo(2);
        recovered.close();
        stores.remove(recovered);
        assertThat(routingIndexOptions(crash, LEGACY)).isEqualTo(IndexOptions.NONE);
    }

    @Test
    void aNewIndexIndexesRouting() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle store = open(data);
        store.createIndex(FRESH);
        store.write(FRESH, List.of(new DocumentWrite.Upsert(doc("a", 0, "t", Optional.of("r-a"))),
                new DocumentWrite.Upsert(doc("b", 1, "t", Optional.empty()))), 1);

        assertThat(store.count(FRESH, Optional.of(term(Mappings.ROUTING, "r-a")))).isEqualTo(1);
        assertThat(store.count(FRESH, Optional.of(new Query.Exists(Mappings.ROUTING, 1f)))).isEqualTo(1);
        store.close();
        stores.remove(store);
        assertThat(routingIndexOptions(data, FRESH)).isEqualTo(IndexOptions.DOCS);
    }
}
