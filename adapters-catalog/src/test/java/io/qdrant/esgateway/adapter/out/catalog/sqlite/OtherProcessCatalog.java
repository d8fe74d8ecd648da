package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A second process on a catalog file (for {@link CommitWatchTest}): reads commands from stdin — {@code create NAME},
 * {@code bump NAME}, {@code delete NAME} — runs each as its own commit and answers {@code OK} when it is committed.
 */
public final class OtherProcessCatalog {

    private OtherProcessCatalog() {
    }

    public static void main(String[] args) throws Exception {
        try (SqliteCatalogs.Handle catalog = SqliteCatalogs.open(Path.of(args[0]));
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            System.out.println("READY");
            System.out.flush();
            String line;
            while ((line = in.readLine()) != null) {
                String[] command = line.split(" ");
                switch (command[0]) {
                    case "create" -> catalog.createIndex(new IndexMetadata(command[1], "uuid-" + command[1],
                            Instant.ofEpochMilli(1_700_000_000_000L), IndexSettings.DEFAULTS, Mappings.EMPTY), List.of());
                    case "bump" -> catalog.bumpGeneration(command[1]);
                    case "delete" -> catalog.deleteIndices(List.of(command[1]));
                    default -> throw new IllegalArgumentException("unknown command: " + line);
                }
                System.out.println("OK");
                System.out.flush();
            }
        }
    }
}
