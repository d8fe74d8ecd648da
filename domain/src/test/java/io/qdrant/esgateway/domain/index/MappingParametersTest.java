package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static io.qdrant.esgateway.domain.json.JsonFixtures.object;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.ParsedDocument;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.SearchableFields;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The leaf mapping parameters ({@code index}, {@code doc_values}, {@code store}, {@code null_value},
 * {@code copy_to}, {@code coerce}, {@code ignore_malformed}), the root {@code _source}/{@code _routing}, a
 * {@code dense_vector} without {@code dims} and {@code dynamic_templates}: parsed, rendered, merged and applied as
 * Elasticsearch 8.15 does (messages as its answers).
 */
class MappingParametersTest {

    private static Mappings mappings(String json) {
        return Mappings.parse(json(json));
    }

    private static ParsedDocument parse(Mappings m, String source) {
        return DocumentParser.parse(m, json(source), "1");
    }

    @Nested
    class Parameters {
        @Test
        void render_only_what_is_given() {
            Mappings m = mappings("{'properties':{'k':{'type':'keyword','index':false,'doc_values':false,"
                    + "'null_value':7,'copy_to':'all','store':true},'n':{'type':'long','coerce':false,"
                    + "'ignore_malformed':true,'null_value':'5'},'b':{'type':'boolean','null_value':'true'},"
                    + "'t':{'type':'text','index':false,'copy_to':['a','b']},'d':{'type':'date','ignore_malformed':true}}}");
            assertThat(m.toJson()).isEqualTo(json("{'properties':{"
                    + "'b':{'type':'boolean','null_value':true},"
                    + "'d':{'type':'date','ignore_malformed':true},"
                    + "'k':{'type':'keyword','index':false,'doc_values':false,'store':true,'null_value':'7','copy_to':['all']},"
                    + "'n':{'type':'long','null_value':5,'coerce':false,'ignore_malformed':true},"
                    + "'t':{'type':'text','index':false,'copy_to':['a','b']}}}"));
            assertThat(Mappings.parse(m.toJson())).isEqualTo(m);
        }

        @Test
        void defaults_stay_the_shared_default() {
            FieldMapping k = mappings("{'properties':{'k':{'type':'keyword','index':true}}}").properties().get("k");
            assertThat(k.options()).isSameAs(FieldOptions.DEFAULT);
        }

        @ParameterizedTest
        @CsvSource({"keyword,coerce", "keyword,ignore_malformed", "text,doc_values", "text,null_value",
                "text,coerce", "boolean,coerce", "date,coerce"})
        void a_parameter_the_type_lacks_is_unknown(String type, String parameter) {
            GatewayException e = failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'properties':{'f':{'type':'"
                    + type + "','" + parameter + "':true}}}"));
            assertThat(e.reason()).isEqualTo("Failed to parse mapping: unknown parameter [" + parameter
                    + "] on mapper [f] of type [" + type + "]");
        }

        @Test
        void bad_values() {
            assertThat(failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'properties':{'f':{'type':'long','index':"
                    + "'nope'}}}")).reason()).isEqualTo("Failed to parse mapping: Failed to parse value [nope] as only"
                    + " [true] or [false] are allowed.");
            assertThat(failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'properties':{'f':{'type':'boolean',"
                    + "'null_value':'x'}}}")).reason()).isEqualTo("Failed to parse mapping: Failed to parse value [x] as"
                    + " only [true] or [false] are allowed.");
            assertThat(failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'properties':{'f':{'type':'date',"
                    + "'null_value':'x'}}}")).reason()).isEqualTo("Failed to parse mapping: Error parsing [null_value] on"
                    + " field [f]: failed to parse date field [x] with format [strict_date_optional_time||epoch_millis]");
        }

        @Test
        void index_and_null_value_are_fixed_copy_to_and_ignore_malformed_may_change() {
            Mappings m = mappings("{'properties':{'n':{'type':'long','index':false,'copy_to':'a'}}}");
            assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> m.merge(mappings("{'properties':{'n':{'type':'long'}}}")))
                    .reason()).isEqualTo("Mapper for [n] conflicts with existing mapper:\n\tCannot update parameter"
                    + " [index] from [false] to [true]");
            Mappings changed = m.merge(mappings("{'properties':{'n':{'type':'long','index':false,"
                    + "'ignore_malformed':true}}}"));
            assertThat(changed.properties().get("n").options().ignoresMalformed()).isTrue();
            assertThat(changed.properties().get("n").options().copyTo()).isEmpty();
        }
    }

    @Nested
    class Documents {
        @Test
        void null_value_is_indexed_in_place_of_null() {
            Mappings m = mappings("{'properties':{'k':{'type':'keyword','null_value':'NULL'},"
                    + "'n':{'type':'long','null_value':7},'plain':{'type':'long'}}}");
            assertThat(parse(m, "{'k':null,'n':[1,null],'plain':null}").values()).containsExactly(
                    new IndexedValue.Keyword("k", "NULL"), new IndexedValue.LongValue("n", 1),
                    new IndexedValue.LongValue("n", 7));
        }

        @Test
        void copy_to_indexes_the_value_again_and_maps_a_new_target() {
            Mappings m = mappings("{'properties':{'c':{'type':'keyword','copy_to':['all','k2']},'all':{'type':'text'}}}");
            ParsedDocument doc = parse(m, "{'c':'copy me'}");
            assertThat(doc.values()).contains(new IndexedValue.Keyword("c", "copy me"),
                    new IndexedValue.Text("all", "copy me"), new IndexedValue.Text("k2", "copy me"),
                    new IndexedValue.Keyword("k2.keyword", "copy me"));
            assertThat(doc.updatedMappings().orElseThrow().properties().get("k2").type()).isEqualTo("text");
            assertThat(doc.source()).isEqualTo(object("{'c':'copy me'}"));
        }

        @Test
        void copies_are_not_copied_further() {
            Mappings m = mappings("{'properties':{'a':{'type':'keyword','copy_to':'b'},"
                    + "'b':{'type':'keyword','copy_to':'a'}}}");
            assertThat(parse(m, "{'a':'x'}").values()).containsExactly(new IndexedValue.Keyword("a", "x"),
                    new IndexedValue.Keyword("b", "x"));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
                "integer|'5'|Integer value passed as String",
                "integer|5.5|5.5 cannot be converted to Integer without data loss",
                "long|5.5|5.5 cannot be converted to Long without data loss",
                "float|'5.5'|Float value passed as String"})
        void coerce_false_refuses_strings_and_fractions(String type, String value, String cause) {
            Mappings m = mappings("{'properties':{'co':{'type':'" + type + "','coerce':false}}}");
            GatewayException e = failure(ErrorKind.DOCUMENT_PARSING, () -> parse(m, "{'co':" + value + "}"));
            assertThat(e.gatewayCause().reason()).isEqualTo(cause);
            assertThat(parse(mappings("{'properties':{'co':{'type':'" + type + "'}}}"), "{'co':" + value + "}")
                    .values()).hasSize(1);
        }

        @Test
        void ignore_malformed_drops_the_value_and_keeps_the_document() {
            Mappings m = mappings("{'properties':{'i':{'type':'integer','ignore_malformed':true},"
                    + "'d':{'type':'date','ignore_malformed':true},'b':{'type':'boolean','ignore_malformed':true}}}");
            assertThat(parse(m, "{'i':'xyz','d':'nope','b':'maybe','x':1}").values())
                    .containsExactly(new IndexedValue.LongValue("x", 1), new IndexedValue.Keyword("_ignored", "b"),
                            new IndexedValue.Keyword("_ignored", "d"), new IndexedValue.Keyword("_ignored", "i"));
            assertThat(parse(m, "{'i':[1,'x',2]}").values()).containsExactly(new IndexedValue.LongValue("i", 1),
                    new IndexedValue.LongValue("i", 2), new IndexedValue.Keyword("_ignored", "i"));
            failure(ErrorKind.DOCUMENT_PARSING, () -> parse(m, "{'d':{'a':1}}"));
        }

        @Test
        void the_first_vector_fixes_dims() {
            Mappings m = mappings("{'properties':{'v':{'type':'dense_vector'}}}");
            ParsedDocument doc = parse(m, "{'v':[1,2,3]}");
            Mappings updated = doc.updatedMappings().orElseThrow();
            assertThat(updated.properties().get("v").toJson()).isEqualTo(json(
                    "{'type':'dense_vector','dims':3,'index':true,'similarity':'cosine'}"));
            GatewayException e = failure(ErrorKind.DOCUMENT_PARSING, () -> parse(updated, "{'v':[1,2]}"));
            assertThat(e.reason()).isEqualTo("failed to parse: The [dense_vector] field [v] in doc [document with id"
                    + " '1'] has a different number of dimensions [2] than defined in the mapping [3]");
        }
    }

    @Nested
    class Root {
        @Test
        void source_and_routing_render_and_filter() {
            Mappings m = mappings("{'_source':{'includes':['a*','o.*'],'excludes':['a2']},'_routing':{'required':false}}");
            assertThat(m.toJson()).isEqualTo(json("{'_routing':{'required':false},"
                    + "'_source':{'includes':['a*','o.*'],'excludes':['a2']}}"));
            assertThat(m.root().requiresRouting()).isFalse();
            assertThat(mappings("{'_routing':{'required':true}}").root().requiresRouting()).isTrue();
            assertThat(SourceFilter.stored(m, object("{'a1':'x','a2':'y','b':'z','o':{'p':1}}")))
                    .isEqualTo(object("{'a1':'x','o':{'p':1}}"));
            assertThat(SourceFilter.stored(Mappings.EMPTY, object("{'b':1}"))).isEqualTo(object("{'b':1}"));
        }

        @Test
        void a_disabled_source_is_kept_and_shown_in_the_mapping() {
            Mappings m = mappings("{'_source':{'enabled':false},'properties':{'k':{'type':'keyword'}}}");
            assertThat(m.root().sourceDisabled()).isTrue();
            assertThat(mappings("{'_source':{'enabled':true}}").root().sourceDisabled()).isFalse();
            assertThat(Mappings.EMPTY.root().sourceDisabled()).isFalse();
            assertThat(failure(ErrorKind.UNSUPPORTED, () -> mappings("{'_source':{'mode':'synthetic'}}")).reason())
                    .contains("[_source.mode]");
        }
    }

    @Nested
    class DynamicTemplates {
        private final Mappings m = mappings("{'dynamic_templates':["
                + "{'strs':{'match_mapping_type':'string','unmatch':'t_*','mapping':{'type':'keyword'}}},"
                + "{'dyn':{'match':'d_*','mapping':{'type':'{dynamic_type}','index':false}}},"
                + "{'nm':{'path_match':'o.*','mapping':{'type':'keyword','copy_to':'all_{name}'}}},"
                + "{'re':{'match_pattern':'regex','match':'^r\\\\d+$','mapping':{'doc_values':false}}},"
                + "{'any':{'match_mapping_type':'*','match':'x*','mapping':{'type':'keyword'}}}]}");

        @Test
        void first_match_wins_with_placeholders() {
            ParsedDocument doc = parse(m, "{'s':'hello','t_a':'text here','d_l':5,'d_f':1.5,'d_s':'str','d_b':true,"
                    + "'d_d':'2024-01-01','o':{'p':'v'},'r1':7,'r1x':8,'r2':'abc','x1':3}");
            assertThat(doc.updatedMappings().orElseThrow().withProperties(new java.util.TreeMap<>(
                    doc.updatedMappings().get().properties())).toJson().get("properties")).isEqualTo(json("{"
                    + "'d_b':{'type':'boolean','index':false},'d_d':{'type':'date','index':false},"
                    + "'d_f':{'type':'float','index':false},'d_l':{'type':'long','index':false},"
                    + "'d_s':{'type':'keyword'},'o':{'properties':{'p':{'type':'keyword'}}},"
                    + "'r1':{'type':'long','doc_values':false},'r1x':{'type':'long'},'r2':{'type':'keyword'},"
                    + "'s':{'type':'keyword'},"
                    + "'t_a':{'type':'text','fields':{'keyword':{'type':'keyword','ignore_above':256}}},"
                    + "'x1':{'type':'keyword'}}"));
        }

        @Test
        void haystack_default_strings_to_keyword() {
            Mappings h = mappings("{'dynamic_templates':[{'strings':{'path_match':'*','match_mapping_type':'string',"
                    + "'mapping':{'type':'keyword'}}}]}");
            ParsedDocument doc = parse(h, "{'content':'some text','meta':{'name':'a'},'n':1}");
            assertThat(doc.updatedMappings().orElseThrow().toJson().get("properties")).isEqualTo(json("{"
                    + "'content':{'type':'keyword'},'meta':{'properties':{'name':{'type':'keyword'}}},"
                    + "'n':{'type':'long'}}"));
        }

        @Test
        void a_template_without_type_maps_strings_as_text_and_name_in_values() {
            Mappings t = mappings("{'dynamic_templates':[{'a':{'match':'a1','mapping':{'type':'{dynamic_type}',"
                    + "'copy_to':'all_{name}'}}},{'b':{'match':'b*','mapping':{'index':false}}}]}");
            ParsedDocument doc = parse(t, "{'a1':'x','b1':'y','b4':{'q':'x'}}");
            assertThat(doc.updatedMappings().orElseThrow().toJson().get("properties")).isEqualTo(json("{"
                    + "'a1':{'type':'text','copy_to':['all_a1']},"
                    + "'all_a1':{'type':'text','fields':{'keyword':{'type':'keyword','ignore_above':256}}},"
                    + "'b1':{'type':'text','index':false},"
                    + "'b4':{'properties':{'q':{'type':'text','fields':{'keyword':{'type':'keyword','ignore_above':256}}}}}}"));
        }

        @Test
        void a_match_all_template_applies_to_objects_too() {
            Mappings t = mappings("{'dynamic_templates':[{'a':{'match':'*','mapping':{'type':'keyword'}}}]}");
            failure(ErrorKind.DOCUMENT_PARSING, () -> parse(t, "{'o':{'a':1}}"));
        }

        @Test
        void errors() {
            assertThat(failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'dynamic_templates':[{'a':{"
                    + "'match_mapping_type':'strin','mapping':{'type':'text'}}}]}")).reason()).isEqualTo(
                    "Failed to parse mapping: No field type matched on [strin], possible values are [object, string,"
                            + " long, double, boolean, date, binary]");
            assertThat(failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'dynamic_templates':[{'a':{"
                    + "'mapping':{'type':'text'},'bogus':1}}]}")).reason()).isEqualTo(
                    "Failed to parse mapping: Illegal dynamic template parameter: [bogus]");
            assertThat(failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'dynamic_templates':[{'a':{'match':'*'}}]}"))
                    .reason()).isEqualTo("Failed to parse mapping: template [a] must have either mapping or runtime set");
            assertThat(failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'dynamic_templates':{'a':{}}}")).reason())
                    .isEqualTo("Failed to parse mapping: Dynamic template syntax error. An array of named objects is"
                            + " expected.");
            failure(ErrorKind.MAPPER_PARSING, () -> mappings("{'dynamic_templates':[{'a':{'match':'*',"
                    + "'mapping':{'type':'nope'}}}]}"));
        }

        @Test
        void templates_render_as_given_and_merge_by_name() {
            Mappings a = mappings("{'dynamic_templates':[{'x':{'match':'x*','mapping':{'type':'keyword'}}},"
                    + "{'y':{'match':'y*','mapping':{'type':'long'}}}]}");
            Mappings merged = a.merge(mappings("{'dynamic_templates':[{'y':{'match':'z*','mapping':{'type':'long'}}},"
                    + "{'w':{'match':'w*','mapping':{'type':'keyword'}}}]}"));
            assertThat(merged.toJson()).isEqualTo(json("{'dynamic_templates':["
                    + "{'x':{'match':'x*','mapping':{'type':'keyword'}}},{'y':{'match':'z*','mapping':{'type':'long'}}},"
                    + "{'w':{'match':'w*','mapping':{'type':'keyword'}}}]}"));
        }
    }

    @Nested
    class Searchable {
        private final Mappings m = mappings("{'properties':{'k':{'type':'keyword','index':false},"
                + "'kn':{'type':'keyword','index':false,'doc_values':false},'t':{'type':'text','index':false},"
                + "'plain':{'type':'keyword'}}}");

        @Test
        void only_mappings_with_unindexed_fields_are_rewritten() {
            assertThat(SearchableFields.applies(m)).isTrue();
            assertThat(SearchableFields.applies(mappings("{'properties':{'k':{'type':'keyword','doc_values':false}}}")))
                    .isFalse();
        }

        @Test
        void a_doc_values_field_scores_a_constant_and_an_unsearchable_one_fails() {
            Query term = new Query.Term("k", json("'a'"), false, 2f);
            assertThat(SearchableFields.rewrite(term, m, "i", "u")).isEqualTo(new Query.ConstantScore(term, 2f));
            Query plain = new Query.Term("plain", json("'a'"), false, 1f);
            assertThat(SearchableFields.rewrite(plain, m, "i", "u")).isSameAs(plain);
            GatewayException e = failure(ErrorKind.QUERY_SHARD, () -> SearchableFields.rewrite(
                    new Query.Term("kn", json("'a'"), false, 1f), m, "i", "u"));
            assertThat(e.reason()).isEqualTo("failed to create query: Cannot search on field [kn] since it is not"
                    + " indexed nor has doc values.");
            assertThat(failure(ErrorKind.QUERY_SHARD, () -> SearchableFields.rewrite(
                    new Query.Term("t", json("'a'"), false, 1f), m, "i", "u")).reason())
                    .isEqualTo("failed to create query: Cannot search on field [t] since it is not indexed.");
            assertThat(SearchableFields.rewrite(new Query.Exists("kn", 1f), m, "i", "u"))
                    .isEqualTo(new Query.MatchNone(1f));
            assertThat(SearchableFields.rewrite(new Query.Exists("k", 1f), m, "i", "u"))
                    .isEqualTo(new Query.Exists("k", 1f));
        }

        @Test
        void nested_in_bool() {
            Query q = new Query.Bool(List.of(new Query.Term("k", json("'a'"), false, 1f)), List.of(), List.of(),
                    List.of(new Query.Exists("kn", 1f)), new io.qdrant.esgateway.domain.query.MinimumShouldMatch.Unspecified(), 1f);
            Query.Bool out = (Query.Bool) SearchableFields.rewrite(q, m, "i", "u");
            assertThat(out.must().get(0)).isInstanceOf(Query.ConstantScore.class);
            assertThat(out.mustNot().get(0)).isEqualTo(new Query.MatchNone(1f));
        }
    }
}
