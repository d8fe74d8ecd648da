package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.compact;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping.BooleanField;
import io.qdrant.esgateway.domain.index.FieldMapping.DateField;
import io.qdrant.esgateway.domain.index.FieldMapping.DenseVectorField;
import io.qdrant.esgateway.domain.index.FieldMapping.KeywordField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.FieldMapping.ObjectField;
import io.qdrant.esgateway.domain.index.FieldMapping.Similarity;
import io.qdrant.esgateway.domain.index.FieldMapping.TextField;
import io.qdrant.esgateway.domain.json.JsonFixtures;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class MappingParserTest {

    static Mappings mapping(String json) {
        return Mappings.parse(json(json));
    }

    /** The one field of {@code {"properties":{"f": <definition>}}}. */
    static FieldMapping field(String definition) {
        return mapping("{'properties':{'f':" + definition + "}}").properties().get("f");
    }

    static GatewayException mappingFailure(String json) {
        return failure(() -> mapping(json));
    }

    static GatewayException fieldFailure(String definition) {
        return mappingFailure("{'properties':{'f':" + definition + "}}");
    }

    /** Asserts a {@code mapper_parsing_exception} worded "Failed to parse mapping: <detail>", caused by the detail. */
    static void assertMappingFailed(GatewayException e, String detail) {
        assertThat(e.kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
        assertThat(e.reason()).isEqualTo("Failed to parse mapping: " + detail);
        assertThat(e.gatewayCause()).isNotNull();
        assertThat(e.gatewayCause().kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
        assertThat(e.gatewayCause().reason()).isEqualTo(detail);
    }

    static void assertUnsupported(GatewayException e, String feature) {
        assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(e.reason()).isEqualTo(feature + " is not supported by the gateway");
    }

    static KeywordField keyword() {
        return new KeywordField(Optional.empty(), new TreeMap<>());
    }

    static TextField text() {
        return new TextField(Optional.empty(), new TreeMap<>());
    }

    static ObjectField objectWith(Map<String, FieldMapping> properties) {
        return new ObjectField(Optional.empty(), new TreeMap<>(properties));
    }

    @Nested
    class FieldTypes {
        @Test
        void text() {
            assertThat(field("{'type':'text'}")).isEqualTo(MappingParserTest.text());
        }

        @Test
        void text_with_the_standard_analyzer() {
            assertThat(field("{'type':'text','analyzer':'standard'}"))
                    .isEqualTo(new TextField(Optional.of("standard"), new TreeMap<>()));
        }

        @Test
        void text_with_index_search_and_search_quote_analyzers() {
            assertThat(field("{'type':'text','analyzer':'english','search_analyzer':'simple',"
                    + "'search_quote_analyzer':'whitespace'}"))
                    .isEqualTo(new TextField(Optional.of("english"), new TreeMap<>(), Optional.of("simple"),
                            Optional.of("whitespace")));
        }

        @Test
        void a_search_analyzer_alone() {
            assertThat(field("{'type':'text','search_analyzer':'simple'}")).isEqualTo(new TextField(Optional.empty(),
                    new TreeMap<>(), Optional.of("simple"), Optional.empty()));
        }


        @Test
        void keyword() {
            assertThat(field("{'type':'keyword'}")).isEqualTo(MappingParserTest.keyword());
        }

        @Test
        void keyword_with_ignore_above_also_as_a_string() {
            assertThat(field("{'type':'keyword','ignore_above':256}"))
                    .isEqualTo(new KeywordField(Optional.of(256), new TreeMap<>()));
            assertThat(field("{'type':'keyword','ignore_above':'20'}"))
                    .isEqualTo(new KeywordField(Optional.of(20), new TreeMap<>()));
        }

        @Test
        void keyword_with_a_negative_ignore_above() {
            assertMappingFailed(fieldFailure("{'type':'keyword','ignore_above':-1}"),
                    "[ignore_above] must be positive, got [-1]");
        }

        @Test
        void keyword_with_a_non_integer_ignore_above() {
            assertMappingFailed(fieldFailure("{'type':'keyword','ignore_above':'many'}"),
                    "Failed to parse value [many] as only integers are allowed for [ignore_above] on field [f]");
        }

        @ParameterizedTest
        @EnumSource(NumberType.class)
        void every_number_type(NumberType type) {
            assertThat(field("{'type':'" + type.esName() + "'}")).isEqualTo(new NumberField(type));
        }

        @Test
        void boolean_field() {
            assertThat(field("{'type':'boolean'}")).isEqualTo(new BooleanField());
        }

        @Test
        void date_with_and_without_format() {
            assertThat(field("{'type':'date'}")).isEqualTo(new DateField(Optional.empty()));
            assertThat(field("{'type':'date','format':'yyyy-MM-dd'}")).isEqualTo(new DateField(Optional.of("yyyy-MM-dd")));
        }

        @Test
        void object_by_type_and_by_properties() {
            ObjectField expected = objectWith(Map.of("city", MappingParserTest.keyword()));

            assertThat(field("{'type':'object','properties':{'city':{'type':'keyword'}}}")).isEqualTo(expected);
            assertThat(field("{'properties':{'city':{'type':'keyword'}}}")).isEqualTo(expected);
        }

        @Test
        void empty_object_by_type() {
            assertThat(field("{'type':'object'}")).isEqualTo(objectWith(Map.of()));
        }

        @Test
        void a_field_with_neither_type_nor_properties() {
            assertMappingFailed(fieldFailure("{}"), "No type specified for field [f]");
            assertMappingFailed(fieldFailure("{'dynamic':'strict'}"), "No type specified for field [f]");
        }

        @Test
        void object_with_only_enabled_is_an_object_whose_parameter_is_unsupported() {
            assertUnsupported(fieldFailure("{'enabled':false}"),
                    "mapping parameter [enabled] on field [f] of type [object]");
        }

        @Test
        void object_with_its_own_dynamic() {
            assertThat(field("{'type':'object','dynamic':'strict','properties':{'a':{'type':'long'}}}"))
                    .isEqualTo(new ObjectField(Optional.of(Dynamic.STRICT),
                            new TreeMap<>(Map.of("a", new NumberField(NumberType.LONG)))));
        }

        @Test
        void nested_objects() {
            Mappings m = mapping("{'properties':{'a':{'properties':{'b':{'properties':{'c':{'type':'integer'}}}}}}}");

            assertThat(m.field("a.b.c")).contains(new NumberField(NumberType.INTEGER));
        }
    }

    @Nested
    class UnknownAndUnsupported {
        @Test
        void an_unknown_type_with_elasticsearchs_message() {
            assertMappingFailed(fieldFailure("{'type':'strnig'}"), "No handler for type [strnig] declared on field [f]");
        }

        @ParameterizedTest
        @ValueSource(strings = {"geo_point", "nested", "ip", "flattened", "scaled_float", "semantic_text"})
        void an_elasticsearch_type_the_gateway_lacks_is_named(String type) {
            assertMappingFailed(fieldFailure("{'type':'" + type + "'}"),
                    "the gateway does not support field type [" + type + "] (field [f]); supported types: text, keyword,"
                            + " long, integer, short, byte, double, float, half_float, boolean, date, dense_vector, object");
        }

        @Test
        void an_unknown_parameter() {
            assertMappingFailed(fieldFailure("{'type':'keyword','colour':'red'}"),
                    "unknown parameter [colour] on mapper [f] of type [keyword]");
        }

        @ParameterizedTest
        @ValueSource(strings = {"split_queries_on_whitespace", "boost", "eager_global_ordinals"})
        void a_known_parameter_the_gateway_does_not_implement(String parameter) {
            assertUnsupported(fieldFailure("{'type':'keyword','" + parameter + "':false}"),
                    "mapping parameter [" + parameter + "] on field [f] of type [keyword]");
        }

        @Test
        void a_field_definition_that_is_not_an_object() {
            assertMappingFailed(fieldFailure("'text'"),
                    "Expected map for property [fields] on field [f] but got a VALUE_STRING");
        }

        @Test
        void properties_that_are_not_an_object() {
            assertMappingFailed(mappingFailure("{'properties':'x'}"),
                    "Expected map for property [properties] on field [_doc] but got a VALUE_STRING");
        }

        @Test
        void an_empty_field_name() {
            assertMappingFailed(mappingFailure("{'properties':{'':{'type':'keyword'}}}"),
                    "field name cannot be an empty string");
        }

        @Test
        void a_field_name_ending_with_a_dot() {
            assertMappingFailed(mappingFailure("{'properties':{'a.':{'type':'keyword'}}}"),
                    "field name cannot contain only whitespace or dots: [a.]");
        }

        @Test
        void mappings_that_are_not_an_object() {
            GatewayException e = failure(() -> Mappings.parse(json("[]")));

            assertThat(e.kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
            assertThat(e.reason()).isEqualTo("[mappings] must be an object, got [START_ARRAY]");
        }

        @Test
        void an_unknown_root_parameter_printed_as_elasticsearch_prints_it() {
            assertMappingFailed(mappingFailure("{'foo':'bar','size':3,'nested':{'a':[1,'x']}}"),
                    "Root mapping definition has unsupported parameters:  [foo : bar] [size : 3] [nested : {a=[1, x]}]");
        }

        @Test
        void a_type_wrapper_is_an_unknown_root_parameter() {
            assertMappingFailed(mappingFailure("{'my_type':{'properties':{'a':{'type':'text'}}}}"),
                    "Root mapping definition has unsupported parameters:  [my_type : {properties={a={type=text}}}]");
        }

        @ParameterizedTest
        @ValueSource(strings = {"date_detection", "numeric_detection", "runtime", "enabled", "subobjects"})
        void a_root_parameter_the_gateway_does_not_implement(String parameter) {
            assertUnsupported(mappingFailure("{'" + parameter + "':{}}"), "root mapping parameter [" + parameter + "]");
        }
    }

    @Nested
    class TextIndexingOptions {
        @Test
        void index_phrases_and_index_options_are_kept_and_rendered() {
            TextField f = (TextField) field("{'type':'text','index_phrases':true,'index_options':'offsets'}");
            assertThat(f.text().indexPhrases()).isTrue();
            assertThat(f.text().indexOptions()).contains("offsets");
            assertThat(compact(f.toJson())).isEqualTo("{'type':'text','index_options':'offsets','index_phrases':true}");
            assertThat(((TextField) field("{'type':'text','index_phrases':false}")).text())
                    .isSameAs(TextOptions.DEFAULT);
        }

        @Test
        void the_hidden_fields_resolve_to_their_parent() {
            Mappings m = mapping("{'properties':{'t':{'type':'text','index_phrases':true,"
                    + "'fields':{'p':{'type':'text','index_prefixes':{}}}},'u':{'type':'text'}}}");
            assertThat(TextOptions.hidden(m, "t._index_phrase")).map(TextOptions.Hidden::parent).contains("t");
            assertThat(TextOptions.hidden(m, "t.p._index_prefix")).map(TextOptions.Hidden::kind)
                    .contains(TextOptions.HiddenKind.PREFIXES);
            assertThat(TextOptions.hidden(m, "t._index_prefix")).isEmpty();
            assertThat(TextOptions.hidden(m, "u._index_phrase")).isEmpty();
            assertThat(TextOptions.hidden(m, "t")).isEmpty();
        }

        @Test
        void elasticsearchs_errors() {
            assertIllegal(fieldFailure("{'type':'text','index':false,'index_phrases':true}"),
                    "Cannot set index_phrases on unindexed field [f]");
            assertIllegal(fieldFailure("{'type':'text','index_options':'freqs','index_phrases':true}"),
                    "Cannot set index_phrases on field [f] if positions are not enabled");
            assertIllegal(fieldFailure("{'type':'text','index_options':'docs','position_increment_gap':2}"),
                    "Cannot set position_increment_gap on field [f] without positions enabled");
            assertIllegal(fieldFailure("{'type':'text','index':false,'index_prefixes':{}}"),
                    "Cannot set index_prefixes on unindexed field [f]");
            assertMappingFailed(fieldFailure("{'type':'keyword','index_phrases':true}"),
                    "unknown parameter [index_phrases] on mapper [f] of type [keyword]");
            assertUnsupported(fieldFailure("{'type':'text','index_options':'docs'}"),
                    "[index_options: docs] on field [f] of type [text]");
        }

        @Test
        void index_phrases_cannot_change() {
            Mappings before = mapping("{'properties':{'f':{'type':'text'}}}");
            GatewayException e = failure(() -> before.merge(mapping(
                    "{'properties':{'f':{'type':'text','index_phrases':true}}}")));
            assertThat(e.reason()).contains("Cannot update parameter [index_phrases] from [false] to [true]");
        }

        private static void assertIllegal(GatewayException e, String detail) {
            assertThat(e.kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
            assertThat(e.reason()).isEqualTo("Failed to parse mapping: " + detail);
            assertThat(e.gatewayCause().kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        }
    }

    @Nested
    class MultiFields {
        @Test
        void text_with_a_keyword_sub_field() {
            assertThat(field("{'type':'text','fields':{'keyword':{'type':'keyword','ignore_above':256}}}"))
                    .isEqualTo(new TextField(Optional.empty(),
                            new TreeMap<>(Map.of("keyword", new KeywordField(Optional.of(256), new TreeMap<>())))));
        }

        @Test
        void keyword_with_a_text_sub_field() {
            assertThat(field("{'type':'keyword','fields':{'search':{'type':'text'}}}"))
                    .isEqualTo(new KeywordField(Optional.empty(), new TreeMap<>(Map.of("search", text()))));
        }

        @Test
        void several_sub_fields() {
            TextField title = (TextField) field("{'type':'text','fields':{'raw':{'type':'keyword'},"
                    + "'length':{'type':'integer'}}}");

            assertThat(title.fields()).containsOnlyKeys("length", "raw");
        }

        @Test
        void a_sub_field_name_with_a_dot() {
            assertMappingFailed(fieldFailure("{'type':'text','fields':{'a.b':{'type':'keyword'}}}"),
                    "Field name [a.b] which is a multi field of [f] cannot contain '.'");
        }

        @Test
        void an_object_sub_field() {
            assertMappingFailed(fieldFailure("{'type':'text','fields':{'o':{'type':'object'}}}"),
                    "Type [object] cannot be used in multi field");
        }

        @Test
        void fields_that_are_not_an_object() {
            assertMappingFailed(fieldFailure("{'type':'text','fields':['raw']}"),
                    "Expected map for property [fields] on field [f] but got a START_ARRAY");
        }

        @Test
        void sub_fields_on_a_number_are_unsupported() {
            assertUnsupported(fieldFailure("{'type':'long','fields':{'k':{'type':'keyword'}}}"),
                    "mapping parameter [fields] on field [f] of type [long]");
        }
    }

    @Nested
    class DottedNames {
        @Test
        void expand_to_objects() {
            Mappings m = mapping("{'properties':{'user.address.city':{'type':'keyword'}}}");

            assertThat(m.properties()).containsOnlyKeys("user");
            assertThat(m.properties().get("user")).isEqualTo(
                    objectWith(Map.of("address", objectWith(Map.of("city", MappingParserTest.keyword())))));
        }

        @Test
        void merge_with_an_object_of_the_same_name() {
            Mappings m = mapping("{'properties':{'user.name':{'type':'text'},"
                    + "'user':{'properties':{'age':{'type':'integer'}}},'user.id':{'type':'keyword'}}}");

            assertThat(m.properties().get("user")).isEqualTo(objectWith(Map.of("name", text(),
                    "age", new NumberField(NumberType.INTEGER), "id", MappingParserTest.keyword())));
        }

        @Test
        void conflict_with_an_object_field_of_another_type() {
            GatewayException e = mappingFailure("{'properties':{'user.id':{'type':'keyword'},"
                    + "'user':{'properties':{'id':{'type':'long'}}}}}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("mapper [user.id] cannot be changed from type [keyword] to [long]");
        }

        @Test
        void inside_an_object() {
            Mappings m = mapping("{'properties':{'a':{'properties':{'b.c':{'type':'boolean'}}}}}");

            assertThat(m.field("a.b.c")).contains(new BooleanField());
        }
    }

    @Nested
    class DynamicSetting {
        @ParameterizedTest
        @ValueSource(strings = {"true", "'true'"})
        void dynamic_true(String value) {
            assertThat(mapping("{'dynamic':" + value + "}").dynamic()).contains(Dynamic.TRUE);
        }

        @ParameterizedTest
        @ValueSource(strings = {"false", "'false'"})
        void dynamic_false(String value) {
            assertThat(mapping("{'dynamic':" + value + "}").dynamic()).contains(Dynamic.FALSE);
        }

        @Test
        void dynamic_strict() {
            assertThat(mapping("{'dynamic':'strict'}").dynamic()).contains(Dynamic.STRICT);
        }

        @Test
        void absent_means_not_said() {
            assertThat(mapping("{}")).isEqualTo(Mappings.EMPTY);
        }

        @Test
        void dynamic_runtime_is_unsupported() {
            assertUnsupported(mappingFailure("{'dynamic':'runtime'}"), "[dynamic: runtime] on [_doc]");
        }

        @Test
        void anything_else_is_refused() {
            assertMappingFailed(mappingFailure("{'dynamic':'sometimes'}"),
                    "Could not convert [dynamic] to boolean or \"strict\" on [_doc]: [sometimes]");
        }

        @Test
        void on_an_object_names_the_object() {
            assertMappingFailed(fieldFailure("{'properties':{},'dynamic':1}"),
                    "Could not convert [dynamic] to boolean or \"strict\" on [f]: [1]");
        }
    }

    @Nested
    class Meta {
        @Test
        void is_kept_as_given() {
            Mappings m = mapping("{'_meta':{'owner':'search-team','version':3}}");

            assertThat(m.meta()).hasValueSatisfying(meta -> assertThat(compact(meta))
                    .isEqualTo("{'owner':'search-team','version':3}"));
        }

        @Test
        void must_be_an_object() {
            assertMappingFailed(mappingFailure("{'_meta':'x'}"), "[_meta] must be an object, got [VALUE_STRING]");
        }
    }

    @Nested
    class DenseVectors {
        @Test
        void defaults_to_an_indexed_cosine_vector() {
            assertThat(field("{'type':'dense_vector','dims':3}"))
                    .isEqualTo(new DenseVectorField(3, Similarity.COSINE, true, Optional.empty()));
        }

        @Test
        void reads_every_parameter() {
            assertThat(field("{'type':'dense_vector','dims':'128','similarity':'dot_product','index':true,"
                    + "'element_type':'float','index_options':{'type':'hnsw','m':16,'ef_construction':100}}"))
                    .isEqualTo(new DenseVectorField(128, Similarity.DOT_PRODUCT, true,
                            Optional.of(JsonFixtures.object("{'type':'hnsw','m':16,'ef_construction':100}"))));
        }

        @ParameterizedTest
        @EnumSource(Similarity.class)
        void every_similarity(Similarity similarity) {
            assertThat(((DenseVectorField) field("{'type':'dense_vector','dims':2,'similarity':'"
                    + similarity.esName() + "'}")).similarity()).isEqualTo(similarity);
        }

        @Test
        void not_indexed() {
            assertThat(field("{'type':'dense_vector','dims':4,'index':false}"))
                    .isEqualTo(new DenseVectorField(4, Similarity.COSINE, false, Optional.empty()));
        }

        @ParameterizedTest
        @ValueSource(ints = {1, 4096})
        void dims_at_the_bounds(int dims) {
            assertThat(((DenseVectorField) field("{'type':'dense_vector','dims':" + dims + "}")).dims()).isEqualTo(dims);
        }

        @ParameterizedTest
        @ValueSource(ints = {0, 4097, -3})
        void dims_out_of_range(int dims) {
            assertMappingFailed(fieldFailure("{'type':'dense_vector','dims':" + dims + "}"),
                    "The number of dimensions should be in the range [1, 4096] but was [" + dims + "]");
        }

        @Test
        void dims_not_an_integer() {
            assertMappingFailed(fieldFailure("{'type':'dense_vector','dims':'three'}"),
                    "[dims] on field [f] must be an integer");
        }

        @Test
        void without_dims_renders_without_them() {
            assertThat(Mappings.parse(json("{'properties':{'f':{'type':'dense_vector'}}}")).properties().get("f")
                    .toJson()).isEqualTo(json("{'type':'dense_vector','index':true,'similarity':'cosine'}"));
        }

        @Test
        void an_unknown_similarity() {
            assertMappingFailed(fieldFailure("{'type':'dense_vector','dims':3,'similarity':'manhattan'}"),
                    "Unknown value [manhattan] for field [similarity] - accepted values are [l2_norm, dot_product,"
                            + " cosine, max_inner_product]");
        }

        @Test
        void a_byte_element_type_is_unsupported() {
            assertUnsupported(fieldFailure("{'type':'dense_vector','dims':3,'element_type':'byte'}"),
                    "[element_type: byte] on field [f] (only [float])");
        }

        @ParameterizedTest
        @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "{'type':'flat'}|{'type':'flat'}",
            "{'type':'int8_flat'}|{'type':'int8_flat'}",
            "{'type':'int8_flat','confidence_interval':'0.9'}|{'type':'int8_flat','confidence_interval':0.9}",
            "{'type':'int4_flat'}|{'type':'int4_flat','confidence_interval':0.0}",
            "{'type':'hnsw'}|{'type':'hnsw','m':16,'ef_construction':100}",
            "{'type':'hnsw','m':null,'ef_construction':'50'}|{'type':'hnsw','m':16,'ef_construction':50}",
            "{'type':'int8_hnsw'}|{'type':'int8_hnsw','m':16,'ef_construction':100}",
            "{'type':'int8_hnsw','m':32,'ef_construction':200,'confidence_interval':0.95}"
                    + "|{'type':'int8_hnsw','m':32,'ef_construction':200,'confidence_interval':0.95}",
            "{'type':'int4_hnsw','confidence_interval':0}"
                    + "|{'type':'int4_hnsw','m':16,'ef_construction':100,'confidence_interval':0.0}",
            "{'type':'hnsw','m':0,'ef_construction':4000}|{'type':'hnsw','m':0,'ef_construction':4000}"})
        void every_index_options_type_is_kept_as_elasticsearch_renders_it(String given, String rendered) {
            DenseVectorField f = (DenseVectorField) field("{'type':'dense_vector','dims':4,'index_options':" + given
                    + "}");
            assertThat(f.indexOptions()).contains(JsonFixtures.object(rendered));
        }

        @Test
        void index_options_errors_are_elasticsearchs() {
            assertMappingFailed(fieldFailure("{'type':'dense_vector','dims':2,'index_options':{'type':'bogus'}}"),
                    "Unknown vector index options type [bogus] for field [f]");
            assertMappingFailed(fieldFailure("{'type':'dense_vector','dims':2,'index_options':{'m':8}}"),
                    "[index_options] requires field [type] to be configured");
            assertMappingFailed(fieldFailure("{'type':'dense_vector','dims':2,'index_options':{'type':'flat','m':16}}"),
                    "Mapping definition for [f] has unsupported parameters:  [m : 16]");
            assertMappingFailed(fieldFailure("{'type':'dense_vector','dims':3,"
                    + "'index_options':{'type':'hnsw','confidence_interval':0.9}}"),
                    "Mapping definition for [f] has unsupported parameters:  [confidence_interval : 0.9]");
            GatewayException odd = fieldFailure("{'type':'dense_vector','dims':3,'index_options':{'type':'int4_hnsw'}}");
            assertThat(odd.reason()).isEqualTo("Failed to parse mapping: int4_hnsw only supports even dimensions;"
                    + " provided=3");
            assertThat(odd.gatewayCause().kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(fieldFailure("{'type':'dense_vector','dims':2,'index':false,'index_options':{'type':'flat'}}")
                    .reason()).isEqualTo("Failed to parse mapping: Field [index_options] can only be specified for a"
                    + " field of type [dense_vector] when it is indexed");
            assertThat(fieldFailure("{'type':'dense_vector','dims':2,'index_options':{'type':'hnsw','m':16.5}}")
                    .reason()).isEqualTo("Failed to parse mapping: 16.5 is not an integer value");
        }

        @Test
        void out_of_range_options_fail_when_a_vector_is_indexed() {
            DenseVectorField f = (DenseVectorField) field("{'type':'dense_vector','dims':2,"
                    + "'index_options':{'type':'int8_hnsw','m':600}}");
            assertThatThrownBy(() -> VectorIndexOptions.checkIndexing(f.indexOptions()))
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
                        assertThat(e.reason()).isEqualTo("maxConn must be positive and less than or equal to 512;"
                                + " maxConn=600");
                    });
            DenseVectorField c = (DenseVectorField) field("{'type':'dense_vector','dims':2,"
                    + "'index_options':{'type':'int8_flat','confidence_interval':1.5}}");
            assertThatThrownBy(() -> VectorIndexOptions.checkIndexing(c.indexOptions()))
                    .hasMessage("confidenceInterval must be between 0.9 and 1.0 or 0; confidenceInterval=1.5");
            VectorIndexOptions.checkIndexing(((DenseVectorField) field("{'type':'dense_vector','dims':2,"
                    + "'index_options':{'type':'int4_flat'}}")).indexOptions());
        }

        @Test
        void an_index_flag_that_is_not_a_boolean() {
            assertMappingFailed(fieldFailure("{'type':'dense_vector','dims':3,'index':'maybe'}"),
                    "[index] on field [f] must be a boolean");
        }
    }
}
