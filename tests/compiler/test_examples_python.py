"""``python examples/KERNEL.py`` works without TVM (issue 13): the file falls back to tirkit's
front end for ``T``, and its ``__main__`` block compiles the kernel, runs it on the inputs of
``references.py`` and checks it against NumPy, printing each step. ``python
examples/schedule_X.py`` applies the schedule to its kernel, prints the trace and checks it. Run as a user would: a fresh
interpreter, from another working directory.
"""
import subprocess
import sys
from pathlib import Path

import pytest

from tirkit.lang import parse_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KERNEL_FILES = sorted(p for p in EXAMPLES.glob("*.py")
                      if any(u.ir is not None for u in parse_file(p.read_text(), str(p))))


def test_every_kernel_file_is_runnable_with_python():
    assert len(KERNEL_FILES) >= 8
    for path in KERNEL_FILES:
        text = path.read_text()
        assert 'if __name__ == "__main__":' in text and "run_example.main(" in text, path.name
        assert "from tirkit.lang import tir as T" in text, path.name


def test_every_schedule_script_is_runnable_with_python():
    scripts = sorted(EXAMPLES.glob("schedule_*.py"))
    assert len(scripts) >= 4
    for path in scripts:
        assert "run_example.run_schedule(__file__)" in path.read_text(), path.name


@pytest.mark.parametrize("name, words", [
    ("schedule_rowsum.py", ["applied to rowsum.py", "sch.rfactor(loop=", "matches NumPy"]),
    ("matmul.py", ["@T.prim_func main parsed by tirkit.lang", "matches NumPy", "GFLOP/s"]),
    ("symbolic.py", ["axpy", "1.5, float32[1000003]", "matches NumPy"]),
    ("rowsum.py", ["float32[4096, 4096], float32[4096]", "matches NumPy"]),
])
def test_python_runs_the_example(tmp_path, name, words):
    proc = subprocess.run([sys.executable, str(EXAMPLES / name)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""
    for word in words:
        assert word in proc.stdout, proc.stdout
