"""A session replaying 1,000 rapid edits of a 2,000-line TVMScript file (edits that break and
repair syntax among them) against the real server keeps it alive, answers every request and ends
with diagnostics equal to a fresh open of the final text (issue 6). The same session measures
latency for bench/ (bench/bench_lsp.py); here only its consistency verdict is checked."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_thousand_edit_replay_ends_like_a_fresh_open(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_lsp.py"),
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=600,
                          check=False, cwd=ROOT)
    output = done.stdout + done.stderr
    assert "file: 2" in output and "lines" in output, output[-2000:]
    assert "1,000-edit replay ends like a fresh open: True" in output, output[-2000:]
    assert done.returncode == 0, output[-2000:]
