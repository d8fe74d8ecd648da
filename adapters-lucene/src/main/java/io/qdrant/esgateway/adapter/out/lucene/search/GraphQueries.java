package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.query.MinimumShouldMatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
 * <li>{@code match_phrase_prefix}: the same, the last stretch's last terms as span prefix queries; with a slop a
 * {@code should} of one phrase prefix per path.</li>
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
        return spans(analyzer, field, text, null);
    }

    /**
     * The {@code match_phrase_prefix} query over a graph, as Elasticsearch builds it: without slop the span-near query
     * of {@link #phrase}, whose last stretch ends in span prefix queries ({@code prefix} gives one for a term, or
     * {@code null} when no indexed term starts with it); with a slop a {@code should} of one phrase prefix per path
     * through the graph ({@code pathQuery} builds it from the path's terms and positions).
     */
    static Query phrasePrefix(Analyzer analyzer, String field, String text, int slop,
                              java.util.function.Function<Term, SpanQuery> prefix,
                              java.util.function.Function<List<Map.Entry<String, Integer>>, Query> pathQuery) {
        if (slop <= 0) {
            return spans(analyzer, field, text, prefix);
        }
        try (TokenStream source = analyzer.tokenStream(field, text)) {
            GraphTokenStreamFiniteStrings graph = new GraphTokenStreamFiniteStrings(source);
            BooleanQuery.Builder any = new BooleanQuery.Builder();
            Iterator<TokenStream> it = graph.getFiniteStrings();
            int paths = 0;
            while (it.hasNext()) {
                TokenStream path = it.next();
                TermToBytesRefAttribute termAtt = path.getAttribute(TermToBytesRefAttribute.class);
                PositionIncrementAttribute posInc = path.getAttribute(PositionIncrementAttribute.class);
                List<Map.Entry<String, Integer>> terms = new ArrayList<>();
                int position = -1;
                while (path.incrementToken()) {
                    position += posInc.getPositionIncrement();
                    terms.add(Map.entry(termAtt.getBytesRef().utf8ToString(), position));
                }
                if (!terms.isEmpty()) {
                    any.add(pathQuery.apply(terms), Occur.SHOULD);
                    paths++;
                }
            }
            return paths == 0 ? new MatchNoDocsQuery() : any.build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The span-near query over the graph's stretches; with {@code prefix}, the last stretch ends in prefixes. */
    private static Query spans(Analyzer analyzer, String field, String text,
                               java.util.function.Function<Term, SpanQuery> prefix) {
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
                java.util.function.Function<Term, SpanQuery> last = end == -1 ? prefix : null;
                SpanQuery atPosition;
                if (graph.hasSidePath(start)) {
                    List<SpanQuery> paths = new ArrayList<>();
                    Iterator<TokenStream> it = graph.getFiniteStrings(start, end);
                    boolean anyPath = false;
                    while (it.hasNext()) {
                        PathQuery path = path(it.next(), field, last);
                        anyPath |= path.terms();
                        if (path.query() != null) {
                            paths.add(path.query());
                        }
                    }
                    if (anyPath && paths.isEmpty()) {
                        // no indexed term starts with any path's last term
                        return new MatchNoDocsQuery();
                    }
                    atPosition = paths.isEmpty() ? null : new SpanOrQuery(paths.toArray(new SpanQuery[0]));
                } else {
                    Term[] terms = graph.getTerms(field, start);
                    List<SpanQuery> any = new ArrayList<>();
                    for (Term t : terms) {
                        SpanQuery q = last == null ? new SpanTermQuery(t) : last.apply(t);
                        if (q != null) {
                            any.add(q);
                        }
                    }
                    if (any.isEmpty()) {
                        return new MatchNoDocsQuery();
                    }
                    atPosition = any.size() == 1 ? any.get(0) : new SpanOrQuery(any.toArray(new SpanQuery[0]));
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

    /** A path's span query ({@code null} when its last prefix matches nothing) and whether it had terms. */
    private record PathQuery(SpanQuery query, boolean terms) {
    }

    /**
     * One path through a branching stretch: its terms in order (gaps kept), or its single term; with {@code prefix}
     * its last term a prefix.
     */
    private static PathQuery path(TokenStream in, String field, java.util.function.Function<Term, SpanQuery> prefix)
            throws IOException {
        TermToBytesRefAttribute termAtt = in.getAttribute(TermToBytesRefAttribute.class);
        PositionIncrementAttribute posInc = in.getAttribute(PositionIncrementAttribute.class);
        if (termAtt == null) {
            return new PathQuery(null, false);
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
        if (last == null) {
            return new PathQuery(null, false);
        }
        SpanQuery end = prefix == null ? new SpanTermQuery(last) : prefix.apply(last);
        if (end == null) {
            return new PathQuery(null, true);
        }
        builder.addClause(end);
        SpanNearQuery query = builder.build();
        SpanQuery[] clauses = query.getClauses();
        return new PathQuery(clauses.length == 1 ? clauses[0] : query, true);
    }
}
