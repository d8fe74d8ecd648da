/**
 * The shared catalog in Valkey/Redis (Jedis), for gateway replicas: {@link
 * io.qdrant.esgateway.adapter.out.catalog.redis.RedisCatalogs} opens it; everything else is package-private.
 */
package io.qdrant.esgateway.adapter.out.catalog.redis;
