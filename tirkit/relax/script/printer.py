"""Relax IR → TVMScript (mirrors TVM's ``printer/relax/*.cc``), registered into the printer's
dispatch table: ``@R.function`` functions, ``R.Tensor((n, 4), dtype="float32")`` struct info,
``with R.dataflow():`` blocks ending in ``R.output(...)``, ``R.call_tir(cls.f, (x,),
out_sinfo=...)`` and the ``R.*`` operators with their attributes as keyword arguments.

Symbolic dims used by a function are declared at the top of its body (``n = T.int64()``), as TVM
prints them; every binding shows its var's struct info except calls whose ``out_sinfo`` already
says it.
"""
from __future__ import annotations

from typing import Any

from tirkit import tir
from tirkit.ir.expr import GlobalVar, PrimExpr
from tirkit.ir.node import Node, node_fields
from tirkit.ir.op import Op
from tirkit.printer.context import E, Frame, Printer, register
from tirkit.printer.doc import Doc, Text, concat, join
from tirkit.printer.expr import call, dtype_lit, str_lit
from tirkit.printer.stmt_doc import LineDoc, ScopeDoc, SDoc
from tirkit.printer.written import binding_annotated

from .. import expr as rx
from .. import struct_info as si

PREFIX = "R"
_DPS = {"relax.call_tir", "relax.call_tir_dyn", "relax.call_dps_packed"}


def R(p: Printer, name: str) -> Doc:  # pylint: disable=invalid-name
    """``R.name`` (records that the relax namespace is used)."""
    p.ir_usage.add("relax")
    return Text(f"{PREFIX}.{name}")


def _dims(p: Printer, dims: Any) -> Doc:
    items = [p.expr(d).doc for d in dims]
    return concat("(", join(", ", items), "," if len(items) == 1 else "", ")")


# ----------------------------------------------------------------------------- struct info
@register(si.TensorStructInfo)
def _tensor_sinfo(p: Printer, s: si.TensorStructInfo) -> E:
    args, kwargs = [], []
    if s.shape is not None:
        args.append(_dims(p, s.shape))
    if not s.dtype.is_void():
        kwargs.append(("dtype", dtype_lit(s.dtype)))
    if s.shape is None and s.ndim != -1:
        kwargs.append(("ndim", Text(str(s.ndim))))
    if not args and not kwargs:
        return E(R(p, "Tensor"))
    return call(p, R(p, "Tensor"), args, kwargs)


@register(si.ShapeStructInfo)
def _shape_sinfo(p: Printer, s: si.ShapeStructInfo) -> E:
    if s.values is not None:
        return call(p, R(p, "Shape"), [concat("[", join(", ", [p.expr(d).doc for d in s.values]),
                                              "]")])
    if s.ndim != -1:
        return call(p, R(p, "Shape"), [], [("ndim", Text(str(s.ndim)))])
    return E(R(p, "Shape"))


@register(si.PrimStructInfo)
def _prim_sinfo(p: Printer, s: si.PrimStructInfo) -> E:
    if s.value is not None:
        return call(p, R(p, "Prim"), [], [("value", p.expr(s.value).doc)])
    return call(p, R(p, "Prim"), [dtype_lit(s.dtype)])


@register(si.TupleStructInfo)
def _tuple_sinfo(p: Printer, s: si.TupleStructInfo) -> E:
    return call(p, R(p, "Tuple"), [p.expr(f).doc for f in s.fields])


@register(si.ObjectStructInfo)
def _object_sinfo(p: Printer, s: si.ObjectStructInfo) -> E:
    del s
    return E(R(p, "Object"))


@register(si.FuncStructInfo)
def _func_sinfo(p: Printer, s: si.FuncStructInfo) -> E:
    params = concat("(", join(", ", [p.expr(x).doc for x in s.params or ()]), ")")
    return call(p, R(p, "Callable"), [params, p.expr(s.ret).doc])


# ----------------------------------------------------------------------------- expressions
@register(rx.Var)
def _var(p: Printer, v: rx.Var) -> E:
    doc = p.var_doc(v)
    return E(doc if doc is not None else Text(v.name_hint))


@register(rx.Tuple)
def _tuple(p: Printer, t: rx.Tuple) -> E:
    items = [p.expr(f).doc for f in t.fields]
    return E(concat("(", join(", ", items), "," if len(items) == 1 else "", ")"))


@register(rx.TupleGetItem)
def _get_item(p: Printer, t: rx.TupleGetItem) -> E:
    return E(concat(p.expr(t.tuple_value).doc, f"[{t.index}]"))


@register(rx.ShapeExpr)
def _shape(p: Printer, s: rx.ShapeExpr) -> E:
    return call(p, R(p, "shape"), [concat("[", join(", ", [p.expr(d).doc for d in s.values]),
                                          "]")])


@register(rx.PrimValue)
def _prim_value(p: Printer, v: rx.PrimValue) -> E:
    return call(p, R(p, "prim_value"), [p.expr(v.value).doc])


@register(rx.StringImm)
def _string(p: Printer, s: rx.StringImm) -> E:
    return call(p, R(p, "str"), [str_lit(s.value)])


@register(rx.ExternFunc)
def _extern(p: Printer, f: rx.ExternFunc) -> E:
    return call(p, R(p, "ExternFunc"), [str_lit(f.global_symbol)])


@register(rx.Constant)
def _constant(p: Printer, c: rx.Constant) -> E:
    if c.data.ndim == 0:
        value = c.data.item()
        lit = repr(bool(value)) if c.data.dtype == bool else repr(value)
        return call(p, R(p, "const"), [Text(lit), dtype_lit(str(c.data.dtype))])
    return E(p.meta_ref(c))


def _attr_doc(p: Printer, value: Any) -> Doc:
    if isinstance(value, tuple):
        return concat("[", join(", ", [_attr_doc(p, v) for v in value]), "]")
    if value is None:
        return Text("None")
    return p.expr(value).doc


@register(rx.Call)
def _call(p: Printer, c: rx.Call) -> E:
    op = c.op
    if isinstance(op, Op) and op.name in _DPS:
        return _dps_call(p, c)
    args = [p.expr(a).doc for a in c.args]
    kwargs = [(k, _attr_doc(p, v)) for k, v in c.attrs.items()]
    if isinstance(op, Op):
        return call(p, R(p, op.name[len("relax."):] if op.name.startswith("relax.") else op.name),
                    args, kwargs)
    return call(p, p.expr(op).doc, args, kwargs)


def _dps_call(p: Printer, c: rx.Call) -> E:
    name = c.op.name[len("relax."):]
    args = [p.expr(c.args[0]).doc, p.expr(_as_tuple(c.args[1])).doc]
    sinfo = c.sinfo_args[0]
    out = sinfo.fields if isinstance(sinfo, si.TupleStructInfo) else (sinfo,)
    out_doc = p.expr(out[0]).doc if len(out) == 1 else concat(
        "[", join(", ", [p.expr(s).doc for s in out]), "]")
    kwargs = [("out_sinfo", out_doc)]
    if name == "call_tir_dyn":
        args.append(p.expr(c.args[2]).doc)
    elif len(c.args) > 2:
        kwargs.append(("tir_vars", p.expr(c.args[2]).doc))
    return call(p, R(p, name), args, kwargs)


def _as_tuple(value: Any) -> Any:
    return value if isinstance(value, rx.Tuple) else rx.Tuple([value])


# ------------------------------------------------------------------------------- bindings
def _binding(p: Printer, b: Any, f: Frame) -> SDoc:
    value = p.expr(b.value).doc
    lhs = p.define(b.var, f, b.var.name_hint)
    if isinstance(b, rx.MatchCast):
        rhs = call(p, R(p, "match_cast"), [value, p.expr(b.struct_info).doc]).doc
        return LineDoc(concat(lhs, " = ", rhs))
    if isinstance(b.value, rx.Call) and isinstance(b.value.op, Op) and b.value.op.name in _DPS \
            and not (p.cfg.written is not None and binding_annotated(p, b)):  # (tirfmt: kept)
        return LineDoc(concat(lhs, " = ", value))
    sinfo = b.var.struct_info_
    if sinfo is None or isinstance(b.value, rx.Function):
        return LineDoc(concat(lhs, " = ", value))
    return LineDoc(concat(lhs, ": ", p.expr(sinfo).doc, " = ", value))


def _block(p: Printer, block: rx.BindingBlock, f: Frame) -> list[SDoc]:
    if not isinstance(block, rx.DataflowBlock):
        return [_binding(p, b, f) for b in block.bindings]
    body = [_binding(p, b, f) for b in block.bindings]
    outs = [b.var for b in block.bindings if not isinstance(b.var, rx.DataflowVar)]
    body.append(LineDoc(call(p, R(p, "output"), [p.expr(v).doc for v in outs]).doc))
    header = concat("with ", call(p, R(p, "dataflow"), []).doc)
    return [ScopeDoc(header, body)]


# ------------------------------------------------------------------------------ functions
def _symbolic_vars(func: rx.Function) -> list[tir.Var]:
    found: list[tir.Var] = []
    seen: set[int] = set()

    def visit(obj: Any) -> None:
        if isinstance(obj, tir.Var):
            if id(obj) not in seen:
                seen.add(id(obj))
                found.append(obj)
            return
        if isinstance(obj, (list, tuple)):
            for x in obj:
                visit(x)
        elif isinstance(obj, dict):
            for x in obj.values():
                visit(x)
        elif isinstance(obj, Node) and not isinstance(obj, (Op, GlobalVar)):
            if isinstance(obj, tir.PrimFunc):
                return
            for fld in node_fields(type(obj)):
                visit(getattr(obj, fld.name, None))
            if isinstance(obj, rx.Var):
                visit(obj.struct_info_)

    visit(list(func.params))
    visit(func.body)
    visit(func.ret_struct_info)
    return found


def _uses_gvar(func: rx.Function) -> bool:
    found: list[GlobalVar] = []

    def visit(obj: Any) -> None:
        if found:
            return
        if isinstance(obj, GlobalVar):
            found.append(obj)
        elif isinstance(obj, (list, tuple)):
            for x in obj:
                visit(x)
        elif isinstance(obj, Node) and not isinstance(obj, (Op, PrimExpr, si.StructInfo)):
            for fld in node_fields(type(obj)):
                visit(getattr(obj, fld.name, None))

    visit(func.body)
    return bool(found)


@register(rx.Function)
def print_function(p: Printer, func: rx.Function) -> SDoc:
    """``@R.function def name(params) -> ret: body`` (TVM's Relax function printer); shape
    literals print as plain ints (int64 is Relax's index type)."""
    name = p.cfg.binding_name or func.attrs.get("global_symbol") or "main"
    saved, p.cfg.int_dtype = p.cfg.int_dtype, _int64()
    try:
        with p.frame(func) as f:
            header = _function_header(p, func, name, f)
            _function_body(p, func, f)
    finally:
        p.cfg.int_dtype = saved
    kwargs = []
    if "global_symbol" not in func.attrs:
        kwargs.append(("private", Text("True")))
    if not func.is_pure:
        kwargs.append(("pure", Text("False")))
    deco = call(p, R(p, "function"), [], kwargs).doc if kwargs else R(p, "function")
    return ScopeDoc(header, f.stmts, decorators=[deco])


def _int64() -> Any:
    from tirkit.ir.dtype import dtype  # pylint: disable=import-outside-toplevel

    return dtype("int64")


def _function_header(p: Printer, func: rx.Function, name: str, f: Frame) -> Doc:
    for v in _symbolic_vars(func):
        lhs = p.define(v, f, v.name_hint)
        f.stmts.append(LineDoc(concat(lhs, " = ", call(p, p.T(str(v.dtype)), []).doc)))
    params = []
    for rv in func.params:
        ann = p.expr(rv.struct_info_).doc if rv.struct_info_ is not None else R(p, "Object")
        params.append(concat(p.define(rv, f, rv.name_hint), ": ", ann))
    return concat("def ", name, "(", join(", ", params), ") -> ",
                  p.expr(func.ret_struct_info).doc)


def _function_body(p: Printer, func: rx.Function, f: Frame) -> None:
    if p.module is not None and p.gvar_alias == "cls" and _uses_gvar(func):
        f.stmts.append(LineDoc(concat("cls = ", p.module_name)))
    attrs = {k: v for k, v in func.attrs.items() if k != "global_symbol"}
    if attrs:
        f.stmts.append(LineDoc(call(p, R(p, "func_attr"), [p.expr(attrs).doc]).doc))
    body = func.body
    blocks = body.blocks if isinstance(body, rx.SeqExpr) else ()
    result = body.body if isinstance(body, rx.SeqExpr) else body
    for block in blocks:
        f.stmts.extend(_block(p, block, f))
    f.stmts.append(LineDoc(concat("return ", p.expr(result).doc)))
