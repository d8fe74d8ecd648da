package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.adapter.out.lucene.analysis.IndexAnalyzers;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.ByteBuffersDirectory;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * The {@link RelevanceScorer} on Lucene: the candidates go into a throw-away in-memory index encoded exactly as the
 * embedded store encodes documents ({@link FieldEncoding}, the writer's {@link IndexAnalyzer}), the query is
 * translated by the same {@link QueryTranslator} and scored with the index's similarity ({@link IndexSimilarity}) by a searcher whose
 * collection and term statistics are the caller's whole-index statistics instead of the candidates'. A document's
 * BM25 score depends only on its own term frequencies and norm and on those statistics, so the scores are the ones
 * the embedded store gives the same documents (proven by {@code RelevanceScorerExactnessTest}).
 *
 * <p>Queries whose terms are expanded from the index's term dictionary with a limit (fuzzy queries,
 * {@code match_phrase_prefix} on text) expand against the whole index's dictionary of their fields
 * ({@link Statistics#dictionary}, read through a {@link DictionaryReader}; {@link FuzzyExpansions}), so they choose
 * and weigh the same terms.
 */
public final class LuceneRelevanceScorer implements RelevanceScorer {
    @Override
    public Map<String, FieldTerms> terms(IndexMetadata index, List<IndexedValue> values) {
        IndexAnalyzers analyzers = IndexAnalyzers.of(index);
        Map<String, Set<String>> terms = new TreeMap<>();
        Map<String, Integer> lengths = new HashMap<>();
        for (IndexedValue value : values) {
            switch (value) {
                case IndexedValue.Text t -> {
                    List<String> tokens = tokens(analyzers.indexAnalyzer(index.mappings(), t.field()), t.field(),
                            t.value());
                    if (!tokens.isEmpty()) {
                        terms.computeIfAbsent(t.field(), f -> new LinkedHashSet<>()).addAll(tokens);
                        lengths.merge(t.field(), tokens.size(), Integer::sum);
                    }
                    hiddenTerms(index, analyzers, t, terms, lengths);
                }
                case IndexedValue.Keyword k -> terms.computeIfAbsent(k.field(), f -> new LinkedHashSet<>())
                        .add(k.value());
                case IndexedValue.BooleanValue b -> terms.computeIfAbsent(b.field(), f -> new LinkedHashSet<>())
                        .add(Boolean.toString(b.value()));
                case IndexedValue.LongValue l -> {
                }
                case IndexedValue.DoubleValue d -> {
                }
                case IndexedValue.FloatValue f -> {
                }
                case IndexedValue.DateValue d -> {
                }
                case IndexedValue.Vector v -> {
                }
            }
        }
        Map<String, FieldTerms> out = new LinkedHashMap<>();
        // keyword and boolean fields index no frequencies: their length is the number of distinct terms
        terms.forEach((field, set) -> out.put(field, new FieldTerms(set, lengths.getOrDefault(field, set.size()))));
        return out;
    }

    /**
     * The tokens of a text value's hidden fields ({@code index_phrases} shingles, {@code index_prefixes} prefixes),
     * under {@code <field>._index_phrase} and {@code <field>._index_prefix}, as the store indexes them.
     */
    private static void hiddenTerms(IndexMetadata index, IndexAnalyzers analyzers, IndexedValue.Text t,
                                    Map<String, Set<String>> terms, Map<String, Integer> lengths) {
        if (!(index.mappings().field(t.field()).orElse(null) instanceof FieldMapping.TextField m)
                || m.text() == io.qdrant.esgateway.domain.index.TextOptions.DEFAULT) {
            return;
        }
        List<String> hidden = new ArrayList<>(2);
        if (m.text().indexPhrases()) {
            hidden.add(t.field() + io.qdrant.esgateway.domain.index.TextOptions.PHRASE_SUFFIX);
        }
        if (m.text().indexPrefixes().isPresent()) {
            hidden.add(t.field() + io.qdrant.esgateway.domain.index.TextOptions.PREFIX_SUFFIX);
        }
        for (String field : hidden) {
            List<String> tokens = tokens(analyzers.indexAnalyzer(index.mappings(), field), field, t.value());
            if (!tokens.isEmpty()) {
                terms.computeIfAbsent(field, f -> new LinkedHashSet<>()).addAll(tokens);
                lengths.merge(field, tokens.size(), Integer::sum);
            }
        }
    }

    @Override
    public List<String> analyze(IndexMetadata index, String field, String text) {
        Analyzer analyzer = IndexAnalyzers.of(index).searchAnalyzer(index.mappings(), field);
        return List.copyOf(new LinkedHashSet<>(tokens(analyzer, field, text)));
    }

    @Override
    public java.util.Optional<List<List<String>>> tokenGroups(IndexMetadata index, String field, String text,
                                                          java.util.Optional<String> analyzer, boolean quote) {
        IndexAnalyzers analyzers = IndexAnalyzers.of(index);
        Analyzer chosen = analyzer.isPresent() ? analyzers.named(analyzer.get())
                : quote ? analyzers.searchQuoteAnalyzer(index.mappings(), field)
                : analyzers.searchAnalyzer(index.mappings(), field);
        List<List<String>> groups = new ArrayList<>();
        try (TokenStream stream = chosen.tokenStream(field, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute inc = stream.addAttribute(
                    org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute.class);
            org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute length = stream.addAttribute(
                    org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute.class);
            stream.reset();
            boolean graph = false;
            while (stream.incrementToken()) {
                graph |= length.getPositionLength() > 1;
                if (inc.getPositionIncrement() == 0 && !groups.isEmpty()) {
                    groups.get(groups.size() - 1).add(term.toString());
                } else {
                    List<String> group = new ArrayList<>();
                    group.add(term.toString());
                    groups.add(group);
                }
            }
            stream.end();
            return graph ? java.util.Optional.empty() : java.util.Optional.of(groups);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tokens of one value as {@code analyzer} gives them (the writer's, for a {@code TextField}). */
    static List<String> tokens(Analyzer analyzer, String field, String text) {
        List<String> tokens = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                tokens.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tokens;
    }

    @Override
    public void validate(IndexMetadata index, Query query) {
        refuseExpansions(query);
        try (MultiReader empty = new MultiReader()) {
            new QueryTranslator(index, empty, () -> 0L).translate(query);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (org.apache.lucene.search.IndexSearcher.TooManyClauses e) {
            throw tooManyClauses();
        }
    }

    /** The request's query is too large, not the index: a 400, as the embedded store answers it. */
    static io.qdrant.esgateway.domain.error.GatewayException tooManyClauses() {
        return io.qdrant.esgateway.domain.error.GatewayException.illegalArgument("Query contains too many nested"
                + " clauses; maxClauseCount is set to " + org.apache.lucene.search.IndexSearcher.getMaxClauseCount());
    }

    @Override
    public java.util.function.BiFunction<String, JsonObject, Map<String, List<String>>> highlighter(
            IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request) {
        if (request.highlight().isEmpty()) {
            return (id, source) -> Map.of();
        }
        Set<String> expanded = new java.util.TreeSet<>();
        request.query().ifPresent(q -> expandedFields(q, expanded));
        if (!expanded.isEmpty()) {
            // the highlighter sees one document, not the index's term dictionary the expansions choose from
            throw GatewayException.unsupported("[highlight] of fuzzy and phrase-prefix queries scored by the gateway");
        }
        org.apache.lucene.search.Query query;
        try (MultiReader empty = new MultiReader()) {
            QueryTranslator translator = new QueryTranslator(index, empty, LuceneSearch.now());
            query = request.query().map(translator::translate)
                    .orElseGet(org.apache.lucene.search.MatchAllDocsQuery::new);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LuceneHighlighter highlighter = new LuceneHighlighter(request.highlight().get(), index, query);
        return highlighter::lazily;
    }

    @Override
    public Needed statisticsOf(IndexMetadata index, Query query) {
        refuseExpansions(query);
        org.apache.lucene.search.Query lucene;
        try (MultiReader empty = new MultiReader()) {
            lucene = new QueryTranslator(index, empty, () -> 0L).translate(query);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (org.apache.lucene.search.IndexSearcher.TooManyClauses e) {
            throw tooManyClauses();
        }
        Map<String, Set<String>> terms = new TreeMap<>();
        lucene.visit(new org.apache.lucene.search.QueryVisitor() {
            @Override
            public void consumeTerms(org.apache.lucene.search.Query q, Term... found) {
                for (Term t : found) {
                    String text = t.text();
                    if (index.mappings().field(t.field()).orElse(null) instanceof FieldMapping.BooleanField) {
                        text = text.equals(FieldEncoding.TRUE) ? "true" : "false";
                    }
                    terms.computeIfAbsent(t.field(), f -> new java.util.TreeSet<>()).add(text);
                }
            }

            @Override
            public org.apache.lucene.search.QueryVisitor getSubVisitor(Occur occur,
                                                                        org.apache.lucene.search.Query parent) {
                // terms under must_not and filter clauses are matched, not scored
                return occur == Occur.MUST_NOT || occur == Occur.FILTER ? EMPTY_VISITOR : this;
            }
        });
        terms.keySet().removeIf(f -> f.equals(FieldEncoding.ID) || f.equals(FieldEncoding.FIELD_NAMES));
        return new Needed(terms.keySet(), terms);
    }

    @Override
    public List<Scored> score(IndexMetadata index, Query query, List<Query> filters, List<Candidate> candidates,
                              Statistics statistics, boolean scores, long now) {
        refuseExpansions(query);
        filters.forEach(LuceneRelevanceScorer::refuseExpansions);
        if (candidates.isEmpty()) {
            validate(index, query);
            filters.forEach(f -> validate(index, f));
            return List.of();
        }
        Set<String> expanded = new java.util.TreeSet<>();
        expandedFields(query, expanded);
        filters.forEach(f -> expandedFields(f, expanded));
        expanded.removeIf(f -> !(index.mappings().field(f).orElse(null) instanceof FieldMapping.TextField
                || index.mappings().field(f).orElse(null) instanceof FieldMapping.KeywordField));
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig(new IndexAnalyzer(index))
                    .setMergePolicy(NoMergePolicy.INSTANCE);
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                DocumentVersion none = new DocumentVersion(0, 0, 0);
                // vectors only for scripts (their vector functions read them)
                boolean vectors = scripted(query) || filters.stream().anyMatch(LuceneRelevanceScorer::scripted);
                for (Candidate c : candidates) {
                    List<IndexedValue> values = vectors ? c.values() : c.values().stream()
                            .filter(v -> !(v instanceof IndexedValue.Vector)).toList();
                    Document d = FieldEncoding.encode(index.mappings(),
                            new IndexableDocument(c.id(), none, JsonObject.of(), values));
                    writer.addDocument(d);
                }
            }
            Map<String, Map<String, Long>> dictionaries = new HashMap<>();
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                GlobalStatisticsSearcher searcher = new GlobalStatisticsSearcher(reader, index, statistics);
                searcher.setSimilarity(IndexSimilarity.of(index));
                searcher.setQueryCache(null);
                // expansions (phrase prefixes in the translator, fuzzy terms below) see the whole index's dictionary
                DirectoryReader dictionary = expanded.isEmpty() ? reader : DictionaryReader.of(
                        f -> !expanded.contains(f) ? null : dictionaries.computeIfAbsent(f, statistics::dictionary));
                IndexSearcher expanding = new IndexSearcher(dictionary);
                expanding.setQueryCache(null);
                QueryTranslator translator = new QueryTranslator(index, dictionary, () -> now);
                Map<Integer, Float> matched = run(searcher, reader, expanded.isEmpty() ? translator.translate(query)
                        : FuzzyExpansions.expand(translator.translate(query), expanding, searcher), scores);
                for (Query filter : filters) {
                    org.apache.lucene.search.Query lucene = translator.translate(filter);
                    Set<Integer> keep = run(searcher, reader, expanded.isEmpty() ? lucene
                            : FuzzyExpansions.expand(lucene, expanding, searcher), false).keySet();
                    matched.keySet().retainAll(keep);
                }
                List<Scored> out = new ArrayList<>(matched.size());
                StoredFields stored = null;
                int base = -1;
                List<LeafReaderContext> leaves = reader.leaves();
                for (Map.Entry<Integer, Float> e : new TreeMap<>(matched).entrySet()) {
                    int doc = e.getKey();
                    LeafReaderContext leaf = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(doc, leaves));
                    if (leaf.docBase != base) {
                        base = leaf.docBase;
                        stored = leaf.reader().storedFields();
                    }
                    String id = stored.document(doc - base, Set.of(FieldEncoding.ID)).get(FieldEncoding.ID);
                    out.add(new Scored(id, e.getValue()));
                }
                return out;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (org.apache.lucene.search.IndexSearcher.TooManyClauses e) {
            throw tooManyClauses();
        }
    }

    /** Every match of {@code query}: global doc id → score (NaN without scores). */
    private static Map<Integer, Float> run(IndexSearcher searcher, DirectoryReader reader,
                                           org.apache.lucene.search.Query query, boolean scores) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(query),
                scores ? ScoreMode.COMPLETE : ScoreMode.COMPLETE_NO_SCORES, 1f);
        Map<Integer, Float> out = new HashMap<>();
        for (LeafReaderContext leaf : reader.leaves()) {
            Scorer scorer = weight.scorer(leaf);
            if (scorer == null) {
                continue;
            }
            DocIdSetIterator it = scorer.iterator();
            for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                out.put(leaf.docBase + doc, scores ? scorer.score() : Float.NaN);
            }
        }
        return out;
    }

    /** Refuses what cannot be scored from candidates ({@link #expandedFields} says which expansions can). */
    static void refuseExpansions(Query query) {
        expandedFields(query, new java.util.TreeSet<>());
    }

    /**
     * Adds to {@code out} the fields whose terms {@code query} expands from the index's term dictionary up to a
     * limit (fuzzy queries, {@code fuzziness}, phrase prefixes): scored over the candidates with the whole index's
     * dictionary of those fields ({@link DictionaryReader}), they expand as over the whole index. Field patterns
     * among them (and kNN) are refused.
     */
    static void expandedFields(Query query, Set<String> out) {
        switch (query) {
            case Query.Fuzzy f -> expanded(f.field(), "the [fuzzy] query", out);
            case Query.Match m when m.fuzziness().isPresent() -> expanded(m.field(), "[fuzziness] in a [match] query",
                    out);
            case Query.MultiMatch m when m.fuzziness().isPresent() || m.type() == Query.MultiMatchType.PHRASE_PREFIX -> {
                String what = m.fuzziness().isPresent() ? "[fuzziness] in a [multi_match] query"
                        : "[multi_match] of type [phrase_prefix]";
                if (m.fields().isEmpty()) {
                    throw expansion(what + " without fields");
                }
                m.fields().forEach(f -> expanded(f.field(), what, out));
            }
            case Query.MatchPhrasePrefix m -> expanded(m.field(), "the [match_phrase_prefix] query", out);
            case Query.QueryString s -> expandedFields(io.qdrant.esgateway.domain.query.QueryStringParser.parse(s),
                    out);
            case Query.Bool b -> {
                b.must().forEach(q -> expandedFields(q, out));
                b.filter().forEach(q -> expandedFields(q, out));
                b.should().forEach(q -> expandedFields(q, out));
                b.mustNot().forEach(q -> expandedFields(q, out));
            }
            case Query.ConstantScore c -> expandedFields(c.filter(), out);
            case Query.ScriptScore s -> expandedFields(s.query(), out);
            case Query.FunctionScore f -> {
                expandedFields(f.query(), out);
                f.functions().forEach(fn -> fn.filter().ifPresent(q -> expandedFields(q, out)));
            }
            case Query.Boosting b -> {
                expandedFields(b.positive(), out);
                expandedFields(b.negative(), out);
            }
            case Query.DisMax d -> d.queries().forEach(q -> expandedFields(q, out));
            case Query.Knn k -> throw GatewayException.unsupported("the [knn] query scored by the gateway");
            default -> {
            }
        }
    }

    /** Whether a score script runs somewhere in {@code query}. */
    static boolean scripted(Query query) {
        return switch (query) {
            case Query.ScriptScore s -> true;
            case Query.FunctionScore f -> true;
            case Query.Bool b -> b.must().stream().anyMatch(LuceneRelevanceScorer::scripted)
                    || b.filter().stream().anyMatch(LuceneRelevanceScorer::scripted)
                    || b.should().stream().anyMatch(LuceneRelevanceScorer::scripted)
                    || b.mustNot().stream().anyMatch(LuceneRelevanceScorer::scripted);
            case Query.ConstantScore c -> scripted(c.filter());
            case Query.Boosting b -> scripted(b.positive()) || scripted(b.negative());
            case Query.DisMax d -> d.queries().stream().anyMatch(LuceneRelevanceScorer::scripted);
            default -> false;
        };
    }

    private static void expanded(String field, String what, Set<String> out) {
        if (field.contains("*")) {
            throw expansion(what + " on a field pattern ([" + field + "])");
        }
        out.add(field);
    }

    private static GatewayException expansion(String what) {
        return GatewayException.unsupported(what + " scored by the gateway (its term expansion needs the whole"
                + " index's term dictionary)");
    }

    /** A searcher over the candidates that answers statistics with the whole index's. */
    private static final class GlobalStatisticsSearcher extends IndexSearcher {
        private final IndexMetadata index;
        private final Statistics statistics;
        private final Map<String, CollectionStatistics> fields = new HashMap<>();

        GlobalStatisticsSearcher(DirectoryReader reader, IndexMetadata index, Statistics statistics) {
            super(reader);
            this.index = index;
            this.statistics = statistics;
        }

        @Override
        public CollectionStatistics collectionStatistics(String field) throws IOException {
            if (fields.containsKey(field)) {
                return fields.get(field);
            }
            CollectionStatistics local = super.collectionStatistics(field);
            FieldStatistics global = statistics.field(field);
            CollectionStatistics out;
            if (global.docCount() <= 0) {
                // only when a write raced the statistics: the candidates are part of the index
                out = local;
            } else {
                long docCount = global.docCount();
                long sum = Math.max(global.sumTotalTermFreq(), docCount);
                out = new CollectionStatistics(field, docCount, docCount, sum, docCount);
            }
            fields.put(field, out);
            return out;
        }

        @Override
        public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq) throws IOException {
            if (totalTermFreq >= FuzzyExpansions.BLENDED) {
                // a fuzzy expansion: its blended frequency is already the whole index's
                long df = Math.max(1, docFreq);
                return new TermStatistics(term.bytes(), df, df);
            }
            String text = term.text();
            if (index.mappings().field(term.field()).orElse(null) instanceof FieldMapping.BooleanField) {
                text = text.equals(FieldEncoding.TRUE) ? "true" : "false";
            }
            long global = statistics.docFreq(term.field(), text);
            if (global < 1) {
                // only when a write raced the statistics: a candidate holds the term
                global = Math.max(1, docFreq);
            }
            return new TermStatistics(term.bytes(), global, global);
        }
    }
}
