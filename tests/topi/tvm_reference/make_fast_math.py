"""Writes ``fast_math.json``: TVM's compiled ``topi.fast_exp``/``fast_tanh``/``fast_erf`` on
float32 inputs, the reference of ``tests/topi/test_topi_fast_math.py``. Run with a Python that
has TVM (never imported by the tests):

    /path/to/tvm-venv/bin/python tests/topi/tvm_reference/make_fast_math.py
"""
import json
from pathlib import Path

import numpy as np
import tvm
from tvm import te, topi

RANGES = {"fast_exp": (-88, 88), "fast_tanh": (-10, 10), "fast_erf": (-10, 10)}
EDGES = [-np.inf, -1000.0, -88.38, -9.0, -4.0, 0.0, 4.0, 9.0, 88.3, 88.5, 1000.0, np.inf]


def outputs(name: str, x: np.ndarray) -> np.ndarray:
    """TVM's compiled ``topi.<name>`` applied to ``x``."""
    A = te.placeholder((x.size,), "float32", name="A")
    lib = tvm.compile(te.create_prim_func([A, getattr(topi, name)(A)]), target="llvm")
    out = tvm.runtime.tensor(np.zeros_like(x))
    lib(tvm.runtime.tensor(x), out)
    return out.numpy()


def main() -> None:
    """200 uniform inputs over TVM's test range plus the edges, per operator."""
    rng = np.random.default_rng(0)
    data = {"about": f"TVM {tvm.__version__} topi.fast_* built for target llvm (generic "
                     "x86-64, no FMA); float32 bit patterns; made by make_fast_math.py"}
    for name, (lo, hi) in RANGES.items():
        x = np.concatenate([rng.uniform(lo, hi, 200), EDGES]).astype(np.float32)
        data[name] = {"x": x.view(np.uint32).tolist(),
                      "y": outputs(name, x).view(np.uint32).tolist()}
    path = Path(__file__).with_name("fast_math.json")
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
