package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;

/**
 * Counts of conjunctions of terms ({@code category = c AND available = true}: a {@code filters} bucket under a term
 * query), remembered per segment. A segment is immutable and a segment without deletions matches the same documents
 * for the same terms every time, so its count is computed once (by Lucene, visiting the conjunction) and then read;
 * a segment with deletions is always counted. Entries are keyed by the segment's core and the sorted terms, at most
 * {@link #maxEntries} of them (least recently used dropped first; ~100 bytes each), and released when the segment's
 * core closes. Only the cost changes: the count is the one Lucene gives.
 *
 * <p>Why: an uncached {@code filters} count of two terms visits the postings of both in every request (at 1M documents
 * ~0.5M postings of a boolean value), while a faceted listing asks the same few conjunctions again and again
 * (docs/benchmarks/README.md, "Scale").
 */
final class TermConjunctionCounts {
    /** The store's counts: 8,192 entries. */
    static final TermConjunctionCounts SHARED = new TermConjunctionCounts(8_192);

    private record Key(IndexReader.CacheKey core, List<Term> terms) {
    }

    private final int maxEntries;
    private final LinkedHashMap<Key, Long> counts = new LinkedHashMap<>(64, 0.75f, true);
    private final Set<IndexReader.CacheKey> listening = Collections.newSetFromMap(new IdentityHashMap<>());
    private long computed;

    TermConjunctionCounts(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    /**
     * The live documents {@code query} matches when it is a pure conjunction of at least two distinct terms (in
     * {@code MUST}/{@code FILTER} clauses, with {@code match_all}, constant-score and boost wrappers); empty for any
     * other query.
     */
    OptionalLong count(IndexSearcher searcher, Query query) throws IOException {
        Optional<List<Term>> terms = terms(query);
        if (terms.isEmpty()) {
            return OptionalLong.empty();
        }
        // created only for a segment that must be counted: building it looks the terms up in every segment
        Weight weight = null;
        long total = 0;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            IndexReader.CacheHelper helper = leaf.reader().getCoreCacheHelper();
            Key key = leaf.reader().getLiveDocs() != null || helper == null ? null
                    : new Key(helper.getKey(), terms.get());
            Long held = null;
            if (key != null) {
                synchronized (this) {
                    held = counts.get(key);
                }
            }
            if (held == null) {
                if (weight == null) {
                    weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
                }
                held = TermRangePages.countLeaf(weight, leaf);
                if (key != null) {
                    put(key, held, helper);
                }
            }
            total += held;
        }
        return OptionalLong.of(total);
    }

    private void put(Key key, long count, IndexReader.CacheHelper helper) {
        boolean listen;
        synchronized (this) {
            computed++;
            counts.put(key, count);
            Iterator<Key> eldest = counts.keySet().iterator();
            while (counts.size() > maxEntries && eldest.hasNext()) {
                eldest.next();
                eldest.remove();
            }
            listen = listening.add(key.core());
        }
        if (listen) {
            helper.addClosedListener(this::release);
        }
    }

    private synchronized void release(IndexReader.CacheKey core) {
        listening.remove(core);
        counts.keySet().removeIf(k -> k.core() == core);
    }

    /** The distinct terms, sorted, when {@code query} is a pure conjunction of at least two of them. */
    static Optional<List<Term>> terms(Query query) {
        TreeSet<Term> terms = new TreeSet<>();
        if (!collect(query, terms) || terms.size() < 2) {
            return Optional.empty();
        }
        return Optional.of(List.copyOf(new ArrayList<>(terms)));
    }

    private static boolean collect(Query query, Set<Term> terms) {
        return switch (query) {
            // an empty BooleanQuery matches nothing
            case BooleanQuery b -> b.getMinimumNumberShouldMatch() == 0 && !b.clauses().isEmpty()
                    && b.clauses().stream().allMatch(c -> (c.occur() == BooleanClause.Occur.MUST
                    || c.occur() == BooleanClause.Occur.FILTER) && collect(c.query(), terms));
            case ConstantScoreQuery c -> collect(c.getQuery(), terms);
            case BoostQuery b -> collect(b.getQuery(), terms);
            case MatchAllDocsQuery m -> true;
            case TermQuery t -> terms.add(t.getTerm()) || true;
            default -> false;
        };
    }

    /** Counts computed (not read from an entry) so far (tests). */
    synchronized long computed() {
        return computed;
    }

    /** Entries held now (tests). */
    synchronized int size() {
        return counts.size();
    }
}
