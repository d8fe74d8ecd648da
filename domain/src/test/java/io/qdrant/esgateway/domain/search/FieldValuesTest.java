package io.qdrant.esgateway.domain.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldValuesTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse(("{'properties':{"
            + "'title':{'type':'text','fields':{'raw':{'type':'keyword','ignore_above':10}}},"
            + "'tag':{'type':'keyword'},'price':{'type':'double'},'rating':{'type':'float'},'year':{'type':'integer'},"
            + "'published':{'type':'date'},'when':{'type':'date','format':'yyyy/MM/dd||epoch_millis'},"
            + "'ok':{'type':'boolean'},'author':{'properties':{'name':{'type':'keyword'}}}}}").replace('\'', '"')));

    private static JsonObject doc(String json) {
        return (JsonObject) Json.parse(json.replace('\'', '"'));
    }

    private static String fields(String source, String... patterns) {
        List<FieldValues.Request> requests = FieldValues.parse("fields", Json.parse(
                ("[" + String.join(",", java.util.Arrays.stream(patterns).map(p -> p.startsWith("{") ? p : "'" + p + "'")
                        .toList()) + "]").replace('\'', '"')));
        Map<String, List<JsonValue>> out = FieldValues.fields("i", doc(source), MAPPINGS, requests);
        return new java.util.TreeMap<>(out).toString();
    }

    @Test
    void valuesAreParsedAsTheirMappedTypeInDocumentOrder() {
        String source = "{'title':'A Long Title Here','tag':['b','a','b'],'price':7,'rating':4.1,'year':'1999',"
                + "'published':'2020-07-07','when':'2021/01/02','ok':'true','author':{'name':'Ann'},'extra':1}";
        assertThat(fields(source, "title", "tag", "price", "rating", "year", "published", "when", "ok", "author.name",
                "extra")).isEqualTo("{author.name=[JsonString[value=Ann]], ok=[JsonBool[value=true]],"
                + " price=[JsonNumber[value=7.0]], published=[JsonString[value=2020-07-07T00:00:00.000Z]],"
                + " rating=[JsonNumber[value=4.1]], tag=[JsonString[value=b], JsonString[value=a], JsonString[value=b]],"
                + " title=[JsonString[value=A Long Title Here]], when=[JsonString[value=2021/01/02]],"
                + " year=[JsonNumber[value=1999]]}");
    }

    @Test
    void patternsReachMultiFieldsAndIgnoreAboveDropsValues() {
        assertThat(fields("{'title':'short'}", "title*")).isEqualTo(
                "{title=[JsonString[value=short]], title.raw=[JsonString[value=short]]}");
        assertThat(fields("{'title':'much longer than ten'}", "title.raw")).isEqualTo("{}");
        assertThat(fields("{'author':{'name':'x'}}", "author")).as("objects are not leaves").isEqualTo("{}");
        assertThat(fields("{'published':'2020-07-07'}", "{'field':'published','format':'yyyy'}"))
                .isEqualTo("{published=[JsonString[value=2020]]}");
    }

    @Test
    void docValueFieldsAreSortedUniqueAndRefuseText() {
        List<FieldValues.Request> tag = List.of(new FieldValues.Request("tag", java.util.Optional.empty()));
        assertThat(FieldValues.docValueFields("i", doc("{'tag':['b','a','b']}"), MAPPINGS, tag).get("tag"))
                .containsExactly(JsonValue.string("a"), JsonValue.string("b"));
        List<FieldValues.Request> title = List.of(new FieldValues.Request("title", java.util.Optional.empty()));
        assertThatThrownBy(() -> FieldValues.docValueFields("i", doc("{'title':'x'}"), MAPPINGS, title))
                .hasMessageStartingWith("Fielddata is disabled on [title] in [i].");
    }
}
