"""Targets (tirkit.compiler.target; TVM's ``tvm.target.Target("llvm ...")``) and LLVM IR /
assembly / object emission for the host and for cross triples (x86-64, aarch64)."""
import re
import struct

import llvmlite.binding as llvm
import pytest

from tirkit.compiler.codegen import emit_assembly, emit_llvm, emit_object, optimize
from tirkit.compiler.target import Target
from tirkit.lang import from_source

KERNEL = '''
@T.prim_func
def scale(a: T.handle("float32"), b: T.handle("float32"), n: T.int32):
    A = T.Buffer((n,), "float32", data=a)
    B = T.Buffer((n,), "float32", data=b)
    for i in T.parallel(n // 4):
        B[T.Ramp(i * 4, 1, 4)] = A[T.Ramp(i * 4, 1, 4)] * T.Broadcast(T.float32(2), 4)
    for i in range(n // 4 * 4, n):
        B[i] = T.call_llvm_pure_intrin("float32", "llvm.sqrt", A[i])
'''

ELF_MACHINE = {"x86_64": 62, "aarch64": 183}


def test_target_defaults_to_the_host():
    t = Target()
    assert t.triple == llvm.get_process_triple() and t.is_host
    assert t.mcpu == llvm.get_host_cpu_name()
    assert t.features == llvm.get_host_cpu_features().flatten()
    assert Target.host() == t


def test_target_parse_tvm_strings():
    t = Target.parse("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon,+fp-armv8 "
                     "-opt-level=3 -keys=arm_cpu,cpu")
    assert (t.triple, t.mcpu, t.mattr, t.opt_level) == (
        "aarch64-linux-gnu", "cortex-a72", ("+neon", "+fp-armv8"), 3)
    assert not t.is_host and t.features == "+neon,+fp-armv8"
    cross = Target.parse("llvm -mtriple=aarch64-linux-gnu")
    assert cross.mcpu == "generic" and cross.features == ""
    assert Target.parse("aarch64-linux-gnu").triple == "aarch64-linux-gnu"
    assert Target.parse(str(t)) == t
    assert Target.parse(None) == Target()


@pytest.mark.parametrize("text,message", [
    ("opencl", "unsupported target kind 'opencl'"),
    ("cuda -arch=sm_20", "unsupported CUDA architecture"),
    ("llvm -mfoo=1", "unknown option '-mfoo=1'"),
    ("llvm -opt-level=7", "opt_level must be 0..3"),
    ("llvm -mtriple=nonsense-arch-os", "unknown target triple"),
    ("llvm -mtriple=x86_64-linux-gnu -mcpu=nonsense", "unknown -mcpu 'nonsense'"),
    ("llvm -mtriple=aarch64-linux-gnu -mattr=+avx512f", "unknown -mattr feature 'avx512f'"),
])
def test_target_errors(text, message):
    with pytest.raises(ValueError, match=message):
        Target.parse(text)


@pytest.mark.parametrize("triple", ["x86_64-linux-gnu", "aarch64-linux-gnu"])
def test_cross_emission_of_ir_assembly_and_object(triple):
    target = Target.parse(f"llvm -mtriple={triple}")
    ir_text = emit_llvm(from_source(KERNEL), target)
    assert f'target triple = "{triple}"' in ir_text
    opt = optimize(ir_text, target, opt_level=3)
    assert "GOMP_parallel" in opt
    asm = emit_assembly(opt, target)
    assert "scale:" in asm
    if triple.startswith("aarch64"):  # NEON 4 x float ops (x * 2 may become x + x)
        assert re.search(r"f(add|mul)\s+v\d+\.4s", asm)
    else:  # SSE/AVX packed single ops
        assert re.search(r"v?(add|mul)ps", asm)
    obj = emit_object(opt, target)
    assert obj[:4] == b"\x7fELF" and obj[4] == 2  # ELF, 64-bit
    machine = struct.unpack_from("<H", obj, 18)[0]
    assert machine == ELF_MACHINE[triple.split("-")[0]]


def test_object_defines_the_exported_symbol():
    target = Target.parse("llvm -mtriple=aarch64-linux-gnu")
    obj = emit_object(emit_llvm(from_source(KERNEL), target), target)
    ofile = llvm.ObjectFileRef.from_data(obj)
    names = {s.name() for s in ofile.sections()}
    assert b".text" in names
    assert b"scale" in obj and b"GOMP_parallel" in obj


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_optimize_each_level_verifies(level):
    ir_text = emit_llvm(from_source(KERNEL), Target())
    out = optimize(ir_text, Target(), opt_level=level)
    assert "define" in out and "scale" in out
