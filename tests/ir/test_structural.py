"""structural_equal / structural_hash / assert_structural_equal on expressions, statements,
buffers and modules (TVM's SEqualReduce semantics), plus hypothesis properties."""
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tirkit.ir import (GlobalVar, IRModule, PointerType, PrimType, Span, assert_structural_equal,
                       first_mismatch, structural_equal, structural_hash)
from tirkit.ir.structural import MISSING
from tirkit.tir import (Add, Allocate, AllocateConst, Block, BlockRealize, BufferLoad, BufferStore,
                        Call, CommReducer, DeclBuffer, Evaluate, FloatImm, For, ForKind, IntImm,
                        IterVar, IterVarType, Let, LetStmt, Max, Min, Mul, PrimFunc, Range, Reduce,
                        SeqStmt, SizeVar, Sub, Var, decl_buffer)


def assert_equal_and_hash(a, b, map_free_vars=False):
    assert structural_equal(a, b, map_free_vars)
    assert structural_equal(b, a, map_free_vars)
    assert structural_hash(a, map_free_vars) == structural_hash(b, map_free_vars)
    assert first_mismatch(a, b, map_free_vars) is None
    assert_structural_equal(a, b, map_free_vars)


def mismatch_path(a, b, map_free_vars=False):
    found = first_mismatch(a, b, map_free_vars)
    assert found is not None
    assert not structural_equal(a, b, map_free_vars)
    return found[0]


# ------------------------------------------------------------------------------ expressions
def test_constants_and_leaf_path():
    x = Var("x")
    assert_equal_and_hash(x + 1, x + 1)
    assert mismatch_path(x + 1, x + 2) == "b.value"
    assert mismatch_path(IntImm("int32", 1), IntImm("int64", 1)) == "dtype"
    assert mismatch_path(Add(x, 1), Sub(x, 1)) == ""


def test_float_exact_and_nan():
    assert_equal_and_hash(FloatImm("float32", float("nan")), FloatImm("float32", float("nan")))
    assert not structural_equal(FloatImm("float32", 0.5), FloatImm("float32", 0.25))
    assert structural_equal(float("nan"), float("nan"))
    assert not structural_equal(1.0, 1.0 + 1e-12)


def test_free_vars_by_identity():
    x, y = Var("x"), Var("y")
    assert structural_equal(x, x)
    assert not structural_equal(x, y)
    assert mismatch_path(x * 2, y * 2) == "a"
    assert structural_equal(x * 2, y * 2, map_free_vars=True)
    assert structural_hash(x * 2) != structural_hash(y * 2)
    assert structural_hash(x * 2, True) == structural_hash(y * 2, True)


def test_names_and_spans_ignored():
    a = Var("a", span=Span("f.py", 1, 1, 1, 2))
    b = Var("b")
    assert_equal_and_hash(a + 1, b + 1, map_free_vars=True)
    buf1, buf2 = decl_buffer((4,), name="A"), decl_buffer((4,), name="Z")
    assert_equal_and_hash(buf1, buf2, map_free_vars=True)


def test_map_free_vars_is_bijective():
    x, y = Var("x"), Var("y")
    assert structural_equal(x + y, y + x, map_free_vars=True)
    assert mismatch_path(x + y, x + x, map_free_vars=True) == "b"
    assert mismatch_path(x + x, x + y, map_free_vars=True) == "b"
    assert not structural_equal(x + y, x + x, map_free_vars=True)


def test_free_var_dtype_checked():
    assert mismatch_path(Var("x"), Var("z", "int64"), map_free_vars=True) == "dtype"
    assert not structural_equal(Var("x"), SizeVar("x"), map_free_vars=True)


def test_let_binding():
    x, y = Var("x"), Var("y")
    assert_equal_and_hash(Let(x, 1, x + 1), Let(y, 1, y + 1))
    assert mismatch_path(Let(x, 1, x + 1), Let(y, 1, x + 1)) == "body.a"
    assert mismatch_path(Let(x, 1, x + 1), Let(y, 2, y + 1)) == "value.value"


def test_letstmt_binding():
    x, y = Var("x"), Var("y")
    s1 = LetStmt(x, 3, Evaluate(x * 2))
    s2 = LetStmt(y, 3, Evaluate(y * 2))
    assert_equal_and_hash(s1, s2)
    assert mismatch_path(s1, LetStmt(y, 3, Evaluate(x * 2))) == "body.value.a"
    assert mismatch_path(s1, LetStmt(Var("y", "int64"), 3, Evaluate(0))) == "var.dtype"


def test_def_var_cannot_alias_outer_binding():
    x, y = Var("x"), Var("y")
    lhs = LetStmt(x, 1, LetStmt(y, 2, Evaluate(x + y)))
    rhs = LetStmt(x, 1, LetStmt(x, 2, Evaluate(x + x)))
    assert not structural_equal(lhs, rhs)


def test_for_alpha_rename_and_kind():
    i, j = Var("i"), Var("j")
    assert_equal_and_hash(For(i, 0, 8, ForKind.SERIAL, Evaluate(i)),
                          For(j, 0, 8, ForKind.SERIAL, Evaluate(j)))
    assert mismatch_path(For(i, 0, 8, ForKind.SERIAL, Evaluate(i)),
                         For(j, 0, 8, ForKind.PARALLEL, Evaluate(j))) == "kind"
    assert mismatch_path(For(i, 0, 8, ForKind.SERIAL, Evaluate(i)),
                         For(j, 0, 8, ForKind.SERIAL, Evaluate(j), annotations={"k": 1})
                         ) == 'annotations["k"]'


def test_seq_length_mismatch_path_and_message():
    a = SeqStmt([Evaluate(0), Evaluate(1)])
    b = SeqStmt([Evaluate(0), Evaluate(1), Evaluate(2)])
    path, left, right = first_mismatch(a, b)
    assert (path, left) == ("seq[2]", MISSING)
    assert structural_equal(right, Evaluate(2))
    with pytest.raises(ValueError) as err:
        assert_structural_equal(a, b)
    assert "lhs at <root>.seq[<missing:2>]" in str(err.value)
    assert "rhs at <root>.seq[2]" in str(err.value)


def test_assert_message_format():
    x = Var("x")
    with pytest.raises(ValueError) as err:
        assert_structural_equal(SeqStmt([Evaluate(x), Evaluate(x + 1)]),
                                SeqStmt([Evaluate(x), Evaluate(x + 5)]))
    msg = str(err.value)
    assert msg.startswith("StructuralEqual check failed, caused by lhs at <root>.seq[1].value.b"
                          ".value:")
    assert "and rhs at <root>.seq[1].value.b.value:" in msg
    assert "1" in msg and "5" in msg


def test_dict_fields():
    assert structural_equal({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert structural_hash({"a": 1, "b": 2}) == structural_hash({"b": 2, "a": 1})
    assert first_mismatch({"a": 1}, {"a": 1, "b": 2})[0] == '["b"]'
    assert first_mismatch({"a": 1}, {"a": 2})[0] == '["a"]'
    assert not structural_equal({"a": 1}, {"a": True})


def test_ndarray_values():
    one = np.arange(4, dtype="float32")
    x, y = Var("p", PointerType(PrimType("float32"))), Var("q", PointerType(PrimType("float32")))
    s1 = AllocateConst(x, "float32", [4], one, Evaluate(0))
    s2 = AllocateConst(y, "float32", [4], one.copy(), Evaluate(0))
    assert_equal_and_hash(s1, s2)
    s3 = AllocateConst(y, "float32", [4], one + 1, Evaluate(0))
    assert mismatch_path(s1, s3) == "data"


# ---------------------------------------------------------------------------------- buffers
def _copy_kernel(a, b, i):
    return For(i, 0, 16, ForKind.SERIAL, BufferStore(b, a[i] + 1.0, [i]))


def _func(a, b, i):
    return PrimFunc([a, b], _copy_kernel(a, b, i))


def test_buffer_map_alpha_rename():
    f1 = _func(decl_buffer((16,), name="A"), decl_buffer((16,), name="B"), Var("i"))
    f2 = _func(decl_buffer((16,), name="X"), decl_buffer((16,), name="Y"), Var("j"))
    assert_equal_and_hash(f1, f2)


def test_buffer_fields_compared():
    base = _func(decl_buffer((16,), name="A"), decl_buffer((16,)), Var("i"))
    cases = {
        "buffer_map[A].data.type_annotation.storage_scope":
            decl_buffer((16,), name="A", scope="shared"),
        "buffer_map[A].data_alignment": decl_buffer((16,), name="A", data_alignment=32),
        "buffer_map[A].strides[0]": decl_buffer((16,), name="A", strides=[1]),
        "buffer_map[A].offset_factor": decl_buffer((16,), name="A").with_changes(offset_factor=4),
    }
    for path, a in cases.items():
        other = _func(a, decl_buffer((16,)), Var("i"))
        assert mismatch_path(base, other).startswith(path), path


def test_buffer_swap_detected():
    a, b = decl_buffer((16,), name="A"), decl_buffer((16,), name="B")
    i = Var("i")
    f1 = PrimFunc([a, b], _copy_kernel(a, b, i))
    f2 = PrimFunc([a, b], _copy_kernel(b, a, i))
    assert mismatch_path(f1, f2) == "body.body.buffer"


def test_unmapped_buffers_compare_by_fields():
    a, b, c = (decl_buffer((8,), name=n) for n in "ABC")
    assert structural_equal(BufferLoad(a, [0]), BufferLoad(b, [0]))
    assert structural_hash(BufferLoad(a, [0])) == structural_hash(BufferLoad(b, [0]))
    # once A is matched with B, A cannot match C, nor another buffer match B
    assert not structural_equal(BufferStore(a, a[0], [0]), BufferStore(b, c[0], [0]))
    assert not structural_equal(BufferStore(a, c[0], [0]), BufferStore(b, b[0], [0]))
    assert not structural_equal(BufferLoad(a, [0]), BufferLoad(decl_buffer((9,)), [0]))


def test_symbolic_shape_defined_by_buffer():
    def func(name):
        n = Var(name)
        a = decl_buffer((n,), name="A", offset_factor=0)
        i = Var("i")
        body = For(i, 0, n, ForKind.SERIAL, BufferStore(a, a[i] * 2.0, [i]))
        return PrimFunc([a], body), n

    (f1, _), (f2, _) = func("n"), func("m")
    assert_equal_and_hash(f1, f2)
    # the loop extent must use the var the buffer's shape defined
    f3, _ = func("k")
    bad = f3.with_changes(body=f3.body.with_changes(extent=Var("other")))
    assert mismatch_path(f1, bad) == "body.extent"


def _block_func(a, b, alloc_in_block):
    i = Var("i")
    iv = IterVar(Range(0, 16), Var("vi"), IterVarType.DataPar)
    tmp = decl_buffer((16,), name="T", offset_factor=0)
    body = SeqStmt([BufferStore(tmp, a[iv.var], [iv.var]),
                    BufferStore(b, tmp[iv.var], [iv.var])])
    blk = Block([iv], [], [], "blk", body, alloc_buffers=[tmp] if alloc_in_block else [])
    return PrimFunc([a, b], For(i, 0, 16, ForKind.SERIAL, BlockRealize([i], True, blk))), tmp


def test_alloc_buffers_are_definitions():
    f1, _ = _block_func(decl_buffer((16,), name="A"), decl_buffer((16,), name="B"), True)
    f2, _ = _block_func(decl_buffer((16,), name="A"), decl_buffer((16,), name="B"), True)
    assert_equal_and_hash(f1, f2)
    f3, _ = _block_func(decl_buffer((16,), name="A"), decl_buffer((16,), name="B"), False)
    assert mismatch_path(f1, f3) == "body.body.block.alloc_buffers[0]"


def test_block_name_compared():
    f1, _ = _block_func(decl_buffer((16,)), decl_buffer((16,)), True)
    f2, _ = _block_func(decl_buffer((16,)), decl_buffer((16,)), True)
    f2 = f2.with_changes(body=f2.body.with_changes(body=f2.body.body.with_changes(
        block=f2.body.body.block.with_changes(name_hint="other"))))
    assert mismatch_path(f1, f2) == "body.body.block.name_hint"


def test_allocate_and_decl_buffer_define():
    def stmt(name):
        buf = decl_buffer((8,), name=name, offset_factor=0)
        return Allocate(buf.data, "float32", [8], True,
                        DeclBuffer(buf, BufferStore(buf, 1.0, [0])))

    assert_equal_and_hash(stmt("a"), stmt("b"))


def test_reduce_and_comm_reducer():
    def reduce(names):
        x, y = Var(names[0], "float32"), Var(names[1], "float32")
        comb = CommReducer([x], [y], [x + y], [FloatImm("float32", 0.0)])
        k = IterVar(Range(0, 8), Var(names[2]), IterVarType.CommReduce)
        a = decl_buffer((8,), name="A")
        return Reduce(comb, [a[k.var]], [k]), a

    (r1, a1), (r2, _) = reduce("xyk"), reduce("uvw")
    assert structural_equal(r1, r2)
    assert structural_hash(r1) == structural_hash(r2)
    r3 = r2.with_changes(combiner=r2.combiner.with_changes(
        result=[r2.combiner.rhs[0] + r2.combiner.lhs[0]]))
    assert mismatch_path(r1, r3) == "combiner.result[0].a"
    del a1


# ---------------------------------------------------------------------------------- modules
def _caller(callee_name):
    x = Var("x")
    body = Evaluate(Call("int32", GlobalVar(callee_name), [x]))
    return PrimFunc([x], body)


def test_module_with_two_functions():
    def module(order):
        funcs = {"f": _caller("g"), "g": _func(decl_buffer((16,)), decl_buffer((16,)), Var("i"))}
        return IRModule({k: funcs[k] for k in order})

    m1, m2 = module("fg"), module("gf")
    assert_equal_and_hash(m1, m2)
    m3 = IRModule({"f": _caller("h"), "g": m1["g"]})
    assert mismatch_path(m1, m3) == 'functions["f"].body.value.op.name_hint'
    m4 = IRModule({"f": m1["f"], "h": m1["g"]})
    assert mismatch_path(m1, m4) == 'functions["g"]'
    assert mismatch_path(m1, m1.with_attr("k", 1)) == 'attrs["k"]'


# ---------------------------------------------------------------------------- deep nesting
@pytest.mark.parametrize("depth", [1000, 4000])
def test_deep_expression_and_statement_chains(depth):
    x = Var("x")

    def expr():
        e = x
        for i in range(depth):
            e = Add(e, IntImm("int32", i))
        return e

    def lets():
        body = Evaluate(0)
        for i in range(depth):
            v = Var("v")
            body = LetStmt(v, i, body) if i % 2 else LetStmt(v, i, SeqStmt([Evaluate(v), body]))
        return body

    limit = sys.getrecursionlimit()
    assert_equal_and_hash(expr(), expr())
    assert_equal_and_hash(lets(), lets())
    assert not structural_equal(expr(), Add(expr(), IntImm("int32", 0)))
    assert sys.getrecursionlimit() == limit


# ------------------------------------------------------------------------------ hypothesis
N_FREE = 3
OPS = {"add": Add, "sub": Sub, "mul": Mul, "min": Min, "max": Max}
OP_NAMES = sorted(OPS)

leaf = st.one_of(st.tuples(st.just("const"), st.integers(-5, 5)),
                 st.tuples(st.just("var"), st.integers(0, N_FREE - 1)),
                 st.tuples(st.just("bound"), st.integers(0, 2)))
specs = st.recursive(
    leaf,
    lambda kids: st.one_of(st.tuples(st.just("bin"), st.sampled_from(OP_NAMES), kids, kids),
                           st.tuples(st.just("let"), kids, kids)),
    max_leaves=24)


def build(spec, free, env=()):
    """An expression from a spec: fresh let vars each time, ``free`` for free var slots."""
    kind = spec[0]
    if kind == "const":
        return IntImm("int32", spec[1])
    if kind == "var":
        return free[spec[1]]
    if kind == "bound":
        return env[-1 - spec[1]] if spec[1] < len(env) else free[0]
    if kind == "bin":
        return OPS[spec[1]](build(spec[2], free, env), build(spec[3], free, env))
    v = Var("t")
    return Let(v, build(spec[1], free, env), build(spec[2], free, env + (v,)))


def count(spec):
    return 1 + sum(count(s) for s in spec[1:] if isinstance(s, tuple))


def mutate(spec, n):
    """Change the ``n``-th node (preorder) so that the built expression differs structurally."""
    if n == 0:
        kind = spec[0]
        if kind == "const":
            return ("const", spec[1] + 1)
        if kind == "var":
            return ("var", (spec[1] + 1) % N_FREE)
        if kind == "bound":
            return ("const", 99)
        if kind == "bin":
            return ("bin", OP_NAMES[(OP_NAMES.index(spec[1]) + 1) % len(OP_NAMES)]) + spec[2:]
        return ("let", ("bin", "add", spec[1], ("const", 1)), spec[2])
    n -= 1
    out = [spec[0]]
    for part in spec[1:]:
        if isinstance(part, tuple) and n >= 0:
            size = count(part)
            out.append(mutate(part, n) if n < size else part)
            n -= size
        else:
            out.append(part)
    return tuple(out)


def fresh_free():
    return [Var(f"x{i}") for i in range(N_FREE)]


@settings(max_examples=150, deadline=None)
@given(specs)
def test_alpha_renamed_copies_equal(spec):
    free = fresh_free()
    a, b = build(spec, free), build(spec, free)
    assert_equal_and_hash(a, b)
    c = build(spec, fresh_free())
    assert_equal_and_hash(a, c, map_free_vars=True)


@settings(max_examples=150, deadline=None)
@given(specs, st.data())
def test_single_mutation_is_unequal(spec, data):
    n = data.draw(st.integers(0, count(spec) - 1))
    free = fresh_free()
    a, b = build(spec, free), build(mutate(spec, n), free)
    assert not structural_equal(a, b)
    assert not structural_equal(b, a)
    assert first_mismatch(a, b) is not None
    with pytest.raises(ValueError, match="StructuralEqual check failed"):
        assert_structural_equal(a, b)


@settings(max_examples=200, deadline=None)
@given(specs, specs, st.booleans())
def test_equal_implies_same_hash(spec_a, spec_b, map_free):
    free = fresh_free()
    a, b = build(spec_a, free), build(spec_b, free if not map_free else fresh_free())
    if structural_equal(a, b, map_free):
        assert structural_hash(a, map_free) == structural_hash(b, map_free)
    assert structural_equal(a, b, map_free) == structural_equal(b, a, map_free)
