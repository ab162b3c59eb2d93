"""Complete what a TVMScript author left implicit (mirrors TVM's ``ScriptComplete``): the
implicit root block of a function with blocks, and the ``T.reads``/``T.writes`` of blocks that
did not declare them."""
from __future__ import annotations

from typing import Any

from tirkit import tir
from tirkit.ir import IRModule
from tirkit.ir.node import fill_missing_spans
from tirkit.tir.block_access import get_block_read_write_region
from tirkit.tir.stmt_functor import StmtMutator

from .ir_builder.tir_frames import DETECT_ACCESS


class _Completer(StmtMutator):
    def __init__(self) -> None:
        super().__init__()
        self.has_block = False

    def visit_block_(self, op: tir.Block) -> tir.Stmt:
        self.has_block = True
        block = super().visit_block_(op)
        mask = block.annotations.get(DETECT_ACCESS)
        if mask is None:
            return block
        reads, writes = get_block_read_write_region(block)
        annotations = {k: v for k, v in block.annotations.items() if k != DETECT_ACCESS}
        new = block.with_changes(reads=reads if int(mask) & 1 else block.reads,
                                 writes=writes if int(mask) & 2 else block.writes,
                                 annotations=annotations)
        fill_missing_spans(new, op.span)  # derived regions carry the block's span
        return new


def _complete_func(func: tir.PrimFunc) -> tir.PrimFunc:
    completer = _Completer()
    body = completer.visit_stmt(func.body)
    if completer.has_block and not _is_root(body):
        root = tir.Block([], [], [], "root", body, span=func.span)
        body = tir.BlockRealize([], True, root, span=func.span)
        fill_missing_spans(body, func.span)
    return func if body is func.body else func.with_body(body)


def _is_root(body: tir.Stmt) -> bool:
    return isinstance(body, tir.BlockRealize) and not body.block.iter_vars and \
        body.block.name_hint == "root"


def script_complete(ir: Any) -> Any:
    """Add the implicit root block and infer missing block reads/writes, for a PrimFunc or every
    PrimFunc of an IRModule (``ScriptComplete``)."""
    if isinstance(ir, tir.PrimFunc):
        return _complete_func(ir)
    if isinstance(ir, IRModule):
        funcs = {gv: (_complete_func(f) if isinstance(f, tir.PrimFunc) else f)
                 for gv, f in ir.functions.items()}
        return IRModule(funcs, ir.attrs, span=ir.span)
    return ir
