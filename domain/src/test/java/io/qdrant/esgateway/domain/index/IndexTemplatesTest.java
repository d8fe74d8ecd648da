package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Template matching, overlap, composition and the checks before storing, with Elasticsearch 8.15's answers. */
class IndexTemplatesTest {

    private static JsonValue json(String singleQuoted) {
        return Json.parse(singleQuoted.replace('\'', '"'));
    }

    private static IndexTemplate index(String name, String body) {
        return IndexTemplate.parse(name, json(body));
    }

    private static ComponentTemplate component(String name, String body) {
        return ComponentTemplate.parse(name, json(body));
    }

    @Test
    void patternsMatchAndOverlapAsSimpleWildcards() {
        assertThat(GlobPatterns.matches("logs-*", "logs-1")).isTrue();
        assertThat(GlobPatterns.matches("logs-*", "logs")).isFalse();
        assertThat(GlobPatterns.matches("*-x-*", "a-x-b")).isTrue();
        assertThat(GlobPatterns.matches("a*b*c", "abxbc")).isTrue();
        assertThat(GlobPatterns.matches("a*b*c", "acb")).isFalse();
        assertThat(GlobPatterns.overlap("logs-*", "logs-a*")).isTrue();
        assertThat(GlobPatterns.overlap("logs-*", "*-1")).as("logs-1").isTrue();
        assertThat(GlobPatterns.overlap("a*", "b*")).isFalse();
        assertThat(GlobPatterns.overlap("*a", "*b")).isFalse();
        assertThat(GlobPatterns.overlap("x*y", "*z*")).as("xzy").isTrue();
        assertThat(GlobPatterns.overlap("abc", "a*c")).isTrue();
        assertThat(GlobPatterns.overlap("abc", "abd")).isFalse();
        assertThat(GlobPatterns.overlap("*", "anything")).isTrue();
    }

    @Test
    void theHighestPriorityMatchingTemplateWinsAndComposesInOrder() {
        IndexTemplates templates = new IndexTemplates(Map.of(
                "low", index("low", "{'index_patterns':['logs-*'],'priority':1,'template':{'settings':{'number_of_replicas':2}}}"),
                "high", index("high", "{'index_patterns':['logs-a*'],'priority':9,'composed_of':['c1','c2'],"
                        + "'template':{'mappings':{'properties':{'k':{'type':'long'}}},'aliases':{'x':{'is_hidden':true}}}}")),
                Map.of("c1", component("c1", "{'template':{'settings':{'index':{'number_of_shards':'1',"
                                + "'refresh_interval':'5s'}},'mappings':{'properties':{'k':{'type':'keyword','ignore_above':3},"
                                + "'o':{'type':'nested','properties':{'a':{'type':'long'}}}}},'aliases':{'x':{},'y':{}}}}"),
                        "c2", component("c2", "{'template':{'settings':{'refresh_interval':'9s'},"
                                + "'mappings':{'properties':{'o':{'properties':{'b':{'type':'long'}}}}}}}")));
        assertThat(templates.winner("logs-ab").map(IndexTemplate::name)).contains("high");
        assertThat(templates.winner("logs-b").map(IndexTemplate::name)).contains("low");
        assertThat(templates.winner("other")).isEmpty();
        assertThat(templates.matching("logs-ab")).extracting(IndexTemplate::name).containsExactly("high", "low");

        JsonValue body = templates.applyTo("logs-ab", json("{'settings':{'number_of_shards':2},"
                + "'mappings':{'properties':{'o':{'properties':{'c':{'type':'keyword'}}}}},'aliases':{'y':{'routing':'1'}}}"));
        assertThat(Json.write(body)).isEqualTo(Json.write(json("{'settings':{'index.number_of_shards':'2',"
                + "'index.refresh_interval':'9s'},'mappings':{'properties':{'k':{'type':'long'},'o':{'properties':"
                + "{'a':{'type':'long'},'b':{'type':'long'},'c':{'type':'keyword'}}}}},"
                + "'aliases':{'x':{'is_hidden':true},'y':{'routing':'1'}}}")));
        CreateIndexRequest created = CreateIndexRequest.parse("logs-ab", body);
        assertThat(created.settings().numberOfShards()).isEqualTo(2);
        assertThat(created.aliases()).extracting(AliasMetadata::alias).containsExactlyInAnyOrder("x", "y");
        assertThat(templates.applyTo("other", null)).as("no template: the body as it was").isNull();
    }

    @Test
    void dynamicTemplatesMergeByNameAndRootObjectsKeyByKey() {
        JsonValue merged = TemplateMappings.merge((JsonValue.JsonObject) json("{'_meta':{'a':1,'b':{'c':1}},"
                        + "'dynamic':'strict','dynamic_templates':[{'s':{'match':'s*','mapping':{'type':'keyword'}}},"
                        + "{'t':{'match':'t*','mapping':{'type':'long'}}}]}"),
                (JsonValue.JsonObject) json("{'_meta':{'b':{'d':1}},'dynamic':true,"
                        + "'dynamic_templates':[{'t':{'match':'t*','mapping':{'type':'keyword'}}},{'u':{'match':'u*','mapping':{'type':'keyword'}}}]}"));
        assertThat(Json.write(merged)).isEqualTo(Json.write(json("{'_meta':{'a':1,'b':{'c':1,'d':1}},'dynamic':true,"
                + "'dynamic_templates':[{'s':{'match':'s*','mapping':{'type':'keyword'}}},{'t':{'match':'t*','mapping':"
                + "{'type':'keyword'}}},{'u':{'match':'u*','mapping':{'type':'keyword'}}}]}")));
    }

    @Test
    void storingChecksAsElasticsearch() {
        IndexTemplates templates = new IndexTemplates(Map.of("t1", index("t1", "{'index_patterns':['logs-*'],'priority':10}")),
                Map.of("c1", component("c1", "{'template':{}}")));
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> templates.validateNew(
                index("t2", "{'index_patterns':['logs-a*','x'],'priority':10}"), false)).reason()).isEqualTo(
                "index template [t2] has index patterns [logs-a*, x] matching patterns from existing templates [t1] "
                        + "with patterns (t1 => [logs-*]) that have the same priority [10], multiple index templates may "
                        + "not match during index creation, please use a different priority");
        templates.validateNew(index("t2", "{'index_patterns':['logs-a*'],'priority':11}"), false);
        templates.validateNew(index("t1", "{'index_patterns':['logs-*'],'priority':10}"), false);
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> templates.validateNew(
                index("t1", "{'index_patterns':['a']}"), true)).reason()).isEqualTo("index template [t1] already exists");
        assertThat(failure(ErrorKind.INVALID_INDEX_TEMPLATE, () -> templates.validateNew(
                index("t3", "{'index_patterns':['q*'],'composed_of':['c1','nope']}"), false)).reason()).isEqualTo(
                "index_template [t3] invalid, cause [index template [t3] specifies component templates [nope] that do "
                        + "not exist]");
        assertThat(failure(ErrorKind.INVALID_INDEX_TEMPLATE, () -> templates.validateNew(
                index("T3", "{'index_patterns':['_q']}"), false)).reason()).isEqualTo(
                "index_template [T3] invalid, cause [Validation Failed: 1: name must be lower cased;2: index_patterns "
                        + "[_q] must not start with '_';]");
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> templates.validateNew(
                index("t4", "{'index_patterns':['q*'],'template':{'mappings':{'properties':{'a':{'type':'nope'}}}}}"),
                false)).reason()).isEqualTo("composable template [t4] template after composition is invalid");
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> IndexTemplate.parse("t5", json("{'priority':1}")))
                .reason()).isEqualTo("Required [index_patterns]");
        assertThat(failure(ErrorKind.UNSUPPORTED, () -> IndexTemplate.parse("t5",
                json("{'index_patterns':['d*'],'data_stream':{}}"))).reason()).contains("data_stream");
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> templates.validateNew(
                component("c2", "{'template':{'settings':{'colour':'blue'}}}"), false)).reason()).startsWith(
                "unknown setting [index.colour]");
    }

    @Test
    void storedFormsReadBackEqual() {
        IndexTemplate t = index("t", "{'index_patterns':'a*','composed_of':['c'],'priority':3,'version':2,"
                + "'_meta':{'x':[1]},'template':{'settings':{'index':{'number_of_replicas':0}},'aliases':{'al':{}}}}");
        assertThat(IndexTemplate.parse("t", t.toJson())).isEqualTo(t);
        assertThat(Json.write(t.toJson())).isEqualTo(Json.write(json("{'index_patterns':['a*'],'template':{'settings':"
                + "{'index':{'number_of_replicas':'0'}},'aliases':{'al':{}}},'composed_of':['c'],'priority':3,"
                + "'version':2,'_meta':{'x':[1]}}")));
        ComponentTemplate c = component("c", "{'template':{'mappings':{'_source':{'enabled':true}}},'version':1}");
        assertThat(ComponentTemplate.parse("c", c.toJson())).isEqualTo(c);
    }
}
