"""FastMathTransform (TVM's relax.transform.FastMathTransform): softmax, exp and tanh become
call_tir calls of topi's fast-math PrimFuncs -- the module TVM's test expects, built with
emit_te -- and the transformed model runs on the VM with NumPy's numbers."""
import numpy as np

from tirkit import relax, topi
from tirkit.ir import assert_structural_equal
from tirkit.relax import op
from tirkit.relax.transform import FastMathTransform


def _model(shape, ops):
    x = relax.Var("x", relax.TensorStructInfo(shape, "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        v = x
        for fn in ops:
            v = bb.emit(fn(v))
        bb.emit_func_output(v)
    return bb.get()


def test_calls_become_topi_fast_math_as_in_tvms_test():
    before = _model((16,), [op.nn.softmax, op.exp, op.tanh])
    x = relax.Var("x", relax.TensorStructInfo((16,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        lv1 = bb.emit_te(topi.nn.fast_softmax, x, -1)
        lv2 = bb.emit_te(topi.fast_exp, lv1)
        lv3 = bb.emit_te(topi.fast_tanh, lv2)
        bb.emit_func_output(lv3)
    after = FastMathTransform()(before)
    assert_structural_equal(after, bb.get())
    text = after.script()
    assert "cls.fast_softmax" in text and "cls.fast_exp" in text and "cls.fast_tanh" in text


def test_module_without_those_ops_is_returned_as_is():
    mod = _model((4, 8), [op.nn.relu, op.sigmoid])
    assert FastMathTransform()(mod) is mod


def test_transformed_model_runs_with_numpys_numbers():
    mod = FastMathTransform()(_model((8, 100), [op.nn.softmax, op.exp, op.tanh]))
    x = np.random.default_rng(0).standard_normal((8, 100), dtype=np.float32) * 5
    got = relax.VirtualMachine(relax.build(mod))["main"](x)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    want = np.tanh(np.exp(e / e.sum(axis=1, keepdims=True)))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)
