"""Tuple reducers (argmax as TVM's tests write it), multi-output computes, and topi conv2d /
softmax equal to hand-written TVMScript (issue 16)."""
import numpy as np
import pytest

from tirkit import te, tir, topi
from tirkit.compiler import build
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source

ARGMAX_IDX_VAL = '''
@T.prim_func
def tir_argmax_idx_val(var_idx: T.handle, var_val: T.handle, var_argmax_v0: T.handle,
                       var_argmax_v1: T.handle) -> None:
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    m = T.int32()
    n = T.int32()
    idx = T.match_buffer(var_idx, [m, n], dtype="int32")
    val = T.match_buffer(var_val, [m, n], dtype="float32")
    argmax_v0 = T.match_buffer(var_argmax_v0, [m], dtype="int32")
    argmax_v1 = T.match_buffer(var_argmax_v1, [m], dtype="float32")
    for i0, i1 in T.grid(m, n):
        with T.block("argmax"):
            i, k = T.axis.remap("SR", [i0, i1])
            T.reads(val[i, k], idx[i, k])
            T.writes(argmax_v0[i], argmax_v1[i])
            with T.init():
                argmax_v0[i] = T.int32(-1)
                argmax_v1[i] = T.min_value("float32")
            v_argmax_v0: T.int32 = T.Select(argmax_v1[i] >= val[i, k], argmax_v0[i], idx[i, k])
            v_argmax_v1: T.float32 = T.Select(argmax_v1[i] >= val[i, k], argmax_v1[i], val[i, k])
            argmax_v0[i] = v_argmax_v0
            argmax_v1[i] = v_argmax_v1
'''


def test_argmax_comm_reducer_as_tvm_tests_write_it():
    def f_combine(x, y):
        lhs = tir.Select((x[1] >= y[1]), x[0], y[0])
        rhs = tir.Select((x[1] >= y[1]), x[1], y[1])
        return lhs, rhs

    def f_identity(dtype0, dtype1):
        return tir.const(-1, dtype0), tir.min_value(dtype1)

    argmax = te.comm_reducer(f_combine, f_identity, name="argmax")
    m, n = te.var("m"), te.var("n")
    idx = te.placeholder((m, n), name="idx", dtype="int32")
    val = te.placeholder((m, n), name="val", dtype="float32")
    k = te.reduce_axis((0, n), "k")
    max_idx, max_val = te.compute((m,), lambda i: argmax((idx[i, k], val[i, k]), axis=k),
                                  name="argmax")
    func = te.create_prim_func([idx, val, max_idx, max_val])
    assert_structural_equal(func, from_source(ARGMAX_IDX_VAL))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [1, (1, 2), None])
def test_topi_argmax_argmin_match_numpy_first_index_on_ties(name, axis):
    A = te.placeholder((3, 4, 5), name="A")
    B = getattr(topi, name)(A, axis)
    a = np.random.default_rng(0).integers(0, 3, (3, 4, 5)).astype("float32")  # many ties
    out = np.empty([int(d) for d in B.shape], "int32")
    build(te.create_prim_func([A, B]))(a, out)
    ref = getattr(a.reshape(3, 20), name)(1) if axis == (1, 2) else getattr(a, name)(axis)
    np.testing.assert_array_equal(out, ref)


def test_multi_output_compute_gets_one_block_per_output_with_fresh_iters():
    A = te.placeholder((4, 3), name="A")
    B, C = te.compute((4, 3), lambda i, j: (A[i, j] + 1.0, A[i, j] * 2.0), name="BC")
    func = te.create_prim_func([A, B, C])
    blocks = func.body.block.body.body.body.seq
    assert [b.block.name_hint for b in blocks] == ["BC_v0", "BC_v1"]
    assert blocks[0].block.iter_vars[0].var is not blocks[1].block.iter_vars[0].var
    a = np.arange(12, dtype="float32").reshape(4, 3)
    b, c = np.empty_like(a), np.empty_like(a)
    build(func)(a, b, c)
    np.testing.assert_array_equal(b, a + 1)
    np.testing.assert_array_equal(c, a * 2)
    assert (B.op is C.op) and B.value_index == 0 and C.value_index == 1


CONV2D = '''
@T.prim_func
def conv2d(X: T.Buffer((1, 2, 5, 5), "float32"), W: T.Buffer((3, 2, 3, 3), "float32"),
           conv: T.Buffer((1, 3, 5, 5), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    pad_temp = T.alloc_buffer((1, 2, 7, 7))
    for i0, i1, i2, i3 in T.grid(1, 2, 7, 7):
        with T.block("PadInput"):
            n, c, h, w = T.axis.remap("SSSS", [i0, i1, i2, i3])
            pad_temp[n, c, h, w] = T.if_then_else(1 <= h and h < 6 and 1 <= w and w < 6,
                                                  X[n, c, h - 1, w - 1], T.float32(0))
    for nn, ff, yy, xx, rc, ry, rx in T.grid(1, 3, 5, 5, 2, 3, 3):
        with T.block("conv2d_nchw"):
            n, f, y, x, c, dy, dx = T.axis.remap("SSSSRRR", [nn, ff, yy, xx, rc, ry, rx])
            with T.init():
                conv[n, f, y, x] = T.float32(0)
            conv[n, f, y, x] = conv[n, f, y, x] + pad_temp[n, c, y + dy, x + dx] * W[f, c, dy, dx]
'''

SOFTMAX = '''
@T.prim_func
def softmax(S: T.Buffer((4, 8), "float32"), out: T.Buffer((4, 8), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    maxelem = T.alloc_buffer((4,))
    ex = T.alloc_buffer((4, 8))
    expsum = T.alloc_buffer((4,))
    for i, k in T.grid(4, 8):
        with T.block("T_softmax_maxelem"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                maxelem[vi] = T.min_value("float32")
            maxelem[vi] = T.max(maxelem[vi], S[vi, vk])
    for i, j in T.grid(4, 8):
        with T.block("T_softmax_exp"):
            vi, vj = T.axis.remap("SS", [i, j])
            ex[vi, vj] = T.exp(S[vi, vj] - maxelem[vi])
    for i, k in T.grid(4, 8):
        with T.block("T_softmax_expsum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                expsum[vi] = T.float32(0)
            expsum[vi] = expsum[vi] + ex[vi, vk]
    for i, j in T.grid(4, 8):
        with T.block("T_softmax_norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.block_attr({"axis": 1})
            out[vi, vj] = ex[vi, vj] / expsum[vi]
'''


def test_topi_conv2d_and_softmax_equal_hand_written_tvmscript():
    X, W = te.placeholder((1, 2, 5, 5), name="X"), te.placeholder((3, 2, 3, 3), name="W")
    conv = te.create_prim_func([X, W, topi.nn.conv2d_nchw(X, W, 1, 1, 1)])
    assert_structural_equal(conv, from_source(CONV2D))
    S = te.placeholder((4, 8), name="S")
    assert_structural_equal(te.create_prim_func([S, topi.nn.softmax(S)]), from_source(SOFTMAX))
