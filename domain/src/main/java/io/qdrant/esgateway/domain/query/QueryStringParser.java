package io.qdrant.esgateway.domain.query;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Query.BoostedField;
import io.qdrant.esgateway.domain.query.Query.Operator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The common syntax of {@code query_string} (Lucene's classic syntax) and {@code simple_query_string}, lowered to the
 * query tree: {@code field:value}, {@code AND}/{@code OR}/{@code NOT} and {@code &&}/{@code ||}/{@code !},
 * {@code +}/{@code -}, groups, {@code "phrases"~slop}, {@code term~fuzziness}, {@code ^boost}, {@code *}/{@code ?}
 * wildcards, {@code /regex/}, ranges {@code [a TO b]}, {@code {a TO b}}, {@code >=a}. The simple syntax is
 * {@code +} (and), {@code |} (or), {@code -} (not), quotes, {@code *} prefix, parentheses and {@code ~N}; it never
 * fails on bad syntax.
 *
 * <p>A term without a field searches the query's {@code fields} (default {@code *}); field names may be patterns,
 * which the search resolves against the mapping. A term on several fields becomes a {@code dis_max} over them.
 */
public final class QueryStringParser {
    private final String input;
    private final boolean simple;
    private final List<BoostedField> defaultFields;
    private final Operator defaultOperator;
    private final Optional<String> analyzer;
    private final Optional<String> quoteAnalyzer;
    private int pos;

    private QueryStringParser(String input, List<BoostedField> fields, Operator defaultOperator, boolean simple,
                              Optional<String> analyzer, Optional<String> quoteAnalyzer) {
        this.input = input;
        this.simple = simple;
        this.defaultFields = fields.isEmpty() ? List.of(new BoostedField("*", 1f)) : fields;
        this.defaultOperator = defaultOperator;
        this.analyzer = analyzer;
        this.quoteAnalyzer = quoteAnalyzer.or(() -> analyzer);
    }

    /**
     * Parses a query string's text once, for {@link Query.QueryString}: its tree without the boost, a syntax error
     * kept to be thrown where the tree is used, or (a {@code simple_query_string}, which never fails on bad syntax)
     * a tree that matches nothing.
     */
    static ParsedQueryString parseOnce(String input, List<BoostedField> fields, Operator defaultOperator,
                                       boolean simple, Optional<String> analyzer, Optional<String> quoteAnalyzer) {
        QueryStringParser p = new QueryStringParser(input, fields, defaultOperator, simple, analyzer, quoteAnalyzer);
        try {
            return new ParsedQueryString(p.parseQuery(false, Optional.empty()), null, false);
        } catch (GatewayException e) {
            return simple ? new ParsedQueryString(new Query.MatchNone(1f), null, true)
                    : new ParsedQueryString(null, e, false);
        } catch (RuntimeException e) {
            return new ParsedQueryString(null, e, false);
        }
    }

    /** The query tree of a query string, with its boost (parsed when the query was read). */
    public static Query parse(Query.QueryString q) {
        Query parsed = q.parsed().tree();
        if (q.parsed().unparsable()) {
            return new Query.MatchNone(q.boost());
        }
        return q.boost() == 1f ? parsed : new Query.Bool(List.of(parsed), List.of(), List.of(), List.of(),
                MinimumShouldMatch.UNSPECIFIED, q.boost());
    }

    /** The query tree of a query string without its boost, for a caller that applies the boost itself. */
    public static Query unboosted(Query.QueryString q) {
        return q.parsed().tree();
    }

    /**
     * The {@code match_all} a purely negative query string matches the rest of (this very instance, so that a search
     * can tell it from a {@code *:*} the text names: when every negated clause analyses to nothing, Elasticsearch
     * drops them and the query matches nothing).
     */
    public static final Query.MatchAll NEGATED_BASE = new Query.MatchAll(1f);

    private enum Occur { MUST, SHOULD, MUST_NOT }

    private record Clause(Occur occur, Query query) {
    }

    private Query parseQuery(boolean inGroup, Optional<String> field) {
        List<Clause> clauses = new ArrayList<>();
        Occur pendingConjunction = null;
        while (true) {
            skipSpaces();
            if (atEnd()) {
                if (inGroup && !simple) {
                    throw error("Cannot parse '" + input + "': Encountered \"<EOF>\"; expected \")\"");
                }
                break;
            }
            if (peek() == ')') {
                if (!inGroup) {
                    if (simple) {
                        pos++;
                        continue;
                    }
                    throw error("Cannot parse '" + input + "': Encountered \" \")\" \") \"\" at column " + pos);
                }
                pos++;
                break;
            }
            if (matchWord("AND") || matchSymbol("&&") || (simple && matchSymbol("+"))) {
                markLastMust(clauses);
                pendingConjunction = Occur.MUST;
                continue;
            }
            if (matchWord("OR") || matchSymbol("||") || (simple && matchSymbol("|"))) {
                pendingConjunction = Occur.SHOULD;
                if (!clauses.isEmpty() && defaultOperator == Operator.AND) {
                    Clause last = clauses.remove(clauses.size() - 1);
                    clauses.add(new Clause(last.occur() == Occur.MUST ? Occur.SHOULD : last.occur(), last.query()));
                }
                continue;
            }
            Occur occur = pendingConjunction == Occur.MUST ? Occur.MUST
                    : pendingConjunction == Occur.SHOULD ? Occur.SHOULD
                    : defaultOperator == Operator.AND ? Occur.MUST : Occur.SHOULD;
            pendingConjunction = null;
            if (matchWord("NOT") || matchSymbol("!") || (simple && matchSymbol("-"))) {
                occur = Occur.MUST_NOT;
            } else if (!simple && matchSymbol("+")) {
                occur = Occur.MUST;
            } else if (!simple && matchSymbol("-")) {
                occur = Occur.MUST_NOT;
            }
            skipSpaces();
            if (atEnd()) {
                break;
            }
            clauses.add(new Clause(occur, parseClause(field)));
        }
        return combine(clauses);
    }

    private static void markLastMust(List<Clause> clauses) {
        if (!clauses.isEmpty()) {
            Clause last = clauses.remove(clauses.size() - 1);
            clauses.add(new Clause(last.occur() == Occur.MUST_NOT ? Occur.MUST_NOT : Occur.MUST, last.query()));
        }
    }

    private static Query combine(List<Clause> clauses) {
        if (clauses.size() == 1 && clauses.get(0).occur() != Occur.MUST_NOT) {
            return clauses.get(0).query();
        }
        List<Query> must = new ArrayList<>();
        List<Query> should = new ArrayList<>();
        List<Query> mustNot = new ArrayList<>();
        for (Clause c : clauses) {
            switch (c.occur()) {
                case MUST -> must.add(c.query());
                case SHOULD -> should.add(c.query());
                case MUST_NOT -> mustNot.add(c.query());
            }
        }
        if (must.isEmpty() && should.isEmpty() && mustNot.isEmpty()) {
            return new Query.MatchNone(1f);
        }
        if (must.isEmpty() && should.isEmpty()) {
            // a purely negative query matches everything else, as in Elasticsearch
            must.add(NEGATED_BASE);
        }
        return new Query.Bool(must, List.of(), should, mustNot, MinimumShouldMatch.UNSPECIFIED, 1f);
    }

    private Query parseClause(Optional<String> field) {
        Optional<String> explicitField = field;
        if (!simple) {
            int save = pos;
            String name = readFieldName();
            if (name != null) {
                explicitField = Optional.of(name);
            } else {
                pos = save;
            }
        }
        skipSpaces();
        Query q;
        if (peek() == '(') {
            pos++;
            q = parseQuery(true, explicitField);
        } else if (peek() == '"') {
            q = phrase(explicitField);
        } else if (!simple && (peek() == '[' || peek() == '{')) {
            q = range(explicitField);
        } else if (!simple && (peek() == '>' || peek() == '<')) {
            q = comparison(explicitField);
        } else if (!simple && peek() == '/') {
            q = regex(explicitField);
        } else {
            q = term(explicitField);
        }
        return boosted(q);
    }

    private Query boosted(Query q) {
        if (!simple && peek() == '^') {
            pos++;
            String number = readWhile(c -> Character.isDigit(c) || c == '.');
            try {
                float boost = Float.parseFloat(number);
                return new Query.Bool(List.of(q), List.of(), List.of(), List.of(), MinimumShouldMatch.UNSPECIFIED, boost);
            } catch (NumberFormatException e) {
                throw error("Cannot parse '" + input + "': invalid boost [" + number + "]");
            }
        }
        return q;
    }

    /** {@code name:} (with {@code \}-escapes); null when the next token is not a field name. */
    private String readFieldName() {
        StringBuilder name = new StringBuilder();
        while (!atEnd()) {
            char c = peek();
            if (c == '\\' && pos + 1 < input.length()) {
                name.append(input.charAt(pos + 1));
                pos += 2;
                continue;
            }
            if (c == ':') {
                if (name.length() == 0) {
                    return null;
                }
                pos++;
                return name.toString();
            }
            if (Character.isWhitespace(c) || "()[]{}\"^~/+-!<>=&|".indexOf(c) >= 0) {
                return null;
            }
            name.append(c);
            pos++;
        }
        return null;
    }

    private Query phrase(Optional<String> field) {
        pos++;
        StringBuilder text = new StringBuilder();
        while (!atEnd() && peek() != '"') {
            if (peek() == '\\' && pos + 1 < input.length()) {
                pos++;
            }
            text.append(input.charAt(pos++));
        }
        if (atEnd()) {
            throw error("Cannot parse '" + input + "': Lexical error: unterminated quote");
        }
        pos++;
        int slop = 0;
        if (peek() == '~') {
            pos++;
            String n = readWhile(Character::isDigit);
            slop = n.isEmpty() ? 0 : Integer.parseInt(n);
        }
        int phraseSlop = slop;
        String phraseText = text.toString();
        return onFields(field, f -> new Query.MatchPhrase(f, phraseText, phraseSlop, Query.ZeroTermsQuery.NONE, 1f,
                quoteAnalyzer));
    }

    private Query range(Optional<String> field) {
        boolean includeLower = peek() == '[';
        pos++;
        skipSpaces();
        String lower = readRangeValue();
        skipSpaces();
        if (!matchWord("TO")) {
            throw error("Cannot parse '" + input + "': Encountered a range without TO");
        }
        skipSpaces();
        String upper = readRangeValue();
        skipSpaces();
        if (atEnd() || (peek() != ']' && peek() != '}')) {
            throw error("Cannot parse '" + input + "': unterminated range");
        }
        boolean includeUpper = peek() == ']';
        pos++;
        Optional<Query.Bound> lo = lower.equals("*") ? Optional.empty()
                : Optional.of(new Query.Bound(JsonValue.string(lower), includeLower));
        Optional<Query.Bound> hi = upper.equals("*") ? Optional.empty()
                : Optional.of(new Query.Bound(JsonValue.string(upper), includeUpper));
        return onFields(field, f -> new Query.Range(f, lo, hi, Optional.empty(), Optional.empty(), 1f));
    }

    private Query comparison(Optional<String> field) {
        char op = input.charAt(pos++);
        boolean inclusive = false;
        if (peek() == '=') {
            pos++;
            inclusive = true;
        }
        String value = readTermText();
        Query.Bound bound = new Query.Bound(JsonValue.string(value), inclusive);
        Optional<Query.Bound> lo = op == '>' ? Optional.of(bound) : Optional.empty();
        Optional<Query.Bound> hi = op == '<' ? Optional.of(bound) : Optional.empty();
        return onFields(field, f -> new Query.Range(f, lo, hi, Optional.empty(), Optional.empty(), 1f));
    }

    private Query regex(Optional<String> field) {
        pos++;
        StringBuilder text = new StringBuilder();
        while (!atEnd() && peek() != '/') {
            if (peek() == '\\' && pos + 1 < input.length()) {
                text.append(input.charAt(pos++));
            }
            text.append(input.charAt(pos++));
        }
        if (atEnd()) {
            throw error("Cannot parse '" + input + "': Lexical error: unterminated regular expression");
        }
        pos++;
        String pattern = text.toString();
        return onFields(field, f -> new Query.Regexp(f, pattern, false, 10_000, 1f));
    }

    private Query term(Optional<String> field) {
        String text = readTermText();
        if (text.isEmpty()) {
            throw error("Cannot parse '" + input + "': Encountered unexpected character at column " + pos);
        }
        if (peek() == '~') {
            pos++;
            String n = readWhile(c -> Character.isDigit(c) || c == '.');
            Fuzziness fuzziness = n.isEmpty() ? new Fuzziness.Auto(3, 6) : new Fuzziness.Fixed(
                    Math.min(2, (int) Double.parseDouble(n)));
            return onFields(field, f -> new Query.Fuzzy(f, JsonValue.string(text), fuzziness, 0, 50, true, 1f));
        }
        if (text.equals("*") && field.isPresent()) {
            return onFields(field, f -> new Query.Exists(f, 1f));
        }
        if (simple && text.endsWith("*")) {
            String prefix = text.substring(0, text.length() - 1);
            return onFields(field, f -> new Query.Prefix(f, prefix, false, 1f));
        }
        if (!simple && (text.indexOf('*') >= 0 || text.indexOf('?') >= 0)) {
            if (text.endsWith("*") && text.indexOf('*') == text.length() - 1 && text.indexOf('?') < 0) {
                String prefix = text.substring(0, text.length() - 1);
                return onFields(field, f -> new Query.Prefix(f, prefix, false, 1f));
            }
            return onFields(field, f -> new Query.Wildcard(f, text, false, 1f));
        }
        return onFields(field, f -> new Query.Match(f, text, Operator.OR, MinimumShouldMatch.UNSPECIFIED,
                Optional.empty(), 0, 50, true, Query.ZeroTermsQuery.NONE, 1f, analyzer));
    }

    private Query onFields(Optional<String> field, java.util.function.Function<String, Query> leaf) {
        if (field.isPresent()) {
            return leaf.apply(field.get());
        }
        List<Query> perField = new ArrayList<>();
        for (BoostedField f : defaultFields) {
            Query q = leaf.apply(f.field());
            perField.add(f.boost() == 1f ? q : new Query.Bool(List.of(q), List.of(), List.of(), List.of(),
                    MinimumShouldMatch.UNSPECIFIED, f.boost()));
        }
        // query_string takes the best field (tie_breaker 0); simple_query_string adds the fields' scores, as
        // Elasticsearch's dis_max with tie_breaker 1
        return perField.size() == 1 ? perField.get(0) : new Query.DisMax(perField, simple ? 1f : 0f, 1f);
    }

    private String readTermText() {
        StringBuilder text = new StringBuilder();
        while (!atEnd()) {
            char c = peek();
            if (c == '\\' && pos + 1 < input.length()) {
                text.append(input.charAt(pos + 1));
                pos += 2;
                continue;
            }
            String stops = simple ? "()\"|+~" : "()[]{}\"^~:";
            if (Character.isWhitespace(c) || stops.indexOf(c) >= 0) {
                break;
            }
            if (simple && c == '-' && text.length() == 0) {
                break;
            }
            text.append(c);
            pos++;
        }
        return text.toString();
    }

    private String readRangeValue() {
        if (peek() == '"') {
            pos++;
            String v = readWhile(c -> c != '"');
            pos++;
            return v;
        }
        return readWhile(c -> !Character.isWhitespace(c) && c != ']' && c != '}');
    }

    private String readWhile(java.util.function.IntPredicate keep) {
        int start = pos;
        while (!atEnd() && keep.test(peek())) {
            pos++;
        }
        return input.substring(start, pos);
    }

    private boolean matchWord(String word) {
        if (simple) {
            return false;
        }
        if (input.startsWith(word, pos)) {
            int end = pos + word.length();
            if (end == input.length() || Character.isWhitespace(input.charAt(end)) || input.charAt(end) == '(') {
                pos = end;
                return true;
            }
        }
        return false;
    }

    private boolean matchSymbol(String symbol) {
        if (input.startsWith(symbol, pos)) {
            pos += symbol.length();
            return true;
        }
        return false;
    }

    private void skipSpaces() {
        while (!atEnd() && Character.isWhitespace(peek())) {
            pos++;
        }
    }

    private boolean atEnd() {
        return pos >= input.length();
    }

    private char peek() {
        return atEnd() ? '\0' : input.charAt(pos);
    }

    private GatewayException error(String reason) {
        return new GatewayException(ErrorKind.PARSE, "Failed to parse query [" + input + "]", java.util.Map.of(),
                new GatewayException(ErrorKind.PARSE, reason));
    }
}
