"""The serial loop of the LLVM code generator (``CodeGenLLVM::CreateSerialFor``): a
``for_begin``/``for_body``/``for_latch``/``for_end`` block structure with a ``phi`` induction
variable, used by serial ``For`` statements (:mod:`.stmt`) and by each thread's chunk of a
parallel loop (:mod:`.parallel`).
"""
from __future__ import annotations

from typing import Any, Callable

from llvmlite import ir

from ...tir import expr as E
from .core import CodeGenLLVM
from .types import const

__all__ = ["serial_loop"]


def serial_loop(cg: CodeGenLLVM, var: E.Var, begin: ir.Value, end: ir.Value,
                body: Callable[[], Any]) -> None:
    """``for (var = begin; var < end; ++var) body()`` with a phi induction variable."""
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
    cg.fs.loop_exits.append((latch, exit_))
    try:
        with cg.bind(var, phi):
            body()
    finally:
        cg.fs.loop_exits.pop()
    if not cg.builder.block.is_terminated:
        bld.branch(latch)
    bld.position_at_end(latch)
    nxt = bld.add(phi, const(var.dtype, 1), flags=("nsw",) if var.dtype.is_int() else ())
    phi.add_incoming(nxt, latch)
    bld.branch(head)
    bld.position_at_end(exit_)
