package io.qdrant.esgateway.adapter.out.lucene.violation;

/** An adapter implementation class that is public. */
public class PublicImplementation {
}
