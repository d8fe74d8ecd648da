package io.qdrant.esgateway.bootstrap;

import io.qdrant.esgateway.application.port.out.UserFiles;
import io.qdrant.esgateway.domain.security.PasswordHashes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Elasticsearch's file realm read from the configuration directory, in its formats: {@code users} holds
 * {@code username:hash} lines (bcrypt {@code $2a$}/{@code $2b$}/{@code $2y$}, or {@code {PBKDF2}}), {@code users_roles}
 * holds {@code role:user1,user2} lines; {@code #} starts a comment, blank lines are skipped, and a line that is not
 * valid is skipped with a warning naming its file and number (never its content). Read at start, then again when a
 * lookup finds that either file changed (checked at most once per {@code recheck}); a missing file is empty.
 */
final class FileRealm implements UserFiles {
    private static final Logger LOG = Logger.getLogger(FileRealm.class.getName());

    private record Content(byte[] users, byte[] roles, Map<String, FileUser> byName) {
    }

    private final Path usersFile;
    private final Path rolesFile;
    private final long recheckNanos;
    private final LongSupplier nanoTime;
    private volatile Content content;
    private volatile long generation;
    private volatile long checkedAt;

    FileRealm(Path configDir, Duration recheck, LongSupplier nanoTime) {
        this.usersFile = configDir.resolve("users");
        this.rolesFile = configDir.resolve("users_roles");
        this.recheckNanos = recheck.toNanos();
        this.nanoTime = nanoTime;
        this.checkedAt = nanoTime.getAsLong();
        this.content = read(new byte[0], new byte[0], true);
    }

    @Override
    public Optional<FileUser> user(String username) {
        refresh();
        return Optional.ofNullable(content.byName().get(username));
    }

    @Override
    public long generation() {
        refresh();
        return generation;
    }

    /** How many users the files hold now. */
    int size() {
        return content.byName().size();
    }

    private void refresh() {
        long now = nanoTime.getAsLong();
        if (now - checkedAt < recheckNanos) {
            return;
        }
        synchronized (this) {
            if (now - checkedAt < recheckNanos) {
                return;
            }
            checkedAt = now;
            Content before = content;
            Content after = read(before.users(), before.roles(), false);
            if (after != before) {
                content = after;
                generation++;
                LOG.info("file realm: read " + after.byName().size() + " users from " + usersFile);
            }
        }
    }

    /** The files' content, or {@code previous}'s when neither changed (also when one cannot be read now). */
    private Content read(byte[] previousUsers, byte[] previousRoles, boolean first) {
        byte[] users;
        byte[] roles;
        try {
            users = bytes(usersFile);
            roles = bytes(rolesFile);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "file realm: cannot read " + usersFile.getParent() + ": " + e.getMessage()
                    + "; keeping the users read before");
            return first ? new Content(previousUsers, previousRoles, Map.of()) : content;
        }
        if (!first && Arrays.equals(users, previousUsers) && Arrays.equals(roles, previousRoles)) {
            return content;
        }
        Map<String, String> hashes = new LinkedHashMap<>();
        int number = 0;
        for (String line : lines(users)) {
            number++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            int colon = t.indexOf(':');
            String name = colon <= 0 ? "" : t.substring(0, colon);
            String hash = colon <= 0 ? "" : t.substring(colon + 1).strip();
            if (!validName(name) || !PasswordHashes.isSupported(hash)) {
                LOG.warning("file realm: skipping line " + number + " of " + usersFile
                        + ": not a username:hash line with a bcrypt or PBKDF2 hash");
                continue;
            }
            hashes.put(name, hash);
        }
        Map<String, List<String>> rolesOf = new LinkedHashMap<>();
        number = 0;
        for (String line : lines(roles)) {
            number++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            int colon = t.indexOf(':');
            String role = colon <= 0 ? "" : t.substring(0, colon).strip();
            if (role.isEmpty()) {
                LOG.warning("file realm: skipping line " + number + " of " + rolesFile + ": not a role:users line");
                continue;
            }
            for (String user : t.substring(colon + 1).split(",")) {
                String u = user.strip();
                if (!u.isEmpty()) {
                    List<String> list = rolesOf.computeIfAbsent(u, k -> new ArrayList<>());
                    if (!list.contains(role)) {
                        list.add(role);
                    }
                }
            }
        }
        Map<String, FileUser> byName = new LinkedHashMap<>();
        hashes.forEach((name, hash) -> byName.put(name, new FileUser(name, hash,
                rolesOf.getOrDefault(name, List.of()))));
        return new Content(users, roles, Map.copyOf(byName));
    }

    private static byte[] bytes(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new byte[0];
        }
    }

    private static List<String> lines(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8).lines().toList();
    }

    /** Elasticsearch's rule for user names: 1 to 507 printable characters, no leading or trailing space. */
    private static boolean validName(String name) {
        if (name.isEmpty() || name.length() > 507 || !name.equals(name.strip())) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
