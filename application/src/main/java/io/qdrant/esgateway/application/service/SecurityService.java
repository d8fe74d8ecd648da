package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.SecurityOperations;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.security.Authentication;
import io.qdrant.esgateway.domain.security.BuiltInRoles;
import io.qdrant.esgateway.domain.security.NamePattern;
import io.qdrant.esgateway.domain.security.PasswordHashes;
import io.qdrant.esgateway.domain.security.Permission;
import io.qdrant.esgateway.domain.security.Privileges;
import io.qdrant.esgateway.domain.security.RoleDescriptor;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Elasticsearch's security over the catalog: users (the reserved {@code elastic} and those of the role API), roles
 * (the built-in ones and those of the role API) and API keys are security records in the catalog, so every replica
 * sharing it sees them; only hashes of passwords and API key secrets are kept. A verified credential is remembered
 * under a keyed hash of the whole header (never the secret itself) for {@code cacheTtl}, so bcrypt's cost is paid
 * once per credential and period, not per request; a change of users, roles or keys made here empties that cache,
 * one made by another replica is seen once the entry ages out.
 */
public final class SecurityService implements SecurityOperations {
    static final String USER = "user";
    static final String ROLE = "role";
    static final String API_KEY = "api_key";
    /** The built-in superuser. */
    public static final String ELASTIC = "elastic";
    private static final String RESERVED_REALM = "reserved";
    private static final String NATIVE_REALM = "default_native";
    private static final String FILE_REALM = "default_file";
    private static final String API_KEY_REALM = "_es_api_key";
    private static final int MIN_PASSWORD = 6;
    private static final String INVALID_CREDENTIALS =
            "unable to authenticate with provided credentials and anonymous access is not allowed for this request";

    private static final String AUTO_CREATE = "indices:admin/auto_create";

    private final Catalog catalog;
    private final InstantSource clock;
    private final SecureRandom random;
    private final long cacheTtlNanos;
    private final int cacheSize;
    private final java.util.function.LongSupplier nanoTime;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private final byte[] cacheKey = new byte[32];
    private final io.qdrant.esgateway.application.port.out.UserFiles files;
    private volatile long filesGeneration;

    private record Cached(Authentication who, long until, long keyExpiresAtMillis) {
    }

    public SecurityService(Catalog catalog, InstantSource clock, SecureRandom random, Duration cacheTtl,
                           int cacheSize, java.util.function.LongSupplier nanoTime) {
        this(catalog, clock, random, cacheTtl, cacheSize, nanoTime,
                io.qdrant.esgateway.application.port.out.UserFiles.NONE);
    }

    /**
     * As the constructor before, with the file realm's users ({@code files}): after the reserved {@code elastic} and
     * before the users of the catalog, as Elasticsearch's default realm chain; a change of the files forgets every
     * remembered credential.
     */
    public SecurityService(Catalog catalog, InstantSource clock, SecureRandom random, Duration cacheTtl,
                           int cacheSize, java.util.function.LongSupplier nanoTime,
                           io.qdrant.esgateway.application.port.out.UserFiles files) {
        this.files = files;
        this.filesGeneration = files.generation();
        this.catalog = catalog;
        this.clock = clock;
        this.random = random;
        this.cacheTtlNanos = cacheTtl.toNanos();
        this.cacheSize = cacheSize;
        this.nanoTime = nanoTime;
        random.nextBytes(cacheKey);
    }

    /**
     * Creates the {@code elastic} user on the first start of a catalog: with {@code password}, or with a generated
     * one, which is returned so it can be shown once (only its hash is kept). Empty when the user existed already
     * (another replica may have created it first) or the password was given.
     */
    public Optional<String> bootstrapElastic(Optional<String> password) {
        if (catalog.securityRecord(USER, ELASTIC).isPresent()) {
            return Optional.empty();
        }
        String chosen = password.orElseGet(this::generatePassword);
        if (chosen.length() < MIN_PASSWORD) {
            throw GatewayException.illegalArgument("the elastic password must be at least [" + MIN_PASSWORD
                    + "] characters long");
        }
        String record = Json.write(userRecord(ELASTIC, hash(chosen.toCharArray()), List.of("superuser"), null, null,
                JsonObjectBuilder.object().put("_reserved", true).build(), true));
        boolean created = catalog.putSecurityRecord(USER, ELASTIC, record, true);
        return created && password.isEmpty() ? Optional.of(chosen) : Optional.empty();
    }

    private String generatePassword() {
        String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789_-*+=";
        StringBuilder b = new StringBuilder(20);
        for (int i = 0; i < 20; i++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    // ---------------------------------------------------------------- authentication

    @Override
    public Authentication authenticate(String authorization, String path) {
        if (authorization == null || authorization.isBlank()) {
            throw unauthenticated("missing authentication credentials for REST request [" + path + "]");
        }
        long generation = files.generation();
        if (generation != filesGeneration) {
            filesGeneration = generation;
            forgetCredentials();
        }
        String key = cacheKey(authorization);
        long now = nanoTime.getAsLong();
        Cached hit = cache.get(key);
        if (hit != null && hit.until - now > 0
                && (hit.keyExpiresAtMillis == 0 || hit.keyExpiresAtMillis > clock.millis())) {
            return hit.who;
        }
        if (hit != null) {
            cache.remove(key, hit);
        }
        int space = authorization.indexOf(' ');
        String scheme = space < 0 ? authorization : authorization.substring(0, space);
        String value = space < 0 ? "" : authorization.substring(space + 1).trim();
        Authentication who;
        long keyExpires = 0;
        if (scheme.equalsIgnoreCase("Basic")) {
            who = basic(value, path);
        } else if (scheme.equalsIgnoreCase("ApiKey")) {
            ApiKeyHit k = apiKey(value);
            who = k.who;
            keyExpires = k.expiresAtMillis;
        } else {
            throw unauthenticated(INVALID_CREDENTIALS);
        }
        remember(key, new Cached(who, now + cacheTtlNanos, keyExpires));
        return who;
    }

    private void remember(String key, Cached entry) {
        if (cache.size() >= cacheSize) {
            // full: drop about a tenth, oldest-inserted first is not tracked, any will do for a bound
            Iterator<String> it = cache.keySet().iterator();
            for (int i = 0; i < Math.max(1, cacheSize / 10) && it.hasNext(); i++) {
                it.next();
                it.remove();
            }
        }
        cache.put(key, entry);
    }

    /** Forgets every verified credential (after a change of users, roles or API keys). */
    void forgetCredentials() {
        cache.clear();
    }

    /** SHA-256 of this process's random key and the header: the credential never sits in memory as a key. */
    private String cacheKey(String authorization) {
        try {
            java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
            md.update(cacheKey);
            return HexFormat.of().formatHex(md.digest(authorization.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    private Authentication basic(String value, String path) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw unauthenticated(INVALID_CREDENTIALS);
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            throw unauthenticated(INVALID_CREDENTIALS);
        }
        String username = decoded.substring(0, colon);
        char[] password = decoded.substring(colon + 1).toCharArray();
        if (!username.equals(ELASTIC)) {
            // the file realm before the native one; a wrong password there leaves the user to the next realm
            Optional<io.qdrant.esgateway.application.port.out.UserFiles.FileUser> fileUser = files.user(username);
            if (fileUser.isPresent() && PasswordHashes.verify(password, fileUser.get().passwordHash())) {
                java.util.Arrays.fill(password, '\0');
                List<String> roles = fileUser.get().roles();
                return new Authentication(username, roles, null, null, JsonObject.of(), FILE_REALM, "file",
                        Optional.empty(), Permission.of(resolveRoles(roles)));
            }
        }
        Optional<JsonObject> user = userRecord(username);
        boolean ok;
        if (user.isEmpty()) {
            ok = PasswordHashes.verifyNothing(password);
        } else {
            ok = PasswordHashes.verify(password, text(user.get(), "password_hash"))
                    & JsonReads.bool(user.get().get("enabled")).orElse(true);
        }
        java.util.Arrays.fill(password, '\0');
        if (!ok) {
            throw unauthenticated("unable to authenticate user [" + username + "] for REST request [" + path + "]");
        }
        return userAuthentication(user.get());
    }

    private Authentication userAuthentication(JsonObject user) {
        String username = text(user, "username");
        List<String> roles = strings(user.get("roles"));
        JsonObject metadata = user.get("metadata") instanceof JsonObject m ? m : JsonObject.of();
        boolean reserved = username.equals(ELASTIC);
        return new Authentication(username, roles, text(user, "full_name"), text(user, "email"), metadata,
                reserved ? RESERVED_REALM : NATIVE_REALM, reserved ? RESERVED_REALM : "native", Optional.empty(),
                Permission.of(resolveRoles(roles)));
    }

    private record ApiKeyHit(Authentication who, long expiresAtMillis) {
    }

    private ApiKeyHit apiKey(String value) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw unauthenticated(INVALID_CREDENTIALS, "API key: invalid ApiKey value");
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            throw unauthenticated(INVALID_CREDENTIALS, "API key: invalid ApiKey value");
        }
        String id = decoded.substring(0, colon);
        char[] secret = decoded.substring(colon + 1).toCharArray();
        Optional<JsonObject> key = catalog.securityRecord(API_KEY, id).map(SecurityService::object);
        if (key.isEmpty()) {
            PasswordHashes.verify(secret, "{SSHA256}AAAAAAAAAAA=$AAAA");
            throw unauthenticated(INVALID_CREDENTIALS, "API key: unable to find apikey with id " + id);
        }
        JsonObject k = key.get();
        if (!PasswordHashes.verify(secret, text(k, "hash"))) {
            throw unauthenticated(INVALID_CREDENTIALS, "API key: invalid credentials for API key [" + id + "]");
        }
        if (JsonReads.bool(k.get("invalidated")).orElse(false)) {
            throw unauthenticated(INVALID_CREDENTIALS, "API key: api key [" + id + "] has been invalidated");
        }
        long expiration = k.get("expiration") == null ? 0 : JsonReads.integer(k.get("expiration")).orElse(0L);
        if (expiration != 0 && expiration <= clock.millis()) {
            throw unauthenticated(INVALID_CREDENTIALS, "API key: api key is expired");
        }
        Permission owner = Permission.of(descriptors(k.get("limited_by")));
        JsonValue own = k.get("role_descriptors");
        Permission permission = own instanceof JsonObject o && !o.members().isEmpty()
                ? Permission.of(descriptors(own)).limitedBy(owner) : owner;
        String username = text(k, "username");
        Authentication who = new Authentication(username, List.of(), null, null,
                k.get("metadata") instanceof JsonObject m ? m : JsonObject.of(), API_KEY_REALM, API_KEY_REALM,
                Optional.of(new Authentication.ApiKeyRef(id, text(k, "name"))), permission);
        return new ApiKeyHit(who, expiration);
    }

    private List<RoleDescriptor> resolveRoles(List<String> names) {
        List<RoleDescriptor> out = new ArrayList<>();
        for (String name : names) {
            Optional<RoleDescriptor> builtIn = BuiltInRoles.get(name);
            if (builtIn.isPresent()) {
                out.add(builtIn.get());
            } else {
                // a role the user names that does not exist grants nothing, as in Elasticsearch
                catalog.securityRecord(ROLE, name).ifPresent(r -> out.add(RoleDescriptor.parse(name, Json.parse(r))));
            }
        }
        return out;
    }

    private static List<RoleDescriptor> descriptors(JsonValue value) {
        List<RoleDescriptor> out = new ArrayList<>();
        if (value instanceof JsonObject o) {
            o.members().forEach((name, body) -> out.add(RoleDescriptor.parse(name, body)));
        }
        return out;
    }

    // ---------------------------------------------------------------- authorization

    @Override
    public void authorizeCluster(Authentication who, String action) {
        if (who.permission().allowsCluster(action)) {
            return;
        }
        if (action.startsWith("cluster:admin/xpack/security/api_key/")) {
            // on the caller's own keys, manage_own_api_key is enough (the service then keeps to them)
            if (who.permission().allowsCluster(action + Privileges.OWN)) {
                return;
            }
            throw forbidden(who, action, null, Privileges.clusterGranting(action + Privileges.OWN), "cluster");
        }
        throw forbidden(who, action, null, Privileges.clusterGranting(action), "cluster");
    }

    @Override
    public String authorizeIndices(Authentication who, String action, String expression) {
        Permission p = who.permission();
        List<String> parts = List.of(expression.split(","));
        boolean wildcard = false;
        List<String> denied = new ArrayList<>();
        for (String part : parts) {
            if (isWildcard(part)) {
                wildcard = true;
            } else if (!part.startsWith("-") && !p.allowsIndex(action, part)) {
                denied.add(part);
            }
        }
        if (!denied.isEmpty()) {
            throw forbidden(who, action, denied, Privileges.indexGranting(action), "index");
        }
        if (!wildcard) {
            return expression;
        }
        Set<String> names = new LinkedHashSet<>();
        List<String> exclusions = new ArrayList<>();
        CatalogView view = catalog.view();
        for (String part : parts) {
            if (part.startsWith("-") && !names.isEmpty()) {
                exclusions.add(part);
            } else if (isWildcard(part)) {
                NamePattern pattern = NamePattern.of(part.equals("_all") ? "*" : part);
                for (String candidate : candidates(view)) {
                    if (pattern.matches(candidate) && p.allowsIndex(action, candidate)) {
                        names.add(candidate);
                    }
                }
            } else {
                names.add(part);
            }
        }
        if (names.isEmpty()) {
            return "*,-*";
        }
        List<String> out = new ArrayList<>(names);
        out.addAll(exclusions);
        return String.join(",", out);
    }

    @Override
    public GatewayException autoCreateDenial(Authentication who, String index) {
        if (who.permission().allowsIndex(AUTO_CREATE, index)) {
            return null;
        }
        CatalogView view = catalog.view();
        if (view.index(index).isPresent() || view.isAlias(index)) {
            return null;
        }
        return forbidden(who, AUTO_CREATE, List.of(index), Privileges.indexGranting(AUTO_CREATE), "index");
    }

    @Override
    public void authorizeAll(Authentication who, Map<String, List<String>> expressionsByAction) {
        CatalogView view = null;
        for (Map.Entry<String, List<String>> e : expressionsByAction.entrySet()) {
            String action = e.getKey();
            Set<String> denied = new LinkedHashSet<>();
            for (String expression : e.getValue()) {
                for (String part : expression.split(",")) {
                    if (part.isEmpty() || part.startsWith("-")) {
                        continue;
                    }
                    if (isWildcard(part)) {
                        view = view == null ? catalog.view() : view;
                        NamePattern pattern = NamePattern.of(part.equals("_all") ? "*" : part);
                        for (String candidate : candidates(view)) {
                            if (pattern.matches(candidate) && !who.permission().allowsIndex(action, candidate)) {
                                denied.add(candidate);
                            }
                        }
                    } else if (!who.permission().allowsIndex(action, part)) {
                        denied.add(part);
                    }
                }
            }
            if (!denied.isEmpty()) {
                throw forbidden(who, action, List.copyOf(denied), Privileges.indexGranting(action), "index");
            }
        }
    }

    private static boolean isWildcard(String part) {
        return part.equals("_all") || part.indexOf('*') >= 0 || part.indexOf('?') >= 0;
    }

    private static List<String> candidates(CatalogView view) {
        List<String> out = new ArrayList<>(view.indices().keySet());
        out.addAll(view.aliasNames());
        return out;
    }

    private static GatewayException forbidden(Authentication who, String action, List<String> indices,
                                              List<String> granting, String kind) {
        return io.qdrant.esgateway.domain.security.Denials.forbidden(who, action, indices, granting, kind);
    }

    private static GatewayException unauthenticated(String reason) {
        return new GatewayException(ErrorKind.UNAUTHENTICATED, reason);
    }

    private static GatewayException unauthenticated(String reason, String detail) {
        return new GatewayException(ErrorKind.UNAUTHENTICATED, reason,
                Map.of("additional_unsuccessful_credentials", detail), null);
    }

    // ---------------------------------------------------------------- _authenticate

    @Override
    public JsonValue describe(Authentication who) {
        JsonObject realm = JsonObjectBuilder.object().put("name", who.realm()).put("type", who.realmType()).build();
        JsonObjectBuilder b = JsonObjectBuilder.object()
                .put("username", who.username())
                .put("roles", array(who.roles()))
                .put("full_name", nullable(who.fullName()))
                .put("email", nullable(who.email()))
                .put("metadata", who.metadata())
                .put("enabled", true)
                .put("authentication_realm", realm)
                .put("lookup_realm", realm)
                .put("authentication_type", who.isApiKey() ? "api_key" : "realm");
        who.apiKey().ifPresent(k -> b.put("api_key", JsonObjectBuilder.object().put("id", k.id())
                .put("name", nullable(k.name())).build()));
        return b.build();
    }

    // ---------------------------------------------------------------- users

    @Override
    public boolean putUser(Authentication who, String username, JsonValue body) {
        validateName(username, "user");
        JsonObject o = JsonReads.object(body, GatewayException::parse, "user [" + username + "]");
        Optional<JsonObject> existing = userRecord(username);
        if (username.equals(ELASTIC)) {
            throw GatewayException.validationFailed(List.of("user [" + username
                    + "] is reserved and only the password can be changed"));
        }
        String hash = null;
        List<String> roles = List.of();
        String fullName = null;
        String email = null;
        JsonObject metadata = JsonObject.of();
        boolean enabled = true;
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "password" -> {
                    String password = JsonReads.text(v).orElse("");
                    if (password.length() < MIN_PASSWORD) {
                        problems.add("passwords must be at least [" + MIN_PASSWORD + "] characters long");
                    } else {
                        hash = hash(password.toCharArray());
                    }
                }
                case "password_hash" -> {
                    String given = JsonReads.text(v).orElse("");
                    if (!PasswordHashes.isSupported(given) || given.startsWith("{SSHA256}")) {
                        throw GatewayException.illegalArgument("The provided password hash is not a hash or it"
                                + " could not be resolved to a supported hash algorithm. The supported password"
                                + " hash algorithms are bcrypt and PBKDF2");
                    }
                    hash = given;
                }
                case "roles" -> roles = strings(v);
                case "full_name" -> fullName = v instanceof JsonValue.JsonNull ? null : JsonReads.text(v).orElse(null);
                case "email" -> email = v instanceof JsonValue.JsonNull ? null : JsonReads.text(v).orElse(null);
                case "metadata" -> metadata = JsonReads.object(v, GatewayException::parse, "[metadata]");
                case "enabled" -> enabled = JsonReads.bool(v).orElseThrow(() ->
                        GatewayException.parse("[enabled] must be a boolean"));
                default -> throw GatewayException.parse("failed to parse add user request. unexpected field ["
                        + e.getKey() + "]");
            }
        }
        if (hash == null && existing.isPresent()) {
            hash = text(existing.get(), "password_hash");
        }
        if (hash == null && problems.isEmpty()) {
            problems.add("password must be specified unless you are updating an existing user");
        }
        if (!problems.isEmpty()) {
            throw GatewayException.validationFailed(problems);
        }
        catalog.putSecurityRecord(USER, username, Json.write(userRecord(username, hash, roles, fullName, email,
                metadata, enabled)), false);
        forgetCredentials();
        return existing.isEmpty();
    }

    private static JsonObject userRecord(String username, String hash, List<String> roles, String fullName,
                                         String email, JsonObject metadata, boolean enabled) {
        return JsonObjectBuilder.object().put("username", username).put("password_hash", hash)
                .put("roles", array(roles)).put("full_name", nullable(fullName)).put("email", nullable(email))
                .put("metadata", metadata).put("enabled", enabled).build();
    }

    @Override
    public Map<String, JsonValue> users(List<String> names) {
        Map<String, JsonValue> out = new LinkedHashMap<>();
        Map<String, String> all = names.isEmpty() ? catalog.securityRecords(USER) : null;
        List<String> wanted = names.isEmpty() ? List.copyOf(all.keySet()) : names;
        for (String name : wanted) {
            Optional<JsonObject> user = all != null ? Optional.of(object(all.get(name))) : userRecord(name);
            user.ifPresent(u -> out.put(name, JsonObjectBuilder.object().put("username", name)
                    .put("roles", u.get("roles")).put("full_name", u.get("full_name")).put("email", u.get("email"))
                    .put("metadata", u.get("metadata")).put("enabled", u.get("enabled")).build()));
        }
        return out;
    }

    @Override
    public boolean deleteUser(String username) {
        if (username.equals(ELASTIC)) {
            throw GatewayException.validationFailed(List.of("user [" + username
                    + "] is reserved and cannot be deleted"));
        }
        boolean found = catalog.deleteSecurityRecord(USER, username);
        forgetCredentials();
        return found;
    }

    @Override
    public void changePassword(Authentication who, Optional<String> username, JsonValue body) {
        String target = username.orElse(who.username());
        if (username.isEmpty() && who.isApiKey()) {
            throw GatewayException.illegalArgument("user [" + who.username()
                    + "] authenticated with an API key cannot change its password");
        }
        JsonObject o = JsonReads.object(body, GatewayException::parse, "change password request");
        String hash;
        if (o.get("password_hash") != null) {
            hash = JsonReads.text(o.get("password_hash")).orElse("");
            if (!PasswordHashes.isSupported(hash) || hash.startsWith("{SSHA256}")) {
                throw GatewayException.illegalArgument("The provided password hash is not a hash or it could not"
                        + " be resolved to a supported hash algorithm. The supported password hash algorithms are"
                        + " bcrypt and PBKDF2");
            }
        } else {
            String password = o.get("password") == null ? "" : JsonReads.text(o.get("password")).orElse("");
            if (password.length() < MIN_PASSWORD) {
                throw GatewayException.validationFailed(List.of("passwords must be at least [" + MIN_PASSWORD
                        + "] characters long"));
            }
            hash = hash(password.toCharArray());
        }
        JsonObject user = userRecord(target).orElseThrow(() -> GatewayException.validationFailed(List.of(
                "user [" + target + "] does not exist")));
        JsonObjectBuilder b = JsonObjectBuilder.object();
        user.members().forEach(b::put);
        b.put("password_hash", hash);
        catalog.putSecurityRecord(USER, target, Json.write(b.build()), false);
        forgetCredentials();
    }

    private Optional<JsonObject> userRecord(String username) {
        return catalog.securityRecord(USER, username).map(SecurityService::object);
    }

    // ---------------------------------------------------------------- roles

    @Override
    public boolean putRole(String name, JsonValue body) {
        validateName(name, "role");
        if (BuiltInRoles.isReserved(name)) {
            throw GatewayException.validationFailed(List.of("Role [" + name
                    + "] is reserved and may not be used."));
        }
        RoleDescriptor role = RoleDescriptor.parse(name, body);
        boolean created = catalog.putSecurityRecord(ROLE, name, Json.write(role.toJson()), true);
        if (!created) {
            catalog.putSecurityRecord(ROLE, name, Json.write(role.toJson()), false);
        }
        forgetCredentials();
        return created;
    }

    @Override
    public Map<String, JsonValue> roles(List<String> names) {
        Map<String, JsonValue> out = new LinkedHashMap<>();
        if (names.isEmpty()) {
            for (String name : BuiltInRoles.names()) {
                out.put(name, BuiltInRoles.get(name).orElseThrow().toJson());
            }
            catalog.securityRecords(ROLE).forEach((name, record) -> out.put(name, Json.parse(record)));
            return out;
        }
        for (String name : names) {
            Optional<RoleDescriptor> builtIn = BuiltInRoles.get(name);
            if (builtIn.isPresent()) {
                out.put(name, builtIn.get().toJson());
            } else {
                catalog.securityRecord(ROLE, name).ifPresent(r -> out.put(name, Json.parse(r)));
            }
        }
        return out;
    }

    @Override
    public boolean deleteRole(String name) {
        if (BuiltInRoles.isReserved(name)) {
            throw GatewayException.validationFailed(List.of("role [" + name + "] is reserved and cannot be deleted"));
        }
        boolean found = catalog.deleteSecurityRecord(ROLE, name);
        forgetCredentials();
        return found;
    }

    // ---------------------------------------------------------------- API keys

    @Override
    public JsonValue createApiKey(Authentication who, JsonValue body) {
        if (who.isApiKey()) {
            throw GatewayException.illegalArgument("creating derived api keys requires an explicit role descriptor"
                    + " that is empty (has no privileges)");
        }
        JsonObject o = body == null ? JsonObject.of()
                : JsonReads.object(body, GatewayException::parse, "create api key request");
        String name = null;
        Long expiration = null;
        JsonObject roleDescriptors = JsonObject.of();
        JsonObject metadata = JsonObject.of();
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "name" -> name = JsonReads.text(v).orElse(null);
                case "expiration" -> expiration = v instanceof JsonValue.JsonNull ? null
                        : clock.millis() + timeValue(JsonReads.text(v).orElse(""), "expiration").toMillis();
                case "role_descriptors" -> {
                    JsonObject rd = JsonReads.object(v, GatewayException::parse, "[role_descriptors]");
                    JsonObjectBuilder checked = JsonObjectBuilder.object();
                    rd.members().forEach((n, d) -> checked.put(n, RoleDescriptor.parse(n, d).toJson()));
                    roleDescriptors = checked.build();
                }
                case "metadata" -> metadata = JsonReads.object(v, GatewayException::parse, "[metadata]");
                default -> throw GatewayException.parse("failed to parse create api key request. unexpected field ["
                        + e.getKey() + "]");
            }
        }
        if (name == null || name.isEmpty()) {
            throw GatewayException.validationFailed(List.of("api key name is required"));
        }
        if (name.length() > 1024 || !name.equals(name.strip())) {
            throw GatewayException.validationFailed(List.of("api key name may not be more than [1024] characters"
                    + " long, nor begin or end with whitespace"));
        }
        String id = randomToken(15);
        String secret = randomToken(16);
        JsonObjectBuilder limitedBy = JsonObjectBuilder.object();
        for (String role : who.roles()) {
            resolveRoles(List.of(role)).forEach(r -> limitedBy.put(r.name(), r.toJson()));
        }
        byte[] salt = new byte[16];
        random.nextBytes(salt);
        JsonObjectBuilder record = JsonObjectBuilder.object().put("id", id).put("name", name)
                .put("hash", PasswordHashes.ssha256(secret.toCharArray(), salt))
                .put("creation", clock.millis())
                .put("expiration", expiration == null ? JsonValue.JsonNull.INSTANCE
                        : new JsonValue.JsonNumber(expiration))
                .put("invalidated", false)
                .put("username", who.username()).put("realm", who.realm())
                .put("metadata", metadata).put("role_descriptors", roleDescriptors)
                .put("limited_by", limitedBy.build());
        catalog.putSecurityRecord(API_KEY, id, Json.write(record.build()), true);
        JsonObjectBuilder out = JsonObjectBuilder.object().put("id", id).put("name", name);
        if (expiration != null) {
            out.put("expiration", expiration);
        }
        return out.put("api_key", secret).put("encoded", Base64.getEncoder().encodeToString(
                (id + ":" + secret).getBytes(StandardCharsets.UTF_8))).build();
    }

    private String randomToken(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** Whether {@code who} may act on every user's keys, not only its own. */
    private static boolean allKeys(Authentication who, String action) {
        return who.permission().allowsCluster(action);
    }

    @Override
    public JsonValue apiKeys(Authentication who, Map<String, String> params) {
        String action = "cluster:admin/xpack/security/api_key/get";
        boolean owner = "true".equals(params.get("owner")) || !allKeys(who, action);
        Optional<String> id = Optional.ofNullable(params.get("id"));
        Optional<String> name = Optional.ofNullable(params.get("name"));
        Optional<String> username = Optional.ofNullable(params.get("username"));
        Optional<String> realm = Optional.ofNullable(params.get("realm_name"));
        boolean activeOnly = "true".equals(params.get("active_only"));
        boolean withLimitedBy = "true".equals(params.get("with_limited_by"));
        if (owner && (username.isPresent() || realm.isPresent())) {
            throw GatewayException.validationFailed(List.of("username or realm name must not be specified when"
                    + " retrieving owned API keys"));
        }
        List<JsonValue> keys = new ArrayList<>();
        for (JsonObject k : matchingKeys(who, owner, id, name, username, realm)) {
            boolean active = !JsonReads.bool(k.get("invalidated")).orElse(false) && !expired(k);
            if (activeOnly && !active) {
                continue;
            }
            JsonObjectBuilder b = JsonObjectBuilder.object().put("id", k.get("id")).put("name", k.get("name"))
                    .put("type", "rest").put("creation", k.get("creation"));
            if (!(k.get("expiration") instanceof JsonValue.JsonNull) && k.get("expiration") != null) {
                b.put("expiration", k.get("expiration"));
            }
            b.put("invalidated", k.get("invalidated"));
            if (k.get("invalidation") != null) {
                b.put("invalidation", k.get("invalidation"));
            }
            b.put("username", k.get("username")).put("realm", k.get("realm")).put("metadata", k.get("metadata"))
                    .put("role_descriptors", k.get("role_descriptors"));
            if (withLimitedBy) {
                b.put("limited_by", new JsonArray(List.of(k.get("limited_by"))));
            }
            keys.add(b.build());
        }
        return JsonObjectBuilder.object().put("api_keys", new JsonArray(keys)).build();
    }

    private boolean expired(JsonObject k) {
        long expiration = k.get("expiration") == null ? 0 : JsonReads.integer(k.get("expiration")).orElse(0L);
        return expiration != 0 && expiration <= clock.millis();
    }

    private List<JsonObject> matchingKeys(Authentication who, boolean owner, Optional<String> id,
                                          Optional<String> name, Optional<String> username, Optional<String> realm) {
        List<JsonObject> all = new ArrayList<>();
        if (id.isPresent()) {
            catalog.securityRecord(API_KEY, id.get()).map(SecurityService::object).ifPresent(all::add);
        } else {
            catalog.securityRecords(API_KEY).values().forEach(r -> all.add(object(r)));
        }
        NamePattern namePattern = name.map(NamePattern::of).orElse(null);
        return all.stream()
                .filter(k -> namePattern == null || namePattern.matches(text(k, "name")))
                .filter(k -> username.isEmpty() || username.get().equals(text(k, "username")))
                .filter(k -> realm.isEmpty() || realm.get().equals(text(k, "realm")))
                .filter(k -> !owner || who.username().equals(text(k, "username")))
                .sorted(java.util.Comparator.comparing((JsonObject k) -> JsonReads.integer(k.get("creation"))
                        .orElse(0L)).thenComparing(k -> text(k, "id")))
                .toList();
    }

    @Override
    public JsonValue invalidateApiKeys(Authentication who, JsonValue body) {
        String action = "cluster:admin/xpack/security/api_key/invalidate";
        JsonObject o = JsonReads.object(body, GatewayException::parse, "invalidate api key request");
        List<String> ids = new ArrayList<>();
        Optional<String> name = Optional.empty();
        Optional<String> username = Optional.empty();
        Optional<String> realm = Optional.empty();
        boolean owner = false;
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "id" -> ids.add(JsonReads.text(v).orElse(""));
                case "ids" -> ids.addAll(strings(v));
                case "name" -> name = JsonReads.text(v);
                case "username" -> username = JsonReads.text(v);
                case "realm_name" -> realm = JsonReads.text(v);
                case "owner" -> owner = JsonReads.bool(v).orElse(false);
                default -> throw GatewayException.parse("failed to parse invalidate api key request. unexpected"
                        + " field [" + e.getKey() + "]");
            }
        }
        if (ids.isEmpty() && name.isEmpty() && username.isEmpty() && realm.isEmpty() && !owner) {
            throw GatewayException.validationFailed(List.of("One of [api key id(s), api key name, username, realm"
                    + " name] must be specified if [owner] flag is false"));
        }
        owner = owner || !allKeys(who, action);
        List<JsonObject> keys = new ArrayList<>();
        if (ids.isEmpty()) {
            keys.addAll(matchingKeys(who, owner, Optional.empty(), name, username, realm));
        } else {
            for (String id : ids) {
                keys.addAll(matchingKeys(who, owner, Optional.of(id), name, username, realm));
            }
        }
        List<JsonValue> invalidated = new ArrayList<>();
        List<JsonValue> previously = new ArrayList<>();
        for (JsonObject k : keys) {
            String id = text(k, "id");
            if (JsonReads.bool(k.get("invalidated")).orElse(false)) {
                previously.add(new JsonString(id));
                continue;
            }
            JsonObjectBuilder b = JsonObjectBuilder.object();
            k.members().forEach(b::put);
            b.put("invalidated", true).put("invalidation", clock.millis());
            catalog.putSecurityRecord(API_KEY, id, Json.write(b.build()), false);
            invalidated.add(new JsonString(id));
        }
        forgetCredentials();
        return JsonObjectBuilder.object().put("invalidated_api_keys", new JsonArray(invalidated))
                .put("previously_invalidated_api_keys", new JsonArray(previously))
                .put("error_count", 0).build();
    }

    // ---------------------------------------------------------------- helpers

    private String hash(char[] password) {
        byte[] salt = new byte[16];
        random.nextBytes(salt);
        return PasswordHashes.bcrypt(password, salt);
    }

    private static void validateName(String name, String what) {
        if (name.isEmpty() || name.length() > 1024 || !name.equals(name.strip())
                || name.chars().anyMatch(c -> c < 0x20 || c > 0x7e) || (name.startsWith("_") && what.equals("user"))) {
            throw GatewayException.validationFailed(List.of(what.equals("user") ? "Invalid username [" + name
                    + "]... Valid usernames must be at least 1 and no more than 1024 characters. They can contain"
                    + " alphanumeric characters (a-z, A-Z, 0-9), spaces, punctuation, and printable symbols in the"
                    + " Basic Latin (ASCII) block. Leading or trailing whitespace is not allowed."
                    : "role name [" + name + "] is not valid: names must be 1 to 1024 printable ASCII characters"
                    + " without leading or trailing whitespace"));
        }
    }

    /** Elasticsearch's time values: {@code 1d}, {@code 12h}, {@code 30m}, {@code 10s}, {@code 500ms}. */
    static Duration timeValue(String text, String field) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(d|h|m|s|ms|micros|nanos)")
                .matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw GatewayException.parse("failed to parse setting [" + field + "] with value [" + text
                    + "] as a time value: unit is missing or unrecognized");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "d" -> Duration.ofDays(n);
            case "h" -> Duration.ofHours(n);
            case "m" -> Duration.ofMinutes(n);
            case "s" -> Duration.ofSeconds(n);
            case "ms" -> Duration.ofMillis(n);
            case "micros" -> Duration.ofNanos(n * 1000);
            default -> Duration.ofNanos(n);
        };
    }

    private static JsonObject object(String record) {
        return (JsonObject) Json.parse(record);
    }

    private static String text(JsonObject o, String field) {
        JsonValue v = o.get(field);
        return v == null || v instanceof JsonValue.JsonNull ? null : JsonReads.text(v).orElse(null);
    }

    private static List<String> strings(JsonValue v) {
        if (v == null || v instanceof JsonValue.JsonNull) {
            return List.of();
        }
        if (v instanceof JsonString s) {
            return List.of(s.value());
        }
        if (!(v instanceof JsonArray a)) {
            throw GatewayException.parse("expected an array of strings, got [" + v.tokenName() + "]");
        }
        List<String> out = new ArrayList<>();
        for (JsonValue e : a.elements()) {
            out.add(JsonReads.text(e).orElseThrow(() -> GatewayException.parse("expected a string, got ["
                    + e.tokenName() + "]")));
        }
        return out;
    }

    private static JsonArray array(List<String> values) {
        return new JsonArray(values.stream().<JsonValue>map(JsonString::new).toList());
    }

    private static JsonValue nullable(String value) {
        return value == null ? JsonValue.JsonNull.INSTANCE : new JsonString(value);
    }
}
