"""A ``tirkit.topi`` conv2d, generated with TE and scheduled for the CPU: the unscheduled
PrimFunc that ``te.create_prim_func`` gives (a padding stage, then one scalar multiply-add per
point of the 7-deep loop nest) next to the same PrimFunc after a register-tiling schedule.

The schedules (TVM's x86 conv2d recipe, without the layout change):

- NCHW: split the output channel ``f`` by ``f_tile`` and the output row ``x`` by ``x_tile``,
  move both inner parts below the reduction loops (``rc, ry, rx``) so a
  ``f_tile x x_tile`` block of outputs stays in registers while the whole window is summed,
  vectorize the ``x`` part (``PadInput`` is contiguous in x), unroll the ``f`` part, run the
  outer channel tiles in parallel and split the zeroing off the reduction
  (``decompose_reduction``);
- NHWC: the same with the roles swapped: the inner output channels are contiguous in both the
  output and the HWIO kernel, so they are the vector lanes and ``x`` is unrolled.

The padding stays its own (cheap, parallel) stage: inlining it would put an ``if_then_else`` in
the innermost loop.

    python examples/topi_conv2d.py       # check against NumPy, time both forms
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from tirkit import te, topi

NCHW_SHAPES = ((1, 64, 56, 56), (64, 64, 3, 3))  # ResNet-18's 3x3 layer, stride 1, padding 1
NHWC_SHAPES = ((1, 56, 56, 64), (3, 3, 64, 64))


def conv2d_func(layout: str, data_shape: tuple[int, ...], kernel_shape: tuple[int, ...],
                stride: int = 1, padding: int = 1) -> Any:
    """The unscheduled PrimFunc ``conv2d_<layout>(data, kernel, out)`` (float32; NCHW data with
    an OIHW kernel or NHWC data with an HWIO kernel), built with ``topi.nn.conv2d_*``."""
    data = te.placeholder(data_shape, name="data")
    kernel = te.placeholder(kernel_shape, name="kernel")
    op = topi.nn.conv2d_nchw if layout == "NCHW" else topi.nn.conv2d_nhwc
    out = op(data, kernel, stride, padding, 1)
    name = f"conv2d_{layout.lower()}"
    return te.create_prim_func([data, kernel, out]).with_attr("global_symbol", name)


def _parallel_padding(sch: Any, conv: Any) -> None:
    """Run the outer two loops of the padding stage feeding ``conv`` (if any) in parallel."""
    for producer in sch.get_producers(conv):
        if sch.get(producer).name_hint == "PadInput":
            loops = sch.get_loops(producer)
            sch.parallel(sch.fuse(loops[0], loops[1]))


def schedule_conv2d_nchw(sch: Any, f_tile: int = 4, x_tile: int = 8) -> None:
    """Register-tile ``topi.nn.conv2d_nchw``'s block ``conv2d_nchw`` (see the module doc);
    ``f_tile`` and ``x_tile`` should divide the output channels and the output width."""
    conv = sch.get_block("conv2d_nchw")
    b, f, y, x, rc, ry, rx = sch.get_loops(conv)
    f0, f1 = sch.split(f, [None, f_tile])
    x0, x1 = sch.split(x, [None, x_tile])
    sch.reorder(b, f0, y, x0, rc, ry, rx, f1, x1)
    sch.vectorize(x1)
    sch.unroll(f1)
    sch.parallel(sch.fuse(b, f0))  # before decompose_reduction: a parallel loop needs
    _parallel_padding(sch, conv)
    sch.decompose_reduction(conv, rc)  # compact data flow, which the split-off init breaks


def schedule_conv2d_nhwc(sch: Any, f_tile: int = 8, x_tile: int = 4) -> None:
    """Register-tile ``topi.nn.conv2d_nhwc``'s block ``conv2d_nhwc``: output channels are the
    vector lanes, ``x_tile`` neighbouring outputs are unrolled; the divisibility of the NCHW
    schedule applies."""
    conv = sch.get_block("conv2d_nhwc")
    b, y, x, f, ry, rx, rc = sch.get_loops(conv)
    f0, f1 = sch.split(f, [None, f_tile])
    x0, x1 = sch.split(x, [None, x_tile])
    sch.reorder(b, y, x0, f0, ry, rx, rc, x1, f1)
    sch.vectorize(f1)
    sch.unroll(x1)
    sch.parallel(sch.fuse(b, y))
    _parallel_padding(sch, conv)
    sch.decompose_reduction(conv, ry)


SCHEDULES = {"NCHW": (NCHW_SHAPES, schedule_conv2d_nchw),
             "NHWC": (NHWC_SHAPES, schedule_conv2d_nhwc)}


def reference(layout: str, data: np.ndarray, kernel: np.ndarray, stride: int = 1,
              padding: int = 1) -> np.ndarray:
    """NumPy conv2d in float64 (the layouts of ``conv2d_func``)."""
    if layout == "NHWC":
        out = reference("NCHW", data.transpose(0, 3, 1, 2), kernel.transpose(3, 2, 0, 1),
                        stride, padding)
        return out.transpose(0, 2, 3, 1)
    pad = np.pad(data.astype(np.float64), ((0, 0), (0, 0), (padding,) * 2, (padding,) * 2))
    win = np.lib.stride_tricks.sliding_window_view(pad, kernel.shape[2:], axis=(2, 3))
    win = win[:, :, ::stride, ::stride]
    return np.einsum("ncyxij,fcij->nfyx", win, kernel.astype(np.float64), optimize=True)


def built(layout: str, scheduled: bool, opt_level: int = 3) -> tuple[Any, list[np.ndarray]]:
    """The compiled kernel (scheduled or not) and its inputs ``[data, kernel, out]``."""
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel
    from tirkit.schedule import Schedule  # pylint: disable=import-outside-toplevel
    (dshape, kshape), schedule = SCHEDULES[layout]
    func = conv2d_func(layout, dshape, kshape)
    sch = Schedule(func)
    if scheduled:
        schedule(sch)
    fn = build(sch.mod, opt_level=opt_level)[f"conv2d_{layout.lower()}"]  # the global symbol
    rng = np.random.default_rng(0)
    data = rng.standard_normal(dshape, dtype=np.float32)
    kernel = rng.standard_normal(kshape, dtype=np.float32)
    out_shape = tuple(int(d) for d in func.buffer_map[func.params[2]].shape)
    return fn, [data, kernel, np.zeros(out_shape, np.float32)]


def _best_ms(fn: Any, args: list[np.ndarray], repeat: int = 5) -> float:
    fn(*args)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return min(times) * 1e3


def main() -> int:
    """Check both forms of both layouts against NumPy and print their times and the speed-up."""
    ok = True
    for layout in SCHEDULES:
        ms = {}
        for scheduled in (False, True):
            fn, args = built(layout, scheduled)
            ms[scheduled] = _best_ms(fn, args)
            err = np.abs(args[2] - reference(layout, args[0], args[1])).max()
            ok &= bool(err < 1e-3)
            print(f"{layout} {'scheduled' if scheduled else 'unscheduled'}: "
                  f"{ms[scheduled]:.2f} ms (max error {err:.1e})")
        print(f"{layout} speed-up: {ms[False] / ms[True]:.1f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
