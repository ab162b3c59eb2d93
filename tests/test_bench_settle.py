"""``bench/compare.py``'s run samples start on idle CPUs: after its rest a sample waits while
another process keeps a CPU busy (NumPy's OpenBLAS spins ~130 ms after each matmul, longer than
the rest, and a parallel kernel started meanwhile shares a core with it). No time is asserted
but that the wait covers a spinner's life."""
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import compare  # noqa: E402  pylint: disable=wrong-import-position

SPIN = "import time\nt = time.time()\nwhile time.time() - t < 0.8:\n    pass\n"


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="reads Linux's /proc/stat")
def test_a_run_sample_waits_while_another_process_spins():
    busy, total = compare._cpu_ticks()  # pylint: disable=protected-access
    assert 0 <= busy <= total
    spinner = subprocess.Popen([sys.executable, "-c", SPIN])
    try:
        time.sleep(0.2)  # started and spinning
        waited = compare._settle(0.0)  # pylint: disable=protected-access
        still_spinning = spinner.poll() is None
    finally:
        spinner.wait()
    assert waited >= 0.3 or not still_spinning
