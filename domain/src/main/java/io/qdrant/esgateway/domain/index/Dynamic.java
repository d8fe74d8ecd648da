package io.qdrant.esgateway.domain.index;

import java.util.Locale;

/** What happens to fields a document brings that the mapping does not know (ES's {@code dynamic}). */
public enum Dynamic {
    /** New fields are added to the mapping. */
    TRUE,
    /** New fields are kept in {@code _source} but not indexed. */
    FALSE,
    /** A document with a new field is rejected. */
    STRICT;

    public String esName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
