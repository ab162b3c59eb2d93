"""The baseline side of an A/B bench (bench_print.py, bench_parse_corpus.py): tirkit of another
commit extracted with ``git archive``, and a bench script re-run as a child process that imports
that tirkit. Not run by ``make test``."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def extract_tirkit(rev: str, dest: str | Path) -> Path:
    """``git archive REV tirkit`` unpacked under ``dest``; returns ``dest`` (put it first on
    PYTHONPATH). Raises ``subprocess.CalledProcessError`` for an unknown revision."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "tirkit"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return Path(dest)


def run_side(script: str, tirkit_parent: Path, payload: object, repeat: int) -> dict:
    """``script --child --repeat N`` with ``payload`` as JSON on stdin and ``tirkit_parent`` first
    on PYTHONPATH; its JSON reply, whose ``"tirkit"`` names the package it imported. Raises
    ``SystemExit`` when the child fails or imported tirkit from elsewhere."""
    env = dict(os.environ, PYTHONPATH=str(tirkit_parent))
    res = subprocess.run([sys.executable, script, "--child", "--repeat", str(repeat)],
                         input=json.dumps(payload), capture_output=True, text=True, env=env,
                         check=False)
    if res.returncode != 0:
        raise SystemExit(f"measuring with {tirkit_parent} failed:\n{res.stderr[-3000:]}")
    side = json.loads(res.stdout)
    if not side["tirkit"].startswith(str(tirkit_parent)):
        raise SystemExit(f"the child imported tirkit from {side['tirkit']}, not {tirkit_parent}")
    return side
