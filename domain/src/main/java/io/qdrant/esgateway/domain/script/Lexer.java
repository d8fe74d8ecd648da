package io.qdrant.esgateway.domain.script;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Splits Painless source into tokens, each with its offset. Comments and whitespace are dropped. */
final class Lexer {
    enum Kind { IDENT, INT, DECIMAL, STRING, OP, EOF }

    record Token(Kind kind, String text, int offset, int end) {
        boolean is(String op) {
            return (kind == Kind.OP || kind == Kind.IDENT) && text.equals(op);
        }
    }

    private static final String[] OPERATORS = {
        ">>>=", "===", "!==", ">>>", "<<=", ">>=", "==~",
        "?.", "?:", "->", "::", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=",
        "|=", "^=", "<<", ">>", "=~",
        "+", "-", "*", "/", "%", "=", "<", ">", "!", "~", "&", "|", "^", "?", ":", ".", ",", ";", "(", ")", "[", "]",
        "{", "}"
    };
    /** Tokens after which a {@code /} divides; elsewhere it would start a regex literal. */
    private static final Set<String> VALUE_END = Set.of(")", "]", "}", "++", "--");

    private final String src;
    private int pos;

    private Lexer(String src) {
        this.src = src;
    }

    static List<Token> tokens(String src) {
        return new Lexer(src).run();
    }

    private List<Token> run() {
        List<Token> out = new ArrayList<>();
        while (true) {
            skipSpace();
            if (pos >= src.length()) {
                out.add(new Token(Kind.EOF, "<EOF>", src.length(), src.length()));
                return out;
            }
            int start = pos;
            char c = src.charAt(pos);
            if (Character.isJavaIdentifierStart(c) && c != '$') {
                while (pos < src.length() && Character.isJavaIdentifierPart(src.charAt(pos)) && src.charAt(pos) != '$') {
                    pos++;
                }
                out.add(new Token(Kind.IDENT, src.substring(start, pos), start, pos));
            } else if (Character.isDigit(c) || (c == '.' && pos + 1 < src.length()
                    && Character.isDigit(src.charAt(pos + 1)) && !afterValue(out))) {
                out.add(number(start));
            } else if (c == '"' || c == '\'') {
                out.add(string(start, c));
            } else if (c == '/' && !afterValue(out)) {
                throw new ScriptCompileError(start, "Regexes are disabled. Set [script.painless.regex.enabled] to"
                        + " [true] in elasticsearch.yaml to allow them. Be careful though, regexes break out of"
                        + " Painless's protection against deep recursion and long loops.");
            } else {
                String op = null;
                for (String candidate : OPERATORS) {
                    if (src.startsWith(candidate, pos)) {
                        op = candidate;
                        break;
                    }
                }
                if (op == null) {
                    throw new ScriptCompileError(start, "unexpected character [" + c + "].");
                }
                if (op.equals("=~") || op.equals("==~")) {
                    throw new ScriptCompileError(start, "Regexes are disabled. Set [script.painless.regex.enabled]"
                            + " to [true] in elasticsearch.yaml to allow them. Be careful though, regexes break out"
                            + " of Painless's protection against deep recursion and long loops.");
                }
                pos += op.length();
                out.add(new Token(Kind.OP, op, start, pos));
            }
        }
    }

    private static boolean afterValue(List<Token> out) {
        if (out.isEmpty()) {
            return false;
        }
        Token last = out.get(out.size() - 1);
        return switch (last.kind()) {
            case IDENT, INT, DECIMAL, STRING -> true;
            case OP -> VALUE_END.contains(last.text());
            case EOF -> false;
        };
    }

    private void skipSpace() {
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (src.startsWith("//", pos)) {
                while (pos < src.length() && src.charAt(pos) != '\n' && src.charAt(pos) != '\r') {
                    pos++;
                }
            } else if (src.startsWith("/*", pos)) {
                int end = src.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw new ScriptCompileError(pos, "unexpected character [/].");
                }
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private Token number(int start) {
        boolean decimal = false;
        if (src.startsWith("0x", pos) || src.startsWith("0X", pos)) {
            pos += 2;
            while (pos < src.length() && Character.digit(src.charAt(pos), 16) >= 0) {
                pos++;
            }
        } else {
            while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
                pos++;
            }
            if (pos < src.length() && src.charAt(pos) == '.' && pos + 1 < src.length()
                    && Character.isDigit(src.charAt(pos + 1))) {
                decimal = true;
                pos++;
                while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
                    pos++;
                }
            }
            if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
                int save = pos;
                pos++;
                if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
                    pos++;
                }
                if (pos < src.length() && Character.isDigit(src.charAt(pos))) {
                    decimal = true;
                    while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
                        pos++;
                    }
                } else {
                    pos = save;
                }
            }
        }
        if (pos < src.length()) {
            char s = src.charAt(pos);
            if (s == 'l' || s == 'L') {
                pos++;
                return new Token(Kind.INT, src.substring(start, pos), start, pos);
            }
            if (s == 'f' || s == 'F' || s == 'd' || s == 'D') {
                pos++;
                return new Token(Kind.DECIMAL, src.substring(start, pos), start, pos);
            }
        }
        return new Token(decimal ? Kind.DECIMAL : Kind.INT, src.substring(start, pos), start, pos);
    }

    private Token string(int start, char quote) {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= src.length()) {
                throw new ScriptCompileError(start, "unexpected character [" + quote + "].");
            }
            char c = src.charAt(pos);
            if (c == quote) {
                pos++;
                break;
            }
            if (c == '\\' && pos + 1 < src.length()) {
                char n = src.charAt(pos + 1);
                if (n == '\\' || n == quote) {
                    sb.append(n);
                    pos += 2;
                    continue;
                }
            }
            sb.append(c);
            pos++;
        }
        return new Token(Kind.STRING, sb.toString(), start, pos);
    }
}
