"""Printing of TensorIR blocks (mirrors TVM's ``printer/tir/block.cc``): ``with T.block("C"):``
(``T.sblock`` in tirx), iter vars with ``T.axis.remap`` folding, ``T.where``, ``T.reads`` /
``T.writes``, ``T.block_attr``, ``T.alloc_buffer``, ``T.match_buffer`` on regions, ``T.init``."""
from __future__ import annotations

from typing import Any

from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.structural import structural_equal
from tirkit.tir import op as O
from tirkit.tir import stmt as S
from tirkit.tir.expr import IterVarType, Var
from tirkit.tir.stmt_functor import pre_order_visit

from .buffer import VarDef, buffer_decl, define_buffer
from .context import Frame, Printer, register
from .doc import Doc, Text, concat, join
from .expr import call, str_lit
from .stmt_doc import LineDoc, ScopeDoc, SDoc
from .written import axis_spelling, grid_tuple_doc, regions_written, unnamed_block

_AXIS = {IterVarType.DataPar: "spatial", IterVarType.CommReduce: "reduce",
         IterVarType.Ordered: "scan", IterVarType.DimInfo: "opaque"}
_WRITTEN_AXIS = {"S": IterVarType.DataPar, "R": IterVarType.CommReduce,
                 **{v: k for k, v in _AXIS.items()}}


def _loops_in_scope(p: Printer) -> dict[int, S.For]:
    out: dict[int, S.For] = {}
    for f in p.frames:
        node = f.node
        while isinstance(node, S.For):
            out[id(node.loop_var)] = node
            node = node.body
    return out


def _same(a: Any, b: Any) -> bool:
    """``structural_equal(a, b)``, answered without the general comparison for two constants
    (a loop's and an iter var's bounds, nearly always)."""
    if type(a) is IntImm and type(b) is IntImm:
        return a.value == b.value and a.dtype == b.dtype
    return structural_equal(a, b)


class _IterVars:
    """Prints a block's iter vars, folding runs of plain loop-var bindings into
    ``T.axis.remap``."""

    def __init__(self, p: Printer, block: S.Block, realize: S.BlockRealize | None, f: Frame):
        self.p, self.block, self.realize, self.f = p, block, realize, f
        self.loops = _loops_in_scope(p)
        self.pending: list[int] = []
        # tirfmt: how the user wrote each iter var (T.axis.S, a remap call...), or None
        self.spelled = [axis_spelling(p, iv.var) if p.cfg.written is not None else None
                        for iv in block.iter_vars]

    def remappable(self, i: int) -> bool:
        if self.realize is None or not self.p.cfg.syntax_sugar:
            return False
        spelled = self.spelled[i]
        if spelled is not None and spelled[0] != "remap":
            return False
        iv, value = self.block.iter_vars[i], self.realize.iter_values[i]
        if iv.iter_type not in (IterVarType.DataPar, IterVarType.CommReduce):
            return False
        loop = self.loops.get(id(value)) if isinstance(value, Var) else None
        return loop is not None and iv.dom is not None and \
            _same(loop.min, iv.dom.min) and _same(loop.extent, iv.dom.extent)

    def single(self, i: int) -> None:
        p, iv = self.p, self.block.iter_vars[i]
        kind = _AXIS.get(iv.iter_type)
        spelled = self.spelled[i]
        if spelled is not None and _WRITTEN_AXIS.get(spelled[0]) == iv.iter_type:
            kind = spelled[0]  # the user's T.axis.S / T.axis.R (tirfmt)
        if kind is None:
            raise ValueError(f"block {self.block.name_hint!r}: iter var kind {iv.iter_type.name} "
                             "cannot be printed")
        dom = iv.dom
        assert dom is not None  # (a block iter var's domain)
        if isinstance(dom.min, IntImm) and dom.min.value == 0:
            dom_doc = p.expr(dom.extent).doc
        else:
            dom_doc = concat("(", p.expr(dom.min).doc, ", ",
                             p.expr(O.add(dom.min, dom.extent)).doc, ")")
        args = [dom_doc]
        if self.realize is not None:
            args.append(p.expr(self.realize.iter_values[i]).doc)
        rhs = call(p, p.T(f"axis.{kind}"), args).doc
        lhs = p.define(iv.var, self.f, iv.var.name_hint)
        self.f.stmts.append(LineDoc(concat(lhs, " = ", rhs)))

    def flush(self) -> None:
        idx, self.pending = self.pending, []
        if not idx:
            return
        spelled = self.spelled[idx[0]]
        if len(idx) == 1 and (spelled is None or spelled[0] != "remap"):
            self.single(idx[0])  # (a remap of one var the user wrote stays one, tirfmt)
            return
        p = self.p
        lhs = [p.define(self.block.iter_vars[i].var, self.f, self.block.iter_vars[i].var.name_hint)
               for i in idx]
        kinds = "".join("S" if self.block.iter_vars[i].iter_type == IterVarType.DataPar else "R"
                        for i in idx)
        assert self.realize is not None  # (remappable checked)
        bound = [self.realize.iter_values[i] for i in idx]
        values = (p.cfg.written is not None and grid_tuple_doc(p, bound)) or p.expr(bound).doc
        rhs = call(p, p.T("axis.remap"), [str_lit(kinds), values]).doc
        self.f.stmts.append(LineDoc(concat(join(", ", lhs), " = ", rhs)))

    def run(self) -> None:
        for i in range(len(self.block.iter_vars)):
            if self.remappable(i):
                if self.pending and self.spelled[i] is not None and \
                        self.spelled[self.pending[-1]] != self.spelled[i]:
                    self.flush()  # another remap call of the user's (tirfmt)
                self.pending.append(i)
            else:
                self.flush()
                self.single(i)
        self.flush()


def _block_kw(p: Printer) -> str:
    return "sblock" if p.tirx else "block"


def alloc_buffers(p: Printer, buffers: Any, f: Frame) -> None:
    """``B = T.alloc_buffer(...)`` lines into ``f`` (tirx: ``T.sblock_alloc_buffer``, as TVM 0.27
    prints a block's buffers; its ``T.alloc_buffer`` is a statement)."""
    method = "sblock_alloc_buffer" if p.tirx else "alloc_buffer"
    for buf in buffers:
        lhs = define_buffer(p, buf, f)
        rhs = buffer_decl(p, buf, method, [], f, VarDef.DATA_POINTER).doc
        f.stmts.append(p.with_comments(buf, LineDoc(concat(lhs, " = ", rhs))))


def print_block(p: Printer, block: S.Block, realize: S.BlockRealize | None) -> SDoc:
    """The ``with T.block(name):`` scope of a block (TVM ``PrintBlock``)."""
    with p.frame(block) as f:
        _IterVars(p, block, realize, f).run()
        if realize is not None and not _is_true(realize.predicate):
            f.stmts.append(LineDoc(call(p, p.T("where"), [p.expr(realize.predicate).doc]).doc))
        if regions_written(p, block, "reads"):
            f.stmts.append(LineDoc(call(p, p.T("reads"),
                                        [p.expr(r).doc for r in block.reads]).doc))
        if regions_written(p, block, "writes"):
            f.stmts.append(LineDoc(call(p, p.T("writes"),
                                        [p.expr(w).doc for w in block.writes]).doc))
        if block.annotations:
            name = "sblock_attr" if p.tirx else "block_attr"
            f.stmts.append(LineDoc(call(p, p.T(name), [p.expr(block.annotations).doc]).doc))
        alloc_buffers(p, block.alloc_buffers, f)
        for m in block.match_buffers:
            f.stmts.extend(p.stmts(m))
        if block.init is not None:
            with p.frame(block.init) as g:
                p.body(block.init, g)
            f.stmts.append(ScopeDoc(concat("with ", p.T("init"), "()"), g.stmts))
        p.body(block.body, f)
    kwargs = [] if realize is not None else [("no_realize", Text("True"))]
    name_arg: list[Doc] = [] if p.cfg.written is not None and unnamed_block(p, block) \
        else [str_lit(block.name_hint)]  # (the user's T.block() without a name: tirfmt)
    head = call(p, p.T(_block_kw(p)), name_arg, kwargs).doc
    return ScopeDoc(concat("with ", head), f.stmts)


def _is_true(e: Any) -> bool:
    return isinstance(e, IntImm) and e.value == 1


@register(S.BlockRealize)
def _block_realize(p: Printer, r: S.BlockRealize) -> SDoc:
    return print_block(p, r.block, r)


@register(S.Block)
def _block(p: Printer, b: S.Block) -> SDoc:
    return print_block(p, b, None)


@register(S.MatchBufferRegion)
def _match_buffer_region(p: Printer, m: S.MatchBufferRegion) -> list[SDoc]:
    f = p.frames[-1]
    lhs = define_buffer(p, m.buffer, f)
    src = p.expr(m.source).doc
    rhs = buffer_decl(p, m.buffer, "match_buffer", [src], f, VarDef.MATCH_BUFFER).doc
    return [LineDoc(concat(lhs, " = ", rhs))]


def implicit_root(func_body: Any) -> S.Block | None:
    """The root block when it prints as a ``# with T.block("root"):`` comment (TVM's
    condition in the PrimFunc printer, and the name ``root``: a lone block of another name
    without regions prints as itself, which the parser reads back as the root, not as the
    comment, which would read back named ``root``), else None."""
    if not isinstance(func_body, S.BlockRealize) or func_body.iter_values or \
            not _is_true(func_body.predicate):
        return None
    root = func_body.block
    if root.annotations or root.match_buffers or root.reads or root.writes or \
            root.init is not None or root.name_hint != "root":
        return None
    inner = root.body
    if root.alloc_buffers:
        return root
    if isinstance(inner, S.BlockRealize):
        return root if inner.block.iter_vars else None
    return root if _contains_realize(inner) else None


def _contains_realize(stmt: Any) -> bool:
    found: list[Any] = []

    def visit(n: Any) -> bool:
        if not found and isinstance(n, S.BlockRealize):
            found.append(n)
        return not found and not isinstance(n, PrimExpr)  # no block inside an expression
    pre_order_visit(stmt, visit)
    return bool(found)


__all__ = ["print_block", "implicit_root", "alloc_buffers", "Doc"]
