package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The container image the build writes ({@code target/qeg-image.tar}, an OCI image layout), read from the tarball
 * since no container can run here: its configuration (entrypoint, non-root user, port, volume, environment, the
 * health-check command) and its file system (the Java runtime, the C library, the jar's classes and libraries,
 * {@code jvm.options}). Under {@code CI=true} a missing tarball fails; elsewhere (built with {@code -DskipImage})
 * the test is skipped.
 */
class ContainerImageIT {
    private static final Path TARBALL = Path.of("target", "qeg-image.tar");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A file of a layer: its mode and, for small files, its content. */
    private record Entry(int mode, byte[] content) {
    }

    private static Map<String, byte[]> blobs;
    private static JsonNode config;
    private static Map<String, Entry> files;

    @BeforeAll
    static void read() throws Exception {
        if (!Files.exists(TARBALL)) {
            String reason = TARBALL.toAbsolutePath() + " was not built (mvn package without -DskipImage builds it)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException(reason);
            }
            Assumptions.abort(reason);
        }
        blobs = new LinkedHashMap<>();
        Map<String, Entry> outer = untar(Files.newInputStream(TARBALL), Integer.MAX_VALUE);
        outer.forEach((name, e) -> blobs.put(name, e.content()));
        JsonNode index = JSON.readTree(blobs.get("index.json"));
        JsonNode manifest = JSON.readTree(blob(index.at("/manifests/0/digest").asText()));
        config = JSON.readTree(blob(manifest.at("/config/digest").asText())).path("config");
        files = new LinkedHashMap<>();
        for (JsonNode layer : manifest.path("layers")) {
            byte[] gz = blob(layer.path("digest").asText());
            files.putAll(untar(new GZIPInputStream(new ByteArrayInputStream(gz)), 1 << 20));
        }
    }

    /** The blob of a digest, checked against it. */
    private static byte[] blob(String digest) throws Exception {
        String hex = digest.substring("sha256:".length());
        byte[] content = blobs.get("blobs/sha256/" + hex);
        assertThat(content).as(digest).isNotNull();
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content))).isEqualTo(hex);
        return content;
    }

    @Test
    void theEntrypointStartsTheGatewayOnTheImagesJavaWithItsJvmOptions() {
        List<String> entrypoint = strings(config.path("Entrypoint"));
        assertThat(entrypoint).containsExactly("/opt/java/bin/java", "@/app/jvm.options", "-cp",
                "@/app/jib-classpath-file", Main.class.getName());
        assertThat(strings(config.path("Env"))).contains("QEG_HOST=0.0.0.0", "QEG_PORT=9200", "QEG_DATA_DIR=/data",
                "QEG_SECURITY=true");
    }

    @Test
    void itRunsAsANonRootUserAndExposesThePortAndTheDataVolume() {
        String user = config.path("User").asText();
        assertThat(user).matches("\\d+:\\d+");
        assertThat(Integer.parseInt(user.substring(0, user.indexOf(':')))).isPositive();
        assertThat(config.path("ExposedPorts").has("9200/tcp")).isTrue();
        assertThat(config.path("Volumes").has("/data")).isTrue();
        // the data directory and /tmp (sqlite's native library is unpacked there) are writable by that user
        assertThat(files.get("data").mode() & 0777).isEqualTo(0777);
        assertThat(files.get("tmp").mode() & 0777).isEqualTo(0777);
    }

    @Test
    void theHealthCheckCommandIsInTheImage() {
        // OCI image configurations have no HEALTHCHECK (a Docker extension): the command is a label, used by the
        // compose file and orchestrators (docs/deployment.md)
        String command = config.at("/Labels/io.qdrant.esgateway.healthcheck").asText();
        assertThat(command).isEqualTo("/opt/java/bin/java -cp @/app/jib-classpath-file " + HealthCheck.class.getName());
        assertThat(files).containsKey("app/classes/" + HealthCheck.class.getName().replace('.', '/') + ".class");
    }

    @Test
    void theFileSystemHoldsTheRuntimeTheCLibraryTheGatewayAndItsJvmOptions() throws IOException {
        assertThat(files.get("opt/java/bin/java").mode() & 0111).as("java is executable").isEqualTo(0111);
        assertThat(files.get("lib64/ld-linux-x86-64.so.2").mode() & 0111).isEqualTo(0111);
        assertThat(files).containsKeys("opt/java/lib/server/libjvm.so", "opt/java/lib/modules",
                "lib/x86_64-linux-gnu/libc.so.6", "lib/x86_64-linux-gnu/libm.so.6",
                "app/classes/" + Main.class.getName().replace('.', '/') + ".class");
        String release = new String(files.get("opt/java/release").content(), StandardCharsets.UTF_8);
        assertThat(release).contains("JAVA_VERSION=\"25").contains("jdk.incubator.vector").contains("java.sql");
        assertThat(files.get("app/jvm.options").content())
                .isEqualTo(Files.readAllBytes(Path.of("src", "main", "jvm", "jvm.options")));
        String classpath = new String(files.get("app/jib-classpath-file").content(), StandardCharsets.UTF_8).trim();
        for (String part : classpath.split(":")) {
            if (part.endsWith(".jar")) {
                assertThat(files).as(part).containsKey(part.substring(1));
            }
        }
        assertThat(classpath).contains("/app/libs/helidon-webserver-", "/app/libs/jedis-", "/app/libs/sqlite-jdbc-");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The regular files and directories of a tar stream (ustar with PAX long names); content up to {@code max}. */
    private static Map<String, Entry> untar(InputStream raw, int max) throws IOException {
        Map<String, Entry> out = new LinkedHashMap<>();
        try (InputStream in = raw) {
            byte[] header = new byte[512];
            String longName = null;
            while (in.readNBytes(header, 0, 512) == 512) {
                if (header[0] == 0) {
                    break;
                }
                String name = text(header, 0, 100);
                String prefix = text(header, 345, 155);
                if (!prefix.isEmpty()) {
                    name = prefix + "/" + name;
                }
                int mode = (int) octal(header, 100, 8);
                long size = octal(header, 124, 12);
                char type = (char) header[156];
                byte[] content = in.readNBytes((int) size);
                in.skipNBytes((512 - size % 512) % 512);
                if (type == 'x') {
                    for (String record : new String(content, StandardCharsets.UTF_8).split("\n")) {
                        int eq = record.indexOf(" path=");
                        if (eq >= 0) {
                            longName = record.substring(eq + " path=".length());
                        }
                    }
                    continue;
                }
                if (longName != null) {
                    name = longName;
                    longName = null;
                }
                while (name.startsWith("/") || name.startsWith("./")) {
                    name = name.substring(name.indexOf('/') + 1);
                }
                if (name.endsWith("/")) {
                    name = name.substring(0, name.length() - 1);
                }
                out.put(name, new Entry(mode, size <= max ? content : new byte[0]));
            }
        }
        return out;
    }

    private static String text(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] header, int offset, int length) {
        String s = text(header, offset, length).trim();
        return s.isEmpty() ? 0 : Long.parseLong(s, 8);
    }
}
