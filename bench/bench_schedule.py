"""Benchmarks of scheduling: the time to apply each schedule script of examples/ to its kernel
(parse excluded; items = trace instructions, so the throughput reads instructions/s), and the
scheduled kernels' run time next to NumPy doing the same operation in the same run. The
unscheduled kernels' rows are ``run_<entry>`` of bench_compiler (the naive 1024^3 matmul, ~20 s
a call, is left out).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import scheduled
from references import BY_ENTRY
from registry import bench

from tirkit.compiler import build
from tirkit.schedule import Schedule


def _apply_setup(item):
    def setup():
        mod = scheduled.kernel_module(item)
        fn = scheduled.load_schedule(item.script)

        def run():
            sch = Schedule(mod)
            sch.work_on(item.entry)
            fn(sch)
            return sch
        return len(run().trace.insts), run
    return setup


@lru_cache(maxsize=None)
def _built(entry: str):
    item = next(s for s in scheduled.SCHEDULES if s.entry == entry)
    return build(scheduled.apply(item).mod, opt_level=3)[entry]


def _run_setup(item, numpy: bool):
    kernel = BY_ENTRY[item.reference]

    def setup():
        args = kernel.inputs(np.random.default_rng(0))
        work = kernel.flops or sum(a.nbytes for a in args if isinstance(a, np.ndarray))
        if numpy:
            return work, lambda: kernel.numpy_op(args)
        fn = _built(item.entry)
        return work, lambda: fn(*args)
    return setup


for _item in scheduled.SCHEDULES:
    _unit = "FLOP" if BY_ENTRY[_item.reference].flops else "B"
    bench(f"schedule_{_item.entry}", "instructions")(_apply_setup(_item))
    bench(f"scheduled_{_item.entry}", _unit)(_run_setup(_item, numpy=False))
    bench(f"scheduled_numpy_{_item.entry}", _unit)(_run_setup(_item, numpy=True))
