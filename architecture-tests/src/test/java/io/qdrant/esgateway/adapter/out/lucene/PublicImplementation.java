package io.qdrant.esgateway.adapter.out.lucene;

/** A public class in an adapter's factory package that is not its factory. */
public class PublicImplementation {
}
