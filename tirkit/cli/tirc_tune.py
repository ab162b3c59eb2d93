"""`tirc tune FILE`: auto-tune one kernel of a TVMScript file (``tirkit.tune.tune_tir``) and
record every measured candidate in a SQLite database; ``tirc FILE --db DB`` then compiles with
the best schedule found.

The file is parsed statically, never executed. Candidates are built and timed in worker
processes (``--backend local``, ``--workers`` of them) or as Ray tasks (``--backend ray``, on
the cluster at ``--ray-address`` or on a local Ray started for the run). Progress (candidates
measured, valid, best time and GFLOP/s so far) goes to stderr; the summary to stdout. Exit
status: 0 a valid schedule was found, 1 input errors or no candidate was valid, 2 usage or
I/O error, 3 internal error.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Sequence

from tirkit import tir

from .tirc_common import EXIT_ERRORS, EXIT_OK, UsageError, guarded, parse_module, read_source


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tirc tune``."""
    p = argparse.ArgumentParser(prog="tirc tune", description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="TVMScript file")
    p.add_argument("--entry", metavar="NAME", help="the kernel to tune (default: the only one)")
    p.add_argument("--trials", type=int, default=64, help="candidates to measure (default 64)")
    p.add_argument("--db", default="tune.sqlite", metavar="PATH",
                   help="tuning database (default tune.sqlite; created when missing)")
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--workers", type=int, default=1,
                   help="local measurement processes (default 1: timings stay clean)")
    p.add_argument("--ray-address", metavar="ADDR",
                   help="Ray cluster to use (auto, ray://host:port); default: start a local Ray")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    p.add_argument("--batch", type=int, default=8, help="candidates per round (default 8)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds one candidate may take to build and run (default 60)")
    p.add_argument("--patience", type=int, default=4, metavar="ROUNDS",
                   help="stop after this many rounds without a better time; 0 runs all "
                        "--trials (default 4)")
    p.add_argument("--diagnostics-format", choices=("text", "json"), default="text")
    return p


def pick_kernel(mod: Any, entry: str | None) -> tuple[str, tir.PrimFunc]:
    """The kernel to tune: ``entry`` or the module's only PrimFunc.

    Raises:
        UsageError: several PrimFuncs and no ``--entry``, or ``entry`` is not a PrimFunc.
    """
    funcs = {gv.name_hint: f for gv, f in mod.items() if isinstance(f, tir.PrimFunc)}
    if entry is None and len(funcs) != 1:
        raise UsageError(f"the file has {len(funcs)} kernels ({', '.join(sorted(funcs))}); "
                         "choose one with --entry NAME")
    name = entry or next(iter(funcs))
    if name not in funcs:
        raise UsageError(f"--entry {name!r} is not a PrimFunc")
    return name, funcs[name]


class Progress:
    """A one-line progress bar on stderr (a line per round when stderr is not a terminal)."""

    def __init__(self, trials: int, flops: int) -> None:
        self.trials, self.flops = trials, flops
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, valid: int, best: float) -> None:
        filled = int(20 * done / max(1, self.trials))
        rate = f", {self.flops / best / 1e9:.2f} GFLOP/s" if self.flops and best < float("inf") \
            else ""
        best_text = f"best {best * 1e3:.3f} ms{rate}" if best < float("inf") else "no valid yet"
        line = f"[{'#' * filled}{'.' * (20 - filled)}] {done}/{self.trials} measured, " \
               f"{valid} valid, {best_text}"
        sys.stderr.write(("\r" + line) if self.tty else line + "\n")
        sys.stderr.flush()


def backend_of(args: argparse.Namespace) -> Any:
    """The measurement backend the options ask for."""
    from tirkit.tune import LocalBackend, RayBackend  # pylint: disable=import-outside-toplevel

    if args.backend == "ray":
        try:
            return RayBackend(args.ray_address, timeout=args.timeout)
        except RuntimeError as err:
            raise UsageError(str(err)) from None
    return LocalBackend(args.workers, args.timeout)


def tune_command(args: argparse.Namespace) -> int:
    """``tirc tune FILE``: tune, record, summarize."""
    from tirkit.tune import Database, tune_tir  # pylint: disable=import-outside-toplevel

    from .tirc_run import estimate_flops  # pylint: disable=import-outside-toplevel

    if args.trials < 1:
        raise UsageError("--trials must be at least 1")
    source, path = read_source(args.file)
    name, func = pick_kernel(parse_module(source, path, args.entry, args.diagnostics_format),
                             args.entry)
    progress = Progress(args.trials, estimate_flops(func))
    backend = backend_of(args)
    try:
        with Database(args.db) as db:
            result = tune_tir(func, trials=args.trials, seed=args.seed, backend=backend,
                              database=db, batch=args.batch, progress=progress,
                              patience=args.patience)
    finally:
        backend.close()
    if progress.tty:
        sys.stderr.write("\n")
    valid = sum(1 for _, r in result.history if r.ok)
    print(f"{name}: {len(result.history)} candidates measured, {valid} valid, "
          f"{result.wall_secs:.1f} s")
    if result.best_trace is None:
        print("no valid schedule found")
        return EXIT_ERRORS
    rate = f" ({progress.flops / result.best_secs / 1e9:.2f} GFLOP/s)" if progress.flops else ""
    print(f"best: {result.best_secs * 1e3:.3f} ms{rate}; recorded in {args.db}")
    print(f"compile with it: tirc {args.file} --db {args.db}")
    return EXIT_OK


def main(argv: Sequence[str]) -> int:
    """Entry point of ``tirc tune``."""
    try:
        args = build_parser().parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    return guarded(lambda: tune_command(args), args.file, args.diagnostics_format)
