"""The tuning database: every measured candidate in one SQLite file (mirrors MetaSchedule's
``Database`` / ``JSONDatabase``: workloads by structural hash, tuning records with trace, run
times and target; ``get_top_k``), safe for concurrent writers (WAL journal, immediate
transactions, a busy timeout) and for a killed run (each record is its own transaction).
"""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS workloads (
    hash TEXT PRIMARY KEY, script TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT, workload TEXT NOT NULL REFERENCES workloads(hash),
    target TEXT NOT NULL, trace TEXT NOT NULL, run_secs TEXT, error TEXT,
    best REAL, created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS records_best ON records (workload, target, best);
"""


@dataclass(frozen=True)
class TuningRecord:
    """One measured candidate (``TuningRecord``): workload hash, target, trace JSON, run times
    in seconds (empty on failure) and the error, if any."""

    workload: str
    target: str
    trace: str
    run_secs: tuple[float, ...]
    error: str | None = None

    @property
    def best(self) -> float:
        """The fastest run in seconds (infinity when it failed)."""
        return min(self.run_secs) if self.run_secs and self.error is None else float("inf")


def workload_hash(func: Any) -> str:
    """The key of a workload: its structural hash as 16 hex digits."""
    from tirkit.ir import structural_hash  # pylint: disable=import-outside-toplevel

    return f"{structural_hash(func):016x}"


class Database:
    """A SQLite tuning database at ``path`` (created when missing).

    Raises:
        sqlite3.Error: when the file cannot be opened or is not a tirkit database.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.conn = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(SCHEMA)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def commit_workload(self, func: Any) -> str:
        """Register ``func`` (``Database.commit_workload``); returns its hash."""
        key = workload_hash(func)
        self.conn.execute("INSERT OR IGNORE INTO workloads VALUES (?, ?, ?)",
                          (key, func.script(), time.time()))
        return key

    def commit_record(self, record: TuningRecord) -> None:
        """Store one measured candidate in its own transaction (``Database.commit_tuning_record``)."""
        best = record.best if record.best != float("inf") else None
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.execute(
                "INSERT INTO records (workload, target, trace, run_secs, error, best, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (record.workload, record.target, record.trace, json.dumps(list(record.run_secs)),
                 record.error, best, time.time()))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def get_top_k(self, workload: str, k: int, target: str | None = None) -> list[TuningRecord]:
        """The ``k`` fastest successful records of ``workload`` (``Database.get_top_k``)."""
        sql = "SELECT workload, target, trace, run_secs, error FROM records " \
              "WHERE workload = ? AND best IS NOT NULL"
        args: list[Any] = [workload]
        if target is not None:
            sql += " AND target = ?"
            args.append(target)
        rows = self.conn.execute(sql + " ORDER BY best LIMIT ?", args + [k]).fetchall()
        return [_record(r) for r in rows]

    def records(self, workload: str | None = None) -> Iterator[TuningRecord]:
        """Every record (of one workload, when given), oldest first."""
        sql = "SELECT workload, target, trace, run_secs, error FROM records"
        rows = self.conn.execute(sql + (" WHERE workload = ?" if workload else "") +
                                 " ORDER BY id", (workload,) if workload else ())
        for row in rows:
            yield _record(row)

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM records").fetchone()[0])

    def export_jsonl(self, path: str | Path) -> int:
        """Write every workload and record as JSON lines; returns the number of records."""
        n = 0
        with open(path, "w", encoding="utf-8") as fh:
            for key, script in self.conn.execute("SELECT hash, script FROM workloads"):
                fh.write(json.dumps({"workload": key, "script": script}) + "\n")
            for rec in self.records():
                fh.write(json.dumps({"record": rec.__dict__ | {"run_secs": list(rec.run_secs)}})
                         + "\n")
                n += 1
        return n

    def import_jsonl(self, path: str | Path) -> int:
        """Read what :meth:`export_jsonl` wrote; returns the number of records added."""
        n = 0
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                item = json.loads(line)
                if "workload" in item:
                    self.conn.execute("INSERT OR IGNORE INTO workloads VALUES (?, ?, ?)",
                                      (item["workload"], item["script"], time.time()))
                else:
                    r = item["record"]
                    self.commit_record(TuningRecord(r["workload"], r["target"], r["trace"],
                                                    tuple(r["run_secs"]), r["error"]))
                    n += 1
        return n


def _record(row: tuple) -> TuningRecord:
    workload, target, trace, run_secs, error = row
    return TuningRecord(workload, target, trace, tuple(json.loads(run_secs or "[]")), error)


def apply_best(mod: Any, database: "Database | str | Path", target: str = "llvm") -> Any:
    """``mod`` (a PrimFunc or IRModule) with each PrimFunc replaced by the best schedule the
    database holds for it (``apply_best``; functions without records are kept).

    Raises:
        ScheduleError: when a stored trace no longer applies.
    """
    from tirkit import tir  # pylint: disable=import-outside-toplevel
    from tirkit.ir import IRModule  # pylint: disable=import-outside-toplevel
    from tirkit.schedule import Schedule, Trace  # pylint: disable=import-outside-toplevel

    db = database if isinstance(database, Database) else Database(database)
    funcs = {"main": mod} if isinstance(mod, tir.PrimFunc) else dict(mod.functions)
    out = {}
    for key, func in funcs.items():
        top = db.get_top_k(workload_hash(func), 1, target) if isinstance(func, tir.PrimFunc) \
            else []
        if top:
            sch = Schedule(func, debug_mask="none")
            Trace.from_json(top[0].trace).apply_to_schedule(sch)
            func = next(f for f in sch.mod.functions.values() if isinstance(f, tir.PrimFunc))
        out[key] = func
    if isinstance(mod, tir.PrimFunc):
        return out["main"]
    return IRModule(out, dict(mod.attrs))
