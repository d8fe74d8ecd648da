package io.qdrant.esgateway.domain.analysis;

import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The answer of {@code _analyze} with {@code explain: true}, as Elasticsearch's {@code detail}: for an analyzer made
 * of parts (a custom analyzer or a tokenizer with filters), the text after each char filter and the tokens after the
 * tokenizer and after each token filter; for any other analyzer, its name and tokens.
 *
 * @param customAnalyzer whether the analyzer is made of parts
 * @param analyzer       the analyzer's tokens (not made of parts)
 * @param charFilters    each char filter's output, one text per input text (made of parts)
 * @param tokenizer      the tokenizer's tokens (made of parts)
 * @param tokenFilters   the tokens after each token filter, in order (made of parts)
 */
public record AnalyzeDetail(boolean customAnalyzer, Optional<TokenList> analyzer, List<CharFiltered> charFilters,
                            Optional<TokenList> tokenizer, List<TokenList> tokenFilters) {

    /** A char filter's name and the texts it produced. */
    public record CharFiltered(String name, List<String> filteredText) {
    }

    /** A stage's name and its tokens. */
    public record TokenList(String name, List<DetailedToken> tokens) {
    }

    /** A token with its other attributes (Lucene's names: {@code bytes}, {@code keyword}, …), sorted by name. */
    public record DetailedToken(AnalyzedToken token, SortedMap<String, JsonValue> attributes) {
    }
}
