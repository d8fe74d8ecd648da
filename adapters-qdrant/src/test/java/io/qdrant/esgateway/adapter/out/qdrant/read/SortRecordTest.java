package io.qdrant.esgateway.adapter.out.qdrant.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.json.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.StreamedJsonNodes;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/**
 * The streaming readers of query, count and facet answers ({@link SortRecord#points}, {@link StreamedJsonNodes#count},
 * {@link QdrantFacets#hits}) give what the tree-based reading gave ({@code readTree}, then
 * {@code result.path("points")} record by record, {@code result.path("count").asLong()}, and
 * {@code result.path("hits")} hit by hit), on random answers of every shape — including the odd ones (repeated keys,
 * numbers beyond a long, records that are not objects, {@code points} that is not an array).
 */
class SortRecordTest {

    /** Decodes the {@code result} of {@code answer} as {@link QdrantClient#call} does, checking it is read whole. */
    private static <T> T decode(String answer, QdrantClient.ResultDecoder<T> decoder) throws IOException {
        try (JsonParser parser = QdrantClient.MAPPER.createParser(answer)) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(parser.nextToken()).isEqualTo(JsonToken.FIELD_NAME);
            parser.nextToken();
            T out = decoder.decode(parser);
            // on the result's last token: the next is the envelope's next key or its end
            assertThat(parser.getParsingContext().getParent().inRoot()).as("the result read exactly: " + answer)
                    .isTrue();
            assertThat(parser.nextToken()).isIn(JsonToken.FIELD_NAME, JsonToken.END_OBJECT);
            return out;
        }
    }

    private static List<SortRecord> viaTree(String answer) throws IOException {
        List<SortRecord> out = new ArrayList<>();
        for (JsonNode record : QdrantClient.MAPPER.readTree(answer).get("result").path("points")) {
            out.add(SortRecord.of(record));
        }
        return out;
    }

    @Test
    void aTypicalOrderByAnswer() throws IOException {
        String answer = """
                {"result":{"points":[
                  {"id":"6f1c2d3e-0000-5000-8000-000000000001","version":2,"score":0.0,
                   "payload":{"_id":"a","_source":{"price":17,"rank":[3,1.5]}},"order_value":17},
                  {"id":"6f1c2d3e-0000-5000-8000-000000000002","payload":{"_source":{"price":2.5e3},"_id":"b"},
                   "order_value":2500.0}]},"status":"ok","time":0.001}
                """;
        List<SortRecord> records = decode(answer, SortRecord.points());
        assertThat(records).hasSize(2);
        assertThat(records.get(0).pointId()).isEqualTo("6f1c2d3e-0000-5000-8000-000000000001");
        assertThat(records.get(0).docId()).isEqualTo("a");
        assertThat(records.get(0).orderValue().asLong()).isEqualTo(17);
        assertThat(records.get(0).source()).isEqualTo(Json.parse("{\"price\":17,\"rank\":[3,1.5]}"));
        assertThat(records.get(1).orderValue().isDouble()).isTrue();
        assertEqualRecords(answer);
    }

    @Test
    void oddShapesReadAsTheTreeReadThem() throws IOException {
        for (String result : List.of("null", "[]", "7", "{}", "{\"points\":null}", "{\"points\":{}}",
                "{\"points\":{\"a\":{\"id\":1,\"order_value\":2},\"b\":3}}", "{\"points\":[1,null,[2],\"x\"]}",
                "{\"points\":[{}],\"points\":[{\"id\":2}]}", "{\"points\":[{\"payload\":7,\"id\":{\"x\":1}}]}",
                "{\"points\":[{\"payload\":{\"_id\":{\"k\":1},\"_source\":[1]},\"order_value\":[1,2]}]}",
                "{\"points\":[{\"payload\":{\"_id\":\"a\",\"_source\":{\"p\":1}},\"payload\":{\"_id\":5}}]}",
                "{\"points\":[{\"id\":12345678901234567890123,\"order_value\":-0.0}]}")) {
            assertEqualRecords("{\"result\":" + result + "}");
        }
    }

    @Test
    void randomAnswersReadAsTheTreeReadThem() throws IOException {
        Random r = new Random(8);
        for (int i = 0; i < 3000; i++) {
            StringBuilder points = new StringBuilder("[");
            int n = r.nextInt(6);
            for (int k = 0; k < n; k++) {
                points.append(k == 0 ? "" : ",").append(r.nextInt(20) == 0 ? value(r, 2) : record(r));
            }
            String result = r.nextInt(30) == 0 ? value(r, 2) : "{\"points\":" + points + "]"
                    + (r.nextInt(10) == 0 ? ",\"points\":" + value(r, 1) : "") + "}";
            assertEqualRecords("{\"result\":" + result + "}");
        }
    }

    /**
     * The stream read with the stored fields too: the same records, and each record's document exactly what a
     * retrieve of that record gives (none where the retrieve finds the point not the gateway's), the first one kept.
     */
    @Test
    void recordsWithTheirDocumentsReadAsARetrieveReadsThem() throws IOException {
        Random r = new Random(10);
        int documents = 0;
        for (int i = 0; i < 3000; i++) {
            StringBuilder points = new StringBuilder("[");
            int n = r.nextInt(6);
            for (int k = 0; k < n; k++) {
                points.append(k == 0 ? "" : ",").append(r.nextInt(20) == 0 ? value(r, 2) : storedRecord(r));
            }
            String result = r.nextInt(30) == 0 ? value(r, 2) : "{\"points\":" + points + "]"
                    + (r.nextInt(10) == 0 ? ",\"points\":[" + storedRecord(r) + "]" : "") + "}";
            String answer = "{\"result\":" + result + "}";
            Map<String, StoredDocument> streamed = new HashMap<>();
            assertThat(decode(answer, SortRecord.points(streamed))).as(answer).isEqualTo(viaTree(answer));
            Map<String, String> expected = new HashMap<>();
            for (JsonNode record : QdrantClient.MAPPER.readTree(answer).get("result").path("points")) {
                if (!record.isObject()) {
                    continue;
                }
                Map<String, StoredDocument> one;
                try (JsonParser parser = QdrantClient.MAPPER.createParser("[" + record + "]")) {
                    parser.nextToken();
                    one = StoredDocuments.retrieved(QdrantFilterTranslatorTest.INDEX, java.util.Set.of(
                            record.path("payload").path("_id").asText())).decode(parser);
                } catch (io.qdrant.esgateway.domain.error.GatewayException notOurs) {
                    continue;
                }
                one.forEach((id, d) -> expected.putIfAbsent(id, render(d)));
            }
            Map<String, String> actual = new HashMap<>();
            streamed.forEach((id, d) -> actual.put(id, render(d)));
            assertThat(actual).as(answer).isEqualTo(expected);
            documents += actual.size();
        }
        assertThat(documents).as("documents seen").isGreaterThan(1000);
    }

    private static String render(StoredDocument d) {
        return d.id() + " " + d.version() + " " + Json.write(d.source());
    }

    /**
     * A record with the stored fields in its payload (mostly well-formed; odd values too), without repeated keys (a
     * tree, which the reference reads, keeps only the last of them).
     */
    private static String storedRecord(Random r) {
        List<String> payload = new ArrayList<>();
        if (r.nextInt(8) > 0) {
            payload.add("\"_id\":" + (r.nextInt(6) == 0 ? value(r, 1) : "\"d" + r.nextInt(4) + "\""));
        }
        if (r.nextInt(8) > 0) {
            // a textual _src is the source's JSON text (a retrieve fails on other text, as this read does)
            String[] notText = {"7", "true", "null", "[1]", "{}"};
            payload.add("\"_src\":" + (r.nextInt(8) == 0 ? notText[r.nextInt(notText.length)] : QdrantClient.NODES.textNode(
                    r.nextBoolean() ? "{\"a\":" + r.nextInt(9) + "}" : "{ \"b\" : [1.50, \"x\"] }").toString()));
        }
        for (String number : List.of("_version", "_seq_no", "_primary_term")) {
            if (r.nextInt(3) > 0) {
                // odd values within a long (a retrieve fails on a version beyond it, as this read does)
                String[] odd = {"\"7\"", "true", "null", "1.5", "[1]", "{}", "\"x\""};
                payload.add("\"" + number + "\":" + (r.nextInt(6) == 0 ? odd[r.nextInt(odd.length)]
                        : Integer.toString(r.nextInt(50))));
            }
        }
        if (r.nextInt(3) > 0) {
            payload.add("\"_source\":" + object(r, 2));
        }
        java.util.Collections.shuffle(payload, r);
        List<String> members = new ArrayList<>();
        members.add("\"id\":" + r.nextInt(1000));
        members.add("\"order_value\":" + number(r));
        members.add("\"payload\":" + (r.nextInt(15) == 0 ? value(r, 1) : "{" + String.join(",", payload) + "}"));
        java.util.Collections.shuffle(members, r);
        return "{" + String.join(",", members) + "}";
    }

    @Test
    void countsReadAsTheTreeReadThem() throws IOException {
        Random r = new Random(9);
        List<String> results = new ArrayList<>(List.of("null", "{}", "[1]", "{\"count\":12}", "{\"count\":\"34\"}",
                "{\"count\":1.9e3}", "{\"count\":99999999999999999999}", "{\"count\":true}", "{\"count\":[3]}",
                "{\"count\":1,\"count\":2}", "{\"x\":{\"count\":5},\"count\":-4}"));
        for (int i = 0; i < 1000; i++) {
            results.add(r.nextBoolean() ? "{\"count\":" + value(r, 1) + "}" : value(r, 2));
        }
        for (String result : results) {
            String answer = "{\"result\":" + result + "}";
            long expected = QdrantClient.MAPPER.readTree(answer).get("result").path("count").asLong();
            assertThat(decode(answer, StreamedJsonNodes.count())).as(answer).isEqualTo(expected);
        }
    }

    @Test
    void facetHitsReadAsTheTreeReadThem() throws IOException {
        Random r = new Random(10);
        List<String> results = new ArrayList<>(List.of("null", "{}", "{\"hits\":null}", "{\"hits\":{\"a\":{\"value\":1}}}",
                "{\"hits\":[7,{\"count\":2},[1]]}", "{\"hits\":[{\"value\":\"a\",\"value\":\"b\",\"count\":3}],\"hits\":[]}",
                "{\"hits\":[{\"value\":\"red\",\"count\":12},{\"value\":true,\"count\":1}]}"));
        for (int i = 0; i < 2000; i++) {
            StringBuilder hits = new StringBuilder("[");
            int n = r.nextInt(5);
            for (int k = 0; k < n; k++) {
                List<String> members = new ArrayList<>();
                if (r.nextInt(6) > 0) {
                    members.add("\"value\":" + (r.nextInt(4) == 0 ? value(r, 1) : r.nextBoolean() ? string(r)
                            : number(r)));
                }
                if (r.nextInt(6) > 0) {
                    members.add("\"count\":" + (r.nextInt(5) == 0 ? value(r, 1) : Integer.toString(r.nextInt(99))));
                }
                if (r.nextInt(4) == 0) {
                    members.add("\"other\":" + value(r, 2));
                }
                java.util.Collections.shuffle(members, r);
                hits.append(k == 0 ? "" : ",").append(r.nextInt(15) == 0 ? value(r, 1)
                        : "{" + String.join(",", members) + "}");
            }
            results.add(r.nextInt(20) == 0 ? value(r, 2) : "{\"hits\":" + hits + "]}");
        }
        for (String result : results) {
            String answer = "{\"result\":" + result + "}";
            List<QdrantFacets.Hit> tree = new ArrayList<>();
            for (JsonNode hit : QdrantClient.MAPPER.readTree(answer).get("result").path("hits")) {
                tree.add(QdrantFacets.Hit.of(hit));
            }
            assertThat(decode(answer, QdrantFacets.hits())).as(answer).isEqualTo(tree);
        }
    }

    private static void assertEqualRecords(String answer) throws IOException {
        List<SortRecord> streamed = decode(answer, SortRecord.points());
        List<SortRecord> tree = viaTree(answer);
        assertThat(streamed).as(answer).isEqualTo(tree);
        for (int i = 0; i < tree.size(); i++) { // member order too (records compare maps without it)
            assertThat(Json.write(streamed.get(i).source())).as(answer).isEqualTo(Json.write(tree.get(i).source()));
            assertThat(streamed.get(i).orderValue().getClass()).isEqualTo(tree.get(i).orderValue().getClass());
        }
    }

    private static String record(Random r) {
        List<String> members = new ArrayList<>();
        if (r.nextInt(8) > 0) {
            members.add("\"id\":" + (r.nextBoolean() ? "\"" + new java.util.UUID(r.nextLong(), r.nextLong()) + "\""
                    : r.nextInt(5) == 0 ? value(r, 1) : Integer.toString(r.nextInt(1000))));
        }
        if (r.nextInt(8) > 0) {
            members.add("\"order_value\":" + (r.nextInt(5) == 0 ? value(r, 1) : number(r)));
        }
        if (r.nextInt(8) > 0) {
            List<String> payload = new ArrayList<>();
            if (r.nextInt(6) > 0) {
                payload.add("\"_id\":" + (r.nextInt(5) == 0 ? value(r, 1) : string(r)));
            }
            if (r.nextInt(6) > 0) {
                payload.add("\"_source\":" + (r.nextInt(8) == 0 ? value(r, 1) : object(r, 3)));
            }
            if (r.nextInt(4) == 0) {
                payload.add("\"_other\":" + value(r, 2));
            }
            if (r.nextInt(10) == 0 && !payload.isEmpty()) {
                payload.add(payload.get(r.nextInt(payload.size()))); // a repeated key
            }
            java.util.Collections.shuffle(payload, r);
            members.add("\"payload\":" + (r.nextInt(15) == 0 ? value(r, 1) : "{" + String.join(",", payload) + "}"));
        }
        if (r.nextInt(3) == 0) {
            members.add("\"version\":" + r.nextInt(9));
        }
        if (r.nextInt(4) == 0) {
            members.add("\"score\":" + number(r));
        }
        if (r.nextInt(12) == 0 && !members.isEmpty()) {
            members.add(members.get(r.nextInt(members.size())));
        }
        java.util.Collections.shuffle(members, r);
        return "{" + String.join(",", members) + "}";
    }

    private static String object(Random r, int depth) {
        int n = r.nextInt(5);
        List<String> members = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String key = r.nextInt(6) == 0 && !members.isEmpty() ? members.get(0).substring(0, members.get(0)
                    .indexOf("\":") + 1) : string(r);
            members.add(key + ":" + value(r, depth - 1));
        }
        return "{" + String.join(",", members) + "}";
    }

    private static String value(Random r, int depth) {
        int kind = r.nextInt(depth > 0 ? 8 : 6);
        return switch (kind) {
            case 0 -> string(r);
            case 1, 2 -> number(r);
            case 3 -> r.nextBoolean() ? "true" : "false";
            case 4 -> "null";
            case 5 -> string(r);
            case 6 -> object(r, depth);
            default -> {
                int n = r.nextInt(4);
                List<String> elements = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    elements.add(value(r, depth - 1));
                }
                yield "[" + String.join(",", elements) + "]";
            }
        };
    }

    private static String string(Random r) {
        String[] strings = {"a", "price", "rank", "_id", "_source", "id", "é", "😀", "x\\\"y", "\\u0000", "",
                "a.b", "back\\\\slash"};
        return "\"" + strings[r.nextInt(strings.length)] + "\"";
    }

    private static String number(Random r) {
        return switch (r.nextInt(9)) {
            case 0 -> Integer.toString(r.nextInt());
            case 1 -> Long.toString(r.nextLong());
            case 2 -> "123456789012345678901234567890";
            case 3 -> "-9223372036854775809";
            case 4 -> Double.toString(r.nextDouble() * 1000);
            case 5 -> "1.5e300";
            case 6 -> "-0.0";
            case 7 -> "2E-7";
            default -> Integer.toString(r.nextInt(100));
        };
    }
}
