"""The ``optnone`` functions of a module (the packed wrappers, and the compute functions that
only launch parallel loops: :func:`.compute_scope.runs_loops`) as a module of their own, for
code generation at ``-O0`` (no TVM counterpart: TVM compiles one module).

``optnone`` functions are not optimised, but LLVM's ``-O3`` code generation still ran over
them: the greedy register allocator and the other machine passes, ~17M instructions per
softmax build for its wrapper alone under callgrind (~7M at ``-O0``: fast register allocation,
no machine optimisation passes). A target machine has one level, so :func:`split_text` prints
the module as two texts, each global once:

- the optimised part: everything but the ``optnone`` functions, which are declared;
- the ``optnone`` part: those functions, every other function declared.

The functions the ``optnone`` ones call or take the address of (a compute function; the
closures handed to ``GOMP_parallel``), ``internal`` in the one-module IR, are printed with
external linkage in both, so the two object files link in the JIT; the machine code of every
optimised function is the same as in the one-module build (checked on the bench kernels).
Private globals (the messages) are printed in both; the optimised part's copies go unused and
LLVM's GlobalDCE drops them.
"""
from __future__ import annotations

from typing import Any

from llvmlite import ir

__all__ = ["wrappers", "split_text"]


def wrappers(module: ir.Module) -> list[ir.Function]:
    """The defined ``optnone`` functions of ``module`` (packed wrappers, loop-free compute
    functions)."""
    return [g for g in module.functions if g.blocks and "optnone" in g.attributes]


def _referenced(fns: set[ir.Function]) -> set[ir.Function]:
    """The defined functions outside ``fns`` that ``fns`` call or take the address of (a
    parallel loop's closure handed to ``GOMP_parallel``)."""
    out: set[ir.Function] = set()
    for fn in fns:
        for block in fn.blocks:
            for inst in block.instructions:
                for op in (getattr(inst, "callee", None), *inst.operands):
                    if isinstance(op, ir.Function) and op.blocks and op not in fns:
                        out.add(op)
    return out


def _prototype(fn: ir.Function) -> str:
    """``declare <ret> @name(<params>) <attrs>`` of the defined ``fn`` (external linkage)."""
    blocks, linkage = fn.blocks, fn.linkage
    fn.blocks, fn.linkage = [], ""
    try:
        buf: list[str] = []
        fn.descr_prototype(buf)
        return "".join(buf)
    finally:
        fn.blocks, fn.linkage = blocks, linkage


def split_text(module: ir.Module) -> tuple[str, str | None]:
    """``(optimised part, wrappers' part)`` of ``module`` as IR text; ``(str(module), None)``
    when it has no ``optnone`` function. Each global is printed once (what ``str(module)``
    prints, in its order); ``module`` is left as it was."""
    wrapped = set(wrappers(module))
    if not wrapped:
        return str(module), None
    callees = _referenced(wrapped)
    linkages = [(fn, fn.linkage) for fn in callees]
    for fn in callees:
        fn.linkage = ""
    try:
        head = ['; ModuleID = "%s"' % (module.name,), 'target triple = "%s"' % (module.triple,),
                'target datalayout = "%s"' % (module.data_layout,), '']
        head += [t.get_declaration() for t in module.get_identified_types().values()]
        main, outer = list(head), list(head)
        for g in module.globals.values():
            text = str(g)
            if isinstance(g, ir.Function) and g.blocks:
                (outer if g in wrapped else main).append(text)
                (main if g in wrapped else outer).append(_prototype(g))
            else:
                main.append(text)
                outer.append(text)
        # pylint: disable-next=protected-access
        metadata = module._get_metadata_lines()  # what str(module) ends with
    finally:
        for fn, linkage in linkages:
            fn.linkage = linkage
    return "\n".join(main + metadata), "\n".join(outer + metadata)
