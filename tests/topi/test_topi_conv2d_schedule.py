"""The CPU schedules of ``examples/topi_conv2d.py`` (benchmarked in bench/bench_topi.py) on
small ``tirkit.topi`` conv2d PrimFuncs: the scheduled kernel gives NumPy's numbers, the loops
have the kinds the schedule sets, and the trace replays. Speed is measured in the bench only."""
import numpy as np
import pytest

import topi_conv2d  # examples/, on sys.path through tests/conftest.py
from tirkit.compiler import build
from tirkit.schedule import Schedule
from tirkit.schedule.testing import verify_trace_roundtrip
from tirkit.tir import stmt as S
from tirkit.tir.stmt_functor import post_order_visit

CASES = [  # layout, data shape, kernel shape, stride, padding, x_tile (divides output width)
    ("NCHW", (1, 8, 16, 16), (8, 8, 3, 3), 1, 1, 8),
    ("NCHW", (2, 4, 17, 17), (12, 4, 3, 3), 2, 1, 3),
    ("NHWC", (1, 16, 16, 8), (3, 3, 8, 16), 1, 1, 4),
    ("NHWC", (2, 17, 17, 4), (3, 3, 4, 16), 2, 0, 2),
]


def _loop_kinds(func):
    kinds = []
    post_order_visit(func.body, lambda n: kinds.append(n.kind.name)
                     if isinstance(n, S.For) else None)
    return kinds


@pytest.mark.parametrize("layout,dshape,kshape,stride,padding,x_tile", CASES)
def test_scheduled_topi_conv2d_matches_numpy(layout, dshape, kshape, stride, padding, x_tile):
    func = topi_conv2d.conv2d_func(layout, dshape, kshape, stride, padding)
    sch = Schedule(func)
    topi_conv2d.SCHEDULES[layout][1](sch, f_tile=4, x_tile=x_tile)
    verify_trace_roundtrip(sch, func)
    kinds = _loop_kinds(sch.mod["main"])
    assert {"VECTORIZED", "PARALLEL"} <= set(kinds), kinds
    rng = np.random.default_rng(1)
    data = rng.standard_normal(dshape, dtype=np.float32)
    kernel = rng.standard_normal(kshape, dtype=np.float32)
    expected = topi_conv2d.reference(layout, data, kernel, stride, padding)
    out = np.full(expected.shape, np.nan, np.float32)
    build(sch.mod, opt_level=2)[f"conv2d_{layout.lower()}"](data, kernel, out)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)
