package io.qdrant.esgateway.compat.harness;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine that cannot start is an error with its reason, never a skip. */
class EngineStartFailureTest {
    @Test
    void a_launcher_that_was_not_built_is_an_error_that_says_how_to_build_it(@TempDir Path dir) {
        assertThatThrownBy(() -> EngineProcess.start(Engine.ELASTICSEARCH, dir.resolve("nothing"), dir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("launcher is not built")
                .hasMessageContaining("./qeg test");
    }

    @Test
    void an_engine_that_exits_at_once_is_an_error_with_its_exit_code_and_log(@TempDir Path dir) throws IOException {
        Path target = Files.createDirectories(dir.resolve("target"));
        Files.createDirectories(target.resolve("classes"));
        Files.writeString(target.resolve("oracle-classpath.txt"), "");
        assertThatThrownBy(() -> EngineProcess.start(Engine.ELASTICSEARCH, target, dir.resolve("logs")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with code 1 before it answered")
                .hasMessageContaining("ElasticsearchOracle");
    }

    @Test
    void a_class_path_that_mixes_lucene_versions_is_an_error_naming_them() {
        String mixed = "/r/org/apache/lucene/lucene-core/9.11.1/lucene-core-9.11.1.jar:/r/org/elasticsearch/x/1/x.jar:"
                + "/r/org/apache/lucene/lucene-highlighter/10.3.2/lucene-highlighter-10.3.2.jar";
        assertThatThrownBy(() -> EngineProcess.checkOneLucene(Engine.ELASTICSEARCH, mixed))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("9.11.1=[lucene-core]").hasMessageContaining("10.3.2=[lucene-highlighter]");
        EngineProcess.checkOneLucene(Engine.ELASTICSEARCH, mixed.replace("10.3.2", "9.11.1"));
    }
}
