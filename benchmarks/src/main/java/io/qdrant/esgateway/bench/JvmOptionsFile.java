package io.qdrant.esgateway.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's shipped JVM settings, {@code bootstrap/src/main/jvm/jvm.options}: the file {@code ./qeg run} passes
 * to {@code java} as an argument file ({@code java @jvm.options -jar bootstrap.jar}), read here so the benchmark's
 * gateway runs with exactly the same flags. The format is the subset of the {@code java} launcher's argument files
 * this file uses: arguments separated by white space, a {@code #} at the start of an argument begins a comment that
 * runs to the end of the line; no quoting.
 */
public final class JvmOptionsFile {
    /** Where the file is, relative to the repository root. */
    public static final String PATH = "bootstrap/src/main/jvm/jvm.options";

    private JvmOptionsFile() {
    }

    /** The arguments of the file at {@link #PATH} under {@code root}; fails naming the file when it is missing. */
    public static List<String> gatewayOptions(Path root) {
        Path file = root.resolve(PATH);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("the gateway's JVM settings are missing: expected " + file);
        }
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The arguments of an argument file's text, comments left out. */
    static List<String> parse(String text) {
        List<String> args = new ArrayList<>();
        for (String line : text.split("\\R")) {
            for (String token : line.trim().split("\\s+")) {
                if (token.startsWith("#")) {
                    break;
                }
                if (!token.isEmpty()) {
                    args.add(token);
                }
            }
        }
        return List.copyOf(args);
    }
}
