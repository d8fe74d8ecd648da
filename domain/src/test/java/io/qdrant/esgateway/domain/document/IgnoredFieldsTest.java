package io.qdrant.esgateway.domain.document;

import static io.qdrant.esgateway.domain.document.DocumentParsing.mapping;
import static io.qdrant.esgateway.domain.json.JsonFixtures.object;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.index.Mappings;
import org.junit.jupiter.api.Test;

class IgnoredFieldsTest {
    static final Mappings MAPPINGS = mapping("{'properties':{'k':{'type':'keyword','ignore_above':3},"
            + "'n':{'type':'long','ignore_malformed':true},'t':{'type':'text','fields':{'raw':{'type':'keyword',"
            + "'ignore_above':2}}},'o':{'properties':{'k':{'type':'keyword','ignore_above':1}}}}}");

    @Test
    void listsEveryFieldWithALeftOutValueOnceAndSorted() {
        assertThat(DocumentParser.ignoredFields(MAPPINGS, object("{'t':'hello','o':{'k':'xy'},'n':'x','k':['ab','abcd',"
                + "'abcde']}"))).containsExactly("k", "n", "o.k", "t.raw");
        assertThat(DocumentParser.parse(MAPPINGS, object("{'k':'abcd'}"), "1").ignored()).containsExactly("k");
    }

    @Test
    void isEmptyWhenEveryValueIsIndexedOrTheMappingCannotIgnore() {
        assertThat(DocumentParser.ignoredFields(MAPPINGS, object("{'k':'ab','n':1,'t':'a'}"))).isEmpty();
        assertThat(DocumentParser.ignoredFields(mapping("{'properties':{'k':{'type':'keyword'}}}"),
                object("{'k':'abcdef'}"))).isEmpty();
        // a source that no longer fits its mapping shows nothing rather than failing the read
        assertThat(DocumentParser.ignoredFields(MAPPINGS, object("{'k':{'a':1}}"))).isEmpty();
    }

    @Test
    void theIgnoredFieldsAndTheRoutingAreIndexedAsMetadataKeywords() {
        assertThat(DocumentParser.parse(MAPPINGS, object("{'n':'x','k':['ab','abcd']}"), "1").values())
                .containsExactly(new IndexedValue.Keyword("k", "ab"), new IndexedValue.Keyword("_ignored", "k"),
                        new IndexedValue.Keyword("_ignored", "n"));
        assertThat(DocumentParser.parse(MAPPINGS, object("{'k':'ab'}"), "1", java.util.Optional.of("r1")).values())
                .containsExactly(new IndexedValue.Keyword("k", "ab"), new IndexedValue.Keyword("_routing", "r1"));
        assertThat(MAPPINGS.field("_ignored")).get().isInstanceOf(io.qdrant.esgateway.domain.index.FieldMapping
                .KeywordField.class);
        // _routing has no doc values: sorts, aggregations and docvalue_fields fail with Elasticsearch's message
        assertThat(MAPPINGS.field("_routing").orElseThrow().options().docValues()).isFalse();
        assertThat(io.qdrant.esgateway.domain.error.GatewayException.noDocValues("_routing", "keyword").reason())
                .isEqualTo("Fielddata is not supported on field [_routing] of type [_routing]");
    }

    @Test
    void aggregationsAndSortsOnIgnoredParse() {
        for (String body : new String[] {"{'aggs':{'a':{'terms':{'field':'_ignored'}}}}",
                "{'aggs':{'a':{'value_count':{'field':'_ignored'}}}}", "{'sort':['_ignored']}",
                "{'sort':[{'_ignored':{'order':'desc'}}]}"}) {
            assertThat(io.qdrant.esgateway.domain.search.SearchRequestParser.parse(java.util.Optional.of(
                    io.qdrant.esgateway.domain.json.JsonFixtures.json(body)), java.util.Map.of())).as(body).isNotNull();
        }
    }
}
