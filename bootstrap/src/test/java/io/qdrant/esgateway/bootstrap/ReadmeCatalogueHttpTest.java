package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README's catalogue example works as written: its curl commands, read from README.md ("A catalogue with text
 * analysis"), sent as they are to a gateway on each backend; every command succeeds, and each search finds exactly
 * the documents its {@code # finds:} comment names.
 */
class ReadmeCatalogueHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static java.util.stream.Stream<String> backends() {
        return BothBackends.names();
    }

    /** One curl command of the example, and the ids the comment after it says a search finds (or null). */
    record Command(String method, String path, String contentType, String body, List<String> finds) {
    }

    private static final Pattern CURL = Pattern.compile(
            "curl(?: -X(\\w+))? '?localhost:9200([^' ]*)'?(?: -H (?:\"\\$H\"|'Content-Type: ([^']+)'))?"
                    + "(?: (?:-d|--data-binary) '([^']*)')?", Pattern.DOTALL);

    /** The commands of the README's example, in order. */
    static List<Command> commands() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int section = readme.indexOf("## A catalogue with text analysis");
        assertThat(section).as("the README's catalogue section").isNotNegative();
        int start = readme.indexOf("```bash\n", section) + "```bash\n".length();
        String block = readme.substring(start, readme.indexOf("\n```", start));
        List<Command> out = new ArrayList<>();
        int at = 0;
        while (true) {
            int curl = block.indexOf("curl ", at);
            if (curl < 0) {
                break;
            }
            Matcher m = CURL.matcher(block);
            assertThat(m.find(curl) && m.start() == curl).as("a curl command the test reads, at: %s",
                    block.substring(curl, Math.min(block.length(), curl + 80))).isTrue();
            String method = m.group(1) != null ? m.group(1) : "GET";
            String contentType = m.group(4) == null ? null : m.group(3) != null ? m.group(3) : "application/json";
            at = m.end();
            List<String> finds = null;
            int next = block.indexOf("curl ", at);
            String after = block.substring(at, next < 0 ? block.length() : next);
            Matcher f = Pattern.compile("# finds: ([0-9, ]+)").matcher(after);
            if (f.find()) {
                finds = List.of(f.group(1).trim().split(", *"));
            }
            out.add(new Command(method, m.group(2), contentType, m.group(4), finds));
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("backends")
    void theExampleWorksAsWritten(String backend) throws IOException {
        EsClient es = gateways.client(backend);
        List<Command> commands = commands();
        assertThat(commands).hasSizeGreaterThan(5);
        assertThat(commands.stream().filter(c -> c.finds() != null)).hasSizeGreaterThanOrEqualTo(5);
        for (Command c : commands) {
            EsClient.Reply reply = es.send(c.method(), c.path(), c.body(), c.contentType());
            assertThat(reply.status()).as("%s %s: %s", c.method(), c.path(), reply).isBetween(200, 201);
            JsonNode json = reply.json();
            assertThat(json.path("errors").asBoolean(false)).as("%s %s: %s", c.method(), c.path(), reply).isFalse();
            if (c.finds() != null) {
                TreeSet<String> ids = new TreeSet<>();
                json.path("hits").path("hits").forEach(h -> ids.add(h.path("_id").asText()));
                assertThat(ids).as("%s %s: %s", c.method(), c.path(), c.body()).isEqualTo(new TreeSet<>(c.finds()));
            }
        }
        // the normalizer's aggregation and the analyzer's tokens, as the comments say
        JsonNode brands = es.post("/catalogue/_search", "{\"size\": 0, \"aggs\": {\"b\": {\"terms\": {\"field\":"
                + " \"brand\"}}}}").json().path("aggregations").path("b").path("buckets");
        assertThat(brands.toString()).contains("{\"key\":\"vortex\",\"doc_count\":2}")
                .contains("{\"key\":\"lumen\",\"doc_count\":2}");
        assertThat(es.post("/catalogue/_analyze", "{\"field\": \"title\", \"text\": \"Running Cafés\"}").json()
                .findValuesAsText("token")).containsExactly("run", "cafe");
        es.delete("/catalogue");
    }
}
