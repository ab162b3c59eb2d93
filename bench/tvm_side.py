"""The driver's end of bench/tvm_worker.py: a subprocess running the Python named in
``TIRKIT_BENCH_TVM`` (a scratch venv with apache-tvm), one JSON request and reply per line."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import llvmlite.binding as llvm
import numpy as np


class TVMWorker:
    """Requests to the TVM process; ``timed(stage, name)`` returns seconds.

    Raises:
        RuntimeError: with the worker's message when a request fails.
    """

    def __init__(self, python: str, script: Path) -> None:
        env = dict(os.environ, TVM_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
        self.proc = subprocess.Popen([python, str(script)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        self.target = {"kind": "llvm", "mcpu": llvm.get_host_cpu_name(),
                       "num-cores": int(env["TVM_NUM_THREADS"])}

    def request(self, **req) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the TVM worker exited ({self.proc.wait()}) on {req['op']}")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"TVM {req['op']} {req.get('name', '')}: {reply['error']}")
        return reply

    def load(self, name: str, source: str) -> None:
        self.request(op="load", name=name, source=source, target=self.target)

    def timed(self, stage: str, name: str, **extra) -> float:
        return float(self.request(op=stage, name=name, **extra)["s"])

    def inputs(self, name: str, files: list[str]) -> None:
        self.request(op="inputs", name=name, entry=name, files=files)

    def output(self, name: str, index: int, path: Path) -> np.ndarray:
        self.request(op="output", name=name, index=index, file=str(path))
        return np.load(path)

    def facts(self) -> dict:
        return dict(self.request(op="facts"), target=self.target)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)
