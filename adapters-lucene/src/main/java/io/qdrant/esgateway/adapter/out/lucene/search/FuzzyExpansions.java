package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.util.IOSupplier;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.automaton.ByteRunAutomaton;

/**
 * Fuzzy queries expanded over the whole index's term dictionary ({@link DictionaryReader}) and turned into plain term
 * queries for the candidates' searcher: each expansion keeps its boost, and its blended document frequency (Lucene's
 * {@code TopTermsBlendedFreqScoringRewrite}: the largest of the expansions') is recorded for the statistics. The
 * candidates' own postings and costs then score as the whole index's would.
 */
final class FuzzyExpansions {
    private FuzzyExpansions() {
    }

    /**
     * Marks the total term frequency of an expansion's statistics: the searcher then takes its document frequency
     * (blended, the whole index's) as it is instead of looking the term up.
     */
    static final long BLENDED = 1L << 60;

    /** {@code query} with its fuzzy queries expanded over {@code dictionary}, to run on {@code candidates}. */
    static Query expand(Query query, IndexSearcher dictionary, IndexSearcher candidates) throws IOException {
        if (!hasFuzzy(query)) {
            return query;
        }
        Query out = walk(query, dictionary, candidates);
        if (hasFuzzy(out)) {
            throw GatewayException.unsupported("a fuzzy query inside [" + query.getClass().getSimpleName()
                    + "] scored by the gateway");
        }
        return out;
    }

    private static boolean hasFuzzy(Query query) {
        boolean[] left = {false};
        query.visit(new QueryVisitor() {
            @Override
            public void consumeTermsMatching(Query q, String field,
                                             java.util.function.Supplier<ByteRunAutomaton> automaton) {
                left[0] |= q instanceof FuzzyQuery;
            }

            @Override
            public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
                return this;
            }
        });
        return left[0];
    }

    private static Query walk(Query q, IndexSearcher dictionary, IndexSearcher blended) throws IOException {
        return switch (q) {
            case FuzzyQuery f -> detach(dictionary.rewrite(f), blended);
            case BooleanQuery b -> {
                BooleanQuery.Builder out = new BooleanQuery.Builder()
                        .setMinimumNumberShouldMatch(b.getMinimumNumberShouldMatch());
                for (BooleanClause c : b.clauses()) {
                    out.add(walk(c.query(), dictionary, blended), c.occur());
                }
                yield out.build();
            }
            case BoostQuery b -> new BoostQuery(walk(b.getQuery(), dictionary, blended), b.getBoost());
            case ConstantScoreQuery c -> new ConstantScoreQuery(walk(c.getQuery(), dictionary, blended));
            case DisjunctionMaxQuery d -> {
                List<Query> parts = new ArrayList<>();
                for (Query p : d.getDisjuncts()) {
                    parts.add(walk(p, dictionary, blended));
                }
                yield new DisjunctionMaxQuery(parts, d.getTieBreakerMultiplier());
            }
            default -> q;
        };
    }

    /**
     * The rewritten expansion for the candidates' searcher: each term query with the candidates' term states and the
     * blended document frequency, marked with {@link #BLENDED}.
     */
    private static Query detach(Query q, IndexSearcher blended) throws IOException {
        return switch (q) {
            case TermQuery t -> {
                TermStates local = TermStates.build(blended, t.getTerm(), true);
                TermStates states = new TermStates(blended.getTopReaderContext());
                for (LeafReaderContext leaf : blended.getIndexReader().leaves()) {
                    IOSupplier<TermState> state = local.get(leaf);
                    TermState loaded = state == null ? null : state.get();
                    if (loaded != null) {
                        states.register(loaded, leaf.ord);
                    }
                }
                int df = t.getTermStates() == null ? Math.max(1, local.docFreq()) : t.getTermStates().docFreq();
                states.accumulateStatistics(df, BLENDED + df);
                yield new TermQuery(t.getTerm(), states);
            }
            case BoostQuery b -> new BoostQuery(detach(b.getQuery(), blended), b.getBoost());
            case BooleanQuery b -> {
                BooleanQuery.Builder out = new BooleanQuery.Builder()
                        .setMinimumNumberShouldMatch(b.getMinimumNumberShouldMatch());
                for (BooleanClause c : b.clauses()) {
                    out.add(detach(c.query(), blended), c.occur());
                }
                yield out.build();
            }
            default -> q;
        };
    }
}
