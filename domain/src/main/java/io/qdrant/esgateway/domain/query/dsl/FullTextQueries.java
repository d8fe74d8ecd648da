package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Fuzziness;
import io.qdrant.esgateway.domain.query.MinimumShouldMatch;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.Query.BoostedField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Full-text queries: analysed with the field's search analyzer; each takes a query-time {@code analyzer}
 * ({@code query_string} also a {@code quote_analyzer}), resolved against the index when translated.
 */
final class FullTextQueries {
    private FullTextQueries() {
    }

    static Query match(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("match", body, "query");
        DslObject o = f.getValue();
        String text = queryText(o);
        Query.Operator operator = operator(o);
        MinimumShouldMatch msm = o.take("minimum_should_match").map(MinimumShouldMatch::parse)
                .orElse(MinimumShouldMatch.UNSPECIFIED);
        Optional<Fuzziness> fuzziness = o.take("fuzziness").map(v -> Fuzziness.parse(v, "match"));
        int prefixLength = o.intValue("prefix_length").orElse(0);
        int maxExpansions = o.intValue("max_expansions").orElse(50);
        boolean lenient = o.bool("lenient").orElse(false);
        Query.ZeroTermsQuery zero = zeroTerms(o);
        Optional<String> analyzer = o.string("analyzer");
        o.bool("auto_generate_synonyms_phrase_query");
        o.bool("fuzzy_transpositions").filter(t -> !t).ifPresent(t -> {
            throw GatewayException.unsupported("[match] [fuzzy_transpositions: false]");
        });
        o.string("fuzzy_rewrite");
        float boost = o.boost();
        o.done();
        return new Query.Match(f.getKey(), text, operator, msm, fuzziness, prefixLength, maxExpansions, lenient, zero,
                boost, analyzer);
    }

    static Query matchPhrase(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("match_phrase", body, "query");
        DslObject o = f.getValue();
        String text = queryText(o);
        int slop = o.intValue("slop").orElse(0);
        Query.ZeroTermsQuery zero = zeroTerms(o);
        Optional<String> analyzer = o.string("analyzer");
        float boost = o.boost();
        o.done();
        return new Query.MatchPhrase(f.getKey(), text, slop, zero, boost, analyzer);
    }

    static Query matchPhrasePrefix(JsonValue body) {
        Map.Entry<String, DslObject> f = DslObject.oneField("match_phrase_prefix", body, "query");
        DslObject o = f.getValue();
        String text = queryText(o);
        int slop = o.intValue("slop").orElse(0);
        int maxExpansions = o.intValue("max_expansions").orElse(50);
        Optional<String> analyzer = o.string("analyzer");
        zeroTerms(o);
        float boost = o.boost();
        o.done();
        return new Query.MatchPhrasePrefix(f.getKey(), text, slop, maxExpansions, boost, analyzer);
    }

    static Query multiMatch(JsonValue body) {
        DslObject o = new DslObject("multi_match", body);
        String text = queryText(o);
        List<BoostedField> fields = fields(o.strings("fields"));
        Query.MultiMatchType type = o.string("type").map(t -> {
            try {
                return Query.MultiMatchType.valueOf(t.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw DslObject.parsing("failed to parse [multi_match] query type [" + t + "]. unknown type.");
            }
        }).orElse(Query.MultiMatchType.BEST_FIELDS);
        if (type == Query.MultiMatchType.CROSS_FIELDS || type == Query.MultiMatchType.BOOL_PREFIX) {
            throw GatewayException.unsupported("[multi_match] [type: " + type.name().toLowerCase(Locale.ROOT) + "]");
        }
        Query.Operator operator = operator(o);
        MinimumShouldMatch msm = o.take("minimum_should_match").map(MinimumShouldMatch::parse)
                .orElse(MinimumShouldMatch.UNSPECIFIED);
        Optional<Float> tie = o.floatValue("tie_breaker");
        Optional<Fuzziness> fuzziness = o.take("fuzziness").map(v -> Fuzziness.parse(v, "multi_match"));
        int slop = o.intValue("slop").orElse(0);
        boolean lenient = o.bool("lenient").orElse(false);
        Optional<String> analyzer = o.string("analyzer");
        Query.ZeroTermsQuery zero = zeroTerms(o);
        o.intValue("prefix_length");
        o.intValue("max_expansions");
        float boost = o.boost();
        o.done();
        return new Query.MultiMatch(fields, text, type, operator, msm, tie, fuzziness, slop, lenient, boost,
                analyzer, zero);
    }

    static Query queryString(JsonValue body, boolean simple) {
        String type = simple ? "simple_query_string" : "query_string";
        DslObject o = new DslObject(type, body);
        String query = o.string("query").orElseThrow(() -> DslObject.parsing("[" + type + "] must be provided with a"
                + " [query]"));
        List<String> fieldNames = new ArrayList<>(o.strings("fields"));
        o.string("default_field").ifPresent(fieldNames::add);
        Query.Operator operator = o.string("default_operator").map(FullTextQueries::operatorOf)
                .orElse(Query.Operator.OR);
        boolean lenient = o.bool("lenient").orElse(false);
        boolean analyzeWildcard = o.bool("analyze_wildcard").orElse(false);
        Optional<String> analyzer = o.string("analyzer");
        Optional<String> quoteAnalyzer = simple ? Optional.empty() : o.string("quote_analyzer");
        if (simple) {
            o.string("flags").filter(fl -> !fl.equals("ALL")).ifPresent(fl -> {
                throw GatewayException.unsupported("[simple_query_string] [flags: " + fl + "]");
            });
        } else {
            o.bool("allow_leading_wildcard").filter(b -> !b).ifPresent(b -> {
                throw GatewayException.unsupported("[query_string] [allow_leading_wildcard: false]");
            });
        }
        float boost = o.boost();
        o.done();
        return new Query.QueryString(query, fields(fieldNames), operator, simple, lenient, analyzeWildcard, boost,
                analyzer, quoteAnalyzer);
    }

    private static String queryText(DslObject o) {
        JsonValue v = o.take("query").orElseThrow(() -> DslObject.parsing("[" + o.type() + "] requires query value"));
        return JsonReads.text(v).orElseThrow(() -> DslObject.parsing("[" + o.type()
                + "] unknown token [" + v.tokenName() + "] after [query]"));
    }

    private static Query.Operator operator(DslObject o) {
        return o.string("operator").map(FullTextQueries::operatorOf).orElse(Query.Operator.OR);
    }

    private static Query.Operator operatorOf(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "or" -> Query.Operator.OR;
            case "and" -> Query.Operator.AND;
            default -> throw GatewayException.illegalArgument("operator needs to be either [and] or [or], but not ["
                    + s + "]");
        };
    }

    private static Query.ZeroTermsQuery zeroTerms(DslObject o) {
        return o.string("zero_terms_query").map(z -> switch (z.toLowerCase(Locale.ROOT)) {
            case "none" -> Query.ZeroTermsQuery.NONE;
            case "all" -> Query.ZeroTermsQuery.ALL;
            default -> throw DslObject.parsing("Unsupported zero_terms_query value [" + z + "]");
        }).orElse(Query.ZeroTermsQuery.NONE);
    }

    /** {@code title^3}, {@code *_name}: a field (pattern) with its boost. */
    static List<BoostedField> fields(List<String> names) {
        List<BoostedField> out = new ArrayList<>();
        for (String name : names) {
            int caret = name.lastIndexOf('^');
            if (caret < 0) {
                out.add(new BoostedField(name, 1.0f));
                continue;
            }
            try {
                out.add(new BoostedField(name.substring(0, caret), Float.parseFloat(name.substring(caret + 1))));
            } catch (NumberFormatException e) {
                throw DslObject.parsing("invalid boost in field [" + name + "]");
            }
        }
        return out;
    }
}
