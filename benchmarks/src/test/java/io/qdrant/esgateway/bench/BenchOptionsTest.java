package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {
    @Test
    void defaultsAreTheReferenceProfile() {
        BenchOptions o = BenchOptions.parse(new String[0]);
        assertThat(o.docs()).isEqualTo(10_000);
        assertThat(o.clients()).containsExactly(1, 8);
        assertThat(o.engines()).extracting(EngineSpec::name).containsExactly("gateway", "elasticsearch", "opensearch");
        assertThat(o.heap()).isEqualTo("512m");
        assertThat(o.out()).isEqualTo(Path.of("docs", "benchmarks"));
        assertThat(o.smoke()).isFalse();
        assertThat(o.requestCache()).isTrue();
        assertThat(Corpus.mapping()).isEqualTo(Corpus.mapping(true)).doesNotContain("requests.cache");
    }

    @Test
    void uncachedSwitchesTheRequestCacheOffInEveryEnginesIndex() throws Exception {
        BenchOptions o = BenchOptions.parse(new String[] {"--uncached", "--docs", "100"});
        assertThat(o.requestCache()).isFalse();
        assertThat(o.docs()).isEqualTo(100);
        assertThat(Corpus.mapping(false)).contains("\"number_of_replicas\":0,\"index.requests.cache.enable\":false}");
        assertThat(com.fasterxml.jackson.databind.json.JsonMapper.builder().build().readTree(Corpus.mapping(false))
                .path("settings").path("index.requests.cache.enable").asBoolean(true)).isFalse();
    }

    @Test
    void theTitleAnalyzerIsMappedOnEveryEngine() throws Exception {
        assertThat(BenchOptions.parse(new String[0]).titleAnalyzer()).isEmpty();
        BenchOptions o = BenchOptions.parse(new String[] {"--title-analyzer", "english", "--engines",
                "opensearch,gateway"});
        assertThat(o.titleAnalyzer()).contains("english");
        com.fasterxml.jackson.databind.JsonNode mapping = com.fasterxml.jackson.databind.json.JsonMapper.builder()
                .build().readTree(Corpus.mapping(true, o.titleAnalyzer()));
        assertThat(mapping.path("mappings").path("properties").path("title").path("analyzer").asText())
                .isEqualTo("english");
        assertThat(Corpus.mapping(true, java.util.Optional.empty())).isEqualTo(Corpus.mapping(true));
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--title-analyzer", "bad name"}))
                .hasMessageContaining("--title-analyzer");
    }

    @Test
    void sharedModeEnginesHaveTwoReplicasUnlessToldOneToEight() {
        assertThat(BenchOptions.parse(new String[0]).replicas()).isEqualTo(2);
        assertThat(BenchOptions.parse(new String[] {"--replicas", "1"}).replicas()).isEqualTo(1);
        assertThat(BenchOptions.parse(new String[] {"--replicas=8"}).replicas()).isEqualTo(8);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--replicas", "9"}))
                .hasMessageContaining("--replicas");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--replicas", "0"}))
                .hasMessageContaining("--replicas");
    }

    @Test
    void smokeIsTinyAndLaterOptionsOverrideIt() {
        BenchOptions o = BenchOptions.parse(new String[] {"--smoke", "--docs=300"});
        assertThat(o.docs()).isEqualTo(300);
        assertThat(o.trials()).isEqualTo(1);
        assertThat(o.clients()).containsExactly(1);
        assertThat(o.engines()).extracting(EngineSpec::name).containsExactly("gateway", "elasticsearch");
    }

    @Test
    void workloadsCanBeChosenAndTheCannedQdrantGatewayIsAnEngine() {
        BenchOptions o = BenchOptions.parse(new String[] {"--workloads", "get, sorted-page", "--engines",
            "gateway,qdrant-canned"});
        assertThat(o.only()).containsExactly("get", "sorted-page");
        assertThat(o.engines().get(1).kind()).isEqualTo(EngineSpec.Kind.GATEWAY_QDRANT_CANNED);
        assertThat(o.engines().get(1).name()).isEqualTo("gateway-qdrant-canned");
        assertThat(o.engines().get(1).isNative()).isFalse();
        assertThat(BenchOptions.parse(new String[0]).only()).isEmpty();
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--workloads", "get,nope"}))
                .hasMessageStartingWith("--workloads: unknown workload [nope]; known: bulk-ingest, get,");
    }

    @Test
    void enginesByUrl() {
        BenchOptions o = BenchOptions.parse(new String[] {"--engines", "gateway,es9=http://127.0.0.1:9201/",
            "--clients", "1,4,16", "--heap", "1g"});
        assertThat(o.engines()).hasSize(2);
        EngineSpec url = o.engines().get(1);
        assertThat(url.kind()).isEqualTo(EngineSpec.Kind.URL);
        assertThat(url.url()).contains(URI.create("http://127.0.0.1:9201"));
        assertThat(url.isNative()).isTrue();
        assertThat(o.clients()).isEqualTo(List.of(1, 4, 16));
    }

    @Test
    void badOptionsAreNamed() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--doc", "5"})).hasMessageContaining("--doc");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--docs", "x"})).hasMessageContaining("--docs");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--engines", "solr"})).hasMessageContaining("solr");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--heap", "lots"})).hasMessageContaining("--heap");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--trials"})).hasMessageContaining("needs a value");
    }

    @Test
    void helpPrintsTheUsageWithoutAValue() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--help"})).hasMessage(BenchOptions.USAGE);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--docs", "5", "-h"})).hasMessage(BenchOptions.USAGE);
    }

    @Test
    void helpExitsZeroWithTheUsageOnStdoutAndABadOptionExitsTwo() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        IllegalArgumentException help = catchThrowableOfType(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--help"}));
        assertThat(BenchMain.refused(help, new PrintStream(out), new PrintStream(err))).isZero();
        assertThat(out.toString()).contains("usage: ./qeg bench");
        assertThat(err.toString()).isEmpty();
        IllegalArgumentException bad = catchThrowableOfType(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--nope", "1"}));
        assertThat(BenchMain.refused(bad, new PrintStream(out), new PrintStream(err))).isEqualTo(2);
        assertThat(err.toString()).contains("unknown option --nope");
    }
}
