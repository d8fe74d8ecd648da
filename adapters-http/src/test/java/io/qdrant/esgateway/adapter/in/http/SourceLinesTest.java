package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Source lines parsed in two halves give, line by line, what parsing each line alone gives. */
class SourceLinesTest {
    private final JsonCodec codec = new JsonCodec();

    @Test
    void everyLineGetsItsOwnTreeOrItsOwnErrorWhicheverHalfItIsIn() {
        for (int count : new int[] {3, SourceLines.SPLIT_AT, 1000}) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            List<SourceLines.Range> ranges = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String line = i % 97 == 5 ? "{\"n\":" + i + ",}" : i % 101 == 7 ? "{\"a\":1,\"a\":2}"
                        : "{\"n\":" + i + ",\"t\":\"é " + i + "\"}";
                byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                ranges.add(new SourceLines.Range(body.size(), bytes.length));
                body.writeBytes(bytes);
                body.write('\n');
            }
            byte[] all = body.toByteArray();

            List<SourceLines.Parsed> parsed = SourceLines.parse(codec, all, ranges);

            assertThat(parsed).hasSize(count);
            for (int i = 0; i < count; i++) {
                SourceLines.Range r = ranges.get(i);
                String alone;
                try {
                    alone = "tree " + codec.parse(all, r.offset(), r.length());
                } catch (GatewayException e) {
                    alone = "refused " + e.kind() + " " + e.reason();
                }
                String got = switch (parsed.get(i)) {
                    case SourceLines.Parsed.Tree(var v) -> "tree " + v;
                    case SourceLines.Parsed.Refused(var e) -> "refused " + e.kind() + " " + e.reason();
                };
                assertThat(got).as("line %d of %d", i, count).isEqualTo(alone);
            }
            assertThat(parsed.get(2)).isInstanceOf(SourceLines.Parsed.Tree.class);
            if (count > 5) {
                assertThat(parsed.get(5)).isInstanceOf(SourceLines.Parsed.Refused.class);
            }
        }
    }
}
