package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.search.HighlightSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Supplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.memory.MemoryIndex;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MultiPhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.uhighlight.CustomSeparatorBreakIterator;
import org.apache.lucene.search.uhighlight.FieldHighlighter;
import org.apache.lucene.search.uhighlight.FieldOffsetStrategy;
import org.apache.lucene.search.uhighlight.Passage;
import org.apache.lucene.search.uhighlight.PassageFormatter;
import org.apache.lucene.search.uhighlight.PassageScorer;
import org.apache.lucene.search.uhighlight.UnifiedHighlighter;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * Search highlighting as Elasticsearch 8.15's default (unified) highlighter renders it, for text and keyword fields
 * whose values are taken from {@code _source} and analysed again (text: the field's index analyzer; keyword: the whole
 * value is one term, and each matching value is one fragment, whole, as ES does for fields that are not tokenized) (Lucene's {@link UnifiedHighlighter}
 * with offsets from analysis; the index keeps no offsets or term vectors). The rules:
 *
 * <ul>
 *   <li>the terms are those of the search's {@code query} (not {@code post_filter}, not kNN) on that field, where
 *       the query matches the hit's whole document through them (Lucene's weight matches over the document indexed
 *       in memory, as ES 8.15 matches over the shard); a phrase highlights only its occurrences, as one
 *       {@code <em>…</em>}; prefix, wildcard, regexp and fuzzy queries highlight the matching terms;
 *       {@code require_field_match: false}: the query's terms on any field, wherever they occur (a phrase prefix's
 *       expansions too);</li>
 *   <li>the values of the field (a multi-field: its parent's values) are joined with a separator no fragment
 *       crosses, so each value of a multi-valued field is highlighted apart;</li>
 *   <li>fragments are sentences ({@code BreakIterator} of the root locale) bounded by {@code fragment_size}
 *       ({@link BoundedSentenceBreakIterator}); with {@code number_of_fragments: 0}, each matching value whole;</li>
 *   <li>the best {@code number_of_fragments} passages are kept (Lucene's BM25-like passage score), then ordered by
 *       position ({@code order: none}, the default) or by score ({@code order: score}); each fragment is trimmed,
 *       and empty ones are dropped;</li>
 *   <li>a field without a match gives nothing, unless {@code no_match_size} &gt; 0: then the start of its first value,
 *       to the first word boundary after {@code no_match_size} characters;</li>
 *   <li>only the first pre/post tag is used; {@code encoder: html} escapes the text around the tags.</li>
 * </ul>
 */
public final class LuceneHighlighter {
    private static final char SEPARATOR = (char) 0;

    private final HighlightSpec spec;
    private final Mappings mappings;
    private final Query query;
    /** {@link #looseQuery()}, built on first use. */
    private Query loose;
    private static final Analyzer KEYWORD = new WholeValueAnalyzer();
    private static final DocumentVersion NO_VERSION = new DocumentVersion(0, 0, 0);

    /** Mapped text and keyword fields (full path → where the values are in _source), in path order. */
    private final Map<String, Highlightable> fields = new LinkedHashMap<>();

    /** A field that can be highlighted: the path of its values in {@code _source}; keyword: not tokenized. */
    private record Highlightable(String sourcePath, boolean keyword) {
    }

    /** The index's analyzers, per field. */
    private final Analyzer analyzer;

    public LuceneHighlighter(HighlightSpec spec, Mappings mappings, Query query) {
        this(spec, mappings, query, new IndexAnalyzer());
    }

    /** Highlighting with the index's analyzers: offsets come from each field's own analysis. */
    public LuceneHighlighter(HighlightSpec spec, io.qdrant.esgateway.domain.index.IndexMetadata index, Query query) {
        this(spec, index.mappings(), query, new IndexAnalyzer(index));
    }

    private LuceneHighlighter(HighlightSpec spec, Mappings mappings, Query query, Analyzer analyzer) {
        this.spec = spec;
        this.analyzer = analyzer;
        this.mappings = mappings;
        this.query = query;
        collectFields("", mappings.properties());
    }

    private void collectFields(String prefix, SortedMap<String, FieldMapping> properties) {
        for (Map.Entry<String, FieldMapping> e : properties.entrySet()) {
            String path = prefix + e.getKey();
            switch (e.getValue()) {
                case FieldMapping.ObjectField o -> collectFields(path + ".", o.properties());
                case FieldMapping.TextField t -> {
                    fields.put(path, new Highlightable(path, false));
                    collectMultiFields(path, t.fields());
                }
                case FieldMapping.KeywordField k -> {
                    fields.put(path, new Highlightable(path, true));
                    collectMultiFields(path, k.fields());
                }
                default -> {
                }
            }
        }
    }

    /** Multi-fields take their values from the parent's place in {@code _source}. */
    private void collectMultiFields(String path, SortedMap<String, FieldMapping> subFields) {
        for (Map.Entry<String, FieldMapping> e : subFields.entrySet()) {
            switch (e.getValue()) {
                case FieldMapping.TextField t -> fields.put(path + "." + e.getKey(), new Highlightable(path, false));
                case FieldMapping.KeywordField k -> fields.put(path + "." + e.getKey(), new Highlightable(path, true));
                default -> {
                }
            }
        }
    }

    /**
     * The fragments of one document, computed when the map is first read (hits of other pages never are). Needs no
     * index reader: the values come from the source and the query is matched against the document in memory.
     */
    public Map<String, List<String>> lazily(String id, JsonObject source) {
        return new java.util.AbstractMap<>() {
            private Map<String, List<String>> computed;

            @Override
            public java.util.Set<Map.Entry<String, List<String>>> entrySet() {
                if (computed == null) {
                    computed = highlight(id, source);
                }
                return computed.entrySet();
            }
        };
    }

    /** The highlighted fragments of one document, per field with fragments, in request order. */
    public Map<String, List<String>> highlight(String id, JsonObject source) {
        Map<String, List<String>> result = new LinkedHashMap<>();
        IndexSearcher[] document = new IndexSearcher[1];
        for (HighlightSpec.FieldSpec requested : spec.fields()) {
            for (Map.Entry<String, Highlightable> field : fields.entrySet()) {
                if (!requested.matches(field.getKey()) || result.containsKey(field.getKey())) {
                    continue;
                }
                List<String> values = new ArrayList<>();
                collectValues(source, field.getValue().sourcePath(), values);
                if (values.isEmpty()) {
                    continue;
                }
                List<String> fragments = highlightField(field.getKey(), field.getValue().keyword(), values,
                        requested.options(), () -> {
                            if (document[0] == null) {
                                document[0] = documentSearcher(id, source);
                            }
                            return document[0];
                        });
                if (!fragments.isEmpty()) {
                    result.put(field.getKey(), fragments);
                }
            }
        }
        return result;
    }

    /**
     * The document as the store indexes it, alone in an in-memory index. A phrase or term is highlighted only where
     * the query matches the document (Lucene's weight matches): clauses on other fields (a {@code filter} on a keyword,
     * a {@code range}, {@code ids}, {@code exists}) are evaluated against the document's own values, as Elasticsearch
     * evaluates them against the shard's index, so a required clause on another field neither removes nor adds
     * highlights that Elasticsearch would not.
     */
    private IndexSearcher documentSearcher(String id, JsonObject source) {
        List<IndexedValue> values = DocumentParser.parse(mappings, source, id).values().stream()
                .filter(v -> !(v instanceof IndexedValue.Vector)).toList();
        Document encoded = FieldEncoding.encode(mappings, id, NO_VERSION, new byte[0], values);
        List<IndexableField> indexed = new ArrayList<>();
        for (IndexableField f : encoded) {
            if (f.fieldType().indexOptions() != IndexOptions.NONE || f.fieldType().docValuesType() != DocValuesType.NONE
                    || f.fieldType().pointDimensionCount() > 0) {
                indexed.add(f);
            }
        }
        IndexSearcher searcher = MemoryIndex.fromDocument(indexed, analyzer).createSearcher();
        searcher.setQueryCache(null);
        return searcher;
    }

    private List<String> highlightField(String field, boolean keyword, List<String> values,
                                        HighlightSpec.Options options, Supplier<IndexSearcher> document) {
        String content = String.join(String.valueOf(SEPARATOR), values);
        boolean whole = keyword || options.numberOfFragments() == 0;
        // a keyword's values are whole fragments, still at most number_of_fragments of them (the best-scoring)
        int maxPassages = options.numberOfFragments() == 0 ? values.size() : options.numberOfFragments();
        if (maxPassages <= 0) {
            return List.of();
        }
        BreakIterator breakIterator = whole ? new CustomSeparatorBreakIterator(SEPARATOR)
                : options.fragmentSize() > 0 ? new BoundedSentenceBreakIterator(options.fragmentSize())
                : BreakIterator.getSentenceInstance(Locale.ROOT);
        Formatter formatter = new Formatter(options);
        Analyzer analyzer = keyword ? KEYWORD : this.analyzer;
        // require_field_match (weight matches): the query is matched against the whole document; otherwise its terms
        // are highlighted wherever they occur, whatever the rest of the query
        UnifiedHighlighter.Builder builder = (options.requireFieldMatch()
                ? UnifiedHighlighter.builder(document.get(), analyzer)
                : UnifiedHighlighter.builderWithoutSearcher(analyzer).withFieldMatcher(name -> true)
                        .withWeightMatches(false))
                .withBreakIterator(() -> breakIterator)
                .withFormatter(formatter)
                .withMaxLength(Integer.MAX_VALUE - 1)
                .withMaxNoHighlightPassages(options.noMatchSize() > 0 ? 1 : 0);
        NoMatchAwareHighlighter highlighter = new NoMatchAwareHighlighter(builder, content, options.noMatchSize());
        Object formatted;
        try {
            formatted = options.requireFieldMatch()
                    ? highlighter.highlightFieldsAsObjects(new String[] {field}, query, new int[] {0},
                            new int[] {maxPassages}).get(field)[0]
                    : highlighter.highlightWithoutSearcher(field, looseQuery(), content, maxPassages);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!(formatted instanceof List<?> list)) {
            return List.of();
        }
        @SuppressWarnings("unchecked")
        List<Snippet> snippets = new ArrayList<>((List<Snippet>) list);
        if (options.scoreOrder()) {
            snippets.sort(Comparator.comparingDouble(Snippet::score).reversed());
        }
        return snippets.stream().map(Snippet::text).toList();
    }

    /**
     * The query as highlighted without {@code require_field_match} (by its terms, not by where it matches): a phrase
     * prefix's expansions are highlighted wherever they occur, its other terms only where the phrase matches, as
     * Elasticsearch highlights its phrase prefix query (the prefix as an automaton beside the phrase).
     */
    private Query looseQuery() {
        if (loose == null) {
            List<Term> expansions = new ArrayList<>();
            query.visit(new QueryVisitor() {
                @Override
                public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
                    return occur == BooleanClause.Occur.MUST_NOT ? QueryVisitor.EMPTY_VISITOR : this;
                }

                @Override
                public void consumeTerms(Query q, Term... terms) {
                    if (q instanceof MultiPhraseQuery phrase) {
                        Term[][] positions = phrase.getTermArrays();
                        if (positions.length > 1 && java.util.Arrays.asList(positions[positions.length - 1])
                                .containsAll(java.util.Arrays.asList(terms))) {
                            expansions.addAll(java.util.Arrays.asList(terms));
                        }
                    }
                }
            });
            if (expansions.isEmpty()) {
                loose = query;
            } else {
                BooleanQuery.Builder b = new BooleanQuery.Builder().add(query, BooleanClause.Occur.SHOULD);
                expansions.stream().distinct().forEach(t -> b.add(new TermQuery(t), BooleanClause.Occur.SHOULD));
                loose = b.build();
            }
        }
        return loose;
    }

    /** The values at a dotted path of the source (through objects, arrays and dotted keys), as text. */
    static void collectValues(JsonValue node, String path, List<String> out) {
        if (node instanceof JsonArray a) {
            for (JsonValue element : a.elements()) {
                collectValues(element, path, out);
            }
            return;
        }
        if (path.isEmpty()) {
            switch (node) {
                case JsonString s -> out.add(s.value());
                case JsonNumber n -> out.add(n.value().toString());
                case JsonBool b -> out.add(Boolean.toString(b.value()));
                default -> {
                }
            }
            return;
        }
        if (!(node instanceof JsonObject o)) {
            return;
        }
        int dot = -1;
        do {
            dot = path.indexOf('.', dot + 1);
            String key = dot < 0 ? path : path.substring(0, dot);
            JsonValue child = o.members().get(key);
            if (child != null) {
                collectValues(child, dot < 0 ? "" : path.substring(dot + 1), out);
            }
        } while (dot >= 0);
    }

    private record Snippet(String text, float score) {
    }

    /** ES's passage formatter: the first tags around each match, overlapping matches merged, trimmed. */
    private static final class Formatter extends PassageFormatter {
        private final HighlightSpec.Options options;

        Formatter(HighlightSpec.Options options) {
            this.options = options;
        }

        @Override
        public Object format(Passage[] passages, String content) {
            List<Snippet> snippets = new ArrayList<>();
            for (Passage passage : passages) {
                StringBuilder sb = new StringBuilder();
                int pos = passage.getStartOffset();
                int[] starts = passage.getMatchStarts();
                int[] ends = passage.getMatchEnds();
                for (int i = 0; i < passage.getNumMatches(); i++) {
                    int start = starts[i];
                    if (start < pos) {
                        continue;
                    }
                    int end = ends[i];
                    while (i + 1 < passage.getNumMatches() && starts[i + 1] < end) {
                        end = Math.max(end, ends[++i]);
                    }
                    append(sb, content, pos, start);
                    sb.append(options.preTag());
                    append(sb, content, start, end);
                    sb.append(options.postTag());
                    pos = end;
                }
                append(sb, content, pos, Math.max(pos, passage.getEndOffset()));
                while (!sb.isEmpty() && sb.charAt(sb.length() - 1) == SEPARATOR) {
                    sb.setLength(sb.length() - 1);
                }
                // the no_match_size summary of number_of_fragments 0 keeps the white space it ends with, as in ES
                boolean untrimmed = passage.getNumMatches() == 0 && Float.isNaN(passage.getScore())
                        && options.numberOfFragments() == 0;
                String text = untrimmed ? sb.toString() : sb.toString().trim();
                if (!text.isEmpty()) {
                    snippets.add(new Snippet(text, passage.getScore()));
                }
            }
            return snippets;
        }

        private void append(StringBuilder sb, String content, int from, int to) {
            String part = content.substring(from, Math.min(to, content.length()));
            if (!options.htmlEncode()) {
                sb.append(part);
                return;
            }
            for (int i = 0; i < part.length(); i++) {
                char c = part.charAt(i);
                switch (c) {
                    case '"' -> sb.append("&quot;");
                    case '&' -> sb.append("&amp;");
                    case '<' -> sb.append("&lt;");
                    case '>' -> sb.append("&gt;");
                    case '\'' -> sb.append("&#x27;");
                    case '/' -> sb.append("&#x2F;");
                    default -> sb.append(c);
                }
            }
        }
    }

    /** Replaces Lucene's "first sentences" summary by ES's {@code no_match_size} summary. */
    private static final class NoMatchAwareHighlighter extends UnifiedHighlighter {
        private final String content;
        private final int noMatchSize;

        NoMatchAwareHighlighter(UnifiedHighlighter.Builder builder, String content, int noMatchSize) {
            super(builder);
            this.content = content;
            this.noMatchSize = noMatchSize;
        }

        /** The values are re-analysed from the source: the in-memory document has no offsets. */
        @Override
        protected OffsetSource getOffsetSource(String field) {
            return OffsetSource.ANALYSIS;
        }

        /** The joined values from the source (the in-memory document stores none). */
        @Override
        protected List<CharSequence[]> loadFieldValues(String[] fieldNames, DocIdSetIterator docIter,
                                                       int cacheCharsThreshold) throws IOException {
            List<CharSequence[]> out = new ArrayList<>();
            while (docIter.nextDoc() != DocIdSetIterator.NO_MORE_DOCS) {
                out.add(new CharSequence[] {content});
            }
            return out;
        }

        /** Visible to the enclosing highlighter. */
        @Override
        protected Map<String, Object[]> highlightFieldsAsObjects(String[] fieldsIn, Query query, int[] docIdsIn,
                                                                 int[] maxPassagesIn) throws IOException {
            return super.highlightFieldsAsObjects(fieldsIn, query, docIdsIn, maxPassagesIn);
        }

        @Override
        protected FieldHighlighter newFieldHighlighter(String field, FieldOffsetStrategy fieldOffsetStrategy,
                                                       BreakIterator breakIterator, PassageScorer passageScorer,
                                                       int maxPassages, int maxNoHighlightPassages,
                                                       PassageFormatter passageFormatter,
                                                       Comparator<Passage> passageSortComparator) {
            return new FieldHighlighter(field, fieldOffsetStrategy, breakIterator, passageScorer, maxPassages,
                    maxNoHighlightPassages, passageFormatter, passageSortComparator) {
                @Override
                protected Passage[] getSummaryPassagesNoHighlight(int max) {
                    return noMatchSummary();
                }
            };
        }

        private Passage[] noMatchSummary() {
            if (noMatchSize <= 0) {
                return new Passage[0];
            }
            int pos = 0;
            while (pos < content.length() && content.charAt(pos) == SEPARATOR) {
                pos++;
            }
            if (pos >= content.length()) {
                return new Passage[0];
            }
            int end = content.indexOf(SEPARATOR, pos);
            if (end < 0) {
                end = content.length();
            }
            if (noMatchSize + pos < end) {
                BreakIterator words = BreakIterator.getWordInstance(Locale.ROOT);
                words.setText(content);
                end = words.following(noMatchSize + pos);
                if (end == BreakIterator.DONE) {
                    end = content.length();
                }
            }
            Passage passage = new Passage();
            passage.setScore(Float.NaN);
            passage.setStartOffset(pos);
            passage.setEndOffset(end);
            return new Passage[] {passage};
        }
    }

    /** The keyword field's analysis: the whole value as one term (Lucene's keyword analyzer is not on the path). */
    private static final class WholeValueAnalyzer extends Analyzer {
        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            return new TokenStreamComponents(new WholeValueTokenizer());
        }
    }

    private static final class WholeValueTokenizer extends Tokenizer {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
        private boolean done;
        private int length;

        @Override
        public boolean incrementToken() throws IOException {
            if (done) {
                return false;
            }
            clearAttributes();
            done = true;
            char[] buffer = new char[256];
            int read;
            while ((read = input.read(buffer)) > 0) {
                term.append(new String(buffer, 0, read));
            }
            length = term.length();
            if (length == 0) {
                return false;
            }
            offset.setOffset(correctOffset(0), correctOffset(length));
            return true;
        }

        @Override
        public void end() throws IOException {
            super.end();
            offset.setOffset(correctOffset(length), correctOffset(length));
        }

        @Override
        public void reset() throws IOException {
            super.reset();
            done = false;
            length = 0;
        }
    }
}
