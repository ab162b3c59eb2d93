"""Printing of PrimFuncs (mirrors TVM's ``printer/tir/function.cc``).

``@T.prim_func`` (``private=True`` without a ``global_symbol`` attribute; tirx adds
``s_tir=True`` when the function has blocks), parameters as ``A: T.Buffer((n,), "float32")``
when the buffer is simple (TVM ``IsSimpleBuffer``), else ``a: T.handle`` plus
``A = T.match_buffer(a, ...)`` in the body, ``T.func_attr`` without a ``global_symbol`` equal
to the function's name, and the implicit root block as a comment.
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.expr import IntImm
from tirkit.ir.type import PointerType, PrimType, TupleType
from tirkit.tir import stmt as S
from tirkit.tir.analysis import has_block, undefined_vars
from tirkit.tir.buffer import DEFAULT_ALIGNMENT, Buffer, BufferType
from tirkit.tir.expr import Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt_functor import post_order_visit

from .block import alloc_buffers, implicit_root
from .compute_sugar import plan_compute_sugar, print_compute
from .buffer import VarDef, buffer_attrs, buffer_call, buffer_decl, define_buffer
from .context import Frame, Printer, register
from .doc import LINE, SOFTLINE, Doc, Group, Nest, Text, bracket, concat, join, render
from .expr import call, dtype_lit, str_lit, type_doc
from .stmt_doc import CommentDoc, LineDoc, ScopeDoc, SDoc
from .written import (args_written, called_as, keyword_written, match_buffer_written, returns_none,
                      root_block_written)


def is_simple_buffer(buf: Buffer) -> bool:
    """Whether a buffer_map entry can print as a ``T.Buffer`` annotation (TVM
    ``IsSimpleBuffer``): no strides, no vars in shape/offset, zero offset, default attrs."""
    if buf.strides:
        return False
    if any(type(s) is not IntImm and undefined_vars(s) for s in buf.shape):
        return False  # (a constant dim, the usual one, has no vars: no walk)
    if not isinstance(buf.elem_offset, IntImm) or buf.elem_offset.value != 0:
        return False
    return (buf.scope() == "global" and buf.data_alignment == DEFAULT_ALIGNMENT
            and buf.offset_factor == 1 and buf.buffer_type == BufferType.DEFAULT
            and not buf.axis_separators)


def _param_buffer_written(p: Printer, buf: Buffer) -> bool:
    """tirfmt: whether a buffer_map entry was written as the param's ``T.Buffer(...)``
    annotation with attributes a simple buffer has not (``align=64``, ``axis_separators=``,
    ``scope=``, constant strides), which print as its keywords; its shape, strides and offset
    hold no var the annotation would define."""
    if not called_as(p, buf, "Buffer"):
        return False
    if any(type(e) is not IntImm for e in buf.strides) or type(buf.elem_offset) is not IntImm:
        return False
    return not any(type(s) is not IntImm and undefined_vars(s) for s in buf.shape)


def _used_vars(func: PrimFunc) -> set[int]:
    """Ids of the vars the body and the buffers use (TVM ``CountVarOccurrence`` minus the param
    and the buffer_map key, for every param in one walk)."""
    used: set[int] = set()

    def visit(n: Any) -> None:
        if isinstance(n, Var):
            used.add(id(n))
    post_order_visit(func.body, visit)
    for buf in func.buffer_map.values():
        for e in (*buf.shape, *buf.strides, buf.elem_offset, buf.data):
            post_order_visit(e, visit)
    return used


def _maybe_used(p: Printer, func: PrimFunc) -> bool:
    """Whether a param with a buffer may occur in the body or the buffers (else
    :func:`_used_vars`, a walk of the whole function, has nothing to say about the params).
    :meth:`Printer.set_common_prefix` walked every field of the function, a superset of what
    ``_used_vars`` walks, and met each param in ``params`` and as a ``buffer_map`` key: a param
    met no more than those two times occurs nowhere else."""
    visits = p.var_visits
    return any(visits.get(id(var), 0) > 2 for var in func.buffer_map)


def _params(p: Printer, func: PrimFunc, f: Frame) -> tuple[list[Doc], set[int]]:
    data_count: dict[int, int] = {}
    for mapped in func.buffer_map.values():
        data_count[id(mapped.data)] = data_count.get(id(mapped.data), 0) + 1
    args: list[Doc] = []
    inlined: set[int] = set()
    used = _used_vars(func) if p.cfg.syntax_sugar and func.buffer_map \
        and _maybe_used(p, func) else set()
    seen: set[int] = set()  # tirx: vars a later annotation may name (see _quoted_dims)
    later = {id(v): v for v in func.params if v not in func.buffer_map} if p.tirx else {}
    for var in func.params:
        buf = func.buffer_map.get(var)
        if not (p.cfg.syntax_sugar and buf is not None and id(var) not in used
                and data_count[id(buf.data)] == 1):
            pass
        elif p.cfg.written is not None and match_buffer_written(p, buf):
            pass  # the user's a: T.handle with A = T.match_buffer(a, ...) (tirfmt)
        elif is_simple_buffer(buf) or p.cfg.written is not None and _param_buffer_written(p, buf):
            lhs = define_buffer(p, buf, f)
            attrs = buffer_attrs(p, buf, f, VarDef.DATA_POINTER, force_dtype=True)
            ann = buffer_call(p, "Buffer", attrs, []).doc  # shape, dtype (and tirfmt's kept
            # keywords: dtype=..., align=64 written out)
            args.append(concat(lhs, ": ", ann))
            inlined.add(id(buf))
            continue
        elif p.tirx and _annotatable(p, buf, later):
            args.append(_tirx_buffer_param(p, buf, f, seen, later))
            inlined.add(id(buf))
            continue
        ann = _param_type(p, var)
        doc = p.var_doc(var)  # defined already when an earlier quoted dim names it
        args.append(concat(doc if doc is not None else p.define(var, f, var.name_hint), ": ",
                           ann))
        seen.add(id(var))
    return args, inlined


def _param_type(p: Printer, var: Var) -> Doc:
    """A param's annotation; tirfmt keeps ``T.handle("float32", storage_scope="shared")`` and
    ``T.handle("float32")`` (the default scope left out) as written."""
    t = var.type_annotation
    if p.cfg.written is not None and isinstance(t, PointerType) and \
            isinstance(t.element_type, PrimType):
        dt = dtype_lit(t.element_type.dtype)
        if keyword_written(p, var, "storage_scope", ("handle",)) is not None:
            return call(p, p.T("handle"), [dt], [("storage_scope", str_lit(t.storage_scope))]).doc
        args = args_written(p, var, ("handle",))
        if args is not None and len(args) == 1 and t.storage_scope == "global":
            return call(p, p.T("handle"), [dt]).doc
    return type_doc(p, t).doc


def _annotatable(p: Printer, buf: Buffer, later: dict[int, Var]) -> bool:
    """tirx: whether a matched buffer param prints as a ``T.Buffer(...)`` annotation with every
    attribute (TVM 0.27, whose params are buffers): each new var of its shape is a later scalar
    param, a var of the index dtype (named by a quoted dim, see :func:`_quoted_dims`; the body
    defines it as ``n = T.int32()``) or an ``int64`` var (a module ``n = TypeVar("n")``, see
    :func:`_type_vars`) and each new stride
    var appears once in the buffer (printed as ``"s0"``, defined as ``A.strides[0]``)."""
    def new_vars(e: Any) -> list[Any]:
        out: list[Any] = []
        post_order_visit(e, lambda n: out.append(n)
                         if isinstance(n, Var) and not p.is_defined(n) else None)
        return out

    shape_vars = [v for e in buf.shape for v in new_vars(e)]
    if any(id(v) not in later and (str(v.dtype) not in (str(p.cfg.int_dtype), "int64")
                                   or isinstance(v.type_annotation, PointerType))
           for v in shape_vars):
        return False
    uses = [v for e in (*buf.strides, buf.elem_offset) for v in new_vars(e)]
    inline = [s for s in buf.strides if isinstance(s, Var)] + [buf.elem_offset]
    return all(any(v is x for x in inline) and sum(u is v for u in uses) == 1
               and not any(v is s for s in shape_vars) and id(v) not in later for v in uses)


def _tirx_buffer_param(p: Printer, buf: Buffer, f: Frame, seen: set[int],
                       later: dict[int, Var]) -> Doc:
    """``A: T.Buffer(shape, dtype, strides=..., ...)`` for a matched param (tirx), under the
    buffer's name (the handle is not printed; naming it first would rename the buffer at every
    format, so tirfmt would not be stable)."""
    type_vars = _type_vars(p, buf, later)
    quoted = _quoted_dims(buf, seen, type_vars)
    for e in buf.shape:  # a later scalar param a quoted dim names is defined by that param
        post_order_visit(e, lambda n: p.define(n, f, n.name_hint)
                         if id(n) in later and not p.is_defined(n) else None)
    lhs = define_buffer(p, buf, f)
    attrs = buffer_attrs(p, buf, f, VarDef.MATCH_BUFFER, force_dtype=True)
    if any(quoted):
        attrs["shape"] = _tirx_shape(p, buf, quoted)
    return concat(lhs, ": ", buffer_call(p, "Buffer", attrs, []).doc)


def _type_vars(p: Printer, buf: Buffer, later: dict[int, Var]) -> set[int]:
    """Define each new ``int64`` var of a param's shape at module level, printed as ``n =
    TypeVar("n")`` before the function (TVM 0.27); the ids of the shape's TypeVar vars."""
    found: list[Any] = []
    for e in buf.shape:
        post_order_visit(e, lambda n: found.append(n) if isinstance(n, Var) else None)
    for v in found:
        if not p.is_defined(v) and id(v) not in later and str(v.dtype) == "int64" \
                and str(p.cfg.int_dtype) != "int64":
            p.define(v, p.frames[0], v.name_hint)
            p.type_vars.append(p.names[id(v)])
            p.type_var_ids.add(id(v))
    return {id(v) for v in found if id(v) in p.type_var_ids}


def _quoted_dims(buf: Buffer, seen: set[int], type_vars: set[int]) -> list[bool]:
    """Which dims of a param's shape print quoted (TVM 0.27): a dim naming a var that no
    earlier param or quoted dim of the signature names is a forward reference, spelled as a
    string (``T.Buffer(("n", "k"))``; the var is a later param or is defined in the body as
    ``n = T.int32()``, the parser reads the string as the expression it holds); a module
    TypeVar alone is not quoted, an expression of one is (``T.Buffer(("m * T.int64(2)",))``)."""
    out: list[bool] = []
    for e in buf.shape:
        names: list[int] = []
        post_order_visit(e, lambda n: names.append(id(n)) if isinstance(n, Var) else None)
        alone = isinstance(e, Var) and id(e) in type_vars
        out.append(not alone and any(v not in seen for v in names))
        seen.update(names)
    return out


def _tirx_shape(p: Printer, buf: Buffer, quoted: list[bool]) -> Doc:
    items: list[Doc] = []
    for e, q in zip(buf.shape, quoted):
        doc = p.expr(e).doc
        items.append(str_lit("".join(render(doc, 1 << 30).lines)) if q else doc)
    return bracket("(", items, ")", 4, "," if len(items) == 1 else "", p.wrap)


def _func_attrs(p: Printer, func: PrimFunc, name: str, f: Frame) -> None:
    attrs = dict(func.attrs)
    if attrs.get("global_symbol") == name and name not in p.cfg.keep_global_symbol:
        del attrs["global_symbol"]
    if p.tirx and attrs.get("s_tir") is True:
        del attrs["s_tir"]  # tirx: @T.prim_func(s_tir=True) says it
    if attrs:
        f.stmts.append(LineDoc(call(p, p.T("func_attr"), [p.expr(attrs).doc]).doc))


def _match_buffers(p: Printer, func: PrimFunc, f: Frame, args: list[Doc],
                   inlined: set[int]) -> None:
    for var in func.params:
        buf = func.buffer_map.get(var)
        if buf is None or id(buf) in inlined:
            continue
        lhs = define_buffer(p, buf, f)
        rhs = buffer_decl(p, buf, "match_buffer", [p.expr(var).doc], f, VarDef.MATCH_BUFFER)
        f.stmts.append(p.with_comments(buf, LineDoc(concat(lhs, " = ", rhs.doc))))


def _body(p: Printer, func: PrimFunc, f: Frame) -> None:
    root = implicit_root(func.body) if p.cfg.syntax_sugar and not (
        p.cfg.written is not None and root_block_written(p, func.body)) else None
    if root is None:
        p.body(func.body, f)
        return
    kw = "sblock" if p.tirx else "block"
    f.stmts.append(CommentDoc(f'with {p.cfg.tir_prefix}.{kw}("root"):'))
    sugar = plan_compute_sugar(root) if p.cfg.compute_sugar else {}
    if not sugar:
        alloc_buffers(p, root.alloc_buffers, f)
        p.body(root.body, f)
        return
    computed = {id(form.buffer) for form in sugar.values()}
    alloc_buffers(p, [b for b in root.alloc_buffers if id(b) not in computed], f)
    items = root.body.seq if isinstance(root.body, S.SeqStmt) else (root.body,)
    f.sole = not isinstance(root.body, S.SeqStmt)
    for i, stmt in enumerate(items):
        if id(stmt) in sugar:
            print_compute(p, sugar[id(stmt)], f)
        else:
            f.allow_concise = i == len(items) - 1
            f.stmts.extend(p.stmts(stmt))


def _decorator(p: Printer, func: PrimFunc) -> Doc:
    kwargs: list[tuple[str, Doc]] = []
    if "global_symbol" not in func.attrs:
        kwargs.append(("private", Text("True")))
    if p.tirx and (func.attrs.get("s_tir") is True or has_block(func.body)):
        kwargs.append(("s_tir", Text("True")))
    return call(p, p.T("prim_func"), [], kwargs).doc if kwargs else p.T("prim_func")


def function_name(p: Printer, func: PrimFunc) -> str:
    """The printed name: the binding name inside a module, else ``global_symbol`` or
    ``main``."""
    if p.cfg.binding_name:
        return p.cfg.binding_name
    sym = func.attrs.get("global_symbol")
    return sym if isinstance(sym, str) and sym else "main"


@register(PrimFunc)
def print_prim_func(p: Printer, func: PrimFunc) -> SDoc:
    """``@T.prim_func def name(params) -> ret: body`` (TVM's PrimFunc printer)."""
    name = function_name(p, func)
    # as the parser reads them: scalar buffers only where no s_tir=True is printed
    outer_scalar, p.scalar_buffers = p.scalar_buffers, p.tirx and not has_block(func.body) \
        and func.attrs.get("s_tir") is not True
    try:
        return _print_prim_func(p, func, name)
    finally:
        p.scalar_buffers = outer_scalar


def _print_prim_func(p: Printer, func: PrimFunc, name: str) -> SDoc:
    with p.frame(func) as f:
        p.set_common_prefix(func, count=func.buffer_map)
        args, inlined = _params(p, func, f)
        _func_attrs(p, func, name, f)
        _match_buffers(p, func, f, args, inlined)
        _body(p, func, f)
    header = concat("def ", name, "(", _join_args(p, args), ")")
    ret = func.ret_type
    if not (isinstance(ret, TupleType) and not ret.fields) and ret is not None:
        header = concat(header, " -> ", type_doc(p, ret).doc)
    elif p.cfg.written is not None and returns_none(p, func):
        header = concat(header, " -> None")  # the user's (tirfmt)
    p.ir_usage.add("tir")
    return ScopeDoc(header, f.stmts, decorators=[_decorator(p, func)])


def _join_args(p: Printer, args: list[Doc]) -> Doc:
    if not args:
        return Text("")
    if not p.wrap:
        return join(", ", args)
    return Group(concat(Nest(4, concat(SOFTLINE, join(concat(",", LINE), args))), SOFTLINE))


__all__ = ["print_prim_func", "is_simple_buffer", "function_name", "str_lit"]
