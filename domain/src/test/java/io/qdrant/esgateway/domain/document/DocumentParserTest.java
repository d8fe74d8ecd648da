package io.qdrant.esgateway.domain.document;

import static io.qdrant.esgateway.domain.document.DocumentParsing.assertFieldFailure;
import static io.qdrant.esgateway.domain.document.DocumentParsing.assertPlain;
import static io.qdrant.esgateway.domain.document.DocumentParsing.assertWrapped;
import static io.qdrant.esgateway.domain.document.DocumentParsing.field;
import static io.qdrant.esgateway.domain.document.DocumentParsing.mapping;
import static io.qdrant.esgateway.domain.document.DocumentParsing.parse;
import static io.qdrant.esgateway.domain.document.DocumentParsing.rejection;
import static io.qdrant.esgateway.domain.document.DocumentParsing.values;
import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.document.IndexedValue.BooleanValue;
import io.qdrant.esgateway.domain.document.IndexedValue.DateValue;
import io.qdrant.esgateway.domain.document.IndexedValue.DoubleValue;
import io.qdrant.esgateway.domain.document.IndexedValue.FloatValue;
import io.qdrant.esgateway.domain.document.IndexedValue.Keyword;
import io.qdrant.esgateway.domain.document.IndexedValue.LongValue;
import io.qdrant.esgateway.domain.document.IndexedValue.Text;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DocumentParserTest {

    static final Mappings KEYWORD = field("{'type':'keyword'}");
    static final Mappings TEXT = field("{'type':'text'}");
    static final Mappings LONG = field("{'type':'long'}");
    static final Mappings INTEGER = field("{'type':'integer'}");
    static final Mappings SHORT = field("{'type':'short'}");
    static final Mappings BYTE = field("{'type':'byte'}");
    static final Mappings DOUBLE = field("{'type':'double'}");
    static final Mappings FLOAT = field("{'type':'float'}");
    static final Mappings HALF_FLOAT = field("{'type':'half_float'}");
    static final Mappings BOOLEAN = field("{'type':'boolean'}");
    static final Mappings DATE = field("{'type':'date'}");

    static long utc(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Nested
    class TheSource {
        @ParameterizedTest
        @ValueSource(strings = {"[1,2]", "'text'", "5", "true", "null"})
        void mustBeAnObject(String source) {
            GatewayException e = failure(() -> DocumentParser.parse(Mappings.EMPTY, json(source), "1"));
            assertPlain(e, ErrorKind.DOCUMENT_PARSING, "Malformed content, must start with an object");
        }

        @Test
        void isKeptAsGiven() {
            JsonValue source = json("{'f':'x','g.h':[1,null],'e':{}}");
            ParsedDocument parsed = DocumentParser.parse(KEYWORD, source, "1");
            assertThat(parsed.source()).isSameAs(source);
        }

        @Test
        void anEmptyObjectHasNoValues() {
            ParsedDocument parsed = parse(KEYWORD, "{}");
            assertThat(parsed.values()).isEmpty();
            assertThat(parsed.updatedMappings()).isEmpty();
        }

        @Test
        void aNullIdIsNamedAsElasticsearchNamesIt() {
            GatewayException e = failure(() -> DocumentParser.parse(LONG, json("{'f':'x'}"), null));
            assertThat(e.reason()).isEqualTo("failed to parse field [f] of type [long] in document with id 'null'. "
                    + "Preview of field's value: 'x'");
        }
    }

    @Nested
    class Keywords {
        @Test
        void takeStringsNumbersAndBooleansAsText() {
            assertThat(values(KEYWORD, "{'f':'abc'}")).containsExactly(new Keyword("f", "abc"));
            assertThat(values(KEYWORD, "{'f':42}")).containsExactly(new Keyword("f", "42"));
            assertThat(values(KEYWORD, "{'f':1.5}")).containsExactly(new Keyword("f", "1.5"));
            assertThat(values(KEYWORD, "{'f':true}")).containsExactly(new Keyword("f", "true"));
            assertThat(values(KEYWORD, "{'f':''}")).containsExactly(new Keyword("f", ""));
        }

        @Test
        void skipValuesLongerThanIgnoreAbove() {
            Mappings m = field("{'type':'keyword','ignore_above':5}");
            assertThat(values(m, "{'f':'abcde'}")).containsExactly(new Keyword("f", "abcde"));
            // the field is indexed under _ignored instead, as Elasticsearch's metadata field
            assertThat(values(m, "{'f':'abcdef'}")).containsExactly(new Keyword("_ignored", "f"));
            assertThat(values(m, "{'f':['abcdef','ab']}")).containsExactly(new Keyword("f", "ab"),
                    new Keyword("_ignored", "f"));
            assertThat(parse(m, "{'f':'abcdef'}").source()).isEqualTo(json("{'f':'abcdef'}"));
        }

        @Test
        void rejectAnObject() {
            assertFieldFailure(rejection(KEYWORD, "{'f':{'a':1}}"), "f", "keyword", "{a=1}",
                    ErrorKind.JAVA_EXCEPTION, "Can't get text on a START_OBJECT");
        }

        @Test
        void previewAnObjectAsAJavaHashMap() {
            assertFieldFailure(rejection(KEYWORD, "{'f':{'b':[1,2.5],'a':'x','c':null,'d':{'e':true}}}"), "f",
                    "keyword", "{a=x, b=[1, 2.5], c=null, d={e=true}}", ErrorKind.JAVA_EXCEPTION,
                    "Can't get text on a START_OBJECT");
        }
    }

    @Nested
    class Texts {
        @Test
        void takeStringsNumbersAndBooleansWithoutLengthLimit() {
            String longText = "x".repeat(10_000);
            assertThat(values(TEXT, "{'f':'" + longText + "'}")).containsExactly(new Text("f", longText));
            assertThat(values(TEXT, "{'f':7}")).containsExactly(new Text("f", "7"));
            assertThat(values(TEXT, "{'f':false}")).containsExactly(new Text("f", "false"));
        }

        @Test
        void rejectAnObject() {
            assertFieldFailure(rejection(TEXT, "{'f':{}}"), "f", "text", "{}", ErrorKind.JAVA_EXCEPTION,
                    "Can't get text on a START_OBJECT");
        }
    }

    @Nested
    class MultiFields {
        static final Mappings TITLE = mapping("{'properties':{'title':{'type':'text',"
                + "'fields':{'keyword':{'type':'keyword','ignore_above':5}}}}}");

        @Test
        void indexTheValueAgainUnderEachSubField() {
            assertThat(values(TITLE, "{'title':'abc'}"))
                    .containsExactly(new Text("title", "abc"), new Keyword("title.keyword", "abc"));
            assertThat(values(TITLE, "{'title':['a','b']}")).containsExactly(new Text("title", "a"),
                    new Keyword("title.keyword", "a"), new Text("title", "b"), new Keyword("title.keyword", "b"));
        }

        @Test
        void applyTheSubFieldsOwnRules() {
            assertThat(values(TITLE, "{'title':'abcdef'}")).containsExactly(new Text("title", "abcdef"),
                    new Keyword("_ignored", "title.keyword"));
        }

        @Test
        void areParsedEvenWhenTheMainKeywordIsIgnored() {
            Mappings m = field("{'type':'keyword','ignore_above':2,'fields':{'text':{'type':'text'}}}");
            assertThat(values(m, "{'f':'abc'}")).containsExactly(new Text("f.text", "abc"),
                    new Keyword("_ignored", "f"));
        }

        @Test
        void failUnderTheirOwnName() {
            Mappings m = field("{'type':'keyword','fields':{'num':{'type':'long'}}}");
            assertThat(values(m, "{'f':'12'}")).containsExactly(new Keyword("f", "12"), new LongValue("f.num", 12));
            assertFieldFailure(rejection(m, "{'f':'abc'}"), "f.num", "long", "abc", ErrorKind.ILLEGAL_ARGUMENT,
                    "For input string: \"abc\"");
        }

        @Test
        void areNotFieldsOfTheDocument() {
            assertFieldFailure(rejection(TITLE, "{'title.keyword':'x'}"), "title", "text", "{keyword=x}",
                    ErrorKind.JAVA_EXCEPTION, "Can't get text on a START_OBJECT");
        }
    }

    @Nested
    class Integers {
        @ParameterizedTest
        @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "5              | 5",
            "-5             | -5",
            "1.9            | 1",
            "-1.9           | -1",
            "2147483647     | 2147483647",
            "'10'           | 10",
            "'1.5'          | 1",
            "' 12 '         | 12",
            "'1e3'          | 1000",
            "'NaN'          | 0",
        })
        void areCoercedAsElasticsearchCoercesThem(String value, long expected) {
            assertThat(values(INTEGER, "{'f':" + value + "}")).containsExactly(new LongValue("f", expected));
        }

        @Test
        void anEmptyStringIsNoValue() {
            assertThat(values(INTEGER, "{'f':''}")).isEmpty();
        }

        @Test
        void aJsonNumberOutOfRangeFailsInTheJsonParser() {
            assertFieldFailure(rejection(INTEGER, "{'f':3000000000}"), "f", "integer", "3000000000",
                    ErrorKind.X_CONTENT_PARSE, "Numeric value (3000000000) out of range of int (-2147483648 - 2147483647)");
            assertFieldFailure(rejection(INTEGER, "{'f':3.5E9}"), "f", "integer", "3.5E9",
                    ErrorKind.X_CONTENT_PARSE, "Numeric value (3.5E9) out of range of int (-2147483648 - 2147483647)");
        }

        @Test
        void aStringOutOfRangeFailsInTheMapper() {
            assertFieldFailure(rejection(INTEGER, "{'f':'3000000000'}"), "f", "integer", "3000000000",
                    ErrorKind.ILLEGAL_ARGUMENT, "Value [3000000000] is out of range for an integer");
        }

        @Test
        void aNonNumericStringFails() {
            assertFieldFailure(rejection(INTEGER, "{'f':'abc'}"), "f", "integer", "abc", ErrorKind.JAVA_EXCEPTION,
                    "For input string: \"abc\"");
        }

        @Test
        void booleansAndObjectsFail() {
            assertFieldFailure(rejection(INTEGER, "{'f':true}"), "f", "integer", "true", ErrorKind.X_CONTENT_PARSE,
                    "Current token (VALUE_TRUE) not numeric, can not use numeric value accessors");
            assertFieldFailure(rejection(INTEGER, "{'f':{'a':1}}"), "f", "integer", "{a=1}",
                    ErrorKind.ILLEGAL_ARGUMENT, "Cannot parse object as number");
        }
    }

    @Nested
    class Longs {
        @ParameterizedTest
        @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "9223372036854775807    | 9223372036854775807",
            "-9223372036854775808   | -9223372036854775808",
            "12.7                   | 12",
            "1e3                    | 1000",
            "'12.7'                 | 12",
            "'-12.7'                | -12",
            "'1e3'                  | 1000",
            "'9223372036854775807'  | 9223372036854775807",
        })
        void areCoercedAsElasticsearchCoercesThem(String value, long expected) {
            assertThat(values(LONG, "{'f':" + value + "}")).containsExactly(new LongValue("f", expected));
        }

        @Test
        void outOfRangeFailsInTheJsonParserOrTheMapper() {
            assertFieldFailure(rejection(LONG, "{'f':9223372036854775808}"), "f", "long", "9223372036854775808",
                    ErrorKind.X_CONTENT_PARSE, "Numeric value (9223372036854775808) out of range of long "
                            + "(-9223372036854775808 - 9223372036854775807)");
            assertFieldFailure(rejection(LONG, "{'f':'9223372036854775808'}"), "f", "long", "9223372036854775808",
                    ErrorKind.ILLEGAL_ARGUMENT, "Value [9223372036854775808] is out of range for a long");
            assertFieldFailure(rejection(LONG, "{'f':'1e20'}"), "f", "long", "1e20",
                    ErrorKind.ILLEGAL_ARGUMENT, "Value [1e20] is out of range for a long");
        }

        @Test
        void aNonNumericStringFails() {
            assertFieldFailure(rejection(LONG, "{'f':'abc'}"), "f", "long", "abc", ErrorKind.ILLEGAL_ARGUMENT,
                    "For input string: \"abc\"");
        }
    }

    @Nested
    class ShortsAndBytes {
        @Test
        void shortsHaveTheirRange() {
            assertThat(values(SHORT, "{'f':[32767,'-32768',1.5]}")).containsExactly(new LongValue("f", 32767),
                    new LongValue("f", -32768), new LongValue("f", 1));
            assertFieldFailure(rejection(SHORT, "{'f':40000}"), "f", "short", "40000", ErrorKind.X_CONTENT_PARSE,
                    "Numeric value (40000) out of range of Java short");
            assertFieldFailure(rejection(SHORT, "{'f':'40000'}"), "f", "short", "40000", ErrorKind.ILLEGAL_ARGUMENT,
                    "Value [40000] is out of range for a short");
        }

        @Test
        void bytesHaveTheirRangeCheckedAfterReadingAnInteger() {
            assertThat(values(BYTE, "{'f':[127,'-128',1.9]}")).containsExactly(new LongValue("f", 127),
                    new LongValue("f", -128), new LongValue("f", 1));
            assertFieldFailure(rejection(BYTE, "{'f':200}"), "f", "byte", "200", ErrorKind.ILLEGAL_ARGUMENT,
                    "Value [200] is out of range for a byte");
            assertFieldFailure(rejection(BYTE, "{'f':'200.7'}"), "f", "byte", "200.7", ErrorKind.ILLEGAL_ARGUMENT,
                    "Value [200] is out of range for a byte");
            assertFieldFailure(rejection(BYTE, "{'f':3000000000}"), "f", "byte", "3000000000",
                    ErrorKind.X_CONTENT_PARSE, "Numeric value (3000000000) out of range of int (-2147483648 - 2147483647)");
        }
    }

    @Nested
    class FloatingPoint {
        @Test
        void doublesKeepDoublePrecision() {
            assertThat(values(DOUBLE, "{'f':[0.1,'2.25',3]}")).containsExactly(new DoubleValue("f", 0.1),
                    new DoubleValue("f", 2.25), new DoubleValue("f", 3.0));
        }

        @Test
        void floatsAreRoundedToFloat() {
            assertThat(values(FLOAT, "{'f':[0.1,'2.5',16777217]}")).containsExactly(new FloatValue("f", 0.1f),
                    new FloatValue("f", 2.5f), new FloatValue("f", 16777216f));
        }

        @Test
        void halfFloatsAreRoundedToHalfPrecision() {
            assertThat(values(HALF_FLOAT, "{'f':[0.1,1.5,'2049']}")).containsExactly(
                    new FloatValue("f", 0.099975586f), new FloatValue("f", 1.5f), new FloatValue("f", 2048f));
        }

        @Test
        void onlyFiniteValuesAreAccepted() {
            assertFieldFailure(rejection(DOUBLE, "{'f':'NaN'}"), "f", "double", "NaN", ErrorKind.ILLEGAL_ARGUMENT,
                    "[double] supports only finite values, but got [NaN]");
            assertFieldFailure(rejection(DOUBLE, "{'f':'-Infinity'}"), "f", "double", "-Infinity",
                    ErrorKind.ILLEGAL_ARGUMENT, "[double] supports only finite values, but got [-Infinity]");
            assertFieldFailure(rejection(FLOAT, "{'f':1e39}"), "f", "float", "1.0E39", ErrorKind.ILLEGAL_ARGUMENT,
                    "[float] supports only finite values, but got [Infinity]");
            assertFieldFailure(rejection(HALF_FLOAT, "{'f':70000}"), "f", "half_float", "70000",
                    ErrorKind.ILLEGAL_ARGUMENT, "[half_float] supports only finite values, but got [70000.0]");
        }

        @Test
        void nonNumericValuesFail() {
            assertFieldFailure(rejection(DOUBLE, "{'f':'abc'}"), "f", "double", "abc", ErrorKind.JAVA_EXCEPTION,
                    "For input string: \"abc\"");
            assertFieldFailure(rejection(FLOAT, "{'f':false}"), "f", "float", "false", ErrorKind.X_CONTENT_PARSE,
                    "Current token (VALUE_FALSE) not numeric, can not use numeric value accessors");
            assertThat(values(FLOAT, "{'f':''}")).isEmpty();
        }
    }

    @Nested
    class Booleans {
        @Test
        void takeJsonBooleansAndTheirStrings() {
            assertThat(values(BOOLEAN, "{'f':[true,false,'true','false','']}")).containsExactly(
                    new BooleanValue("f", true), new BooleanValue("f", false), new BooleanValue("f", true),
                    new BooleanValue("f", false), new BooleanValue("f", false));
        }

        @ParameterizedTest
        @ValueSource(strings = {"yes", "True", "1", "on"})
        void rejectOtherStrings(String value) {
            assertFieldFailure(rejection(BOOLEAN, "{'f':'" + value + "'}"), "f", "boolean", value,
                    ErrorKind.ILLEGAL_ARGUMENT, "Failed to parse value [" + value
                            + "] as only [true] or [false] are allowed.");
        }

        @Test
        void rejectNumbersAndObjects() {
            assertFieldFailure(rejection(BOOLEAN, "{'f':1}"), "f", "boolean", "1", ErrorKind.X_CONTENT_PARSE,
                    "Current token (VALUE_NUMBER_INT) not of boolean type");
            assertFieldFailure(rejection(BOOLEAN, "{'f':0.5}"), "f", "boolean", "0.5", ErrorKind.X_CONTENT_PARSE,
                    "Current token (VALUE_NUMBER_FLOAT) not of boolean type");
            assertFieldFailure(rejection(BOOLEAN, "{'f':{'a':true}}"), "f", "boolean", "{a=true}",
                    ErrorKind.X_CONTENT_PARSE, "Current token (START_OBJECT) not of boolean type");
        }
    }

    @Nested
    class Dates {
        @Test
        void useTheDefaultFormatForStringsAndEpochMillisForNumbers() {
            assertThat(values(DATE, "{'f':['2015-01-01','2015-01-01T12:10:30Z',1420070400001,'1420070400001',1.5]}"))
                    .containsExactly(new DateValue("f", utc("2015-01-01T00:00:00Z")),
                            new DateValue("f", utc("2015-01-01T12:10:30Z")), new DateValue("f", 1420070400001L),
                            new DateValue("f", 1420070400001L), new DateValue("f", 1));
        }

        @Test
        void useTheFieldsFormat() {
            Mappings m = field("{'type':'date','format':'dd.MM.yyyy||yyyy'}");
            assertThat(values(m, "{'f':['31.12.2014',2015]}")).containsExactly(
                    new DateValue("f", utc("2014-12-31T00:00:00Z")), new DateValue("f", utc("2015-01-01T00:00:00Z")));
        }

        @Test
        void failWithTheFormatInTheCause() {
            assertFieldFailure(rejection(DATE, "{'f':'x'}"), "f", "date", "x", ErrorKind.ILLEGAL_ARGUMENT,
                    "failed to parse date field [x] with format [strict_date_optional_time||epoch_millis]");
            assertFieldFailure(rejection(field("{'type':'date','format':'yyyy-MM-dd'}"), "{'f':1420070400000}"), "f",
                    "date", "1420070400000", ErrorKind.ILLEGAL_ARGUMENT,
                    "failed to parse date field [1420070400000] with format [yyyy-MM-dd]");
            assertFieldFailure(rejection(DATE, "{'f':true}"), "f", "date", "true", ErrorKind.ILLEGAL_ARGUMENT,
                    "failed to parse date field [true] with format [strict_date_optional_time||epoch_millis]");
        }

        @Test
        void anEmptyStringIsItsOwnError() {
            assertFieldFailure(rejection(DATE, "{'f':''}"), "f", "date", "", ErrorKind.ILLEGAL_ARGUMENT,
                    "cannot parse empty datetime");
        }

        @Test
        void anObjectFails() {
            assertFieldFailure(rejection(DATE, "{'f':{'a':1}}"), "f", "date", "{a=1}", ErrorKind.JAVA_EXCEPTION,
                    "Can't get text on a START_OBJECT");
        }
    }

    @Nested
    class Objects {
        static final Mappings NESTED = mapping("{'properties':{'a':{'properties':{'o':{'properties':{"
                + "'n':{'type':'long'},'s':{'type':'keyword'}}}}}}}");

        @Test
        void produceTheirLeavesUnderTheFullPath() {
            assertThat(values(NESTED, "{'a':{'o':{'n':1,'s':'x'}}}"))
                    .containsExactly(new LongValue("a.o.n", 1), new Keyword("a.o.s", "x"));
        }

        @Test
        void inAnArrayAreEachParsedUnderTheSameMapping() {
            assertThat(values(NESTED, "{'a':{'o':[{'n':1},{'n':2,'s':'y'},null,[{'n':3}]]}}"))
                    .containsExactly(new LongValue("a.o.n", 1), new LongValue("a.o.n", 2), new Keyword("a.o.s", "y"),
                            new LongValue("a.o.n", 3));
        }

        @Test
        void mayBeNullOrEmpty() {
            assertThat(values(NESTED, "{'a':{'o':null}}")).isEmpty();
            assertThat(values(NESTED, "{'a':{'o':{}}}")).isEmpty();
            assertThat(values(NESTED, "{'a':null}")).isEmpty();
        }

        @Test
        void rejectAConcreteValue() {
            assertPlain(rejection(NESTED, "{'a':5}"), ErrorKind.DOCUMENT_PARSING,
                    "object mapping for [a] tried to parse field [a] as object, but found a concrete value");
            assertPlain(rejection(NESTED, "{'a':{'o':'x'}}"), ErrorKind.DOCUMENT_PARSING,
                    "object mapping for [a.o] tried to parse field [o] as object, but found a concrete value");
            // inside an array Elasticsearch's parser no longer knows the field's name
            assertPlain(rejection(NESTED, "{'a':{'o':[{'n':1},true]}}"), ErrorKind.DOCUMENT_PARSING,
                    "object mapping for [a.o] tried to parse field [null] as object, but found a concrete value");
        }

        @Test
        void inALeafFieldFail() {
            assertFieldFailure(rejection(NESTED, "{'a':{'o':{'n':{'x':1}}}}"), "a.o.n", "long", "{x=1}",
                    ErrorKind.ILLEGAL_ARGUMENT, "Cannot parse object as number");
        }
    }

    @Nested
    class ArraysAndNulls {
        @Test
        void everyElementIsAValueOfTheField() {
            assertThat(values(LONG, "{'f':[1,[2,[3]],null,'4']}")).containsExactly(new LongValue("f", 1),
                    new LongValue("f", 2), new LongValue("f", 3), new LongValue("f", 4));
        }

        @Test
        void nullAndEmptyArraysProduceNothing() {
            assertThat(values(LONG, "{'f':null}")).isEmpty();
            assertThat(values(LONG, "{'f':[]}")).isEmpty();
            assertThat(values(LONG, "{'f':[null,[]]}")).isEmpty();
        }

        @Test
        void theFailingElementIsPreviewed() {
            assertFieldFailure(rejection(LONG, "{'f':[1,'x',3]}"), "f", "long", "x", ErrorKind.ILLEGAL_ARGUMENT,
                    "For input string: \"x\"");
        }
    }

    @Nested
    class DottedKeys {
        static final Mappings AB = mapping("{'properties':{'a':{'properties':{'b':{'type':'long'},"
                + "'c':{'properties':{'d':{'type':'keyword'}}}}}}}");

        @Test
        void arePathsIntoObjects() {
            assertThat(values(AB, "{'a.b':1,'a.c.d':'x','a':{'c.d':'y','b':2}}")).containsExactly(
                    new LongValue("a.b", 1), new Keyword("a.c.d", "x"), new Keyword("a.c.d", "y"),
                    new LongValue("a.b", 2));
        }

        @Test
        void mayHoldArraysAndObjects() {
            assertThat(values(AB, "{'a.b':[1,2],'a.c':{'d':'z'}}")).containsExactly(new LongValue("a.b", 1),
                    new LongValue("a.b", 2), new Keyword("a.c.d", "z"));
        }

        @Test
        void intoALeafAreAnObjectForIt() {
            assertFieldFailure(rejection(KEYWORD, "{'f.x':1}"), "f", "keyword", "{x=1}",
                    ErrorKind.JAVA_EXCEPTION, "Can't get text on a START_OBJECT");
        }

        @Test
        void aTrailingDotIsDropped() {
            assertThat(values(KEYWORD, "{'f.':'x'}")).containsExactly(new Keyword("f", "x"));
            assertThat(values(AB, "{'a.b..':3}")).containsExactly(new LongValue("a.b", 3));
        }
    }

    @Nested
    class FieldNames {
        @Test
        void mayNotBeEmpty() {
            assertWrapped(rejection(KEYWORD, "{'':1}"), ErrorKind.ILLEGAL_ARGUMENT,
                    "field name cannot be an empty string");
        }

        @Test
        void mayNotBeOnlyDots() {
            assertWrapped(rejection(KEYWORD, "{'.':1}"), ErrorKind.ILLEGAL_ARGUMENT,
                    "field name cannot contain only dots");
            assertWrapped(rejection(KEYWORD, "{'...':1}"), ErrorKind.ILLEGAL_ARGUMENT,
                    "field name cannot contain only dots");
        }

        @Test
        void mayNotHaveEmptyOrBlankPartsWithElasticsearchsWording() {
            assertWrapped(rejection(KEYWORD, "{'.a':1}"), ErrorKind.ILLEGAL_ARGUMENT,
                    "field name cannot contain only whitespace: ['.a']");
            assertWrapped(rejection(KEYWORD, "{'a..b':1}"), ErrorKind.ILLEGAL_ARGUMENT,
                    "field name cannot contain only whitespace: ['a..b']");
            assertWrapped(rejection(KEYWORD, "{'a. .b':1}"), ErrorKind.ILLEGAL_ARGUMENT,
                    "field name starting or ending with a [.] makes object resolution ambiguous: [a. .b]");
        }

        @Test
        void mayNotBeBlank() {
            assertPlain(rejection(KEYWORD, "{'  ':1}"), ErrorKind.DOCUMENT_PARSING,
                    "Field name cannot contain only whitespace: [  ]");
            assertPlain(rejection(mapping("{'properties':{'o':{'type':'object'}}}"), "{'o':{' ':1}}"),
                    ErrorKind.DOCUMENT_PARSING, "Field name cannot contain only whitespace: [o. ]");
        }
    }

    @Nested
    class MetadataFields {
        @ParameterizedTest
        @ValueSource(strings = {"_id", "_index", "_routing", "_source", "_version", "_seq_no", "_ignored"})
        void mayNotBeInTheSource(String name) {
            GatewayException e = rejection(KEYWORD, "{'" + name + "':'x'}");
            assertThat(e.kind()).isEqualTo(ErrorKind.DOCUMENT_PARSING);
            assertThat(e.reason()).isEqualTo("failed to parse field [" + name + "] of type [" + name
                    + "] in document with id '1'. Preview of field's value: 'x'");
            assertPlain(e.gatewayCause(), ErrorKind.DOCUMENT_PARSING, "Field [" + name
                    + "] is a metadata field and cannot be added inside a document. Use the index API request "
                    + "parameters.");
        }

        @Test
        void areOnlyReservedAtTheRoot() {
            ParsedDocument parsed = parse(Mappings.EMPTY, "{'o':{'_id':'x'}}");
            assertThat(parsed.values()).containsExactly(new Text("o._id", "x"), new Keyword("o._id.keyword", "x"));
        }
    }
}
