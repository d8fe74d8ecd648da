package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.script.Lexer.Kind;
import io.qdrant.esgateway.domain.script.Lexer.Token;
import io.qdrant.esgateway.domain.script.Node.Expr;
import io.qdrant.esgateway.domain.script.Node.Stmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses Painless source into a checked syntax tree: locals resolved to frame slots, the static types Painless
 * knows checked where they are known (literals, typed locals, operators, {@code Math}), constants folded, calls on
 * typed receivers checked against the whitelist.
 */
final class Parser {
    private static final Set<String> ASSIGN_OPS = Set.of("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=",
            ">>=", ">>>=");
    private static final Map<String, Type> STATIC_RETURNS = Map.of("Math.round/1", Type.LONG,
            "Integer.parseInt/1", Type.INT, "Long.parseLong/1", Type.LONG, "Double.parseDouble/1", Type.DOUBLE,
            "String.valueOf/1", Type.STRING);

    private record Var(int slot, Type type) {
    }

    private final String src;
    private final List<Token> toks;
    private int p;
    final BitSet statements;
    private Deque<Map<String, Var>> scopes = new ArrayDeque<>();
    private int nextSlot;
    private int maxSlot;
    private final Map<String, Node.Function> functions = new LinkedHashMap<>();
    /** The script context's functions ({@code cosineSimilarity}, …), by name/arity. */
    private Map<String, Api.Fn> builtins = Map.of();

    /** The parsed script: its top-level block, frame size and functions. */
    record Program(Node.Block main, int frameSize, Map<String, Node.Function> functions, BitSet statements) {
    }

    private Parser(String src, BitSet statements) {
        this.src = src;
        this.statements = statements;
        statements.set(0);
        this.toks = Lexer.tokens(src);
    }

    /** Parses {@code src}; a compile error carries the statement starts seen so far in {@code seen}. */
    static Program parse(String src, List<String> globals, List<Type> globalTypes, Map<String, Api.Fn> builtins,
                         BitSet seen) {
        Parser parser = new Parser(src, seen);
        parser.builtins = builtins;
        return parser.program(globals, globalTypes);
    }

    private Program program(List<String> globals, List<Type> globalTypes) {
        // functions first, as Painless requires
        while (isFunctionStart()) {
            function();
        }
        scopes.push(new HashMap<>());
        for (int i = 0; i < globals.size(); i++) {
            declare(globals.get(i), globalTypes.get(i), peek().offset());
        }
        List<Stmt> body = new ArrayList<>();
        int start = peek().offset();
        while (peek().kind() != Kind.EOF) {
            body.add(statement(true));
        }
        // the last expression statement of a script is its value
        if (!body.isEmpty() && body.get(body.size() - 1) instanceof Node.ExprStmt last) {
            body.set(body.size() - 1, new Node.ValueStmt(last.pos, last.expr));
        }
        for (int i = 0; i < body.size() - 1; i++) {
            if (body.get(i) instanceof Node.ExprStmt e && !e.expr.isStatement()) {
                throw new ScriptCompileError(e.pos, "Not a statement.");
            }
        }
        return new Program(new Node.Block(start, body), maxSlot, functions, statements);
    }

    // ---------------------------------------------------------------- tokens

    private Token peek() {
        return toks.get(p);
    }

    private Token peek(int ahead) {
        return toks.get(Math.min(p + ahead, toks.size() - 1));
    }

    private Token next() {
        Token t = toks.get(p);
        if (t.kind() != Kind.EOF) {
            p++;
        }
        return t;
    }

    private boolean at(String op) {
        Token t = peek();
        return t.kind() == Kind.OP && t.text().equals(op);
    }

    private boolean accept(String op) {
        if (at(op)) {
            p++;
            return true;
        }
        return false;
    }

    private Token expect(String op) {
        if (!at(op)) {
            throw unexpected(peek());
        }
        return next();
    }

    private String ident() {
        Token t = peek();
        if (t.kind() != Kind.IDENT || isKeyword(t.text())) {
            throw unexpected(t);
        }
        return next().text();
    }

    private static boolean isKeyword(String s) {
        return switch (s) {
            case "if", "else", "while", "do", "for", "in", "continue", "break", "return", "new", "try", "catch",
                 "throw", "this", "instanceof", "true", "false", "null" -> true;
            default -> false;
        };
    }

    private ScriptCompileError unexpected(Token t) {
        if (t.kind() == Kind.EOF) {
            return new ScriptCompileError(t.offset(), "unexpected end of script.");
        }
        return new ScriptCompileError(t.offset(), "invalid sequence of tokens near ['" + t.text() + "'].");
    }

    // ---------------------------------------------------------------- scopes

    private Var declare(String name, Type type, int pos) {
        for (Map<String, Var> scope : scopes) {
            if (scope.containsKey(name)) {
                throw new ScriptCompileError(pos, "variable [" + name + "] is already defined");
            }
        }
        Var v = new Var(nextSlot++, type);
        maxSlot = Math.max(maxSlot, nextSlot);
        scopes.peek().put(name, v);
        return v;
    }

    private Var lookup(String name) {
        for (Map<String, Var> scope : scopes) {
            Var v = scope.get(name);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private void pushScope() {
        scopes.push(new HashMap<>());
    }

    private void popScope() {
        Map<String, Var> scope = scopes.pop();
        nextSlot -= scope.size();
    }

    // ---------------------------------------------------------------- types

    /** Whether a type (and then a name) starts here; returns the type's token count or 0. */
    private int typeLength(int from) {
        Token t = toks.get(Math.min(from, toks.size() - 1));
        if (t.kind() != Kind.IDENT) {
            return 0;
        }
        int n;
        if (t.text().equals("Map") && toks.get(Math.min(from + 1, toks.size() - 1)).is(".")
                && toks.get(Math.min(from + 2, toks.size() - 1)).is("Entry")) {
            n = 3;
        } else if (Type.named(t.text()) != null && lookup(t.text()) == null) {
            n = 1;
        } else {
            return 0;
        }
        while (toks.get(Math.min(from + n, toks.size() - 1)).is("[")
                && toks.get(Math.min(from + n + 1, toks.size() - 1)).is("]")) {
            n += 2;
        }
        return n;
    }

    private Type type() {
        Token t = next();
        Type type;
        if (t.text().equals("Map") && at(".") && peek(1).is("Entry")) {
            next();
            next();
            type = new Type("Map.Entry", null);
        } else {
            type = Type.named(t.text());
            if (type == null) {
                throw new ScriptCompileError(t.offset(), "cannot resolve type [" + t.text() + "]");
            }
        }
        while (at("[") && peek(1).is("]")) {
            next();
            next();
            type = Type.arrayOf(type);
        }
        return type;
    }

    private boolean isDeclarationStart() {
        int n = typeLength(p);
        return n > 0 && peek(n).kind() == Kind.IDENT && !isKeyword(peek(n).text()) && !peek(n).is("instanceof");
    }

    private boolean isFunctionStart() {
        int n = typeLength(p);
        if (n == 0 && peek().is("void")) {
            n = 1;
        }
        return n > 0 && peek(n).kind() == Kind.IDENT && peek(n + 1).is("(");
    }

    // ---------------------------------------------------------------- functions

    private void function() {
        int start = peek().offset();
        statements.set(start);
        Type returnType = peek().is("void") ? nextVoid() : type();
        String name = ident();
        expect("(");
        List<Type> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        if (!at(")")) {
            do {
                types.add(type());
                names.add(ident());
            } while (accept(","));
        }
        expect(")");
        Node.Function fn = new Node.Function(name, returnType, types);
        if (functions.put(name + "/" + types.size(), fn) != null) {
            throw new ScriptCompileError(start, "Illegal duplicate functions [" + name + "/" + types.size() + "].");
        }
        Deque<Map<String, Var>> savedScopes = scopes;
        int savedNext = nextSlot;
        int savedMax = maxSlot;
        scopes = new ArrayDeque<>();
        nextSlot = 0;
        maxSlot = 0;
        scopes.push(new HashMap<>());
        for (int i = 0; i < names.size(); i++) {
            declare(names.get(i), types.get(i), start);
        }
        fn.body = block();
        fn.frameSize = maxSlot;
        if (!returnType.equals(Type.VOID) && !fn.body.alwaysReturns()) {
            throw new ScriptCompileError(start, "not all paths provide a return value for function [" + name
                    + "] with [" + types.size() + "] parameters");
        }
        scopes = savedScopes;
        nextSlot = savedNext;
        maxSlot = savedMax;
    }

    private Type nextVoid() {
        next();
        return Type.VOID;
    }

    // ---------------------------------------------------------------- statements

    private Node.Block block() {
        int start = expect("{").offset();
        pushScope();
        List<Stmt> out = new ArrayList<>();
        while (!at("}")) {
            if (peek().kind() == Kind.EOF) {
                throw unexpected(peek());
            }
            out.add(statement(false));
        }
        next();
        popScope();
        for (Stmt s : out) {
            if (s instanceof Node.ExprStmt e && !e.expr.isStatement()) {
                throw new ScriptCompileError(e.pos, "Not a statement.");
            }
        }
        return new Node.Block(start, out);
    }

    /** A statement; {@code top} allows the last one before EOF to omit its semicolon. */
    private Stmt statement(boolean top) {
        Token t = peek();
        int pos = t.offset();
        statements.set(pos);
        if (t.is("{")) {
            return block();
        }
        if (t.is(";")) {
            next();
            return new Node.Empty(pos);
        }
        if (t.kind() == Kind.IDENT) {
            switch (t.text()) {
                case "if" -> {
                    next();
                    expect("(");
                    Expr cond = condition(expression());
                    expect(")");
                    Stmt then = trailer();
                    Stmt otherwise = null;
                    if (peek().is("else")) {
                        next();
                        otherwise = trailer();
                    }
                    return new Node.If(pos, cond, then, otherwise);
                }
                case "while" -> {
                    next();
                    expect("(");
                    Expr cond = condition(expression());
                    expect(")");
                    Stmt body;
                    if (accept(";")) {
                        body = new Node.Empty(pos);
                    } else {
                        body = trailer();
                    }
                    Node.While w = new Node.While(pos, cond, body, false);
                    if (w.alwaysReturns() && !body.alwaysReturns()) {
                        throw new ScriptCompileError(pos, "no paths escape from while loop");
                    }
                    return w;
                }
                case "do" -> {
                    next();
                    Stmt body = block();
                    if (!peek().is("while")) {
                        throw unexpected(peek());
                    }
                    next();
                    expect("(");
                    Expr cond = condition(expression());
                    expect(")");
                    end(top);
                    return new Node.While(pos, cond, body, true);
                }
                case "for" -> {
                    return forStatement(pos);
                }
                case "break", "continue" -> {
                    next();
                    end(top);
                    return new Node.Jump(pos, t.text().equals("break") ? Node.BREAK : Node.CONTINUE);
                }
                case "return" -> {
                    next();
                    Expr value = null;
                    if (!at(";") && !at("}") && peek().kind() != Kind.EOF) {
                        value = expression();
                    }
                    end(top);
                    return new Node.Return(pos, value);
                }
                case "try" -> {
                    return tryStatement(pos);
                }
                case "throw" -> {
                    next();
                    Expr thrown = expression();
                    end(top);
                    return new Node.Throw(pos, thrown);
                }
                default -> {
                    if (isDeclarationStart()) {
                        Stmt d = declaration();
                        end(top);
                        return d;
                    }
                }
            }
        }
        Expr e = expression();
        end(top);
        return new Node.ExprStmt(pos, e);
    }

    /** {@code try} block, then one or more {@code catch (ExceptionType name)} blocks (Painless has no finally). */
    private Stmt tryStatement(int pos) {
        next();
        Node.Block body = block();
        List<Node.Catch> catches = new ArrayList<>();
        while (peek().is("catch")) {
            next();
            expect("(");
            Token typeTok = peek();
            if (typeTok.kind() != Kind.IDENT || Type.named(typeTok.text()) == null) {
                throw new ScriptCompileError(typeTok.offset(), "cannot resolve type [" + typeTok.text() + "]");
            }
            if (!ScriptExceptions.isException(typeTok.text())) {
                throw new ScriptCompileError(typeTok.offset(), "Cannot cast from [java.lang.Exception] to ["
                        + Type.named(typeTok.text()).javaName() + "].", "class_cast_exception");
            }
            next();
            Token nameTok = peek();
            String name = ident();
            expect(")");
            pushScope();
            Var v = declare(name, new Type(typeTok.text(), null), nameTok.offset());
            Node.Block handler = block();
            popScope();
            catches.add(new Node.Catch(typeTok.text(), v.slot(), handler));
        }
        if (catches.isEmpty()) {
            throw unexpected(peek());
        }
        return new Node.Try(pos, body, catches);
    }

    private Stmt trailer() {
        if (at("{")) {
            return block();
        }
        pushScope();
        Stmt s = statement(false);
        popScope();
        return s;
    }

    /** A statement's end: a semicolon, or nothing before a closing brace or the end of the script. */
    private void end(boolean top) {
        if (accept(";")) {
            return;
        }
        if (at("}") || peek().kind() == Kind.EOF) {
            return;
        }
        throw unexpected(peek());
    }

    private Stmt declaration() {
        int pos = peek().offset();
        Type type = type();
        List<Stmt> out = new ArrayList<>();
        do {
            Token nameTok = peek();
            String name = ident();
            Expr init = null;
            if (accept("=")) {
                init = expression();
                checkAssignable(init, type);
            }
            Var v = declare(name, type, nameTok.offset());
            out.add(new Node.Declare(nameTok.offset(), v.slot(), type, init));
        } while (accept(","));
        return out.size() == 1 ? out.get(0) : new Node.Block(pos, out);
    }

    private void checkAssignable(Expr value, Type to) {
        if (value instanceof Node.Literal l && l.value == null && to.isPrimitive()) {
            throw new ScriptCompileError(value.pos, "Cannot cast null to a primitive type [" + to.name() + "].",
                    "class_cast_exception");
        }
        String problem = Ops.staticCastProblem(value.type, to, false);
        if (problem != null) {
            throw new ScriptCompileError(value.pos, problem, "class_cast_exception");
        }
    }

    private Stmt forStatement(int pos) {
        next();
        expect("(");
        pushScope();
        try {
            // for (x in list), for (Type x : list)
            if (peek().kind() == Kind.IDENT && peek(1).is("in")) {
                String name = ident();
                next();
                Expr iterable = expression();
                expect(")");
                Var v = declare(name, Type.DEF, pos);
                return new Node.ForEach(pos, v.slot(), Type.DEF, iterable, trailer());
            }
            int n = typeLength(p);
            if (n > 0 && peek(n).kind() == Kind.IDENT && peek(n + 1).is(":")) {
                Type type = type();
                Token nameTok = peek();
                String name = ident();
                expect(":");
                Expr iterable = expression();
                expect(")");
                Var v = declare(name, type, nameTok.offset());
                return new Node.ForEach(pos, v.slot(), type, iterable, trailer());
            }
            List<Stmt> init = new ArrayList<>();
            if (!at(";")) {
                statements.set(peek().offset());
                if (isDeclarationStart()) {
                    init.add(declaration());
                } else {
                    do {
                        Expr e = expression();
                        init.add(new Node.ExprStmt(e.pos, e));
                    } while (accept(","));
                }
            }
            expect(";");
            Expr cond = at(";") ? null : condition(expression());
            expect(";");
            List<Expr> update = new ArrayList<>();
            if (!at(")")) {
                do {
                    update.add(expression());
                } while (accept(","));
            }
            expect(")");
            Stmt body = accept(";") ? null : trailer();
            Node.For f = new Node.For(pos, init, cond, update, body);
            if (f.alwaysReturns() && (body == null || !body.alwaysReturns())) {
                throw new ScriptCompileError(pos, "no paths escape from for loop");
            }
            return f;
        } finally {
            popScope();
        }
    }

    private Expr condition(Expr e) {
        if (!e.type.isDef() && !e.type.equals(Type.BOOLEAN) && !e.type.name().equals("Boolean")) {
            throw new ScriptCompileError(e.pos, "Cannot cast from [" + e.type.javaName() + "] to [boolean].",
                    "class_cast_exception");
        }
        return e;
    }

    // ---------------------------------------------------------------- expressions

    private Expr expression() {
        Expr left = ternary();
        Token t = peek();
        if (t.kind() == Kind.OP && ASSIGN_OPS.contains(t.text())) {
            next();
            if (!(left instanceof Node.Target) || (left instanceof Node.Field fld && fld.nullSafe)) {
                throw new ScriptCompileError(t.offset(), "Left-hand side cannot be assigned a value.");
            }
            Expr value = expression();
            String op = t.text().equals("=") ? null : t.text().substring(0, t.text().length() - 1);
            if (op == null && left instanceof Node.Local l) {
                checkAssignable(value, l.type);
            }
            return new Node.Assign(t.offset(), left, op, value);
        }
        return left;
    }

    private Expr ternary() {
        Expr cond = elvis();
        if (at("?")) {
            int pos = next().offset();
            Expr then = expression();
            expect(":");
            Expr otherwise = expression();
            Type type = then.type.equals(otherwise.type) ? then.type : promoted(then.type, otherwise.type);
            if (!then.type.equals(otherwise.type) && then.type.isNumericPrimitive()
                    && otherwise.type.isNumericPrimitive()) {
                // both branches are promoted to one numeric type, as in Java
                then = new Node.Cast(then.pos, type, then);
                otherwise = new Node.Cast(otherwise.pos, type, otherwise);
            }
            Node.Conditional c = new Node.Conditional(pos, condition(cond), then, otherwise);
            c.type = type;
            return c;
        }
        return cond;
    }

    private Expr elvis() {
        Expr left = or();
        if (at("?:")) {
            int pos = next().offset();
            Expr right = elvis();
            if (left.type.isPrimitive()) {
                throw new ScriptCompileError(pos, "Extraneous elvis operator. LHS is a primitive.");
            }
            return new Node.Elvis(pos, left, right);
        }
        return left;
    }

    private Expr or() {
        Expr left = and();
        while (at("||")) {
            int pos = next().offset();
            left = new Node.Logical(pos, false, condition(left), condition(and()));
        }
        return left;
    }

    private Expr and() {
        Expr left = bitOr();
        while (at("&&")) {
            int pos = next().offset();
            left = new Node.Logical(pos, true, condition(left), condition(bitOr()));
        }
        return left;
    }

    private Expr bitOr() {
        Expr left = bitXor();
        while (at("|")) {
            left = binary(next(), left, bitXor());
        }
        return left;
    }

    private Expr bitXor() {
        Expr left = bitAnd();
        while (at("^")) {
            left = binary(next(), left, bitAnd());
        }
        return left;
    }

    private Expr bitAnd() {
        Expr left = equality();
        while (at("&")) {
            left = binary(next(), left, equality());
        }
        return left;
    }

    private Expr equality() {
        Expr left = relational();
        while (at("==") || at("!=") || at("===") || at("!==")) {
            left = binary(next(), left, relational());
        }
        return left;
    }

    private Expr relational() {
        Expr left = shift();
        while (true) {
            if (at("<") || at("<=") || at(">") || at(">=")) {
                left = binary(next(), left, shift());
            } else if (peek().is("instanceof")) {
                int pos = next().offset();
                if (typeLength(p) == 0) {
                    throw new ScriptCompileError(peek().offset(), "cannot resolve type [" + peek().text() + "]");
                }
                left = new Node.InstanceOf(pos, left, type());
            } else {
                return left;
            }
        }
    }

    private Expr shift() {
        Expr left = additive();
        while (at("<<") || at(">>") || at(">>>")) {
            left = binary(next(), left, additive());
        }
        return left;
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (at("+") || at("-")) {
            left = binary(next(), left, multiplicative());
        }
        return left;
    }

    private Expr multiplicative() {
        Expr left = unary();
        while (at("*") || at("/") || at("%")) {
            left = binary(next(), left, unary());
        }
        return left;
    }

    private static Type promoted(Type a, Type b) {
        int ra = a.numericRank();
        int rb = b.numericRank();
        if (ra < 0 || rb < 0) {
            return Type.DEF;
        }
        return switch (Math.max(ra, rb)) {
            case 0 -> Type.INT;
            case 1 -> Type.LONG;
            case 2 -> Type.FLOAT;
            default -> Type.DOUBLE;
        };
    }

    private Expr binary(Token opTok, Expr left, Expr right) {
        String op = opTok.text();
        if (left instanceof Node.Literal a && a.value == null && right instanceof Node.Literal b && b.value == null
                && (op.equals("==") || op.equals("!=") || op.equals("===") || op.equals("!=="))) {
            throw new ScriptCompileError(left.pos, "extraneous comparison of [null] constants");
        }
        if ((op.equals("&") || op.equals("|")) && left.type.equals(Type.BOOLEAN) && right.type.equals(Type.BOOLEAN)) {
            // Painless has no non-short-circuit boolean & and | on typed booleans (def values work)
            throw new ScriptCompileError(opTok.offset(), "cannot apply the " + (op.equals("&") ? "bitwise and"
                    : "boolean or") + " operator [" + op + "] to the types [boolean] and [boolean]",
                    "class_cast_exception");
        }
        if (!left.type.isDef() && !right.type.isDef() && (op.equals("<") || op.equals("<=") || op.equals(">")
                || op.equals(">=")) && (left.type.numericRank() < 0 || right.type.numericRank() < 0)) {
            String name = switch (op) {
                case "<" -> "less than";
                case "<=" -> "less than or equals";
                case ">" -> "greater than";
                default -> "greater than or equals";
            };
            throw new ScriptCompileError(opTok.offset(), "cannot apply the " + name + " operator [" + op
                    + "] to the types [" + left.type.javaName() + "] and [" + right.type.javaName() + "]",
                    "class_cast_exception");
        }
        if (left instanceof Node.Literal a && right instanceof Node.Literal b && !(a.value == null && b.value == null)
                && foldable(a.value) && foldable(b.value)) {
            try {
                Object v = Node.Binary.apply(op, a.value, b.value);
                return literal(left.pos, v);
            } catch (ArithmeticException e) {
                throw new ScriptCompileError(left.pos, e.getMessage(), "arithmetic_exception");
            } catch (PainlessRuntimeError e) {
                throw new ScriptCompileError(opTok.offset(), e.getMessage(), e.esType);
            }
        }
        Node.Binary b = new Node.Binary(opTok.offset(), op, left, right);
        switch (op) {
            case "==", "!=", "===", "!==", "<", "<=", ">", ">=" -> b.type = Type.BOOLEAN;
            case "+" -> b.type = left.type.equals(Type.STRING) || right.type.equals(Type.STRING) ? Type.STRING
                    : promoted(left.type, right.type);
            case "<<", ">>", ">>>" -> b.type = left.type.numericRank() == 0 ? Type.INT
                    : left.type.numericRank() == 1 ? Type.LONG : Type.DEF;
            case "&", "|", "^" -> b.type = left.type.equals(Type.BOOLEAN) && right.type.equals(Type.BOOLEAN)
                    ? Type.BOOLEAN : promoted(left.type, right.type);
            default -> b.type = promoted(left.type, right.type);
        }
        if (!left.type.isDef() && !right.type.isDef() && (op.equals("-") || op.equals("*") || op.equals("/")
                || op.equals("%")) && (left.type.numericRank() < 0 || right.type.numericRank() < 0)) {
            throw new ScriptCompileError(opTok.offset(), "Cannot apply [" + op + "] operation to types ["
                    + left.type.javaName() + "] and [" + right.type.javaName() + "].", "class_cast_exception");
        }
        return b;
    }

    private static boolean foldable(Object v) {
        return v == null || v instanceof Number || v instanceof String || v instanceof Boolean
                || v instanceof Character;
    }

    private static Node.Literal literal(int pos, Object v) {
        Type t;
        if (v instanceof Integer) {
            t = Type.INT;
        } else if (v instanceof Long) {
            t = Type.LONG;
        } else if (v instanceof Float) {
            t = Type.FLOAT;
        } else if (v instanceof Double) {
            t = Type.DOUBLE;
        } else if (v instanceof Boolean) {
            t = Type.BOOLEAN;
        } else if (v instanceof String) {
            t = Type.STRING;
        } else if (v instanceof Character) {
            t = Type.CHAR;
        } else {
            t = Type.DEF;
        }
        return new Node.Literal(pos, v, t);
    }

    private Expr unary() {
        Token t = peek();
        int pos = t.offset();
        if (t.kind() == Kind.OP) {
            switch (t.text()) {
                case "!" -> {
                    next();
                    Expr operand = condition(unary());
                    if (operand instanceof Node.Literal l && l.value instanceof Boolean b) {
                        return literal(pos, !b);
                    }
                    Node.Unary u = new Node.Unary(pos, "!", operand);
                    u.type = Type.BOOLEAN;
                    return u;
                }
                case "-", "+", "~" -> {
                    next();
                    // a negative literal is folded first, so that -2147483648 is an int
                    if (t.text().equals("-") && peek().kind() == Kind.INT) {
                        Token num = next();
                        return postfix(literal(pos, integer(num, true)));
                    }
                    if (t.text().equals("-") && peek().kind() == Kind.DECIMAL) {
                        Token num = next();
                        return postfix(literal(pos, Ops.negate(decimal(num))));
                    }
                    Expr operand = unary();
                    if (operand instanceof Node.Literal l && Ops.isNumber(l.value)) {
                        try {
                            return literal(pos, Node.Unary.apply(t.text(), l.value));
                        } catch (PainlessRuntimeError e) {
                            throw new ScriptCompileError(pos, e.getMessage(), e.esType);
                        }
                    }
                    Node.Unary u = new Node.Unary(pos, t.text(), operand);
                    u.type = promoted(operand.type, Type.INT);
                    return u;
                }
                case "++", "--" -> {
                    next();
                    Expr target = unary();
                    if (!(target instanceof Node.Target)) {
                        throw new ScriptCompileError(pos, "Left-hand side cannot be assigned a value.");
                    }
                    return new Node.IncDec(pos, target, t.text().equals("++"), true);
                }
                case "(" -> {
                    int n = typeLength(p + 1);
                    if (n > 0 && peek(n + 1).is(")")) {
                        next();
                        Type to = type();
                        expect(")");
                        Expr operand = unary();
                        String problem = Ops.staticCastProblem(operand.type, to, true);
                        if (problem != null) {
                            throw new ScriptCompileError(pos, problem, "class_cast_exception");
                        }
                        if (operand instanceof Node.Literal l && foldable(l.value) && l.value != null) {
                            try {
                                return literal(pos, Ops.convert(l.value, to, true));
                            } catch (PainlessRuntimeError e) {
                                throw new ScriptCompileError(pos, e.getMessage(), e.esType);
                            }
                        }
                        return new Node.Cast(operand.pos, to, operand);
                    }
                }
                default -> {
                }
            }
        }
        return postfix(primary());
    }

    private Expr postfix(Expr e) {
        while (true) {
            Token t = peek();
            if (t.is(".") || t.is("?.")) {
                next();
                boolean nullSafe = t.text().equals("?.");
                Token nameTok = next();
                if (nameTok.kind() != Kind.IDENT && nameTok.kind() != Kind.INT) {
                    throw unexpected(nameTok);
                }
                String name = nameTok.text();
                if (at("(")) {
                    List<Expr> args = arguments();
                    List<String> chain = Api.staticChain(e.type);
                    if (chain != null && !Api.hasMethod(chain, name, args.size())) {
                        throw new ScriptCompileError(t.offset(), "member method [" + e.type.javaName() + ", " + name
                                + "/" + args.size() + "] not found");
                    }
                    e = new Node.Call(t.offset(), e, name, args, nullSafe);
                } else {
                    List<String> chain = Api.staticChain(e.type);
                    if (chain != null && !chain.contains("Map") && !Api.hasMethod(chain, "get"
                            + Character.toUpperCase(name.charAt(0)) + name.substring(1), 0) && !Api.hasMethod(chain,
                            "is" + Character.toUpperCase(name.charAt(0)) + name.substring(1), 0)) {
                        throw new ScriptCompileError(t.offset(), "field [" + e.type.javaName() + ", " + name
                                + "] not found");
                    }
                    Node.Field f = new Node.Field(t.offset(), e, name, nullSafe);
                    if (e.type.isArray() && name.equals("length")) {
                        f.type = Type.INT;
                    }
                    e = f;
                }
            } else if (t.is("[")) {
                next();
                Expr index = expression();
                expect("]");
                Node.Index ix = new Node.Index(t.offset(), e, index);
                if (e.type.isArray()) {
                    ix.type = e.type.element();
                }
                e = ix;
            } else if (t.is("++") || t.is("--")) {
                if (!(e instanceof Node.Target)) {
                    return e;
                }
                next();
                return new Node.IncDec(t.offset(), e, t.text().equals("++"), false);
            } else {
                return e;
            }
        }
    }

    private List<Expr> arguments() {
        expect("(");
        List<Expr> args = new ArrayList<>();
        if (!at(")")) {
            do {
                args.add(isLambdaStart() ? lambda() : expression());
            } while (accept(","));
        }
        expect(")");
        return args;
    }

    private boolean isLambdaStart() {
        if (peek().kind() == Kind.IDENT && peek(1).is("->")) {
            return true;
        }
        if (!at("(")) {
            return false;
        }
        int depth = 0;
        for (int i = p; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.is("(")) {
                depth++;
            } else if (t.is(")")) {
                depth--;
                if (depth == 0) {
                    return toks.get(Math.min(i + 1, toks.size() - 1)).is("->");
                }
            } else if (t.kind() == Kind.EOF) {
                return false;
            }
        }
        return false;
    }

    private Expr lambda() {
        int pos = peek().offset();
        List<String> names = new ArrayList<>();
        List<Type> types = new ArrayList<>();
        if (peek().kind() == Kind.IDENT && peek(1).is("->")) {
            names.add(ident());
            types.add(Type.DEF);
        } else {
            expect("(");
            if (!at(")")) {
                do {
                    Type t = Type.DEF;
                    if (typeLength(p) > 0 && peek(typeLength(p)).kind() == Kind.IDENT) {
                        t = type();
                    }
                    types.add(t);
                    names.add(ident());
                } while (accept(","));
            }
            expect(")");
        }
        expect("->");
        pushScope();
        int[] slots = new int[names.size()];
        for (int i = 0; i < names.size(); i++) {
            slots[i] = declare(names.get(i), types.get(i), pos).slot();
        }
        Node.LambdaExpr l = new Node.LambdaExpr(pos, slots, types.toArray(new Type[0]));
        if (at("{")) {
            l.bodyBlock = block();
        } else {
            l.bodyExpr = expression();
        }
        popScope();
        return l;
    }

    private Expr primary() {
        Token t = next();
        int pos = t.offset();
        switch (t.kind()) {
            case INT -> {
                return literal(pos, integer(t, false));
            }
            case DECIMAL -> {
                return literal(pos, decimal(t));
            }
            case STRING -> {
                return literal(pos, t.text());
            }
            case EOF -> throw unexpected(t);
            default -> {
            }
        }
        if (t.is("(")) {
            Expr e = expression();
            expect(")");
            return e;
        }
        if (t.is("[")) {
            return collectionLiteral(pos);
        }
        if (t.kind() != Kind.IDENT) {
            throw unexpected(t);
        }
        switch (t.text()) {
            case "true" -> {
                return literal(pos, true);
            }
            case "false" -> {
                return literal(pos, false);
            }
            case "null" -> {
                return literal(pos, null);
            }
            case "new" -> {
                return newExpression(pos);
            }
            default -> {
            }
        }
        if (isKeyword(t.text())) {
            throw unexpected(t);
        }
        Var v = lookup(t.text());
        if (v != null) {
            return new Node.Local(pos, t.text(), v.slot(), v.type());
        }
        if (at("(")) {
            List<Expr> args = arguments();
            Node.Function fn = functions.get(t.text() + "/" + args.size());
            Api.Fn builtin = builtins.get(t.text() + "/" + args.size());
            if (fn == null && builtin != null) {
                return new Node.ContextCall(pos, builtin, args);
            }
            if (fn == null) {
                throw new ScriptCompileError(pos, "Unknown call [" + t.text() + "] with [" + args.size()
                        + "] arguments.");
            }
            return new Node.UserCall(pos, fn, args);
        }
        Type type = Type.named(t.text());
        if (type != null && !type.isPrimitive() && at(".")) {
            int dot = next().offset();
            Token member = next();
            if (member.kind() != Kind.IDENT) {
                throw unexpected(member);
            }
            if (at("(")) {
                List<Expr> args = arguments();
                Api.Fn fn = Api.staticMethod(type.name(), member.text(), args.size());
                if (fn == null) {
                    throw new ScriptCompileError(dot, "static method [" + type.javaName() + ", " + member.text()
                            + "/" + args.size() + "] not found");
                }
                String key = type.name() + "." + member.text() + "/" + args.size();
                Type returns = type.name().equals("Math") && !key.equals("Math.round/1") ? Type.DOUBLE
                        : STATIC_RETURNS.getOrDefault(key, Type.DEF);
                return new Node.StaticCall(dot, fn, args, returns);
            }
            if (!Api.hasStaticField(type.name(), member.text())) {
                throw new ScriptCompileError(dot, "static field [" + type.javaName() + ", " + member.text()
                        + "] not found");
            }
            return literal(dot, Api.staticField(type.name(), member.text()));
        }
        throw new ScriptCompileError(pos, "cannot resolve symbol [" + t.text() + "]");
    }

    private Expr collectionLiteral(int pos) {
        if (accept(":")) {
            expect("]");
            return new Node.MapLit(pos, List.of(), List.of());
        }
        if (accept("]")) {
            return new Node.ListLit(pos, List.of());
        }
        Expr first = expression();
        if (accept(":")) {
            List<Expr> keys = new ArrayList<>(List.of(first));
            List<Expr> values = new ArrayList<>(List.of(expression()));
            while (accept(",")) {
                keys.add(expression());
                expect(":");
                values.add(expression());
            }
            expect("]");
            return new Node.MapLit(pos, keys, values);
        }
        List<Expr> items = new ArrayList<>(List.of(first));
        while (accept(",")) {
            items.add(expression());
        }
        expect("]");
        return new Node.ListLit(pos, items);
    }

    private Expr newExpression(int pos) {
        Token typeTok = peek();
        if (typeTok.kind() != Kind.IDENT || Type.named(typeTok.text()) == null) {
            throw new ScriptCompileError(typeTok.offset(), "cannot resolve type [" + typeTok.text() + "]");
        }
        Type base = Type.named(next().text());
        if (at("[")) {
            List<Expr> dims = new ArrayList<>();
            Type arrayType = base;
            while (at("[")) {
                next();
                if (at("]")) {
                    next();
                    arrayType = Type.arrayOf(arrayType);
                    continue;
                }
                dims.add(expression());
                expect("]");
                arrayType = Type.arrayOf(arrayType);
            }
            if (dims.isEmpty()) {
                expect("{");
                List<Expr> init = new ArrayList<>();
                if (!at("}")) {
                    do {
                        init.add(expression());
                    } while (accept(","));
                }
                expect("}");
                return new Node.NewArray(pos, arrayType, null, init);
            }
            return new Node.NewArray(pos, arrayType, dims, null);
        }
        List<Expr> args = arguments();
        Api.Fn ctor = Api.constructor(base.name(), args.size());
        if (ctor == null) {
            throw new ScriptCompileError(pos, "constructor [" + base.javaName() + ", <init>/" + args.size()
                    + "] not found");
        }
        return new Node.New(pos, ctor, args, base);
    }

    private static Object integer(Token t, boolean negative) {
        String text = t.text();
        boolean isLong = text.endsWith("l") || text.endsWith("L");
        String digits = isLong ? text.substring(0, text.length() - 1) : text;
        int radix = 10;
        if (digits.startsWith("0x") || digits.startsWith("0X")) {
            radix = 16;
            digits = digits.substring(2);
        } else if (digits.length() > 1 && digits.startsWith("0")) {
            radix = 8;
            digits = digits.substring(1);
        }
        String signed = (negative ? "-" : "") + digits;
        try {
            if (isLong) {
                return radix == 10 ? Long.parseLong(signed, radix) : (negative ? -Long.parseUnsignedLong(digits,
                        radix) : Long.parseUnsignedLong(digits, radix));
            }
            if (radix != 10) {
                int v = Integer.parseUnsignedInt(digits, radix);
                return negative ? -v : v;
            }
            return Integer.parseInt(signed, radix);
        } catch (NumberFormatException e) {
            throw new ScriptCompileError(t.offset(), "Invalid " + (isLong ? "long" : "int") + " constant ["
                    + (negative ? "-" : "") + text + "].");
        }
    }

    private static Object decimal(Token t) {
        String text = t.text();
        char last = Character.toLowerCase(text.charAt(text.length() - 1));
        try {
            if (last == 'f') {
                float f = Float.parseFloat(text.substring(0, text.length() - 1));
                if (Float.isInfinite(f)) {
                    throw new NumberFormatException();
                }
                return f;
            }
            String digits = last == 'd' ? text.substring(0, text.length() - 1) : text;
            double d = Double.parseDouble(digits);
            if (Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new ScriptCompileError(t.offset(), "Invalid " + (last == 'f' ? "float" : "double")
                    + " constant [" + text + "].");
        }
    }
}
