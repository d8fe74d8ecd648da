package io.qdrant.esgateway.domain.security;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The bcrypt password hash (Provos and Mazières' "eksblowfish", the {@code $2a$}/{@code $2b$}/{@code $2y$} forms that
 * Elasticsearch's file and native realms write). Blowfish's initial P-array and S-boxes are the hexadecimal digits of
 * pi's fractional part; they are computed once here rather than listed.
 */
public final class Bcrypt {
    private static final String ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final int[] DECODE = new int[128];
    /** "OrpheanBeholderScryDoubt", the text bcrypt enciphers 64 times. */
    private static final int[] MAGIC = words("OrpheanBeholderScryDoubt".getBytes(StandardCharsets.US_ASCII));
    private static final int[] PI_WORDS = piWords(18 + 4 * 256);

    static {
        java.util.Arrays.fill(DECODE, -1);
        for (int i = 0; i < ALPHABET.length(); i++) {
            DECODE[ALPHABET.charAt(i)] = i;
        }
    }

    private Bcrypt() {
    }

    /** Whether {@code hash} has the shape {@code $2a$NN$} + 53 characters of bcrypt's base64. */
    public static boolean isBcrypt(String hash) {
        if (hash == null || hash.length() != 60 || hash.charAt(0) != '$' || hash.charAt(1) != '2'
                || "aby".indexOf(hash.charAt(2)) < 0 || hash.charAt(3) != '$' || hash.charAt(6) != '$'
                || !Character.isDigit(hash.charAt(4)) || !Character.isDigit(hash.charAt(5))) {
            return false;
        }
        int cost = Integer.parseInt(hash.substring(4, 6));
        if (cost < 4 || cost > 31) {
            return false;
        }
        for (int i = 7; i < 60; i++) {
            char c = hash.charAt(i);
            if (c >= 128 || DECODE[c] < 0) {
                return false;
            }
        }
        return true;
    }

    /** The bcrypt hash of {@code password} ({@code $2a$}, UTF-8) at {@code cost} (4 to 31) with a 16-byte salt. */
    public static String hash(char[] password, int cost, byte[] salt) {
        if (cost < 4 || cost > 31 || salt.length != 16) {
            throw new IllegalArgumentException("bcrypt needs a cost from 4 to 31 and a 16-byte salt");
        }
        return format('a', cost, salt, digest(password, cost, salt));
    }

    /** Whether {@code password} is the one {@code hash} was made from; the final comparison takes constant time. */
    public static boolean verify(char[] password, String hash) {
        if (!isBcrypt(hash)) {
            return false;
        }
        int cost = Integer.parseInt(hash.substring(4, 6));
        byte[] salt = decode(hash.substring(7, 29), 16);
        String computed = format(hash.charAt(2), cost, salt, digest(password, cost, salt));
        return MessageDigest.isEqual(computed.getBytes(StandardCharsets.US_ASCII),
                hash.getBytes(StandardCharsets.US_ASCII));
    }

    private static String format(char minor, int cost, byte[] salt, byte[] digest) {
        return "$2" + minor + "$" + (cost < 10 ? "0" : "") + cost + "$" + encode(salt, 16) + encode(digest, 23);
    }

    /** The 23 bytes bcrypt keeps of the enciphered magic text. */
    private static byte[] digest(char[] password, int cost, byte[] salt) {
        java.nio.ByteBuffer encoded = StandardCharsets.UTF_8.encode(java.nio.CharBuffer.wrap(password));
        byte[] utf8 = encoded.array();
        int length = encoded.remaining();
        byte[] key = new byte[Math.min(72, length + 1)];
        System.arraycopy(utf8, 0, key, 0, Math.min(length, key.length)); // the rest: the terminating zero
        java.util.Arrays.fill(utf8, (byte) 0);
        int[] p = java.util.Arrays.copyOfRange(PI_WORDS, 0, 18);
        int[] s = java.util.Arrays.copyOfRange(PI_WORDS, 18, PI_WORDS.length);
        expand(p, s, salt, key);
        long rounds = 1L << cost;
        for (long i = 0; i < rounds; i++) {
            expand(p, s, null, key);
            expand(p, s, null, salt);
        }
        int[] data = MAGIC.clone();
        for (int i = 0; i < 64; i++) {
            for (int j = 0; j < data.length; j += 2) {
                encipher(p, s, data, j);
            }
        }
        java.util.Arrays.fill(key, (byte) 0);
        byte[] out = new byte[24];
        for (int i = 0; i < data.length; i++) {
            out[4 * i] = (byte) (data[i] >>> 24);
            out[4 * i + 1] = (byte) (data[i] >>> 16);
            out[4 * i + 2] = (byte) (data[i] >>> 8);
            out[4 * i + 3] = (byte) data[i];
        }
        return java.util.Arrays.copyOf(out, 23);
    }

    /** Blowfish's key schedule with the key (cycled) and, when given, the salt (cycled) mixed in. */
    private static void expand(int[] p, int[] s, byte[] salt, byte[] key) {
        int[] keyPos = {0};
        for (int i = 0; i < p.length; i++) {
            p[i] ^= nextWord(key, keyPos);
        }
        int[] saltPos = {0};
        int[] block = {0, 0};
        for (int i = 0; i < p.length; i += 2) {
            if (salt != null) {
                block[0] ^= nextWord(salt, saltPos);
                block[1] ^= nextWord(salt, saltPos);
            }
            encipher(p, s, block, 0);
            p[i] = block[0];
            p[i + 1] = block[1];
        }
        for (int i = 0; i < s.length; i += 2) {
            if (salt != null) {
                block[0] ^= nextWord(salt, saltPos);
                block[1] ^= nextWord(salt, saltPos);
            }
            encipher(p, s, block, 0);
            s[i] = block[0];
            s[i + 1] = block[1];
        }
    }

    private static int nextWord(byte[] data, int[] pos) {
        int word = 0;
        for (int i = 0; i < 4; i++) {
            word = (word << 8) | (data[pos[0]] & 0xff);
            pos[0] = (pos[0] + 1) % data.length;
        }
        return word;
    }

    private static void encipher(int[] p, int[] s, int[] block, int at) {
        int l = block[at] ^ p[0];
        int r = block[at + 1];
        for (int i = 1; i <= 16; i += 2) {
            r ^= f(s, l) ^ p[i];
            l ^= f(s, r) ^ p[i + 1];
        }
        block[at] = r ^ p[17];
        block[at + 1] = l;
    }

    private static int f(int[] s, int x) {
        return ((s[x >>> 24] + s[256 | ((x >>> 16) & 0xff)]) ^ s[512 | ((x >>> 8) & 0xff)]) + s[768 | (x & 0xff)];
    }

    private static int[] words(byte[] bytes) {
        int[] out = new int[bytes.length / 4];
        int[] pos = {0};
        for (int i = 0; i < out.length; i++) {
            out[i] = nextWord(bytes, pos);
        }
        return out;
    }

    /** bcrypt's base64: the usual bit order, its own alphabet, no padding; {@code length} bytes of {@code data}. */
    static String encode(byte[] data, int length) {
        StringBuilder out = new StringBuilder((length * 4 + 2) / 3);
        for (int i = 0; i < length; i += 3) {
            int b0 = data[i] & 0xff;
            int b1 = i + 1 < length ? data[i + 1] & 0xff : 0;
            int b2 = i + 2 < length ? data[i + 2] & 0xff : 0;
            out.append(ALPHABET.charAt(b0 >>> 2));
            out.append(ALPHABET.charAt(((b0 & 0x03) << 4) | (b1 >>> 4)));
            if (i + 1 < length) {
                out.append(ALPHABET.charAt(((b1 & 0x0f) << 2) | (b2 >>> 6)));
            }
            if (i + 2 < length) {
                out.append(ALPHABET.charAt(b2 & 0x3f));
            }
        }
        return out.toString();
    }

    static byte[] decode(String text, int length) {
        byte[] out = new byte[length];
        long bits = 0;
        int count = 0;
        int n = 0;
        for (int i = 0; i < text.length() && n < length; i++) {
            bits = (bits << 6) | DECODE[text.charAt(i)];
            count += 6;
            if (count >= 8) {
                count -= 8;
                out[n++] = (byte) (bits >>> count);
            }
        }
        return out;
    }

    /** The first {@code n} 32-bit words of pi's fractional part in hexadecimal (Machin's formula, fixed point). */
    private static int[] piWords(int n) {
        int bits = 32 * n;
        int guard = 64;
        BigInteger one = BigInteger.ONE.shiftLeft(bits + guard);
        BigInteger pi = arctanInverse(5, one).shiftLeft(4).subtract(arctanInverse(239, one).shiftLeft(2));
        BigInteger fraction = pi.shiftRight(guard).subtract(BigInteger.valueOf(3).shiftLeft(bits));
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = fraction.shiftRight(bits - 32 * (i + 1)).intValue();
        }
        return out;
    }

    /** atan(1/x) scaled by {@code one}. */
    private static BigInteger arctanInverse(int x, BigInteger one) {
        BigInteger xSquared = BigInteger.valueOf((long) x * x);
        BigInteger term = one.divide(BigInteger.valueOf(x));
        BigInteger sum = term;
        for (int k = 1; term.signum() != 0; k++) {
            term = term.divide(xSquared);
            BigInteger part = term.divide(BigInteger.valueOf(2L * k + 1));
            sum = (k & 1) == 1 ? sum.subtract(part) : sum.add(part);
        }
        return sum;
    }
}
