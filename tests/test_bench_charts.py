"""``bench/charts.py`` (issue 13): the benchmark tables drawn as PNG charts with matplotlib.
Synthetic result rows (no timing is asserted anywhere in the suite) and one real pipeline run
for the stage chart."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import charts  # noqa: E402  pylint: disable=wrong-import-position

PNG = b"\x89PNG\r\n\x1a\n"
ROWS = [{"name": "compile_main", "best_s": 0.5}, {"name": "run_softmax", "best_s": 0.01},
        {"name": "numpy_softmax", "best_s": 0.02}, {"name": "run_rowsum", "best_s": 0.004},
        {"name": "numpy_rowsum", "best_s": 0.003}, {"name": "tvm_rowsum", "best_s": 0.002}]


def test_kernel_rows_are_paired_with_numpy_and_tvm():
    assert charts.kernel_times(ROWS) == {"softmax": {"tirkit": 10.0, "NumPy": 20.0},
                                         "rowsum": {"tirkit": 4.0, "NumPy": 3.0, "TVM": 2.0}}


def test_charts_are_written_as_png(tmp_path):
    results = tmp_path / "latest.json"
    results.write_text(json.dumps({"meta": {}, "results": ROWS}))
    assert charts.main(["--results", str(results), "--out", str(tmp_path), "--no-stages"]) == 0
    for name in ("kernels.png", "compile.png"):
        data = (tmp_path / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 5000, name
    times = charts.stage_times([ROOT / "examples" / "matmul.py"])
    assert "LowerOpaqueBlock" in times["matmul"] and all(v >= 0 for v in times["matmul"].values())
    out = charts.plot_stages(times, tmp_path / "stages.png")
    assert out.read_bytes().startswith(PNG)
