package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.nio.charset.StandardCharsets;

/** Elasticsearch's rules for document ids: any non-empty string of at most 512 UTF-8 bytes. */
public final class DocumentIds {
    public static final int MAX_BYTES = 512;

    private DocumentIds() {
    }

    public static void validate(String id) {
        if (id.isEmpty()) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION,
                    "Validation Failed: 1: if _id is specified it must not be empty;");
        }
        int bytes = id.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, "Validation Failed: 1: id [" + id
                    + "] is too long, must be no longer than " + MAX_BYTES + " bytes but was: " + bytes + ";");
        }
    }
}
