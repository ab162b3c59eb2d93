"""``topi.nn.fast_softmax`` (TVM's softmax with ``fast_exp``) against NumPy."""
import numpy as np
import pytest

from tirkit import te, topi
from tirkit.compiler import build
from tirkit.schedule import Schedule


def _softmax_ref(x, axis):
    e = np.exp(x.astype(np.float64) - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("shape, axis", [((5, 37), -1), ((3, 6, 4), 1), ((7, 3), 0),
                                         ((2, 3, 50), 2)])
def test_fast_softmax_matches_numpy(shape, axis):
    A = te.placeholder(shape, name="A")
    B = topi.nn.fast_softmax(A, axis)
    x = np.random.default_rng(3).standard_normal(shape, dtype=np.float32) * 10
    out = np.zeros(shape, np.float32)
    build(te.create_prim_func([A, B]))(x, out)
    np.testing.assert_allclose(out, _softmax_ref(x, axis), rtol=1e-5, atol=1e-6)


def test_fast_softmax_stages_are_tvms():
    A = te.placeholder((4, 8), name="A")
    B = topi.nn.fast_softmax(A)
    func = te.create_prim_func([A, B])
    sch = Schedule(func)
    for name in ("T_softmax_maxelem", "T_softmax_delta", "T_fast_exp", "T_softmax_expsum",
                 "T_softmax_norm"):
        sch.get_block(name)
    assert "tir.exp" not in func.script() and "T.exp(" not in func.script()
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        topi.nn.fast_softmax(A, axis=2)

