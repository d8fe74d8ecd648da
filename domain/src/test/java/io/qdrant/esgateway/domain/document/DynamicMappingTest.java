package io.qdrant.esgateway.domain.document;

import static io.qdrant.esgateway.domain.document.DocumentParsing.assertFieldFailure;
import static io.qdrant.esgateway.domain.document.DocumentParsing.assertPlain;
import static io.qdrant.esgateway.domain.document.DocumentParsing.mapping;
import static io.qdrant.esgateway.domain.document.DocumentParsing.parse;
import static io.qdrant.esgateway.domain.document.DocumentParsing.rejection;
import static io.qdrant.esgateway.domain.json.JsonFixtures.compact;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.document.IndexedValue.BooleanValue;
import io.qdrant.esgateway.domain.document.IndexedValue.DateValue;
import io.qdrant.esgateway.domain.document.IndexedValue.FloatValue;
import io.qdrant.esgateway.domain.document.IndexedValue.Keyword;
import io.qdrant.esgateway.domain.document.IndexedValue.LongValue;
import io.qdrant.esgateway.domain.document.IndexedValue.Text;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.index.Mappings;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DynamicMappingTest {

    /** The updated mapping's JSON, compact with single quotes; fails if the mapping did not change. */
    static String updated(Mappings mappings, String document) {
        ParsedDocument parsed = parse(mappings, document);
        assertThat(parsed.updatedMappings()).as("updated mappings").isPresent();
        return compact(parsed.updatedMappings().get().toJson());
    }

    static final String TEXT_WITH_KEYWORD = "{'type':'text','fields':{'keyword':{'type':'keyword','ignore_above':256}}}";

    @Nested
    class Enabled {
        @Test
        void mapsEachJsonTypeAsElasticsearchDoes() {
            assertThat(updated(Mappings.EMPTY, "{'s':'hello','n':5,'big':99999,'x':1.5,'b':true,'d':'2015-01-01',"
                    + "'slash':'2015/09/02','num':'42','dec':'4.2','o':{'i':1},'e':{}}"))
                    .isEqualTo("{'properties':{"
                            + "'b':{'type':'boolean'},"
                            + "'big':{'type':'long'},"
                            + "'d':{'type':'date'},"
                            + "'dec':" + TEXT_WITH_KEYWORD + ","
                            + "'e':{'type':'object'},"
                            + "'n':{'type':'long'},"
                            + "'num':" + TEXT_WITH_KEYWORD + ","
                            + "'o':{'properties':{'i':{'type':'long'}}},"
                            + "'s':" + TEXT_WITH_KEYWORD + ","
                            + "'slash':{'type':'date','format':'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis'},"
                            + "'x':{'type':'float'}}}");
        }

        @Test
        void indexesTheValuesWithTheNewMapping() {
            assertThat(parse(Mappings.EMPTY, "{'s':'hello','n':5,'x':1.1,'b':true,'d':'2015-01-01',"
                    + "'slash':'2015/09/02 10:11:12'}").values()).containsExactly(
                    new Text("s", "hello"), new Keyword("s.keyword", "hello"), new LongValue("n", 5),
                    new FloatValue("x", 1.1f), new BooleanValue("b", true),
                    new DateValue("d", Instant.parse("2015-01-01T00:00:00Z").toEpochMilli()),
                    new DateValue("slash", Instant.parse("2015-09-02T10:11:12Z").toEpochMilli()));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "'2015'             | " + TEXT_WITH_KEYWORD,
            "'2015-01'          | {'type':'date'}",
            "'2015-01-01T10:00' | {'type':'date'}",
            "'1e3'              | " + TEXT_WITH_KEYWORD,
            "'NaN'              | " + TEXT_WITH_KEYWORD,
            "'-12'              | " + TEXT_WITH_KEYWORD,
            "'2015-1-1'         | " + TEXT_WITH_KEYWORD,
            "'2015/9/2'         | " + TEXT_WITH_KEYWORD,
            "9007199254740993   | {'type':'long'}",
            "1e3                | {'type':'float'}",
            "false              | {'type':'boolean'}",
        })
        void detectsDatesButNeverNumbersInStrings(String value, String expectedMapping) {
            assertThat(updated(Mappings.EMPTY, "{'f':" + value + "}"))
                    .isEqualTo("{'properties':{'f':" + expectedMapping + "}}");
        }

        @Test
        void aDetectedDateMayStillFailToConvert() {
            // Elasticsearch's detection only asks whether the slash formats accept the text; the value then fails
            assertFieldFailure(rejection(Mappings.EMPTY, "{'d':'2015/02/30'}"), "d", "date", "2015/02/30",
                    ErrorKind.ILLEGAL_ARGUMENT,
                    "failed to parse date field [2015/02/30] with format [yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis]");
        }

        @Test
        void anIntegerTooBigForALongIsMappedLongAndThenRejected() {
            assertFieldFailure(rejection(Mappings.EMPTY, "{'n':12345678901234567890}"), "n", "long",
                    "12345678901234567890", ErrorKind.X_CONTENT_PARSE,
                    "Numeric value (12345678901234567890) out of range of long (-9223372036854775808 - 9223372036854775807)");
        }

        @Test
        void keepsLongTextsOutOfTheKeyword() {
            String text = "x".repeat(257);
            assertThat(parse(Mappings.EMPTY, "{'s':'" + text + "'}").values()).containsExactly(new Text("s", text),
                    new IndexedValue.Keyword("_ignored", "s.keyword"));
        }

        @Test
        void mapsAnArrayByItsFirstValue() {
            assertThat(updated(Mappings.EMPTY, "{'tags':['a','b'],'n':[null,[3],4.5],'objs':[{'a':1},{'b':true}]}"))
                    .isEqualTo("{'properties':{'n':{'type':'long'},'objs':{'properties':{'a':{'type':'long'},"
                            + "'b':{'type':'boolean'}}},'tags':" + TEXT_WITH_KEYWORD + "}}");
            assertThat(parse(Mappings.EMPTY, "{'n':[null,[3],4.5]}").values())
                    .containsExactly(new LongValue("n", 3), new LongValue("n", 4));
        }

        @Test
        void parsesLaterValuesOfANewFieldWithItsFirstMapping() {
            assertFieldFailure(rejection(Mappings.EMPTY, "{'x':[1,'abc']}"), "x", "long", "abc",
                    ErrorKind.ILLEGAL_ARGUMENT, "For input string: \"abc\"");
            ParsedDocument parsed = parse(Mappings.EMPTY, "{'x.y':1,'x':{'y':'2'}}");
            assertThat(parsed.values()).containsExactly(new LongValue("x.y", 1), new LongValue("x.y", 2));
            assertThat(compact(parsed.updatedMappings().orElseThrow().toJson()))
                    .isEqualTo("{'properties':{'x':{'properties':{'y':{'type':'long'}}}}}");
        }

        @Test
        void mapsNothingForNullsAndEmptyArrays() {
            ParsedDocument parsed = parse(Mappings.EMPTY, "{'a':null,'b':[],'c':[null,[]]}");
            assertThat(parsed.values()).isEmpty();
            assertThat(parsed.updatedMappings()).isEmpty();
        }

        @Test
        void expandsDottedKeysIntoObjects() {
            assertThat(updated(Mappings.EMPTY, "{'a.b.c':'x','a.d':1}")).isEqualTo("{'properties':{'a':{'properties':{"
                    + "'b':{'properties':{'c':" + TEXT_WITH_KEYWORD + "}},'d':{'type':'long'}}}}}");
        }

        @Test
        void reportsNoUpdateWhenEveryFieldIsMapped() {
            Mappings m = mapping("{'properties':{'a':{'type':'long'},'o':{'properties':{'b':{'type':'keyword'}}}}}");
            ParsedDocument parsed = parse(m, "{'a':1,'o':{'b':'x'},'o.b':'y'}");
            assertThat(parsed.updatedMappings()).isEmpty();
            assertThat(parsed.values()).containsExactly(new LongValue("a", 1), new Keyword("o.b", "x"),
                    new Keyword("o.b", "y"));
        }

        @Test
        void addsToExistingObjectsAndKeepsTheRestOfTheMapping() {
            Mappings m = mapping("{'dynamic':'true','_meta':{'v':1},'properties':{"
                    + "'o':{'dynamic':'true','properties':{'a':{'type':'long'}}},'k':{'type':'keyword'}}}");
            assertThat(updated(m, "{'o':{'a':1,'b':'x','c':{'d':true}},'z':1.5}")).isEqualTo("{'dynamic':'true',"
                    + "'_meta':{'v':1},'properties':{'k':{'type':'keyword'},'o':{'dynamic':'true','properties':{"
                    + "'a':{'type':'long'},'b':" + TEXT_WITH_KEYWORD + ",'c':{'properties':{'d':{'type':'boolean'}}}}},"
                    + "'z':{'type':'float'}}}");
        }

        @Test
        void extendsAnExistingObjectFromSeveralPlacesOfTheDocument() {
            Mappings m = mapping("{'properties':{'o':{'properties':{'p':{'properties':{'a':{'type':'long'}}}}}}}");
            ParsedDocument parsed = parse(m, "{'o':{'p':{'b':1}},'o.p.c':2,'o.p':{'b':3}}");
            assertThat(parsed.values()).containsExactly(new LongValue("o.p.b", 1), new LongValue("o.p.c", 2),
                    new LongValue("o.p.b", 3));
            assertThat(compact(parsed.updatedMappings().orElseThrow().toJson())).isEqualTo("{'properties':{'o':{"
                    + "'properties':{'p':{'properties':{'a':{'type':'long'},'b':{'type':'long'},'c':{'type':'long'}}}}}}}");
        }

        @Test
        void aNewObjectInAnArrayGetsTheFieldsOfAllItsElements() {
            ParsedDocument parsed = parse(Mappings.EMPTY, "{'o':[{'a':'2015-01-01'},{'a':'2016-01-01','b':2}]}");
            assertThat(parsed.values()).containsExactly(
                    new DateValue("o.a", Instant.parse("2015-01-01T00:00:00Z").toEpochMilli()),
                    new DateValue("o.a", Instant.parse("2016-01-01T00:00:00Z").toEpochMilli()), new LongValue("o.b", 2));
        }

        @Test
        void isAnErrorWhenTheDocumentFailsAndNoMappingIsReported() {
            assertFieldFailure(rejection(Mappings.EMPTY, "{'a':'x','b':[1,'y']}"), "b", "long", "y",
                    ErrorKind.ILLEGAL_ARGUMENT, "For input string: \"y\"");
        }
    }

    @Nested
    class Disabled {
        @Test
        void atTheRootKeepsNewFieldsInTheSourceOnly() {
            Mappings m = mapping("{'dynamic':false,'properties':{'k':{'type':'keyword'}}}");
            ParsedDocument parsed = parse(m, "{'k':'x','n':1,'o':{'a':1},'arr':[1,2],'nil':null}");
            assertThat(parsed.values()).containsExactly(new Keyword("k", "x"));
            assertThat(parsed.updatedMappings()).isEmpty();
            assertThat(compact(parsed.source())).isEqualTo("{'k':'x','n':1,'o':{'a':1},'arr':[1,2],'nil':null}");
        }

        @Test
        void inAnObjectAppliesBelowIt() {
            Mappings m = mapping("{'properties':{'o':{'dynamic':false,'properties':{'a':{'type':'long'},"
                    + "'p':{'properties':{}}}}}}");
            ParsedDocument parsed = parse(m, "{'o':{'a':1,'b':2,'p':{'c':3}},'top':true}");
            assertThat(parsed.values()).containsExactly(new LongValue("o.a", 1), new BooleanValue("top", true));
            assertThat(compact(parsed.updatedMappings().orElseThrow().toJson())).isEqualTo("{'properties':{"
                    + "'o':{'dynamic':'false','properties':{'a':{'type':'long'},'p':{'type':'object'}}},"
                    + "'top':{'type':'boolean'}}}");
        }

        @Test
        void canBeReenabledInsideAnObject() {
            Mappings m = mapping("{'dynamic':false,'properties':{'o':{'dynamic':true,'properties':{}}}}");
            ParsedDocument parsed = parse(m, "{'o':{'a':1,'p':{'b':'x'}},'skip':1}");
            assertThat(parsed.values()).containsExactly(new LongValue("o.a", 1), new Text("o.p.b", "x"),
                    new Keyword("o.p.b.keyword", "x"));
            assertThat(compact(parsed.updatedMappings().orElseThrow().toJson())).isEqualTo("{'dynamic':'false',"
                    + "'properties':{'o':{'dynamic':'true','properties':{'a':{'type':'long'},'p':{'properties':{"
                    + "'b':" + TEXT_WITH_KEYWORD + "}}}}}}");
        }
    }

    @Nested
    class Strict {
        static final Mappings STRICT = mapping("{'dynamic':'strict','properties':{'k':{'type':'keyword'},"
                + "'a':{'properties':{'b':{'properties':{'c':{'type':'long'}}}}},"
                + "'loose':{'dynamic':true,'properties':{}}}}");

        @Test
        void rejectsANewFieldAtTheRoot() {
            assertPlain(rejection(STRICT, "{'k':'x','n':1}"), ErrorKind.STRICT_DYNAMIC_MAPPING,
                    "mapping set to strict, dynamic introduction of [n] within [_doc] is not allowed");
        }

        @Test
        void rejectsNewFieldsWhateverTheirValue() {
            for (String value : new String[] {"null", "[]", "{}", "[1]", "{'x':1}"}) {
                assertPlain(rejection(STRICT, "{'n':" + value + "}"), ErrorKind.STRICT_DYNAMIC_MAPPING,
                        "mapping set to strict, dynamic introduction of [n] within [_doc] is not allowed");
            }
        }

        @Test
        void namesTheObjectByItsFullPath() {
            assertPlain(rejection(STRICT, "{'a':{'b':{'c':1,'d':2}}}"), ErrorKind.STRICT_DYNAMIC_MAPPING,
                    "mapping set to strict, dynamic introduction of [d] within [a.b] is not allowed");
            assertPlain(rejection(STRICT, "{'a.b.d':2}"), ErrorKind.STRICT_DYNAMIC_MAPPING,
                    "mapping set to strict, dynamic introduction of [d] within [a.b] is not allowed");
            assertPlain(rejection(STRICT, "{'x.y':2}"), ErrorKind.STRICT_DYNAMIC_MAPPING,
                    "mapping set to strict, dynamic introduction of [x] within [_doc] is not allowed");
        }

        @Test
        void isInheritedAndCanBeRelaxedBelow() {
            ParsedDocument parsed = parse(STRICT, "{'a':{'b':{'c':1}},'loose':{'n':2}}");
            assertThat(parsed.values()).containsExactly(new LongValue("a.b.c", 1), new LongValue("loose.n", 2));
            assertThat(compact(parsed.updatedMappings().orElseThrow().toJson())).isEqualTo("{'dynamic':'strict',"
                    + "'properties':{'a':{'properties':{'b':{'properties':{'c':{'type':'long'}}}}},"
                    + "'k':{'type':'keyword'},'loose':{'dynamic':'true','properties':{'n':{'type':'long'}}}}}");
        }

        @Test
        void inAnObjectOnlyAppliesBelowIt() {
            Mappings m = mapping("{'properties':{'o':{'dynamic':'strict','properties':{'a':{'type':'long'}}}}}");
            assertThat(parse(m, "{'n':1}").values()).containsExactly(new LongValue("n", 1));
            assertPlain(rejection(m, "{'o':{'a':1,'b':2}}"), ErrorKind.STRICT_DYNAMIC_MAPPING,
                    "mapping set to strict, dynamic introduction of [b] within [o] is not allowed");
        }

        @Test
        void newObjectsInheritTheSettingOfTheirParent() {
            Mappings m = mapping("{'properties':{'o':{'dynamic':false,'properties':{'p':{'dynamic':true,"
                    + "'properties':{}}}}}}");
            ParsedDocument parsed = parse(m, "{'o':{'p':{'q':{'r':1}}}}");
            assertThat(parsed.values()).containsExactly(new LongValue("o.p.q.r", 1));
        }
    }
}
