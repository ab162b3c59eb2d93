"""`tirc run FILE [--entry NAME]`: JIT-compile one kernel of a TVMScript file, run it on random
inputs of its declared shapes and dtypes, check it, and print its time, GFLOP/s and GB/s.

The file is parsed statically, never executed, so it cannot provide a Python reference; the
checks are the honest ones available without one:

1. a build with ``tir.instrument_bound_checkers`` runs without an out-of-bounds access;
2. the normal (optimised) build gives the same results as the bounds-checked build;
3. two runs from the same inputs give bit-identical results (no race, no uninitialised read);
4. no NaN or infinity appears in a float array whose input had none.

GPU kernels (thread-bound loops, ``T.launch_thread``; or ``--target cuda``) are built for CUDA
and run on the GPU: checks 3 and 4 apply (the bounds-checked build is a CPU feature). Without
an NVIDIA GPU the run stops with a clear error (exit 2) after the kernel compiled to PTX.

Kernels of ``examples/`` are checked against NumPy references in tests/compiler/test_examples.py.
Without ``--entry`` the file's only function is run (or its only Relax function, when the other
functions are the PrimFuncs a graph calls). Symbolic dimensions (``n = T.int32()``) take ``--dim n=VALUE`` (default 256). Exit status: 0 all
checks passed, 1 input errors or a failed check, 2 usage or I/O error, 3 internal error.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from tirkit import tir
from tirkit.ir import IntImm

from .tirc_common import EXIT_ERRORS, EXIT_OK, UsageError, guarded, parse_module, read_source

DEFAULT_DIM = 256


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tirc run``."""
    p = argparse.ArgumentParser(prog="tirc run", description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="TVMScript file, or - for stdin")
    p.add_argument("--entry", metavar="NAME",
                   help="the kernel to run (default: the file's only kernel)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    p.add_argument("--repeat", type=int, default=10, help="timed runs (default 10)")
    p.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE",
                   help=f"value of a symbolic dimension (default {DEFAULT_DIM}); repeatable")
    for level in range(4):
        p.add_argument(f"-O{level}", dest="opt_level", action="store_const", const=level)
    p.set_defaults(opt_level=2)
    p.add_argument("--no-bounds-check", action="store_true",
                   help="skip the bounds-checked run (check 1)")
    p.add_argument("--target", metavar="TARGET", help="llvm (the host) or cuda[-sm_XX] "
                   "(default: cuda for thread-bound kernels, else the host)")
    p.add_argument("--diagnostics-format", choices=("text", "json"), default="text")
    return p


def is_gpu_kernel(mod: Any) -> bool:
    """Whether a function of ``mod`` binds loops to GPU threads or launches threads."""
    from tirkit.tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel

    found: list[Any] = []

    def visit(node: Any) -> None:
        if (isinstance(node, tir.For) and node.kind == tir.ForKind.THREAD_BINDING) or \
                (isinstance(node, tir.AttrStmt) and node.attr_key == "thread_extent"):
            found.append(node)
    for func in mod.functions.values():
        if isinstance(func, tir.PrimFunc):
            post_order_visit(func.body, visit)
    return bool(found)


def run_target(args: argparse.Namespace, mod: Any) -> str:
    """``"cuda..."`` or ``"llvm"``: ``--target``, else cuda for GPU kernels."""
    if args.target:
        return args.target
    return "cuda" if is_gpu_kernel(mod) else "llvm"


def build_for_run(mod: Any, target: str, opt_level: int) -> Any:
    """The built module; on cuda, a usage error naming why the GPU cannot run it."""
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel

    try:
        return build(mod, target=target, opt_level=opt_level)
    except ValueError as err:
        if "target" in str(err) or "CUDA" in str(err):
            raise UsageError(f"--target {target}: {err}") from None
        raise


# --------------------------------------------------------------------------- arguments
def pick_entry(mod: Any, path: str) -> str:
    """The function ``tirc run`` runs when no ``--entry`` is given: the module's only function,
    else its only Relax function (a graph and the PrimFuncs it calls).

    Raises:
        UsageError: several candidates; the message lists them.
    """
    names = sorted(gv.name_hint for gv in mod.functions)
    if len(names) == 1:
        return names[0]
    graphs = sorted(gv.name_hint for gv, f in mod.functions.items()
                    if not isinstance(f, tir.PrimFunc))
    if len(graphs) == 1:
        return graphs[0]
    raise UsageError(f"{path} defines {len(names)} functions ({', '.join(names)}); "
                     "choose one with --entry NAME")


def parse_dims(items: Sequence[str]) -> dict[str, int]:
    """``["n=1024", "m=8"]`` -> ``{"n": 1024, "m": 8}``."""
    dims = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier() or not value.strip().lstrip("-").isdigit():
            raise UsageError(f"--dim {item!r}: expected NAME=INTEGER")
        dims[name] = int(value)
    return dims


def evaluate(expr: Any, values: dict[tir.Var, int]) -> int:
    """The integer value of a shape expression once its variables are bound."""
    from tirkit.arith import Analyzer  # pylint: disable=import-outside-toplevel
    from tirkit.tir.stmt_functor import substitute  # pylint: disable=import-outside-toplevel

    if isinstance(expr, int):
        return expr
    out = Analyzer().simplify(substitute(expr, {v: IntImm(v.dtype, n) for v, n in values.items()}))
    if not isinstance(out, IntImm):
        raise UsageError(f"cannot evaluate the shape expression {expr!r} (unbound variables)")
    return int(out.value)


def bind_dims(func: tir.PrimFunc, dims: dict[str, int], notes: list[str]) -> dict[tir.Var, int]:
    """A value for every variable used in the buffer shapes: ``--dim`` or the default."""
    from tirkit.tir.analysis import undefined_vars  # pylint: disable=import-outside-toplevel

    values: dict[tir.Var, int] = {}
    for buf in func.buffer_map.values():
        for var in (v for dim in buf.shape for v in undefined_vars(dim)):
            if var not in values:
                if var.name not in dims:
                    notes.append(f"{var.name} = {DEFAULT_DIM} (default; set with --dim "
                                 f"{var.name}=N)")
                values[var] = dims.get(var.name, DEFAULT_DIM)
    unknown = set(dims) - {v.name for v in values}
    if unknown:
        raise UsageError(f"--dim {', '.join(sorted(unknown))}: no such symbolic dimension")
    return values


def random_array(shape: tuple[int, ...], dtype: str, rng: np.random.Generator) -> np.ndarray:
    """Random data of ``dtype``: floats in [-1, 1), small integers, random booleans."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    np_dtype = np.dtype(dtype)
    if np_dtype.kind == "f":
        return rng.uniform(-1.0, 1.0, size=shape).astype(np_dtype)
    low = 0 if np_dtype.kind == "u" else -8
    return rng.integers(low, 8, size=shape).astype(np_dtype)


def random_scalar(dtype: str, rng: np.random.Generator) -> Any:
    """A random scalar argument: a float in [0.5, 1.5) or an int in [1, 8)."""
    if dtype.startswith("float"):
        return float(rng.uniform(0.5, 1.5))
    return int(rng.integers(1, 8))


def make_arguments(func: tir.PrimFunc, dims: dict[str, int], rng: np.random.Generator,
                   notes: list[str]) -> list[Any]:
    """One argument per parameter: arrays of the buffer shapes, shape variables' values,
    random scalars."""
    values = bind_dims(func, dims, notes)
    args: list[Any] = []
    for param in func.params:
        buf = func.buffer_map.get(param)
        if buf is not None:
            shape = tuple(evaluate(d, values) for d in buf.shape)
            args.append(random_array(shape, str(buf.dtype), rng))
        elif str(param.dtype) == "handle":
            raise UsageError(f"parameter {param.name!r} is a bare handle (no buffer); "
                             "tirc run needs buffer parameters")
        elif param in values:
            args.append(values[param])
        else:
            args.append(random_scalar(str(param.dtype), rng))
    return args


def describe(args: Sequence[Any], func: tir.PrimFunc) -> str:
    """``A float32[4096, 1024], alpha=1.07``."""
    out = []
    for param, arg in zip(func.params, args):
        if isinstance(arg, np.ndarray):
            out.append(f"{param.name} {arg.dtype}[{', '.join(map(str, arg.shape))}]")
        else:
            out.append(f"{param.name}={arg:.4g}" if isinstance(arg, float)
                       else f"{param.name}={arg}")
    return ", ".join(out)


# --------------------------------------------------------------------------- flops
def estimate_flops(func: tir.PrimFunc, values: dict[tir.Var, int] | None = None) -> int:
    """Arithmetic operations executed by ``func``: each store's value counted once per
    iteration of its enclosing loops (mirrors ``tvm.tir.analysis.estimate_tir_flops``;
    index arithmetic, casts and loads are not counted; block ``init`` stores are)."""
    return int(_FlopCounter(values or {})(func.body))


class _FlopCounter:
    ARITH = (tir.Add, tir.Sub, tir.Mul, tir.Div, tir.Min, tir.Max)

    def __init__(self, values: dict[tir.Var, int]) -> None:
        self.values = values

    def __call__(self, node: Any) -> float:
        if isinstance(node, tir.For):
            trips = evaluate(node.extent, self.values)
            if node.step is not None:  # ceildiv(extent, step) iterations (CanonicalizeLoop)
                step = evaluate(node.step, self.values)
                trips = max(0, -(-trips // step)) if step > 0 else 0
            return trips * self(node.body)
        if isinstance(node, tir.BufferStore):
            return self.expr(node.value)
        if isinstance(node, tir.Block):
            return self(node.body) + (self(node.init) if node.init is not None else 0)
        if isinstance(node, tir.BlockRealize):
            return self(node.block)
        if isinstance(node, tir.SeqStmt):
            return sum(self(s) for s in node.seq)
        if isinstance(node, tir.IfThenElse):
            return self(node.then_case) + (self(node.else_case) if node.else_case else 0)
        body = getattr(node, "body", None)
        return self(body) if body is not None else 0

    def expr(self, node: Any) -> float:
        if isinstance(node, tir.BufferLoad) or not hasattr(node, "dtype"):
            return 0
        own = 1 if isinstance(node, self.ARITH) or (
            isinstance(node, tir.Call) and isinstance(node.op, tir.Op)
            and node.op.name.startswith("tir.")
            and node.op.name.split(".")[-1] in _MATH) else 0
        kids = [getattr(node, f, None) for f in ("a", "b", "value", "condition", "true_value",
                                                 "false_value")]
        kids += list(getattr(node, "args", ()) or ())
        return own + sum(self.expr(k) for k in kids if k is not None)


_MATH = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "sigmoid", "pow", "sin", "cos",
         "fma", "erf", "floor", "ceil", "fabs"}


# --------------------------------------------------------------------------- running
@dataclass
class Outcome:
    """What the checks found."""

    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def copy_args(args: Sequence[Any]) -> list[Any]:
    """Fresh copies of the array arguments (scalars as they are)."""
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def max_difference(a: Sequence[Any], b: Sequence[Any]) -> tuple[bool, float]:
    """Whether two results agree (exactly for integers, to 1e-5 relative for floats) and the
    largest absolute difference."""
    ok, worst = True, 0.0
    for x, y in zip(a, b):
        if not isinstance(x, np.ndarray):
            continue
        if x.dtype.kind == "f":
            diff = np.abs(x.astype(np.float64) - y.astype(np.float64))
            worst = max(worst, float(np.nanmax(diff)) if diff.size else 0.0)
            ok &= bool(np.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True))
        else:
            ok &= bool(np.array_equal(x, y))
            if x.size and x.dtype != np.bool_:
                worst = max(worst, float(np.max(np.abs(x.astype(np.float64) - y))))
    return ok, worst


def identical(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """Bit-identical array results."""
    return all(np.array_equal(x, y, equal_nan=x.dtype.kind == "f") for x, y in zip(a, b)
               if isinstance(x, np.ndarray))


def new_non_finite(before: Sequence[Any], after: Sequence[Any], func: tir.PrimFunc) -> list[str]:
    """Names of float arrays that hold NaN/Inf now but were finite on input."""
    out = []
    for param, x, y in zip(func.params, before, after):
        if isinstance(x, np.ndarray) and x.dtype.kind == "f" and np.isfinite(x).all() \
                and not np.isfinite(y).all():
            out.append(param.name)
    return out


def checked_run(mod: Any, entry: str, args: Sequence[Any], opt_level: int,
                outcome: Outcome) -> list[Any] | None:
    """Check 1: run a build instrumented with bound checks; its results, or None."""
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel

    kernel = build(mod, opt_level=opt_level,
                   config={"tir.instrument_bound_checkers": True})[entry]
    out = copy_args(args)
    try:
        kernel(*out)
    except RuntimeError as err:
        outcome.failed.append(f"bounds-checked run failed: {err}")
        return None
    outcome.passed.append("no out-of-bounds access (bounds-checked run)")
    return out


def run_checks(kernel: Any, args: Sequence[Any], reference: list[Any] | None,
               func: tir.PrimFunc, outcome: Outcome) -> None:
    """Checks 2-4 on the optimised kernel."""
    first, second = copy_args(args), copy_args(args)
    kernel(*first)
    kernel(*second)
    if reference is not None:
        ok, worst = max_difference(first, reference)
        (outcome.passed if ok else outcome.failed).append(
            f"optimised build {'matches' if ok else 'DIFFERS from'} the bounds-checked build "
            f"(max abs difference {worst:.3g})")
    (outcome.passed if identical(first, second) else outcome.failed).append(
        "deterministic over two runs" if identical(first, second)
        else "two runs from the same inputs gave different results")
    bad = new_non_finite(args, first, func)
    (outcome.failed if bad else outcome.passed).append(
        f"NaN/Inf written into {', '.join(bad)}" if bad else "no NaN/Inf written")


def time_kernel(kernel: Any, args: Sequence[Any], repeat: int) -> tuple[float, float]:
    """Median and best wall time (seconds) of ``repeat`` calls on one set of arguments."""
    work = copy_args(args)
    times = []
    for _ in range(max(repeat, 1)):
        t0 = time.perf_counter()
        kernel(*work)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def run_command(args: argparse.Namespace) -> int:
    """``tirc run``: build, check and time one kernel."""
    source, path = read_source(args.file)
    if args.entry is None:
        args.entry = pick_entry(parse_module(source, path, None, args.diagnostics_format), path)
    mod = parse_module(source, path, args.entry, args.diagnostics_format)
    func = mod[args.entry]
    if type(func).__module__ == "tirkit.relax.expr":  # a Relax graph: run it in the VM
        from .tirc_run_graph import run_graph  # pylint: disable=import-outside-toplevel

        return run_graph(args, mod, parse_dims(args.dim))
    if not isinstance(func, tir.PrimFunc):
        raise UsageError(f"--entry {args.entry!r} is not a PrimFunc")
    notes: list[str] = []
    dims = parse_dims(args.dim)
    kernel_args = make_arguments(func, dims, np.random.default_rng(args.seed), notes)
    values = bind_dims(func, dims, [])
    outcome = Outcome()
    target = run_target(args, mod)
    gpu = target.startswith(("cuda", "nvptx"))
    reference = None if args.no_bounds_check or gpu else checked_run(
        mod, args.entry, kernel_args, args.opt_level, outcome)
    t0 = time.perf_counter()
    kernel = build_for_run(mod, target, args.opt_level)[args.entry]
    compile_s = time.perf_counter() - t0
    if gpu:
        _check_gpu_ready(args, kernel)
    run_checks(kernel, kernel_args, reference, func, outcome)
    median, best = time_kernel(kernel, kernel_args, args.repeat)
    print_summary(args, func, kernel_args, notes, outcome, compile_s, (median, best),
                  estimate_flops(func, values))
    return EXIT_ERRORS if outcome.failed else EXIT_OK


def _check_gpu_ready(args: argparse.Namespace, kernel: Any) -> None:
    from tirkit.compiler.runtime.cuda import cuda_available  # pylint: disable=import-outside-toplevel

    ok, reason = cuda_available()
    if not ok:
        raise UsageError(f"{args.entry} is a GPU kernel and compiled to PTX "
                         f"({len(kernel.module.ptx)} bytes), but it cannot run here: {reason} "
                         f"(see the PTX with: tirc {args.file} --target cuda --emit ptx)")


def print_summary(args: argparse.Namespace, func: tir.PrimFunc, kernel_args: Sequence[Any],
                  notes: Sequence[str], outcome: Outcome, compile_s: float,
                  times: tuple[float, float], flops: int) -> None:
    """The report of ``tirc run`` on stdout."""
    median, best = times
    nbytes = sum(a.nbytes for a in kernel_args if isinstance(a, np.ndarray))
    print(f"{args.entry} from {args.file} (-O{args.opt_level}, seed {args.seed}); "
          f"compiled in {compile_s * 1e3:.0f} ms")
    print(f"  arguments: {describe(kernel_args, func)}")
    for note in notes:
        print(f"  note: {note}")
    for text in outcome.passed:
        print(f"  ok:     {text}")
    for text in outcome.failed:
        print(f"  FAILED: {text}")
    rate = f"{flops / median / 1e9:.2f} GFLOP/s ({flops / 1e6:.1f} MFLOP), " if flops else ""
    print(f"  time: {median * 1e3:.3f} ms median of {args.repeat} (best {best * 1e3:.3f} ms); "
          f"{rate}{nbytes / median / 1e9:.2f} GB/s over {nbytes / 1e6:.1f} MB of arguments")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tirc run``."""
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    return guarded(lambda: run_command(args), args.file, args.diagnostics_format)
