"""tirc tune and tirc --db, through the real command line (a real tuning run, real workers)."""
import subprocess
import sys

from tirkit.cli.tirc import main as tirc

KERNEL = '''from tvm.script import tir as T


@T.prim_func
def mm(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32"),
       C: T.Buffer((32, 32), "float32")):
    for i, j, k in T.grid(32, 32, 32):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
'''


def test_tune_then_compile_with_the_best_schedule(tmp_path):
    src = tmp_path / "mm.py"
    src.write_text(KERNEL)
    db = tmp_path / "tune.sqlite"
    run = subprocess.run([sys.executable, "-m", "tirkit.cli.tirc", "tune", str(src),
                          "--trials", "4", "--batch", "4", "--db", str(db)],
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    assert "mm: 4 candidates measured, 4 valid" in run.stdout
    assert "GFLOP/s" in run.stdout and f"--db {db}" in run.stdout
    assert "4/4 measured, 4 valid, best" in run.stderr  # the progress bar
    out = tmp_path / "mm.tir"
    assert tirc([str(src), "--db", str(db), "--emit", "scheduled", "-o", str(out)]) == 0
    text = out.read_text()
    assert "T.parallel(" in text and 'T.block("C_update")' in text
    assert tirc([str(src), "--db", str(db), "-o", str(tmp_path / "mm.ll")]) == 0
    assert "define" in (tmp_path / "mm.ll").read_text()


def test_tune_usage_errors(tmp_path, capsys):
    src = tmp_path / "two.py"
    src.write_text(KERNEL + KERNEL.split("\n\n\n")[1].replace("def mm", "def mm2"))
    assert tirc(["tune", str(src), "--db", str(tmp_path / "x.sqlite")]) == 2
    assert "choose one with --entry" in capsys.readouterr().err
    assert tirc(["tune", str(src), "--entry", "mm", "--trials", "0"]) == 2
    capsys.readouterr()
    assert tirc([str(src), "--db", str(tmp_path / "missing.sqlite")]) == 1
    err = capsys.readouterr().err
    assert "--db" in err and "missing.sqlite: no such file" in err
