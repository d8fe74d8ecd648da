package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.DateRange;
import io.qdrant.esgateway.domain.query.Query;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which documents a query matches, for {@link InMemoryDocumentStore}: a plain evaluation of the query tree over a
 * document's indexed values, with Elasticsearch's rules for multi-valued and missing fields (a leaf matches when any
 * value does). Text is analysed as the standard analyzer does for plain words: lower-cased, split at everything but
 * letters and digits. Queries it does not evaluate (kNN, fuzzy and regular-expression forms, phrase slop) are an
 * {@code UNSUPPORTED} refusal, never a guess.
 */
final class InMemoryMatcher {
    private final Mappings mappings;

    InMemoryMatcher(Mappings mappings) {
        this.mappings = mappings;
    }

    /** A document as the matcher sees it. */
    record Doc(String id, List<IndexedValue> values) {
    }

    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        for (String t : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    boolean matches(Query query, Doc doc) {
        return switch (query) {
            case Query.MatchAll q -> true;
            case Query.MatchNone q -> false;
            case Query.Term q -> term(q.field(), q.value(), q.caseInsensitive(), doc);
            case Query.Terms q -> q.values().stream().anyMatch(v -> term(q.field(), v, false, doc));
            case Query.Range q -> range(q, doc);
            case Query.Exists q -> doc.values().stream().anyMatch(v -> field(v).equals(q.field())
                    || field(v).startsWith(q.field() + "."));
            case Query.Ids q -> q.ids().contains(doc.id());
            case Query.Prefix q -> !q.caseInsensitive() && strings(q.field(), doc).stream()
                    .anyMatch(s -> s.startsWith(q.prefix())) || q.caseInsensitive() && strings(q.field(), doc)
                    .stream().anyMatch(s -> s.toLowerCase(Locale.ROOT).startsWith(q.prefix().toLowerCase(Locale.ROOT)));
            case Query.Wildcard q -> {
                Pattern p = glob(q.pattern(), q.caseInsensitive());
                yield strings(q.field(), doc).stream().anyMatch(s -> p.matcher(s).matches());
            }
            case Query.Bool q -> q.must().stream().allMatch(c -> matches(c, doc))
                    && q.filter().stream().allMatch(c -> matches(c, doc))
                    && q.mustNot().stream().noneMatch(c -> matches(c, doc))
                    && should(q, doc);
            case Query.ConstantScore q -> matches(q.filter(), doc);
            case Query.Boosting q -> matches(q.positive(), doc);
            case Query.DisMax q -> q.queries().stream().anyMatch(c -> matches(c, doc));
            case Query.Match q -> {
                if (q.fuzziness().isPresent()) {
                    throw unsupported("fuzziness");
                }
                yield match(q.field(), q.text(), q.operator() == Query.Operator.AND, q.minimumShouldMatch(), doc);
            }
            case Query.MatchPhrase q -> {
                if (q.slop() != 0) {
                    throw unsupported("phrase slop");
                }
                yield phrase(q.field(), q.text(), doc);
            }
            case Query.MultiMatch q -> {
                if (q.fuzziness().isPresent() || q.slop() != 0) {
                    throw unsupported("multi_match fuzziness and slop");
                }
                yield switch (q.type()) {
                    case BEST_FIELDS, MOST_FIELDS -> q.fields().stream().anyMatch(f -> match(f.field(), q.text(),
                            q.operator() == Query.Operator.AND, q.minimumShouldMatch(), doc));
                    case PHRASE -> q.fields().stream().anyMatch(f -> phrase(f.field(), q.text(), doc));
                    default -> throw unsupported("multi_match of type " + q.type());
                };
            }
            default -> throw unsupported(query.getClass().getSimpleName());
        };
    }

    private static GatewayException unsupported(String what) {
        return new GatewayException(ErrorKind.UNSUPPORTED, "[" + what + "] is not supported by the in-memory store");
    }

    private boolean should(Query.Bool q, Doc doc) {
        if (q.should().isEmpty()) {
            return true;
        }
        // as a Lucene BooleanQuery: without a required clause, at least one optional clause must match
        int atLeast = q.must().isEmpty() && q.filter().isEmpty() ? 1 : 0;
        int required = Math.max(atLeast, q.minimumShouldMatch().required(q.should().size()));
        return q.should().stream().filter(c -> matches(c, doc)).count() >= required;
    }

    private static String field(IndexedValue v) {
        return switch (v) {
            case IndexedValue.Keyword k -> k.field();
            case IndexedValue.Text t -> t.field();
            case IndexedValue.LongValue l -> l.field();
            case IndexedValue.DoubleValue d -> d.field();
            case IndexedValue.FloatValue f -> f.field();
            case IndexedValue.BooleanValue b -> b.field();
            case IndexedValue.DateValue d -> d.field();
            case IndexedValue.Vector x -> x.field();
        };
    }

    /** Keyword values, or the tokens of text values; {@code _id} as a keyword. */
    private List<String> strings(String field, Doc doc) {
        if (field.equals("_id")) {
            return List.of(doc.id());
        }
        List<String> out = new ArrayList<>();
        for (IndexedValue v : doc.values()) {
            if (v instanceof IndexedValue.Keyword k && k.field().equals(field)) {
                out.add(k.value());
            } else if (v instanceof IndexedValue.Text t && t.field().equals(field)) {
                out.addAll(tokens(t.value()));
            }
        }
        return out;
    }

    private List<Double> numbers(String field, Doc doc) {
        List<Double> out = new ArrayList<>();
        for (IndexedValue v : doc.values()) {
            switch (v) {
                case IndexedValue.LongValue l when l.field().equals(field) -> out.add((double) l.value());
                case IndexedValue.DoubleValue d when d.field().equals(field) -> out.add(d.value());
                case IndexedValue.FloatValue f when f.field().equals(field) -> out.add((double) f.value());
                case IndexedValue.DateValue d when d.field().equals(field) -> out.add((double) d.epochMillis());
                case IndexedValue.BooleanValue b when b.field().equals(field) -> out.add(b.value() ? 1.0 : 0.0);
                default -> {
                }
            }
        }
        return out;
    }

    private static String text(JsonValue value) {
        return JsonReads.text(value).orElseThrow(() -> GatewayException.illegalArgument("not a value: " + value));
    }

    private boolean term(String field, JsonValue value, boolean caseInsensitive, Doc doc) {
        FieldMapping mapping = field.equals("_id") ? new FieldMapping.KeywordField(Optional.empty(),
                new java.util.TreeMap<>()) : mappings.field(field).orElse(null);
        String text = text(value);
        return switch (mapping) {
            case null -> false;
            case FieldMapping.KeywordField k -> strings(field, doc).stream()
                    .anyMatch(s -> caseInsensitive ? s.equalsIgnoreCase(text) : s.equals(text));
            case FieldMapping.TextField t -> strings(field, doc).contains(text);
            case FieldMapping.NumberField n -> {
                double wanted = n.numberType().isIntegral() || n.numberType() == FieldMapping.NumberType.DOUBLE
                        ? Double.parseDouble(text) : (double) Float.parseFloat(text);
                yield numbers(field, doc).contains(wanted);
            }
            case FieldMapping.BooleanField b -> numbers(field, doc).contains(switch (text) {
                case "true" -> 1.0;
                case "false" -> 0.0;
                default -> throw GatewayException.illegalArgument("Can't parse boolean value [" + text + "]");
            });
            case FieldMapping.DateField d -> {
                Query.Bound bound = new Query.Bound(value, true);
                yield dates(field, d, Optional.of(bound), Optional.of(bound), Optional.empty(), Optional.empty(),
                        doc);
            }
            default -> false;
        };
    }

    private boolean range(Query.Range q, Doc doc) {
        return switch (mappings.field(q.field()).orElse(null)) {
            case null -> false;
            case FieldMapping.DateField d -> dates(q.field(), d, q.lower(), q.upper(), q.format(), q.timeZone(), doc);
            case FieldMapping.NumberField n -> numbers(q.field(), doc).stream().anyMatch(v ->
                    q.lower().map(b -> b.inclusive() ? v >= number(b, n) : v > number(b, n)).orElse(true)
                            && q.upper().map(b -> b.inclusive() ? v <= number(b, n) : v < number(b, n)).orElse(true));
            case FieldMapping.KeywordField k -> strings(q.field(), doc).stream().anyMatch(s ->
                    q.lower().map(b -> cmp(s, b) > 0 || b.inclusive() && cmp(s, b) == 0).orElse(true)
                            && q.upper().map(b -> cmp(s, b) < 0 || b.inclusive() && cmp(s, b) == 0).orElse(true));
            default -> throw unsupported("range on " + q.field());
        };
    }

    private static double number(Query.Bound b, FieldMapping.NumberField n) {
        double v = Double.parseDouble(text(b.value()));
        return n.numberType() == FieldMapping.NumberType.FLOAT ? (float) v : v;
    }

    private static int cmp(String s, Query.Bound b) {
        return s.compareTo(text(b.value()));
    }

    private boolean dates(String field, FieldMapping.DateField mapping, Optional<Query.Bound> lo,
                          Optional<Query.Bound> hi, Optional<String> format, Optional<String> zone, Doc doc) {
        Optional<DateRange> range = DateRange.of(field, mapping, lo, hi, format, zone, System::currentTimeMillis);
        if (range.isEmpty()) {
            return false;
        }
        DateRange r = range.get();
        return numbers(field, doc).stream().anyMatch(v -> r.from().map(f -> v >= f).orElse(true)
                && r.to().map(t -> v <= t).orElse(true));
    }

    private boolean match(String field, String text, boolean and,
                          io.qdrant.esgateway.domain.query.MinimumShouldMatch msm, Doc doc) {
        FieldMapping mapping = mappings.field(field).orElse(null);
        if (!(mapping instanceof FieldMapping.TextField)) {
            return mapping != null && term(field, new JsonValue.JsonString(text), false, doc);
        }
        List<String> wanted = tokens(text);
        if (wanted.isEmpty()) {
            return false;
        }
        List<String> has = strings(field, doc);
        long found = wanted.stream().distinct().filter(has::contains).count();
        long distinct = wanted.stream().distinct().count();
        if (and) {
            return found == distinct;
        }
        int required = Math.max(1, msm.required((int) distinct));
        return found >= required;
    }

    private boolean phrase(String field, String text, Doc doc) {
        List<String> wanted = tokens(text);
        if (wanted.isEmpty()) {
            return false;
        }
        if (!(mappings.field(field).orElse(null) instanceof FieldMapping.TextField)) {
            return term(field, new JsonValue.JsonString(text), false, doc);
        }
        for (IndexedValue v : doc.values()) {
            if (v instanceof IndexedValue.Text t && t.field().equals(field)
                    && Collections.indexOfSubList(tokens(t.value()), wanted) >= 0) {
                return true;
            }
        }
        return false;
    }

    private static Pattern glob(String pattern, boolean caseInsensitive) {
        StringBuilder b = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            b.append(switch (c) {
                case '*' -> ".*";
                case '?' -> ".";
                default -> Pattern.quote(Character.toString(c));
            });
        }
        return Pattern.compile(b.toString(), caseInsensitive ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
    }
}
