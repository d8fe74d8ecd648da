package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.compact;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping.KeywordField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.FieldMapping.TextField;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class MappingsTest {

    private static Mappings mapping(String json) {
        return Mappings.parse(json(json));
    }

    /** A mapping with every field type, objects, multi-fields, {@code dynamic} and {@code _meta}. */
    private static Mappings catalogueMapping() {
        return mapping("""
                {'dynamic':'strict','_meta':{'owner':'shop'},'properties':{
                  'title':{'type':'text','analyzer':'standard','fields':{'raw':{'type':'keyword','ignore_above':256}}},
                  'sku':{'type':'keyword'},
                  'price':{'type':'double'},'stock':{'type':'integer'},'rank':{'type':'short'},'flags':{'type':'byte'},
                  'views':{'type':'long'},'weight':{'type':'float'},'score':{'type':'half_float'},
                  'active':{'type':'boolean'},
                  'added':{'type':'date','format':'yyyy-MM-dd'},
                  'embedding':{'type':'dense_vector','dims':3,'similarity':'l2_norm',
                               'index_options':{'type':'hnsw','m':16,'ef_construction':64}},
                  'vendor':{'dynamic':'false','properties':{'name':{'type':'keyword'},'address.city':{'type':'keyword'}}},
                  'extra':{'type':'object'}
                }}""");
    }

    private static Mappings withTitleKeyword() {
        return mapping("{'properties':{'title':{'type':'text','fields':{'keyword':{'type':'keyword'}}},"
                + "'user':{'properties':{'name':{'type':'keyword'}}},'count':{'type':'long'}}}");
    }

    private static GatewayException conflict(String current, String update) {
        GatewayException e = failure(() -> mapping(current).merge(mapping(update)));
        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        return e;
    }

    @Nested
    class ToJson {
        @Test
        void an_empty_mapping_is_an_empty_object() {
            assertThat(compact(Mappings.EMPTY.toJson())).isEqualTo("{}");
        }

        @Test
        void renders_dynamic_meta_then_properties_sorted_by_name() {
            assertThat(compact(mapping("{'properties':{'z':{'type':'long'},'a':{'type':'keyword'},'m':{'type':'boolean'}},"
                    + "'_meta':{'b':1,'a':2},'dynamic':false}").toJson()))
                    .isEqualTo("{'dynamic':'false','_meta':{'b':1,'a':2},'properties':{'a':{'type':'keyword'},"
                            + "'m':{'type':'boolean'},'z':{'type':'long'}}}");
        }

        @Test
        void renders_every_field_type_as_elasticsearch_does() {
            assertThat(compact(catalogueMapping().toJson())).isEqualTo("{'dynamic':'strict','_meta':{'owner':'shop'},"
                    + "'properties':{"
                    + "'active':{'type':'boolean'},"
                    + "'added':{'type':'date','format':'yyyy-MM-dd'},"
                    + "'embedding':{'type':'dense_vector','dims':3,'index':true,'similarity':'l2_norm',"
                    + "'index_options':{'type':'hnsw','m':16,'ef_construction':64}},"
                    + "'extra':{'type':'object'},"
                    + "'flags':{'type':'byte'},"
                    + "'price':{'type':'double'},"
                    + "'rank':{'type':'short'},"
                    + "'score':{'type':'half_float'},"
                    + "'sku':{'type':'keyword'},"
                    + "'stock':{'type':'integer'},"
                    + "'title':{'type':'text','analyzer':'standard','fields':{'raw':{'type':'keyword','ignore_above':256}}},"
                    + "'vendor':{'dynamic':'false','properties':{'address':{'properties':{'city':{'type':'keyword'}}},"
                    + "'name':{'type':'keyword'}}},"
                    + "'views':{'type':'long'},"
                    + "'weight':{'type':'float'}}}");
        }

        @Test
        void sorts_multi_fields_and_object_properties() {
            assertThat(compact(mapping("{'properties':{'o':{'properties':{'y':{'type':'long'},'b':{'type':'long'}}},"
                    + "'t':{'type':'text','fields':{'z':{'type':'keyword'},'a':{'type':'keyword'}}}}}").toJson()))
                    .isEqualTo("{'properties':{'o':{'properties':{'b':{'type':'long'},'y':{'type':'long'}}},"
                            + "'t':{'type':'text','fields':{'a':{'type':'keyword'},'z':{'type':'keyword'}}}}}");
        }

        @Test
        void an_unindexed_vector_has_no_similarity() {
            assertThat(compact(mapping("{'properties':{'v':{'type':'dense_vector','dims':2,'index':false}}}").toJson()))
                    .isEqualTo("{'properties':{'v':{'type':'dense_vector','dims':2,'index':false}}}");
        }

        @Test
        void an_object_without_properties_names_its_type() {
            assertThat(compact(mapping("{'properties':{'o':{'type':'object','dynamic':'strict'}}}").toJson()))
                    .isEqualTo("{'properties':{'o':{'type':'object','dynamic':'strict'}}}");
        }

        @Test
        void parses_back_to_the_same_mapping() {
            Mappings original = catalogueMapping();

            assertThat(Mappings.parse(original.toJson())).isEqualTo(original);
        }
    }

    @Nested
    class Merge {
        @Test
        void adds_new_fields() {
            Mappings merged = withTitleKeyword().merge(mapping("{'properties':{'added':{'type':'date'}}}"));

            assertThat(merged.properties()).containsOnlyKeys("added", "count", "title", "user");
            assertThat(merged.field("title.keyword")).isPresent();
        }

        @Test
        void merges_objects_recursively() {
            Mappings merged = withTitleKeyword().merge(mapping(
                    "{'properties':{'user':{'dynamic':'strict','properties':{'age':{'type':'integer'}}}}}"));

            assertThat(compact(merged.properties().get("user").toJson()))
                    .isEqualTo("{'dynamic':'strict','properties':{'age':{'type':'integer'},'name':{'type':'keyword'}}}");
        }

        @Test
        void keeps_an_objects_dynamic_when_the_update_says_nothing() {
            Mappings merged = mapping("{'properties':{'o':{'dynamic':false,'properties':{'a':{'type':'long'}}}}}")
                    .merge(mapping("{'properties':{'o':{'properties':{'b':{'type':'long'}}}}}"));

            assertThat(compact(merged.properties().get("o").toJson()))
                    .isEqualTo("{'dynamic':'false','properties':{'a':{'type':'long'},'b':{'type':'long'}}}");
        }

        @Test
        void merges_multi_fields() {
            Mappings merged = withTitleKeyword().merge(mapping(
                    "{'properties':{'title':{'type':'text','fields':{'length':{'type':'integer'}}}}}"));

            assertThat(((TextField) merged.properties().get("title")).fields()).containsOnlyKeys("keyword", "length");
        }

        @Test
        void replaces_dynamic_and_meta_when_given_and_keeps_them_otherwise() {
            Mappings current = mapping("{'dynamic':'strict','_meta':{'v':1}}");

            assertThat(current.merge(mapping("{'dynamic':true,'_meta':{'v':2}}")))
                    .isEqualTo(mapping("{'dynamic':true,'_meta':{'v':2}}"));
            assertThat(current.merge(Mappings.EMPTY)).isEqualTo(current);
        }

        @Test
        void an_identical_update_changes_nothing() {
            assertThat(catalogueMapping().merge(catalogueMapping())).isEqualTo(catalogueMapping());
        }

        @Test
        void allows_changing_ignore_above() {
            Mappings merged = mapping("{'properties':{'tag':{'type':'keyword','ignore_above':10}}}")
                    .merge(mapping("{'properties':{'tag':{'type':'keyword','ignore_above':20}}}"));

            assertThat(merged.properties().get("tag")).isEqualTo(new KeywordField(Optional.of(20), new java.util.TreeMap<>()));
        }

        @Test
        void refuses_a_type_change() {
            assertThat(conflict("{'properties':{'f':{'type':'keyword'}}}", "{'properties':{'f':{'type':'long'}}}").reason())
                    .isEqualTo("mapper [f] cannot be changed from type [keyword] to [long]");
        }

        @Test
        void refuses_a_type_change_deep_in_an_object_naming_the_full_path() {
            assertThat(conflict("{'properties':{'a':{'properties':{'b':{'type':'integer'}}}}}",
                    "{'properties':{'a.b':{'type':'long'}}}").reason())
                    .isEqualTo("mapper [a.b] cannot be changed from type [integer] to [long]");
        }

        @Test
        void refuses_a_type_change_of_a_multi_field() {
            assertThat(conflict("{'properties':{'t':{'type':'text','fields':{'k':{'type':'keyword'}}}}}",
                    "{'properties':{'t':{'type':'text','fields':{'k':{'type':'text'}}}}}").reason())
                    .isEqualTo("mapper [t.k] cannot be changed from type [keyword] to [text]");
        }

        @Test
        void refuses_a_leaf_where_an_object_was() {
            assertThat(conflict("{'properties':{'o':{'properties':{'a':{'type':'long'}}}}}",
                    "{'properties':{'o':{'type':'keyword'}}}").reason())
                    .isEqualTo("can't merge a non object mapping [o] with an object mapping");
        }

        @Test
        void refuses_an_object_where_a_leaf_was_with_elasticsearchs_message() {
            assertThat(conflict("{'properties':{'o':{'type':'keyword'}}}",
                    "{'properties':{'o':{'properties':{'a':{'type':'long'}}}}}").reason())
                    .isEqualTo("can't merge a non object mapping [o] with an object mapping");
        }

        @Test
        void refuses_a_format_change() {
            assertThat(conflict("{'properties':{'d':{'type':'date','format':'yyyy'}}}",
                    "{'properties':{'d':{'type':'date','format':'epoch_millis'}}}").reason())
                    .isEqualTo("Mapper for [d] conflicts with existing mapper:\n\t"
                            + "Cannot update parameter [format] from [yyyy] to [epoch_millis]");
        }

        @Test
        void names_the_default_format_when_the_field_had_none() {
            assertThat(conflict("{'properties':{'d':{'type':'date'}}}",
                    "{'properties':{'d':{'type':'date','format':'yyyy'}}}").reason())
                    .isEqualTo("Mapper for [d] conflicts with existing mapper:\n\tCannot update parameter [format]"
                            + " from [strict_date_optional_time||epoch_millis] to [yyyy]");
        }

        @Test
        void accepts_the_default_format_spelt_out() {
            Mappings current = mapping("{'properties':{'d':{'type':'date'}}}");

            assertThat(current.merge(mapping(
                    "{'properties':{'d':{'type':'date','format':'strict_date_optional_time||epoch_millis'}}}")))
                    .isEqualTo(current);
        }

        @Test
        void refuses_an_analyzer_change() {
            assertThat(conflict("{'properties':{'t':{'type':'text'}}}",
                    "{'properties':{'t':{'type':'text','analyzer':'standard'}}}").reason())
                    .isEqualTo("Mapper for [t] conflicts with existing mapper:\n\t"
                            + "Cannot update parameter [analyzer] from [default] to [standard]");
        }

        @Test
        void refuses_vector_changes() {
            String current = "{'properties':{'v':{'type':'dense_vector','dims':3}}}";

            assertThat(conflict(current, "{'properties':{'v':{'type':'dense_vector','dims':4}}}").reason())
                    .isEqualTo("Mapper for [v] conflicts with existing mapper:\n\tCannot update parameter [dims] from [3] to [4]");
            assertThat(conflict(current, "{'properties':{'v':{'type':'dense_vector','dims':3,'similarity':'l2_norm'}}}")
                    .reason()).isEqualTo("Mapper for [v] conflicts with existing mapper:\n\t"
                    + "Cannot update parameter [similarity] from [cosine] to [l2_norm]");
            assertThat(conflict(current, "{'properties':{'v':{'type':'dense_vector','dims':3,'index':false}}}").reason())
                    .isEqualTo("Mapper for [v] conflicts with existing mapper:\n\t"
                            + "Cannot update parameter [index] from [true] to [false]");
        }

        @Test
        void number_and_boolean_fields_merge_with_themselves() {
            Mappings current = mapping("{'properties':{'n':{'type':'long'},'b':{'type':'boolean'}}}");

            assertThat(current.merge(current)).isEqualTo(current);
        }
    }

    @Nested
    class FieldLookup {
        @Test
        void finds_a_top_level_field() {
            assertThat(withTitleKeyword().field("count")).contains(new NumberField(NumberType.LONG));
        }

        @Test
        void finds_a_field_inside_an_object() {
            assertThat(withTitleKeyword().field("user.name")).contains(new KeywordField(Optional.empty(),
                    new java.util.TreeMap<>()));
        }

        @Test
        void finds_the_object_itself() {
            assertThat(withTitleKeyword().field("user")).hasValueSatisfying(f -> assertThat(f.type()).isEqualTo("object"));
        }

        @Test
        void finds_a_multi_field() {
            assertThat(withTitleKeyword().field("title.keyword")).contains(new KeywordField(Optional.empty(),
                    new java.util.TreeMap<>()));
        }

        @Test
        void misses_unmapped_paths() {
            Mappings m = withTitleKeyword();

            assertThat(m.field("missing")).isEmpty();
            assertThat(m.field("user.age")).isEmpty();
            assertThat(m.field("title.keyword.deeper")).isEmpty();
            assertThat(m.field("count.inner")).isEmpty();
            assertThat(m.field("title.raw")).isEmpty();
        }
    }
}
