package io.qdrant.esgateway.domain.predicate;

import io.qdrant.esgateway.domain.query.Query;
import java.util.Optional;

/**
 * A query split into what decides matching ({@link #predicate}) and what decides the order of matching documents
 * when a search ranks by relevance ({@link #ranking}: the scored part of the original query, absent when nothing in
 * it scores — term-level queries in filter context, {@code constant_score}, {@code match_all}).
 */
public record NormalizedQuery(Predicate predicate, Optional<Query> ranking) {
}
