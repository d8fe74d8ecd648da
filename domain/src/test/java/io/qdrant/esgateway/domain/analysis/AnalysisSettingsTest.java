package io.qdrant.esgateway.domain.analysis;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.compact;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnalysisSettingsTest {
    private static final String CATALOGUE = """
            {'analysis': {
              'analyzer': {
                'folded': {'tokenizer': 'standard', 'char_filter': ['html_strip'], 'filter': ['lowercase', 'syn']},
                'en': {'type': 'english', 'stem_exclusion': ['running']},
                'auto': {'type': 'custom', 'tokenizer': 'edge', 'filter': 'lowercase'}
              },
              'tokenizer': {'edge': {'type': 'edge_ngram', 'min_gram': 2, 'max_gram': 10, 'token_chars': ['letter']}},
              'filter': {'syn': {'type': 'synonym', 'synonyms': ['tv, television', 'laptop => notebook'],
                                 'lenient': true}},
              'normalizer': {'fold': {'type': 'custom', 'filter': ['lowercase', 'asciifolding']}}
            }}""";

    private static AnalysisSettings parse(String settings) {
        return IndexSettings.parse(json(settings)).analysis();
    }

    private static GatewayException rejected(String settings) {
        return failure(ErrorKind.ILLEGAL_ARGUMENT, () -> parse(settings));
    }

    @Test
    void definitions_are_parsed_with_every_value_a_string_or_a_list_of_strings() {
        AnalysisSettings a = parse(CATALOGUE);

        assertThat(a.analyzers().keySet()).containsExactly("auto", "en", "folded");
        assertThat(a.analyzers().get("folded").type()).isEqualTo("custom");
        assertThat(a.analyzers().get("folded").list("filter")).containsExactly("lowercase", "syn");
        assertThat(a.analyzers().get("auto").list("filter")).containsExactly("lowercase");
        assertThat(a.analyzers().get("en").type()).isEqualTo("english");
        assertThat(a.tokenizers().get("edge").string("min_gram")).contains("2");
        assertThat(a.filters().get("syn").string("lenient")).contains("true");
        assertThat(a.normalizers().get("fold").list("filter")).containsExactly("lowercase", "asciifolding");
        assertThat(a.hasAnalyzer("folded")).isTrue();
        assertThat(a.hasAnalyzer("french")).isTrue();
        assertThat(a.hasAnalyzer("nope")).isFalse();
        assertThat(a.hasNormalizer("lowercase")).isTrue();
    }

    @Test
    void flat_and_nested_settings_give_the_same_definitions() {
        AnalysisSettings flat = parse("{'index.analysis.analyzer.a.tokenizer': 'whitespace',"
                + " 'index.analysis.analyzer.a.filter': ['lowercase']}");

        assertThat(flat).isEqualTo(parse("{'analysis': {'analyzer': {'a': {'tokenizer': 'whitespace',"
                + " 'filter': ['lowercase']}}}}"));
    }

    @Test
    void the_flat_persisted_form_reads_back_equal_and_renders_lists_as_arrays() {
        IndexSettings settings = IndexSettings.parse(json(CATALOGUE));
        Map<String, String> flat = settings.toFlatMap();

        assertThat(flat).containsEntry("index.analysis.filter.syn.synonyms.0", "tv, television")
                .containsEntry("index.analysis.filter.syn.synonyms.1", "laptop => notebook");
        assertThat(IndexSettings.fromFlatMap(flat)).isEqualTo(settings);

        IndexMetadata index = new IndexMetadata("i", "u", Instant.EPOCH, settings,
                io.qdrant.esgateway.domain.index.Mappings.EMPTY);
        assertThat(compact(index.settingsJson(true))).contains(
                "'index.analysis.filter.syn.synonyms':['tv, television','laptop => notebook']");
        assertThat(compact(index.settingsJson(false))).contains(
                "'syn':{'lenient':'true','synonyms':['tv, television','laptop => notebook'],'type':'synonym'}");
    }

    @Test
    void unknown_component_types_are_elasticsearch_s_errors() {
        assertThat(rejected("{'analysis':{'tokenizer':{'t':{'type':'nope'}}}}").reason())
                .isEqualTo("Unknown tokenizer type [nope] for [t]");
        assertThat(rejected("{'analysis':{'filter':{'f':{'type':'nope'}}}}").reason())
                .isEqualTo("Unknown filter type [nope] for [f]");
        assertThat(rejected("{'analysis':{'char_filter':{'c':{'type':'nope'}}}}").reason())
                .isEqualTo("Unknown char_filter type [nope] for [c]");
        assertThat(rejected("{'analysis':{'analyzer':{'a':{'type':'nope'}}}}").reason())
                .isEqualTo("Unknown analyzer type [nope] for [a]");
        assertThat(rejected("{'analysis':{'analyzer':{'a':{'filter':['lowercase']}}}}").reason())
                .isEqualTo("analyzer [a] must specify either an analyzer type, or a tokenizer");
    }

    @Test
    void a_custom_analyzer_s_references_must_resolve() {
        assertThat(rejected("{'analysis':{'analyzer':{'a':{'type':'custom'}}}}").reason())
                .isEqualTo("Custom Analyzer [a] must be configured with a tokenizer");
        assertThat(rejected("{'analysis':{'analyzer':{'a':{'tokenizer':'nope'}}}}").reason())
                .isEqualTo("Custom Analyzer [a] failed to find tokenizer under name [nope]");
        assertThat(rejected("{'analysis':{'analyzer':{'a':{'tokenizer':'standard','filter':['nope']}}}}").reason())
                .isEqualTo("Custom Analyzer [a] failed to find filter under name [nope]");
        assertThat(rejected("{'analysis':{'analyzer':{'a':{'tokenizer':'standard','char_filter':['nope']}}}}")
                .reason()).isEqualTo("Custom Analyzer [a] failed to find char_filter under name [nope]");
    }

    @Test
    void a_normalizer_may_only_use_normalizing_filters() {
        assertThat(rejected("{'analysis':{'normalizer':{'n':{'type':'custom','filter':['lowercase','stemmer']}}}}")
                .reason()).isEqualTo("Custom normalizer [n] may not use filter [stemmer]");
        assertThat(rejected("{'analysis':{'filter':{'s':{'type':'snowball'}},"
                + "'normalizer':{'n':{'type':'custom','filter':['s']}}}}").reason())
                .isEqualTo("Custom normalizer [n] may not use filter [s]");
    }

    @Test
    void a_mapping_may_only_name_analyzers_the_index_has() {
        GatewayException e = failure(ErrorKind.MAPPER_PARSING, () -> CreateIndexRequest.parse("i", json(
                "{'mappings':{'properties':{'t':{'type':'text','analyzer':'nope'}}}}")));
        assertThat(e.reason()).isEqualTo("Failed to parse mapping: analyzer [nope] has not been configured in"
                + " mappings");

        CreateIndexRequest ok = CreateIndexRequest.parse("i", json("{'settings':" + CATALOGUE + ","
                + "'mappings':{'properties':{'t':{'type':'text','analyzer':'folded','search_analyzer':'en'},"
                + "'e':{'type':'text','analyzer':'english'}}}}"));
        assertThat(ok.mappings().properties().keySet()).containsExactly("e", "t");
    }

    @Test
    void analyze_requests_name_or_define_their_components() {
        AnalyzeRequest r = AnalyzeRequest.parse(json("{'text':['a b','c'],'tokenizer':'whitespace',"
                + "'filter':['lowercase',{'type':'stop','stopwords':['a']}],'char_filter':'html_strip'}"));

        assertThat(r.text()).containsExactly("a b", "c");
        assertThat(r.tokenizer()).contains(new AnalyzeRequest.Component.Named("whitespace"));
        assertThat(r.filters()).hasSize(2);
        assertThat(((AnalyzeRequest.Component.Inline) r.filters().get(1)).definition().list("stopwords"))
                .containsExactly("a");
        assertThat(r.charFilters()).containsExactly(new AnalyzeRequest.Component.Named("html_strip"));

        GatewayException missing = failure(() -> AnalyzeRequest.parse(json("{'analyzer':'standard'}")));
        assertThat(missing.reason()).contains("text is missing");
        GatewayException both = failure(() -> AnalyzeRequest.parse(json(
                "{'text':'x','analyzer':'standard','tokenizer':'standard'}")));
        assertThat(both.reason()).contains("tokenizer/filters should be null if analyzer is specified");
        assertThat(failure(() -> AnalyzeRequest.parse(json("{'text':'x','tokenizer':{'type':'nope'}}"))).reason())
                .isEqualTo("Unknown tokenizer type [nope] for [_inline_]");
        assertThat(List.of(r.explain())).containsExactly(false);
        AnalyzeRequest explained = AnalyzeRequest.parse(json("{'text':'x','explain':true,"
                + "'attributes':['Keyword','bytes']}"));
        assertThat(List.of(explained.explain())).containsExactly(true);
        assertThat(explained.attributes()).as("matched without case, as ES").containsExactly("keyword", "bytes");
        assertThat(AnalyzeRequest.parse(json("{'text':'x','attributes':'keyword'}")).attributes())
                .containsExactly("keyword");
    }
}
