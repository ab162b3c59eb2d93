"""``UnrollLoop``: explicit unrolling of constant loops (mirrors
``tvm.tir.transform.UnrollLoop``, ``src/tir/transforms/unroll_loop.cc``).

``ForKind.UNROLLED`` loops with a constant extent are always unrolled. Config
``"tir.UnrollLoop": {"auto_max_step": N, "auto_max_depth": 8, "auto_max_extent": 0,
"explicit_unroll": True}`` adds automatic unrolling of innermost serial loops whose body runs at
most ``N`` steps in total (or whose extent is at most ``auto_max_extent``). With
``explicit_unroll`` false the loop is only marked ``T.unroll`` (left to LLVM). The
``pragma_auto_unroll_max_step`` / ``pragma_unroll_explicit`` attributes override the config for
their body. The unrolled copies share definitions, so the result is made SSA again
(``ConvertSSA``), as in TVM.
"""
from __future__ import annotations

from typing import Any

from tirkit.arith import Analyzer
from tirkit.ir.expr import IntImm
from tirkit.ir.module import IRModule
from tirkit.tir import op as tir_op
from tirkit.tir import stmt as S
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt_functor import StmtExprMutator, substitute

from ..transform import Pass, PassContext, PassInfo, register_pass
from .convert_ssa import IRConvertSSA
from .canonicalize_loop import require_trivial_step

_DEFAULTS = {"auto_max_step": 0, "auto_max_depth": 8, "auto_max_extent": 0,
             "explicit_unroll": True, "unroll_local_access": False}


class LoopUnroller(StmtExprMutator):
    """The mutator behind :func:`UnrollLoop` (TVM's ``LoopUnroller``)."""

    def __init__(self, auto_max_step: int = 0, auto_max_depth: int = 8,
                 auto_max_extent: int = 0, explicit_unroll: bool = True,
                 unroll_local_access: bool = False) -> None:
        del unroll_local_access  # accepted for TVM compatibility
        self.auto_max_step, self.auto_max_depth = int(auto_max_step), int(auto_max_depth)
        self.auto_max_extent, self.explicit_unroll = int(auto_max_extent), bool(explicit_unroll)
        self.step_count = self.unroll_depth = self.normal_loop_depth = 0
        self.analyzer = Analyzer()

    def visit_attr_stmt_(self, op: S.AttrStmt) -> S.Stmt:
        field = {"pragma_auto_unroll_max_step": "auto_max_step",
                 "pragma_unroll_explicit": "explicit_unroll"}.get(op.attr_key)
        if field is None or not isinstance(op.value, IntImm):
            return super().visit_attr_stmt_(op)
        saved = getattr(self, field)
        setattr(self, field, type(saved)(op.value.value))
        try:
            return self.visit_stmt(op.body)
        finally:
            setattr(self, field, saved)

    def extent_of(self, op: S.For) -> int:
        """The loop's constant extent, or -1 (TVM's ``GetExtent``)."""
        ext = self.analyzer.simplify(op.extent)
        return ext.value if isinstance(ext, IntImm) and ext.value < 2 ** 31 else -1

    def visit_for_(self, op: S.For) -> S.Stmt:
        require_trivial_step(op, "UnrollLoop")
        new = super().visit_for_(op)
        value = self.extent_of(new)
        auto = (new.kind == S.ForKind.SERIAL and value >= 0 and self.normal_loop_depth == 0
                and self.unroll_depth <= self.auto_max_depth
                and (value * self.step_count <= self.auto_max_step
                     or value <= self.auto_max_extent))
        if new.kind == S.ForKind.UNROLLED:
            if value < 0:
                raise ValueError(f"UnrollLoop: cannot unroll loop {op.loop_var.name_hint!r}: "
                                 f"its extent {new.extent} is not a constant")
            auto = True
        if auto:
            self.step_count *= value
            self.unroll_depth += 1
        else:
            self.normal_loop_depth += 1
        if (auto and self.explicit_unroll) or 0 <= value <= self.auto_max_extent == 1:
            return unroll(new, value)
        if auto and new.kind != S.ForKind.UNROLLED:
            return new.with_changes(kind=S.ForKind.UNROLLED)
        return new

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        self.step_count += 1
        return super().visit_buffer_store_(op)

    def visit_evaluate_(self, op: S.Evaluate) -> S.Stmt:
        self.step_count += 1
        return super().visit_evaluate_(op)

    def visit_seq_stmt_(self, op: S.SeqStmt) -> S.Stmt:
        seq = [self._visit_isolated(s) for s in op.seq]
        if all(a is b for a, b in zip(seq, op.seq)):
            return op
        return S.SeqStmt.flatten(*seq)

    def _visit_isolated(self, s: S.Stmt) -> S.Stmt:
        steps, udepth, ndepth = self.step_count, self.unroll_depth, self.normal_loop_depth
        self.step_count = self.unroll_depth = self.normal_loop_depth = 0
        out = self.visit_stmt(s)
        self.step_count += steps
        self.normal_loop_depth = max(ndepth, self.normal_loop_depth)
        self.unroll_depth = max(udepth, self.unroll_depth)
        return out


def unroll(loop: S.For, extent: int) -> S.Stmt:
    """The ``extent`` copies of ``loop``'s body with the loop var replaced by ``min + k``
    (TVM's ``LoopUnroller::Unroll``)."""
    if extent == 0:
        return S.Evaluate(IntImm("int32", 0), span=loop.span)
    t = loop.loop_var.dtype
    steps = [substitute(loop.body, {loop.loop_var: tir_op.add(loop.min, IntImm(t, k))})
             for k in range(extent)]
    return S.SeqStmt.flatten(*steps)


def _config(ctx: PassContext) -> dict[str, Any]:
    cfg = dict(_DEFAULTS)
    user = ctx.get("tir.UnrollLoop", {}) or {}
    unknown = set(user) - set(cfg)
    if unknown:
        raise KeyError(f"tir.UnrollLoop: unknown option(s) {sorted(unknown)}; "
                       f"known: {sorted(cfg)}")
    cfg.update(user)
    return cfg


@register_pass("UnrollLoop")
def UnrollLoop() -> Pass:  # pylint: disable=invalid-name
    """The pass unrolling loops (mirrors ``tvm.tir.transform.UnrollLoop``); reads config
    ``"tir.UnrollLoop"``.

    Raises:
        ValueError: when a ``T.unroll`` loop has a non-constant extent (as TVM).
    """
    def run(mod: IRModule, ctx: PassContext) -> IRModule:
        cfg = _config(ctx)
        funcs, changed = {}, False
        for gv, func in mod.functions.items():
            new = func
            if isinstance(func, PrimFunc):
                body = LoopUnroller(**cfg)(func.body)
                if body is not func.body:
                    new = IRConvertSSA().convert_func(func.with_changes(body=body))
            changed |= new is not func
            funcs[gv] = new
        return IRModule(funcs, mod.attrs, span=mod.span) if changed else mod
    return Pass(PassInfo("UnrollLoop", 0), run)
