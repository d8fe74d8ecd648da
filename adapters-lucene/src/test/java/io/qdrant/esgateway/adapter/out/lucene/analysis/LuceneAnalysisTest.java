package io.qdrant.esgateway.adapter.out.lucene.analysis;

import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.qdrant.esgateway.adapter.out.lucene.search.IndexAnalyzer;
import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest;
import io.qdrant.esgateway.domain.analysis.AnalyzedToken;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.junit.jupiter.api.Test;

/**
 * The Lucene side of text analysis: building an index's analyzers (and the errors that must come at index creation),
 * resolving a field's analyzers, and the token streams of {@code _analyze} (compared exactly with OpenSearch by the
 * {@code analyze-corpus} compat scenario).
 */
class LuceneAnalysisTest {
    private final LuceneTextAnalysis analysis = new LuceneTextAnalysis();

    private static AnalysisSettings settings(String json) {
        return IndexSettings.parse(json(json)).analysis();
    }

    private static GatewayException failure(Runnable r) {
        Throwable t = catchThrowable(r::run);
        assertThat(t).isInstanceOf(GatewayException.class);
        return (GatewayException) t;
    }

    private List<String> tokens(Optional<IndexMetadata> index, String request) {
        return analysis.analyze(index, AnalyzeRequest.parse(json(request))).stream().map(AnalyzedToken::token)
                .toList();
    }

    @Test
    void an_unparsable_synonym_rule_fails_at_creation_unless_lenient() {
        GatewayException e = failure(() -> analysis.validate(settings(
                "{'analysis':{'filter':{'s':{'type':'synonym','synonyms':['a => ']}}}}")));
        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(e.reason()).isEqualTo("failed to build synonyms");

        AnalysisSettings lenient = settings("{'analysis':{'filter':{'s':{'type':'synonym','lenient':true,"
                + "'synonyms':['a => ','tv, television']}},'analyzer':{'a':{'tokenizer':'standard',"
                + "'filter':['lowercase','s']}}}}");
        analysis.validate(lenient);
        IndexMetadata index = index(lenient, "{}");
        assertThat(tokens(Optional.of(index), "{'analyzer':'a','text':'a TV'}")).containsExactly("a", "tv",
                "television");
    }

    @Test
    void parameter_errors_name_the_component() {
        assertThat(failure(() -> analysis.validate(settings("{'analysis':{'tokenizer':{'t':{'type':'ngram',"
                + "'min_gram':1,'max_gram':4}}}}"))).reason()).startsWith(
                "The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [1]");
        assertThat(failure(() -> analysis.validate(settings("{'analysis':{'filter':{'s':{'type':'stemmer',"
                + "'language':'klingon'}}}}"))).reason()).isEqualTo("Unknown stemmer language [klingon]");
        assertThat(failure(() -> analysis.validate(settings("{'analysis':{'char_filter':{'p':{"
                + "'type':'pattern_replace','pattern':'('}}}}"))).reason()).startsWith("Invalid regex [(] in [p]");
    }

    @Test
    void fields_use_their_analyzers_and_the_index_defaults() {
        AnalysisSettings a = settings("{'analysis':{'analyzer':{'default':{'type':'simple'},"
                + "'ws':{'tokenizer':'whitespace'}}}}");
        IndexMetadata index = index(a, "{'properties':{'t':{'type':'text','analyzer':'ws',"
                + "'search_analyzer':'english'},'d':{'type':'text'}}}");
        IndexAnalyzers analyzers = IndexAnalyzers.of(index);
        assertThat(tokens(analyzers.indexAnalyzer(index.mappings(), "t"), "t", "Running Dogs"))
                .containsExactly("Running", "Dogs");
        assertThat(tokens(analyzers.searchAnalyzer(index.mappings(), "t"), "t", "Running Dogs"))
                .containsExactly("run", "dog");
        assertThat(tokens(analyzers.indexAnalyzer(index.mappings(), "d"), "d", "R2-D2 ok"))
                .containsExactly("r", "d", "ok");
        assertThat(IndexAnalyzers.of(index)).as("built once per settings").isSameAs(analyzers);
        Analyzer writer = new IndexAnalyzer(index);
        assertThat(writer.getPositionIncrementGap("t")).isEqualTo(100);
    }

    @Test
    void analyze_reports_offsets_positions_types_and_position_lengths() {
        List<AnalyzedToken> out = analysis.analyze(Optional.empty(), AnalyzeRequest.parse(json(
                "{'tokenizer':'standard','filter':[{'type':'synonym_graph','synonyms':['ny, new york']}],"
                        + "'text':'ny rocks'}")));
        assertThat(out).contains(new AnalyzedToken("new", 0, 2, "SYNONYM", 0, 1),
                new AnalyzedToken("ny", 0, 2, "<ALPHANUM>", 0, 2), new AnalyzedToken("rocks", 3, 8, "<ALPHANUM>", 2, 1));
        assertThat(failure(() -> tokens(Optional.empty(), "{'analyzer':'nope','text':'x'}")).reason())
                .isEqualTo("failed to find global analyzer [nope]");
        assertThat(failure(() -> tokens(Optional.empty(), "{'normalizer':'lowercase','text':'x'}")).reason())
                .isEqualTo("analysis based on a normalizer requires an index");
    }

    private static List<String> tokens(Analyzer analyzer, String field, String text) {
        List<String> out = new java.util.ArrayList<>();
        try (org.apache.lucene.analysis.TokenStream s = analyzer.tokenStream(field, text)) {
            org.apache.lucene.analysis.tokenattributes.CharTermAttribute term = s.addAttribute(
                    org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
            s.reset();
            while (s.incrementToken()) {
                out.add(term.toString());
            }
            s.end();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    private static IndexMetadata index(AnalysisSettings analysis, String mappings) {
        IndexSettings settings = new IndexSettings(1, 0, Optional.empty(), 10_000, false, Optional.empty(), analysis);
        return new IndexMetadata("i", "u", Instant.EPOCH, settings,
                io.qdrant.esgateway.domain.index.Mappings.parse(json(mappings)));
    }
}
