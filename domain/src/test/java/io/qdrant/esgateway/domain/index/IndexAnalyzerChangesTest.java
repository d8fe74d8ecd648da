package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import org.junit.jupiter.api.Test;

/** {@link AnalysisReferences#indexAnalyzerChanged}: the text fields whose index analyzer a settings change rebuilds. */
class IndexAnalyzerChangesTest {
    private static final Mappings MAPPINGS = Mappings.parse(json("""
            {'properties': {
              'title': {'type': 'text', 'analyzer': 'words', 'search_analyzer': 'plain',
                        'fields': {'auto': {'type': 'text', 'analyzer': 'auto'}}},
              'body': {'type': 'text'},
              'std': {'type': 'text', 'analyzer': 'standard'},
              'tag': {'type': 'keyword', 'fields': {'text': {'type': 'text', 'analyzer': 'plain'}}},
              'obj': {'properties': {'inner': {'type': 'text', 'analyzer': 'words'}}}
            }}"""));
    private static final String BEFORE = """
            {'analysis': {
              'analyzer': {
                'words': {'type': 'custom', 'tokenizer': 'standard', 'filter': ['lowercase', 'syn']},
                'plain': {'type': 'custom', 'tokenizer': 'standard'},
                'auto': {'type': 'custom', 'tokenizer': 'edge'}},
              'tokenizer': {'edge': {'type': 'edge_ngram', 'min_gram': 2, 'max_gram': 5}},
              'filter': {'syn': {'type': 'synonym', 'synonyms': ['tv, television']}}
            }}""";

    private static AnalysisSettings analysis(String settings) {
        return IndexSettings.parse(json(settings)).analysis();
    }

    private static java.util.List<String> changed(String after) {
        return AnalysisReferences.indexAnalyzerChanged(MAPPINGS, analysis(BEFORE), analysis(after));
    }

    @Test
    void nothingChangedNamesNoField() {
        assertThat(changed(BEFORE)).isEmpty();
        // a new analyzer no field uses
        assertThat(changed(BEFORE.replace("'plain':", "'added': {'type': 'whitespace'}, 'plain':"))).isEmpty();
    }

    @Test
    void aRedefinedAnalyzerNamesEveryTextFieldIndexedWithIt() {
        assertThat(changed(BEFORE.replace("['lowercase', 'syn']", "['lowercase']")))
                .containsExactly("obj.inner", "title");
        // a search analyzer is not an index analyzer: only the multi-field indexed with it
        assertThat(changed(BEFORE.replace("'plain': {'type': 'custom', 'tokenizer': 'standard'}",
                "'plain': {'type': 'custom', 'tokenizer': 'whitespace'}"))).containsExactly("tag.text");
    }

    @Test
    void aRedefinedComponentNamesTheFieldsOfTheAnalyzersBuiltWithIt() {
        assertThat(changed(BEFORE.replace("'tv, television'", "'tv, telly'"))).containsExactly("obj.inner", "title");
        assertThat(changed(BEFORE.replace("'max_gram': 5", "'max_gram': 6"))).containsExactly("title.auto");
    }

    @Test
    void aNewDefaultAnalyzerNamesTheFieldsWithoutAnAnalyzer() {
        assertThat(changed(BEFORE.replace("'plain':", "'default': {'type': 'whitespace'}, 'plain':")))
                .containsExactly("body");
    }
}
