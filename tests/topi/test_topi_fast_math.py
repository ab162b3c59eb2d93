"""``topi.fast_exp``/``fast_tanh``/``fast_erf`` (TVM's fast-math TOPI ops) built and run, plain
and vectorized, against NumPy in float64 over TVM's test ranges on a 0.01 grid (TVM's
``tests/python/topi/test_topi_math.py`` asserts ``rtol = atol = 1e-5``, 1e-1 for float16 erf),
plus the tighter bounds the docstrings state; the vectorized kernels' LLVM IR holds no ``exp``,
``tanh`` or ``erf`` call."""
import json
import math
import platform
from pathlib import Path

import numpy as np
import pytest

from tirkit import te, topi
from tirkit.compiler import build, compile_module
from tirkit.schedule import Schedule

_erf = np.vectorize(math.erf)
# op, reference, input range (TVM's), TVM's tolerance, the bound the docstring states (abs/rel)
CASES = {
    "fast_exp": (np.exp, (-88, 88), 1e-5, ("rel", 5e-6)),
    "fast_tanh": (np.tanh, (-10, 10), 1e-5, ("abs", 1e-6)),
    "fast_erf": (_erf, (-10, 10), 1e-5, ("abs", 1e-6)),
}
# tirkit (host CPU: FMAs) vs TVM's generic x86-64 "llvm" target (no FMA), see the last test
ULPS = {"fast_exp": 1, "fast_tanh": 8, "fast_erf": 8}


def _func(op, n, dtype="float32", lanes=0):
    A = te.placeholder((n,), dtype, name="A")
    B = getattr(topi, op)(A) if isinstance(op, str) else op(A)
    sch = Schedule(te.create_prim_func([A, B]).with_attr("global_symbol", "k"))
    if lanes:
        (i,) = sch.get_loops(sch.get_block(B.op.name))
        sch.vectorize(sch.split(i, [None, lanes])[1])
    return sch.mod, B.dtype


def _run(op, x, lanes=0, target="llvm"):
    mod, out_dtype = _func(op, x.size, str(x.dtype), lanes)
    out = np.zeros(x.shape, out_dtype)
    build(mod, target=target)["k"](x, out)
    return out


def _grid(lo, hi, dtype="float32"):
    return np.arange(lo, hi + 0.005, 0.01).astype(dtype)


@pytest.mark.parametrize("lanes", [0, 8], ids=["scalar", "vectorized"])
@pytest.mark.parametrize("op", sorted(CASES))
def test_accuracy_on_tvm_ranges(op, lanes):
    ref, (lo, hi), tol, (kind, bound) = CASES[op]
    x = _grid(lo, hi)
    x = x[: x.size - x.size % 8]  # whole vectors
    got, want = _run(op, x, lanes), ref(x.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)  # TVM's assertion
    if kind == "rel":  # fast_exp: relative, where exp(x) is a normal float32
        normal = want > np.finfo(np.float32).tiny
        assert np.max(np.abs(got - want)[normal] / want[normal]) < bound
    else:
        assert np.max(np.abs(got - want)) < bound


def test_fast_erf_float16_within_tvms_tolerance():
    x = _grid(-10, 10, "float16")
    got = _run("fast_erf", x)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype(np.float64), _erf(x.astype(np.float64)),
                               rtol=1e-1, atol=1e-1)
    # 1.041 at the clamp (TVM computes the same): float16 constants and arithmetic
    assert np.max(np.abs(got.astype(np.float64) - _erf(x.astype(np.float64)))) < 5e-2


@pytest.mark.parametrize("lanes", [0, 8], ids=["scalar", "vectorized"])
def test_fast_exp_edges(lanes):
    """The clamp to [-88.376, 88.376] and the final ``max(.., x)``: overflow to +inf, underflow
    to 0, NaN through, and the exact points 0 -> 1, 1 -> e."""
    x = np.array([np.inf, 1000, 88.5, 88.3, -87.5, -88.0, -1000, -np.inf, np.nan, 0, 1, -1, 10,
                  -10, 50, -50], np.float32)
    got = _run("fast_exp", x, lanes)
    assert got[0] == got[1] == got[2] == np.inf
    assert np.isfinite(got[3]) and abs(got[3] / np.exp(np.float64(88.3)) - 1) < 5e-6
    assert 0 < got[4] < 1.2e-38  # a subnormal result, not flushed
    assert got[5] == got[6] == got[7] == 0
    assert np.isnan(got[8])
    assert got[9] == 1
    np.testing.assert_allclose(got[10:], np.exp(x[10:].astype(np.float64)), rtol=5e-6)


def test_fast_tanh_and_erf_saturate_at_the_clamp():
    x = np.array([-np.inf, -1e30, -9, 9, 1e30, np.inf, 0], np.float32)
    tanh, erf = _run("fast_tanh", x), _run("fast_erf", x)
    np.testing.assert_allclose(tanh, [-1, -1, -1, 1, 1, 1, 0], atol=1e-6)
    np.testing.assert_allclose(erf, [-1, -1, -1, 1, 1, 1, 0], atol=1e-6)
    assert tanh[-1] == 0 and erf[-1] == 0


def _math_calls(llvm_ir):
    """The callees of the IR's calls that are libm/LLVM math functions (``llvm.exp.v8f32``,
    ``expf``, ``erff``, ``tanhf`` ...)."""
    callees = {ln.split(" call ", 1)[1].split("(")[0].split("@")[-1]
               for ln in llvm_ir.splitlines() if " call " in ln}
    return sorted(c for c in callees if any(m in c for m in ("exp", "tanh", "erf", "log")))


@pytest.mark.parametrize("op", ["fast_exp", "fast_tanh", "fast_erf"])
def test_vectorized_ir_has_no_math_call(op):
    """The point of the fast ops: a vectorized loop stays vector arithmetic, where the exact op
    is an ``llvm.exp.v8f32`` (tanh lowers to it too) or a scalar ``erff`` call per lane."""
    fast = compile_module(_func(op, 1024, lanes=8)[0], opt_level=3).llvm_ir
    assert "<8 x float>" in fast
    assert not _math_calls(fast)
    if op == "fast_exp":  # 2**n by an integer shift into the exponent bits, vectorized in TIR
        assert "shl <8 x i32>" in fast
        lowered = compile_module(_func(op, 1024, lanes=8)[0], opt_level=3).lowered.script()
        assert 'T.reinterpret("float32x8"' in lowered
    exact = compile_module(_func(op[len("fast_"):], 1024, lanes=8)[0], opt_level=3).llvm_ir
    assert _math_calls(exact)


@pytest.mark.parametrize("op", ["fast_exp", "fast_tanh"])
def test_integer_input_is_cast_to_float32_as_in_tvm(op):
    x = np.arange(-5, 6, dtype=np.int32)
    got = _run(op, x)
    assert got.dtype == np.float32
    ref = np.exp if op == "fast_exp" else np.tanh
    np.testing.assert_allclose(got, ref(x.astype(np.float64)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op, exact, block", [("fast_exp", "exp", "T_fast_exp"),
                                              ("fast_tanh", "tanh", "T_fast_tanh"),
                                              ("fast_erf", "erf", "T_erf")])
def test_float64_falls_back_to_the_exact_op_as_in_tvm(op, exact, block):
    A = te.placeholder((4,), "float64", name="A")
    B = getattr(topi, op)(A)
    assert B.dtype == "float64" and B.op.name == block
    assert f"tir.{exact}" in str(B.op.body[0])
    x = np.array([-2.0, -0.5, 0.25, 3.0])
    ref = {"exp": np.exp, "tanh": np.tanh, "erf": _erf}[exact]
    np.testing.assert_allclose(_run(op, x), ref(x), rtol=1e-12)


def test_float32_bodies_have_no_math_call():
    A = te.placeholder((4,), name="A")
    for op, call in (("fast_exp", "tir.exp"), ("fast_tanh", "tir.tanh"), ("fast_erf", "tir.erf")):
        B = getattr(topi, op)(A)
        assert B.op.name == "T_" + op and B.op.tag == "elemwise"
        assert call not in str(B.op.body[0])


@pytest.mark.parametrize("op, dtype", [("fast_exp", "bool"), ("fast_tanh", "bool"),
                                       ("fast_erf", "int32"), ("fast_erf", "bool"),
                                       ("fast_exp", "float32x4")])
def test_non_float_dtypes_are_refused_naming_the_dtype(op, dtype):
    A = te.placeholder((4,), dtype, name="A")
    with pytest.raises(TypeError, match=f"{op}: .*got dtype {dtype}"):
        getattr(topi, op)(A)


REFERENCE = json.loads((Path(__file__).parent / "tvm_reference" / "fast_math.json")
                       .read_text(encoding="utf-8"))


@pytest.mark.parametrize("target", [
    "llvm",
    pytest.param("llvm -mcpu=x86-64", marks=pytest.mark.skipif(
        platform.machine() not in ("x86_64", "AMD64"), reason="an x86-64 target"))])
@pytest.mark.parametrize("lanes", [0, 8], ids=["scalar", "vectorized"])
@pytest.mark.parametrize("op", sorted(CASES))
def test_agrees_with_tvms_compiled_op(op, lanes, target):
    """Against TVM 0.27's own ``topi.<op>`` outputs (tvm_reference/make_fast_math.py, TVM's
    ``"llvm"`` target: generic x86-64): for the same generic CPU, bit for bit -- the same
    constants, evaluation order and rounding; for the host CPU within a few ulp, since tirkit's
    ``llvm.fmuladd`` becomes an FMA there."""
    x = np.array(REFERENCE[op]["x"], np.uint32).view(np.float32)
    want = np.array(REFERENCE[op]["y"], np.uint32).view(np.float32)
    got = _run(op, x, lanes, target)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    same = ~np.isnan(want)
    if target == "llvm":
        np.testing.assert_array_max_ulp(got[same], want[same], maxulp=ULPS[op])
    else:
        np.testing.assert_array_equal(got[same].view(np.uint32), want[same].view(np.uint32))
