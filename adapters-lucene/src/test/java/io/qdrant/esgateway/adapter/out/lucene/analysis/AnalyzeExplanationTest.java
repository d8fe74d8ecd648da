package io.qdrant.esgateway.adapter.out.lucene.analysis;

import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.analysis.AnalyzeDetail;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest;
import io.qdrant.esgateway.domain.analysis.AnalyzedToken;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code _analyze} with {@code explain}: each stage of an analyzer made of parts, built-ins by name, the attributes
 * (compared with Elasticsearch and OpenSearch by the {@code analyze-explain*} compat scenarios).
 */
class AnalyzeExplanationTest {
    private final LuceneTextAnalysis analysis = new LuceneTextAnalysis();

    private AnalyzeDetail explain(String request) {
        return analysis.explain(Optional.empty(), AnalyzeRequest.parse(json(request)));
    }

    private static List<String> terms(AnalyzeDetail.TokenList list) {
        return list.tokens().stream().map(t -> t.token().token()).toList();
    }

    @Test
    void a_chain_shows_each_char_filter_the_tokenizer_and_each_filter() {
        AnalyzeDetail d = explain("{'char_filter':['html_strip'],'tokenizer':'standard','filter':['lowercase',"
                + "{'type':'stop','stopwords':['the']}],'text':['<b>The</b> Fox','Dog'],'explain':true}");
        assertThat(d.customAnalyzer()).isTrue();
        assertThat(d.analyzer()).isEmpty();
        assertThat(d.charFilters()).hasSize(1);
        assertThat(d.charFilters().get(0).name()).isEqualTo("html_strip");
        assertThat(d.charFilters().get(0).filteredText()).containsExactly("The Fox", "Dog");
        assertThat(d.tokenizer().orElseThrow().name()).isEqualTo("standard");
        assertThat(terms(d.tokenizer().get())).containsExactly("The", "Fox", "Dog");
        assertThat(d.tokenFilters()).extracting(AnalyzeDetail.TokenList::name)
                .containsExactly("lowercase", "__anonymous__stop");
        assertThat(terms(d.tokenFilters().get(0))).containsExactly("the", "fox", "dog");
        assertThat(terms(d.tokenFilters().get(1))).containsExactly("fox", "dog");
        AnalyzedToken fox = d.tokenFilters().get(1).tokens().get(0).token();
        assertThat(fox).as("offsets into the original text, through the char filter")
                .isEqualTo(new AnalyzedToken("fox", 11, 14, "<ALPHANUM>", 1, 1));
        AnalyzedToken dog = d.tokenFilters().get(1).tokens().get(1).token();
        assertThat(dog.position()).as("positions and offsets continue over the texts").isEqualTo(2);
        assertThat(dog.startOffset()).isEqualTo(15);
    }

    @Test
    void every_other_attribute_is_shown_unless_attributes_names_some() {
        AnalyzeDetail d = explain("{'analyzer':'standard','text':'dog','explain':true}");
        assertThat(d.customAnalyzer()).isFalse();
        assertThat(d.analyzer().orElseThrow().name()).isEqualTo("standard");
        AnalyzeDetail.DetailedToken dog = d.analyzer().get().tokens().get(0);
        assertThat(dog.attributes()).containsEntry("bytes", new JsonValue.JsonString("[64 6f 67]"))
                .containsEntry("positionLength", new JsonValue.JsonNumber(1))
                .containsEntry("termFrequency", new JsonValue.JsonNumber(1))
                .doesNotContainKeys("term", "startOffset", "type", "positionIncrement");
        AnalyzeDetail only = explain("{'tokenizer':'standard','filter':['porter_stem'],'text':'dogs','explain':true,"
                + "'attributes':['keyword']}");
        assertThat(only.tokenFilters().get(0).tokens().get(0).attributes())
                .containsExactly(java.util.Map.entry("keyword", new JsonValue.JsonBool(false)));
        assertThat(only.tokenizer().orElseThrow().tokens().get(0).attributes()).isEmpty();
    }
}
