package io.qdrant.esgateway.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The facts a reader needs to judge the numbers: cores, memory, JDK, OS, and how busy the machine was. */
public final class Machine {
    private Machine() {
    }

    public static Map<String, Object> facts() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("cores", Runtime.getRuntime().availableProcessors());
        facts.put("memory", memTotal());
        facts.put("cpu", cpuModel());
        facts.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.home") + ")");
        facts.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        facts.put("load_average_start", loadAverage());
        return facts;
    }

    /** The first three fields of /proc/loadavg (1, 5, 15 minutes), or "unknown". */
    public static String loadAverage() {
        String line = first(Path.of("/proc/loadavg"), "");
        String[] parts = line.split("\\s+");
        return parts.length >= 3 ? parts[0] + " " + parts[1] + " " + parts[2] : "unknown";
    }

    private static String memTotal() {
        String line = first(Path.of("/proc/meminfo"), "MemTotal:");
        if (line.isEmpty()) {
            return "unknown";
        }
        long kib = Long.parseLong(line.replaceAll("\\D+", ""));
        return String.format(java.util.Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0);
    }

    private static String cpuModel() {
        String line = first(Path.of("/proc/cpuinfo"), "model name");
        return line.isEmpty() ? "unknown" : line.substring(line.indexOf(':') + 1).trim();
    }

    private static String first(Path file, String prefix) {
        try (var lines = Files.lines(file)) {
            return lines.filter(l -> l.startsWith(prefix)).findFirst().orElse("");
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
