/**
 * The {@code DocumentStore} port over Qdrant's REST API, pinned to Qdrant 1.19 ({@code shared/qdrant/openapi.json}).
 * Empty until the Qdrant backend issue: the module exists so the build, the dependency rules and the wiring have
 * their final shape; {@code QEG_BACKEND=qdrant} is refused at start with a message saying so.
 */
package io.qdrant.esgateway.adapter.out.qdrant;
