"""Scalable vectors (AArch64 SVE; TVM's ``float32xvscalex4``, ``T.vscale()``): the units of
TVM v0.20's tests that use them parse, print as TVM 0.27 prints them, and read back to the same
IR; compiling them for the CPU is refused with a message that says why (tirkit's LLVM code
generator makes fixed-length vectors)."""
from __future__ import annotations

import pytest

from tirkit import tir
from tirkit.compiler import build
from tirkit.compiler.codegen.types import CodegenError
from tirkit.ir import structural_equal
from tirkit.ir.dtype import DataType
from tirkit.lang import from_source, parse_file
from tirkit.printer import script

HEAD = "from tvm.script import tir as T\n\n\n"

# TVM v0.20: tests/python/codegen/test_target_codegen_aarch64.py and
# tests/python/tir-transform/test_tir_transform_vectorize.py (written here in their style)
UNITS = HEAD + '''@T.prim_func
def copy(a: T.handle, b: T.handle):
    A = T.match_buffer(a, (T.int32(4) * T.vscale(),), "float32")
    B = T.match_buffer(b, (T.int32(4) * T.vscale(),), "float32")
    B[T.ramp(0, 1, 4 * T.vscale())] = A[T.ramp(0, 1, 4 * T.vscale())]


@T.prim_func
def mask(a: T.handle):
    A = T.match_buffer(a, (30,), "int1")
    for i in range(T.ceildiv(30, T.vscale() * 4)):
        A[i : i + T.vscale() * 4] = T.get_active_lane_mask("uint1xvscalex4", i, 30)


@T.prim_func
def select(A: T.Buffer((25,), "float32"), n: T.int32, x: T.int32):
    if x < n:
        A[T.Ramp(0, 1, T.vscale() * 4)] = A[T.Ramp(0, 1, T.vscale() * 4)] + T.Broadcast(T.float32(1), T.vscale() * 4)
    else:
        A[T.Ramp(0, 1, T.vscale() * 4)] = T.Select(T.get_active_lane_mask("boolxvscalex4", 0, n), T.Broadcast(T.float32(2), T.vscale() * 4), T.Broadcast(T.float32(3), T.vscale() * 4))


@T.prim_func
def vectorized(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i_0 in T.serial(T.ceildiv(16, 4 * T.vscale())):
        for i_1 in T.vectorized(4 * T.vscale()):
            if i_0 * 4 * T.vscale() + i_1 < 14:
                B[i_0 * 4 * T.vscale() + i_1] = A[i_0 * 4 * T.vscale() + i_1] + 1.0
'''


def _units():
    units = parse_file(UNITS, "sve.py")
    assert [u.diagnostics for u in units] == [[]] * 4
    return {u.name: u.ir for u in units}


def test_scalable_dtypes_keep_minus_the_factor_in_lanes_as_tvm():
    t = DataType("float32xvscalex4")
    assert (t.code, t.bits, t.lanes) == (DataType("float32").code, 32, -4)
    assert t.is_scalable_vector() and t.vscale_factor == 4 and not t.is_vector()
    assert str(DataType("uint1xvscalex4")) == "boolxvscalex4"  # as TVM 0.27 prints it
    assert str(DataType("int8").with_scalable_vscale_factor(16)) == "int8xvscalex16"
    for bad in ("float32xvscalex1", "float32x4xvscalex4", "handlexvscalex4"):
        with pytest.raises(ValueError, match="unknown dtype"):
            DataType(bad)
    with pytest.raises(ValueError, match="not a scalable vector"):
        _ = DataType("float32x4").vscale_factor


def test_ramp_and_broadcast_take_vscale_lanes_in_either_order():
    """TVM's Ramp/Broadcast constructors: lanes ``k * vscale()`` or ``vscale() * k`` become
    ``vscale() * k`` and the dtype ``...xvscalexk``; anything else is refused."""
    for lanes in (4 * tir.vscale(), tir.vscale() * 4):
        r = tir.Ramp(tir.IntImm("int32", 0), tir.IntImm("int32", 1), lanes)
        assert str(r.dtype) == "int32xvscalex4"
        assert structural_equal(r.lanes, tir.vscale() * 4)
        b = tir.Broadcast(tir.FloatImm("float32", 1.0), lanes)
        assert str(b.dtype) == "float32xvscalex4"
    n = tir.Var("n", "int32")
    with pytest.raises(ValueError, match=r"T.vscale\(\) \* k"):
        tir.Broadcast(tir.FloatImm("float32", 1.0), n * 4)
    assert tir.Broadcast(tir.FloatImm("float32", 1.0), 8).lanes == 8  # fixed: an int, as before


def test_units_print_as_tvm_027_and_read_back():
    units = _units()
    for name, func in units.items():
        assert structural_equal(from_source(script(func)), func), name
    # what TVM 0.27 prints for the same IR (its tirx printer; looked up once with apache-tvm)
    sel = script(units["select"])
    assert "A[0:T.vscale() * 4] = A[T.Ramp(0, 1, T.vscale() * 4)] + T.Broadcast(T.float32(1.0), " \
        "T.vscale() * 4)" in sel
    assert 'T.Select(T.get_active_lane_mask("boolxvscalex4", 0, n), ' \
        "T.Broadcast(T.float32(2.0), T.vscale() * 4), T.Broadcast(T.float32(3.0), " \
        "T.vscale() * 4))" in sel
    assert 'A[i:i + T.vscale() * 4] = T.Cast("int1xvscalex4", ' \
        'T.get_active_lane_mask("boolxvscalex4", i, 30))' in script(units["mask"])


@pytest.mark.parametrize("name", ["copy", "mask", "select", "vectorized"])
def test_the_cpu_code_generator_refuses_scalable_vectors_by_name(name):
    with pytest.raises(CodegenError, match="scalable vectors .* need an AArch64 SVE target"):
        build(_units()[name])
