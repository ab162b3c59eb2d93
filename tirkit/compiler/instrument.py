"""The pipeline's one instrument and what hangs off it (mirrors ``tvm.instrument``).

:class:`StageRecorder` is a ``PassInstrument`` that records, for every top-level pass, the IR it
produced, whether it changed anything and its wall time. Observers receive each record as it is
made and drive the debugging switches of ``tirc`` and the language server's stage previews:

=====================  ===========================  =======================================
observer               tirc flag                    TVM / LLVM counterpart
=====================  ===========================  =======================================
PrintAfter()           --print-after-all            ``tvm.instrument.PrintAfterAll``
PrintAfter({"X"})      --print-after X              ``PassPrintingInstrument``
PrintAfter(changed)    --print-changed              LLVM ``-print-changed``
DumpDir(path)          --dump-dir DIR               ``tvm.instrument.DumpIR``
VerifyEach()           --verify-each                ``tir.analysis.verify_well_formed``
TimePasses()           --time-passes                ``tvm.instrument.PassTimingInstrument``
=====================  ===========================  =======================================
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any, Iterable, Sequence, TextIO

from tirkit.ir import IRModule

from .stage_result import PipelineError, StageResult
from .transform import PassInfo, PassInstrument


class PassVerificationError(PipelineError):
    """A pass produced ill-formed IR (``--verify-each``); the message names the pass."""


class StageObserver:
    """Receives every stage record of a :class:`StageRecorder` (no TVM counterpart)."""

    def stage(self, index: int, result: StageResult) -> None:
        """Called once per stage, ``index`` 0 being the input."""

    def finish(self, results: Sequence[StageResult]) -> None:
        """Called when the pipeline's PassContext exits (also after an error)."""


class StageRecorder(PassInstrument):
    """Records the IR after every top-level pass (nested passes, e.g. a Simplify run inside
    another pass, belong to their caller's stage) and hands each record to ``observers``.

    ``results`` holds :class:`~tirkit.compiler.pipeline.StageResult` entries, ``"Input"`` first.
    ``changed`` is False when the pass returned its input or a structurally equal module.
    """

    def __init__(self, observers: Iterable[StageObserver] = ()) -> None:
        self.observers = list(observers)
        self.results: list[StageResult] = []
        self._depth = 0
        self._before: IRModule | None = None
        self._t0 = 0.0
        self._settled = True
        self._expected = "?"

    # --- driven by run_pipeline
    def start(self, mod: IRModule) -> None:
        """Begin a run: forget earlier records and record the input."""
        self.results = []
        self._add(StageResult("Input", mod, False))

    def expect(self, name: str) -> None:
        """A stage named ``name`` is about to run its pass."""
        self._depth, self._settled, self._expected = 0, False, name

    def settle(self, mod: IRModule) -> None:
        """The stage's pass returned ``mod``; record it as skipped if its pass never ran (its own
        opt_level, ``disabled_pass`` or an instrument turned it off)."""
        if not self._settled:
            self.skip(self._expected, mod)

    def skip(self, name: str, mod: IRModule) -> None:
        """Record a stage that did not run."""
        self._add(StageResult(name, mod, False, skipped=True))
        self._settled = True

    # --- PassInstrument hooks
    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        if self._depth == 0:
            if not self.results:
                self._add(StageResult("Input", mod, False))
            self._before, self._t0 = mod, time.perf_counter()
        self._depth += 1

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        self._depth -= 1
        if self._depth == 0:
            seconds = time.perf_counter() - self._t0
            changed = False if mod is self._before else None  # compared when first read
            self._add(StageResult(info.name, mod, changed, seconds=seconds, before=self._before))
            self._settled = True

    def exit_pass_ctx(self) -> None:
        for obs in self.observers:
            obs.finish(self.results)

    def _add(self, result: StageResult) -> None:
        self.results.append(result)
        for obs in self.observers:
            obs.stage(len(self.results) - 1, result)


def stage_text(mod: IRModule) -> str:
    """``mod`` as a TVMScript file that parses on its own (the printer's commented import header
    made real)."""
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    text = re.sub(r"^# (from tvm\.script import \w+ as \w+)$", r"\1", script(mod), flags=re.M)
    return text if text.endswith("\n") else text + "\n"


def stage_label(index: int, result: StageResult) -> str:
    """``"03 ConvertBlocksToOpaque (unchanged)"``-style label of a record."""
    mark = " (skipped)" if result.skipped else ("" if result.changed or index == 0
                                                else " (unchanged)")
    return f"{index:02d} {result.name}{mark}"


class PrintAfter(StageObserver):
    """Print the IR after stages as TVMScript: all of them (``names=None``), the named ones, or
    (``changed_only``) the input and every stage that changed something, an "omitted" line for
    the others (LLVM's ``-print-changed``)."""

    def __init__(self, stream: TextIO | None = None, names: Iterable[str] | None = None,
                 changed_only: bool = False) -> None:
        self.stream, self.changed_only = stream, changed_only
        self.names = None if names is None else set(names)

    def stage(self, index: int, result: StageResult) -> None:
        out = self.stream or sys.stderr
        if self.names is not None and result.name not in self.names:
            return
        if index == 0 and not self.changed_only:
            return
        if result.skipped:
            print(f"# *** {result.name} (stage {index}) skipped by its -O gate or config ***",
                  file=out)
        elif self.changed_only and index > 0 and not result.changed:
            print(f"# *** IR after {result.name} (stage {index}) omitted because no change ***",
                  file=out)
        else:
            mark = "" if result.changed else ", unchanged"
            what = "Input IR" if index == 0 else f"IR after {result.name} (stage {index}{mark})"
            print(f"# *** {what} ***\n{stage_text(result.mod)}", file=out)


class DumpDir(StageObserver):
    """Write one numbered TVMScript file per stage into ``path`` (``00_Input.py``,
    ``01_LowerInitBlock.py``, ...) and a listing ``stages.txt`` marking stages that changed
    nothing ``(unchanged)`` (TVM's ``DumpIR`` instrument)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lines: list[str] = []

    def stage(self, index: int, result: StageResult) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        name = f"{index:02d}_{result.name}.py"
        label = stage_label(index, result)
        (self.path / name).write_text(f"# tirc stage {label}\n{stage_text(result.mod)}",
                                      encoding="utf-8")
        self.lines.append(f"{name:48s} {label[3:]}")

    def finish(self, results: Sequence[StageResult]) -> None:
        if self.lines:
            (self.path / "stages.txt").write_text("\n".join(self.lines) + "\n", encoding="utf-8")


class VerifyEach(StageObserver):
    """Check every stage's IR with ``tirkit.tir.analysis.verify_well_formed`` (TVM's
    ``verify_well_formed``, run after each pass as ``tir.enable_debug``-style checking).

    Raises:
        PassVerificationError: naming the pass that produced ill-formed IR.
    """

    def stage(self, index: int, result: StageResult) -> None:
        from tirkit.tir.analysis import verify_well_formed  # pylint: disable=import-outside-toplevel

        if index > 0 and not result.changed:
            return
        try:
            verify_well_formed(result.mod)
        except ValueError as err:
            where = "the input" if index == 0 else f"pass {result.name} (stage {index})"
            raise PassVerificationError(f"IR after {where} is not well formed: {err}") from None


class TimePasses(StageObserver):
    """Print each stage's wall time and share when the pipeline ends (TVM's
    ``PassTimingInstrument`` / LLVM's ``-time-passes``)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def finish(self, results: Sequence[StageResult]) -> None:
        out = self.stream or sys.stderr
        ran = [(i, r) for i, r in enumerate(results) if i > 0 and not r.skipped]
        total = sum(r.seconds for _, r in ran) or 1e-12
        print("===-- tirc pass execution timing report --===", file=out)
        print(f"  total {total * 1e3:.2f} ms over {len(ran)} passes", file=out)
        print(f"  {'ms':>9s} {'%':>6s}  stage", file=out)
        for i, r in ran:
            print(f"  {r.seconds * 1e3:9.3f} {100 * r.seconds / total:5.1f}%  "
                  f"{stage_label(i, r)}", file=out)


def make_recorder(*, print_after_all: bool = False, print_after: Iterable[str] = (),
                  print_changed: bool = False, dump_dir: str | Path | None = None,
                  verify_each: bool = False, time_passes: bool = False,
                  stream: TextIO | None = None, extra: Iterable[Any] = ()) -> StageRecorder:
    """A recorder with the observers the ``tirc`` switches of the same names ask for."""
    obs: list[StageObserver] = []
    if verify_each:
        obs.append(VerifyEach())
    if print_after_all:
        obs.append(PrintAfter(stream))
    elif print_after:
        obs.append(PrintAfter(stream, names=print_after))
    if print_changed:
        obs.append(PrintAfter(stream, changed_only=True))
    if dump_dir is not None:
        obs.append(DumpDir(dump_dir))
    if time_passes:
        obs.append(TimePasses(stream))
    return StageRecorder([*obs, *extra])
