"""IR built by program nests far deeper than a file (a chain of thousands of LetStmts, an Add chain
of an unrolled reduction, thousands of nested loops or ifs): every public consumer finishes with
the right result, or with a clear IRTooDeepError, never a RecursionError or a crash
(tirkit.ir.deep runs such walks on a worker thread with a large, bounded stack)."""
import functools
import operator
import sys

import numpy as np
import pytest

from tirkit import te
from tirkit.compiler import build
from tirkit.ir import deep, structural_equal, structural_hash
from tirkit.lang import from_source
from tirkit.schedule import Schedule
from tirkit.tir import (Add, Block, BlockRealize, BufferLoad, BufferStore, FloatImm, For,
                        ForKind, GT, IfThenElse, IntImm, Let, LetStmt, PrimFunc, Var, decl_buffer)
from tirkit.tir.analysis import verify_well_formed
from tirkit.tir.stmt_functor import post_order_visit

DEPTH = 5000  # five times the default recursion limit


def _f32(v):
    return FloatImm("float32", v)


def _func(body, extra=()):
    a, b = Var("a", "handle"), Var("b", "handle")
    A, B = decl_buffer((DEPTH,), "float32", "A"), decl_buffer((1,), "float32", "B")
    return PrimFunc([a, b, *extra], body(A, B), buffer_map={a: A, b: B}).with_attr(
        "global_symbol", "main")


def let_chain(n):
    """x0 = A[0]; x1 = x0 + 1; ...; B[0] = x{n-1}"""
    def body(A, B):
        xs = [Var(f"x{i}", "float32") for i in range(n)]
        stmt = BufferStore(B, xs[-1], [0])
        for i in range(n - 1, 0, -1):
            stmt = LetStmt(xs[i], Add(xs[i - 1], _f32(1.0)), stmt)
        return LetStmt(xs[0], BufferLoad(A, [0]), stmt)
    return _func(body)


def let_expr_chain(n):
    """B[0] = T.Let(T.Let(... x{n-1}, where={x{n-1}: x{n-2} + 1}) ..., where={x0: A[0]}): n nested
    Let expressions"""
    def body(A, B):
        xs = [Var(f"x{i}", "float32") for i in range(n)]
        e = xs[-1]
        for i in range(n - 1, 0, -1):
            e = Let(xs[i], Add(xs[i - 1], _f32(1.0)), e)
        return BufferStore(B, Let(xs[0], BufferLoad(A, [0]), e), [0])
    return _func(body)


def add_chain(n):
    """B[0] = A[0] + A[1] + ... + A[n-1], left-deep (functools.reduce)"""
    return _func(lambda A, B: BufferStore(
        B, functools.reduce(Add, [BufferLoad(A, [i]) for i in range(n)]), [0]))


def nested_fors(n):
    def body(A, B):
        vs = [Var(f"i{k}", "int32") for k in range(n)]
        stmt = BufferStore(B, Add(BufferLoad(A, [vs[-1]]), _f32(1.0)), [0])
        for v in reversed(vs):
            stmt = For(v, 0, 1, ForKind.SERIAL, stmt)
        return stmt
    return _func(body)


def nested_ifs(n):
    nv = Var("n", "int32")

    def body(A, B):
        stmt = BufferStore(B, Add(BufferLoad(A, [1]), _f32(1.0)), [0])
        for k in range(n - 1, -1, -1):
            stmt = IfThenElse(GT(nv, IntImm("int32", k)), stmt, None)
        return stmt
    return _func(body, (nv,))


def _inputs():
    return (np.arange(DEPTH) % 7).astype("float32"), np.zeros(1, "float32")


@pytest.fixture(autouse=True)
def _limit_restored():
    limit = sys.getrecursionlimit()
    yield
    assert sys.getrecursionlimit() == limit


def test_let_chain_prints_flat_lines_and_compiles():
    func = let_chain(DEPTH)
    text = func.script()
    lines = text.splitlines()
    # as TVM prints it: one line per let, all at the function body's indentation
    assert lines[-2] == "    x4999: T.float32 = x4998 + T.float32(1.0)"
    assert sum(line.startswith("    x") and ": T.float32 = " in line for line in lines) == DEPTH
    assert func.script(dialect="tirx").count("T.let[T.float32]") == DEPTH
    assert verify_well_formed(func)
    assert structural_equal(func, let_chain(DEPTH))
    assert structural_hash(func) == structural_hash(let_chain(DEPTH))
    a, b = _inputs()
    build(func)(a, b)  # (CSE places no binding above a nest deeper than MAX_HOIST_DEPTH)
    assert b[0] == a[0] + DEPTH - 1


def test_let_chain_round_trips_within_the_front_end_limits():
    func = let_chain(1900)  # the front end reads at most 2000 nested scopes
    assert structural_equal(from_source(func.script()), func)


def test_add_chain_prints_compiles_and_schedules():
    func = add_chain(DEPTH)
    text = func.script()
    assert text.count(" + ") == DEPTH - 1 and "A[0] + A[1] + A[2]" in text
    assert verify_well_formed(func)
    assert structural_hash(func) == structural_hash(add_chain(DEPTH))
    seen = []
    post_order_visit(func.body, seen.append)  # a loop: no retry, each node once
    assert sum(isinstance(x, BufferLoad) for x in seen) == DEPTH
    assert sum(isinstance(x, Add) for x in seen) == DEPTH - 1
    a, b = _inputs()
    build(func)(a, b)
    assert b[0] == a.sum()


def test_nested_let_expressions_print_and_compile():
    """A Let expression nested 20,000 deep took ~126 s to build (CSE kept a set of keys per
    sub-expression: n**2/2 keys, 1.2 GB at 5,000) and printing it was quadratic (each level
    copied the text of the levels inside it); both are linear now (see the next test and
    tests/printer/test_doc_nesting.py for the counts)."""
    func = let_expr_chain(DEPTH)
    line = next(x for x in func.script().splitlines() if x.startswith("    B[0] = "))
    assert line.count("T.Let(") == DEPTH
    assert line.startswith("    B[0] = T.Let(T.Let(") and line.endswith(
        "where={x1: x0 + T.float32(1.0)}), where={x0: A[0]})")
    a, b = _inputs()
    build(func)(a, b)
    assert b[0] == a[0] + DEPTH - 1


def test_cse_keeps_linear_keys_for_nested_lets(monkeypatch):
    """CSE asks of each expression whether it does any computation twice
    (_distinct_computations: the keys of the computations in it). A set per sub-expression
    held n**2/2 keys for a Let nested n deep; the keys of a chain now share one dict. Counted:
    the keys in every distinct container the memo holds, at most 4 per level."""
    from tirkit.compiler.passes import _cse_analysis as cse  # (CSE's analysis memos)
    from tirkit.compiler.transform import as_module, get_pass

    stored = {}

    class Recording(dict):
        def __setitem__(self, key, value):
            if value is not None:
                box = getattr(value, "d", value)  # (a _Keys view: its dict)
                stored[id(box)] = box  # (kept alive: ids stay distinct)
            super().__setitem__(key, value)

    monkeypatch.setattr(cse, "_DISTINCT", Recording())
    mod = as_module(let_expr_chain(DEPTH))
    assert get_pass("CommonSubexprElimTIR")(mod) is mod  # nothing is done twice
    keys = sum(len(box) for box in stored.values())
    assert DEPTH <= keys <= 4 * DEPTH


def test_te_unrolled_reduction():
    A = te.placeholder((DEPTH,), "float32", "A")
    B = te.compute((1,), lambda i: functools.reduce(operator.add, [A[j] for j in range(DEPTH)]),
                   "B")
    func = te.create_prim_func([A, B])
    Schedule(func).get_block("B")
    a, b = _inputs()
    build(func)(a, b)
    assert b[0] == a.sum()


@pytest.mark.parametrize("make", [nested_fors, nested_ifs])
def test_nested_loops_and_ifs(make):
    func = make(2000)
    assert verify_well_formed(func)
    assert structural_equal(func, make(2000))
    root = func.with_body(BlockRealize([], True, Block([], [], [], "root", func.body)))
    Schedule(root).get_block("root")
    a, b = _inputs()
    build(func)(a, b, *([2001] if make is nested_ifs else []))
    assert b[0] == a[int(make is nested_ifs)] + 1
    if make is nested_fors:  # (2000 nested ifs print 8 MB, past the front end's limit)
        assert structural_equal(from_source(func.script()), func)


def test_deeper_than_the_worker_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(deep, "RECURSION_LIMIT", 3000)
    with pytest.raises(deep.IRTooDeepError, match=r"script\(\): the IR is nested too deep "
                                                  r"\(more than 3000 Python frames"):
        let_chain(DEPTH).script()


@pytest.mark.parametrize("depth", [50, 1500])
def test_cse_binds_above_a_nest_up_to_max_hoist_depth(depth):
    """A computation done by the outermost let and by the store at the bottom of a let chain is
    bound once above the chain, unless the chain nests deeper than MAX_HOIST_DEPTH (then
    CSE's tables would cost depth**2): the IR is then left as it is, and still right."""
    from tirkit.compiler.passes import common_subexpr_elim as cse
    from tirkit.compiler.transform import as_module, get_pass
    from tirkit.tir import Cast, Mul

    nv = Var("n", "int32")

    def twice():  # built twice: equal, not shared
        return Add(Mul(nv, IntImm("int32", 7)), IntImm("int32", 3))

    def body(A, B):
        xs = [Var(f"x{i}", "int32") for i in range(depth)]
        stmt = BufferStore(B, Add(BufferLoad(A, [0]), Cast("float32", Add(xs[-1], twice()))), [0])
        for i in range(depth - 1, 0, -1):
            stmt = LetStmt(xs[i], Add(xs[i - 1], IntImm("int32", 1)), stmt)
        return LetStmt(xs[0], twice(), stmt)
    mod = as_module(_func(body, (nv,)))
    out = get_pass("CommonSubexprElimTIR")(mod)["main"].body
    bound = isinstance(out, LetStmt) and out.var.name_hint.startswith("cse_var")
    assert bound == (depth <= cse.MAX_HOIST_DEPTH)
    a, b = _inputs()
    build(mod)(a, b, 5)
    assert b[0] == a[0] + 2 * (5 * 7 + 3) + depth - 1


def test_the_worker_sees_the_callers_pass_context():
    """A walk handed to the worker thread reads the caller's ``with PassContext`` (a
    thread-local stack, carried over by tirkit.ir.deep.carry_thread_state)."""
    from tirkit.compiler.transform import PassContext

    def walk(n):
        return (PassContext.current().opt_level, deep.in_deep_worker()) if n == 0 else walk(n - 1)

    with PassContext(opt_level=3):
        assert deep.run_deep(walk, 10) == (3, False)
        assert deep.run_deep(walk, DEPTH) == (3, True)
