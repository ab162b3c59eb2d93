"""Complete what a TVMScript author left implicit (mirrors TVM's ``ScriptComplete``): the
implicit root block of a function with blocks, and the ``T.reads``/``T.writes`` of blocks that
did not declare them."""
from __future__ import annotations

from typing import Any

from tirkit import tir
from tirkit.ir import IRModule
from tirkit.ir.node import fill_missing_spans
from tirkit.tir.analysis import has_block
from tirkit.tir.block_access import get_block_read_write_region
from tirkit.tir.stmt_functor import StmtMutator

from .ir_builder.tir_frames import DETECT_ACCESS


class _Completer(StmtMutator):
    """TVM's ``ScriptCompleter``: the regions of blocks that declared none are detected, except
    for the outermost block (``is_root_block_``: the root block, written or implicit, keeps the
    regions it was given, empty when none)."""

    def __init__(self, root_pending: bool) -> None:
        super().__init__()
        self.root_pending = root_pending  # the next block visited is the outermost one

    def visit_block_(self, op: tir.Block) -> tir.Stmt:
        is_root, self.root_pending = self.root_pending, False
        block = super().visit_block_(op)
        mask = block.annotations.get(DETECT_ACCESS)
        if mask is None:
            return block
        annotations = {k: v for k, v in block.annotations.items() if k != DETECT_ACCESS}
        if is_root:
            return block.with_changes(annotations=annotations)
        reads, writes = get_block_read_write_region(block)
        new = block.with_changes(reads=reads if int(mask) & 1 else block.reads,
                                 writes=writes if int(mask) & 2 else block.writes,
                                 annotations=annotations)
        fill_missing_spans(new, op.span)  # derived regions carry the block's span
        return new


def _complete_func(func: tir.PrimFunc) -> tir.PrimFunc:
    insert = _should_insert_root(func.body)
    body = _Completer(root_pending=not insert).visit_stmt(func.body)
    if insert:
        root = tir.Block([], [], [], "root", body, span=func.span)
        body = tir.BlockRealize([], True, root, span=func.span)
        fill_missing_spans(body, func.span)
    return func if body is func.body else func.with_body(body)


def _should_insert_root(body: tir.Stmt) -> bool:
    """TVM's ``should_insert_root``: a body that is one block with iter vars, or that is not a
    block but holds one (a function-level ``T.alloc_buffer`` already made its root block, the
    builder's ``root_allocates``); a body that is one block without iter vars is the root,
    whatever its name."""
    if isinstance(body, tir.BlockRealize):
        return bool(body.block.iter_vars)
    return not isinstance(body, tir.Block) and has_block(body)


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
