package io.qdrant.esgateway.adapter.out.lucene.analysis;

import io.qdrant.esgateway.domain.analysis.AnalysisSettings.Definition;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The analysis files of Elasticsearch's {@code *_path} settings ({@code synonyms_path}, {@code stopwords_path},
 * {@code keywords_path}, {@code articles_path}, {@code protected_words_path}, {@code mappings_path}), read from the
 * gateway's config directory as Elasticsearch reads them from its own: a relative path is resolved against it; a path
 * that leads outside it is refused, as Elasticsearch's security manager refuses it. The files are read when an
 * index's analyzers are built (at creation, and again after a restart), never per document or query.
 */
public final class AnalysisFiles {
    private static volatile Path configDir = Path.of("config").toAbsolutePath().normalize();

    private AnalysisFiles() {
    }

    /** The directory the {@code *_path} settings are relative to (one per process). */
    public static void configure(Path dir) {
        configDir = dir.toAbsolutePath().normalize();
    }

    public static Path configDir() {
        return configDir;
    }

    /**
     * A word list as Elasticsearch reads one: {@code key + "_path"} (a file, one word per line, blank lines and lines
     * starting with {@code #} left out, each trimmed) when given, else the inline {@code key} list; empty when
     * neither is given.
     */
    static Optional<List<String>> words(Definition def, String key) {
        if (def.has(key + "_path")) {
            return Optional.of(lines(def, key + "_path", true));
        }
        return def.has(key) ? Optional.of(def.list(key)) : Optional.empty();
    }

    /** Whether {@code key} or {@code key_path} is given. */
    static boolean has(Definition def, String key) {
        return def.has(key) || def.has(key + "_path");
    }

    /**
     * The lines of the file named by {@code setting} ({@code synonyms_path}: every non-blank line, comments kept
     * for the rule parser; word lists: without comments), or Elasticsearch's error naming the setting and the
     * resolved path.
     */
    static List<String> lines(Definition def, String setting, boolean removeComments) {
        String value = def.string(setting).orElse("");
        Path dir = configDir;
        Path path = dir.resolve(value).normalize();
        if (!path.startsWith(dir)) {
            throw GatewayException.illegalArgument("Access denied trying to read file " + setting + ": " + path);
        }
        List<String> out = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank() || (removeComments && line.startsWith("#"))) {
                    continue;
                }
                out.add(line.trim());
            }
        } catch (CharacterCodingException e) {
            throw GatewayException.illegalArgument("Unsupported character encoding detected while reading " + setting
                    + ": " + path + " - files must be UTF-8 encoded");
        } catch (IOException e) {
            // Elasticsearch shows the Java exception under it: {"type": "no_such_file_exception", "reason": path}
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "IOException while reading " + ioName(setting)
                    + ": " + path, Map.of(), GatewayException.scriptCause(javaType(e), e.getMessage()));
        }
        return out;
    }

    /** The Elasticsearch name of a Java exception: its class's simple name in snake case. */
    private static String javaType(Exception e) {
        return e.getClass().getSimpleName().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    /** Elasticsearch names the synonyms file's setting {@code synonyms_path_path} in this message. */
    private static String ioName(String setting) {
        return setting.equals("synonyms_path") ? "synonyms_path_path" : setting;
    }
}
