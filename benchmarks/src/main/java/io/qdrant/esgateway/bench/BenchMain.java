package io.qdrant.esgateway.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ./qeg bench [options]}: runs the benchmark and writes results.json, report.md and p50-ratios.svg to the
 * output directory. Exit 0 when the run completed (cells may still be invalid or unsupported: the report says which),
 * 2 on a bad option, 1 when it could not run (e.g. an engine did not start).
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.exit(refused(e, System.out, System.err));
            return;
        }
        try {
            Path written = run(options, Path.of(System.getProperty("bench.root", ".")), System.out);
            System.out.println("bench: report in " + written.resolve("report.md"));
            System.out.flush();
            // a library's stray non-daemon thread (e.g. the stand-in Qdrant's pool) must not keep the command alive
            System.exit(0);
        } catch (RuntimeException e) {
            System.err.println("bench: failed: " + e.getMessage());
            e.printStackTrace(System.err);
            System.exit(1);
        }
    }

    /** Prints the usage asked for (exit code 0) or why the options were refused (exit code 2). */
    static int refused(IllegalArgumentException e, PrintStream out, PrintStream err) {
        if (e instanceof BenchOptions.HelpRequested) {
            out.println(e.getMessage());
            return 0;
        }
        err.println(e.getMessage());
        return 2;
    }

    /** Runs and writes the three files; returns the output directory. */
    public static Path run(BenchOptions options, Path root, PrintStream log) {
        Results results = new Runner(options, root.toAbsolutePath().normalize(), log).run();
        return write(results, options.out());
    }

    public static Path write(Results results, Path out) {
        try {
            Files.createDirectories(out);
            Json.MAPPER.writeValue(out.resolve("results.json").toFile(), results);
            Files.writeString(out.resolve("report.md"), MarkdownReport.render(results), StandardCharsets.UTF_8);
            Files.writeString(out.resolve("p50-ratios.svg"), SvgChart.render(results), StandardCharsets.UTF_8);
            return out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
