/**
 * What the Valkey/Redis adapters (the shared catalog and the shared response cache) have in common: connections
 * checked against the server's current run before their first command.
 */
package io.qdrant.esgateway.adapter.out.redis;
