package io.qdrant.esgateway.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link DocumentStore} that keeps its documents across a restart of the process (the Lucene
 * store; Qdrant): everything {@link DocumentStoreContract} asks, and every acknowledged write survives a reopen.
 */
public abstract class DurableDocumentStoreContract extends DocumentStoreContract {

    /** Closes {@code store} and opens it again on the same storage, as after a restart of the process. */
    protected abstract DocumentStore reopen(DocumentStore store);

    protected void restart() {
        replaceStore(reopen(store));
    }

    @Test
    void everyAcknowledgedWriteSurvivesARestart() {
        IndexMetadata a = created("a");
        IndexMetadata b = created("b");
        IndexMetadata untouched = created("untouched");
        store.write(a, List.of(upsert(richDoc("rich", 2, 0)), upsert(doc("gone", 1, 1, 1)),
                upsert(doc("replaced", 1, 2, 2))), 2);
        store.write(a, List.of(delete("gone"), upsert(doc("replaced", 2, 4, 4))), 4);
        store.write(b, List.of(upsert(doc("rich", 1, 0, 0))), 0);
        store.write(b, List.of(), 6);

        restart();

        assertThat(store.get(a, List.of("rich", "gone", "replaced"))).isEqualTo(Map.of(
                "rich", richDoc("rich", 2, 0).stored(), "replaced", doc("replaced", 2, 4, 4).stored()));
        assertThat(get(b, "rich")).contains(doc("rich", 1, 0, 0).stored());
        assertThat(store.maxSeqNo(a)).isEqualTo(4);
        assertThat(store.maxSeqNo(b)).isEqualTo(6);
        assertThat(store.maxSeqNo(untouched)).isEqualTo(-1);
        assertThat(store.stats(a).docCount()).isEqualTo(2);
        assertThat(store.stats(b).docCount()).isEqualTo(1);
        assertThat(store.stats(untouched).docCount()).isZero();
    }

    @Test
    void afterARestartWritesCarryOn() {
        IndexMetadata index = created("products");
        store.write(index, List.of(upsert(doc("1", 1, 0, 1))), 0);
        restart();

        store.write(index, List.of(upsert(doc("1", 2, 1, 2)), upsert(doc("2", 1, 2, 2))), 2);
        restart();

        assertThat(store.get(index, List.of("1", "2"))).isEqualTo(Map.of(
                "1", doc("1", 2, 1, 2).stored(), "2", doc("2", 1, 2, 2).stored()));
        assertThat(store.maxSeqNo(index)).isEqualTo(2);
        assertThat(store.stats(index).docCount()).isEqualTo(2);
    }
}
