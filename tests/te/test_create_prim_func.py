"""tirkit.te and create_prim_func (issue 16): the block-form PrimFuncs TVM makes, symbolic shapes
lifted to int64 parameters, compiled and run against NumPy."""
import gc

import numpy as np
import pytest

from tirkit import te, tir, topi
from tirkit.compiler import build
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source

ELEMENT_WISE = '''
@T.prim_func
def tir_element_wise(a: T.handle, b: T.handle):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    A = T.match_buffer(a, (128, 128))
    B = T.match_buffer(b, (128, 128))
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0
'''

MATMUL = '''
@T.prim_func
def matmul(A: T.Buffer((32, 64), "float32"), B: T.Buffer((64, 16), "float32"),
           C: T.Buffer((32, 16), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for i, j, k in T.grid(32, 16, 64):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
'''


def test_seed004_element_wise_equals_tvmscript():
    A = te.placeholder((128, 128), name="A")
    B = te.compute((128, 128), lambda x, y: A[x, y] * 2, name="B")
    func = te.create_prim_func([A, B])
    assert_structural_equal(func, from_source(ELEMENT_WISE))
    assert func.attrs["global_symbol"] == "main" and func.attrs["tir.noalias"]


def test_matmul_reduction_equals_tvmscript_and_runs():
    A = te.placeholder((32, 64), name="A")
    B = te.placeholder((64, 16), name="B")
    k = te.reduce_axis((0, 64), name="k")
    C = te.compute((32, 16), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
    func = te.create_prim_func([A, B, C])
    assert_structural_equal(func, from_source(MATMUL))
    a = np.random.default_rng(0).random((32, 64), dtype="float32")
    b = np.random.default_rng(1).random((64, 16), dtype="float32")
    c = np.empty((32, 16), "float32")
    build(func)(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


def test_intermediate_tensor_is_root_alloc_and_names_are_fresh():
    A = te.placeholder((8,), name="A")
    B = te.compute((8,), lambda i: A[i] + 1.0, name="T")
    C = te.compute((8,), lambda i: B[i] * 2.0, name="T")
    func = te.create_prim_func([A, C])
    root = func.body.block
    assert [b.name for b in root.alloc_buffers] == ["T"]
    text = func.script()
    assert 'T.block("T")' in text and 'T.block("T_1")' in text
    a = np.arange(8, dtype="float32")
    c = np.empty_like(a)
    build(func)(a, c)
    np.testing.assert_allclose(c, (a + 1) * 2)


def test_intermediate_nothing_else_holds_survives_a_gc_before_create_prim_func():
    """An intermediate tensor only the next op's body reads (through its buffer) must stay in
    the graph after a cyclic GC: once it was collected, create_prim_func silently dropped its
    block and alloc_buffer, and a Relax build failed in MakePackedAPI with "variables
    [T_softmax_maxelem] are used, but are not passed in as API arguments" whenever a GC ran
    between legalizing softmax and creating its PrimFunc (a flaky test)."""
    from tirkit import topi

    x = te.placeholder((3, 4), name="x")
    y = topi.nn.softmax(x)
    A = te.placeholder((8,), name="A")
    C = te.compute((8,), lambda i: te.compute((8,), lambda j: A[j] + 1.0, name="B")[i] * 2.0,
                   name="C")
    gc.collect()
    soft = te.create_prim_func([x, y])
    assert [b.name for b in soft.body.block.alloc_buffers] == \
        ["T_softmax_maxelem", "T_softmax_exp", "T_softmax_expsum"]
    xs = np.random.default_rng(0).standard_normal((3, 4)).astype("float32")
    out = np.empty_like(xs)
    build(soft)(xs, out)
    e = np.exp(xs - xs.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-6)
    func = te.create_prim_func([A, C])
    assert [b.name for b in func.body.block.alloc_buffers] == ["B"]
    a = np.arange(8, dtype="float32")
    c = np.empty_like(a)
    build(func)(a, c)
    np.testing.assert_allclose(c, (a + 1) * 2)


def test_symbolic_shape_lifts_int64_param_and_runs_for_two_sizes():
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    A = te.placeholder((n, 2 * tir.floordiv(m, 2)), name="A")
    B = te.compute(A.shape, lambda i, j: A[i, j] + 1.0, name="B")
    func = te.create_prim_func([A, B])
    assert [p.name_hint for p in func.params] == ["A", "B", "m"]
    assert func.params[2].dtype == "int64" and func.params[2] is m
    assert "m: T.int64" in func.script()
    kernel = build(func)
    for rows, cols in ((3, 4), (5, 8)):
        a = np.random.default_rng(rows).random((rows, cols), dtype="float32")
        b = np.empty_like(a)
        kernel(a, b, cols)
        np.testing.assert_allclose(b, a + 1)


def test_max_min_and_where():
    A = te.placeholder((4, 6), name="A")
    k = te.reduce_axis((0, 6), name="k")
    mx = te.compute((4,), lambda i: te.max(A[i, k], axis=k), name="mx")
    k2 = te.reduce_axis((0, 6), name="k2")
    pos = te.compute((4,), lambda i: te.sum(A[i, k2], axis=k2, where=A[i, k2] > 0.0), name="pos")
    a = np.random.default_rng(2).standard_normal((4, 6)).astype("float32")
    out_mx, out_pos = np.empty(4, "float32"), np.empty(4, "float32")
    build(te.create_prim_func([A, mx]))(a, out_mx)
    build(te.create_prim_func([A, pos]))(a, out_pos)
    np.testing.assert_allclose(out_mx, a.max(axis=1))
    np.testing.assert_allclose(out_pos, np.where(a > 0, a, 0).sum(axis=1), rtol=1e-6)


def test_errors():
    A = te.placeholder((4,), name="A")
    with pytest.raises(ValueError, match="takes 2 indices but the shape has 1"):
        te.compute((4,), lambda i, j: A[i])
    B = te.compute((4,), lambda i: A[i] * 2.0, name="B")
    with pytest.raises(te.CreatePrimFuncError, match="placeholder 'A' is read but is not one"):
        te.create_prim_func([B])
    with pytest.raises(IndexError, match="has 1 dimensions, indexed with 2"):
        A[0, 1]  # pylint: disable=pointless-statement


def test_tensors_and_buffers_are_not_iterable():
    """``t[i]`` indexes a te.Tensor and ``A[i]`` a Buffer; without ``__iter__`` Python iterated
    them through ``__getitem__`` without end (``x, y = A`` never finished)."""
    a = te.placeholder((4,), name="a")
    for obj, name in ((a, "tensor 'a'"), (tir.decl_buffer((4,), "float32", "A"), "buffer 'A'")):
        with pytest.raises(TypeError, match=f"{name} is not iterable"):
            list(obj)


def test_a_scalar_var_argument_is_a_parameter_of_its_dtype():
    """create_prim_func([A, B, n]) with a float32 scalar n read by the compute: TVM's
    CreatePrimFunc makes n a parameter; tirkit dropped it from the list and then refused it
    ("symbolic variable 'n' must be int64"). A shape var listed explicitly keeps its place."""
    A = te.placeholder((16,), name="A")
    n = te.var("n", "float32")
    B = te.compute((16,), lambda i: A[i] * n, name="B")
    func = te.create_prim_func([A, B, n])
    assert [p.name_hint for p in func.params] == ["A", "B", "n"] and func.params[2] is n
    a, b = np.arange(16, dtype="float32"), np.zeros(16, "float32")
    build(func)(a, b, 2.5)
    np.testing.assert_allclose(b, a * 2.5)
    m = te.var("m", "int32")
    C = te.compute((m,), lambda i: A[i] + 1.0, name="C")
    func = te.create_prim_func([m, A, C])
    assert [p.name_hint for p in func.params] == ["m", "A", "C"]
    c = np.zeros(5, "float32")
    build(func)(5, a, c)
    np.testing.assert_allclose(c, a[:5] + 1)


@pytest.mark.parametrize("make,error,words", [
    (lambda A: te.create_prim_func([A, 1]), TypeError,
     "argument 1 must be a te.Tensor or a tir.Var, got int 1"),
    (lambda A: A[0, 1.5], TypeError, "tensor 'A' is indexed with 1.5"),
    (lambda A: te.reduce_axis((0, 1.5)), TypeError, "the bounds must be ints"),
    (lambda A: te.compute((4,), lambda i: te.sum(A[i, 0], axis=None)), TypeError,
     "te.sum: axis must be reduce axes"),
    (lambda A: te.compute((4,), lambda i: te.sum(A[i, 0], axis=i)), TypeError,
     "te.sum: axis must be reduce axes"),
    (lambda A: te.placeholder((-1, 4)), ValueError, "a shape dimension must be >= 0, got -1"),
    (lambda A: topi.matmul(A, te.placeholder((3, 5))), ValueError,
     r"the reduction extents differ: 4 \(of \[4, 4\]\) and 3"),
])
def test_wrong_arguments_are_clear_errors(make, error, words):
    """Found by probing the TE API with wrong arguments: a non-tensor in create_prim_func's list
    was silently dropped; a float index, a float reduce bound and axis=None were accepted or
    crashed later with AttributeError; topi.matmul of (4, 4) @ (3, 5) built a kernel reading
    out of bounds."""
    A = te.placeholder((4, 4), name="A")
    with pytest.raises(error, match=words):
        make(A)
