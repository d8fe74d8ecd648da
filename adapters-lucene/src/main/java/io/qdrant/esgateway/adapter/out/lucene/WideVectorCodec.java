package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.domain.index.FieldMapping.DenseVectorField;
import java.io.IOException;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Lucene's default codec, except that vectors may have up to {@link DenseVectorField#MAX_DIMS} (4096) dimensions, as
 * in Elasticsearch, instead of Lucene's default limit of 1024. Lucene checks the limit only when it indexes a
 * vector, so the files are exactly the default codec's: both this codec and its vector format write the names of
 * the default ones, and any Lucene of this version reads the index without this class.
 *
 * <p>The HNSW graph uses Lucene's defaults, {@code m = 16} and {@code beam width = 100}, which are also
 * Elasticsearch's defaults for {@code m} and {@code ef_construction}; other {@code index_options} are not applied.
 */
final class WideVectorCodec extends FilterCodec {
    private final KnnVectorsFormat vectors;

    WideVectorCodec() {
        super(Codec.getDefault().getName(), Codec.getDefault());
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
