"""Printing of expressions and Python values (mirrors TVM's ``printer/tir/expr.cc`` and
``printer/ir/misc.cc``): Python operators with minimal parentheses where the parser rebuilds
the same node, ``T.`` calls otherwise."""
from __future__ import annotations

import json
import math
from enum import Enum
from typing import Any, Callable, Sequence

from tirkit import tir
from tirkit.ir import Op
from tirkit.ir.dtype import DataType
from tirkit.ir.expr import GlobalVar, Range
from tirkit.ir.target import TargetConfig
from tirkit.ir.type import PointerType, PrimType, TupleType
from tirkit.tir import expr as X
from tirkit.tir import op as O
from tirkit.tir.analysis import expr_deep_equal
from tirkit.tir.const_fold import try_const_fold

from .context import (E, P_ADD, P_AND, P_ATOM, P_BAND, P_BOR, P_BXOR, P_CMP, P_MUL, P_NOT, P_OR,
                      P_SHIFT, P_UNARY, Printer, register)
from .doc import Doc, Text, bracket, concat, join
from .stmt_doc import LineDoc
from .written import (buffer_field_written, called_as, cast_folded_written, declared_frame,
                      dtype_keyword, float_written, folded_written, int_written, limit_written,
                      method_written, var_call_written)


# ------------------------------------------------------------------------------- literals
def str_lit(s: str) -> Doc:
    """A double-quoted Python string literal (TVM ``LiteralDoc::Str``)."""
    doc = _STR_LITS.get(s)
    if doc is None:
        doc = Text(json.dumps(s, ensure_ascii=False))
        if len(_STR_LITS) < 4096:  # dtypes, scopes, block names, axis kinds: a small set
            _STR_LITS[s] = doc
    return doc


_STR_LITS: dict[str, Doc] = {}


def float_lit(v: float) -> str:
    """TVM's float spelling: ``1.0`` for integral values, ``%.17g`` otherwise, ``"inf"``."""
    if math.isinf(v) or math.isnan(v):
        return f'"{v}"'
    if v == math.floor(v) and abs(v) < 1e300:
        return f"{v:.1f}"
    return f"{v:.17g}"


def dtype_lit(t: Any) -> Doc:
    """``"float32"``: a dtype as a string literal (TVM ``LiteralDoc::DataType``)."""
    return str_lit(str(t))


def call(p: Printer, fn: Doc | str, args: list[Doc], kwargs: Sequence[tuple[str, Doc]] = ()) -> E:
    """``fn(args..., key=value...)`` that wraps its arguments when too long."""
    items = list(args) + [concat(k, "=", v) for k, v in kwargs]
    head = Text(fn) if isinstance(fn, str) else fn
    return E(concat(head, bracket("(", items, ")", p.cfg.indent_spaces, wrap=p.wrap)))


def tcall(p: Printer, name: str, args: list[Any], kwargs: Sequence[tuple[str, Any]] = ()) -> E:
    """``T.name(...)`` with IR or Python arguments."""
    return call(p, p.T(name), [p.expr(a).doc for a in args],
                [(k, p.expr(v).doc) for k, v in kwargs])


@register(int, bool)
def _py_int(p: Printer, v: int) -> E:
    if isinstance(v, bool):
        return E(Text("True" if v else "False"))
    return E(Text(str(v)), P_UNARY if v < 0 else P_ATOM)


@register(float)
def _py_float(p: Printer, v: float) -> E:
    return E(Text(float_lit(v)), P_UNARY if v < 0 else P_ATOM)


@register(str)
def _py_str(p: Printer, v: str) -> E:
    return E(str_lit(v))


@register(type(None))
def _py_none(p: Printer, v: None) -> E:
    return E(Text("None"))


@register(DataType)
def _py_dtype(p: Printer, v: DataType) -> E:
    return E(dtype_lit(v))


@register(Enum)
def _py_enum(p: Printer, v: Enum) -> E:
    return E(Text(str(int(v.value)) if isinstance(v.value, int) else repr(v.value)))


@register(list)
def _py_list(p: Printer, v: list) -> E:
    return E(bracket("[", [p.expr(x).doc for x in v], "]", p.cfg.indent_spaces, wrap=p.wrap))


@register(tuple)
def _py_tuple(p: Printer, v: tuple) -> E:
    items = [p.expr(x).doc for x in v]
    return E(bracket("(", items, ")", p.cfg.indent_spaces, "," if len(items) == 1 else "",
                     p.wrap))


@register(dict)
def _py_dict(p: Printer, v: dict) -> E:
    keys = list(v)
    if all(isinstance(k, str) for k in keys) and p.cfg.written is None:
        keys.sort()  # tirfmt (``written``): the order the user wrote (the IR keeps it)
    items = [concat(p.expr(k).doc, ": ", p.expr(v[k]).doc) for k in keys]
    return E(bracket("{", items, "}", p.cfg.indent_spaces, wrap=p.wrap))


@register(TargetConfig)
def _target(p: Printer, v: TargetConfig) -> E:
    """tirx: ``T.target("llvm")`` / ``T.target({...})``, TVM 0.27's print of a ``Target``
    (which it reads back as one); classic: the config dict, as tirkit always printed it, but
    ``T.target(...)`` for tirfmt (``written``): only ``T.target`` makes a ``TargetConfig``."""
    if not p.tirx and p.cfg.written is None:
        return _py_dict(p, v)
    args, kwargs = v.script_args()
    return tcall(p, "target", args, kwargs)


# ---------------------------------------------------------------------------- constants
def _cast_folded(p: Printer, imm: Any) -> E | None:
    """The user's ``T.cast(14, "float64")`` of a constant the parser folded (tirfmt)."""
    cast = cast_folded_written(p, imm)
    if cast is None:
        return None
    if cast[1]:
        return call(p, p.T("cast"), [Text(cast[0])], [("dtype", dtype_lit(imm.dtype))])
    return call(p, p.T("cast"), [Text(cast[0]), dtype_lit(imm.dtype)])


@register(X.IntImm)
def _int_imm(p: Printer, imm: X.IntImm) -> E:
    if p.cfg.written is not None:
        cast = _cast_folded(p, imm)
        if cast is not None:
            return cast
        limit = limit_written(p, imm)
        if limit is not None:  # the user's T.min_value("int32") (tirfmt)
            return call(p, p.T(limit), [dtype_lit(imm.dtype)])
        field = buffer_field_written(p, imm)
        if field is not None:  # the user's A.strides[0] (tirfmt)
            return E(concat(field[0], f".{field[1]}[{field[2]}]"))
        folded = folded_written(p, imm) if imm.dtype == p.cfg.int_dtype else None
        if folded is not None:  # the user's T.ceildiv(14, 4) (tirfmt)
            return call(p, p.T(folded[0]), [Text(str(folded[1])), Text(str(folded[2]))])
    if imm.dtype == p.cfg.int_dtype and (p.cfg.written is None or not int_written(p, imm)):
        return E(Text(str(imm.value)), P_UNARY if imm.value < 0 else P_ATOM)
    if imm.dtype.is_bool():
        return call(p, p.T("bool"), [Text("True" if imm.value else "False")])
    return call(p, p.T(str(imm.dtype)), [Text(str(imm.value))])


@register(X.FloatImm)
def _float_imm(p: Printer, imm: X.FloatImm) -> E:
    if p.cfg.written is not None:
        limit = limit_written(p, imm)
        if limit is not None:  # the user's T.min_value("float32") (tirfmt)
            return call(p, p.T(limit), [dtype_lit(imm.dtype)])
    if p.cfg.written is not None:
        cast = _cast_folded(p, imm)
        if cast is not None:
            return cast
    literal = float_written(p, imm) if p.cfg.written is not None else None
    text = Text(literal if literal is not None else float_lit(imm.value))
    if imm.dtype == p.cfg.float_dtype:
        return E(text, P_UNARY if imm.value < 0 else P_ATOM)
    return call(p, p.T(str(imm.dtype)), [text])


@register(X.StringImm)
def _string_imm(p: Printer, s: X.StringImm) -> E:
    return E(str_lit(s.value))


# -------------------------------------------------------------------------------- variables
@register(X.Var)
def _var(p: Printer, v: X.Var) -> E:
    doc = p.var_doc(v)
    if doc is None and p.define_free:
        frame = p.lowest_def_frame(v)
        if p.cfg.written is not None:  # tirfmt: where the user declared it
            frame = declared_frame(p, v, frame)
        if frame is not None:
            lhs = p.define(v, frame, v.name_hint)
            frame.stmts.append(LineDoc(concat(lhs, " = ", var_creation(p, v).doc)))
            doc = lhs
    if doc is None:
        doc = Text(v.name_hint or "v")
    return E(doc)


def var_creation(p: Printer, v: X.Var) -> E:
    """``T.int32()``, ``T.handle("float32", "global")``, ``T.int64(is_size_var=True)``
    (TVM ``PrintVarCreation``)."""
    kwargs = [("is_size_var", Text("True"))] if isinstance(v, X.SizeVar) else []
    ann = v.type_annotation
    keyword = var_call_written(p, v) if p.cfg.written is not None and not kwargs \
        and isinstance(ann, PrimType) else None
    if keyword is not None:  # the user's T.Var("n", dtype="int32") (tirfmt)
        kind = dtype_lit(v.dtype)
        return call(p, p.T("Var"), [str_lit(v.name_hint)] + ([] if keyword else [kind]),
                    [("dtype", kind)] if keyword else [])
    if isinstance(ann, PointerType):
        args = []
        if isinstance(ann.element_type, PrimType):
            args = [dtype_lit(ann.element_type.dtype), str_lit(ann.storage_scope)]
        return call(p, p.T("handle"), args, kwargs)
    return call(p, p.T(str(v.dtype)), [], kwargs)


def type_doc(p: Printer, t: Any) -> E:
    """A type annotation: ``T.int32``, ``T.handle``, ``T.handle("float32", "global")``."""
    if isinstance(t, X.Var):  # a dtype var used as a type (``-> T.int32`` parsed as a var)
        t = t.type_annotation
    if isinstance(t, (DataType, str)):
        t = PrimType(t) if str(t) != "void" else TupleType(())
    if isinstance(t, PointerType):
        if isinstance(t.element_type, PrimType):
            return call(p, p.T("handle"), [dtype_lit(t.element_type.dtype),
                                           str_lit(t.storage_scope)])
        return E(p.T("handle"))
    if isinstance(t, PrimType):
        return E(p.T(str(t.dtype)))
    if isinstance(t, TupleType) and not t.fields:
        return E(p.T("void"))
    return E(p.meta_ref(t))


# ------------------------------------------------------------------------------ operators
_BIN: dict[type, tuple[str, int, Callable[..., Any], str]] = {
    X.Add: ("+", P_ADD, O.add, "Add"), X.Sub: ("-", P_ADD, O.subtract, "Sub"),
    X.Mul: ("*", P_MUL, O.multiply, "Mul"), X.FloorDiv: ("//", P_MUL, O.floordiv, "FloorDiv"),
    X.FloorMod: ("%", P_MUL, O.floormod, "FloorMod"),
    X.EQ: ("==", P_CMP, O.equal, "EQ"), X.NE: ("!=", P_CMP, O.not_equal, "NE"),
    X.LT: ("<", P_CMP, O.less, "LT"), X.LE: ("<=", P_CMP, O.less_equal, "LE"),
    X.GT: (">", P_CMP, O.greater, "GT"), X.GE: (">=", P_CMP, O.greater_equal, "GE"),
    X.And: ("and", P_AND, O.logical_and, "And"), X.Or: ("or", P_OR, O.logical_or, "Or"),
}


#: operators a user may write as calls (tirfmt keeps the call where written)
_WRITTEN_CALLS = {X.FloorDiv: "floordiv", X.FloorMod: "floormod"}


def binop(p: Printer, sym: str, prec: int, a: Any, b: Any) -> E:
    """``a sym b`` with the parentheses Python needs (left-associative operators; comparisons
    never chain)."""
    ea, eb = p.expr(a), p.expr(b)
    left = ea.doc if ea.prec > prec or (ea.prec == prec and prec != P_CMP) else _paren(ea.doc)
    right = eb.doc if eb.prec > prec else _paren(eb.doc)
    return E(concat(left, f" {sym} ", right), prec)


def _paren(d: Doc) -> Doc:
    return concat("(", d, ")")


#: the operators that are ``op._binary(type(node), a, b)``: with operands of one dtype they give
#: back ``type(node)(a, b)`` exactly when nothing folds (a folded result never has the node's
#: own operands), so the answer needs no new node
_PLAIN_BINARY = frozenset({O.add, O.subtract, O.multiply, O.floordiv, O.floormod, O.equal,
                           O.not_equal, O.less, O.less_equal, O.greater, O.greater_equal})


def _rebuilds(fn: Callable[..., Any], node: Any) -> bool:
    """Whether the parser's operator on the printed operands gives back this node's type
    (TVM prints ``T.Add(1, 2)`` when ``1 + 2`` would fold)."""
    if fn in _PLAIN_BINARY and node.a.dtype == node.b.dtype:
        try:
            return try_const_fold(type(node), node.a, node.b) is None
        except (TypeError, ValueError, ZeroDivisionError):
            return False
    try:
        out = fn(node.a, node.b)
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    return type(out) is type(node) and out.a is node.a and out.b is node.b


def _ceildiv_operand(node: X.FloorDiv) -> Any:
    """``a`` when ``node`` is what ``T.ceildiv(a, b)`` builds, ``floordiv(a + b - 1, b)`` as
    TVM's C++ ``ceildiv`` builds it (rebuilt to check), else None."""
    x = node.a.a if isinstance(node.a, (X.Add, X.Sub)) else None
    if isinstance(node.a, X.Sub) and isinstance(x, X.Add):
        x = x.a
    if x is None:
        return None
    try:
        again = O.floordiv(O.subtract(O.add(x, node.b), 1), node.b)
    except (TypeError, ValueError):
        return None
    return x if expr_deep_equal(again, node) else None


@register(*_BIN)
def _binary(p: Printer, node: Any) -> E:
    sym, prec, fn, name = _BIN[type(node)]
    if p.cfg.written is not None and type(node) in _WRITTEN_CALLS and \
            called_as(p, node, _WRITTEN_CALLS[type(node)]):  # the user's T.floordiv (tirfmt)
        return tcall(p, _WRITTEN_CALLS[type(node)], [node.a, node.b])
    if p.cfg.written is not None and type(node) is X.FloorDiv and called_as(p, node, "ceildiv"):
        x = _ceildiv_operand(node)
        if x is not None:  # the user's T.ceildiv(n, 4), parsed as (n + 3) // 4 (tirfmt)
            return tcall(p, "ceildiv", [x, node.b])
    if p.cfg.syntax_sugar and _rebuilds(fn, node):
        return binop(p, sym, prec, node.a, node.b)
    return tcall(p, name, [node.a, node.b])


@register(X.Div)
def _div(p: Printer, node: X.Div) -> E:
    if node.dtype.is_floating() and p.cfg.syntax_sugar and _rebuilds(O.true_divide, node):
        return binop(p, "/", P_MUL, node.a, node.b)
    return tcall(p, "Div", [node.a, node.b])


@register(X.Mod)
def _mod(p: Printer, node: X.Mod) -> E:
    return tcall(p, "truncmod", [node.a, node.b])


@register(X.Min)
def _min(p: Printer, node: X.Min) -> E:
    return tcall(p, "min", [node.a, node.b])


@register(X.Max)
def _max(p: Printer, node: X.Max) -> E:
    return tcall(p, "max", [node.a, node.b])


@register(X.Not)
def _not(p: Printer, node: X.Not) -> E:
    ea = p.expr(node.a)
    return E(concat("not ", ea.doc if ea.prec >= P_NOT else _paren(ea.doc)), P_NOT)


@register(X.Cast)
def _cast(p: Printer, node: X.Cast) -> E:
    if p.cfg.written is not None and called_as(p, node, "cast"):  # the user's T.cast (tirfmt)
        if dtype_keyword(p, node) is not None:  # T.cast(x, dtype="int32")
            return call(p, p.T("cast"), [p.expr(node.value).doc],
                        [("dtype", dtype_lit(node.dtype))])
        return call(p, p.T("cast"), [p.expr(node.value).doc, dtype_lit(node.dtype)])
    if p.cfg.written is not None and called_as(p, node, str(node.dtype)):
        return call(p, p.T(str(node.dtype)), [p.expr(node.value).doc])  # the user's T.float32(x)
    return call(p, p.T("Cast"), [dtype_lit(node.dtype), p.expr(node.value).doc])


@register(X.Select)
def _select(p: Printer, node: X.Select) -> E:
    return tcall(p, "Select", [node.condition, node.true_value, node.false_value])


@register(X.Ramp)
def _ramp(p: Printer, node: X.Ramp) -> E:
    name = "ramp" if p.cfg.written is not None and called_as(p, node, "ramp") else "Ramp"
    return tcall(p, name, [node.base, node.stride, node.lanes])  # (tirfmt: the user's T.ramp)


@register(X.Broadcast)
def _broadcast(p: Printer, node: X.Broadcast) -> E:  # (tirfmt: the user's T.broadcast)
    name = "broadcast" if p.cfg.written is not None and called_as(p, node, "broadcast") \
        else "Broadcast"
    return tcall(p, name, [node.value, node.lanes])


@register(X.Shuffle)
def _shuffle(p: Printer, node: X.Shuffle) -> E:
    return tcall(p, "Shuffle", [list(node.vectors), list(node.indices)])


@register(X.Let)
def _let(p: Printer, node: X.Let) -> E:
    where = E(concat("{", p.expr(node.var).doc, ": ", p.expr(node.value).doc, "}"))
    return call(p, p.T("Let"), [p.expr(node.body).doc], [("where", where.doc)])


# ---------------------------------------------------------------------------------- calls
@register(X.Call)
def _call(p: Printer, node: X.Call) -> E:
    op = node.op
    args = [p.expr(a).doc for a in node.args]
    if isinstance(op, GlobalVar):
        return call(p, p.expr(op).doc, args)
    if op.name == "tir.tvm_access_ptr" and p.cfg.written is not None:
        method = _access_ptr_written(p, node)
        if method is not None:  # the user's A.access_ptr("r") (tirfmt)
            return method
    sugar = _BITWISE.get(op.name)
    if sugar is not None and p.cfg.written is not None and called_as(p, node, sugar[2]):
        sugar = None  # the user's T.shift_left(a, b) (tirfmt), not a << b
    if sugar is not None and p.cfg.syntax_sugar and _call_rebuilds(node, sugar[2]):
        if len(node.args) == 1:
            ea = p.expr(node.args[0])
            return E(concat("~", ea.doc if ea.prec >= P_UNARY else _paren(ea.doc)), P_UNARY)
        return binop(p, sugar[0], sugar[1], node.args[0], node.args[1])
    if sugar is not None and _call_folds(node, sugar[2]):
        # T.shift_left(1, 2) would fold while parsing (as in TVM): spell the call itself
        return call(p, p.T("call_intrin"), [dtype_lit(node.dtype), str_lit(op.name), *args])
    name = op.attrs.get("TScriptPrinterName") or op.name
    if p.tirx:
        name = TIRX_OP_NAMES.get(name, name)
    loc = op.attrs.get("TScriptDtypePrintLocation")
    keyword = dtype_keyword(p, node, loc in ("first", "last")) \
        if p.cfg.written is not None else None
    if keyword is not None:  # the user's T.call_extern("f", x, dtype="float32") (tirfmt)
        return call(p, p.T(name), args, [("dtype", str_lit(keyword))])
    if loc in ("first", "last"):
        # TVM 0.27 spells a handle dtype argument as the type of a handle var
        dt = concat(p.T("handle"), "().ty") if p.tirx and node.dtype.is_handle() \
            else dtype_lit(node.dtype)
        args.insert(0 if loc == "first" else len(args), dt)
    return call(p, p.T(name), args)


def _access_ptr_written(p: Printer, node: X.Call) -> E | None:
    """``A.access_ptr("r", extent=128)`` where the call was written so (literal arguments)
    and ``A`` (whose data the call points into, printed as ``A.data``) builds it again."""
    spelled = method_written(p, node, "access_ptr")
    buf = p.data_owner.get(id(node.args[1])) if len(node.args) == 5 else None
    if spelled is None or buf is None:
        return None
    args, kwargs = spelled
    try:
        again = buf.access_ptr(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    if not expr_deep_equal(again, node):
        return None
    return call(p, concat(p.expr(buf).doc, ".access_ptr"), [p.expr(a).doc for a in args],
                [(k, p.expr(v).doc) for k, v in kwargs.items()])


#: ops TVM 0.27 spells in a namespace of the tirx ``T`` (``T.ptx_legacy.ldmatrix``)
TIRX_OP_NAMES = {"ptx_ldmatrix": "ptx_legacy.ldmatrix", "ptx_mma": "ptx_legacy.mma"}


_BITWISE: dict[str, tuple[str, int, str]] = {
    "tir.shift_left": ("<<", P_SHIFT, "shift_left"), "tir.shift_right": (">>", P_SHIFT, "shift_right"),
    "tir.bitwise_and": ("&", P_BAND, "bitwise_and"), "tir.bitwise_or": ("|", P_BOR, "bitwise_or"),
    "tir.bitwise_xor": ("^", P_BXOR, "bitwise_xor"), "tir.bitwise_not": ("~", P_UNARY, "bitwise_not"),
}


#: the ops TVM 0.27 made expression nodes (``BitwiseAnd``, ``LShift``...): not Calls there, so a
#: statement of one prints as ``T.evaluate(...)`` in tirx
TIRX_NODE_OPS = frozenset(_BITWISE)


def _call_rebuilds(node: X.Call, fn_name: str) -> bool:
    fn = getattr(O, fn_name, None)
    if fn is None:
        return False
    try:
        out = fn(*node.args)
    except (TypeError, ValueError):
        return False
    return isinstance(out, X.Call) and out.op is node.op and out.dtype == node.dtype and all(
        x is y for x, y in zip(out.args, node.args))


def _call_folds(node: X.Call, fn_name: str) -> bool:
    """Whether the op function folds this call's operands away (constants TVM folds)."""
    try:
        out = getattr(O, fn_name)(*node.args)
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    return not isinstance(out, X.Call)


@register(GlobalVar)
def _global_var(p: Printer, gv: GlobalVar) -> E:
    doc = p.gvar_docs.get(id(gv))
    return E(doc if doc is not None else Text(gv.name_hint))


@register(Op)
def _op(p: Printer, op: Op) -> E:
    return call(p, p.T("Op"), [str_lit(op.name)])


@register(X.Reduce)
def _reduce(p: Printer, node: X.Reduce) -> E:
    kwargs = [("combiner", node.combiner), ("source", list(node.source)),
              ("axis", list(node.axis)), ("condition", node.condition),
              ("value_index", node.value_index)]
    if node.init:
        kwargs.append(("init", list(node.init)))
    return tcall(p, "reduce", [], kwargs)


@register(X.CommReducer)
def _comm_reducer(p: Printer, node: X.CommReducer) -> E:
    with p.frame(None) as f:  # the lambda defines its vars (TVM: With<TIRFrame> + DefineVar)
        params = join(", ", [p.define(v, f, v.name_hint) for v in (*node.lhs, *node.rhs)])
        result = [p.expr(r).doc for r in node.result]
    body = result[0] if len(result) == 1 else concat("(", join(", ", result), ")")
    lam = concat("lambda ", params, ": ", body)
    return call(p, p.T("comm_reducer"), [lam, p.expr(list(node.identity_element)).doc])


@register(X.IterVar)
def _iter_var(p: Printer, iv: X.IterVar) -> E:
    return tcall(p, "iter_var", [iv.var, iv.dom, iv.iter_type.name, iv.thread_tag])


@register(Range)
def _range(p: Printer, r: Range) -> E:
    ns = p.T if p.cfg.written is not None and called_as(p, r, "Range") else p.I  # (tirfmt)
    return call(p, ns("Range"), [p.expr(r.min).doc, p.expr(O.add(r.min, r.extent)).doc])


@register(PrimType, PointerType, TupleType)
def _type(p: Printer, t: Any) -> E:
    return type_doc(p, t)


__all__ = ["str_lit", "float_lit", "dtype_lit", "call", "tcall", "binop", "var_creation",
           "type_doc", "P_ATOM", "P_BOR", "P_BXOR", "P_BAND", "P_SHIFT", "P_OR"]
del tir
