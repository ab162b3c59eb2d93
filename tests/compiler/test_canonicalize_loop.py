"""Loop steps (TVM 0.27 ``For.step``) through the compiler: ``CanonicalizeLoop`` is the first
stage of lowering, so a stepped tirx loop builds and runs on real arrays as the classic dialect's
loop (lowered to a unit-stride loop at parse time) did; a step that is not provably >= 1 is an
error naming the loop (TVM 0.27: ``InternalError: Loop step for i may not be positive: -3``)."""
from __future__ import annotations

import numpy as np
import pytest

from tirkit import tir
from tirkit.compiler import PIPELINE, build
from tirkit.compiler.codegen import CodegenError
from tirkit.compiler.passes.canonicalize_loop import LoopStepError, canonicalize_loop
from tirkit.compiler.transform import as_module, get_pass
from tirkit.ir import structural_equal
from tirkit.lang import from_source

TIRX = "from tvm.script import tirx as T\n\n\n"
TIR = "from tvm.script import tir as T\n\n\n"

KERNEL = '''@T.prim_func
def f(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    for i in range(1, 128, 5):
        B[i] = A[i] + T.float32(1.0)
    for a in range(2, 16, 3):
        for c in T.serial(a, 16, step=4):
            B[a * 8 + c] = A[c] * T.float32(2.0)
    for p in T.parallel(3, 50, step=7):
        B[p] = B[p] - T.float32(1.0)
    for v in T.vectorized(0, 8, step=2):
        B[120 + v] = T.float32(7.0)
'''


def _expected(A: np.ndarray) -> np.ndarray:
    B = np.zeros(128, "float32")
    for i in range(1, 128, 5):
        B[i] = A[i] + 1
    for a in range(2, 16, 3):
        for c in range(a, 16, 4):
            B[a * 8 + c] = A[c] * 2
    for p in range(3, 50, 7):
        B[p] = B[p] - 1
    for v in range(0, 8, 2):
        B[120 + v] = 7
    return B


def _run(func) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    A = rng.random(128, dtype="float32")
    B = np.zeros(128, "float32")
    build(func)["f"](A, B)
    return A, B


def test_canonicalize_loop_is_the_first_stage():
    assert PIPELINE[0].name == "CanonicalizeLoop"


def test_tirx_steps_are_kept_and_build_as_the_classic_loops_did():
    stepped, classic = from_source(TIRX + KERNEL), from_source(TIR + KERNEL)
    steps = []
    tir.stmt_functor.post_order_visit(
        stepped.body, lambda n: steps.append(n.step) if isinstance(n, tir.For) else None)
    assert [None if s is None else s.value for s in steps] == [5, 4, 3, 7, 2]
    A, B = _run(stepped)
    np.testing.assert_array_equal(B, _expected(A))
    A2, B2 = _run(classic)
    np.testing.assert_array_equal(B2, _expected(A2))


def test_symbolic_extent_with_a_step_that_does_not_divide_it():
    func = from_source(TIRX + '''@T.prim_func
def f(a: T.handle, n: T.int32):
    A = T.match_buffer(a, (n,), "int32")
    for i in range(3, n, 4):
        A[i] = i
''')
    for n in (3, 4, 7, 8, 17):
        A = np.full(n, -1, "int32")
        build(func)["f"](A, n)
        want = np.full(n, -1, "int32")
        want[3::4] = np.arange(3, n, 4)
        np.testing.assert_array_equal(A, want)


@pytest.mark.parametrize("step, shown", [("-3", "-3"), ("0", "0"), ("s", "s")])
def test_a_step_not_provably_positive_is_an_error_naming_the_loop(step, shown):
    func = from_source(TIRX + f'''@T.prim_func
def f(B: T.Buffer((128,), "float32"), s: T.int32):
    for i in range(4):
        for jj in T.serial(0, 127, step={step}):
            B[jj] = T.float32(1.0)
''')
    with pytest.raises(LoopStepError, match=f"loop 'jj' may not be positive: {shown}"):
        canonicalize_loop(func)
    with pytest.raises(LoopStepError, match="'jj'"):
        build(func)


def test_canonical_function_is_returned_as_it_is():
    func = from_source(TIRX + '''@T.prim_func
def f(B: T.Buffer((8,), "float32")):
    for i in range(8):
        B[i] = T.float32(1.0)
''')
    assert canonicalize_loop(func) is func


def test_code_generator_refuses_a_step_it_is_given(monkeypatch):
    from tirkit.compiler import pipeline  # pylint: disable=import-outside-toplevel

    func = from_source(TIRX + '''@T.prim_func
def f(B: T.Buffer((8,), "float32")):
    for i in range(0, 8, 2):
        B[i] = T.float32(1.0)
''')
    refusing = {"CanonicalizeLoop", "LoopPartition", "VectorizeLoop", "UnrollLoop", "UnrollAndJam"}
    monkeypatch.setattr(pipeline, "PIPELINE", [s for s in PIPELINE if s.name not in refusing])
    with pytest.raises(CodegenError, match="loop 'i' steps by 2"):
        build(func)


def test_for_step_field():
    i = tir.Var("i", "int64")
    loop = tir.For(i, 1, 127, tir.ForKind.SERIAL, tir.Evaluate(0), step=5)
    assert loop.step.dtype == "int64" and not loop.has_trivial_step()
    assert loop.with_changes(step=None).has_trivial_step()
    assert tir.For(i, 0, 4, tir.ForKind.SERIAL, tir.Evaluate(0), step=1).has_trivial_step()
    assert not structural_equal(loop, loop.with_changes(step=None))
    assert structural_equal(loop, loop.with_changes(step=tir.IntImm("int64", 5)))
    with pytest.raises(TypeError, match="step"):
        tir.For(i, 0, 4, tir.ForKind.SERIAL, tir.Evaluate(0), step=tir.Var("s", "int32"))


@pytest.mark.parametrize("name, kind", [("UnrollLoop", "T.unroll"),
                                        ("VectorizeLoop", "T.vectorized")])
def test_a_pass_that_counts_iterations_refuses_a_step(name, kind):
    """Run on its own (the pipeline runs CanonicalizeLoop first), a pass that counts a loop's
    iterations names the stepped loop instead of reading its step as 1 (TVM 0.27's passes do)."""
    func = from_source(TIRX + f'''@T.prim_func
def f(B: T.Buffer((8,), "float32")):
    for i in {kind}(0, 8, step=2):
        B[i] = T.float32(1.0)
''')
    with pytest.raises(LoopStepError, match=f"{name}: loop 'i' steps by 2"):
        get_pass(name)(as_module(func))


def test_lower_opaque_block_and_narrow_data_type_keep_a_step():
    func = from_source(TIRX + '''@T.prim_func
def f(B: T.Buffer((8,), "float32")):
    for i in T.serial(T.int64(0), T.int64(8), step=T.int64(2), annotations={"pragma_x": 1}):
        B[i] = T.float32(1.0)
''')
    lowered = get_pass("LowerOpaqueBlock")(as_module(func))["f"].body.body
    assert lowered.step.value == 2 and not lowered.annotations
    narrowed = get_pass("NarrowDataType", target_bits=32)(as_module(func))["f"].body
    assert narrowed.loop_var.dtype == "int32" and narrowed.step.dtype == "int32"
