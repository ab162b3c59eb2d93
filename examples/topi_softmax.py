"""Row softmax of a 4096x1024 float32 matrix from ``tirkit.topi``: ``topi.nn.softmax`` (exact
``exp``) next to ``topi.nn.fast_softmax`` (TVM's fast-math ``fast_exp``: a polynomial and an
integer shift, no libm call), both with the same CPU schedule.

The exact ``exp`` of a vectorized loop is one ``llvm.exp.v16f32`` that x86 breaks into 16
scalar ``expf`` calls, so softmax is exp-bound and vectorizing it does not help; ``fast_exp`` is
plain vector arithmetic, so the vectorized exponential runs at vector speed.

The schedule (``schedule_softmax``), one row per iteration of a parallel loop:

- ``T_softmax_delta`` (``x - max``) is inlined into ``T_fast_exp``;
- the row max, the exponentials, their sum and the normalisation are computed at the row loop,
  so each row is read from memory once and stays in L1;
- the two row reductions are first ``rfactor``-ed into ``lanes`` partial results (a vector of
  maxima / sums, reduced after), so they vectorize too (LLVM does not reorder a float
  reduction by itself);
- the partial sums are folded into the exponential loop (``reverse_compute_at`` under its
  outer ``lanes``-wide loop): each vector of exponentials is added while still in registers;
- the exponentials, the partial reductions and the normalisation are vectorized by ``lanes``.

    python examples/topi_softmax.py      # check against NumPy, time both and NumPy
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from tirkit import te, topi

SHAPE = (4096, 1024)


def softmax_func(fast: bool, shape: tuple[int, int] = SHAPE) -> Any:
    """The unscheduled PrimFunc ``softmax(A, out)`` (float32, softmax over the last axis) of
    ``topi.nn.fast_softmax`` (``fast``) or ``topi.nn.softmax``."""
    data = te.placeholder(shape, name="A")
    out = (topi.nn.fast_softmax if fast else topi.nn.softmax)(data)
    return te.create_prim_func([data, out]).with_attr("global_symbol", "softmax")


def _rfactor(sch: Any, name: str, lanes: int) -> tuple[Any, Any]:
    """Split the reduction of block ``name`` by ``lanes`` and rfactor the inner part: a block
    ``<name>_rf`` of ``lanes`` partial results (which vectorizes) and ``name`` reducing them.
    Done before ``compute_at`` (TVM's rfactor wants the block first under its outermost loop)."""
    _, k1 = sch.split(sch.get_loops(sch.get_block(name))[-1], [None, lanes])
    rf = sch.rfactor(k1, 1)
    return rf, sch.get_block(name)


def _vectorize_partials(sch: Any, rf: Any, lanes: int) -> None:
    """Put the ``lanes`` loop of an rf block (computed at the row loop) innermost; vectorize."""
    inner = sch.get_loops(rf)[1:]
    lane = next(lp for lp in inner if int(sch.get(lp).extent) == lanes)
    rest = [lp for lp in inner if lp != lane]
    sch.reorder(*rest, lane)
    sch.vectorize(lane)


def schedule_softmax(sch: Any, lanes: int = 16) -> None:
    """Schedule ``softmax_func``'s blocks (see the module doc); ``lanes`` must divide the row
    length."""
    exp_name = "T_fast_exp" if _has_block(sch, "T_fast_exp") else "T_softmax_exp"
    if _has_block(sch, "T_softmax_delta"):
        sch.compute_inline(sch.get_block("T_softmax_delta"))
    max_rf, max_wb = _rfactor(sch, "T_softmax_maxelem", lanes)
    sum_rf, sum_wb = _rfactor(sch, "T_softmax_expsum", lanes)
    norm = sch.get_block("T_softmax_norm")
    row, col = sch.get_loops(norm)
    sch.vectorize(sch.split(col, [None, lanes])[1])
    exp = sch.get_block(exp_name)
    for block in (sum_wb, sum_rf, exp, max_wb, max_rf):  # consumers first
        sch.compute_at(block, row)
    exp_outer, exp_lane = sch.split(sch.get_loops(exp)[-1], [None, lanes])
    sch.vectorize(exp_lane)
    _vectorize_partials(sch, max_rf, lanes)
    # the partial sums read T_exp[row, k0 * lanes + k1]: under exp_outer, k0 is that loop's
    # var and the lanes are a loop of their own, added to as soon as they are computed
    sch.reverse_compute_at(sum_rf, exp_outer)
    sch.vectorize(sch.get_loops(sum_rf)[-1])
    sch.parallel(row)


def _has_block(sch: Any, name: str) -> bool:
    try:
        sch.get_block(name)
    except Exception:  # pylint: disable=broad-except  # the schedule's "no such block" error
        return False
    return True


def reference(x: np.ndarray) -> np.ndarray:
    """NumPy softmax over the last axis, in float64."""
    e = np.exp(x.astype(np.float64) - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def numpy_softmax(x: np.ndarray) -> np.ndarray:
    """NumPy softmax over the last axis in float32 (the baseline the benchmark times)."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    e /= e.sum(axis=-1, keepdims=True)
    return e


def built(fast: bool, scheduled: bool = True, shape: tuple[int, int] = SHAPE,
          lanes: int = 16) -> tuple[Any, list[np.ndarray]]:
    """The compiled kernel (opt level 3) and its arguments ``[A, out]`` (``inputs(shape)``)."""
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel
    from tirkit.schedule import Schedule  # pylint: disable=import-outside-toplevel
    sch = Schedule(softmax_func(fast, shape))
    if scheduled:
        schedule_softmax(sch, lanes)
    fn = build(sch.mod, opt_level=3)["softmax"]
    return fn, [inputs(shape), np.zeros(shape, np.float32)]


def inputs(shape: tuple[int, int] = SHAPE) -> np.ndarray:
    """The benchmark's input: standard normal times 4, float32 (seed 0)."""
    return np.random.default_rng(0).standard_normal(shape, dtype=np.float32) * 4


def _best_ms(fn: Any, repeat: int = 10) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1e3


def main() -> int:
    """Check both scheduled kernels against NumPy; print their times and NumPy's."""
    ok = True
    for fast in (False, True):
        fn, args = built(fast)
        ms = _best_ms(lambda f=fn, a=args: f(*a))
        err = float(np.abs(args[1] - reference(args[0])).max())
        ok &= err < 1e-5
        print(f"{'fast_softmax' if fast else 'softmax'} scheduled: {ms:.2f} ms "
              f"(max error {err:.1e})")
    data = args[0]
    print(f"NumPy: {_best_ms(lambda: numpy_softmax(data)):.2f} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
