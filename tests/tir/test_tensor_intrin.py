"""TensorIntrin (tvm.tir.TensorIntrin): the registry's checks, and every built-in CPU intrinsic's
impl computing what its desc describes (both compiled with tirkit.compiler.build and run)."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.lang import from_source
from tirkit.tir import TensorIntrin
from tirkit.tir.tensor_intrin import cpu, list_registered


def _func(src):
    return from_source("from tvm.script import tir as T\n\n" + src)


ONE = _func("@T.prim_func\ndef f(a: T.handle):\n    A = T.match_buffer(a, (4,))\n"
            "    A[0] = T.float32(1)\n")
TWO = _func("@T.prim_func\ndef g(a: T.handle, b: T.handle):\n    A = T.match_buffer(a, (4,))\n"
            "    B = T.match_buffer(b, (4,))\n    A[0] = B[0]\n")
SCALAR = _func("@T.prim_func\ndef h(n: T.int32):\n    T.evaluate(n)\n")


def test_register_get_and_override():
    TensorIntrin.register("test_intrin_one", ONE, ONE)
    assert TensorIntrin.get("test_intrin_one").desc is ONE
    with pytest.raises(ValueError, match="already been registered"):
        TensorIntrin.register("test_intrin_one", ONE, ONE)
    TensorIntrin.register("test_intrin_one", TWO, TWO, override=True)
    assert TensorIntrin.get("test_intrin_one").impl is TWO
    assert "test_intrin_one" in list_registered()


def test_missing_and_malformed_intrinsics():
    assert TensorIntrin.get("no_such_intrin", allow_missing=True) is None
    with pytest.raises(ValueError, match="'no_such_intrin' is not registered"):
        TensorIntrin.get("no_such_intrin")
    with pytest.raises(ValueError, match="number of parameters"):
        TensorIntrin(ONE, TWO)
    with pytest.raises(ValueError, match="handle only"):
        TensorIntrin(SCALAR, SCALAR)


CASES = {
    cpu.VEC_FMA_16_F32_INTRIN: ((1,), (16,), (16,), lambda a, b, c: c + a[0] * b),
    cpu.VEC_FMA_4_F32_INTRIN: ((1,), (4,), (4,), lambda a, b, c: c + a[0] * b),
    cpu.VEC_DOT_4_F32_INTRIN: ((4,), (4,), (1,), lambda a, b, c: c + np.dot(a, b)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_impl_computes_what_desc_describes(name):
    intrin = TensorIntrin.get(name)
    sa, sb, sc, ref = CASES[name]
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(s).astype("float32") for s in (sa, sb, sc))
    expected = ref(a, b, c)
    for func in (intrin.desc, intrin.impl):
        kernel = build(func.with_changes(attrs={**func.attrs, "global_symbol": "main"}))["main"]
        out = c.copy()
        kernel(a, b, out)
        np.testing.assert_allclose(out, expected, rtol=1e-5)
    assert "Ramp" in intrin.impl.script() and "Ramp" not in intrin.desc.script()
