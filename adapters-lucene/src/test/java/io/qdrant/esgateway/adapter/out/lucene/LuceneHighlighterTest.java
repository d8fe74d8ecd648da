package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.HighlightParser;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.lucene.search.LuceneHighlighter;

class LuceneHighlighterTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse(("{'properties':{'title':{'type':'text',"
            + "'fields':{'raw':{'type':'keyword'},'std':{'type':'text'}}},'body':{'type':'text'},"
            + "'meta':{'properties':{'note':{'type':'text'}}},'sku':{'type':'keyword'}}}").replace('\'', '"')));

    private static Map<String, List<String>> highlight(String spec, Query query, String source) {
        return new LuceneHighlighter(HighlightParser.parse(Json.parse(spec.replace('\'', '"'))), MAPPINGS, query)
                .highlight("1", (JsonObject) Json.parse(source.replace('\'', '"')));
    }

    private static Query term(String field, String text) {
        return new TermQuery(new Term(field, text));
    }

    @Test
    void wholeShortValueWithDefaultTags() {
        assertThat(highlight("{'fields':{'title':{}}}", term("title", "fox"), "{'title':'The Quick Brown Fox'}"))
                .isEqualTo(Map.of("title", List.of("The Quick Brown <em>Fox</em>")));
    }

    @Test
    void onlyFieldsWithMatchesAndRequireFieldMatch() {
        Map<String, List<String>> r = highlight("{'fields':{'title':{},'body':{}}}", term("title", "fox"),
                "{'title':'a fox','body':'another fox'}");
        assertThat(r).containsOnlyKeys("title");
        Map<String, List<String>> loose = highlight("{'require_field_match':false,'fields':{'title':{},'body':{}}}",
                term("title", "fox"), "{'title':'a fox','body':'another fox'}");
        assertThat(loose).containsOnlyKeys("title", "body");
        assertThat(loose.get("body")).containsExactly("another <em>fox</em>");
    }

    @Test
    void sentencesBoundedByFragmentSizeInPositionOrder() {
        // the last sentence (29 characters) is longer than fragment_size: cut at a word boundary
        String body = "The fox ran. A dog slept all day long in the sun. Then the fox came back home.";
        Map<String, List<String>> r = highlight("{'fields':{'body':{'fragment_size':20}}}", term("body", "fox"),
                "{'body':'" + body + "'}");
        assertThat(r.get("body")).containsExactly("The <em>fox</em> ran.", "Then the <em>fox</em> came back");
    }

    @Test
    void numberOfFragmentsLimitsAndZeroGivesEachMatchingValueWhole() {
        String source = "{'body':['one fox here. more text follows. and a fox again','no match','fox end']}";
        assertThat(highlight("{'fields':{'body':{'number_of_fragments':0}}}", term("body", "fox"), source)
                .get("body")).containsExactly("one <em>fox</em> here. more text follows. and a <em>fox</em> again",
                "<em>fox</em> end");
        assertThat(highlight("{'fields':{'body':{'number_of_fragments':1,'fragment_size':10}}}", term("body", "fox"),
                source).get("body")).hasSize(1);
    }

    @Test
    void phraseHighlightsOnlyThePhrase() {
        Query phrase = new PhraseQuery("body", "quick", "brown");
        assertThat(highlight("{'fields':{'body':{}}}", phrase, "{'body':'quick fox, brown dog, quick brown fox'}")
                .get("body")).containsExactly("quick fox, brown dog, <em>quick brown</em> fox");
    }

    @Test
    void multiTermQueriesSubFieldsAndDottedKeys() {
        Query q = new BooleanQuery.Builder().add(new PrefixQuery(new Term("meta.note", "fo")), Occur.SHOULD)
                .add(term("title.std", "fox"), Occur.SHOULD).build();
        Map<String, List<String>> r = highlight("{'fields':{'meta.note':{},'title*':{}}}", q,
                "{'meta':[{'note':'the fox'},{'note':'no'}],'meta.note':'four foxes','title':'fox'}");
        assertThat(r.get("meta.note")).containsExactly("the <em>fox</em>", "<em>four</em> <em>foxes</em>");
        assertThat(r).containsOnlyKeys("meta.note", "title.std");
    }

    @Test
    void noMatchSizeCutsAtTheNextWordBoundary() {
        assertThat(highlight("{'fields':{'body':{'no_match_size':6}}}", term("body", "zebra"),
                "{'body':'hello wonderful world'}").get("body")).containsExactly("hello wonderful");
    }

    @Test
    void htmlEncoderAndCustomTags() {
        assertThat(highlight("{'encoder':'html','pre_tags':['<b>'],'post_tags':['</b>'],'fields':{'body':{}}}",
                term("body", "fox"), "{'body':'<i>fox</i> & co'}").get("body"))
                .containsExactly("&lt;i&gt;<b>fox</b>&lt;&#x2F;i&gt; &amp; co");
    }

    @Test
    void orderByScore() {
        String body = "A fox. Nothing to see here at all today. Fox and fox and fox together.";
        assertThat(highlight("{'order':'score','fields':{'body':{'fragment_size':10}}}", term("body", "fox"),
                "{'body':'" + body + "'}").get("body").get(0)).startsWith("<em>Fox</em> and");
    }

    @Test
    void keywordValuesAreHighlightedWhole() {
        Query q = new BooleanQuery.Builder().add(term("sku", "s 1"), Occur.SHOULD)
                .add(term("title.raw", "Fox Tales"), Occur.SHOULD).build();
        Map<String, List<String>> r = highlight("{'fields':{'*':{}}}", q,
                "{'sku':['s 1','s 2'],'title':'Fox Tales'}");
        assertThat(r).containsOnlyKeys("sku", "title.raw");
        assertThat(r.get("sku")).containsExactly("<em>s 1</em>");
        assertThat(r.get("title.raw")).containsExactly("<em>Fox Tales</em>");
    }

    @Test
    void lazilyComputedOnFirstRead() {
        LuceneHighlighter h = new LuceneHighlighter(HighlightParser.parse(Json.parse("{\"fields\":{\"title\":{}}}")),
                MAPPINGS, term("title", "fox"));
        Map<String, List<String>> lazy = h.lazily("1", (JsonObject) Json.parse("{\"title\":\"a fox\"}"));
        assertThat(lazy).isEqualTo(Map.of("title", List.of("a <em>fox</em>")));
        assertThat(h.lazily("1", (JsonObject) Json.parse("{\"title\":\"a dog\"}"))).isEmpty();
    }

    private static final IndexMetadata SHOP = new IndexMetadata("shop", "u1", java.time.Instant.EPOCH,
            IndexSettings.DEFAULTS, Mappings.parse(Json.parse(("{'properties':{'name':{'type':'text'},"
                    + "'category':{'type':'keyword'},'price':{'type':'float'},'tags':{'type':'keyword'}}}")
                    .replace('\'', '"'))));

    /** The highlight of one document for a search body, through the scorer's highlighter (both stores use it). */
    private static Map<String, List<String>> highlightSearch(String body, String id, String source) {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(body.replace('\'', '"'))), Map.of());
        return Map.copyOf(LuceneStores.relevanceScorer().highlighter(SHOP, request)
                .apply(id, (JsonObject) Json.parse(source.replace('\'', '"'))));
    }

    @Test
    void clausesOnOtherFieldsAreMatchedAgainstTheDocument() {
        String lamp = "{'name':'alpha lamp','category':'c0','price':20}";
        String highlighted = "<em>alpha</em> lamp";
        for (String query : List.of(
                "{'bool':{'must':[{'match':{'name':'alpha'}}],'filter':[{'term':{'category':'c0'}}]}}",
                "{'bool':{'must':[{'match':{'name':'alpha'}}],'filter':[{'range':{'price':{'gte':10}}}]}}",
                "{'bool':{'must':[{'match':{'name':'alpha'}},{'term':{'category':'c0'}}]}}",
                "{'bool':{'must':[{'match':{'name':'alpha'}},{'exists':{'field':'price'}},{'ids':{'values':['7']}}]}}",
                "{'bool':{'must':[{'match':{'name':'alpha'}}],'must_not':[{'term':{'category':'c1'}}]}}",
                "{'constant_score':{'filter':{'bool':{'must':[{'match':{'name':'alpha'}},"
                        + "{'prefix':{'category':'c'}}]}}}}")) {
            assertThat(highlightSearch("{'query':" + query + ",'highlight':{'fields':{'name':{}}}}", "7", lamp))
                    .as(query).isEqualTo(Map.of("name", List.of(highlighted)));
        }
        // a branch whose clause on another field does not match the document highlights nothing, as in Elasticsearch
        String branches = "{'query':{'bool':{'should':[{'bool':{'must':[{'match':{'name':'alpha'}},"
                + "{'term':{'category':'c1'}}]}},{'match':{'name':'lamp'}}]}},'highlight':{'fields':{'name':{}}}}";
        assertThat(highlightSearch(branches, "7", lamp)).isEqualTo(Map.of("name", List.of("alpha <em>lamp</em>")));
        String otherId = "{'query':{'bool':{'must':[{'match':{'name':'alpha'}},{'ids':{'values':['8']}}]}},"
                + "'highlight':{'fields':{'name':{}}}}";
        assertThat(highlightSearch(otherId, "7", lamp)).isEmpty();
    }

    @Test
    void aKeywordGivesAtMostNumberOfFragmentsValuesTheBestFirst() {
        Query q = new org.apache.lucene.search.WildcardQuery(new Term("sku", "*e*"));
        String source = "{'sku':['green','red','blue']}";
        assertThat(highlight("{'fields':{'sku':{'number_of_fragments':1}}}", q, source).get("sku"))
                .containsExactly("<em>red</em>");
        assertThat(highlight("{'fields':{'sku':{'number_of_fragments':0}}}", q, source).get("sku"))
                .containsExactly("<em>green</em>", "<em>red</em>", "<em>blue</em>");
    }

    @Test
    void withoutRequireFieldMatchAPhrasePrefixHighlightsItsExpansionsAnywhere() {
        Query prefix = new org.apache.lucene.search.MultiPhraseQuery.Builder()
                .add(new Term[] {new Term("body", "river")}, 0)
                .add(new Term[] {new Term("body", "dog"), new Term("body", "dogs")}, 1).build();
        String source = "{'body':'brown dog river stone. river dogs run'}";
        assertThat(highlight("{'require_field_match':false,'fields':{'body':{'number_of_fragments':0}}}", prefix,
                source).get("body")).containsExactly("brown <em>dog</em> river stone. <em>river</em> <em>dogs</em> run");
        assertThat(highlight("{'fields':{'body':{'number_of_fragments':0}}}", prefix, source).get("body"))
                .containsExactly("brown dog river stone. <em>river dogs</em> run");
    }

    @Test
    void theNoMatchSummaryOfWholeValuesKeepsItsTrailingSpace() {
        String source = "{'body':'QUICK Brown dog River River PAPER Search River Lucene'}";
        assertThat(highlight("{'fields':{'body':{'no_match_size':40,'number_of_fragments':0}}}", term("body", "x"),
                source).get("body")).containsExactly("QUICK Brown dog River River PAPER Search ");
        assertThat(highlight("{'fields':{'body':{'no_match_size':40}}}", term("body", "x"), source).get("body"))
                .containsExactly("QUICK Brown dog River River PAPER Search");
    }
}
