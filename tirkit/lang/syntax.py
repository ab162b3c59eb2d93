"""Syntax tree of TVMScript source, with spans (mirrors TVM's ``tvm.script.parser.core.doc``).

TVM parses TVMScript with Python's :mod:`ast` and converts the result into its own ``doc`` AST,
whose classes copy ``ast``'s names and fields.  tirkit builds the same tree directly from the
Lark grammar (``tvmscript.lark``) without Python's parser: the classes below keep ``ast``'s
names and field names (``FunctionDef.args``, ``Call.keywords``, ``Subscript.slice``, ...), so a
reader who knows either ``ast`` or TVM's ``doc`` is at home.  Differences from ``ast``:

- nodes are frozen, slotted dataclasses; sequences are tuples;
- every node carries ``span`` (a :class:`~tirkit.ir.span.Span` in FILE coordinates: 1-based
  lines, 0-based character columns, byte offsets), including operator nodes (the span of the
  operator token, e.g. ``not in``), :class:`arguments`, :class:`keyword`, :class:`withitem` and
  :class:`comprehension`;
- no ``ctx`` (Load/Store) fields; ``FunctionDef``/``ClassDef`` add ``name_span``;
- an f-string is one opaque :class:`JoinedStr` holding its source text;
- adjacent string literals are one :class:`Constant` (as in ``ast``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Iterator, Optional

from ..ir.fast_init import fast_init
from ..ir.span import Span

_NODE = {"frozen": True, "slots": True}


@dataclass(**_NODE)
class Node:
    """Base of every syntax-tree node (TVM: ``tvm.script.parser.core.doc.AST``).

    ``span`` is keyword-only so that positional construction follows ``ast``'s field order.
    """

    span: Span = field(kw_only=True, compare=False, repr=False)


class StmtNode(Node):
    """Base of statements (TVM: ``doc.stmt``; Python: ``ast.stmt``)."""

    __slots__ = ()


class ExprNode(Node):
    """Base of expressions (TVM: ``doc.expr``; Python: ``ast.expr``)."""

    __slots__ = ()


class OperatorNode(Node):
    """Base of binary operators (TVM: ``doc.operator``); the span is the operator token."""

    __slots__ = ()


class UnaryOpNode(Node):
    """Base of unary operators (TVM: ``doc.unaryop``); the span is the operator token."""

    __slots__ = ()


class BoolOpNode(Node):
    """Base of ``and``/``or`` (TVM: ``doc.boolop``); the span is the first operator token."""

    __slots__ = ()


class CmpOpNode(Node):
    """Base of comparison operators (TVM: ``doc.cmpop``); the span covers e.g. ``not in``."""

    __slots__ = ()


Stmts = tuple[StmtNode, ...]
Exprs = tuple[ExprNode, ...]


# --------------------------------------------------------------------------- module, statements

@dataclass(**_NODE)
class Module(Node):
    """A sequence of statements: one TVMScript unit or a whole file (TVM: ``doc.Module``)."""

    body: Stmts


@dataclass(**_NODE)
class arg(Node):  # pylint: disable=invalid-name
    """One parameter, optionally annotated (TVM: ``doc.arg``)."""

    arg: str
    annotation: Optional[ExprNode] = None


@dataclass(**_NODE)
class arguments(Node):  # pylint: disable=invalid-name
    """Parameters of a def or lambda (TVM: ``doc.arguments``; no positional-only ones).

    ``defaults`` align with the last ``len(defaults)`` of ``args``; ``kw_defaults`` align with
    ``kwonlyargs`` (``None`` where a keyword-only parameter has no default).
    """

    posonlyargs: tuple[arg, ...]
    args: tuple[arg, ...]
    vararg: Optional[arg]
    kwonlyargs: tuple[arg, ...]
    kw_defaults: tuple[Optional[ExprNode], ...]
    kwarg: Optional[arg]
    defaults: Exprs


@dataclass(**_NODE)
class FunctionDef(StmtNode):
    """``def`` with decorators (TVM: ``doc.FunctionDef``); ``span`` starts at ``def``."""

    name: str
    args: arguments
    body: Stmts
    decorator_list: Exprs
    returns: Optional[ExprNode]
    name_span: Span = field(kw_only=True, compare=False, repr=False)


@dataclass(**_NODE)
class ClassDef(StmtNode):
    """``class`` with decorators, e.g. an ``@I.ir_module`` class (TVM: ``doc.ClassDef``)."""

    name: str
    bases: Exprs
    keywords: tuple["keyword", ...]
    body: Stmts
    decorator_list: Exprs
    name_span: Span = field(kw_only=True, compare=False, repr=False)


@dataclass(**_NODE)
class Return(StmtNode):
    """``return [value]`` (TVM: ``doc.Return``)."""

    value: Optional[ExprNode]


@dataclass(**_NODE)
class Delete(StmtNode):
    """``del a, b`` (TVM: ``doc.Delete``)."""

    targets: Exprs


@dataclass(**_NODE)
class Assign(StmtNode):
    """``a = b = value``; ``targets`` holds every target (TVM: ``doc.Assign``)."""

    targets: Exprs
    value: ExprNode


@dataclass(**_NODE)
class AugAssign(StmtNode):
    """``target op= value`` (TVM: ``doc.AugAssign``)."""

    target: ExprNode
    op: OperatorNode
    value: ExprNode


@dataclass(**_NODE)
class AnnAssign(StmtNode):
    """``target: annotation [= value]``; ``simple`` is 1 for a bare name
    (TVM: ``doc.AnnAssign``)."""

    target: ExprNode
    annotation: ExprNode
    value: Optional[ExprNode]
    simple: int


@dataclass(**_NODE)
class For(StmtNode):
    """``for target in iter: body [else: orelse]`` (TVM: ``doc.For``)."""

    target: ExprNode
    iter: ExprNode
    body: Stmts
    orelse: Stmts


@dataclass(**_NODE)
class While(StmtNode):
    """``while test: body [else: orelse]`` (TVM: ``doc.While``)."""

    test: ExprNode
    body: Stmts
    orelse: Stmts


@dataclass(**_NODE)
class Try(StmtNode):
    """``try``/``except``/``else``/``finally`` (Python's ``ast.Try``); not TVMScript, parsed so it
    can be reported precisely."""

    body: Stmts
    handlers: tuple["ExceptHandler", ...]
    orelse: Stmts
    finalbody: Stmts


@dataclass(**_NODE)
class ExceptHandler(Node):
    """``except [type [as name]]: body`` (Python's ``ast.ExceptHandler``)."""

    type: Optional[ExprNode]
    name: Optional[str]
    body: Stmts


@dataclass(**_NODE)
class Raise(StmtNode):
    """``raise [exc [from cause]]`` (Python's ``ast.Raise``); not TVMScript."""

    exc: Optional[ExprNode]
    cause: Optional[ExprNode]


@dataclass(**_NODE)
class If(StmtNode):
    """``if``; an ``elif`` is an :class:`If` alone in ``orelse`` (TVM: ``doc.If``)."""

    test: ExprNode
    body: Stmts
    orelse: Stmts


@dataclass(**_NODE)
class withitem(Node):  # pylint: disable=invalid-name
    """One ``context_expr [as optional_vars]`` of a ``with`` (TVM: ``doc.withitem``)."""

    context_expr: ExprNode
    optional_vars: Optional[ExprNode] = None


@dataclass(**_NODE)
class With(StmtNode):
    """``with item, ...: body`` (TVM: ``doc.With``)."""

    items: tuple[withitem, ...]
    body: Stmts


@dataclass(**_NODE)
class Assert(StmtNode):
    """``assert test[, msg]`` (TVM: ``doc.Assert``)."""

    test: ExprNode
    msg: Optional[ExprNode] = None


@dataclass(**_NODE)
class alias(Node):  # pylint: disable=invalid-name
    """``name [as asname]`` in an import (Python's ``ast.alias``; TVM's doc has no imports)."""

    name: str
    asname: Optional[str] = None


@dataclass(**_NODE)
class Import(StmtNode):
    """``import a.b as c`` (Python's ``ast.Import``; TVM's doc AST has no counterpart)."""

    names: tuple[alias, ...]


@dataclass(**_NODE)
class ImportFrom(StmtNode):
    """``from module import names`` (Python's ``ast.ImportFrom``; no TVM doc counterpart)."""

    module: Optional[str]
    names: tuple[alias, ...]
    level: int


@dataclass(**_NODE)
class Global(StmtNode):
    """``global a, b`` (Python's ``ast.Global``; TVM: ``doc.Global``)."""

    names: tuple[str, ...]


@dataclass(**_NODE)
class Nonlocal(StmtNode):
    """``nonlocal a, b`` (Python's ``ast.Nonlocal``; TVM: ``doc.Nonlocal``)."""

    names: tuple[str, ...]


@dataclass(**_NODE)
class Expr(StmtNode):
    """An expression used as a statement, e.g. ``T.evaluate(0)`` (TVM: ``doc.Expr``)."""

    value: ExprNode


@dataclass(**_NODE)
class Pass(StmtNode):
    """``pass`` (TVM: ``doc.Pass``)."""


@dataclass(**_NODE)
class Break(StmtNode):
    """``break`` (TVM: ``doc.Break``)."""


@dataclass(**_NODE)
class Continue(StmtNode):
    """``continue`` (TVM: ``doc.Continue``)."""


# --------------------------------------------------------------------------- expressions

@dataclass(**_NODE)
class BoolOp(ExprNode):
    """``a and b and c`` / ``a or b``, flattened as in ``ast`` (TVM: ``doc.BoolOp``)."""

    op: BoolOpNode
    values: Exprs


@dataclass(**_NODE)
class NamedExpr(ExprNode):
    """``target := value`` (TVM: ``doc.NamedExpr``)."""

    target: ExprNode
    value: ExprNode


@dataclass(**_NODE)
class BinOp(ExprNode):
    """``left op right`` (TVM: ``doc.BinOp``)."""

    left: ExprNode
    op: OperatorNode
    right: ExprNode


@dataclass(**_NODE)
class UnaryOp(ExprNode):
    """``op operand`` for ``not - + ~`` (TVM: ``doc.UnaryOp``)."""

    op: UnaryOpNode
    operand: ExprNode


@dataclass(**_NODE)
class Lambda(ExprNode):
    """``lambda args: body``, e.g. in ``T.comm_reducer`` (TVM: ``doc.Lambda``)."""

    args: arguments
    body: ExprNode


@dataclass(**_NODE)
class IfExp(ExprNode):
    """``body if test else orelse`` (TVM: ``doc.IfExp``)."""

    test: ExprNode
    body: ExprNode
    orelse: ExprNode


@dataclass(**_NODE)
class Dict(ExprNode):
    """``{k: v, **m}``; a ``None`` key marks ``**`` unpacking (TVM: ``doc.Dict``)."""

    keys: tuple[Optional[ExprNode], ...]
    values: Exprs


@dataclass(**_NODE)
class Set(ExprNode):
    """``{a, b}`` (TVM: ``doc.Set``)."""

    elts: Exprs


@dataclass(**_NODE)
class comprehension(Node):  # pylint: disable=invalid-name
    """One ``for target in iter if cond ...`` clause (TVM: ``doc.comprehension``)."""

    target: ExprNode
    iter: ExprNode
    ifs: Exprs
    is_async: int = 0


@dataclass(**_NODE)
class ListComp(ExprNode):
    """``[elt for ...]`` (TVM: ``doc.ListComp``)."""

    elt: ExprNode
    generators: tuple[comprehension, ...]


@dataclass(**_NODE)
class SetComp(ExprNode):
    """``{elt for ...}`` (TVM: ``doc.SetComp``)."""

    elt: ExprNode
    generators: tuple[comprehension, ...]


@dataclass(**_NODE)
class DictComp(ExprNode):
    """``{key: value for ...}`` (TVM: ``doc.DictComp``)."""

    key: ExprNode
    value: ExprNode
    generators: tuple[comprehension, ...]


@dataclass(**_NODE)
class GeneratorExp(ExprNode):
    """``(elt for ...)`` (TVM: ``doc.GeneratorExp``)."""

    elt: ExprNode
    generators: tuple[comprehension, ...]


@dataclass(**_NODE)
class Compare(ExprNode):
    """``left op1 c1 op2 c2 ...``: a chained comparison (TVM: ``doc.Compare``)."""

    left: ExprNode
    ops: tuple[CmpOpNode, ...]
    comparators: Exprs


@dataclass(**_NODE)
class keyword(Node):  # pylint: disable=invalid-name
    """``arg=value`` in a call; ``arg`` is ``None`` for ``**value`` (TVM: ``doc.keyword``)."""

    arg: Optional[str]
    value: ExprNode


@dataclass(**_NODE)
class Call(ExprNode):
    """``func(*args, **keywords)`` (TVM: ``doc.Call``); ``*x`` is a :class:`Starred` in args."""

    func: ExprNode
    args: Exprs
    keywords: tuple[keyword, ...]


@dataclass(**_NODE)
class Constant(ExprNode):
    """A literal: number, string, bytes, ``None``, ``True``, ``False``, ``...``
    (TVM: ``doc.Constant``).  ``kind`` is ``"u"`` for ``u"..."`` strings, as in ``ast``."""

    value: object
    kind: Optional[str] = None


@dataclass(**_NODE)
class JoinedStr(ExprNode):
    """An f-string, kept opaque: ``source`` is its literal text, prefixes and quotes included
    (TVM: ``doc.JoinedStr``, whose ``values`` tirkit does not split)."""

    source: str


@dataclass(**_NODE)
class Attribute(ExprNode):
    """``value.attr`` (TVM: ``doc.Attribute``); ``attr_span`` is the span of ``attr``."""

    value: ExprNode
    attr: str
    attr_span: Span = field(kw_only=True, compare=False, repr=False)


@dataclass(**_NODE)
class Subscript(ExprNode):
    """``value[slice]``; several indices form a :class:`Tuple` (TVM: ``doc.Subscript``)."""

    value: ExprNode
    slice: ExprNode


@dataclass(**_NODE)
class Starred(ExprNode):
    """``*value`` (TVM: ``doc.Starred``)."""

    value: ExprNode


@dataclass(**_NODE)
class Name(ExprNode):
    """An identifier (TVM: ``doc.Name``)."""

    id: str


@dataclass(**_NODE)
class List(ExprNode):
    """``[a, b]`` (TVM: ``doc.List``)."""

    elts: Exprs


@dataclass(**_NODE)
class Tuple(ExprNode):
    """``(a, b)`` or ``a, b`` (TVM: ``doc.Tuple``); the span includes parentheses if any."""

    elts: Exprs


@dataclass(**_NODE)
class Slice(ExprNode):
    """``lower:upper:step`` inside a subscript (TVM: ``doc.Slice``)."""

    lower: Optional[ExprNode] = None
    upper: Optional[ExprNode] = None
    step: Optional[ExprNode] = None


# --------------------------------------------------------------------------- operators
# Python's ast has one class per operator; so does TVM's doc AST.  Here each instance also
# carries the span of its operator token.

def _op(base: type, name: str, symbol: str) -> type:
    doc = (f"The ``{symbol}`` operator (TVM: ``doc.{name}``; Python: ``ast.{name}``). "
           "The span is the operator token.")
    cls = type(name, (base,), {"__doc__": doc, "__module__": __name__,
                               "symbol": symbol})
    return dataclass(frozen=True, slots=True)(cls)


Add = _op(OperatorNode, "Add", "+")
Sub = _op(OperatorNode, "Sub", "-")
Mult = _op(OperatorNode, "Mult", "*")
MatMult = _op(OperatorNode, "MatMult", "@")
Div = _op(OperatorNode, "Div", "/")
FloorDiv = _op(OperatorNode, "FloorDiv", "//")
Mod = _op(OperatorNode, "Mod", "%")
Pow = _op(OperatorNode, "Pow", "**")
LShift = _op(OperatorNode, "LShift", "<<")
RShift = _op(OperatorNode, "RShift", ">>")
BitOr = _op(OperatorNode, "BitOr", "|")
BitXor = _op(OperatorNode, "BitXor", "^")
BitAnd = _op(OperatorNode, "BitAnd", "&")
And = _op(BoolOpNode, "And", "and")
Or = _op(BoolOpNode, "Or", "or")
Not = _op(UnaryOpNode, "Not", "not")
Invert = _op(UnaryOpNode, "Invert", "~")
UAdd = _op(UnaryOpNode, "UAdd", "+")
USub = _op(UnaryOpNode, "USub", "-")
Eq = _op(CmpOpNode, "Eq", "==")
NotEq = _op(CmpOpNode, "NotEq", "!=")
Lt = _op(CmpOpNode, "Lt", "<")
LtE = _op(CmpOpNode, "LtE", "<=")
Gt = _op(CmpOpNode, "Gt", ">")
GtE = _op(CmpOpNode, "GtE", ">=")
Is = _op(CmpOpNode, "Is", "is")
IsNot = _op(CmpOpNode, "IsNot", "is not")
In = _op(CmpOpNode, "In", "in")
NotIn = _op(CmpOpNode, "NotIn", "not in")

#: Operator class by source spelling, per syntactic position.
BINARY_OPERATORS: dict[str, type] = {getattr(c, "symbol"): c for c in (
    Add, Sub, Mult, MatMult, Div, FloorDiv, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd)}
UNARY_OPERATORS: dict[str, type] = {getattr(c, "symbol"): c for c in (Not, Invert, UAdd, USub)}
COMPARISON_OPERATORS: dict[str, type] = {getattr(c, "symbol"): c for c in (
    Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn)}


# --------------------------------------------------------------------------- traversal

def _use_fast_inits() -> None:
    """Every node class stores its fields through its slots (:func:`~tirkit.ir.fast_init.fast_init`):
    the tree builder makes a node per grammar reduction."""
    for value in list(globals().values()):
        if isinstance(value, type) and issubclass(value, Node) and "__init__" in value.__dict__:
            init = fast_init(value)
            if init is not None:
                value.__init__ = init  # type: ignore[method-assign]


_use_fast_inits()

_FIELDS_CACHE: dict[type, tuple[str, ...]] = {}


def node_fields(cls: type) -> tuple[str, ...]:
    """The ``ast``-style field names of a node class, ``span``-like fields excluded
    (Python: ``cls._fields``; TVM: ``doc.AST._FIELDS``)."""
    names = _FIELDS_CACHE.get(cls)
    if names is None:
        names = tuple(f.name for f in fields(cls) if not f.name.endswith("span"))
        _FIELDS_CACHE[cls] = names
    return names


def iter_fields(node: Node) -> Iterator[tuple[str, object]]:
    """``(name, value)`` for each field of ``node`` (Python: ``ast.iter_fields``)."""
    for name in node_fields(type(node)):
        yield name, getattr(node, name)


def iter_child_nodes(node: Node) -> Iterator[Node]:
    """The direct child nodes of ``node``, in field order (Python: ``ast.iter_child_nodes``)."""
    for _, value in iter_fields(node):
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    yield item


def walk(node: Node) -> Iterator[Node]:
    """Every node under ``node`` (itself included), breadth first (Python: ``ast.walk``)."""
    todo = [node]
    while todo:
        current = todo.pop(0)
        todo.extend(iter_child_nodes(current))
        yield current
