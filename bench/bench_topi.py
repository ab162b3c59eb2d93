"""Benchmarks of a ``tirkit.topi`` conv2d generated with TE: the PrimFunc of
``te.create_prim_func`` as it comes (``topi_conv2d_<layout>_unscheduled``) and after the
register-tiling schedule of ``examples/topi_conv2d.py`` (``..._scheduled``), on ResNet-18's 3x3
layer (1x64x56x56, 64 filters, stride 1, padding 1). ``bench/run.py`` prints the speed-up of
every ``X_scheduled`` row over its ``X_unscheduled`` row (issue 16 asks for at least 5x).

    python bench/run.py topi_conv2d_nchw_unscheduled topi_conv2d_nchw_scheduled

Row softmax, 4096x1024 float32 (``examples/topi_softmax.py``): ``topi.nn.softmax`` (exact
``exp``) and ``topi.nn.fast_softmax`` (TVM's fast-math ``fast_exp``), each unscheduled and with
the same parallel + vectorized schedule, next to NumPy (``numpy_topi_softmax``); items are the
bytes read and written (32 MiB).

    python bench/run.py topi_softmax_scheduled topi_fast_softmax_scheduled numpy_topi_softmax
"""
from __future__ import annotations

import topi_conv2d  # examples/, on sys.path through bench/run.py
import topi_softmax
from registry import bench

FLOPS = 2 * 64 * 56 * 56 * 64 * 9


def _setup(layout: str, scheduled: bool):
    def setup():
        fn, args = topi_conv2d.built(layout, scheduled)
        return FLOPS, lambda: fn(*args)
    return setup


for _layout in topi_conv2d.SCHEDULES:
    for _scheduled in (False, True):
        _form = "scheduled" if _scheduled else "unscheduled"
        bench(f"topi_conv2d_{_layout.lower()}_{_form}", "FLOP")(_setup(_layout, _scheduled))


def _softmax_setup(fast: bool, scheduled: bool):
    def setup():
        fn, args = topi_softmax.built(fast, scheduled)
        return 2 * args[0].nbytes, lambda: fn(*args)
    return setup


def _numpy_softmax():
    data = topi_softmax.inputs()
    return 2 * data.nbytes, lambda: topi_softmax.numpy_softmax(data)


for _fast in (False, True):
    for _scheduled in (False, True):
        _form = "scheduled" if _scheduled else "unscheduled"
        bench(f"topi_{'fast_' if _fast else ''}softmax_{_form}", "B")(
            _softmax_setup(_fast, _scheduled))
bench("numpy_topi_softmax", "B")(_numpy_softmax)
