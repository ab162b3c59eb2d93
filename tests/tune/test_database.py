"""The SQLite tuning database: best-per-workload queries, JSON-lines export/import,
apply_best, two concurrent writer processes and a killed writer (no committed row lost)."""
import json
import signal
import sqlite3
import subprocess
import sys
import textwrap

from tune_kernels import MATMUL, parse

from tirkit.ir import structural_equal
from tirkit.tune import Database, TuningRecord, apply_best, generate, workload_hash

WRITER = textwrap.dedent("""
    import sys
    from tirkit.tune import Database, TuningRecord
    path, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with Database(path) as db:
        for k in range(n):
            db.commit_record(TuningRecord("w", "llvm", f"{tag}-{k}", (0.001 * (k + 1),)))
            print(k, flush=True)
""")


def _writer(path, tag, n):
    return subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, str(n)],
                            stdout=subprocess.PIPE, text=True)


def test_top_k_export_import(tmp_path):
    with Database(tmp_path / "a.sqlite") as db:
        db.commit_workload(parse(MATMUL))
        for k, secs in enumerate([3e-3, 1e-3, 2e-3]):
            db.commit_record(TuningRecord("w", "llvm", f"t{k}", (secs, secs * 2)))
        db.commit_record(TuningRecord("w", "llvm", "bad", (), "build: boom"))
        db.commit_record(TuningRecord("w", "other", "t9", (1e-4,)))
        assert [r.trace for r in db.get_top_k("w", 2, "llvm")] == ["t1", "t2"]
        assert db.get_top_k("w", 1)[0].trace == "t9"
        assert len(db) == 5
        assert db.export_jsonl(tmp_path / "a.jsonl") == 5
    with Database(tmp_path / "b.sqlite") as other:
        assert other.import_jsonl(tmp_path / "a.jsonl") == 5
        recs = list(other.records("w"))
        assert [r.trace for r in recs] == ["t0", "t1", "t2", "bad", "t9"]
        assert recs[3].error == "build: boom" and recs[3].best == float("inf")
        assert recs[1].run_secs == (1e-3, 2e-3)


def test_apply_best_replays_the_fastest_trace(tmp_path):
    func = parse(MATMUL)
    fast, slow = generate(func, 1), generate(func, 2)
    with Database(tmp_path / "a.sqlite") as db:
        key = db.commit_workload(func)
        assert key == workload_hash(func)
        db.commit_record(TuningRecord(key, "llvm", json.dumps(slow.trace.as_json()), (2e-3,)))
        db.commit_record(TuningRecord(key, "llvm", json.dumps(fast.trace.as_json()), (1e-3,)))
        best = apply_best(func, db)
    assert structural_equal(best, fast.mod["main"])
    other = parse(MATMUL.replace("32", "16"))  # another workload: no records, kept as it is
    assert apply_best(other, str(tmp_path / "a.sqlite")) is other


def test_two_concurrent_writers_lose_no_row(tmp_path):
    path = tmp_path / "c.sqlite"
    Database(path).close()
    procs = [_writer(path, tag, 150) for tag in ("a", "b")]
    for p in procs:
        out, _ = p.communicate(timeout=300)
        assert p.returncode == 0 and out.split()[-1] == "149"
    with Database(path) as db:
        traces = {r.trace for r in db.records()}
    assert traces == {f"{t}-{k}" for t in "ab" for k in range(150)}


def test_a_killed_writer_keeps_every_committed_row(tmp_path):
    path = tmp_path / "k.sqlite"
    proc = _writer(path, "x", 100000)
    acked = -1
    for line in proc.stdout:  # type: ignore[union-attr]
        acked = int(line)
        if acked >= 40:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with Database(path) as db:
        rows = [r.trace for r in db.records()]
    assert len(rows) >= acked + 1
    assert rows[:acked + 1] == [f"x-{k}" for k in range(acked + 1)]
