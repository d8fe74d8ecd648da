package io.qdrant.esgateway.compat.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The analysis files the scenarios name in {@code *_path} settings ({@code src/test/resources/analysis-config/}),
 * copied into each engine's config directory and into the one config directory of this JVM's gateways, so that the
 * same relative path reads the same file on every side.
 */
public final class AnalysisConfigFiles {
    /** The files, relative to the config directory. */
    public static final List<String> FILES = List.of("analysis/synonyms.txt", "analysis/stopwords.txt",
            "analysis/keywords.txt", "analysis/mappings.txt", "analysis/articles.txt", "analysis/wordnet.txt");
    private static Path shared;

    private AnalysisConfigFiles() {
    }

    /** Copies the files into {@code configDir} (created if needed). */
    public static void copyTo(Path configDir) {
        try {
            for (String name : FILES) {
                Path target = configDir.resolve(name);
                Files.createDirectories(target.getParent());
                try (InputStream in = AnalysisConfigFiles.class.getResourceAsStream("/analysis-config/" + name)) {
                    if (in == null) {
                        throw new IllegalStateException("missing test resource analysis-config/" + name);
                    }
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The config directory of every gateway this JVM starts: created once, with the files, removed at exit. */
    public static synchronized Path gatewayConfigDir() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("qeg-compat-config-");
                copyTo(dir);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> io.qdrant.esgateway.oracle.launcher.ChildJvm
                        .deleteTree(dir, problem -> { })));
                shared = dir;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shared;
    }
}
