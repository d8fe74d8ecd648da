package io.qdrant.esgateway.adapter.out.lucene.analysis;

import io.qdrant.esgateway.domain.analysis.AnalysisComponents;
import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.analysis.AnalysisSettings.Definition;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.charfilter.HTMLStripCharFilter;
import org.apache.lucene.analysis.charfilter.MappingCharFilter;
import org.apache.lucene.analysis.charfilter.NormalizeCharMap;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.classic.ClassicFilter;
import org.apache.lucene.analysis.classic.ClassicTokenizer;
import org.apache.lucene.analysis.core.DecimalDigitFilter;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.core.LetterTokenizer;
import org.apache.lucene.analysis.core.UpperCaseFilter;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.email.UAX29URLEmailTokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishMinimalStemFilter;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.KStemFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.miscellaneous.FingerprintFilter;
import org.apache.lucene.analysis.miscellaneous.LengthFilter;
import org.apache.lucene.analysis.miscellaneous.PatternKeywordMarkerFilter;
import org.apache.lucene.analysis.miscellaneous.RemoveDuplicatesTokenFilter;
import org.apache.lucene.analysis.miscellaneous.SetKeywordMarkerFilter;
import org.apache.lucene.analysis.miscellaneous.TrimFilter;
import org.apache.lucene.analysis.miscellaneous.TruncateTokenFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterIterator;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenFilter;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenizer;
import org.apache.lucene.analysis.ngram.NGramTokenFilter;
import org.apache.lucene.analysis.ngram.NGramTokenizer;
import org.apache.lucene.analysis.path.PathHierarchyTokenizer;
import org.apache.lucene.analysis.path.ReversePathHierarchyTokenizer;
import org.apache.lucene.analysis.pattern.PatternReplaceCharFilter;
import org.apache.lucene.analysis.pattern.PatternReplaceFilter;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.pattern.SimplePatternSplitTokenizer;
import org.apache.lucene.analysis.pattern.SimplePatternTokenizer;
import org.apache.lucene.analysis.reverse.ReverseStringFilter;
import org.apache.lucene.analysis.shingle.ShingleFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.synonym.SolrSynonymParser;
import org.apache.lucene.analysis.synonym.SynonymGraphFilter;
import org.apache.lucene.analysis.synonym.SynonymMap;
import org.apache.lucene.analysis.synonym.WordnetSynonymParser;
import org.apache.lucene.analysis.th.ThaiTokenizer;
import org.apache.lucene.analysis.tr.ApostropheFilter;
import org.apache.lucene.analysis.util.CharTokenizer;
import org.apache.lucene.analysis.util.ElisionFilter;

/**
 * Builds Lucene analysis components from an index's {@link AnalysisSettings}, with Elasticsearch 8.15's parameter
 * names, defaults and errors. Parameter errors are {@code illegal_argument_exception}s naming the component.
 */
public final class AnalysisBuilder {
    /** Elasticsearch's default {@code position_increment_gap} of analyzers used on text fields. */
    public static final int POSITION_INCREMENT_GAP = 100;

    /** Language name (as analyzers and {@code _lang_} stop lists are named) → Lucene analyzer class. */
    private static final Map<String, String> LANGUAGE_CLASSES = Map.ofEntries(
            Map.entry("arabic", "ar.ArabicAnalyzer"), Map.entry("armenian", "hy.ArmenianAnalyzer"),
            Map.entry("basque", "eu.BasqueAnalyzer"), Map.entry("bengali", "bn.BengaliAnalyzer"),
            Map.entry("brazilian", "br.BrazilianAnalyzer"), Map.entry("bulgarian", "bg.BulgarianAnalyzer"),
            Map.entry("catalan", "ca.CatalanAnalyzer"), Map.entry("cjk", "cjk.CJKAnalyzer"),
            Map.entry("czech", "cz.CzechAnalyzer"), Map.entry("danish", "da.DanishAnalyzer"),
            Map.entry("dutch", "nl.DutchAnalyzer"), Map.entry("english", "en.EnglishAnalyzer"),
            Map.entry("estonian", "et.EstonianAnalyzer"), Map.entry("finnish", "fi.FinnishAnalyzer"),
            Map.entry("french", "fr.FrenchAnalyzer"), Map.entry("galician", "gl.GalicianAnalyzer"),
            Map.entry("german", "de.GermanAnalyzer"), Map.entry("greek", "el.GreekAnalyzer"),
            Map.entry("hindi", "hi.HindiAnalyzer"), Map.entry("hungarian", "hu.HungarianAnalyzer"),
            Map.entry("indonesian", "id.IndonesianAnalyzer"), Map.entry("irish", "ga.IrishAnalyzer"),
            Map.entry("italian", "it.ItalianAnalyzer"), Map.entry("latvian", "lv.LatvianAnalyzer"),
            Map.entry("lithuanian", "lt.LithuanianAnalyzer"), Map.entry("norwegian", "no.NorwegianAnalyzer"),
            Map.entry("persian", "fa.PersianAnalyzer"), Map.entry("portuguese", "pt.PortugueseAnalyzer"),
            Map.entry("romanian", "ro.RomanianAnalyzer"), Map.entry("russian", "ru.RussianAnalyzer"),
            Map.entry("serbian", "sr.SerbianAnalyzer"), Map.entry("sorani", "ckb.SoraniAnalyzer"),
            Map.entry("spanish", "es.SpanishAnalyzer"), Map.entry("swedish", "sv.SwedishAnalyzer"),
            Map.entry("turkish", "tr.TurkishAnalyzer"), Map.entry("thai", "th.ThaiAnalyzer"));

    /** The {@code stemmer} filter's languages: Elasticsearch's name → a Lucene stemmer. */
    private static final Map<String, UnaryOperator<TokenStream>> STEMMERS = stemmers();

    private final AnalysisSettings settings;
    private final Map<String, Analyzer> analyzers = new HashMap<>();

    AnalysisBuilder(AnalysisSettings settings) {
        this.settings = settings;
    }

    // ------------------------------------------------------------------ analyzers

    /** The analyzer named {@code name}: defined by the index, or built in; empty when there is none. */
    Optional<Analyzer> analyzer(String name) {
        Analyzer cached = analyzers.get(name);
        if (cached != null) {
            return Optional.of(cached);
        }
        Definition def = settings.analyzers().get(name);
        Analyzer built;
        if (def != null) {
            built = def.type().equals("custom") ? custom(name, def) : builtIn(def.type(), name, def);
        } else if (AnalysisComponents.ANALYZERS.contains(name)) {
            built = builtIn(name, name, new Definition(name, new TreeMap<>()));
        } else {
            return Optional.empty();
        }
        analyzers.put(name, built);
        return Optional.of(built);
    }

    /** The normalizer named {@code name}: defined by the index, or built in ({@code lowercase}). */
    Optional<Analyzer> normalizer(String name) {
        Definition def = settings.normalizers().get(name);
        if (def == null) {
            if (!AnalysisComponents.NORMALIZERS.contains(name)) {
                return Optional.empty();
            }
            def = new Definition("custom", new TreeMap<>(Map.of("filter",
                    new io.qdrant.esgateway.domain.json.JsonValue.JsonString(name))));
        }
        List<UnaryOperator<Reader>> chars = new ArrayList<>();
        for (String c : def.list("char_filter")) {
            chars.add(charFilter(c));
        }
        List<UnaryOperator<TokenStream>> filters = new ArrayList<>();
        for (String f : def.list("filter")) {
            filters.add(filter(f, chars, KeywordTokenizer::new, filters));
        }
        return Optional.of(new ComposedAnalyzer(chars, KeywordTokenizer::new, filters, filters, 0).withParts(
                new ComposedAnalyzer.Parts(def.list("char_filter"), "keyword", def.list("filter"))));
    }

    /** Builds every defined component, so that a bad parameter fails now. */
    void buildAll() {
        settings.tokenizers().keySet().forEach(t -> tokenizer(t).get());
        settings.charFilters().keySet().forEach(this::charFilter);
        settings.analyzers().keySet().forEach(this::analyzer);
        settings.normalizers().keySet().forEach(this::normalizer);
        settings.filters().keySet().forEach(f -> filter(f, List.of(), StandardTokenizer::new, List.of()));
    }

    private Analyzer custom(String name, Definition def) {
        String tokenizerName = def.string("tokenizer").orElseThrow();
        Supplier<Tokenizer> tokenizer = tokenizer(tokenizerName);
        List<UnaryOperator<Reader>> chars = new ArrayList<>();
        for (String c : def.list("char_filter")) {
            chars.add(charFilter(c));
        }
        List<UnaryOperator<TokenStream>> filters = new ArrayList<>();
        List<UnaryOperator<TokenStream>> normalizing = new ArrayList<>();
        for (String f : def.list("filter")) {
            UnaryOperator<TokenStream> built = filter(f, chars, tokenizer, filters);
            filters.add(built);
            if (AnalysisComponents.NORMALIZING_FILTERS.contains(filterType(f))) {
                normalizing.add(built);
            }
        }
        int gap = def.string("position_increment_gap").map(v -> integer(name, "position_increment_gap", v))
                .orElse(POSITION_INCREMENT_GAP);
        return new ComposedAnalyzer(chars, tokenizer, filters, normalizing, gap).withParts(
                new ComposedAnalyzer.Parts(def.list("char_filter"), tokenizerName, def.list("filter")));
    }

    private String filterType(String name) {
        Definition def = settings.filters().get(name);
        return def == null ? name : def.type();
    }

    private Analyzer builtIn(String type, String name, Definition def) {
        CharArraySet defaultStop = switch (type) {
            case "stop" -> EnglishAnalyzer.ENGLISH_STOP_WORDS_SET;
            case "snowball" -> EnglishAnalyzer.ENGLISH_STOP_WORDS_SET;
            default -> LANGUAGE_CLASSES.containsKey(type) ? languageStopSet(type) : CharArraySet.EMPTY_SET;
        };
        CharArraySet stop = stopwords(def, defaultStop, false);
        List<UnaryOperator<Reader>> none = List.of();
        return switch (type) {
            case "standard" -> {
                int max = def.string("max_token_length").map(v -> integer(name, "max_token_length", v)).orElse(255);
                List<UnaryOperator<TokenStream>> filters = List.of(LowerCaseFilter::new, s -> new StopFilter(s, stop));
                yield new ComposedAnalyzer(none, () -> standardTokenizer(max), filters,
                        List.of(LowerCaseFilter::new), POSITION_INCREMENT_GAP);
            }
            case "simple" -> new ComposedAnalyzer(none, LetterTokenizer::new, List.of(LowerCaseFilter::new),
                    List.of(LowerCaseFilter::new), POSITION_INCREMENT_GAP);
            case "whitespace" -> new ComposedAnalyzer(none, WhitespaceTokenizer::new, List.of(), List.of(),
                    POSITION_INCREMENT_GAP);
            case "keyword" -> new ComposedAnalyzer(none, KeywordTokenizer::new, List.of(), List.of(),
                    POSITION_INCREMENT_GAP);
            case "stop" -> new ComposedAnalyzer(none, LetterTokenizer::new,
                    List.of(LowerCaseFilter::new, s -> new StopFilter(s, stop)), List.of(LowerCaseFilter::new),
                    POSITION_INCREMENT_GAP);
            case "pattern" -> {
                Pattern pattern = pattern(name, def.string("pattern").orElse("\\W+"), def.string("flags"));
                boolean lower = bool(def.string("lowercase").orElse("true"));
                List<UnaryOperator<TokenStream>> filters = new ArrayList<>();
                if (lower) {
                    filters.add(LowerCaseFilter::new);
                }
                filters.add(s -> new StopFilter(s, stop));
                yield new ComposedAnalyzer(none, () -> new PatternTokenizer(pattern, -1), filters,
                        lower ? List.of(LowerCaseFilter::new) : List.of(), POSITION_INCREMENT_GAP);
            }
            case "fingerprint" -> {
                char separator = def.string("separator").map(s -> s.isEmpty() ? ' ' : s.charAt(0)).orElse(' ');
                int max = def.string("max_output_size").map(v -> integer(name, "max_output_size", v)).orElse(255);
                yield new ComposedAnalyzer(none, StandardTokenizer::new, List.of(LowerCaseFilter::new,
                        s -> new ASCIIFoldingFilter(s, false), s -> new StopFilter(s, stop),
                        s -> new FingerprintFilter(s, max, separator)),
                        List.of(LowerCaseFilter::new, s -> new ASCIIFoldingFilter(s, false)), POSITION_INCREMENT_GAP);
            }
            case "snowball" -> {
                String language = def.string("language").orElse("English");
                yield new ComposedAnalyzer(none, StandardTokenizer::new, List.of(LowerCaseFilter::new,
                        s -> new StopFilter(s, stop), s -> new SnowballFilter(s, language)),
                        List.of(LowerCaseFilter::new), POSITION_INCREMENT_GAP);
            }
            default -> language(type, name, stop, stemExclusion(def));
        };
    }

    private static Tokenizer standardTokenizer(int maxTokenLength) {
        StandardTokenizer t = new StandardTokenizer();
        t.setMaxTokenLength(maxTokenLength);
        return t;
    }

    private Analyzer language(String language, String name, CharArraySet stop, CharArraySet exclusion) {
        String className = "org.apache.lucene.analysis." + LANGUAGE_CLASSES.get(language);
        try {
            Class<?> type = Class.forName(className);
            Analyzer analyzer;
            Constructor<?> two = constructor(type, CharArraySet.class, CharArraySet.class);
            if (two != null) {
                analyzer = (Analyzer) two.newInstance(stop, exclusion);
            } else {
                analyzer = (Analyzer) type.getConstructor(CharArraySet.class).newInstance(stop);
            }
            return new GapAnalyzer(analyzer);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the " + language + " analyzer (" + className + ")", e);
        }
    }

    private static Constructor<?> constructor(Class<?> type, Class<?>... parameters) {
        try {
            return type.getConstructor(parameters);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** A Lucene analyzer with Elasticsearch's position increment gap between the values of a field. */
    private static final class GapAnalyzer extends org.apache.lucene.analysis.DelegatingAnalyzerWrapper {
        private final Analyzer delegate;

        GapAnalyzer(Analyzer delegate) {
            super(PER_FIELD_REUSE_STRATEGY);
            this.delegate = delegate;
        }

        @Override
        protected Analyzer getWrappedAnalyzer(String fieldName) {
            return delegate;
        }

        @Override
        public int getPositionIncrementGap(String fieldName) {
            return POSITION_INCREMENT_GAP;
        }
    }

    static CharArraySet languageStopSet(String language) {
        if (language.equals("english")) {
            return EnglishAnalyzer.ENGLISH_STOP_WORDS_SET;
        }
        String className = LANGUAGE_CLASSES.get(language);
        if (className == null) {
            return null;
        }
        try {
            return (CharArraySet) Class.forName("org.apache.lucene.analysis." + className)
                    .getMethod("getDefaultStopSet").invoke(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static CharArraySet stopwords(Definition def, CharArraySet defaults, boolean ignoreCase) {
        if (!AnalysisFiles.has(def, "stopwords")) {
            return defaults;
        }
        // the inline list wins over the file, as in Elasticsearch
        List<String> words = def.has("stopwords") ? def.list("stopwords") : AnalysisFiles.words(def, "stopwords")
                .orElseThrow();
        List<String> out = new ArrayList<>();
        for (String word : words) {
            if (word.equals("_none_")) {
                continue;
            }
            if (word.length() > 2 && word.startsWith("_") && word.endsWith("_")) {
                CharArraySet set = languageStopSet(word.substring(1, word.length() - 1));
                if (set == null) {
                    throw GatewayException.illegalArgument("Unknown stopwords set [" + word + "]");
                }
                set.forEach(w -> out.add(new String((char[]) w)));
            } else {
                out.add(word);
            }
        }
        return new CharArraySet(out, ignoreCase);
    }

    private static CharArraySet stemExclusion(Definition def) {
        List<String> words = def.list("stem_exclusion");
        return words.isEmpty() ? CharArraySet.EMPTY_SET : new CharArraySet(words, false);
    }

    // ------------------------------------------------------------------ tokenizers

    Supplier<Tokenizer> tokenizer(String name) {
        Definition def = settings.tokenizers().get(name);
        if (def == null) {
            if (!AnalysisComponents.TOKENIZERS.contains(name)) {
                throw GatewayException.illegalArgument("failed to find tokenizer under [" + name + "]");
            }
            def = new Definition(name, new TreeMap<>());
        }
        return tokenizer(name, def);
    }

    Supplier<Tokenizer> tokenizer(String name, Definition def) {
        return switch (def.type()) {
            case "standard" -> {
                int max = def.string("max_token_length").map(v -> integer(name, "max_token_length", v)).orElse(255);
                yield () -> standardTokenizer(max);
            }
            case "classic" -> {
                int max = def.string("max_token_length").map(v -> integer(name, "max_token_length", v)).orElse(255);
                yield () -> {
                    ClassicTokenizer t = new ClassicTokenizer();
                    t.setMaxTokenLength(max);
                    return t;
                };
            }
            case "uax_url_email" -> {
                int max = def.string("max_token_length").map(v -> integer(name, "max_token_length", v)).orElse(255);
                yield () -> {
                    UAX29URLEmailTokenizer t = new UAX29URLEmailTokenizer();
                    t.setMaxTokenLength(max);
                    return t;
                };
            }
            case "whitespace" -> {
                int max = def.string("max_token_length").map(v -> integer(name, "max_token_length", v)).orElse(255);
                yield () -> new WhitespaceTokenizer(TokenStream.DEFAULT_TOKEN_ATTRIBUTE_FACTORY, max);
            }
            case "keyword" -> {
                int buffer = def.string("buffer_size").map(v -> integer(name, "buffer_size", v)).orElse(256);
                yield () -> new KeywordTokenizer(buffer);
            }
            case "letter" -> LetterTokenizer::new;
            case "lowercase" -> LowerCaseTokenizer::new;
            case "thai" -> ThaiTokenizer::new;
            case "pattern" -> {
                Pattern pattern = pattern(name, def.string("pattern").orElse("\\W+"), def.string("flags"));
                int group = def.string("group").map(v -> integer(name, "group", v)).orElse(-1);
                yield () -> new PatternTokenizer(pattern, group);
            }
            case "simple_pattern" -> {
                String regex = def.string("pattern").orElse("");
                checkRegex(name, regex);
                yield () -> new SimplePatternTokenizer(regex);
            }
            case "simple_pattern_split" -> {
                String regex = def.string("pattern").orElse("");
                checkRegex(name, regex);
                yield () -> new SimplePatternSplitTokenizer(regex);
            }
            case "char_group" -> {
                IntPredicate split = charGroup(name, def.list("tokenize_on_chars"));
                int max = def.string("max_token_length").map(v -> integer(name, "max_token_length", v)).orElse(255);
                yield () -> new CharTokenizer(TokenStream.DEFAULT_TOKEN_ATTRIBUTE_FACTORY,
                        max) {
                    @Override
                    protected boolean isTokenChar(int c) {
                        return !split.test(c);
                    }
                };
            }
            case "ngram", "edge_ngram" -> {
                int min = def.string("min_gram").map(v -> integer(name, "min_gram", v)).orElse(1);
                int max = def.string("max_gram").map(v -> integer(name, "max_gram", v)).orElse(2);
                boolean edge = def.type().equals("edge_ngram");
                if (!edge && max - min > 1) {
                    throw GatewayException.illegalArgument("The difference between max_gram and min_gram in NGram"
                            + " Tokenizer must be less than or equal to: [1] but was [" + (max - min) + "]. This limit"
                            + " can be set by changing the [index.max_ngram_diff] index level setting.");
                }
                IntPredicate chars = tokenChars(name, def.list("token_chars"), def.string("custom_token_chars"));
                yield () -> edge
                        ? new EdgeNGramTokenizer(min, max) {
                            @Override
                            protected boolean isTokenChar(int c) {
                                return chars.test(c);
                            }
                        }
                        : new NGramTokenizer(min, max) {
                            @Override
                            protected boolean isTokenChar(int c) {
                                return chars.test(c);
                            }
                        };
            }
            case "path_hierarchy" -> {
                char delimiter = def.string("delimiter").map(s -> s.charAt(0)).orElse('/');
                char replacement = def.string("replacement").map(s -> s.charAt(0)).orElse(delimiter);
                int skip = def.string("skip").map(v -> integer(name, "skip", v)).orElse(0);
                int buffer = def.string("buffer_size").map(v -> integer(name, "buffer_size", v)).orElse(1024);
                boolean reverse = bool(def.string("reverse").orElse("false"));
                yield () -> reverse ? new ReversePathHierarchyTokenizer(buffer, delimiter, replacement, skip)
                        : new PathHierarchyTokenizer(buffer, delimiter, replacement, skip);
            }
            default -> throw GatewayException.illegalArgument("Unknown tokenizer type [" + def.type() + "] for ["
                    + name + "]");
        };
    }

    /** A Lucene regular expression ({@code simple_pattern}) that compiles, or Elasticsearch's 400. */
    private static void checkRegex(String name, String regex) {
        try {
            new org.apache.lucene.util.automaton.RegExp(regex);
        } catch (IllegalArgumentException e) {
            throw GatewayException.illegalArgument("Invalid regex [" + regex + "] in [" + name + "]: "
                    + e.getMessage());
        }
    }

    private static IntPredicate tokenChars(String name, List<String> classes, Optional<String> custom) {
        if (classes.isEmpty()) {
            return c -> true;
        }
        List<IntPredicate> any = new ArrayList<>();
        for (String cls : classes) {
            any.add(switch (cls.toLowerCase(Locale.ROOT)) {
                case "letter" -> Character::isLetter;
                case "digit" -> Character::isDigit;
                case "whitespace" -> Character::isWhitespace;
                case "punctuation" -> c -> switch (Character.getType(c)) {
                    case Character.START_PUNCTUATION, Character.END_PUNCTUATION, Character.OTHER_PUNCTUATION,
                         Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
                         Character.FINAL_QUOTE_PUNCTUATION -> true;
                    default -> false;
                };
                case "symbol" -> c -> switch (Character.getType(c)) {
                    case Character.CURRENCY_SYMBOL, Character.MATH_SYMBOL, Character.OTHER_SYMBOL,
                         Character.MODIFIER_SYMBOL -> true;
                    default -> false;
                };
                case "custom" -> {
                    String chars = custom.orElseThrow(() -> GatewayException.illegalArgument(
                            "Token type: [custom] requires setting `custom_token_chars`"));
                    yield c -> chars.indexOf(c) >= 0;
                }
                default -> throw GatewayException.illegalArgument("Unknown token type: '" + cls + "', must be one of"
                        + " [symbol, custom, letter, digit, whitespace, punctuation]");
            });
        }
        return c -> {
            for (IntPredicate p : any) {
                if (p.test(c)) {
                    return true;
                }
            }
            return false;
        };
    }

    private static IntPredicate charGroup(String name, List<String> groups) {
        List<IntPredicate> any = new ArrayList<>();
        for (String g : groups) {
            if (g.codePointCount(0, g.length()) == 1) {
                int cp = g.codePointAt(0);
                any.add(c -> c == cp);
                continue;
            }
            if (g.startsWith("\\") && g.length() == 2) {
                char e = switch (g.charAt(1)) {
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    case 'f' -> '\f';
                    case '\\' -> '\\';
                    default -> throw GatewayException.illegalArgument("Invalid escaped char in [" + g + "]");
                };
                any.add(c -> c == e);
                continue;
            }
            any.add(switch (g) {
                case "letter" -> Character::isLetter;
                case "digit" -> Character::isDigit;
                case "whitespace" -> Character::isWhitespace;
                case "punctuation" -> tokenChars(name, List.of("punctuation"), Optional.empty());
                case "symbol" -> tokenChars(name, List.of("symbol"), Optional.empty());
                default -> throw GatewayException.illegalArgument("Invalid escaped char in [" + g + "]");
            });
        }
        return c -> {
            for (IntPredicate p : any) {
                if (p.test(c)) {
                    return true;
                }
            }
            return false;
        };
    }

    // ------------------------------------------------------------------ char filters

    UnaryOperator<Reader> charFilter(String name) {
        Definition def = settings.charFilters().get(name);
        if (def == null) {
            if (!AnalysisComponents.CHAR_FILTERS.contains(name)) {
                throw GatewayException.illegalArgument("failed to find char_filter under [" + name + "]");
            }
            def = new Definition(name, new TreeMap<>());
        }
        return charFilter(name, def);
    }

    UnaryOperator<Reader> charFilter(String name, Definition def) {
        return switch (def.type()) {
            case "html_strip" -> {
                List<String> escaped = def.list("escaped_tags");
                java.util.Set<String> tags = escaped.isEmpty() ? null : new java.util.HashSet<>(escaped);
                yield r -> new HTMLStripCharFilter(r, tags);
            }
            case "mapping" -> {
                List<String> rules = AnalysisFiles.words(def, "mappings").orElse(List.of());
                if (!AnalysisFiles.has(def, "mappings")) {
                    throw GatewayException.illegalArgument("mapping requires either `mappings` or `mappings_path` to"
                            + " be configured");
                }
                NormalizeCharMap.Builder b = new NormalizeCharMap.Builder();
                for (String rule : rules) {
                    int arrow = rule.indexOf("=>");
                    if (arrow < 0) {
                        throw GatewayException.illegalArgument("Invalid Mapping Rule : [" + rule + "]");
                    }
                    String from = unescape(rule.substring(0, arrow).trim());
                    String to = unescape(rule.substring(arrow + 2).trim());
                    if (from.isEmpty()) {
                        throw GatewayException.illegalArgument("Invalid Mapping Rule : [" + rule + "]");
                    }
                    b.add(from, to);
                }
                NormalizeCharMap map = b.build();
                yield r -> new MappingCharFilter(map, r);
            }
            case "pattern_replace" -> {
                Pattern pattern = pattern(name, def.string("pattern").orElseThrow(() -> GatewayException
                        .illegalArgument("pattern is missing for [" + name + "] char filter of type 'pattern_replace'")),
                        def.string("flags"));
                String replacement = def.string("replacement").orElse("");
                yield r -> new PatternReplaceCharFilter(pattern, replacement, r);
            }
            default -> throw GatewayException.illegalArgument("Unknown char_filter type [" + def.type() + "] for ["
                    + name + "]");
        };
    }

    private static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                switch (n) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                    default -> out.append(n);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    // ------------------------------------------------------------------ token filters

    /**
     * The filter named {@code name} in a chain after {@code chars}, {@code tokenizer} and {@code before} (synonym
     * rules are analysed by that chain, as Elasticsearch does).
     */
    UnaryOperator<TokenStream> filter(String name, List<UnaryOperator<Reader>> chars, Supplier<Tokenizer> tokenizer,
                                      List<UnaryOperator<TokenStream>> before) {
        Definition def = settings.filters().get(name);
        if (def == null) {
            if (!AnalysisComponents.FILTERS.contains(name)) {
                throw GatewayException.illegalArgument("failed to find filter under [" + name + "]");
            }
            def = new Definition(name, new TreeMap<>());
        }
        return filter(name, def, chars, tokenizer, before);
    }

    UnaryOperator<TokenStream> filter(String name, Definition def, List<UnaryOperator<Reader>> chars,
                                      Supplier<Tokenizer> tokenizer, List<UnaryOperator<TokenStream>> before) {
        return switch (def.type()) {
            case "lowercase" -> {
                String language = def.string("language").orElse("");
                yield switch (language) {
                    case "greek" -> org.apache.lucene.analysis.el.GreekLowerCaseFilter::new;
                    case "irish" -> org.apache.lucene.analysis.ga.IrishLowerCaseFilter::new;
                    case "turkish" -> org.apache.lucene.analysis.tr.TurkishLowerCaseFilter::new;
                    case "" -> LowerCaseFilter::new;
                    default -> throw GatewayException.illegalArgument("language [" + language
                            + "] not support for lower case");
                };
            }
            case "uppercase" -> UpperCaseFilter::new;
            case "asciifolding" -> {
                boolean preserve = bool(def.string("preserve_original").orElse("false"));
                yield s -> new ASCIIFoldingFilter(s, preserve);
            }
            case "stop" -> {
                boolean ignoreCase = bool(def.string("ignore_case").orElse("false"));
                CharArraySet stop = stopwords(def, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, ignoreCase);
                if (ignoreCase && !AnalysisFiles.has(def, "stopwords")) {
                    stop = new CharArraySet(stop, true);
                }
                CharArraySet words = stop;
                boolean trailing = bool(def.string("remove_trailing").orElse("true"));
                if (!trailing) {
                    throw GatewayException.unsupported("[remove_trailing: false] of filter [" + name + "]");
                }
                yield s -> new StopFilter(s, words);
            }
            case "stemmer" -> {
                String language = def.string("language").or(() -> def.string("name")).orElse("english");
                UnaryOperator<TokenStream> stemmer = STEMMERS.get(language.toLowerCase(Locale.ROOT));
                if (stemmer == null) {
                    throw GatewayException.illegalArgument("Unknown stemmer language [" + language + "]");
                }
                yield stemmer;
            }
            case "porter_stem" -> PorterStemFilter::new;
            case "kstem" -> KStemFilter::new;
            case "snowball" -> {
                String language = def.string("language").orElse("English");
                try {
                    Class.forName("org.tartarus.snowball.ext." + language + "Stemmer");
                } catch (ClassNotFoundException e) {
                    throw GatewayException.illegalArgument("Invalid stemmer class specified: " + language);
                }
                yield s -> new SnowballFilter(s, language);
            }
            case "synonym", "synonym_graph" -> synonyms(name, def, chars, tokenizer, before);
            case "word_delimiter_graph", "word_delimiter" -> wordDelimiter(def);
            case "edge_ngram", "ngram" -> {
                int min = def.string("min_gram").map(v -> integer(name, "min_gram", v)).orElse(1);
                int max = def.string("max_gram").map(v -> integer(name, "max_gram", v)).orElse(2);
                boolean preserve = bool(def.string("preserve_original").orElse("false"));
                if (def.type().equals("ngram") && max - min > 1) {
                    throw GatewayException.illegalArgument("The difference between max_gram and min_gram in NGram"
                            + " Tokenizer must be less than or equal to: [1] but was [" + (max - min) + "]. This limit"
                            + " can be set by changing the [index.max_ngram_diff] index level setting.");
                }
                yield def.type().equals("ngram") ? s -> new NGramTokenFilter(s, min, max, preserve)
                        : s -> new EdgeNGramTokenFilter(s, min, max, preserve);
            }
            case "shingle" -> {
                int min = def.string("min_shingle_size").map(v -> integer(name, "min_shingle_size", v)).orElse(2);
                int max = def.string("max_shingle_size").map(v -> integer(name, "max_shingle_size", v)).orElse(2);
                boolean unigrams = bool(def.string("output_unigrams").orElse("true"));
                boolean ifNone = bool(def.string("output_unigrams_if_no_shingles").orElse("false"));
                String separator = def.string("token_separator").orElse(" ");
                String filler = def.string("filler_token").orElse("_");
                yield s -> {
                    ShingleFilter f = new ShingleFilter(s, min, max);
                    f.setOutputUnigrams(unigrams);
                    f.setOutputUnigramsIfNoShingles(ifNone);
                    f.setTokenSeparator(separator);
                    f.setFillerToken(filler);
                    return f;
                };
            }
            case "unique" -> bool(def.string("only_on_same_position").orElse("false"))
                    ? RemoveDuplicatesTokenFilter::new : UniqueTokenFilter::new;
            case "remove_duplicates" -> RemoveDuplicatesTokenFilter::new;
            case "trim" -> TrimFilter::new;
            case "truncate" -> {
                int length = def.string("length").map(v -> integer(name, "length", v)).orElse(10);
                yield s -> new TruncateTokenFilter(s, length);
            }
            case "length" -> {
                int min = def.string("min").map(v -> integer(name, "min", v)).orElse(0);
                int max = def.string("max").map(v -> integer(name, "max", v)).orElse(Integer.MAX_VALUE);
                yield s -> new LengthFilter(s, min, max);
            }
            case "elision" -> {
                boolean ignoreCase = bool(def.string("articles_case").orElse("false"));
                CharArraySet articles = AnalysisFiles.words(def, "articles")
                        .map(words -> new CharArraySet(words, ignoreCase)).orElse(FrenchAnalyzer.DEFAULT_ARTICLES);
                yield s -> new ElisionFilter(s, articles);
            }
            case "reverse" -> ReverseStringFilter::new;
            case "pattern_replace" -> {
                Pattern pattern = pattern(name, def.string("pattern").orElseThrow(() -> GatewayException
                        .illegalArgument("pattern is missing for [" + name + "] token filter of type"
                                + " 'pattern_replace'")), def.string("flags"));
                String replacement = def.string("replacement").orElse("");
                boolean all = bool(def.string("all").orElse("true"));
                yield s -> new PatternReplaceFilter(s, pattern, replacement, all);
            }
            case "keyword_marker" -> {
                boolean ignoreCase = bool(def.string("ignore_case").orElse("false"));
                if (def.has("keywords_pattern")) {
                    if (AnalysisFiles.has(def, "keywords")) {
                        throw GatewayException.illegalArgument("cannot specify both `keywords_pattern` and"
                                + " `keywords` or `keywords_path`");
                    }
                    Pattern pattern = pattern(name, def.string("keywords_pattern").orElseThrow(), Optional.empty());
                    yield s -> new PatternKeywordMarkerFilter(s, pattern);
                }
                if (!AnalysisFiles.has(def, "keywords")) {
                    throw GatewayException.illegalArgument("keyword filter requires either `keywords`, `keywords_path`,"
                            + " or `keywords_pattern` to be set");
                }
                CharArraySet keywords = new CharArraySet(AnalysisFiles.words(def, "keywords").orElseThrow(),
                        ignoreCase);
                yield s -> new SetKeywordMarkerFilter(s, keywords);
            }
            case "decimal_digit" -> DecimalDigitFilter::new;
            case "cjk_width" -> CJKWidthFilter::new;
            case "cjk_bigram" -> {
                int flags = CJKBigramFilter.HAN | CJKBigramFilter.HIRAGANA | CJKBigramFilter.KATAKANA
                        | CJKBigramFilter.HANGUL;
                for (String ignored : def.list("ignored_scripts")) {
                    flags &= ~switch (ignored) {
                        case "han" -> CJKBigramFilter.HAN;
                        case "hiragana" -> CJKBigramFilter.HIRAGANA;
                        case "katakana" -> CJKBigramFilter.KATAKANA;
                        case "hangul" -> CJKBigramFilter.HANGUL;
                        default -> 0;
                    };
                }
                int scripts = flags;
                boolean unigrams = bool(def.string("output_unigrams").orElse("false"));
                yield s -> new CJKBigramFilter(s, scripts, unigrams);
            }
            case "apostrophe" -> ApostropheFilter::new;
            case "classic" -> ClassicFilter::new;
            case "flatten_graph" -> FlattenGraphFilter::new;
            case "german_normalization" -> org.apache.lucene.analysis.de.GermanNormalizationFilter::new;
            case "arabic_normalization" -> org.apache.lucene.analysis.ar.ArabicNormalizationFilter::new;
            case "persian_normalization" -> org.apache.lucene.analysis.fa.PersianNormalizationFilter::new;
            case "scandinavian_folding" -> org.apache.lucene.analysis.miscellaneous.ScandinavianFoldingFilter::new;
            case "scandinavian_normalization" ->
                    org.apache.lucene.analysis.miscellaneous.ScandinavianNormalizationFilter::new;
            case "serbian_normalization" -> org.apache.lucene.analysis.sr.SerbianNormalizationFilter::new;
            case "sorani_normalization" -> org.apache.lucene.analysis.ckb.SoraniNormalizationFilter::new;
            case "hindi_normalization" -> org.apache.lucene.analysis.hi.HindiNormalizationFilter::new;
            case "indic_normalization" -> org.apache.lucene.analysis.in.IndicNormalizationFilter::new;
            case "bengali_normalization" -> org.apache.lucene.analysis.bn.BengaliNormalizationFilter::new;
            default -> throw GatewayException.illegalArgument("Unknown filter type [" + def.type() + "] for [" + name
                    + "]");
        };
    }

    private static UnaryOperator<TokenStream> wordDelimiter(Definition def) {
        int flags = 0;
        flags |= flag(def, "generate_word_parts", true, WordDelimiterGraphFilter.GENERATE_WORD_PARTS);
        flags |= flag(def, "generate_number_parts", true, WordDelimiterGraphFilter.GENERATE_NUMBER_PARTS);
        flags |= flag(def, "catenate_words", false, WordDelimiterGraphFilter.CATENATE_WORDS);
        flags |= flag(def, "catenate_numbers", false, WordDelimiterGraphFilter.CATENATE_NUMBERS);
        flags |= flag(def, "catenate_all", false, WordDelimiterGraphFilter.CATENATE_ALL);
        flags |= flag(def, "split_on_case_change", true, WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE);
        flags |= flag(def, "preserve_original", false, WordDelimiterGraphFilter.PRESERVE_ORIGINAL);
        flags |= flag(def, "split_on_numerics", true, WordDelimiterGraphFilter.SPLIT_ON_NUMERICS);
        flags |= flag(def, "stem_english_possessive", true, WordDelimiterGraphFilter.STEM_ENGLISH_POSSESSIVE);
        CharArraySet protect = AnalysisFiles.words(def, "protected_words").map(w -> new CharArraySet(w, false))
                .orElse(null);
        boolean adjust = bool(def.string("adjust_offsets").orElse("true"));
        int all = flags;
        if (def.type().equals("word_delimiter")) {
            return s -> new org.apache.lucene.analysis.miscellaneous.WordDelimiterFilter(s,
                    WordDelimiterIterator.DEFAULT_WORD_DELIM_TABLE, all, protect);
        }
        return s -> new WordDelimiterGraphFilter(s, adjust, WordDelimiterIterator.DEFAULT_WORD_DELIM_TABLE, all,
                protect);
    }

    private static int flag(Definition def, String key, boolean defaultValue, int flag) {
        return bool(def.string(key).orElse(Boolean.toString(defaultValue))) ? flag : 0;
    }

    private UnaryOperator<TokenStream> synonyms(String name, Definition def, List<UnaryOperator<Reader>> chars,
                                                Supplier<Tokenizer> tokenizer,
                                                List<UnaryOperator<TokenStream>> before) {
        if (def.has("synonyms_set")) {
            throw GatewayException.unsupported("[synonyms_set] of filter [" + name + "]");
        }
        if (!AnalysisFiles.has(def, "synonyms")) {
            throw GatewayException.illegalArgument("synonym requires either `synonyms`, `synonyms_set` or"
                    + " `synonyms_path` to be configured");
        }
        boolean expand = bool(def.string("expand").orElse("true"));
        boolean lenient = bool(def.string("lenient").orElse("false"));
        boolean updateable = bool(def.string("updateable").orElse("false"));
        if (updateable) {
            throw GatewayException.unsupported("[updateable] synonyms of filter [" + name + "]");
        }
        String format = def.string("format").orElse("");
        Analyzer parser = new ComposedAnalyzer(chars, tokenizer, before, List.of(), 0);
        // the inline rules win over the file, as in Elasticsearch; the file's comments are the rule parser's
        List<String> rules = def.has("synonyms") ? def.list("synonyms")
                : AnalysisFiles.lines(def, "synonyms_path", false);
        SynonymMap map;
        try {
            List<String> kept = new ArrayList<>();
            for (String rule : rules) {
                try {
                    parse(format, List.of(rule), expand, parser);
                    kept.add(rule);
                } catch (java.text.ParseException | IllegalArgumentException | IOException e) {
                    if (!lenient) {
                        throw e;
                    }
                }
            }
            map = parse(format, kept, expand, parser);
        } catch (java.text.ParseException | IllegalArgumentException | IOException e) {
            throw GatewayException.illegalArgument("failed to build synonyms");
        }
        SynonymMap synonyms = map;
        if (synonyms.fst == null) {
            return s -> s;
        }
        return def.type().equals("synonym")
                ? s -> new org.apache.lucene.analysis.synonym.SynonymFilter(s, synonyms, false)
                : s -> new SynonymGraphFilter(s, synonyms, false);
    }

    private static SynonymMap parse(String format, List<String> rules, boolean expand, Analyzer analyzer)
            throws java.text.ParseException, IOException {
        String text = String.join("\n", rules);
        if (format.equals("wordnet")) {
            WordnetSynonymParser p = new WordnetSynonymParser(true, expand, analyzer);
            p.parse(new StringReader(text));
            return p.build();
        }
        SolrSynonymParser p = new SolrSynonymParser(true, expand, analyzer);
        p.parse(new StringReader(text));
        return p.build();
    }

    private static Map<String, UnaryOperator<TokenStream>> stemmers() {
        Map<String, UnaryOperator<TokenStream>> m = new HashMap<>();
        m.put("english", PorterStemFilter::new);
        m.put("porter", PorterStemFilter::new);
        m.put("light_english", KStemFilter::new);
        m.put("kstem", KStemFilter::new);
        m.put("minimal_english", EnglishMinimalStemFilter::new);
        m.put("possessive_english", EnglishPossessiveFilter::new);
        m.put("porter2", s -> new SnowballFilter(s, "English"));
        m.put("light_french", org.apache.lucene.analysis.fr.FrenchLightStemFilter::new);
        m.put("minimal_french", org.apache.lucene.analysis.fr.FrenchMinimalStemFilter::new);
        m.put("light_german", org.apache.lucene.analysis.de.GermanLightStemFilter::new);
        m.put("minimal_german", org.apache.lucene.analysis.de.GermanMinimalStemFilter::new);
        m.put("light_spanish", org.apache.lucene.analysis.es.SpanishLightStemFilter::new);
        m.put("light_italian", org.apache.lucene.analysis.it.ItalianLightStemFilter::new);
        m.put("light_portuguese", org.apache.lucene.analysis.pt.PortugueseLightStemFilter::new);
        m.put("minimal_portuguese", org.apache.lucene.analysis.pt.PortugueseMinimalStemFilter::new);
        m.put("portuguese_rslp", org.apache.lucene.analysis.pt.PortugueseStemFilter::new);
        m.put("light_russian", org.apache.lucene.analysis.ru.RussianLightStemFilter::new);
        m.put("light_finnish", org.apache.lucene.analysis.fi.FinnishLightStemFilter::new);
        m.put("light_hungarian", org.apache.lucene.analysis.hu.HungarianLightStemFilter::new);
        m.put("light_swedish", org.apache.lucene.analysis.sv.SwedishLightStemFilter::new);
        m.put("light_norwegian", org.apache.lucene.analysis.no.NorwegianLightStemFilter::new);
        m.put("norwegian", s -> new SnowballFilter(s, "Norwegian"));
        for (String snowball : List.of("Arabic", "Armenian", "Basque", "Catalan", "Danish", "Dutch", "Estonian",
                "Finnish", "French", "German", "Hungarian", "Indonesian", "Irish", "Italian", "Lithuanian", "Portuguese",
                "Romanian", "Russian", "Serbian", "Spanish", "Swedish", "Turkish")) {
            m.put(snowball.toLowerCase(Locale.ROOT), s -> new SnowballFilter(s, snowball));
        }
        return Map.copyOf(m);
    }

    // ------------------------------------------------------------------ values

    private static Pattern pattern(String name, String regex, Optional<String> flags) {
        int f = 0;
        if (flags.isPresent()) {
            for (String flag : flags.get().split("\\|")) {
                String trimmed = flag.trim();
                if (trimmed.isEmpty()) {
                    continue;
                }
                f |= switch (trimmed) {
                    case "CASE_INSENSITIVE" -> Pattern.CASE_INSENSITIVE;
                    case "MULTILINE" -> Pattern.MULTILINE;
                    case "DOTALL" -> Pattern.DOTALL;
                    case "UNICODE_CASE" -> Pattern.UNICODE_CASE;
                    case "CANON_EQ" -> Pattern.CANON_EQ;
                    case "UNIX_LINES" -> Pattern.UNIX_LINES;
                    case "LITERAL" -> Pattern.LITERAL;
                    case "COMMENTS" -> Pattern.COMMENTS;
                    case "UNICODE_CHARACTER_CLASS" -> Pattern.UNICODE_CHARACTER_CLASS;
                    default -> throw GatewayException.illegalArgument("Unknown regex flag [" + trimmed + "]");
                };
            }
        }
        try {
            return Pattern.compile(regex, f);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw GatewayException.illegalArgument("Invalid regex [" + regex + "] in [" + name + "]: "
                    + e.getDescription());
        }
    }

    private static int integer(String name, String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("Failed to parse value [" + value + "] for setting [index.analysis."
                    + name + "." + key + "]");
        }
    }

    private static boolean bool(String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw GatewayException.illegalArgument("Failed to parse value [" + value
                    + "] as only [true] or [false] are allowed.");
        };
    }

    /** Elasticsearch's {@code lowercase} tokenizer: letters, lowercased code point by code point. */
    private static final class LowerCaseTokenizer extends LetterTokenizer {
        @Override
        public void reset() throws IOException {
            super.reset();
            Reader letters = input;
            input = new java.io.FilterReader(letters) {
                @Override
                public int read(char[] buffer, int offset, int length) throws IOException {
                    int n = in.read(buffer, offset, length);
                    if (n > 0) {
                        org.apache.lucene.analysis.CharacterUtils.toLowerCase(buffer, offset, offset + n);
                    }
                    return n;
                }
            };
        }
    }
}
