package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.query.MinimumShouldMatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.queries.spans.SpanNearQuery;
import org.apache.lucene.queries.spans.SpanOrQuery;
import org.apache.lucene.queries.spans.SpanQuery;
import org.apache.lucene.queries.spans.SpanTermQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.QueryBuilder;
import org.apache.lucene.util.graph.GraphTokenStreamFiniteStrings;

/**
 * Full-text queries over a token graph (a {@code synonym_graph} filter's multi-word synonyms, whose tokens span
 * several positions), built as Elasticsearch builds them:
 * <ul>
 * <li>{@code match}: each stretch of the graph between articulation points is one clause (a single term, a synonym
 * query of the terms at one position, or, where the graph branches, a boolean {@code should} of its paths, each path of
 * several terms a phrase — {@code auto_generate_synonyms_phrase_query}'s default); the clauses are {@code must}
 * (operator {@code and}) or {@code should} with the query's {@code minimum_should_match};</li>
 * <li>{@code match_phrase} with a slop: a {@code should} of one phrase per path through the graph;</li>
 * <li>{@code match_phrase} without slop: a span-near query in order over the stretches, a branching stretch a span-or
 * of its paths (each path a span-near of its terms).</li>
 * </ul>
 */
final class GraphQueries {
    private GraphQueries() {
    }

    /** The {@code match} query over a graph. */
    static Query bool(Analyzer analyzer, String field, String text, boolean and, MinimumShouldMatch msm) {
        return bool(analyzer, field, text, and, msm, null, null);
    }

    /**
     * The {@code match} query over a graph with {@code fuzziness}, as Elasticsearch builds it: its single terms (also a
     * branch of one term) are {@code fuzzy} queries, its terms at one position {@code synonyms}, its branches of several
     * terms still exact phrases.
     */
    static Query bool(Analyzer analyzer, String field, String text, boolean and, MinimumShouldMatch msm,
                      java.util.function.Function<Term, Query> fuzzy,
                      java.util.function.Function<List<Term>, Query> synonyms) {
        QueryBuilder builder = fuzzy == null ? new QueryBuilder(analyzer) : new QueryBuilder(analyzer) {
            @Override
            protected Query newTermQuery(Term term, float boost) {
                return fuzzy.apply(term);
            }

            @Override
            protected Query newSynonymQuery(String f, TermAndBoost[] terms) {
                List<Term> all = new ArrayList<>();
                for (TermAndBoost t : terms) {
                    all.add(new Term(f, org.apache.lucene.util.BytesRef.deepCopyOf(t.term())));
                }
                return synonyms.apply(all);
            }
        };
        builder.setAutoGenerateMultiTermSynonymsPhraseQuery(true);
        Query q = builder.createBooleanQuery(field, text, and ? Occur.MUST : Occur.SHOULD);
        if (q == null) {
            return new MatchNoDocsQuery();
        }
        if (!and && q instanceof BooleanQuery bq) {
            int should = 0;
            for (BooleanClause c : bq.clauses()) {
                if (c.occur() == Occur.SHOULD) {
                    should++;
                }
            }
            int required = msm.required(should);
            if (required > 0) {
                BooleanQuery.Builder b = new BooleanQuery.Builder();
                bq.clauses().forEach(b::add);
                b.setMinimumNumberShouldMatch(required);
                return b.build();
            }
        }
        return q;
    }

    /** The {@code match_phrase} query over a graph. */
    static Query phrase(Analyzer analyzer, String field, String text, int slop) {
        if (slop > 0) {
            Query q = new QueryBuilder(analyzer).createPhraseQuery(field, text, slop);
            return q == null ? new MatchNoDocsQuery() : q;
        }
        try (TokenStream source = analyzer.tokenStream(field, text)) {
            // reads the whole stream itself (reset, tokens, end)
            GraphTokenStreamFiniteStrings graph = new GraphTokenStreamFiniteStrings(source);
            List<SpanQuery> clauses = new ArrayList<>();
            int[] articulationPoints = graph.articulationPoints();
            int lastState = 0;
            for (int i = 0; i <= articulationPoints.length; i++) {
                int start = lastState;
                int end = i < articulationPoints.length ? articulationPoints[i] : -1;
                lastState = end;
                SpanQuery atPosition;
                if (graph.hasSidePath(start)) {
                    List<SpanQuery> paths = new ArrayList<>();
                    Iterator<TokenStream> it = graph.getFiniteStrings(start, end);
                    while (it.hasNext()) {
                        SpanQuery path = path(it.next(), field);
                        if (path != null) {
                            paths.add(path);
                        }
                    }
                    atPosition = paths.isEmpty() ? null : new SpanOrQuery(paths.toArray(new SpanQuery[0]));
                } else {
                    Term[] terms = graph.getTerms(field, start);
                    if (terms.length == 1) {
                        atPosition = new SpanTermQuery(terms[0]);
                    } else {
                        SpanQuery[] any = new SpanQuery[terms.length];
                        for (int t = 0; t < terms.length; t++) {
                            any[t] = new SpanTermQuery(terms[t]);
                        }
                        atPosition = new SpanOrQuery(any);
                    }
                }
                if (atPosition != null) {
                    clauses.add(atPosition);
                }
            }
            if (clauses.isEmpty()) {
                return new MatchNoDocsQuery();
            }
            return clauses.size() == 1 ? clauses.get(0) : new SpanNearQuery(clauses.toArray(new SpanQuery[0]), 0, true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One path through a branching stretch: its terms in order (gaps kept), or its single term. */
    private static SpanQuery path(TokenStream in, String field) throws IOException {
        TermToBytesRefAttribute termAtt = in.getAttribute(TermToBytesRefAttribute.class);
        PositionIncrementAttribute posInc = in.getAttribute(PositionIncrementAttribute.class);
        if (termAtt == null) {
            return null;
        }
        SpanNearQuery.Builder builder = new SpanNearQuery.Builder(field, true);
        Term last = null;
        while (in.incrementToken()) {
            if (posInc.getPositionIncrement() > 1) {
                builder.addGap(posInc.getPositionIncrement() - 1);
            }
            if (last != null) {
                builder.addClause(new SpanTermQuery(last));
            }
            last = new Term(field, org.apache.lucene.util.BytesRef.deepCopyOf(termAtt.getBytesRef()));
        }
        if (last != null) {
            builder.addClause(new SpanTermQuery(last));
        }
        SpanNearQuery query = builder.build();
        SpanQuery[] clauses = query.getClauses();
        return clauses.length == 1 ? clauses[0] : query;
    }
}
