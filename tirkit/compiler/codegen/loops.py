"""The serial loop of the LLVM code generator (``CodeGenLLVM::CreateSerialFor``): a
``for_begin``/``for_body``/``for_latch``/``for_end`` block structure with a ``phi`` induction
variable, used by serial ``For`` statements (:mod:`.stmt`) and by each thread's chunk of a
parallel loop (:mod:`.parallel`).

Unlike TVM's, a loop whose body the schedule already vectorized wider than the target's vector
registers carries ``!llvm.loop !{..., !"llvm.loop.unroll.disable"}``: its body is already
unrolled (a 32-lane float store on AVX-512 is two registers' worth; ``T.unroll`` inside makes
more), and LLVM's unroller fully unrolling such loops (matmul_packed's 32-step packing copies,
its 8-row micro-kernel) made LLVM's optimisation and code generation of matmul_packed and
matmul_scheduled 25-30% slower, for no measurable speed of the kernels. Loops of narrower bodies
(int8_matmul's one 16-lane int32 store, vector_add's one 16-lane float store) stay LLVM's to
unroll: full unrolling made int8_matmul ~20% faster.
"""
from __future__ import annotations

from typing import Any, Callable

from llvmlite import ir

from ...tir import expr as E
from .core import CodeGenLLVM
from .ir_values import MDString
from .types import const

__all__ = ["serial_loop", "loop_hints", "UNROLL_DISABLE", "UNROLLED_REGISTERS"]


def serial_loop(cg: CodeGenLLVM, var: E.Var, begin: ir.Value, end: ir.Value,
                body: Callable[[], Any], hints: dict[str, Any] | None = None) -> None:
    """``for (var = begin; var < end; ++var) body()`` with a phi induction variable. ``hints``
    are the loop's ``llvm.loop.*`` properties (a ``For`` annotation of that name: ``True`` for
    a flag such as ``llvm.loop.unroll.disable``, a bool or int for a valued one such as
    ``llvm.loop.vectorize.enable``)."""
    bld = cg.builder
    pre = bld.block
    head, block, latch, exit_ = (cg.new_block(n) for n in ("for_begin", "for_body",
                                                             "for_latch", "for_end"))
    bld.branch(head)
    bld.position_at_end(head)
    phi = bld.phi(begin.type, name=var.name_hint)
    phi.add_incoming(begin, pre)
    cmp = bld.icmp_signed if var.dtype.is_int() else bld.icmp_unsigned
    bld.cbranch(cmp("<", phi, end), block, exit_)
    bld.position_at_end(block)
    fs = cg.fs
    assert fs is not None  # (inside a function)
    fs.loop_exits.append((latch, exit_))
    stored = fs.vector_store_bits
    try:
        with cg.bind(var, phi):
            body()
    finally:
        fs.loop_exits.pop()
    if not cg.builder.block.is_terminated:
        bld.branch(latch)
    bld.position_at_end(latch)
    nxt = bld.add(phi, const(var.dtype, 1), flags=("nsw",) if var.dtype.is_int() else ())
    phi.add_incoming(nxt, latch)
    back = bld.branch(head)
    props = dict(hints or {})
    if fs.vector_store_bits - stored >= UNROLLED_REGISTERS * cg.target.vector_bits:
        props[UNROLL_DISABLE] = True
    if props:
        back.set_metadata("llvm.loop", _loop_id(cg.module, props))
    bld.position_at_end(exit_)


#: a loop whose body's vector stores hold this many of the target's widest vector registers or
#: more is left alone by LLVM's loop unroller
UNROLLED_REGISTERS = 2
#: the loop property that leaves a loop alone by LLVM's unroller
UNROLL_DISABLE = "llvm.loop.unroll.disable"


def loop_hints(annotations: dict[str, Any]) -> dict[str, Any]:
    """The ``llvm.loop.*`` entries of a ``For``'s annotations (set by ``UnrollAndJam``)."""
    return {k: v for k, v in annotations.items() if k.startswith("llvm.loop.")}


def _property_value(value: Any) -> list[Any]:
    if value is True:
        return []
    if isinstance(value, bool):
        return [ir.Constant(ir.IntType(1), int(value))]
    return [ir.Constant(ir.IntType(32), int(value))]


class _LoopID(ir.values.MDValue):
    """A loop's ``distinct !{!self, !{!"property"}...}`` node: LLVM requires the first operand
    to be the node itself, which llvmlite's ``add_metadata`` cannot make."""

    __eq__ = object.__eq__  # distinct: never merged with another loop's
    __hash__ = object.__hash__

    def descr(self, buf: list[str]) -> None:
        ops = ", ".join([self.get_reference(), *(op.get_reference() for op in self.operands)])
        buf += (f"distinct !{{{ops}}}", "\n")


def _loop_id(mod: ir.Module, properties: dict[str, Any]) -> ir.values.MDValue:
    """A new loop ID of ``mod`` carrying ``properties``: ``!{!"name"}`` for a ``True`` flag,
    ``!{!"name", i1 v}`` / ``!{!"name", i32 v}`` for a bool / int (each node shared)."""
    props = [mod.add_metadata([MDString(mod, name)] + _property_value(value))
             for name, value in properties.items()]
    return _LoopID(mod, props, name=str(len(mod.metadata)))
