package io.qdrant.esgateway.domain.script;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The syntax tree of a compiled script; each node evaluates itself (a tree-walking interpreter). */
final class Node {
    private Node() {
    }

    /** Per execution: the loop budget, the position of the last operation started, the script's functions. */
    static final class Run {
        static final int MAX_LOOP_COUNTER = 1_000_000;
        int loopCounter;
        int pos;
        final Map<String, Function> functions;
        int depth;
        /** What the context's functions read (the document of a score script), or null. */
        Object context;

        Run(Map<String, Function> functions) {
            this.functions = functions;
        }

        void loop(int statements, int at) {
            loopCounter += Math.max(1, statements);
            if (loopCounter > MAX_LOOP_COUNTER) {
                pos = at;
                throw new PainlessRuntimeError("painless_error",
                        "The maximum number of statements that can be executed in a loop has been reached.");
            }
        }
    }

    /** The locals of one function invocation (lambdas share their creator's frame). */
    static final class Frame {
        final Object[] slots;
        final Run run;
        Object returned;

        Frame(int size, Run run) {
            this.slots = new Object[size];
            this.run = run;
        }
    }

    static final int NORMAL = 0;
    static final int BREAK = 1;
    static final int CONTINUE = 2;
    static final int RETURN = 3;

    // ---------------------------------------------------------------- expressions

    abstract static class Expr {
        final int pos;
        Type type = Type.DEF;

        Expr(int pos) {
            this.pos = pos;
        }

        abstract Object eval(Frame f);

        boolean isStatement() {
            return false;
        }
    }

    /** An expression a value can be stored into. */
    interface Target {
        Ref ref(Frame f);
    }

    /** A resolved storage location. */
    interface Ref {
        Object get();

        void set(Object value);

        /** The static type of the location ({@code def} when stores keep the value as is). */
        Type type();
    }

    static final class Literal extends Expr {
        final Object value;

        Literal(int pos, Object value, Type type) {
            super(pos);
            this.value = value;
            this.type = type;
        }

        @Override
        Object eval(Frame f) {
            return value;
        }
    }

    static final class Local extends Expr implements Target {
        final int slot;
        final String name;

        Local(int pos, String name, int slot, Type type) {
            super(pos);
            this.name = name;
            this.slot = slot;
            this.type = type;
        }

        @Override
        Object eval(Frame f) {
            return f.slots[slot];
        }

        @Override
        public Ref ref(Frame f) {
            return new Ref() {
                @Override
                public Object get() {
                    return f.slots[slot];
                }

                @Override
                public void set(Object value) {
                    f.slots[slot] = value;
                }

                @Override
                public Type type() {
                    return type;
                }
            };
        }
    }

    static final class Field extends Expr implements Target {
        final Expr target;
        final String name;
        final boolean nullSafe;

        Field(int pos, Expr target, String name, boolean nullSafe) {
            super(pos);
            this.target = target;
            this.name = name;
            this.nullSafe = nullSafe;
        }

        @Override
        Object eval(Frame f) {
            Object recv = target.eval(f);
            if (recv == null && nullSafe) {
                return null;
            }
            f.run.pos = pos;
            return load(recv, name);
        }

        @Override
        public Ref ref(Frame f) {
            Object recv = target.eval(f);
            f.run.pos = pos;
            return new Ref() {
                @Override
                public Object get() {
                    f.run.pos = pos;
                    return load(recv, name);
                }

                @Override
                public void set(Object value) {
                    f.run.pos = pos;
                    store(recv, name, value);
                }

                @Override
                public Type type() {
                    return Type.DEF;
                }
            };
        }

        @SuppressWarnings("unchecked")
        static Object load(Object recv, String name) {
            if (recv == null) {
                throw PainlessRuntimeError.nullPointer("Cannot read field [" + name + "] of null");
            }
            if (recv instanceof Map<?, ?> m) {
                return m.get(name);
            }
            if (recv instanceof PArray a && name.equals("length")) {
                return a.length();
            }
            String cap = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            Api.Fn getter = Api.method(recv, "get" + cap, 0);
            if (getter == null) {
                getter = Api.method(recv, "is" + cap, 0);
            }
            if (getter == null) {
                throw PainlessRuntimeError.illegalArgument("dynamic getter [" + Ops.typeName(recv) + ", " + name
                        + "] not found");
            }
            return getter.call(recv, new Object[0]);
        }

        @SuppressWarnings("unchecked")
        static void store(Object recv, String name, Object value) {
            if (recv == null) {
                throw PainlessRuntimeError.nullPointer("Cannot write field [" + name + "] of null");
            }
            if (recv instanceof Map<?, ?> m) {
                ((Map<Object, Object>) m).put(name, value);
                return;
            }
            String cap = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            Api.Fn setter = Api.method(recv, "set" + cap, 1);
            if (setter == null) {
                throw PainlessRuntimeError.illegalArgument("dynamic setter [" + Ops.typeName(recv) + ", " + name
                        + "] not found");
            }
            setter.call(recv, new Object[] {value});
        }
    }

    static final class Index extends Expr implements Target {
        final Expr target;
        final Expr index;

        Index(int pos, Expr target, Expr index) {
            super(pos);
            this.target = target;
            this.index = index;
        }

        @Override
        Object eval(Frame f) {
            Object recv = target.eval(f);
            Object idx = index.eval(f);
            f.run.pos = pos;
            return load(recv, idx);
        }

        @Override
        public Ref ref(Frame f) {
            Object recv = target.eval(f);
            Object idx = index.eval(f);
            f.run.pos = pos;
            Type elementType = recv instanceof PArray a ? a.elementType() : Type.DEF;
            return new Ref() {
                @Override
                public Object get() {
                    f.run.pos = pos;
                    return load(recv, idx);
                }

                @Override
                public void set(Object value) {
                    f.run.pos = pos;
                    store(recv, idx, value);
                }

                @Override
                public Type type() {
                    return elementType;
                }
            };
        }

        static Object load(Object recv, Object idx) {
            if (recv == null) {
                throw PainlessRuntimeError.nullPointer("Cannot index into null");
            }
            if (recv instanceof Map<?, ?> m) {
                return m.get(idx);
            }
            if (recv instanceof List<?> l) {
                return l.get(Ops.index(idx, l.size()));
            }
            if (recv instanceof PArray a) {
                return a.get(idx);
            }
            throw PainlessRuntimeError.illegalArgument("Attempting to address a non-array type ["
                    + Ops.typeName(recv) + "] as an array.");
        }

        @SuppressWarnings("unchecked")
        static void store(Object recv, Object idx, Object value) {
            if (recv == null) {
                throw PainlessRuntimeError.nullPointer("Cannot index into null");
            }
            if (recv instanceof Map<?, ?> m) {
                ((Map<Object, Object>) m).put(idx, value);
            } else if (recv instanceof List<?> l) {
                ((List<Object>) l).set(Ops.index(idx, l.size()), value);
            } else if (recv instanceof PArray a) {
                a.set(idx, value);
            } else {
                throw PainlessRuntimeError.illegalArgument("Attempting to address a non-array type ["
                        + Ops.typeName(recv) + "] as an array.");
            }
        }
    }

    static Object[] args(List<Expr> args, Frame f) {
        Object[] out = new Object[args.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = args.get(i).eval(f);
        }
        return out;
    }

    static final class Call extends Expr {
        final Expr target;
        final String name;
        final List<Expr> args;
        final boolean nullSafe;

        Call(int pos, Expr target, String name, List<Expr> args, boolean nullSafe) {
            super(pos);
            this.target = target;
            this.name = name;
            this.args = args;
            this.nullSafe = nullSafe;
        }

        @Override
        Object eval(Frame f) {
            Object recv = target.eval(f);
            if (recv == null && nullSafe) {
                return null;
            }
            Object[] a = args(args, f);
            f.run.pos = pos;
            if (recv == null) {
                throw PainlessRuntimeError.nullPointer("Cannot invoke [" + name + "] on null");
            }
            Api.Fn fn = Api.method(recv, name, a.length);
            if (fn == null) {
                throw PainlessRuntimeError.illegalArgument("dynamic method [" + Ops.typeName(recv) + ", " + name
                        + "/" + a.length + "] not found");
            }
            return fn.call(recv, a);
        }

        @Override
        boolean isStatement() {
            return true;
        }
    }

    static final class StaticCall extends Expr {
        final Api.Fn fn;
        final List<Expr> args;

        StaticCall(int pos, Api.Fn fn, List<Expr> args, Type type) {
            super(pos);
            this.fn = fn;
            this.args = args;
            this.type = type;
        }

        @Override
        Object eval(Frame f) {
            Object[] a = args(args, f);
            f.run.pos = pos;
            return fn.call(null, a);
        }

        @Override
        boolean isStatement() {
            return true;
        }
    }

    /** A call of one of the script context's functions, which reads the run's context. */
    static final class ContextCall extends Expr {
        final Api.Fn fn;
        final List<Expr> args;

        ContextCall(int pos, Api.Fn fn, List<Expr> args) {
            super(pos);
            this.fn = fn;
            this.args = args;
        }

        @Override
        Object eval(Frame f) {
            Object[] a = args(args, f);
            f.run.pos = pos;
            return fn.call(f.run.context, a);
        }

        @Override
        boolean isStatement() {
            return true;
        }
    }

    static final class Function {
        final String name;
        final Type returnType;
        final List<Type> paramTypes;
        Block body;
        int frameSize;

        Function(String name, Type returnType, List<Type> paramTypes) {
            this.name = name;
            this.returnType = returnType;
            this.paramTypes = paramTypes;
        }
    }

    static final class UserCall extends Expr {
        final Function fn;
        final List<Expr> args;

        UserCall(int pos, Function fn, List<Expr> args) {
            super(pos);
            this.fn = fn;
            this.args = args;
            this.type = fn.returnType;
        }

        @Override
        Object eval(Frame f) {
            Object[] a = args(args, f);
            f.run.pos = pos;
            Frame callee = new Frame(fn.frameSize, f.run);
            for (int i = 0; i < a.length; i++) {
                callee.slots[i] = Ops.convert(a[i], fn.paramTypes.get(i), false);
            }
            if (++f.run.depth > 256) {
                throw new StackOverflowError();
            }
            try {
                fn.body.exec(callee);
            } finally {
                f.run.depth--;
            }
            f.run.pos = pos;
            return fn.returnType.equals(Type.VOID) ? null : Ops.convert(callee.returned, fn.returnType, false);
        }

        @Override
        boolean isStatement() {
            return true;
        }
    }

    static final class New extends Expr {
        final Api.Fn ctor;
        final List<Expr> args;

        New(int pos, Api.Fn ctor, List<Expr> args, Type type) {
            super(pos);
            this.ctor = ctor;
            this.args = args;
            this.type = type;
        }

        @Override
        Object eval(Frame f) {
            Object[] a = args(args, f);
            f.run.pos = pos;
            return ctor.call(null, a);
        }

        @Override
        boolean isStatement() {
            return true;
        }
    }

    static final class NewArray extends Expr {
        final Type elementType;
        final List<Expr> dims;
        final List<Expr> init;

        NewArray(int pos, Type arrayType, List<Expr> dims, List<Expr> init) {
            super(pos);
            this.type = arrayType;
            this.elementType = arrayType.element();
            this.dims = dims;
            this.init = init;
        }

        @Override
        Object eval(Frame f) {
            if (init != null) {
                PArray a = new PArray(elementType, init.size());
                for (int i = 0; i < init.size(); i++) {
                    a.set(i, init.get(i).eval(f));
                }
                return a;
            }
            int[] sizes = new int[dims.size()];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = (Integer) Ops.convert(dims.get(i).eval(f), Type.INT, false);
            }
            f.run.pos = pos;
            return make(type, sizes, 0);
        }

        private static PArray make(Type t, int[] sizes, int level) {
            PArray a = new PArray(t.element(), sizes[level]);
            if (level + 1 < sizes.length) {
                for (int i = 0; i < sizes[level]; i++) {
                    a.values[i] = make(t.element(), sizes, level + 1);
                }
            }
            return a;
        }
    }

    static final class ListLit extends Expr {
        final List<Expr> items;

        ListLit(int pos, List<Expr> items) {
            super(pos);
            this.items = items;
            this.type = new Type("ArrayList", null);
        }

        @Override
        Object eval(Frame f) {
            List<Object> out = new ArrayList<>(items.size());
            for (Expr e : items) {
                out.add(e.eval(f));
            }
            return out;
        }
    }

    static final class MapLit extends Expr {
        final List<Expr> keys;
        final List<Expr> values;

        MapLit(int pos, List<Expr> keys, List<Expr> values) {
            super(pos);
            this.keys = keys;
            this.values = values;
            this.type = new Type("HashMap", null);
        }

        @Override
        Object eval(Frame f) {
            Map<Object, Object> out = new HashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                out.put(keys.get(i).eval(f), values.get(i).eval(f));
            }
            return out;
        }
    }

    static final class Unary extends Expr {
        final String op;
        final Expr operand;

        Unary(int pos, String op, Expr operand) {
            super(pos);
            this.op = op;
            this.operand = operand;
        }

        @Override
        Object eval(Frame f) {
            Object v = operand.eval(f);
            f.run.pos = pos;
            return apply(op, v);
        }

        static Object apply(String op, Object v) {
            return switch (op) {
                case "!" -> !Ops.bool(v);
                case "-" -> Ops.negate(v);
                case "+" -> Ops.plus(v);
                default -> Ops.complement(v);
            };
        }
    }

    static final class Binary extends Expr {
        final String op;
        final Expr left;
        final Expr right;

        Binary(int pos, String op, Expr left, Expr right) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        Object eval(Frame f) {
            Object a = left.eval(f);
            Object b = right.eval(f);
            f.run.pos = pos;
            return apply(op, a, b);
        }

        static Object apply(String op, Object a, Object b) {
            return switch (op) {
                case "==" -> Ops.eq(a, b);
                case "!=" -> !Ops.eq(a, b);
                case "===" -> Ops.same(a, b);
                case "!==" -> !Ops.same(a, b);
                case "<", "<=", ">", ">=" -> Ops.compare(op, a, b);
                default -> Ops.binary(op, a, b);
            };
        }
    }

    static final class Logical extends Expr {
        final boolean and;
        final Expr left;
        final Expr right;

        Logical(int pos, boolean and, Expr left, Expr right) {
            super(pos);
            this.and = and;
            this.left = left;
            this.right = right;
            this.type = Type.BOOLEAN;
        }

        @Override
        Object eval(Frame f) {
            boolean l = Ops.bool(left.eval(f));
            if (and ? !l : l) {
                return l;
            }
            boolean r = Ops.bool(right.eval(f));
            f.run.pos = pos;
            return r;
        }
    }

    static final class InstanceOf extends Expr {
        final Expr operand;
        final Type checked;

        InstanceOf(int pos, Expr operand, Type checked) {
            super(pos);
            this.operand = operand;
            this.checked = checked;
            this.type = Type.BOOLEAN;
        }

        @Override
        Object eval(Frame f) {
            return Ops.instanceOf(operand.eval(f), checked);
        }
    }

    static final class Cast extends Expr {
        final Expr operand;

        Cast(int pos, Type to, Expr operand) {
            super(pos);
            this.type = to;
            this.operand = operand;
        }

        @Override
        Object eval(Frame f) {
            Object v = operand.eval(f);
            f.run.pos = pos;
            return Ops.convert(v, type, true);
        }
    }

    static final class Conditional extends Expr {
        final Expr cond;
        final Expr then;
        final Expr otherwise;

        Conditional(int pos, Expr cond, Expr then, Expr otherwise) {
            super(pos);
            this.cond = cond;
            this.then = then;
            this.otherwise = otherwise;
        }

        @Override
        Object eval(Frame f) {
            f.run.pos = pos;
            return Ops.bool(cond.eval(f)) ? then.eval(f) : otherwise.eval(f);
        }
    }

    static final class Elvis extends Expr {
        final Expr value;
        final Expr fallback;

        Elvis(int pos, Expr value, Expr fallback) {
            super(pos);
            this.value = value;
            this.fallback = fallback;
        }

        @Override
        Object eval(Frame f) {
            Object v = value.eval(f);
            return v != null ? v : fallback.eval(f);
        }
    }

    /** {@code =} and the compound assignments; a compound result is cast back to a typed target. */
    static final class Assign extends Expr {
        final Expr target;
        final String op;
        final Expr value;

        Assign(int pos, Expr target, String op, Expr value) {
            super(pos);
            this.target = target;
            this.op = op;
            this.value = value;
            this.type = target.type;
        }

        @Override
        Object eval(Frame f) {
            Ref ref = ((Target) target).ref(f);
            Object result;
            if (op == null) {
                result = Ops.convert(value.eval(f), ref.type(), false);
            } else {
                Object current = ref.get();
                Object v = value.eval(f);
                f.run.pos = pos;
                result = Binary.apply(op, current, v);
                if (!ref.type().isDef() && !(result instanceof String && ref.type().equals(Type.STRING))) {
                    result = Ops.convert(result, ref.type(), true);
                }
            }
            f.run.pos = pos;
            ref.set(result);
            return result;
        }

        @Override
        boolean isStatement() {
            return true;
        }
    }

    /** {@code ++} and {@code --}, prefix or postfix. */
    static final class IncDec extends Expr {
        final Expr target;
        final boolean increment;
        final boolean prefix;

        IncDec(int pos, Expr target, boolean increment, boolean prefix) {
            super(pos);
            this.target = target;
            this.increment = increment;
            this.prefix = prefix;
            this.type = target.type;
        }

        @Override
        Object eval(Frame f) {
            Ref ref = ((Target) target).ref(f);
            Object before = ref.get();
            f.run.pos = pos;
            Object after = Ops.arithmetic(increment ? "+" : "-", before, 1);
            if (Ops.rank(before) == 0 && !(before instanceof Integer)) {
                after = Ops.convert(after, new Type(before instanceof Short ? "short" : before instanceof Byte
                        ? "byte" : "char", null), true);
            }
            if (!ref.type().isDef()) {
                after = Ops.convert(after, ref.type(), true);
            }
            ref.set(after);
            return prefix ? after : before;
        }

        @Override
        boolean isStatement() {
            return true;
        }
    }

    static final class LambdaExpr extends Expr {
        final int[] paramSlots;
        final Type[] paramTypes;
        Expr bodyExpr;
        Block bodyBlock;

        LambdaExpr(int pos, int[] paramSlots, Type[] paramTypes) {
            super(pos);
            this.paramSlots = paramSlots;
            this.paramTypes = paramTypes;
        }

        @Override
        Object eval(Frame f) {
            return new Lambda(this, f);
        }

        Object invoke(Frame f, Object[] args) {
            if (args.length != paramSlots.length) {
                throw PainlessRuntimeError.illegalArgument("Incorrect number of parameters for lambda: expected ["
                        + paramSlots.length + "] but found [" + args.length + "]");
            }
            for (int i = 0; i < args.length; i++) {
                f.slots[paramSlots[i]] = Ops.convert(args[i], paramTypes[i], false);
            }
            if (bodyExpr != null) {
                return bodyExpr.eval(f);
            }
            Object saved = f.returned;
            f.returned = null;
            bodyBlock.exec(f);
            Object out = f.returned;
            f.returned = saved;
            return out;
        }
    }

    // ---------------------------------------------------------------- statements

    abstract static class Stmt {
        final int pos;

        Stmt(int pos) {
            this.pos = pos;
        }

        abstract int exec(Frame f);

        /** Whether control can leave this statement by {@code break} (for the endless-loop check). */
        boolean breaks() {
            return false;
        }

        /** Whether this statement always ends in {@code return} (or an endless loop). */
        boolean alwaysReturns() {
            return false;
        }
    }

    static final class Block extends Stmt {
        final List<Stmt> statements;

        Block(int pos, List<Stmt> statements) {
            super(pos);
            this.statements = statements;
        }

        @Override
        int exec(Frame f) {
            for (Stmt s : statements) {
                int r = s.exec(f);
                if (r != NORMAL) {
                    return r;
                }
            }
            return NORMAL;
        }

        @Override
        boolean breaks() {
            for (Stmt s : statements) {
                if (s.breaks()) {
                    return true;
                }
            }
            return false;
        }

        @Override
        boolean alwaysReturns() {
            for (Stmt s : statements) {
                if (s.alwaysReturns()) {
                    return true;
                }
            }
            return false;
        }
    }

    static final class ExprStmt extends Stmt {
        final Expr expr;

        ExprStmt(int pos, Expr expr) {
            super(pos);
            this.expr = expr;
        }

        @Override
        int exec(Frame f) {
            expr.eval(f);
            return NORMAL;
        }
    }

    /** The last statement of a script when it is an expression: its value is the script's result. */
    static final class ValueStmt extends Stmt {
        final Expr expr;

        ValueStmt(int pos, Expr expr) {
            super(pos);
            this.expr = expr;
        }

        @Override
        int exec(Frame f) {
            f.returned = expr.eval(f);
            return RETURN;
        }

        @Override
        boolean alwaysReturns() {
            return true;
        }
    }

    static final class Declare extends Stmt {
        final int slot;
        final Type type;
        final Expr init;

        Declare(int pos, int slot, Type type, Expr init) {
            super(pos);
            this.slot = slot;
            this.type = type;
            this.init = init;
        }

        @Override
        int exec(Frame f) {
            if (init == null) {
                f.slots[slot] = type.isArray() ? null : PArray.zero(type);
            } else {
                Object v = init.eval(f);
                f.run.pos = init.pos;
                f.slots[slot] = Ops.convert(v, type, false);
            }
            return NORMAL;
        }
    }

    static final class If extends Stmt {
        final Expr cond;
        final Stmt then;
        final Stmt otherwise;

        If(int pos, Expr cond, Stmt then, Stmt otherwise) {
            super(pos);
            this.cond = cond;
            this.then = then;
            this.otherwise = otherwise;
        }

        @Override
        int exec(Frame f) {
            Object c = cond.eval(f);
            f.run.pos = cond.pos;
            if (Ops.bool(c)) {
                return then.exec(f);
            }
            return otherwise == null ? NORMAL : otherwise.exec(f);
        }

        @Override
        boolean breaks() {
            return then.breaks() || (otherwise != null && otherwise.breaks());
        }

        @Override
        boolean alwaysReturns() {
            return otherwise != null && then.alwaysReturns() && otherwise.alwaysReturns();
        }
    }

    static int count(Stmt body) {
        return body instanceof Block b ? b.statements.size() : 1;
    }

    static final class While extends Stmt {
        final Expr cond;
        final Stmt body;
        final boolean doWhile;

        While(int pos, Expr cond, Stmt body, boolean doWhile) {
            super(pos);
            this.cond = cond;
            this.body = body;
            this.doWhile = doWhile;
        }

        @Override
        int exec(Frame f) {
            int statements = count(body);
            if (doWhile) {
                do {
                    f.run.loop(statements, pos);
                    int r = body.exec(f);
                    if (r == BREAK) {
                        break;
                    }
                    if (r == RETURN) {
                        return r;
                    }
                } while (test(f));
                return NORMAL;
            }
            while (test(f)) {
                f.run.loop(statements, pos);
                int r = body.exec(f);
                if (r == BREAK) {
                    break;
                }
                if (r == RETURN) {
                    return r;
                }
            }
            return NORMAL;
        }

        private boolean test(Frame f) {
            Object c = cond.eval(f);
            f.run.pos = cond.pos;
            return Ops.bool(c);
        }

        @Override
        boolean alwaysReturns() {
            return cond instanceof Literal l && Boolean.TRUE.equals(l.value) && !body.breaks();
        }
    }

    static final class For extends Stmt {
        final List<Stmt> init;
        final Expr cond;
        final List<Expr> update;
        final Stmt body;

        For(int pos, List<Stmt> init, Expr cond, List<Expr> update, Stmt body) {
            super(pos);
            this.init = init;
            this.cond = cond;
            this.update = update;
            this.body = body;
        }

        @Override
        int exec(Frame f) {
            for (Stmt s : init) {
                s.exec(f);
            }
            int statements = count(body);
            while (true) {
                if (cond != null) {
                    Object c = cond.eval(f);
                    f.run.pos = cond.pos;
                    if (!Ops.bool(c)) {
                        break;
                    }
                }
                f.run.loop(statements, pos);
                int r = body == null ? NORMAL : body.exec(f);
                if (r == BREAK) {
                    break;
                }
                if (r == RETURN) {
                    return r;
                }
                for (Expr u : update) {
                    u.eval(f);
                }
            }
            return NORMAL;
        }

        @Override
        boolean alwaysReturns() {
            return (cond == null || cond instanceof Literal l && Boolean.TRUE.equals(l.value))
                    && (body == null || !body.breaks());
        }
    }

    static final class ForEach extends Stmt {
        final int slot;
        final Type varType;
        final Expr iterable;
        final Stmt body;

        ForEach(int pos, int slot, Type varType, Expr iterable, Stmt body) {
            super(pos);
            this.slot = slot;
            this.varType = varType;
            this.iterable = iterable;
            this.body = body;
        }

        @Override
        int exec(Frame f) {
            Object it = iterable.eval(f);
            f.run.pos = pos;
            int statements = count(body);
            if (it == null) {
                throw PainlessRuntimeError.nullPointer("Cannot iterate over null");
            }
            if (it instanceof PArray a) {
                for (Object v : a.values) {
                    int r = step(f, v, statements);
                    if (r == BREAK) {
                        break;
                    }
                    if (r == RETURN) {
                        return r;
                    }
                }
                return NORMAL;
            }
            if (!(it instanceof Iterable<?> iter)) {
                throw PainlessRuntimeError.illegalArgument("Cannot iterate over [" + Ops.typeName(it) + "]");
            }
            for (Object v : iter) {
                int r = step(f, v, statements);
                if (r == BREAK) {
                    break;
                }
                if (r == RETURN) {
                    return r;
                }
            }
            return NORMAL;
        }

        private int step(Frame f, Object v, int statements) {
            f.run.loop(statements, pos);
            f.run.pos = pos;
            f.slots[slot] = Ops.convert(v, varType, false);
            return body.exec(f);
        }
    }

    static final class Jump extends Stmt {
        final int kind;

        Jump(int pos, int kind) {
            super(pos);
            this.kind = kind;
        }

        @Override
        int exec(Frame f) {
            return kind;
        }

        @Override
        boolean breaks() {
            return kind == BREAK;
        }
    }

    static final class Return extends Stmt {
        final Expr value;

        Return(int pos, Expr value) {
            super(pos);
            this.value = value;
        }

        @Override
        int exec(Frame f) {
            f.returned = value == null ? null : value.eval(f);
            return RETURN;
        }

        @Override
        boolean breaks() {
            return true;
        }

        @Override
        boolean alwaysReturns() {
            return true;
        }
    }

    /** One {@code catch} of a {@code try}: the exception type it catches and the slot of its variable. */
    record Catch(String type, int slot, Block handler) {
    }

    static final class Try extends Stmt {
        final Block body;
        final List<Catch> catches;

        Try(int pos, Block body, List<Catch> catches) {
            super(pos);
            this.body = body;
            this.catches = catches;
        }

        @Override
        int exec(Frame f) {
            int depth = f.run.depth;
            try {
                return body.exec(f);
            } catch (RuntimeException e) {
                ScriptExceptions.Value caught = ScriptExceptions.caught(e);
                if (caught != null) {
                    for (Catch c : catches) {
                        if (ScriptExceptions.isA(caught.type(), c.type())) {
                            f.run.depth = depth;
                            f.slots[c.slot()] = caught;
                            return c.handler().exec(f);
                        }
                    }
                }
                throw e;
            }
        }

        @Override
        boolean breaks() {
            if (body.breaks()) {
                return true;
            }
            for (Catch c : catches) {
                if (c.handler().breaks()) {
                    return true;
                }
            }
            return false;
        }

        @Override
        boolean alwaysReturns() {
            if (!body.alwaysReturns()) {
                return false;
            }
            for (Catch c : catches) {
                if (!c.handler().alwaysReturns()) {
                    return false;
                }
            }
            return true;
        }
    }

    static final class Throw extends Stmt {
        final Expr value;

        Throw(int pos, Expr value) {
            super(pos);
            this.value = value;
        }

        @Override
        int exec(Frame f) {
            Object v = value.eval(f);
            f.run.pos = pos;
            if (v instanceof ScriptExceptions.Value e) {
                throw ScriptExceptions.toThrow(e);
            }
            if (v == null) {
                throw PainlessRuntimeError.nullPointer("Cannot throw null");
            }
            throw PainlessRuntimeError.classCast("Cannot cast " + Ops.typeName(v) + " to java.lang.Throwable");
        }

        @Override
        boolean alwaysReturns() {
            return true;
        }
    }

    static final class Empty extends Stmt {
        Empty(int pos) {
            super(pos);
        }

        @Override
        int exec(Frame f) {
            return NORMAL;
        }
    }
}
