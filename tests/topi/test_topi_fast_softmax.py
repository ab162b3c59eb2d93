"""``topi.nn.fast_softmax`` against NumPy, and the CPU schedule of ``examples/topi_softmax.py``
(benchmarked in bench/bench_topi.py) on small ``topi.nn.softmax`` / ``topi.nn.fast_softmax``
PrimFuncs: NumPy's numbers, parallel and vectorized loops, a replayable trace, and -- the point
of fast_softmax -- no exponential call left in the optimised LLVM IR of the fast kernel (the
exact one has one). Speed is measured in the bench only."""
import numpy as np
import pytest

import topi_softmax  # examples/, on sys.path through tests/conftest.py
from tirkit import te, topi
from tirkit.compiler import build, compile_module
from tirkit.schedule import Schedule
from tirkit.schedule.testing import verify_trace_roundtrip
from tirkit.tir import stmt as S
from tirkit.tir.stmt_functor import post_order_visit


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


def _scheduled(fast, shape, lanes):
    func = topi_softmax.softmax_func(fast, shape)
    sch = Schedule(func)
    topi_softmax.schedule_softmax(sch, lanes)
    verify_trace_roundtrip(sch, func)
    return sch.mod


@pytest.mark.parametrize("fast", [False, True], ids=["softmax", "fast_softmax"])
@pytest.mark.parametrize("shape, lanes", [((8, 64), 16), ((5, 96), 8), ((3, 1024), 16)])
def test_scheduled_softmax_matches_numpy(fast, shape, lanes):
    mod = _scheduled(fast, shape, lanes)
    kinds = []
    post_order_visit(mod["main"].body, lambda n: kinds.append(n.kind.name)
                     if isinstance(n, S.For) else None)
    assert kinds.count("VECTORIZED") == 4 and kinds.count("PARALLEL") == 1, kinds
    x = topi_softmax.inputs(shape)
    out = np.full(shape, np.nan, np.float32)
    build(mod, opt_level=2)["softmax"](x, out)
    np.testing.assert_allclose(out, topi_softmax.reference(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fast", [False, True], ids=["softmax", "fast_softmax"])
def test_exp_sum_partials_are_added_in_the_exp_loop(fast):
    # reverse_compute_at of the rf block, which reads T_exp[row, k0 * lanes + k1], under the
    # exp's outer loop: the exponentials are summed while still in registers
    sch = Schedule(topi_softmax.softmax_func(fast, (8, 64)))
    topi_softmax.schedule_softmax(sch, 16)
    exp = sch.get_block("T_fast_exp" if fast else "T_softmax_exp")
    rf_loops = sch.get_loops(sch.get_block("T_softmax_expsum_rf"))
    assert [sch.get(lp) for lp in rf_loops[:2]] == [sch.get(lp) for lp in sch.get_loops(exp)[:2]]
    assert [int(sch.get(lp).extent) for lp in rf_loops] == [8, 4, 16]


@pytest.mark.parametrize("op", ["softmax", "fast_softmax", "log_softmax"])
def test_the_last_stage_carries_the_axis_attr_as_in_tvm(op):
    # TVM's softmax_common / log_softmax: te.compute(..., attrs={"axis": axis}), printed as
    # T.block_attr({"axis": 1}) on the last block (with it, examples/topi_softmax.py's
    # scheduled softmax prints as TVM 0.27's)
    A = te.placeholder((4, 8), name="A")
    func = te.create_prim_func([A, getattr(topi.nn, op)(A, axis=-1)])
    sch = Schedule(func)
    last = sch.get(sch.get_child_blocks(sch.get_block("root"))[-1])
    assert dict(last.annotations) == {"axis": 1}
    assert 'T.block_attr({"axis": 1})' in func.script()


def test_fast_kernel_has_no_exp_call_and_the_exact_one_does():
    def exp_calls(fast):
        ir = compile_module(_scheduled(fast, (8, 64), 16), opt_level=3).llvm_ir
        return [ln for ln in ir.splitlines() if " call " in ln and "exp" in ln.split(" call ")[1]]
    assert not exp_calls(True)
    assert exp_calls(False)


def test_log_softmax_has_tvms_three_stages():
    # TVM's topi.nn.log_softmax: the row max, the exp-sum with exp inside the reduction and the
    # output, the last two unnamed (no separate exp stage, unlike softmax)
    x = te.placeholder((4, 8), "float32", name="X")
    text = te.create_prim_func([x, topi.nn.log_softmax(x)]).script()
    blocks = [line.split('"')[1] for line in text.splitlines()
              if line.strip().startswith("with T.block(")]
    assert blocks == ["T_softmax_maxelem", "compute", "compute_1"]
    assert "T.exp(" in text and 'T.block_attr({"axis": 1})' in text
