"""Printing of statements (mirrors TVM's ``printer/tir/stmt.cc`` and ``for_loop.cc``).

Scoped statements that are the last of their scope print concisely (seed 000): ``x: T.int32 =
v``, ``assert c, "msg"``, ``buf = T.allocate(...)``, ``T.attr(...)``, ``T.launch_thread(...)``
followed by their body at the same indentation; elsewhere they print as ``with ...:`` scopes.
"""
from __future__ import annotations

import re
from typing import Any, cast

from tirkit.ir.expr import IntImm
from tirkit.ir.node import Node, node_fields
from tirkit.ir.type import PointerType, TupleType
from tirkit.tir import op as O
from tirkit.tir import stmt as S
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import Call, IterVar, StringImm, Var
from tirkit.tir.analysis import expr_deep_equal
from tirkit.tir.stmt_functor import post_order_visit

from .buffer import (VarDef, buffer_attrs, buffer_call, buffer_indices, define_buffer,
                     is_cell_shape, is_scalar, subscript)
from .context import E, Frame, Printer, count_uses, register
from .doc import Doc, Text, concat, join
from .expr import TIRX_NODE_OPS, call, dtype_lit, str_lit, tcall, type_doc, var_creation
from .stmt_doc import CommentDoc, LineDoc, ScopeDoc, SDoc
from .strided_loop import strided_form
from .written import (GridTuple, args_written, attr_iter_var_written, called_as, elif_written,
                      grid_tuple_written, keyword_written, launch_written, let_unannotated,
                      loop_spelling, loop_start_written, may_shadow, return_written,
                      store_cast_implicit, store_cast_written, written)


def concise(lhs: Doc | None, rhs: Doc, frame: Frame, is_concise: bool) -> list[SDoc] | SDoc:
    """``lhs = rhs`` + body at the same level, or ``with rhs as lhs:`` (TVM
    ``DoConciseScoping``)."""
    if is_concise:
        head = concat(lhs, " = ", rhs) if lhs is not None else rhs
        return _lead(LineDoc(head), frame.stmts)
    header = concat("with ", rhs, " as ", lhs) if lhs is not None else concat("with ", rhs)
    return ScopeDoc(header, frame.stmts)


def _lead(head: SDoc, body: list[SDoc]) -> list[SDoc]:
    """``[head] + body``, reusing ``body`` (a closed frame's list, owned by no one else): a
    chain of concise scopes (20,000 lets) copies no list per link."""
    body.insert(0, head)
    return body


def _is_one(e: Any) -> bool:
    return isinstance(e, IntImm) and e.value == 1


@register(S.SeqStmt)
def _seq(p: Printer, s: S.SeqStmt) -> list[SDoc]:
    out: list[SDoc] = []
    for item in s.seq:
        out.extend(p.stmts(item))
    return out


def _return_value(s: S.Evaluate) -> Any:
    """The value of ``T.evaluate(T.ret(v))`` (TVM ``FindReturnValue``), else None."""
    value = s.value
    if isinstance(value, Call) and getattr(value.op, "name", None) == "tir.ret" \
            and len(value.args) == 1:
        return value.args[0]
    return None


def _written_pass(p: Printer, s: S.Evaluate) -> bool:
    """Whether a no-op was written ``pass`` (its span may be the enclosing ``def``'s or loop's,
    whose text then ends with it; ``T.evaluate(0)`` ends otherwise)."""
    text = written(p, s)
    return text is not None and text.rstrip().rsplit("\n", 1)[-1].strip() == "pass"


@register(S.Evaluate)
def _evaluate(p: Printer, s: S.Evaluate) -> SDoc:
    ret = _return_value(s) if p.tirx and p.cfg.syntax_sugar or (
        p.cfg.written is not None and return_written(p, s)) else None
    if ret is not None:  # tirx: ``return v`` (TVM 0.27 has no T.ret); tirfmt: the user's
        return LineDoc(concat("return ", p.expr(ret).doc))
    if p.cfg.written is not None and _is_nop(s) and _written_pass(p, s):
        return LineDoc(Text("pass"))  # the user's `pass` (tirfmt)
    value = p.expr(s.value).doc
    if isinstance(s.value, Call) and not (
            p.tirx and getattr(s.value.op, "name", None) in TIRX_NODE_OPS) and not (
            p.cfg.written is not None and called_as(p, s, "evaluate")):  # op or GlobalVar
        return LineDoc(value)
    return LineDoc(call(p, p.T("evaluate"), [value]).doc)


@register(S.BufferStore)
def _store(p: Printer, s: S.BufferStore) -> SDoc:
    if s.predicate is not None:
        buf = p.expr(s.buffer).doc
        fn = concat(buf, ".vstore")
        return LineDoc(call(p, fn, [p.expr(list(s.indices)).doc, p.expr(s.value).doc],
                            [("predicate", p.expr(s.predicate).doc)]).doc)
    buf = p.expr(s.buffer).doc
    kept = store_cast_written(p, s) if p.cfg.written is not None else None
    if kept is not None:  # tirfmt: the user's T.float32(0) into a float16 buffer
        value = call(p, p.T(kept[0]), [Text(kept[1])]).doc
    else:  # (tirfmt: without the cast the parser added, A[i] = T.float32(i))
        uncast = store_cast_implicit(p, s) if p.cfg.written is not None else None
        value = p.expr(s.value if uncast is None else uncast).doc
    if is_scalar(p, s.buffer, s.indices):  # tirx: ``out = v`` (TVM 0.27)
        return LineDoc(concat(buf, " = ", value))
    lhs = subscript(p, buf, buffer_indices(p, s.indices, p.cfg.syntax_sugar))
    return LineDoc(concat(lhs, " = ", value))


@register(S.LetStmt)
def _let_stmt(p: Printer, s: S.LetStmt) -> Any:
    is_concise = p.allow_concise(s)
    ann = s.var.type_annotation
    tdoc = None if isinstance(ann, TupleType) and not ann.fields else type_doc(p, ann).doc
    rhs = p.expr(s.value).doc
    if p.cfg.written is not None and not p.is_defined(s.var) and \
            keyword_written(p, s, "var", ("LetStmt",)) == s.var.name_hint:
        # tirfmt: the user's i = T.int32() and with T.LetStmt(42, var=i):
        frame = p.lowest_def_frame(s.var) or p.frames[-1]
        name = p.define(s.var, frame, s.var.name_hint)
        frame.stmts.append(LineDoc(concat(name, " = ", var_creation(p, s.var).doc)))
    if p.tirx and is_concise and not p.is_defined(s.var) and _data_of_decl(s):
        # TVM 0.27: T.decl_buffer(..., data=<pointer expression>) is one DeclBuffer
        return _declare(p, s.body, "decl_buffer", data=rhs)  # type: ignore[arg-type]
    with p.frame(s) as f:
        defined = p.is_defined(s.var)
        lhs = p.expr(s.var).doc if defined else p.define(s.var, f, s.var.name_hint)
        p.body(s.body, f)
    if defined:
        return ScopeDoc(concat("with ", call(p, p.T("LetStmt"), [rhs], [("var", lhs)]).doc),
                        f.stmts)
    if is_concise and tdoc is not None and p.cfg.written is not None and not p.tirx and \
            let_unannotated(p, s):  # tirfmt: the user's x = v
        return _lead(LineDoc(concat(lhs, " = ", rhs)), f.stmts)
    if is_concise and tdoc is not None:
        if p.tirx:  # TVM 0.27: a Bind is x: T.let[T.int32] = v; x: T.int32 = v is a local cell
            tdoc = concat(p.T("let"), "[", tdoc, "]")
        return _lead(LineDoc(concat(lhs, ": ", tdoc, " = ", rhs)), f.stmts)
    if tdoc is not None and isinstance(ann, PointerType):  # TVM: a non-PrimType annotation
        # (tirfmt: the user's T.LetStmt(v, var=T.handle("float32")) keeps its keyword)
        kw = [("var", tdoc)] if p.cfg.written is not None and \
            keyword_written(p, s, "var", ("LetStmt",)) is not None else []
        return ScopeDoc(concat("with ", call(p, p.T("LetStmt"), [rhs] if kw else [rhs, tdoc],
                                             kw).doc, " as ", lhs), f.stmts)
    return ScopeDoc(concat("with ", call(p, p.T("LetStmt"), [rhs]).doc, " as ", lhs), f.stmts)


def _data_of_decl(s: S.LetStmt) -> bool:
    """Whether ``s`` binds the data pointer of the DeclBuffer that is its body, under the name
    the parser gives it, and nothing else uses the var (tirkit's IR of ``T.decl_buffer(...,
    data=<expr>)``, a DeclBuffer holding the expression in TVM 0.27)."""
    decl = s.body
    if not isinstance(decl, S.DeclBuffer) or decl.buffer.data is not s.var \
            or isinstance(s.value, Var) or s.var.name_hint != f"{decl.buffer.name}_data":
        # the parser names the var it binds for data=<expr> "<buffer>_data"; a var of another
        # name, or a let of a plain var, is a Bind the source wrote (TVM 0.27 keeps it)
        return False
    stack: list[Any] = [decl.body, decl.buffer.shape, decl.buffer.strides,
                        decl.buffer.elem_offset]
    while stack:
        cur = stack.pop()
        if cur is s.var:
            return False
        if isinstance(cur, Buffer):
            if cur.data is s.var and cur is not decl.buffer:
                return False
            stack.extend((cur.shape, cur.strides, cur.elem_offset))
        elif isinstance(cur, (list, tuple)):
            stack.extend(cur)
        elif isinstance(cur, dict):
            stack.extend(cur.values())
        elif isinstance(cur, Node):
            stack.extend(getattr(cur, f.name, None) for f in node_fields(type(cur)))
    return True


def _is_nop(s: S.Stmt) -> bool:
    """``T.evaluate(0)``: the empty body a trailing concise statement gets when parsed."""
    return isinstance(s, S.Evaluate) and isinstance(s.value, IntImm) and s.value.value == 0


@register(S.AssertStmt)
def _assert(p: Printer, s: S.AssertStmt) -> Any:
    is_concise = p.allow_concise(s)
    cond, msg = p.expr(s.condition).doc, p.expr(s.message).doc
    if p.tirx or s.error_kind != "RuntimeError" or s.message_parts:
        # TVM 0.27: (error kind, [message parts]); classic text has no other spelling for them
        parts = [p.expr(m).doc for m in s.message_parts] or [msg]
        msg = concat("(", str_lit(s.error_kind), ", [", join(", ", parts), "])")
    with p.frame(s) as f:
        p.body(s.body, f)
    if is_concise:
        if p.tirx and _is_nop(s.body):  # TVM 0.27's assert has no body to print
            return [LineDoc(concat("assert ", cond, ", ", msg))]
        return _lead(LineDoc(concat("assert ", cond, ", ", msg)), f.stmts)
    return ScopeDoc(concat("with ", call(p, p.T("Assert"), [cond, msg]).doc), f.stmts)


@register(S.While)
def _while(p: Printer, s: S.While) -> SDoc:
    cond = p.expr(s.condition).doc
    with p.frame(s) as f:
        p.body(s.body, f)
    return ScopeDoc(concat("while ", cond), f.stmts)


@register(S.IfThenElse)
def _if(p: Printer, s: S.IfThenElse) -> SDoc:
    cond = p.expr(s.condition).doc
    # each branch's frame is keyed by the branch (TVM: With<TIRFrame> f(d, stmt->then_case)),
    # so a free buffer both branches use is defined once, before the `if`
    with p.frame(s.then_case) as f:
        p.body(s.then_case, f)
    orelse = None
    if s.else_case is not None:
        with p.frame(s.else_case) as g:
            p.body(s.else_case, g)
        orelse = g.stmts
    elif_ = p.cfg.written is not None and isinstance(s.else_case, S.IfThenElse) \
        and elif_written(p, s.else_case)
    return ScopeDoc(concat("if ", cond), f.stmts, orelse=orelse, elif_=elif_)


@register(S.Break)
def _break(p: Printer, s: S.Break) -> SDoc:
    return LineDoc(call(p, p.T("break_loop"), []).doc if p.tirx else Text("break"))


@register(S.Continue)
def _continue(p: Printer, s: S.Continue) -> SDoc:  # tirx: T.continue_loop(), as TVM 0.27 prints
    return LineDoc(call(p, p.T("continue_loop"), []).doc if p.tirx else Text("continue"))


@register(S.Prefetch)
def _prefetch(p: Printer, s: S.Prefetch) -> SDoc:
    return LineDoc(tcall(p, "prefetch", [s.buffer, list(s.bounds)]).doc)


@register(S.DeclBuffer)
def _decl_buffer(p: Printer, s: S.DeclBuffer) -> Any:
    # TVM: DeclBufferDoc(..., BufferVarDefinition::None): a data var not yet defined (free)
    # gets its own line, `data = T.handle(...)`; only an Allocate's buffer defines it inline
    return _declare(p, s, "decl_buffer", mode=VarDef.NONE)


def _allocated_decl_buffer(p: Printer, s: S.DeclBuffer) -> Any:
    """The DeclBuffer of an Allocate printed as ``T.decl_buffer`` alone: its data is
    ``B.data`` (TVM ``DeclBufferDoc(..., BufferVarDefinition::DataPointer)``)."""
    return _declare(p, s, "decl_buffer")


#: keyword attrs of a DeclBuffer that a tirx ``A.view(...)`` may have (each equal to ``A``'s,
#: checked by :func:`_view`): TVM 0.27's view carries the parent's scope, align and factor
_VIEW_ATTRS = {"shape", "dtype", "data", "scope", "align", "offset_factor"}


def _view(p: Printer, buf: Any, attrs: dict[str, Doc]) -> Doc | None:
    """tirx ``A.view(8, 8)`` (another shape) / ``A.view("float16")`` (another dtype) for a
    DeclBuffer over the data of a buffer ``A`` printed as ``A.data``, else None: TVM 0.27's
    ``TryDeclBufferSugarWithParent`` without layouts. The buffers must agree on scope, align,
    offset_factor, elem_offset and strides; another dtype needs ``A``'s shape with the last dim
    scaled by the ratio of the bit widths (``view(dtype)`` derives it); the same shape and
    dtype is no view (a ``T.decl_buffer``)."""
    owner = p.data_owner.get(id(buf.data))
    if not p.tirx or owner is None or not set(attrs) <= _VIEW_ATTRS \
            or not p.is_defined(owner) or owner.scope() != buf.scope() \
            or owner.data_alignment != buf.data_alignment \
            or owner.offset_factor != buf.offset_factor \
            or not expr_deep_equal(owner.elem_offset, buf.elem_offset) \
            or len(owner.strides) != len(buf.strides) \
            or not all(expr_deep_equal(a, b) for a, b in zip(owner.strides, buf.strides)):
        return None
    head = concat(p.expr(owner).doc, ".view")
    if buf.dtype != owner.dtype:
        return call(p, head, [str_lit(str(buf.dtype))]).doc if _recast(owner, buf) else None
    if len(buf.shape) == len(owner.shape) and all(
            expr_deep_equal(a, b) for a, b in zip(buf.shape, owner.shape)):
        return None
    return call(p, head, [p.expr(e).doc for e in buf.shape]).doc


def _recast(owner: Buffer, buf: Buffer) -> bool:
    """Whether ``buf`` has the shape ``owner.view(buf.dtype)`` gives: ``owner``'s with the last
    (constant) dim divided or multiplied by the ratio of the bit widths (TVM 0.27's view(dtype)
    sugar check)."""
    if len(buf.shape) != len(owner.shape) or not buf.shape or not all(
            expr_deep_equal(a, b) for a, b in zip(buf.shape[:-1], owner.shape[:-1])):
        return False
    mine, theirs = buf.shape[-1], owner.shape[-1]
    if not isinstance(mine, IntImm) or not isinstance(theirs, IntImm):
        return False
    big, small = sorted((buf.dtype.bits, owner.dtype.bits), reverse=True)
    if big % small:
        return False
    ratio = big // small
    return theirs.value == mine.value * ratio if buf.dtype.bits > owner.dtype.bits \
        else mine.value == theirs.value * ratio


#: tirx spellings of an allocation by storage scope (TVM 0.27 ``BufferDecl``)
_TIRX_ALLOC = {"local": "alloc_local", "shared": "alloc_shared"}


def _declare(p: Printer, s: S.DeclBuffer, method: str, annotations: Any = None,
             data: Doc | None = None, mode: VarDef = VarDef.DATA_POINTER) -> Any:
    """``B = T.decl_buffer(...)`` / ``T.alloc_buffer(...)`` and the rest of the scope;
    ``data``: the doc of the pointer expression TVM 0.27 keeps in the DeclBuffer; ``mode``:
    where new vars of the buffer are defined (``VarDef.NONE``: a DeclBuffer of its own)."""
    is_concise = p.allow_concise(s)
    if is_concise and method == "alloc_buffer" and not annotations \
            and _scalar_init(p, s) is not None:
        return _scalar_local(p, s)
    outer = p.frames[-1]
    with p.frame(s) as f:
        lhs = define_buffer(p, s.buffer, f)
        attrs = buffer_attrs(p, s.buffer, outer, mode, decl=s)
        if annotations:  # tirx T.alloc_buffer(..., annotations={...}): the Allocate's
            attrs["annotations"] = p.expr(annotations).doc
        if method == "alloc_buffer" and s.buffer.scope() in _TIRX_ALLOC and not annotations:
            method = _TIRX_ALLOC[s.buffer.scope()]
            attrs.pop("scope", None)
        if data is not None:
            attrs["data"] = data
        view = _view(p, s.buffer, attrs) if method == "decl_buffer" and data is None else None
        rhs = view if view is not None else buffer_call(p, method, attrs, []).doc
        p.body(s.body, f)
    return concise(lhs, rhs, f, is_concise)


def _scalar_init(p: Printer, s: S.DeclBuffer) -> S.BufferStore | None:
    """tirx without blocks: the first statement of a local shape-(1,) allocation's scope when it
    stores element 0 and a later statement stores it again (TVM 0.27 prints that buffer as a
    mutable scalar, ``i: T.int32 = 0`` ... ``i = i + 1``; the parser reads an annotated name
    that is assigned again as that allocation, any other as a LetStmt), else None."""
    buf = s.buffer
    zero = [IntImm("int32", 0)]
    if buf.scope() != "local" or not is_cell_shape(buf, zero):
        return None
    items = s.body.seq if isinstance(s.body, S.SeqStmt) else (s.body,)
    first = items[0]
    if not isinstance(first, S.BufferStore) or first.buffer is not buf \
            or first.predicate is not None or not is_cell_shape(buf, first.indices):
        return None
    return first


def _scalar_local(p: Printer, s: S.DeclBuffer) -> list[SDoc]:
    """``i: T.int32 = v`` and the rest of the allocation's scope (see :func:`_scalar_init`)."""
    first = _scalar_init(p, s)
    assert first is not None
    items = s.body.seq if isinstance(s.body, S.SeqStmt) else (s.body,)
    p.scalar_cells.add(id(s.buffer))  # its loads and stores print as the bare name
    with p.frame(s) as f:
        p.define_as(s.buffer.data, f, concat(define_buffer(p, s.buffer, f), ".data"))
        head = LineDoc(concat(p.expr(s.buffer).doc, ": ", type_doc(p, s.buffer.dtype).doc,
                              " = ", p.expr(first.value).doc))
        rest = items[1:]
        p.body(rest[0] if len(rest) == 1 else S.SeqStmt(list(rest)), f)
    return _lead(head, f.stmts)


def is_allocate_decl_buffer(s: S.Allocate, annotated: bool = False) -> bool:
    """An Allocate whose body declares a buffer of the same data, dtype and shape prints as
    that ``T.decl_buffer`` alone (TVM ``IsAllocateDeclBufferPattern``); with ``annotated`` the
    Allocate may carry annotations (tirx ``T.alloc_buffer(..., annotations=...)``)."""
    decl = s.body
    if not isinstance(decl, S.DeclBuffer) or (s.annotations and not annotated) \
            or not _is_one(s.condition):
        return False
    buf = decl.buffer
    return (buf.data is s.buffer_var and buf.dtype == s.dtype
            and len(buf.shape) == len(s.extents)
            and all(expr_deep_equal(a, b) for a, b in zip(buf.shape, s.extents)))


@register(S.Allocate)
def _allocate(p: Printer, s: S.Allocate) -> Any:
    if p.cfg.syntax_sugar and is_allocate_decl_buffer(s, annotated=p.tirx) and not (
            p.cfg.written is not None and args_written(p, s, ("allocate",)) is not None):
        # (tirfmt: the user's x = T.allocate(...) and T.decl_buffer(..., data=x) stay two)
        # classic: the DeclBuffer prints as T.decl_buffer; tirx: TVM 0.27's AllocBuffer spelling
        return _declare(p, cast(S.DeclBuffer, s.body), "alloc_buffer", s.annotations) if p.tirx \
            else p.stmts(s.body, _allocated_decl_buffer)
    is_concise = p.allow_concise(s)
    ann = s.buffer_var.type_annotation
    scope = ann.storage_scope if isinstance(ann, PointerType) else "global"
    parts: list[tuple[str, Doc | None]] = [
        ("extents", p.expr(list(s.extents)).doc), ("dtype", dtype_lit(s.dtype)),
        ("scope", str_lit(scope)),
        ("condition", None if _is_one(s.condition) else p.expr(s.condition).doc)]
    spelled = args_written(p, s, ("allocate",)) if p.cfg.written is not None else None
    args, kwargs = _as_written(parts, spelled, {"scope": scope == "global"})
    if s.annotations:
        kwargs.append(("annotations", p.expr(s.annotations).doc))
    lhs = p.define(s.buffer_var, p.frames[-1], s.buffer_var.name_hint)
    with p.frame(s) as f:
        rhs = call(p, p.T("allocate"), args, kwargs).doc
        p.body(s.body, f)
    return concise(lhs, rhs, f, is_concise)


def _as_written(parts: list[tuple[str, Doc | None]], spelled: list[str] | None,
                default: dict[str, bool]) -> tuple[list[Doc], list[tuple[str, Doc]]]:
    """A call's arguments ``parts`` (name, doc; ``None``: left out) split into positional ones
    and keywords: all positional (those ``default`` marks as holding their default value
    included), or (tirfmt, ``spelled``: the written argument texts) as the user wrote them,
    ``scope="local"`` by keyword, a default left out where it was left out."""
    if spelled is None:
        return [d for n, d in parts if d is not None], []
    keywords = {m.group(1) for a in spelled
                if (m := re.match(r"\s*(\w+)\s*=(?!=)", a)) is not None}
    positional = len(spelled) - len(keywords)
    args: list[Doc] = []
    kwargs: list[tuple[str, Doc]] = []
    for i, (name, doc) in enumerate(parts):
        if doc is None or (default.get(name) and name not in keywords and i >= positional):
            continue  # left out: what follows must be a keyword
        if i < positional and not kwargs and len(args) == i:
            args.append(doc)
        else:
            kwargs.append((name, doc))
    return args, kwargs


@register(S.AllocateConst)
def _allocate_const(p: Printer, s: S.AllocateConst) -> Any:
    is_concise = p.allow_concise(s)
    data = s.data
    values = data.flatten().tolist() if hasattr(data, "flatten") else list(_flat(data))
    args = [p.expr(values).doc if _printable(values) else p.meta_ref(data),
            dtype_lit(s.dtype), p.expr(list(s.extents)).doc]
    kwargs = [("annotations", p.expr(s.annotations).doc)] if s.annotations else []
    lhs = p.define(s.buffer_var, p.frames[-1], s.buffer_var.name_hint)
    with p.frame(s) as f:
        rhs = call(p, p.T("allocate_const"), args, kwargs).doc
        p.body(s.body, f)
    return concise(lhs, rhs, f, is_concise)


def _flat(data: Any) -> Any:
    for x in data:
        if isinstance(x, (list, tuple)):
            yield from _flat(x)
        else:
            yield x


def _printable(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) for v in values)


@register(S.AttrStmt)
def _attr(p: Printer, s: S.AttrStmt) -> Any:
    # TVM 0.27's tirx printer sets AsDocBody's concise flag only after printing each item of a
    # SeqStmt, so an AttrStmt there prints concisely only as a frame's whole body
    is_concise = p.allow_concise(s) and (p.frames[-1].sole or not p.tirx)
    defines, rhs, body = None, None, s.body
    if s.attr_key == "realize_scope" and isinstance(body, S.BufferRealize) \
            and body.buffer is s.node:  # T.realize(region, scope): both nodes, as TVM prints
        rhs, body = _realize_call(p, body, p.expr(s.value).doc), body.body
    if s.attr_key in ("thread_extent", "virtual_thread") and isinstance(s.node, IterVar) \
            and not (p.cfg.written is not None and attr_iter_var_written(p, s)):
        defines, rhs = _launch_thread(p, s)  # (tirfmt: the user's T.attr(T.iter_var(...)))
    if rhs is None and p.tirx and _is_dict_attr(s):
        rhs, body = _dict_attr(p, s)
    if rhs is None:
        rhs = call(p, p.T("attr"), [p.expr(s.node).doc, str_lit(s.attr_key),
                                    p.expr(s.value).doc]).doc
    with p.frame(s) as f:
        lhs = p.define(defines, f, defines.name_hint) if defines is not None else None
        p.body(body, f)
    return concise(lhs, rhs, f, is_concise)


def _is_dict_attr(s: Any) -> bool:
    """An AttrStmt on node ``0`` (TVM 0.27 ``IsDictAttrPattern``)."""
    return isinstance(s, S.AttrStmt) and type(s.node) is int and s.node == 0


def _dict_attr(p: Printer, s: S.AttrStmt) -> tuple[Doc, Any]:
    """tirx ``T.attr({key: value, ...})`` for a chain of node-``0`` AttrStmts, as TVM 0.27 prints
    it; returns the call and the body after the chain."""
    items: list[Doc] = []
    cur = s
    while True:
        items.append(concat(str_lit(cur.attr_key), ": ", p.expr(cur.value).doc))
        if not _is_dict_attr(cur.body):
            break
        cur = cast(S.AttrStmt, cur.body)
    return call(p, p.T("attr"), [concat("{", join(", ", items), "}")]).doc, cur.body


def _realize_call(p: Printer, s: S.BufferRealize, scope: Doc) -> Doc:
    args = [p.expr(S.BufferRegion(s.buffer, s.bounds)).doc, scope]
    if not _is_one(s.condition):
        args.append(p.expr(s.condition).doc)
    return call(p, p.T("realize"), args).doc


def _launch_thread(p: Printer, s: S.AttrStmt) -> tuple[Any, Doc]:
    """``T.launch_thread(var, n)`` after a ``T.env_thread`` definition; in tirx, when every use
    of the var is inside the statement, ``var = T.launch_thread("tag", n)`` (TVM's
    ``IsAncestorOfAllVarUse`` form) -> (the var the statement defines or None, the call)."""
    iv: IterVar = s.node
    if (p.tirx or p.cfg.written is not None and launch_written(p, s)) \
            and not p.is_defined(iv.var) and p.root is not None \
            and iv.var.dtype in (p.cfg.int_dtype, s.value.dtype) \
            and count_uses(p.root, iv.var) == count_uses(s, iv.var):
        return iv.var, call(p, p.T("launch_thread"), [str_lit(iv.thread_tag),
                                                       p.expr(s.value).doc]).doc
    if not p.is_defined(iv.var):
        frame = p.lowest_def_frame(iv.var) or p.frames[-1]
        name = p.define(iv.var, frame, iv.var.name_hint)
        args = [str_lit(iv.thread_tag)]
        if iv.var.dtype != p.cfg.int_dtype:
            args.append(dtype_lit(iv.var.dtype))
        frame.stmts.append(LineDoc(concat(name, " = ", call(p, p.T("env_thread"), args).doc)))
    return None, call(p, p.T("launch_thread"), [p.expr(iv.var).doc, p.expr(s.value).doc]).doc


@register(S.BufferRealize)
def _realize(p: Printer, s: S.BufferRealize) -> SDoc:
    region = S.BufferRegion(s.buffer, s.bounds)
    args = [p.expr(region).doc, str_lit(s.buffer.scope())]
    if not _is_one(s.condition):
        args.append(p.expr(s.condition).doc)
    with p.frame(s) as f:
        p.body(s.body, f)
    return ScopeDoc(concat("with ", call(p, p.T("realize"), args).doc), f.stmts)


# ------------------------------------------------------------------------------------ loops
def _grid(p: Printer, loop: S.For, limit: int | None = None) -> list[S.For]:
    """The loops ``T.grid`` prints together from ``loop`` down (at most ``limit``)."""
    grid: list[S.For] = []
    loop_vars: set[int] = set()
    node: Any = loop
    while isinstance(node, S.For) and p.cfg.syntax_sugar and len(grid) != limit:
        if (node.kind != S.ForKind.SERIAL or not _is_zero(node.min) or node.annotations
                or not node.has_trivial_step() or _uses(node.extent, loop_vars)):
            break
        grid.append(node)
        loop_vars.add(id(node.loop_var))
        node = node.body
    return grid


def _same_span_depth(loop: S.For) -> int:
    """How many nested loops from ``loop`` down carry ``loop``'s span (the loops of one written
    ``for ... in T.grid(...)`` share it)."""
    depth = 0
    node: S.Stmt = loop
    while isinstance(node, S.For) and node.span == loop.span:
        depth += 1
        node = node.body
    return depth


def _is_zero(e: Any) -> bool:
    return isinstance(e, IntImm) and e.value == 0


def _uses(e: Any, var_ids: set[int]) -> bool:
    if type(e) is IntImm or not var_ids:  # a constant extent, the first loop: no walk
        return False
    found = []
    post_order_visit(e, lambda n: found.append(n) if id(n) in var_ids else None)
    return bool(found)


_KIND = {S.ForKind.PARALLEL: "parallel", S.ForKind.UNROLLED: "unroll",
         S.ForKind.VECTORIZED: "vectorized", S.ForKind.THREAD_BINDING: "thread_binding"}


def _strided_for(p: Printer, loop: S.For) -> SDoc | None:
    form = strided_form(loop) if p.cfg.strided_loops else None
    if form is None:
        return None
    with p.frame(loop) as f:
        var = p.define(form.var, f, form.var.name_hint)
        args = [form.start, form.stop, form.step]
        rhs = (call(p, "range", [p.expr(a).doc for a in args]).doc
               if loop.kind == S.ForKind.SERIAL else tcall(p, _KIND[loop.kind], args).doc)
        p.body(form.body, f)
    return ScopeDoc(concat("for ", var, " in ", rhs), f.stmts)


def _loop_annotations(p: Printer, loop: S.For) -> tuple[str, Any]:
    """``annotations={...}``; in tirx, for a serial loop whose one annotation is
    ``pragma_unroll`` or ``disable_unroll``, TVM 0.27's ``unroll=n`` / ``unroll=False`` (its
    printer does so for every loop kind, but only ``T.serial`` takes ``unroll``)."""
    ann = loop.annotations
    if p.tirx and loop.kind == S.ForKind.SERIAL and len(ann) == 1:
        if ann.get("disable_unroll") is True:
            return ("unroll", False)
        if "pragma_unroll" in ann and isinstance(ann["pragma_unroll"], (bool, int)):
            return ("unroll", ann["pragma_unroll"])
    return ("annotations", ann)


def _grid_tuple(p: Printer, loop: S.For) -> SDoc | None:
    """tirfmt: the user's ``for iters in T.grid(16, 16)``, its vars printed ``iters[0]``..."""
    written_as = grid_tuple_written(p, loop)
    if written_as is None or _same_span_depth(loop) != written_as[1]:
        return None
    grid = _grid(p, loop, written_as[1])
    name, count = written_as
    if len(grid) != count or p.unique_name(name) != name:
        return None
    with p.frame(loop) as f:
        tup = p.define(GridTuple(grid), f, name)
        for k, g in enumerate(grid):
            p.define_as(g.loop_var, f, concat(tup, f"[{k}]"))
        rhs = tcall(p, "grid", [g.extent for g in grid]).doc
        p.body(grid[-1].body, f)
    return ScopeDoc(concat("for ", tup, " in ", rhs), f.stmts)


@register(S.For)
def _for(p: Printer, loop: S.For) -> SDoc:
    strided = _strided_for(p, loop)
    if strided is not None:
        return strided
    tupled = _grid_tuple(p, loop) if p.cfg.written is not None else None
    if tupled is not None:
        return tupled
    spelled = loop_spelling(p, loop) if p.cfg.written is not None else None  # tirfmt
    if spelled is not None and _same_span_depth(loop) != spelled[1]:
        spelled = None  # the nest is no longer the one written (a schedule split or fused it)
    grid = _grid(p, loop, spelled and spelled[1])
    with p.frame(loop) as f:
        if len(grid) > 1 or (grid and spelled == ("grid", 1)):
            lhs = [p.define(g.loop_var, f, g.loop_var.name_hint, shadow=p.cfg.written is not None
                            and may_shadow(p, g.loop_var, loop, grid[-1].body)) for g in grid]
            rhs = tcall(p, "grid", [g.extent for g in grid]).doc
            p.body(grid[-1].body, f)
            return ScopeDoc(concat("for ", join(", ", lhs), " in ", rhs), f.stmts)
        var = p.define(loop.loop_var, f, loop.loop_var.name_hint, shadow=p.cfg.written
                       is not None and may_shadow(p, loop.loop_var, loop, loop.body))
        trivial = loop.has_trivial_step()
        args = [loop.extent] if _is_zero(loop.min) and trivial and not (
            p.cfg.written is not None and loop_start_written(p, loop)) \
            else [loop.min, O.add(loop.min, loop.extent)]  # (tirfmt: the user's T.serial(0, n))
        kwargs: list[tuple[str, Any]] = []
        if loop.kind == S.ForKind.THREAD_BINDING:
            tag = loop.thread_binding.thread_tag if loop.thread_binding is not None else ""
            kwargs.append(("thread", tag))
        if loop.annotations:
            kwargs.append(_loop_annotations(p, loop))
        # TVM 0.27 prints a step that is not trivially 1 as range's third argument, else step=
        step = [] if trivial else [loop.step]
        as_range = loop.kind == S.ForKind.SERIAL and (
            not loop.annotations and not (spelled and spelled[0] == "serial")
            or (spelled is not None and spelled[0] == "range"))  # tirfmt: range(n, annotations=)
        if as_range:
            rhs = call(p, "range", [p.expr(a).doc for a in args + step],
                       [(k, p.expr(v).doc) for k, v in kwargs]).doc
        else:
            name = "serial" if loop.kind == S.ForKind.SERIAL else _KIND[loop.kind]
            rhs = tcall(p, name, args, kwargs + [("step", s) for s in step]).doc
        p.body(loop.body, f)
    return ScopeDoc(concat("for ", var, " in ", rhs), f.stmts)


def comment(text: str) -> CommentDoc:
    """A ``# text`` line."""
    return CommentDoc(text)


__all__ = ["concise", "comment", "E", "StringImm"]
