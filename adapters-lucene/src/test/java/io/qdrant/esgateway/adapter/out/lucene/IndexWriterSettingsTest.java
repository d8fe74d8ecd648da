package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.lucene.engine.WideVectorCodec;

/** How every index's writer is configured. */
class IndexWriterSettingsTest {
    @Test
    void aRefreshDoesNotWaitForMergesOfTheSegmentsItFlushed() {
        for (OpenMode mode : OpenMode.values()) {
            IndexWriterConfig config = IndexEngine.config(mode);
            assertThat(config.getMaxFullFlushMergeWaitMillis()).as(mode.name()).isZero();
            assertThat(config.getOpenMode()).isEqualTo(mode);
            assertThat(config.getCodec()).isInstanceOf(WideVectorCodec.class);
        }
    }
}
