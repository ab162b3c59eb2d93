"""Benchmarks of a ``tirkit.topi`` conv2d generated with TE: the PrimFunc of
``te.create_prim_func`` as it comes (``topi_conv2d_<layout>_unscheduled``) and after the
register-tiling schedule of ``examples/topi_conv2d.py`` (``..._scheduled``), on ResNet-18's 3x3
layer (1x64x56x56, 64 filters, stride 1, padding 1). ``bench/run.py`` prints the speed-up of
every ``X_scheduled`` row over its ``X_unscheduled`` row (issue 16 asks for at least 5x).

    python bench/run.py topi_conv2d_nchw_unscheduled topi_conv2d_nchw_scheduled
"""
from __future__ import annotations

import topi_conv2d  # examples/, on sys.path through bench/run.py
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
