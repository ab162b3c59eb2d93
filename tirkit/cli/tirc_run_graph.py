"""`tirc run FILE --entry main` when ``main`` is a Relax function: build the module (graph
pipeline + every PrimFunc), run the graph in the VM on random inputs of the parameters' struct
info (symbolic dims from ``--dim n=VALUE``, default 4), check that two runs agree bit for bit
and that no NaN/infinity appears, and print the time.
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

from tirkit.ir import IRModule

GRAPH_DEFAULT_DIM = 4


def _symbolic_values(func: Any, dims: dict[str, int], notes: list[str]) -> dict[int, int]:
    from tirkit import tir  # pylint: disable=import-outside-toplevel

    values: dict[int, int] = {}
    for p in func.params:
        for d in getattr(p.struct_info_, "shape", None) or ():
            if isinstance(d, tir.Var) and id(d) not in values:
                values[id(d)] = dims.get(d.name_hint, GRAPH_DEFAULT_DIM)
                if d.name_hint not in dims:
                    notes.append(f"{d.name_hint} = {GRAPH_DEFAULT_DIM} (use --dim "
                                 f"{d.name_hint}=VALUE)")
    return values


def _random_inputs(func: Any, values: dict[int, int], rng: np.random.Generator) -> list[Any]:
    from tirkit.relax.vm import eval_shape  # pylint: disable=import-outside-toplevel

    out = []
    for p in func.params:
        s = p.struct_info_
        shape = eval_shape(s.shape, values)
        if s.dtype.is_floating():
            out.append(rng.standard_normal(shape).astype(str(s.dtype)))
        else:
            out.append(rng.integers(-8, 8, shape).astype(str(s.dtype)))
    return out


def _flat(value: Any) -> list[np.ndarray]:
    return [a for v in value for a in _flat(v)] if isinstance(value, tuple) else [value]


def run_graph(args: argparse.Namespace, mod: IRModule, dims: dict[str, int]) -> int:
    """Build and run the Relax entry; 0 when every check passed, 1 otherwise."""
    from tirkit import relax  # pylint: disable=import-outside-toplevel

    func: Any = mod[args.entry]  # a relax.Function (the caller checked)
    notes: list[str] = []
    values = _symbolic_values(func, dims, notes)
    inputs = _random_inputs(func, values, np.random.default_rng(args.seed))
    t0 = time.perf_counter()
    exe = relax.build(mod, opt_level=args.opt_level)
    compile_s = time.perf_counter() - t0
    fn = relax.VirtualMachine(exe)[args.entry]
    first, second = _flat(fn(*inputs)), _flat(fn(*inputs))
    failed = []
    if not all(np.array_equal(a, b, equal_nan=True) for a, b in zip(first, second)):
        failed.append("two runs from the same inputs differ")
    if any(np.issubdtype(a.dtype, np.floating) and not np.isfinite(a).all() for a in first):
        failed.append("the result holds NaN or infinity")
    times = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        fn(*inputs)
        times.append(time.perf_counter() - t)
    kernels = list(exe.kernels.function_names) if exe.kernels is not None else []
    print(f"{args.entry} (Relax) from {args.file} (-O{args.opt_level}, seed {args.seed}); "
          f"{len(kernels)} kernels compiled in {compile_s * 1e3:.0f} ms")
    print("  inputs: " + ", ".join(f"{p.name_hint}: {a.dtype}{list(a.shape)}"
                                   for p, a in zip(func.params, inputs)))
    print("  outputs: " + ", ".join(f"{a.dtype}{list(a.shape)}" for a in first))
    for note in notes:
        print(f"  note: {note}")
    for text in failed:
        print(f"  FAILED: {text}")
    if not failed:
        print("  ok:     deterministic, finite results")
    print(f"  time: {statistics.median(times) * 1e3:.3f} ms median of {args.repeat}")
    return 1 if failed else 0
