/**
 * The {@code DocumentStore} port over Qdrant's REST API, pinned to Qdrant 1.19 ({@code shared/qdrant/openapi.json}):
 * {@link io.qdrant.esgateway.adapter.out.qdrant.QdrantStores} opens it; everything else (HTTP client, wire bodies,
 * filter translation, payload layout) is package-private.
 */
package io.qdrant.esgateway.adapter.out.qdrant;
