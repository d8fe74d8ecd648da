package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.lucene.engine.WideVectorCodec;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * Stored fields are written in small chunks ({@link WideVectorCodec}) under the default format's name, so that the
 * default reader (the one Lucene picks by the segment's codec name) reads them back, byte for byte, and reports the
 * smaller chunk size it read from the segment.
 */
class SmallStoredChunksTest {

    @Test
    void theDefaultReaderReadsEveryDocumentBackFromTheSmallChunks(@TempDir Path dir) throws Exception {
        Random random = new Random(11);
        List<byte[]> sources = new ArrayList<>();
        try (FSDirectory directory = FSDirectory.open(dir);
             IndexWriter writer = new IndexWriter(directory, IndexEngine.config(OpenMode.CREATE))) {
            for (int i = 0; i < 3_000; i++) {
                // sizes from a few bytes to larger than a chunk, so documents share chunks and some span several
                int length = i % 500 == 0 ? 20_000 + random.nextInt(5_000) : 5 + random.nextInt(900);
                StringBuilder json = new StringBuilder("{\"n\":").append(i).append(",\"t\":\"");
                while (json.length() < length) {
                    json.append((char) ('a' + random.nextInt(26)));
                }
                byte[] source = json.append("\"}").toString().getBytes(StandardCharsets.UTF_8);
                sources.add(source);
                Document doc = new Document();
                doc.add(new StoredField(FieldEncoding.ID, "id-" + i));
                doc.add(new StoredField(FieldEncoding.SOURCE, new BytesRef(source)));
                doc.add(new StoredField(FieldEncoding.VERSION, (long) i));
                writer.addDocument(doc);
                if (i == 1_700) {
                    writer.commit(); // two segments
                }
            }
        }
        try (FSDirectory directory = FSDirectory.open(dir); DirectoryReader reader = DirectoryReader.open(directory)) {
            assertThat(reader.maxDoc()).isEqualTo(sources.size());
            assertThat(reader.leaves()).hasSize(2);
            for (LeafReaderContext leaf : reader.leaves()) {
                // e.g. "Lucene90CompressingStoredFieldsReader(mode=...,chunksize=8192)"
                assertThat(((CodecReader) leaf.reader()).getFieldsReader().toString().toLowerCase(java.util.Locale.ROOT))
                        .containsPattern("chunksize=" + WideVectorCodec.STORED_CHUNK_BYTES + "\\b");
            }
            StoredFields stored = reader.storedFields();
            // out of order, as a page's hits are fetched
            for (int k = 0; k < sources.size(); k++) {
                int i = (int) ((k * 7919L) % sources.size());
                Document doc = stored.document(i);
                assertThat(doc.get(FieldEncoding.ID)).isEqualTo("id-" + i);
                assertThat(BytesRef.deepCopyOf(doc.getBinaryValue(FieldEncoding.SOURCE)).bytes).isEqualTo(sources.get(i));
                assertThat(doc.getField(FieldEncoding.VERSION).numericValue().longValue()).isEqualTo(i);
            }
        }
    }

    /** A data directory written before the small chunks (Lucene's own 80 KiB ones) merges with new segments. */
    @Test
    void segmentsWithTheDefaultChunksMergeWithSmallChunkSegments(@TempDir Path dir) throws Exception {
        List<String> ids = new ArrayList<>();
        try (FSDirectory directory = FSDirectory.open(dir);
             IndexWriter old = new IndexWriter(directory, new org.apache.lucene.index.IndexWriterConfig()
                     .setCodec(org.apache.lucene.codecs.Codec.getDefault()))) {
            for (int i = 0; i < 1_500; i++) {
                old.addDocument(stored("old-" + i));
                ids.add("old-" + i);
            }
        }
        try (FSDirectory directory = FSDirectory.open(dir);
             IndexWriter writer = new IndexWriter(directory, IndexEngine.config(OpenMode.APPEND))) {
            for (int i = 0; i < 1_500; i++) {
                writer.addDocument(stored("new-" + i));
                ids.add("new-" + i);
            }
            writer.forceMerge(1);
        }
        try (FSDirectory directory = FSDirectory.open(dir); DirectoryReader reader = DirectoryReader.open(directory)) {
            assertThat(reader.leaves()).hasSize(1);
            assertThat(((CodecReader) reader.leaves().getFirst().reader()).getFieldsReader().toString()
                    .toLowerCase(java.util.Locale.ROOT)).containsPattern("chunksize=" + WideVectorCodec.STORED_CHUNK_BYTES + "\\b");
            // the merge may order the segments' documents by segment size, so compare by id
            StoredFields stored = reader.storedFields();
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int i = 0; i < reader.maxDoc(); i++) {
                Document doc = stored.document(i);
                String id = doc.get(FieldEncoding.ID);
                assertThat(seen.add(id)).as(id).isTrue();
                assertThat(doc.getBinaryValue(FieldEncoding.SOURCE).utf8ToString())
                        .isEqualTo("{\"id\":\"" + id + "\"}");
            }
            assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    private static Document stored(String id) {
        Document doc = new Document();
        doc.add(new StoredField(FieldEncoding.ID, id));
        doc.add(new StoredField(FieldEncoding.SOURCE, new BytesRef("{\"id\":\"" + id + "\"}")));
        return doc;
    }
}
