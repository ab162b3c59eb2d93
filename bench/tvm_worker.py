"""The Apache TVM side of the side-by-side benchmark (bench/compare.py), run by the Python named
in ``TIRKIT_BENCH_TVM`` (a scratch venv with apache-tvm; tirkit never imports tvm).

It reads one JSON request per line on stdin and answers one JSON line on stdout:

- ``{"op": "load", "name": k, "source": text, "target": {...}}``: remember kernel ``k``;
- ``{"op": "parse"|"print"|"compile", "name": k}``: time ``tvm.script.from_source`` /
  ``.script()`` / ``tvm.compile`` + the JIT (the first ``mod[k]``) once, answer
  ``{"s": seconds}`` (compile: also ``"compile_s"``, ``tvm.compile`` alone);
- ``{"op": "inputs", "name": k, "files": [...]}``: load the arguments (``.npy``) into TVM's own
  64-byte-aligned tensors (TVM's compiled code refuses or crashes on NumPy's 16-byte-aligned
  arrays, so the copy is made here, once, outside the timed calls);
- ``{"op": "run", "name": k}``: time one call; ``{"op": "output", "name": k, "index": i,
  "file": f}``: save argument ``i`` as ``.npy`` for the driver to verify;
- ``{"op": "facts"}``: versions.
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np
import tvm  # pylint: disable=import-error

STATE: dict[str, dict] = {}


def _timed(fn):
    """CPU seconds of this thread in ``fn`` (as bench/compare.py times tirkit's side)."""
    t0 = time.thread_time()
    out = fn()
    return time.thread_time() - t0, out


def _load(req):
    STATE[req["name"]] = {"source": req["source"], "target": tvm.target.Target(req["target"]),
                          "func": tvm.script.from_source(req["source"])}
    return {}


def _parse(req):
    st = STATE[req["name"]]
    s, st["func"] = _timed(lambda: tvm.script.from_source(st["source"]))
    return {"s": s}


def _print(req):
    st = STATE[req["name"]]
    s, text = _timed(st["func"].script)
    return {"s": s, "lines": text.count("\n") + 1}


def _compile(req):
    """``tvm.compile`` plus the first function lookup: TVM's LLVM module generates machine code
    lazily, on the first ``GetFunction`` (``LLVMModuleNode::InitMCJIT``), so ``tvm.compile``
    alone stops before the JIT that tirkit's ``build`` includes."""
    st = STATE[req["name"]]
    t0 = time.thread_time()
    st["mod"] = tvm.compile(st["func"], target=st["target"])
    t1 = time.thread_time()
    st["mod"][req["name"]]  # pylint: disable=pointless-statement  # the JIT runs here
    t2 = time.thread_time()
    return {"s": t2 - t0, "compile_s": t1 - t0}


def _inputs(req):
    st = STATE[req["name"]]
    st["args"] = [tvm.runtime.tensor(np.load(f)) for f in req["files"]]
    st["fn"] = st["mod"][req["entry"]]
    st["fn"](*st["args"])  # warm-up
    return {}


def _run(req):
    """Mean wall seconds of ``number`` back-to-back calls (TVM ``time_evaluator``'s number)."""
    st = STATE[req["name"]]
    number = int(req.get("number", 1))
    t0 = time.perf_counter()  # wall time: the kernels run on a thread pool
    for _ in range(number):
        st["fn"](*st["args"])
    return {"s": (time.perf_counter() - t0) / number}


def _output(req):
    np.save(req["file"], STATE[req["name"]]["args"][req["index"]].numpy())
    return {}


def _facts(_req):
    return {"tvm": tvm.__version__, "numpy": np.__version__, "python": sys.version.split()[0]}


OPS = {"load": _load, "parse": _parse, "print": _print, "compile": _compile, "inputs": _inputs,
       "run": _run, "output": _output, "facts": _facts}


def main() -> int:
    for line in sys.stdin:
        req = json.loads(line)
        try:
            reply = OPS[req["op"]](req)
        except Exception as exc:  # pylint: disable=broad-except  # reported to the driver
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
