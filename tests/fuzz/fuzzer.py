"""Mutation fuzzer over real TVMScript units (issue 15): feeds mutated files to the front end
(``parse_file`` / ``from_source``), tirfmt's ``format_source``, tirc's front end
(``parse_module``), for a mutant that parses, tirc's lowering and LLVM code generation
(``tirc --emit llvm -O0``: exit 3 counts), and what tirls computes for the text (analysis,
hover, definition, references, completion, outline, tokens, formatting, quick fixes, schedule
actions applied), all in-process in worker processes under a watchdog, and counts

- uncaught exceptions: anything but the documented ``DiagnosticError`` / ``CompileFailure`` /
  ``UsageError`` escaping an entry point;
- crashes: a worker that dies (a segfault in a native parser, ``os._exit``...);
- slow inputs: one entry point taking more than ``--slow`` seconds of CPU on one input (CPU
  time, so the count does not depend on how loaded the machine is), or a worker still busy
  after ``--hang`` seconds of wall time (killed).

``python tests/fuzz/fuzzer.py --units 100000`` is ``make fuzz``; ``tests/fuzz/test_fuzz.py`` runs
a small seeded budget of every mutation family. Reproducers of failures are written to
``--out`` (one file each) and listed at the end; the exit status is 1 when any count is not 0.
"""
from __future__ import annotations

import argparse
import faulthandler
import multiprocessing as mp
import os
import random
import re
import sys
import time
import traceback
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIRS = ("tests/lang/cases", "tests/printer/cases", "tests/printer/tvm_reference",
               "tests/cli/tirfmt_cases", "tests/lang/seeds", "tests/compiler/pass_cases",
               "examples")
HUGE = ("10**10**10", "9" * 5000, "1e400", "2**100000", "1.2**100000", "-(2**63)", "0x" + "f" * 40,
        "2**64", "-1", "0", "(1 << 4000)", "[0] * 10**9", "T.int64(2**70)", "1e-400")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+(?:\.\d*)?(?:e-?\d+)?|\*\*|//|[^\sA-Za-z_0-9]")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\b")


def corpus(root: Path = ROOT) -> list[str]:
    """Every real TVMScript file of the repository's test corpora and examples."""
    out = []
    for sub in CORPUS_DIRS:
        for path in sorted((root / sub).rglob("*.py")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if "prim_func" in text or "ir_module" in text:
                out.append(text)
    return out


# ------------------------------------------------------------------------------ mutations
def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def truncate(rng: random.Random, text: str) -> str:
    return text[:rng.randrange(len(text) + 1)]


def delete_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    del lines[i:i + rng.choice((1, 1, 2, 3))]
    return "".join(lines)


def duplicate_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    n = rng.choice((1, 1, 2))
    lines[i:i] = lines[i:i + n] * rng.choice((1, 2, 5))
    return "".join(lines)


def swap_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    if len(lines) < 2:
        return text
    i, j = rng.sample(range(len(lines)), 2)
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def swap_tokens(rng: random.Random, text: str) -> str:
    toks = list(_TOKEN.finditer(text))
    if len(toks) < 2:
        return text
    a, b = sorted(rng.sample(range(len(toks)), 2))
    if rng.random() < 0.6:
        b = min(a + 1, len(toks) - 1)
    ta, tb = toks[a], toks[b]
    return (text[:ta.start()] + tb.group() + text[ta.end():tb.start()] + ta.group()
            + text[tb.end():])


def replace_token(rng: random.Random, text: str) -> str:
    toks = list(_TOKEN.finditer(text))
    if not toks:
        return text
    t = rng.choice(toks)
    new = rng.choice([x.group() for x in toks] + ["", "(", ")", ":", "=", "[", "]", ",", "T.",
                                                  "\n", "    ", "lambda", "*", "**", "None"])
    return text[:t.start()] + new + text[t.end():]


def huge_number(rng: random.Random, text: str) -> str:
    nums = list(_NUMBER.finditer(text))
    if not nums:
        return text + "\nN = " + rng.choice(HUGE) + "\n"
    t = rng.choice(nums)
    return text[:t.start()] + rng.choice(HUGE) + text[t.end():]


def deep_nesting(rng: random.Random, text: str) -> str:
    nums = list(_NUMBER.finditer(text))
    depth = rng.choice((50, 199, 201, 1000, 5000))
    if nums and rng.random() < 0.5:
        t = rng.choice(nums)
        inner = "(" * depth + t.group() + ")" * depth
        return text[:t.start()] + inner + text[t.end():]
    if nums and rng.random() < 0.5:
        t = rng.choice(nums)
        terms = rng.choice((100, 1000, 5000))
        return text[:t.start()] + "(" + " + ".join([t.group()] * terms) + ")" + text[t.end():]
    lines = _lines(text)
    body = [i for i, ln in enumerate(lines) if re.match(r"\s+(A|B|C)\w*\[", ln)]
    if not body:
        return text
    i = rng.choice(body)
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    loops = rng.choice((50, 150, 200))
    nest = "".join(indent + "    " * k + f"for z{k} in range(1):\n" for k in range(loops))
    lines[i] = nest + "    " * loops + lines[i]
    return "".join(lines)


FAMILIES: dict[str, Callable[[random.Random, str], str]] = {
    "truncate": truncate, "delete_lines": delete_lines, "duplicate_lines": duplicate_lines,
    "swap_tokens": swap_tokens, "replace_token": replace_token, "huge_number": huge_number,
    "deep_nesting": deep_nesting, "swap_lines": swap_lines,
}


def mutate(rng: random.Random, text: str, family: str | None = None) -> tuple[str, str]:
    """One mutant of ``text``: ``(family, mutated text)``; a random family unless given, applied
    once or (a third of the time for random families) twice."""
    name = family or rng.choice(list(FAMILIES))
    out = FAMILIES[name](rng, text)
    if family is None and rng.random() < 0.33:
        out = FAMILIES[rng.choice(list(FAMILIES))](rng, out)
    return name, out


# ------------------------------------------------------------------------------ targets
def run_targets(text: str) -> tuple[str, str] | None:
    """Feed ``text`` to every entry point; ``(target, traceback)`` of the first uncaught
    exception, or ``("slow", detail)`` when one entry point took more than ``SLOW_S`` seconds of
    CPU, or ``None``."""
    # pylint: disable=import-outside-toplevel
    from tirkit.cli.tirc_common import CompileFailure, UsageError, parse_module
    from tirkit.cli.tirfmt_format import format_source
    from tirkit.ir.diagnostics import DiagnosticError
    from tirkit.lang import from_source

    expected = (DiagnosticError, CompileFailure, UsageError)
    parsed: list[object] = []
    targets: tuple[tuple[str, Callable[[], object]], ...] = (
        ("from_source", lambda: parsed.append(from_source(text, "fuzz.py"))),  # parse_file...
        ("tirfmt", lambda: format_source(text, "fuzz.py")),
        ("tirc", lambda: parse_module(text, "fuzz.py")),
        ("tirc_compile", lambda: parsed and _compile(text)),  # lowering + LLVM, when it parses
        ("tirls", lambda: _language_server(text)),
    )
    slow = []
    for name, call in targets:
        start = time.process_time()
        try:
            call()
        except expected:
            pass
        except BaseException:  # pylint: disable=broad-except  # that is what we count
            return name, traceback.format_exc(limit=-8)
        cpu = time.process_time() - start
        if cpu > SLOW_S:
            slow.append(f"{name} {cpu:.1f} s of CPU")
    return ("slow", ", ".join(slow)) if slow else None


def _compile(text: str) -> None:
    """``tirc FILE --emit llvm -O0`` in-process (lowering, LLVM IR generation and verification):
    an exit status 3 -- an internal error, every other failure is a diagnostic -- raises."""
    import tempfile  # pylint: disable=import-outside-toplevel

    from tirkit.cli.tirc import main as tirc_main  # pylint: disable=import-outside-toplevel

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.py"
        path.write_text(text, encoding="utf-8")
        code = tirc_main([str(path), "--emit", "llvm", "-O0", "-o", str(Path(tmp) / "out.ll")])
    if code == 3:
        raise RuntimeError("tirc --emit llvm exited 3: an internal error")


def _language_server(text: str, positions: int = 16) -> None:
    """What ``tirls`` computes for a document with this text (the pure functions behind its
    handlers, as the server calls them): the analysis and its diagnostics as LSP objects, the
    outline, folding ranges, semantic tokens and formatting edits; hover, definition,
    references, completion and signature help at ``positions`` places (line starts and columns
    drawn from the text's hash); the quick fixes and schedule actions of ``positions // 2``
    lines, and two of those schedule actions that need no argument applied (``ActionError`` is
    a refusal)."""
    # pylint: disable=import-outside-toplevel
    from lsprotocol import types

    from tirkit.lsp import diagnostics as D
    from tirkit.lsp.analysis import Analyzer
    from tirkit.lsp.editing import complete, format_edits, signature_at
    from tirkit.lsp.hover import hover_markdown
    from tirkit.lsp.navigation import (definition, document_symbols, folding_ranges, references,
                                       semantic_tokens)
    from tirkit.lsp.positions import PositionMap
    from tirkit.lsp.schedule_actions import ActionError, apply_action
    from tirkit.lsp.schedule_lsp import schedule_code_actions

    uri = "file:///fuzz/fuzz.py"
    fa = Analyzer(budget=60.0, time_limit=60.0).analyze(text, "/fuzz/fuzz.py")
    pmap = PositionMap(text, "utf-16")
    diags = fa.diagnostics()
    D.to_lsp_all(diags, pmap, uri)
    document_symbols(fa, pmap)
    folding_ranges(fa)
    semantic_tokens(fa, pmap)
    format_edits(fa, pmap)
    lines = text.split("\n")
    rng = random.Random(zlib.crc32(text.encode("utf-8", "surrogatepass")))
    spots = [(n + 1, 0) for n in range(len(lines))]
    spots = rng.sample(spots, min(len(spots), positions // 2)) + [
        (n + 1, rng.randrange(len(lines[n]) + 1))
        for n in (rng.randrange(len(lines)) for _ in range(positions // 2))]
    for line, col in spots:
        hover_markdown(fa, line, col)
        definition(fa, line, col)
        references(fa, line, col, True)
        complete(fa, line, col)
        offset = sum(len(ln) + 1 for ln in lines[:line - 1]) + col
        signature_at(fa, offset, line)
    offers = []
    for n in sorted(rng.sample(range(1, len(lines) + 1), min(len(lines), positions // 2))):
        where = types.Range(start=types.Position(line=n - 1, character=0),
                            end=types.Position(line=n - 1, character=0))
        D.code_actions(diags, text, pmap, uri, where)
        placed = fa.unit_at(n)
        if placed is not None:
            offers += [a.command.arguments[0] for a in schedule_code_actions(placed, uri, 1, n)
                       if a.command and a.command.arguments and
                       not a.command.arguments[0].get("ask")]
    for payload in rng.sample(offers, min(len(offers), 2)):
        try:
            apply_action(text, "/fuzz/fuzz.py", payload)
        except ActionError:
            pass


SLOW_S = 2.0  # CPU seconds one entry point may take on one input (set by --slow in workers)


Target = Callable[[str], "tuple[str, str] | None"]


def _worker(conn, target: Target, slow_s: float) -> None:  # pragma: no cover - a child
    global SLOW_S  # pylint: disable=global-statement  # this process's own setting
    SLOW_S = slow_s
    faulthandler.disable()  # a crash is counted by the parent; no dump in its output
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # tirc prints warnings
    while True:
        text = conn.recv()
        if text is None:
            return
        conn.send(target(text))


@dataclass
class Report:
    """Counts of one fuzzing run and a reproducer per failure."""

    units: int = 0
    uncaught: int = 0
    crashes: int = 0
    slow: int = 0
    by_family: dict[str, int] = field(default_factory=dict)
    failures: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, detail, input)
    wall_s: float = 0.0
    out: Path | None = None  # where each failure's input and detail are written when found

    def fail(self, kind: str, detail: str, text: str) -> None:
        """Count and keep one failure (``kind``: crash, uncaught or slow)."""
        if kind == "crash":
            self.crashes += 1
        elif kind == "uncaught":
            self.uncaught += 1
        else:
            self.slow += 1
        self.failures.append((kind, detail, text))
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            stem = self.out / f"{len(self.failures) - 1:04d}_{kind}"
            stem.with_suffix(".py").write_text(text, encoding="utf-8")
            stem.with_suffix(".txt").write_text(detail, encoding="utf-8")

    def line(self) -> str:
        return (f"{self.units} mutated units: {self.uncaught} uncaught exceptions, "
                f"{self.crashes} crashes (segfaults), {self.slow} over the time limit "
                f"[{self.wall_s:.0f} s]")


class _Slot:
    def __init__(self, ctx, target: Target, slow_s: float) -> None:
        self.ctx, self.target, self.slow_s = ctx, target, slow_s
        self.start()

    def start(self) -> None:
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(child, self.target, self.slow_s),
                                    daemon=True)
        self.proc.start()
        child.close()
        self.job: tuple[str, str] | None = None
        self.since = 0.0

    def submit(self, family: str, text: str) -> None:
        self.job, self.since = (family, text), time.monotonic()
        self.conn.send(text)

    def restart(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.start()


def _collect(slot: _Slot, report: Report, hang_s: float) -> bool:
    """Record ``slot``'s finished (or dead or hung) job; whether it is free again."""
    assert slot.job is not None
    family, text = slot.job
    if slot.conn.poll():
        try:
            failure = slot.conn.recv()
        except (EOFError, OSError):
            slot.restart()
            report.fail("crash", f"worker died, exit code {slot.proc.exitcode}", text)
            report.by_family[family] = report.by_family.get(family, 0) + 1
            slot.job = None
            return True
        if failure is not None and failure[0] == "slow":
            report.fail("slow", failure[1], text)
        elif failure is not None:
            report.fail("uncaught", f"{failure[0]}: {failure[1]}", text)
    elif not slot.proc.is_alive():
        report.fail("crash", f"worker died, exit code {slot.proc.exitcode}", text)
        slot.restart()
    elif time.monotonic() - slot.since > hang_s:
        report.fail("slow", f"killed after {hang_s:.0f} s", text)
        slot.restart()
    else:
        return False
    report.by_family[family] = report.by_family.get(family, 0) + 1
    slot.job = None
    return True


def fuzz(units: int, seed: int = 0, workers: int = 2, slow_s: float = 2.0, hang_s: float = 60.0,
         families: tuple[str, ...] | None = None, progress: Callable[[Report], None] | None = None,
         target: Target = run_targets, seeds: list[str] | None = None,
         out: Path | None = None) -> Report:
    """Run ``units`` mutants of ``seeds`` (default: :func:`corpus`; seeded by ``seed``; families
    cycled in order when ``families`` is given, random otherwise) through ``target`` in
    ``workers`` processes."""
    rng = random.Random(seed)
    seeds = seeds or corpus()
    ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    slots = [_Slot(ctx, target, slow_s) for _ in range(max(1, workers))]
    report, started, made = Report(out=out), time.monotonic(), 0
    try:
        while report.units < units:
            for slot in slots:
                if slot.job is not None and _collect(slot, report, hang_s):
                    report.units += 1
                    if progress is not None and report.units % 1000 == 0:
                        report.wall_s = time.monotonic() - started
                        progress(report)
                if slot.job is None and made < units:
                    family = families[made % len(families)] if families else None
                    slot.submit(*mutate(rng, rng.choice(seeds), family))
                    made += 1
            time.sleep(0.001)
    finally:
        for slot in slots:
            slot.proc.kill()
            slot.proc.join()
    report.wall_s = time.monotonic() - started
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--units", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2)))
    ap.add_argument("--slow", type=float, default=2.0, help="CPU seconds per input")
    ap.add_argument("--hang", type=float, default=60.0, help="wall seconds before a kill")
    ap.add_argument("--out", default="fuzz-failures")
    args = ap.parse_args(argv)
    report = fuzz(args.units, args.seed, args.workers, args.slow, args.hang,
                  progress=lambda r: print("  " + r.line(), flush=True), out=Path(args.out))
    print(report.line())
    print("per family:", ", ".join(f"{k} {v}" for k, v in sorted(report.by_family.items())))
    for i, (kind, detail, _) in enumerate(report.failures):
        print(f"{kind}: {args.out}/{i:04d}_{kind}.py: {detail.strip().splitlines()[-1]}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
