package io.qdrant.esgateway.application.port.out;

/** Source of new identifiers, passed in so tests can make them predictable. */
@FunctionalInterface
public interface IdGenerator {

    /** A new random id in Elasticsearch's shape: 20–22 URL-safe base64 characters. */
    String newId();
}
