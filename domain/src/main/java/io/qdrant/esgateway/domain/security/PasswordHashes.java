package io.qdrant.esgateway.domain.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The stored forms of passwords and API keys, as Elasticsearch's file and native realms write them: bcrypt
 * ({@code $2a$}, {@code $2b$}, {@code $2y$}), {@code {PBKDF2}cost$salt$hash} and {@code {PBKDF2_STRETCH}…}
 * (PBKDF2 with HMAC-SHA512; the stretch form hashes the SHA-512 hex of the password), and the salted SHA-256 form
 * {@code {SSHA256}} used for API keys (their secret is random, so one fast hash suffices). Every comparison of
 * computed and stored bytes takes constant time.
 */
public final class PasswordHashes {
    private static final String PBKDF2 = "{PBKDF2}";
    private static final String PBKDF2_STRETCH = "{PBKDF2_STRETCH}";
    private static final String SSHA256 = "{SSHA256}";
    /** A hash verified against when there is no stored one, so an unknown user costs what a known one does. */
    private static final String DUMMY = Bcrypt.hash("not a password".toCharArray(), 10, new byte[16]);

    private PasswordHashes() {
    }

    /** Whether {@code hash} is in one of the forms {@link #verify} reads. */
    public static boolean isSupported(String hash) {
        return hash != null && (Bcrypt.isBcrypt(hash) || pbkdf2Parts(hash) != null || hash.startsWith(SSHA256));
    }

    /** Whether {@code password} matches {@code hash}; false for a hash in no known form. */
    public static boolean verify(char[] password, String hash) {
        if (hash == null) {
            return false;
        }
        if (Bcrypt.isBcrypt(hash)) {
            return Bcrypt.verify(password, hash);
        }
        if (hash.startsWith(SSHA256)) {
            return verifySsha256(password, hash);
        }
        Pbkdf2 parts = pbkdf2Parts(hash);
        if (parts == null) {
            return false;
        }
        char[] input = parts.stretch ? sha512Hex(password) : password;
        byte[] computed = pbkdf2(input, parts.salt, parts.iterations, parts.hash.length * 8);
        return MessageDigest.isEqual(computed, parts.hash);
    }

    /** Spends the time of one bcrypt verification and answers false (for a user that does not exist). */
    public static boolean verifyNothing(char[] password) {
        Bcrypt.verify(password, DUMMY);
        return false;
    }

    /** A new bcrypt hash at cost 10 (Elasticsearch's default password hasher). */
    public static String bcrypt(char[] password, byte[] salt16) {
        return Bcrypt.hash(password, 10, salt16);
    }

    /** A new {@code {PBKDF2}} hash (HMAC-SHA512, 256-bit key) with {@code iterations}. */
    public static String pbkdf2(char[] password, byte[] salt, int iterations) {
        Base64.Encoder b64 = Base64.getEncoder();
        return PBKDF2 + iterations + "$" + b64.encodeToString(salt) + "$"
                + b64.encodeToString(pbkdf2(password, salt, iterations, 256));
    }

    /** A new {@code {SSHA256}} hash of an API key's secret. */
    public static String ssha256(char[] secret, byte[] salt) {
        Base64.Encoder b64 = Base64.getEncoder();
        return SSHA256 + b64.encodeToString(salt) + "$" + b64.encodeToString(sha256(salt, secret));
    }

    private static boolean verifySsha256(char[] secret, String hash) {
        int dollar = hash.indexOf('$', SSHA256.length());
        if (dollar < 0) {
            return false;
        }
        try {
            byte[] salt = Base64.getDecoder().decode(hash.substring(SSHA256.length(), dollar));
            byte[] expected = Base64.getDecoder().decode(hash.substring(dollar + 1));
            return MessageDigest.isEqual(sha256(salt, secret), expected);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private record Pbkdf2(boolean stretch, int iterations, byte[] salt, byte[] hash) {
    }

    private static Pbkdf2 pbkdf2Parts(String hash) {
        boolean stretch = hash.startsWith(PBKDF2_STRETCH);
        if (!stretch && !hash.startsWith(PBKDF2)) {
            return null;
        }
        String rest = hash.substring(stretch ? PBKDF2_STRETCH.length() : PBKDF2.length());
        String[] parts = rest.split("\\$", -1);
        if (parts.length != 3) {
            return null;
        }
        try {
            int iterations = Integer.parseInt(parts[0]);
            byte[] salt = Base64.getDecoder().decode(parts[1]);
            byte[] key = Base64.getDecoder().decode(parts[2]);
            // Elasticsearch's rules: a salt of 8 bytes or more, a key a whole number of 128-bit blocks
            if (iterations < 1 || salt.length < 8 || key.length == 0 || key.length % 16 != 0) {
                return null;
            }
            return new Pbkdf2(stretch, iterations, salt, key);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** PBKDF2 (RFC 8018) with HMAC-SHA512 (RFC 2104), {@code bits} of key. */
    private static byte[] pbkdf2(char[] password, byte[] salt, int iterations, int bits) {
        try {
            byte[] key = utf8(password);
            if (key.length > 128) {
                key = MessageDigest.getInstance("SHA-512").digest(key);
            }
            byte[] ipad = new byte[128];
            byte[] opad = new byte[128];
            for (int i = 0; i < 128; i++) {
                byte k = i < key.length ? key[i] : 0;
                ipad[i] = (byte) (k ^ 0x36);
                opad[i] = (byte) (k ^ 0x5c);
            }
            java.util.Arrays.fill(key, (byte) 0);
            MessageDigest inner = MessageDigest.getInstance("SHA-512");
            inner.update(ipad);
            MessageDigest outer = MessageDigest.getInstance("SHA-512");
            outer.update(opad);
            int length = bits / 8;
            byte[] out = new byte[length];
            for (int block = 1, at = 0; at < length; block++) {
                byte[] counter = {(byte) (block >>> 24), (byte) (block >>> 16), (byte) (block >>> 8), (byte) block};
                byte[] u = hmac(inner, outer, salt, counter);
                byte[] t = u.clone();
                for (int i = 1; i < iterations; i++) {
                    u = hmac(inner, outer, u, null);
                    for (int j = 0; j < t.length; j++) {
                        t[j] ^= u[j];
                    }
                }
                int n = Math.min(t.length, length - at);
                System.arraycopy(t, 0, out, at, n);
                at += n;
            }
            return out;
        } catch (NoSuchAlgorithmException | CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-512 is not available", e);
        }
    }

    /** HMAC-SHA512 of {@code data} (and {@code more}) from digests already keyed with the inner and outer pads. */
    private static byte[] hmac(MessageDigest inner, MessageDigest outer, byte[] data, byte[] more)
            throws CloneNotSupportedException {
        MessageDigest in = (MessageDigest) inner.clone();
        in.update(data);
        if (more != null) {
            in.update(more);
        }
        MessageDigest out = (MessageDigest) outer.clone();
        return out.digest(in.digest());
    }

    private static char[] sha512Hex(char[] password) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-512");
            md.update(utf8(password));
            return HexFormat.of().formatHex(md.digest()).toCharArray();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] sha256(byte[] salt, char[] secret) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(salt);
            md.update(utf8(secret));
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] utf8(char[] chars) {
        java.nio.ByteBuffer b = StandardCharsets.UTF_8.encode(java.nio.CharBuffer.wrap(chars));
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
