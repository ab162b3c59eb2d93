"""The schedule scripts of examples/ and the kernels they apply to: one table shared by the
tests (tests/schedule/test_examples.py), ``make demo`` and ``bench/bench_schedule.py``.

``apply(entry)`` parses the kernel statically, runs the schedule function and returns the
Schedule (its ``mod`` and ``trace``).
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Scheduled:
    """A kernel file, its entry, the schedule script and the reference kernel (``references``
    entry) whose inputs and NumPy reference apply to the scheduled kernel too."""

    kernel: str
    entry: str
    script: str
    reference: str


SCHEDULES = [
    Scheduled("matmul_naive.py", "matmul_naive", "schedule_matmul.py", "matmul_scheduled"),
    Scheduled("matmul_naive.py", "matmul_naive", "schedule_matmul_packed.py", "matmul_packed"),
    Scheduled("conv2d_nchw.py", "conv2d_nchw", "schedule_conv2d.py", "conv2d_nchw"),
    Scheduled("softmax.py", "softmax", "schedule_softmax.py", "softmax"),
    Scheduled("rowsum.py", "rowsum", "schedule_rowsum.py", "rowsum"),
]


def load_schedule(script: str) -> Any:
    """The ``schedule`` function of a schedule script of examples/."""
    spec = importlib.util.spec_from_file_location(script[:-3], HERE / script)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.schedule


def kernel_module(item: Scheduled) -> Any:
    """The kernel's IRModule, parsed without running the file."""
    from tirkit.compiler.transform import as_module  # pylint: disable=import-outside-toplevel
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel
    path = HERE / item.kernel
    return as_module(from_source(path.read_text(), str(path)))


def apply(item: Scheduled) -> Any:
    """A Schedule of the kernel with the script's schedule applied."""
    from tirkit.schedule import Schedule  # pylint: disable=import-outside-toplevel
    sch = Schedule(kernel_module(item))
    sch.work_on(item.entry)
    load_schedule(item.script)(sch)
    return sch
