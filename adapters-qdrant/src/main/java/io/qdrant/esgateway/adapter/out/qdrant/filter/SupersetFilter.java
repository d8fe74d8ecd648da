package io.qdrant.esgateway.adapter.out.qdrant.filter;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Always;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Condition;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Never;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.QueryStringParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.payload.TextPayload;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * A Qdrant filter that selects a SUPERSET of a query's Elasticsearch matches, for queries the gateway matches and
 * scores itself ({@link RelevanceScorer}): the candidates. Subtrees without full-text parts are translated exactly
 * ({@link FilterTranslator}); full-text parts become conditions on the analysed tokens in {@code _t.<field>}
 * ({@link TextPayload}):
 * <ul>
 *   <li>{@code match} (operator {@code or}, any {@code minimum_should_match}) → any of its tokens; operator
 *       {@code and} and {@code match_phrase} → all of them; no tokens → {@code zero_terms_query};</li>
 *   <li>on a keyword field the whole text is one term (exact); on other types, field patterns and default fields
 *       ({@code *}) nothing is narrowed (every point is a candidate);</li>
 *   <li>{@code prefix}/{@code wildcard} on text → a token starting with the (literal) prefix ({@code match.prefix});
 *       on keyword and {@code _id} a value starting with it; {@code regexp}, case-insensitive forms, ranges on
 *       strings and booleans, field patterns → every point; {@code fuzzy} and {@code fuzziness} → a token (value)
 *       sharing the first {@code prefix_length} characters, else every point; {@code match_phrase_prefix} → its
 *       leading tokens and a token starting with the last;</li>
 *   <li>{@code multi_match} and {@code dis_max} → the union of their parts; {@code query_string} → its parsed tree;
 *       {@code term}/{@code terms} on text → the raw values among the tokens;</li>
 *   <li>{@code bool}: {@code must} and {@code filter} parts intersect; {@code should} parts join as
 *       {@code min_should} when required; a {@code must_not} with full-text parts is dropped (a negated superset
 *       would be a subset); {@code boosting} → its positive query; {@code constant_score} → its filter.</li>
 * </ul>
 * Dropping a constraint or widening a condition only adds candidates; the scorer then decides the real matches.
 */
public final class SupersetFilter {
    private final IndexMetadata index;
    private final FilterTranslator exact;
    private final RelevanceScorer scorer;
    /** Inside {@code query_string}: patterns on text fields are lowercased, as its analyzer's normalizer does. */
    private final boolean normalize;

    public SupersetFilter(IndexMetadata index, FilterTranslator exact, RelevanceScorer scorer) {
        this(index, exact, scorer, false);
    }

    private SupersetFilter(IndexMetadata index, FilterTranslator exact, RelevanceScorer scorer, boolean normalize) {
        this.index = index;
        this.exact = exact;
        this.scorer = scorer;
        this.normalize = normalize;
    }

    private String pattern(String pattern) {
        return normalize ? pattern.toLowerCase(java.util.Locale.ROOT) : pattern;
    }

    /**
     * True when the query has parts only the gateway can match exactly: full-text, term-level on text, and what no
     * Qdrant condition expresses (patterns, regular expressions, edit distances, case-insensitive forms, ranges on
     * strings and booleans, field-name patterns).
     */
    public static boolean textual(IndexMetadata index, Query q) {
        return switch (q) {
            case Query.Match m -> true;
            case Query.MatchPhrase m -> true;
            case Query.MatchPhrasePrefix m -> true;
            case Query.MultiMatch m -> true;
            case Query.QueryString s -> true;
            case Query.Term t -> isText(index, t.field()) || t.caseInsensitive() || t.field().contains("*");
            case Query.Terms t -> isText(index, t.field()) || t.field().contains("*");
            case Query.Bool b -> anyTextual(index, b.must()) || anyTextual(index, b.filter())
                    || anyTextual(index, b.should()) || anyTextual(index, b.mustNot());
            case Query.ConstantScore c -> textual(index, c.filter());
            case Query.Boosting b -> textual(index, b.positive()) || textual(index, b.negative());
            case Query.DisMax d -> anyTextual(index, d.queries());
            case Query.MatchAll m -> false;
            case Query.MatchNone m -> false;
            case Query.Range r -> stringRange(index, r.field());
            case Query.Exists e -> e.field().contains("*");
            case Query.Ids i -> false;
            case Query.Prefix p -> isText(index, p.field()) || p.caseInsensitive() || p.field().contains("*");
            // Qdrant has no pattern, regular expression or edit-distance match: the gateway matches them
            case Query.Wildcard w -> true;
            case Query.Regexp r -> true;
            case Query.Fuzzy f -> true;
            case Query.Knn k -> false;
            // scored (and, with min_score, matched) by the gateway's script run
            case Query.ScriptScore s -> true;
            case Query.FunctionScore f -> true;
        };
    }

    /** Whether one of {@code queries} is {@link #textual} (a loop: this runs for every search). */
    private static boolean anyTextual(IndexMetadata index, java.util.List<Query> queries) {
        for (Query q : queries) {
            if (textual(index, q)) {
                return true;
            }
        }
        return false;
    }

    /** A range Qdrant cannot compare: on strings ({@code keyword}, {@code text}, {@code _id}), booleans, patterns. */
    private static boolean stringRange(IndexMetadata index, String field) {
        if (field.contains("*") || field.equals(QdrantLayout.ID)) {
            return true;
        }
        FieldMapping mapping = index.mappings().field(field).orElse(null);
        return mapping instanceof FieldMapping.KeywordField || mapping instanceof FieldMapping.TextField
                || mapping instanceof FieldMapping.BooleanField;
    }

    private static boolean isText(IndexMetadata index, String field) {
        return index.mappings().field(field).orElse(null) instanceof FieldMapping.TextField;
    }

    /** The candidates of {@code q}. */
    public Translated superset(Query q) {
        if (!textual(index, q)) {
            return exact.query(q);
        }
        return switch (q) {
            case Query.Match m -> m.fuzziness().isPresent() ? fuzzyMatch(m)
                    : text(m.field(), m.text(), m.operator() == Query.Operator.AND, m.zeroTermsQuery(), m.analyzer(),
                    false);
            case Query.MatchPhrase m -> text(m.field(), m.text(), true, m.zeroTermsQuery(), m.analyzer(), true);
            case Query.MatchPhrasePrefix m -> phrasePrefix(m);
            case Query.MultiMatch m -> multiMatch(m);
            case Query.QueryString s -> new SupersetFilter(index, exact, scorer, true)
                    .superset(QueryStringParser.parse(s));
            // case-insensitive and field-pattern forms: every point (the gateway matches them)
            case Query.Term t -> {
                if (t.caseInsensitive() || !isText(index, t.field())) {
                    yield new Always();
                }
                yield tokens(t.field(), List.of(text(t.value(), t.field())), false);
            }
            case Query.Terms t -> t.values().isEmpty() ? new Never() : !isText(index, t.field()) ? new Always()
                    : tokens(t.field(), t.values().stream().map(v -> text(v, t.field())).toList(), false);
            case Query.Prefix p -> p.caseInsensitive() ? new Always() : isText(index, p.field())
                    ? tokenPrefix(p.field(), pattern(p.prefix())) : valuePrefix(p.field(), p.prefix());
            case Query.Wildcard w -> w.caseInsensitive() ? new Always() : isText(index, w.field())
                    ? tokenPrefix(w.field(), literalPrefix(pattern(w.pattern())))
                    : normalize ? new Always() : valuePrefix(w.field(), literalPrefix(w.pattern()));
            // a regular expression's literal start is not safe to read off (alternations, groups): every point
            case Query.Regexp r -> new Always();
            // the terms within the edit distance share the first prefix_length characters
            case Query.Fuzzy f -> f.prefixLength() <= 0 || normalize ? new Always()
                    : isText(index, f.field()) ? tokenPrefix(f.field(), head(text(f.value(), f.field()),
                    f.prefixLength())) : valuePrefix(f.field(), head(text(f.value(), f.field()), f.prefixLength()));
            // strings, booleans and field patterns compare in the gateway
            case Query.Range r -> new Always();
            case Query.Exists e -> new Always();
            case Query.Bool b -> bool(b);
            case Query.ConstantScore c -> superset(c.filter());
            case Query.ScriptScore s -> superset(s.query());
            case Query.FunctionScore f -> superset(f.query());
            case Query.Boosting b -> superset(b.positive());
            case Query.DisMax d -> FilterTranslator.or(d.queries().stream().map(this::superset).toList());
            default -> exact.query(q);
        };
    }

    private Translated bool(Query.Bool b) {
        List<Translated> parts = new ArrayList<>();
        b.must().forEach(x -> parts.add(superset(x)));
        b.filter().forEach(x -> parts.add(superset(x)));
        int required = b.requiredShoulds();
        if (required > 0) {
            parts.add(FilterTranslator.atLeast(required, b.should().stream().map(this::superset).toList()));
        }
        for (Query not : b.mustNot()) {
            if (!textual(index, not)) {
                parts.add(FilterTranslator.not(exact.query(not)));
            }
        }
        return FilterTranslator.and(parts);
    }

    /**
     * {@code match} with {@code fuzziness} on a text field: a token sharing the first {@code prefix_length} characters
     * of a query token (every point without a prefix length); on other fields every point.
     */
    private Translated fuzzyMatch(Query.Match m) {
        if (m.prefixLength() <= 0 || !isText(index, m.field())) {
            return new Always();
        }
        Optional<List<List<String>>> groups = scorer.tokenGroups(index, m.field(), m.text(), m.analyzer(), false);
        if (groups.isEmpty()) {
            return new Always();
        }
        if (groups.get().isEmpty()) {
            return m.zeroTermsQuery() == Query.ZeroTermsQuery.ALL ? new Always() : new Never();
        }
        return FilterTranslator.or(groups.get().stream().flatMap(List::stream)
                .map(t -> tokenPrefix(m.field(), head(t, m.prefixLength()))).toList());
    }

    /**
     * {@code match_phrase_prefix}: on a text field, every token but the last (one of each position) and a token
     * starting with the last; on a keyword field the value's prefix; elsewhere every point.
     */
    private Translated phrasePrefix(Query.MatchPhrasePrefix m) {
        if (m.field().contains("*")) {
            return new Always();
        }
        if (m.field().equals(QdrantLayout.ID) || index.mappings().field(m.field()).orElse(null)
                instanceof FieldMapping.KeywordField) {
            return valuePrefix(m.field(), m.text());
        }
        if (!isText(index, m.field())) {
            return index.mappings().field(m.field()).isEmpty() ? new Never() : new Always();
        }
        Optional<List<List<String>>> groups = scorer.tokenGroups(index, m.field(), m.text(), m.analyzer(), true);
        if (groups.isEmpty()) {
            return new Always();
        }
        if (groups.get().isEmpty()) {
            return new Never();
        }
        List<List<String>> all = groups.get();
        List<Translated> parts = new ArrayList<>();
        for (int i = 0; i < all.size() - 1; i++) {
            parts.add(tokens(m.field(), all.get(i), false));
        }
        parts.add(FilterTranslator.or(all.get(all.size() - 1).stream().map(t -> tokenPrefix(m.field(), t)).toList()));
        return FilterTranslator.and(parts);
    }

    /** Points with a keyword (or {@code _id}) value starting with {@code prefix}; every point for other fields. */
    private Translated valuePrefix(String field, String prefix) {
        if (field.contains("*")) {
            return new Always();
        }
        if (prefix.isEmpty()) {
            return new Always();
        }
        FieldMapping mapping = index.mappings().field(field).orElse(null);
        if (!field.equals(QdrantLayout.ID) && !(mapping instanceof FieldMapping.KeywordField k
                && k.normalizer().isEmpty())) {
            // a normalizer may change a prefix otherwise than the values it starts
            return new Always();
        }
        return exact.query(new Query.Prefix(field, prefix, false, 1f));
    }

    /** The first {@code n} code points of {@code s}. */
    private static String head(String s, int n) {
        return s.codePointCount(0, s.length()) <= n ? s : s.substring(0, s.offsetByCodePoints(0, n));
    }

    private Translated multiMatch(Query.MultiMatch m) {
        if (m.fuzziness().isPresent() || m.type() == Query.MultiMatchType.PHRASE_PREFIX) {
            return new Always();
        }
        if (m.fields().isEmpty()) {
            return new Always();
        }
        boolean all = m.type() == Query.MultiMatchType.PHRASE || m.operator() == Query.Operator.AND;
        List<Translated> each = new ArrayList<>();
        for (Query.BoostedField f : m.fields()) {
            each.add(text(f.field(), m.text(), all, m.zeroTermsQuery(), m.analyzer(),
                    m.type() == Query.MultiMatchType.PHRASE));
        }
        return FilterTranslator.or(each);
    }

    /** A full-text query's candidates on one field: any (or all) of the analysed tokens. */
    private Translated text(String field, String text, boolean all, Query.ZeroTermsQuery zero) {
        return text(field, text, all, zero, Optional.empty(), false);
    }

    /**
     * A full-text query's candidates on one field: a token of any position (or, with {@code all}, of every position;
     * tokens sharing a position are alternatives), analysed as the query is.
     */
    private Translated text(String field, String text, boolean all, Query.ZeroTermsQuery zero,
                            Optional<String> analyzer, boolean quote) {
        if (field.contains("*")) {
            return new Always();
        }
        if (field.equals(QdrantLayout.ID)) {
            return exact.query(new Query.Terms(field, List.of(JsonValue.string(text)), 1f));
        }
        Optional<FieldMapping> mapping = index.mappings().field(field);
        if (mapping.isEmpty() || mapping.get() instanceof FieldMapping.ObjectField) {
            return new Never();
        }
        if (mapping.get() instanceof FieldMapping.KeywordField) {
            return exact.query(new Query.Terms(field, List.of(JsonValue.string(text)), 1f));
        }
        if (!(mapping.get() instanceof FieldMapping.TextField)) {
            // numbers, dates, booleans: parsed (or leniently ignored) by the scorer, which sees every point
            return new Always();
        }
        Optional<List<List<String>>> groups = scorer.tokenGroups(index, field, text, analyzer, quote);
        if (groups.isEmpty()) {
            return new Always();
        }
        if (groups.get().isEmpty()) {
            // a query string drops a clause that analyses to nothing (the scorer decides what that leaves)
            return zero == Query.ZeroTermsQuery.ALL || normalize ? new Always() : new Never();
        }
        if (all && groups.get().stream().anyMatch(g -> g.size() > 1)) {
            return FilterTranslator.and(groups.get().stream().map(g -> tokens(field, g, false)).toList());
        }
        return tokens(field, groups.get().stream().flatMap(List::stream).toList(), all);
    }

    /** Points with a token of {@code field} starting with {@code prefix} (every point when it is empty). */
    private static Translated tokenPrefix(String field, String prefix) {
        if (prefix.isEmpty()) {
            return new Always();
        }
        ObjectNode c = QdrantClient.object();
        c.put("key", TextPayload.termsPath(field));
        c.putObject("match").put("prefix", prefix);
        return new Condition(c);
    }

    /** The characters of a wildcard pattern before its first {@code *} or {@code ?} (escapes resolved). */
    static String literalPrefix(String pattern) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '*' || c == '?') {
                break;
            }
            if (c == '\\') {
                if (i + 1 >= pattern.length()) {
                    break;
                }
                c = pattern.charAt(++i);
            }
            out.append(c);
        }
        return out.toString();
    }

    private static Translated tokens(String field, List<String> tokens, boolean all) {
        String key = TextPayload.termsPath(field);
        if (all) {
            return FilterTranslator.and(tokens.stream().distinct().map(t -> {
                ObjectNode c = QdrantClient.object();
                c.put("key", key);
                c.putObject("match").put("value", t);
                return (Translated) new Condition(c);
            }).toList());
        }
        ObjectNode c = QdrantClient.object();
        c.put("key", key);
        ArrayNode any = c.putObject("match").putArray("any");
        tokens.stream().distinct().forEach(any::add);
        return new Condition(c);
    }

    private static String text(JsonValue value, String field) {
        try {
            return io.qdrant.esgateway.domain.query.DateRange.text(value, field);
        } catch (GatewayException e) {
            throw e;
        }
    }
}
