"""How long each side's worker threads stay busy after a parallel kernel returns (the reason for
``bench/compare.py --pause``): the process's CPU use over the 50 ms that follow a delay after a
call of the vector_add kernel, for tirkit (libgomp) and, with ``--tvm PYTHON``, TVM 0.27 (its
thread pool spins with ``sched_yield`` before it sleeps).

    .venv/bin/python bench/thread_spin.py --tvm /path/to/tvm-venv/bin/python
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

import numpy as np

DELAYS = (0.0, 0.02, 0.05, 0.1, 0.2)

_PROBE = r'''
import os, sys, time
def probe(call, delays):
    call()
    for delay in delays:
        call()
        time.sleep(delay)
        t0, w0 = sum(os.times()[:2]), time.perf_counter()
        time.sleep(0.05)
        busy = (sum(os.times()[:2]) - t0) / (time.perf_counter() - w0)
        print(f"{delay * 1e3:5.0f} ms after a call: {100 * busy:4.0f}% of a core over the next 50 ms")
'''

_TVM = _PROBE + r'''
import numpy as np, tvm
fn = tvm.compile(tvm.script.from_source(sys.stdin.read()), target=tvm.target.Target(
    {"kind": "llvm", "num-cores": 2}))["vector_add"]
a = [tvm.runtime.tensor(np.zeros(4194304, "float32")) for _ in range(3)]
probe(lambda: fn(*a), [float(x) for x in sys.argv[1:]])
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tvm", default=os.environ.get("TIRKIT_BENCH_TVM", ""))
    args = parser.parse_args()
    from compare import tirx_text  # pylint: disable=import-outside-toplevel

    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel

    scope: dict = {}
    exec(_PROBE, scope)  # pylint: disable=exec-used  # the same probe both sides run
    fn = build(from_source(tirx_text("vector_add")), opt_level=3)["vector_add"]
    a = [np.zeros(4194304, "float32") for _ in range(3)]
    print("tirkit (libgomp):")
    scope["probe"](lambda: fn(*a), DELAYS)
    if args.tvm:
        print("TVM 0.27 (its thread pool):", flush=True)
        subprocess.run([args.tvm, "-c", _TVM, *map(str, DELAYS)], input=tirx_text("vector_add"),
                       text=True, check=True, env=dict(os.environ, TVM_NUM_THREADS="2"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
