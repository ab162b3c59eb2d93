"""Every kernel of examples/ compiled with ``tirkit.compiler.build`` and run against NumPy
(DESIGN.md §7; issue 5 acceptance): exact for integers, 1e-5 relative for float32. Also the
argument checks of the packed calling convention: wrong dtype / shape / ndim / non-contiguous
arrays raise ``ValueError`` naming the argument and both values.
"""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from references import KERNELS, assert_matches, f32  # examples/, via tests/conftest.py
from tirkit.compiler.pipeline import missing_passes
from tirkit.compiler.transform import as_module
from tirkit.lang import from_source

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PIECES = ["tirkit.compiler.target", "tirkit.compiler.codegen.llvm", "tirkit.compiler.runtime.jit",
          "tirkit.compiler.runtime.module"]


def needs_build():
    missing = missing_passes() + [m for m in PIECES if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"compiler pieces not delivered yet: {', '.join(missing)}")


def load(file):
    return as_module(from_source((EXAMPLES / file).read_text(), str(EXAMPLES / file)))


_BUILT = {}


def built(file, opt_level=2):
    """Build once per (file, opt_level) for the whole test session."""
    from tirkit.compiler import build

    key = (file, opt_level)
    if key not in _BUILT:
        _BUILT[key] = build(load(file), opt_level=opt_level)
    return _BUILT[key]


def run_case(kernel, opt_level=2, seed=0):
    args = kernel.inputs(np.random.default_rng(seed))
    index, expected = kernel.reference(args)
    built(kernel.file, opt_level)[kernel.entry](*args)
    assert_matches(args[index], expected)


def test_every_example_kernel_is_in_the_table():
    from tirkit.lang import parse_file

    units = {(p.name, u.name) for p in EXAMPLES.glob("*.py")
             for u in parse_file(p.read_text(), str(p)) if u.ir is not None}
    # kernels only used as a schedule's starting point (the naive 1024^3 matmul takes ~20 s) are
    # checked scheduled, in tests/schedule/test_examples.py
    import scheduled  # examples/, on sys.path through tests/conftest.py
    starts = {(s.kernel, s.entry) for s in scheduled.SCHEDULES}
    assert units - starts == {(k.file, k.entry) for k in KERNELS} - starts


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.entry)
def test_example_matches_numpy(kernel):
    needs_build()
    run_case(kernel)


@pytest.mark.parametrize("n", [1, 7, 1000, 4099])
def test_symbolic_shapes(n):
    needs_build()
    rng = np.random.default_rng(n)
    x, y = f32(rng, n), f32(rng, n)
    expected = 1.5 * x.astype(np.float64) + y  # (LLVM may contract a*x+y into one fma)
    built("symbolic.py")["axpy"](1.5, x, y)
    assert_matches(y, expected)


@pytest.mark.parametrize("level", [0, 3])
@pytest.mark.parametrize("kernel", [k for k in KERNELS if k.entry != "matmul_scheduled"],
                         ids=lambda k: k.entry)
def test_example_at_other_opt_levels(kernel, level):
    needs_build()
    run_case(kernel, level, seed=1)


def test_scheduled_matmul_compiles_at_every_level():
    needs_build()
    from tirkit.compiler import compile_module

    for level in (0, 1, 3):
        assert "define" in compile_module(load("matmul_scheduled.py"), opt_level=level).llvm_ir


def test_single_function_module_is_callable():
    needs_build()
    rng = np.random.default_rng(2)
    a, b, c = f32(rng, 4194304), f32(rng, 4194304), np.zeros(4194304, np.float32)
    built("vector_add.py")(a, b, c)
    np.testing.assert_array_equal(c, a + b)


class DLPackOnly:
    """Exposes an array only through the DLPack protocol."""

    def __init__(self, arr):
        self._arr = arr

    def __dlpack__(self, **kwargs):
        return self._arr.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._arr.__dlpack_device__()


def test_dlpack_arguments():
    needs_build()
    rng = np.random.default_rng(3)
    a, b, c = f32(rng, 128, 128), f32(rng, 128, 128), np.zeros((128, 128), np.float32)
    built("matmul.py")["main"](DLPackOnly(a), DLPackOnly(b), DLPackOnly(c))
    assert_matches(c, a.astype(np.float64) @ b)


# ------------------------------------------------------------------ wrong arguments
def _matmul_args():
    return [np.zeros((128, 128), np.float32) for _ in range(3)]


@pytest.mark.parametrize("change, words", [
    (lambda a: a.__setitem__(0, np.zeros((128, 128), np.float64)), ["A", "float32", "float64"]),
    (lambda a: a.__setitem__(1, np.zeros((128, 127), np.float32)), ["B", "128", "127"]),
    (lambda a: a.__setitem__(2, np.zeros((128 * 128,), np.float32)), ["C", "2", "1"]),
    (lambda a: a.__setitem__(0, np.zeros((128, 256), np.float32)[:, ::2]), ["A"]),
    (lambda a: a.__setitem__(1, np.zeros((128, 128), np.float32).T), ["B"]),
], ids=["dtype", "shape", "ndim", "strided", "transposed"])
def test_wrong_argument_is_a_clear_value_error(change, words):
    needs_build()
    args = _matmul_args()
    change(args)
    with pytest.raises(ValueError) as info:
        built("matmul.py")["main"](*args)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def test_non_contiguous_message_says_so():
    needs_build()
    args = _matmul_args()
    args[0] = np.zeros((128, 256), np.float32)[:, ::2]
    with pytest.raises(ValueError, match="(?i)contiguous|strides"):
        built("matmul.py")["main"](*args)


def test_symbolic_shape_mismatch_names_the_argument():
    needs_build()
    with pytest.raises(ValueError, match="y|Y"):
        built("symbolic.py")["axpy"](1.0, np.zeros(10, np.float32), np.zeros(11, np.float32))


def test_wrong_argument_count():
    needs_build()
    with pytest.raises((TypeError, ValueError), match="3"):
        built("matmul.py")["main"](np.zeros((128, 128), np.float32))


def test_scalar_where_array_expected():
    needs_build()
    args = _matmul_args()
    args[1] = 3.0
    with pytest.raises((TypeError, ValueError), match="B"):
        built("matmul.py")["main"](*args)
