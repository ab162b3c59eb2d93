"""Seed 004's EmitTE examples and whole models through BlockBuilder / @R.function, the graph
pipeline and the VM, checked against NumPy (issue 12 acceptance)."""
import numpy as np
import pytest

from tirkit import relax, te, tir, topi
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source
from tirkit.relax import op

RNG = np.random.default_rng(0)


def rand(*shape):
    return RNG.standard_normal(shape).astype("float32")


def roundtrip(mod):
    assert_structural_equal(from_source(mod.script()), mod)


def test_seed004_first_example():
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, m), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit(op.add(x, relax.const(1.0, "float32")))          # x + 1
            A = relax.te_tensor(a)                                          # D0
            assert A.shape[0] is n and A.shape[1] is m
            b = bb.emit_te(lambda X: te.compute((n, m), lambda i, j: X[i, j] * 2, name="B"), a)

            def te_func(X, Y):                                              # D1
                return te.compute((n, m), lambda i, j: X[i, j] + Y[i, j], name="C")
            c = bb.emit_te(te_func, x, b)                                   # D2: a call_tir
            gv = bb.emit_output(c)
        bb.emit_func_output(gv)
    mod = bb.get()
    text = mod.script()
    assert "R.call_tir(cls.B, (lv,)" in text and "R.call_tir(cls.te_func, (x, lv_1)" in text
    roundtrip(mod)
    xs = rand(3, 5)
    np.testing.assert_allclose(relax.VirtualMachine(relax.build(mod))["main"](xs),
                               xs + (xs + 1) * 2, rtol=1e-6)


def test_seed004_dynamic_shape_gives_call_tir_dyn():
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 2 * tir.floordiv(m, 2)), "float32"))
    s = relax.Var("s", relax.ShapeStructInfo([m]))     # binds m at run time
    bb = relax.BlockBuilder()
    with bb.function("main", [x, s]):
        with bb.dataflow():
            b = bb.emit_te(lambda A: te.compute(A.shape, lambda i, j: A[i, j] + 1.0, name="B"), x)
            gv = bb.emit_output(b)
        bb.emit_func_output(gv)
    mod = bb.get()
    call = mod["main"].body.blocks[0].bindings[0].value
    assert call.op.name == "relax.call_tir_dyn"
    assert [v for v in call.args[2].values] == [m]             # m passed as a symbolic int
    prim = mod["B"]
    assert [p.dtype for p in prim.params][-1] == "int64"
    assert "R.call_tir_dyn(cls.B, (x,), R.shape([m])" in mod.script()
    roundtrip(mod)
    vm = relax.VirtualMachine(relax.build(mod))
    for rows, mm in ((2, 4), (3, 7)):
        xs = rand(rows, 2 * (mm // 2))
        np.testing.assert_allclose(vm["main"](xs, (mm,)), xs + 1)


MLP = '''
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class MLP:
    @R.function
    def main(x: R.Tensor((n, 16), "float32"), w1: R.Tensor((16, 8), "float32"),
             b1: R.Tensor((8,), "float32"), w2: R.Tensor((8, 4), "float32")
             ) -> R.Tensor((n, 4), "float32"):
        with R.dataflow():
            h = R.matmul(x, w1)
            h1 = R.add(h, b1)
            h2 = R.nn.relu(h1)
            o = R.matmul(h2, w2)
            gv = R.nn.softmax(o, axis=-1)
            R.output(gv)
        return gv
'''

CNN = '''
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class CNN:
    @R.function
    def main(x: R.Tensor((n, 3, 8, 8), "float32"), k: R.Tensor((4, 3, 3, 3), "float32"),
             w: R.Tensor((5, 64), "float32")) -> R.Tensor((n, 5), "float32"):
        with R.dataflow():
            c = R.nn.conv2d(x, k, padding=(1, 1))
            r = R.nn.relu(c)
            p = R.nn.max_pool2d(r, pool_size=(2, 2), strides=(2, 2))
            f = R.reshape(p, (n, 64))
            wt = R.permute_dims(w)
            gv = R.matmul(f, wt)
            R.output(gv)
        return gv
'''


def mlp_ref(x, w1, b1, w2):
    o = np.maximum(x @ w1 + b1, 0) @ w2
    e = np.exp(o - o.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def cnn_ref(x, k, w):
    n = x.shape[0]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    c = np.zeros((n, 4, 8, 8), "float32")
    for y in range(8):
        for z in range(8):
            c[:, :, y, z] = np.einsum("ncij,fcij->nf", xp[:, :, y:y + 3, z:z + 3], k)
    r = np.maximum(c, 0)
    p = r.reshape(n, 4, 4, 2, 4, 2).max(axis=(3, 5))
    return p.reshape(n, 64) @ w.T


def mlp_builder():
    n = tir.Var("n", "int64")
    ts = relax.TensorStructInfo
    x, w1 = relax.Var("x", ts((n, 16), "float32")), relax.Var("w1", ts((16, 8), "float32"))
    b1, w2 = relax.Var("b1", ts((8,), "float32")), relax.Var("w2", ts((8, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w1, b1, w2]):
        with bb.dataflow():
            h = bb.emit(op.nn.relu(op.add(op.matmul(x, w1), b1)))
            o = bb.emit_te(topi.matmul, h, w2)                       # a topi operator staged
            gv = bb.emit_output(op.nn.softmax(o))
        bb.emit_func_output(gv)
    return bb.get()


def cnn_builder():
    n = tir.Var("n", "int64")
    ts = relax.TensorStructInfo
    x = relax.Var("x", ts((n, 3, 8, 8), "float32"))
    k, w = relax.Var("k", ts((4, 3, 3, 3), "float32")), relax.Var("w", ts((5, 64), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, k, w]):
        with bb.dataflow():
            c = bb.emit(op.nn.relu(op.nn.conv2d(x, k, padding=1)))
            p = bb.emit(op.nn.max_pool2d(c, pool_size=2, strides=2))
            f = bb.emit(op.reshape(p, (n, 64)))
            gv = bb.emit_output(bb.emit_te(topi.nn.dense, f, w))
        bb.emit_func_output(gv)
    return bb.get()


@pytest.mark.parametrize("make", [lambda: from_source(MLP), mlp_builder],
                         ids=["tvmscript", "blockbuilder"])
def test_mlp_matches_numpy_for_batch_1_and_7(make):
    mod = make()
    roundtrip(mod)
    vm = relax.VirtualMachine(relax.build(mod))
    w1, b1, w2 = rand(16, 8), rand(8), rand(8, 4)
    for batch in (1, 7):
        x = rand(batch, 16)
        np.testing.assert_allclose(vm["main"](x, w1, b1, w2), mlp_ref(x, w1, b1, w2),
                                   rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("make", [lambda: from_source(CNN), cnn_builder],
                         ids=["tvmscript", "blockbuilder"])
def test_cnn_matches_numpy_for_batch_1_and_7(make):
    mod = make()
    roundtrip(mod)
    vm = relax.VirtualMachine(relax.build(mod))
    k, w = rand(4, 3, 3, 3), rand(5, 64)
    for batch in (1, 7):
        x = rand(batch, 3, 8, 8)
        np.testing.assert_allclose(vm["main"](x, k, w), cnn_ref(x, k, w), rtol=1e-4, atol=1e-4)


def test_fusion_keeps_results_and_fuses_elementwise_epilogue():
    mod = from_source(MLP)
    fused = relax.pipeline.run_graph_pipeline(mod)
    names = sorted(g.name_hint for g in fused.functions)
    assert any(name.startswith("fused_") for name in names), names
    w1, b1, w2, x = rand(16, 8), rand(8), rand(8, 4), rand(3, 16)
    plain = relax.VirtualMachine(relax.build(mod, fuse=False))["main"](x, w1, b1, w2)
    fast = relax.VirtualMachine(relax.build(mod))["main"](x, w1, b1, w2)
    np.testing.assert_allclose(plain, fast, rtol=1e-6)
