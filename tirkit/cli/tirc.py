"""`tirc`: compile a TVMScript file to lowered TIR, LLVM IR, assembly or an object file
(DESIGN.md §5; the command-line face of ``tvm.build`` / ``tvm.compile``, shaped like ``llc``).

    tirc FILE|- [-o OUT|-] [--emit {tir,lowered,llvm,asm,obj,ptx}] [-S] [-O0..-O3]
         [--target TRIPLE|cuda[-sm_XX]] [--mcpu CPU] [--mattr ATTRS] [--entry NAME]
         [--print-after-all] [--print-after PASS] [--print-changed] [--dump-dir DIR]
         [--verify-each] [--time-passes] [--diagnostics-format {text,json}]
         [--schedule SCRIPT[:FUNC]] [--trace TRACE.json] [--html OUT.html]
         [--db TUNE.sqlite]
    tirc run FILE [--entry NAME] [--seed N] ...    (see tirkit/cli/tirc_run.py)
    tirc tune FILE [--entry NAME] [--trials N] [--db TUNE.sqlite] [--backend local|ray] ...
                                                   (see tirkit/cli/tirc_tune.py)

The file is parsed statically (``tirkit.lang.parse_file``); nothing in it is executed. Output
goes to ``-o`` (``-`` is stdout; default stdout for text, and for ``--emit obj`` the file's stem
with ``.o`` in the working directory, as ``cc -c`` does);
``--target cuda`` (``cuda-sm_80``, ``nvptx64-nvidia-cuda``; ``--mcpu sm_90``) compiles the GPU
kernels: ``--emit ptx`` (or ``asm``) prints their PTX, ``llvm`` their NVPTX LLVM IR, ``obj`` a
cubin assembled by ptxas;
diagnostics, stage printouts and timing go to stderr. Exit status: 0 ok, 1 errors in the input
(printed as ``path:line:col: error: message [code]`` with carets, or JSON; also a construct the
target cannot compile, named with the target), 2 usage or I/O error, 3 internal error (a tirc
bug: the message asks for a report). ``TIRC_TRACEBACK=1`` adds the Python traceback to internal
errors. A closed standard output (``tirc f.py | head``) ends the run quietly.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from tirkit import tir
from tirkit.ir import IRModule

from .tirc_common import (EMITS, EXIT_OK, UNIT_BUDGET, UsageError, guarded, parse_module,
                          read_source)
from .tirc_schedule import apply_schedule, apply_tuned
from .quiet import without_python_warnings


def make_target(triple: str | None, mcpu: str | None, mattr: str | None,
                opt_level: int) -> Any:
    """The Target of ``--target/--mcpu/--mattr`` (TVM's ``llvm -mtriple=... -mcpu=...
    -mattr=...`` string), host by default."""
    from tirkit.compiler.driver import as_target  # pylint: disable=import-outside-toplevel

    text = "llvm"
    if triple and triple.startswith(("cuda", "nvptx")):
        text = triple
    elif triple:
        text += f" -mtriple={triple}"
    if mcpu:
        text += f" -mcpu={mcpu}"
    if mattr:
        text += f" -mattr={mattr}"
    try:
        return as_target(text, opt_level)
    except ValueError as err:
        raise UsageError(f"bad target {text!r}: {err}") from None


# --------------------------------------------------------------------------- command line
def _version() -> str:
    from tirkit import __version__  # pylint: disable=import-outside-toplevel

    return __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tirc FILE`` (``tirc run`` has its own, in tirc_run.py)."""
    p = argparse.ArgumentParser(
        prog="tirc", description="Compile a TVMScript file (parsed, never executed). "
        "Also: `tirc run FILE [--entry NAME]` JIT-runs a kernel on random inputs and checks it.")
    p.add_argument("file", help="TVMScript file, or - for stdin")
    p.add_argument("--version", action="version", version=f"tirc {_version()}")
    p.add_argument("-o", dest="output", metavar="OUT",
                   help="output file, - for stdout (default: stdout; STEM.o in the working "
                   "directory for --emit obj)")
    p.add_argument("--emit", choices=EMITS, help="what to produce (default: llvm; asm with -S)")
    p.add_argument("-S", dest="asm", action="store_true", help="emit assembly (--emit asm)")
    for level in range(4):
        p.add_argument(f"-O{level}", dest="opt_level", action="store_const", const=level,
                       help=f"optimisation level {level}" + (" (default)" if level == 2 else ""))
    p.set_defaults(opt_level=2)
    p.add_argument("--target", metavar="TRIPLE", help="target triple, or cuda / cuda-sm_XX for "
                   "NVIDIA GPUs (default: the host)")
    p.add_argument("--mcpu", "-mcpu", help="target CPU (default: the host's for the host "
                   "triple; sm_70 for cuda)")
    p.add_argument("--mattr", help="target features, e.g. +avx2,-fma")
    p.add_argument("--entry", metavar="NAME", help="compile only the unit defining NAME")
    g = p.add_argument_group("pipeline debugging (printed on stderr)")
    g.add_argument("--print-after-all", action="store_true",
                   help="print the TIR after every pipeline stage")
    g.add_argument("--print-after", metavar="PASS", action="append", default=[],
                   help="print the TIR after PASS (repeatable)")
    g.add_argument("--print-changed", action="store_true",
                   help="print the input and the TIR after every stage that changed it")
    g.add_argument("--dump-dir", metavar="DIR",
                   help="write one numbered TVMScript file per stage, and stages.txt, into DIR")
    g.add_argument("--verify-each", action="store_true",
                   help="check the TIR is well formed after every stage")
    g.add_argument("--time-passes", action="store_true", help="print the time of every stage")
    p.add_argument("--diagnostics-format", choices=("text", "json"), default="text")
    p.add_argument("--unit-budget", metavar="SECONDS", type=float, default=UNIT_BUDGET,
                   help="stop analysing a TVMScript unit after SECONDS of CPU time, with a "
                   f"diagnostic, so one unit cannot stall the others (default {UNIT_BUDGET:g}; "
                   "0: no limit)")
    p.add_argument("--html", metavar="OUT.html",
                   help="write the pipeline explorer: one self-contained page with the source, "
                   "every stage (diffs, source<->stage highlighting), LLVM IR and assembly")
    s = p.add_argument_group("scheduling (applied before the pipeline; --emit scheduled prints "
                             "the result)")
    s.add_argument("--schedule", metavar="SCRIPT[:FUNC]",
                   help="RUNS the Python file SCRIPT (opt-in execution of your code) and calls "
                   "FUNC(sch) (default: schedule) with a tirkit.schedule.Schedule of the kernel")
    s.add_argument("--trace", metavar="TRACE.json",
                   help="apply a schedule trace written by Trace.as_json (executes nothing)")
    s.add_argument("--db", metavar="TUNE.sqlite",
                   help="apply the best schedule `tirc tune` recorded for each kernel")
    return p


def check_args(args: argparse.Namespace) -> str:
    """Validate option combinations; returns the emit kind."""
    from tirkit.compiler.pipeline import stage_names  # pylint: disable=import-outside-toplevel

    emit = args.emit or ("asm" if args.asm else "llvm")
    if args.asm and emit not in ("asm", "llvm"):
        raise UsageError(f"-S (textual assembly) conflicts with --emit {emit}")
    if args.asm:
        emit = "asm"
    if not args.unit_budget >= 0:  # also NaN
        raise UsageError(f"--unit-budget {args.unit_budget:g}: expected seconds >= 0 (0: no limit)")
    known = {"Input", *stage_names()}
    for name in args.print_after:
        if name not in known:
            import difflib  # pylint: disable=import-outside-toplevel

            close = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise UsageError(f"--print-after {name}: no such pipeline stage{hint}")
    return emit


def output_path(args: argparse.Namespace, emit: str) -> str:
    """Where the result goes: ``-o``, else stdout for text, ``STEM.o`` in the working directory
    for objects (``tirc src/k.py --emit obj`` writes ``./k.o``, as ``cc -c src/k.c`` does)."""
    if args.output:
        return args.output
    if emit != "obj":
        return "-"
    if args.file == "-":
        if sys.stdout.isatty():
            raise UsageError("--emit obj from stdin needs -o OUT (refusing to write binary "
                             "to a terminal)")
        return "-"
    return Path(args.file).with_suffix(".o").name


def write_output(data: str | bytes, out: str) -> None:
    """Write text or bytes to ``out`` (``-`` is stdout)."""
    if out == "-":
        if isinstance(data, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
        return
    try:
        if isinstance(data, bytes):
            Path(out).write_bytes(data)
        else:
            Path(out).write_text(data, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {out}: {err}") from None


@dataclass
class Job:
    """One compilation: the parsed module and what to do with it."""

    mod: IRModule
    emit: str
    target: Callable[[], Any]
    opt_level: int
    recorder: Any


def produce(job: Job) -> str | bytes:
    """Run the pipeline and the code generator as far as ``job.emit`` needs."""
    from tirkit.compiler import driver  # pylint: disable=import-outside-toplevel
    from tirkit.compiler.instrument import stage_text  # pylint: disable=import-outside-toplevel

    if job.emit in ("tir", "scheduled"):
        return stage_text(job.mod)
    target = job.target()
    if job.emit == "ptx" and target.kind != "cuda":
        raise UsageError("--emit ptx needs a GPU target: --target cuda (or cuda-sm_XX)")
    if job.emit == "lowered":
        config = {"tirkit.target": str(target)} if target.kind == "cuda" else None
        return stage_text(driver.lower(job.mod, opt_level=job.opt_level, config=config,
                                       instruments=[job.recorder]))
    compiled = driver.compile_module(job.mod, target, job.opt_level,
                                     instruments=[job.recorder])
    if job.emit == "llvm":
        return compiled.llvm_ir
    if target.kind == "cuda":
        return _cuda_output(compiled, job.emit)
    from tirkit.compiler.codegen import llvm  # pylint: disable=import-outside-toplevel

    if job.emit == "asm":
        return llvm.emit_assembly(compiled.llvm_ir, compiled.target)
    return llvm.emit_object(compiled.llvm_ir, compiled.target)


def graph_to_prim_funcs(mod: IRModule) -> IRModule:
    """A module with Relax functions becomes the PrimFuncs its graph pipeline produces
    (LegalizeOps, FuseOps, FuseTIR); a module of PrimFuncs is returned as it is."""
    if all(isinstance(f, tir.PrimFunc) for f in mod.functions.values()):
        return mod
    from tirkit.relax.pipeline import prim_funcs  # pylint: disable=import-outside-toplevel

    return prim_funcs(mod)


def _cuda_output(compiled: Any, emit: str) -> str | bytes:
    """PTX for ``--emit ptx/asm``, a cubin from ptxas for ``--emit obj``."""
    if emit in ("ptx", "asm"):
        return compiled.ptx
    from tirkit.compiler.codegen.cuda_toolkit import ptxas_validate  # pylint: disable=import-outside-toplevel

    try:
        return ptxas_validate(compiled.ptx, compiled.target.mcpu)
    except FileNotFoundError as err:
        raise UsageError(f"--emit obj for cuda: {err}") from None


def compile_command(args: argparse.Namespace) -> int:
    """``tirc FILE``: parse, lower, generate, write."""
    from tirkit.compiler.instrument import make_recorder  # pylint: disable=import-outside-toplevel

    emit = check_args(args)
    out = output_path(args, emit)
    if args.dump_dir:  # refused before compiling, as an unwritable -o is
        try:
            Path(args.dump_dir).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UsageError(f"cannot write --dump-dir {args.dump_dir}: {err}") from None

    def target() -> Any:
        return make_target(args.target, args.mcpu, args.mattr, args.opt_level)

    source, path = read_source(args.file)
    mod = parse_module(source, path, args.entry, args.diagnostics_format,
                       args.unit_budget or None)
    mod = apply_schedule(mod, args.schedule, args.trace)
    mod = apply_tuned(mod, args.db)
    mod = graph_to_prim_funcs(mod)
    if args.html:
        from tirkit.lsp.explorer import explorer_data, render_html  # pylint: disable=C0415

        data = explorer_data(mod, source, path, target(), args.opt_level)
        write_output(render_html(data), args.html)
        return EXIT_OK
    recorder = make_recorder(print_after_all=args.print_after_all, print_after=args.print_after,
                             print_changed=args.print_changed, dump_dir=args.dump_dir,
                             verify_each=args.verify_each, time_passes=args.time_passes)
    write_output(produce(Job(mod, emit, target, args.opt_level, recorder)), out)
    return EXIT_OK


@without_python_warnings
def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tirc``; returns the exit status (0 ok, 1 input errors, 2 usage or I/O
    error, 3 internal error)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "tune":
        from .tirc_tune import main as tune_main  # pylint: disable=import-outside-toplevel

        return tune_main(argv[1:])
    if argv and argv[0] == "run":
        from .tirc_run import main as run_main  # pylint: disable=import-outside-toplevel

        return run_main(argv[1:])
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2, message printed)
        return int(exc.code or 0)
    return guarded(lambda: compile_command(args), args.file, args.diagnostics_format)


if __name__ == "__main__":
    sys.exit(main())
