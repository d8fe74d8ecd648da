package io.qdrant.esgateway.adapter.out.lucene.engine;

import io.qdrant.esgateway.domain.index.FieldMapping.DenseVectorField;
import java.io.IOException;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.codecs.lucene90.LZ4WithPresetDictCompressionMode;
import org.apache.lucene.codecs.lucene90.Lucene90StoredFieldsFormat;
import org.apache.lucene.codecs.lucene90.compressing.Lucene90CompressingStoredFieldsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;

/**
 * Lucene's default codec, with two changes that only concern writing, so that any Lucene of this version reads the
 * index without this class (both this codec and its formats write the names of the default ones):
 * <ul>
 *   <li>vectors may have up to {@link DenseVectorField#MAX_DIMS} (4096) dimensions, as in Elasticsearch, instead of
 *   Lucene's default limit of 1024 (Lucene checks the limit only when it indexes a vector);</li>
 *   <li>stored fields ({@code _source}, {@code _id}, the version) are compressed in chunks of at most
 *   {@value #STORED_CHUNK_BYTES} bytes or {@value #STORED_CHUNK_DOCS} documents instead of 80 KiB or 1,024. Reading
 *   one document decompresses the part of its chunk up to it (LZ4 with a preset dictionary, in ten sub-blocks): with
 *   80 KiB chunks that was ~8 KiB of other documents for each hit of a page; fetching 10 random documents of the
 *   bench corpus took 116 µs, against 19 µs with 8 KiB chunks, for 26 % more bytes on disk (965 against 1,221 KB
 *   for 10,000 documents). The default format's reader reads the chunk size from the segment, so the files are
 *   still the default format's, with smaller chunks.</li>
 * </ul>
 *
 * <p>The HNSW graph uses Lucene's defaults, {@code m = 16} and {@code beam width = 100}, which are also
 * Elasticsearch's defaults for {@code m} and {@code ef_construction}; other {@code index_options} are not applied.
 */
public final class WideVectorCodec extends FilterCodec {
    public static final int STORED_CHUNK_BYTES = 8 * 1024;
    static final int STORED_CHUNK_DOCS = 64;
    private final KnnVectorsFormat vectors;
    private final StoredFieldsFormat storedFields;

    public WideVectorCodec() {
        super(Codec.getDefault().getName(), Codec.getDefault());
        this.storedFields = new SmallChunkStoredFields(delegate.storedFieldsFormat());
        KnnVectorsFormat hnsw = new WideFormat(new Lucene99HnswVectorsFormat());
        this.vectors = new PerFieldKnnVectorsFormat() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return hnsw;
            }
        };
    }

    @Override
    public KnnVectorsFormat knnVectorsFormat() {
        return vectors;
    }

    @Override
    public StoredFieldsFormat storedFieldsFormat() {
        return storedFields;
    }

    /**
     * Lucene's default stored fields format ({@link Lucene90StoredFieldsFormat}, mode {@code BEST_SPEED}: the same
     * name, compression and segment attribute) writing smaller chunks; reading is the default codec's own format.
     */
    private static final class SmallChunkStoredFields extends StoredFieldsFormat {
        private static final String MODE_KEY = Lucene90StoredFieldsFormat.class.getSimpleName() + ".mode";
        private final StoredFieldsFormat reading;
        private final StoredFieldsFormat writing = new Lucene90CompressingStoredFieldsFormat(
                "Lucene90StoredFieldsFastData", new LZ4WithPresetDictCompressionMode(), STORED_CHUNK_BYTES,
                STORED_CHUNK_DOCS, 10);

        SmallChunkStoredFields(StoredFieldsFormat reading) {
            this.reading = reading;
        }

        @Override
        public StoredFieldsReader fieldsReader(Directory directory, SegmentInfo si, FieldInfos fn, IOContext context)
                throws IOException {
            return reading.fieldsReader(directory, si, fn, context);
        }

        @Override
        public StoredFieldsWriter fieldsWriter(Directory directory, SegmentInfo si, IOContext context)
                throws IOException {
            String previous = si.putAttribute(MODE_KEY, Lucene90StoredFieldsFormat.Mode.BEST_SPEED.name());
            if (previous != null && !previous.equals(Lucene90StoredFieldsFormat.Mode.BEST_SPEED.name())) {
                throw new IllegalStateException("found existing value for " + MODE_KEY + " for segment: " + si.name
                        + " old=" + previous + ", new=" + Lucene90StoredFieldsFormat.Mode.BEST_SPEED.name());
            }
            return writing.fieldsWriter(directory, si, context);
        }
    }

    /** A vector format under its delegate's name that accepts more dimensions. */
    private static final class WideFormat extends KnnVectorsFormat {
        private final KnnVectorsFormat delegate;

        WideFormat(KnnVectorsFormat delegate) {
            super(delegate.getName());
            this.delegate = delegate;
        }

        @Override
        public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
            return delegate.fieldsWriter(state);
        }

        @Override
        public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
            return delegate.fieldsReader(state);
        }

        @Override
        public int getMaxDimensions(String field) {
            return DenseVectorField.MAX_DIMS;
        }

        @Override
        public String toString() {
            return "WideFormat(" + delegate + ", maxDimensions=" + DenseVectorField.MAX_DIMS + ")";
        }
    }
}
