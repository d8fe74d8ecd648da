package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.Collection;
import java.util.Map;

/** Real-time reads of documents by id ({@code GET}, {@code _mget}, the writes' version checks). */
public interface PointReads {

    /** The current documents with these ids (absent ids are missing from the map); sees every acknowledged write. */
    Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids);
}
