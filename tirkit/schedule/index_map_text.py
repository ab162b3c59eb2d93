"""IndexMaps in traces: printed as a Python lambda (TVM's ``IndexMap::ToPythonString``, e.g.
``lambda i, j: (i // 4, j, i % 4,)``) and read back from that text without executing anything.

:func:`index_map_from_lambda` parses the text with :mod:`ast` and evaluates only a lambda over
its parameters built from integer/float constants, ``+ - * // %``, unary minus, comparisons and
the calls ``T.int32(..)``/``T.int64(..)``/``T.float32(..)``, ``T.min``/``T.max``,
``T.floordiv``/``T.floormod``, ``T.truncdiv``/``T.truncmod``, ``T.if_then_else`` — so a trace
loaded from JSON (``tirc --trace``) never runs user code.
"""
from __future__ import annotations

import ast
import operator
from typing import Any, Callable

from ..ir.expr import FloatImm, IntImm, PrimExpr
from ..tir import op as tir_op
from ..tir.op_math import if_then_else
from ..tir.index_map import IndexMap
from .trace import register_value_codec

_MAX_TEXT = 10_000
_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: tir_op.floordiv, ast.Mod: tir_op.floormod,
}
_CMPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: tir_op.less, ast.LtE: tir_op.less_equal, ast.Gt: tir_op.greater,
    ast.GtE: tir_op.greater_equal, ast.Eq: tir_op.equal, ast.NotEq: tir_op.not_equal,
}
_CALLS: dict[str, Callable[..., Any]] = {
    "min": tir_op.min, "max": tir_op.max, "floordiv": tir_op.floordiv,
    "floormod": tir_op.floormod, "truncdiv": tir_op.truncdiv, "truncmod": tir_op.truncmod,
    "if_then_else": lambda c, a, b: if_then_else(c, a, b),
    **{d: (lambda dt: lambda v: tir_op.const(v, dt))(d)
       for d in ("int8", "int16", "int32", "int64", "uint8", "uint32", "float16", "float32",
                 "float64", "bool")},
}


def index_map_to_lambda(imap: IndexMap) -> str:
    """The map as ``lambda i, j: (e0, e1,)`` (TVM's ``IndexMap2PythonLambdaExpr``)."""
    params = ", ".join(v.name_hint for v in imap.initial_indices)
    body = " ".join(f"{_text(e)}," for e in imap.final_indices)
    return f"lambda {params}: ({body})"


def _text(e: PrimExpr) -> str:
    """Constants as plain Python numbers (re-typed by the primitive), the rest as TVMScript."""
    if isinstance(e, (IntImm, FloatImm)) and not e.dtype.is_bool():
        return repr(e.value)
    return e.script()


class _Eval:
    def __init__(self, env: dict[str, Any]) -> None:
        self.env = env

    def __call__(self, node: ast.AST) -> Any:
        fn = getattr(self, f"_{type(node).__name__}", None)
        if fn is None:
            raise ValueError(f"{type(node).__name__} is not allowed in an index map lambda")
        return fn(node)

    def _Constant(self, node: ast.Constant) -> Any:
        if not isinstance(node.value, (int, float, bool)):
            raise ValueError(f"constant {node.value!r} is not allowed in an index map lambda")
        return node.value

    def _Name(self, node: ast.Name) -> Any:
        if node.id not in self.env:
            raise ValueError(f"unknown name {node.id!r} in an index map lambda")
        return self.env[node.id]

    def _BinOp(self, node: ast.BinOp) -> Any:
        fn = _BINOPS.get(type(node.op))
        if fn is None:
            raise ValueError(f"operator {type(node.op).__name__} is not allowed")
        a, b = self(node.left), self(node.right)
        if not isinstance(a, PrimExpr) and not isinstance(b, PrimExpr):
            a = tir_op.convert(a)
        return fn(a, b)

    def _UnaryOp(self, node: ast.UnaryOp) -> Any:
        if not isinstance(node.op, ast.USub):
            raise ValueError(f"operator {type(node.op).__name__} is not allowed")
        return -self(node.operand)

    def _Compare(self, node: ast.Compare) -> Any:
        if len(node.ops) != 1 or type(node.ops[0]) not in _CMPS:
            raise ValueError("only single comparisons are allowed")
        return _CMPS[type(node.ops[0])](self(node.left), self(node.comparators[0]))

    def _Tuple(self, node: ast.Tuple) -> Any:
        return tuple(self(e) for e in node.elts)

    _List = _Tuple

    def _Call(self, node: ast.Call) -> Any:
        f = node.func
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                and f.value.id == "T" and f.attr in _CALLS) or node.keywords:
            raise ValueError(f"call {ast.unparse(f)} is not allowed in an index map lambda")
        return _CALLS[f.attr](*(self(a) for a in node.args))


def index_map_from_lambda(text: str, index_dtype: str = "int32") -> IndexMap:
    """Parse :func:`index_map_to_lambda`'s text back into an IndexMap (vars of
    ``index_dtype``); nothing is executed.

    Raises:
        ValueError: when the text is not such a lambda.
    """
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        raise ValueError("an index map lambda must be a string of at most "
                         f"{_MAX_TEXT} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as err:
        raise ValueError(f"not a Python lambda: {err.msg}") from None
    if not isinstance(tree, ast.Lambda) or tree.args.vararg or tree.args.kwonlyargs:
        raise ValueError("an index map must be written `lambda i, j: (...)`")
    names = [a.arg for a in tree.args.args]

    def fn(*vars_: Any) -> Any:
        return _Eval({**dict(zip(names, vars_)), "T": None})(tree.body)

    fn.__tirkit_params__ = tuple(names)  # type: ignore[attr-defined]
    return IndexMap.from_func(fn, index_dtype=index_dtype)


def _to_json(imap: IndexMap) -> Any:
    dtype = str(imap.initial_indices[0].dtype) if imap.initial_indices else "int32"
    return [index_map_to_lambda(imap), dtype]


def _from_json(data: Any) -> IndexMap:
    text, dtype = data
    return index_map_from_lambda(text, dtype)


register_value_codec(IndexMap, index_map_to_lambda, "index_map", _to_json, _from_json)
