"""Lark callbacks that build the :mod:`tirkit.lang.syntax` tree while the LALR parser runs
(TVM builds its ``doc`` AST from Python's ``ast`` in ``tvm.script.parser.core.doc``).

One method per rule or alias of ``tvmscript.lark``; Lark calls it on reduction with the rule's
children (all tokens kept).  Spans are computed from the first and last child, so every node's
span covers exactly its source text, parentheses of sub-expressions included as in ``ast``.
Per-parse state (span maker, text, diagnostics) lives in :data:`CONTEXT`, set by
:mod:`tirkit.lang.grammar` around each parse.
"""
from __future__ import annotations

import ast as _pyast
import warnings
from dataclasses import dataclass, replace
from typing import Any, Optional

from lark import Token, Transformer

from ..ir.diagnostics import Diagnostic
from ..ir.span import Span
from . import checks
from . import syntax as S
from .lexing import SpanMaker
from .limits import MAX_INT_BITS, LimitExceeded, check_int

# pylint: disable=missing-function-docstring  # one callback per grammar rule, named after it


class ParseContext:
    """Per-parse state shared with the callbacks (no TVM counterpart)."""

    __slots__ = ("spans", "text", "diagnostics", "bare_tuples")

    def __init__(self) -> None:
        self.spans: SpanMaker = None  # type: ignore[assignment]  # set during each parse
        self.text = ""
        self.diagnostics: list[Diagnostic] = []
        self.bare_tuples: set[int] = set()


CONTEXT = ParseContext()


@dataclass(slots=True)
class _Paren:
    """A parenthesised expression: the node keeps its own span, parents use the outer one."""

    node: Any
    span: Span


@dataclass(slots=True)
class _Part:
    """An intermediate result that is not a node (parameter groups, call arguments, ...)."""

    kind: str
    value: Any
    span: Span


_LAYOUT = frozenset(("_NEWLINE", "_INDENT", "_DEDENT", "$END"))


def _edge(x: Any, last: bool) -> int:
    """Unit character offset where ``x`` (token, node, wrapper or list) starts (or ends when
    ``last``); -1 when it has no text."""
    if isinstance(x, Token):
        if x.type in _LAYOUT:
            return -1
        return x.end_pos if last else x.start_pos  # type: ignore[return-value]  # set by lexer
    if isinstance(x, list):
        for item in (reversed(x) if last else x):
            found = _edge(item, last)
            if found >= 0:
                return found
        return -1
    if x is None:
        return -1
    spans = CONTEXT.spans
    return spans.end_of(x.span) if last else spans.start_of(x.span)


def _join(children: list) -> Span:
    """The span from the first to the last child that has one."""
    spans = CONTEXT.spans
    first, last = children[0], children[-1]
    # most rules start and end with a token or a node: no walk over the children
    if type(first) is Token and first.type not in _LAYOUT:
        start = first.start_pos
    elif isinstance(first, (S.Node, _Paren, _Part)):
        start = spans.start_of(first.span)
    else:
        start = _edge(children, False)
    if type(last) is Token and last.type not in _LAYOUT:
        end = last.end_pos
    elif isinstance(last, (S.Node, _Paren, _Part)):
        end = spans.end_of(last.span)
    else:
        end = _edge(children, True)
    return spans.span(start, end)  # type: ignore[arg-type]  # positions set by the lexer


def _val(x: Any) -> Any:
    return x.node if isinstance(x, _Paren) else x


def _values(children: list) -> list:
    """The non-token children, parentheses unwrapped."""
    return [_val(x) for x in children if not isinstance(x, Token)]


def _stmts(items: list) -> list:
    out: list = []
    for item in items:
        if isinstance(item, list):
            out.extend(s for s in item if isinstance(s, S.StmtNode))
        elif isinstance(item, S.StmtNode):
            out.append(item)
    return out


def _empty_arguments(at: Span) -> S.arguments:
    return S.arguments((), (), None, (), (), None, (), span=at)


def _spans() -> SpanMaker:
    spans = CONTEXT.spans
    assert spans is not None, "tree callbacks run inside a parse only"
    return spans


def _after(tok: Token) -> Span:
    return _spans().point(int(tok.end_pos or 0))


class TreeBuilder(Transformer):
    """Builds syntax nodes from grammar reductions (TVM: ``doc.to_doc`` over Python's ``ast``).

    Passed to Lark as its LALR ``transformer``, so no intermediate parse tree is built.
    """

    # ------------------------------------------------------------------ statements

    def file_input(self, c):
        spans = CONTEXT.spans
        return S.Module(tuple(_stmts(c)), span=spans.span(0, len(CONTEXT.text)))

    def simple_stmt(self, c):
        return [x for x in c if isinstance(x, S.StmtNode)]

    def suite(self, c):
        return _stmts(c)

    def expr_stmt(self, c):
        checks.check_value(_val(c[0]), CONTEXT.diagnostics)
        return S.Expr(_val(c[0]), span=_join(c))

    def assign(self, c):
        parts = _values(c)
        for target in parts[:-1]:
            checks.check_target(target, "assign to", CONTEXT.diagnostics)
        checks.check_value(parts[-1], CONTEXT.diagnostics)
        return S.Assign(tuple(parts[:-1]), parts[-1], span=_join(c))

    def annassign(self, c):
        value = _val(c[4]) if len(c) > 4 else None
        simple = int(isinstance(c[0], S.Name))
        checks.check_single_target(_val(c[0]), "annotation", CONTEXT.diagnostics)
        return S.AnnAssign(_val(c[0]), _val(c[2]), value, simple, span=_join(c))

    def augassign(self, c):
        checks.check_single_target(_val(c[0]), "augmented", CONTEXT.diagnostics)
        return S.AugAssign(_val(c[0]), c[1], _val(c[2]), span=_join(c))

    def augassign_op(self, c):
        tok = c[0]
        return S.BINARY_OPERATORS[tok[:-1]](span=CONTEXT.spans.token(tok))

    def pass_stmt(self, c):
        return S.Pass(span=_join(c))

    def break_stmt(self, c):
        return S.Break(span=_join(c))

    def continue_stmt(self, c):
        return S.Continue(span=_join(c))

    def return_stmt(self, c):
        checks.check_value(_val(c[1]) if len(c) > 1 else None, CONTEXT.diagnostics)
        return S.Return(_val(c[1]) if len(c) > 1 else None, span=_join(c))

    def del_stmt(self, c):
        target = _val(c[1])
        targets = (target.elts if isinstance(target, S.Tuple) and id(target) in CONTEXT.bare_tuples
                   else (target,))
        for item in targets:
            checks.check_target(item, "delete", CONTEXT.diagnostics)
        return S.Delete(targets, span=_join(c))

    def assert_stmt(self, c):
        msg = _val(c[3]) if len(c) > 3 else None
        return S.Assert(_val(c[1]), msg, span=_join(c))

    def global_stmt(self, c):
        return S.Global(tuple(str(t) for t in c[1:] if t.type == "NAME"), span=_join(c))

    def nonlocal_stmt(self, c):
        return S.Nonlocal(tuple(str(t) for t in c[1:] if t.type == "NAME"), span=_join(c))

    # ------------------------------------------------------------------ imports

    def import_name(self, c):
        return S.Import(tuple(x for x in c if isinstance(x, S.alias)), span=_join(c))

    def import_from(self, c):
        module, level = c[1].value
        return S.ImportFrom(module, tuple(c[3].value), level, span=_join(c))

    def import_targets(self, c):
        if len(c) == 1 and isinstance(c[0], Token):
            names = [S.alias("*", None, span=CONTEXT.spans.token(c[0]))]
        else:
            names = [x for x in c if isinstance(x, S.alias)]
        return _Part("names", names, _join(c))

    def import_module(self, c):
        level = c[0].value if c[0].kind == "dots" else 0
        module = c[-1].value if c[-1].kind == "dotted" else None
        return _Part("module", (module, level), _join(c))

    def import_dots(self, c):
        return _Part("dots", sum(len(t) for t in c), _join(c))

    def import_as_name(self, c):
        return S.alias(str(c[0]), str(c[2]) if len(c) > 2 else None, span=_join(c))

    def dotted_as_name(self, c):
        return S.alias(c[0].value, str(c[2]) if len(c) > 2 else None, span=_join(c))

    def dotted_name(self, c):
        return _Part("dotted", "".join(c), _join(c))

    # ------------------------------------------------------------------ compound statements

    def if_stmt(self, c):
        has_else = isinstance(c[-3], Token) and c[-3] == "else"
        orelse: list = c[-1] if has_else else []
        clauses = [x for x in c[4:] if isinstance(x, _Part)]
        for clause in reversed(clauses):
            test, body = clause.value
            span = _join([clause, body, orelse])
            orelse = [S.If(test, tuple(body), tuple(orelse), span=span)]
        return S.If(_val(c[1]), tuple(c[3]), tuple(orelse), span=_join(c))

    def elif_clause(self, c):
        return _Part("elif", (_val(c[1]), c[3]), _join(c))

    def try_stmt(self, c):
        parts: dict[str, list] = {"try": [], "else": [], "finally": []}
        handlers, key = [], "try"
        for x in c:
            if isinstance(x, Token) and str(x) in parts:
                key = str(x)
            elif isinstance(x, _Part):
                handlers.append(x.value)
            elif isinstance(x, list):
                parts[key] = x
        return S.Try(tuple(parts["try"]), tuple(handlers), tuple(parts["else"]),
                     tuple(parts["finally"]), span=_join(c))

    def except_clause(self, c):
        values = [_val(x) for x in c if x is not None and not isinstance(x, (Token, list))]
        name = next((str(x) for x in c if isinstance(x, Token) and x.type == "NAME"), None)
        body = next(x for x in c if isinstance(x, list))
        handler = S.ExceptHandler(values[0] if values else None, name, tuple(body),
                                  span=_join(c))
        return _Part("except", handler, _join(c))

    def raise_stmt(self, c):
        values = [_val(x) for x in c if x is not None and not isinstance(x, Token)]
        return S.Raise(values[0] if values else None, values[1] if len(values) > 1 else None,
                       span=_join(c))

    def while_stmt(self, c):
        orelse = c[6] if len(c) > 4 else []
        return S.While(_val(c[1]), tuple(c[3]), tuple(orelse), span=_join(c))

    def for_stmt(self, c):
        orelse = c[8] if len(c) > 6 else []
        # ``for *ax in T.grid(*shape)`` (seed 001's rank polymorphism; Python wants ``*ax,``)
        checks.check_target(_val(c[1]), "assign to", CONTEXT.diagnostics, starred_ok=True)
        checks.check_value(_val(c[3]), CONTEXT.diagnostics)
        return S.For(_val(c[1]), _val(c[3]), tuple(c[5]), tuple(orelse), span=_join(c))

    def with_stmt(self, c):
        items = tuple(x for x in c[1:-2] if isinstance(x, S.withitem))
        return S.With(items, tuple(c[-1]), span=_join(c))

    def with_item(self, c):
        target = _val(c[2]) if len(c) > 2 else None
        if target is not None:
            checks.check_target(target, "assign to", CONTEXT.diagnostics)
        return S.withitem(_val(c[0]), target, span=_join(c))

    def decorated(self, c):
        decorators = tuple(_val(x.value) for x in c[:-1])
        return replace(c[-1], decorator_list=decorators)

    def decorator(self, c):
        return _Part("decorator", c[1], _join(c))

    def funcdef(self, c):
        name = c[1]
        params = c[3] if isinstance(c[3], S.arguments) else _empty_arguments(_after(c[2]))
        arrow = next((i for i, x in enumerate(c) if x == "->" and isinstance(x, Token)), None)
        returns = _val(c[arrow + 1]) if arrow is not None else None
        return S.FunctionDef(str(name), params, tuple(c[-1]), (), returns, span=_join(c),
                             name_span=CONTEXT.spans.token(name))

    def classdef(self, c):
        name = c[1]
        part = next((x for x in c if isinstance(x, _Part)), None)
        bases, keywords = _call_arguments(part, c)
        return S.ClassDef(str(name), bases, keywords, tuple(c[-1]), (), span=_join(c),
                          name_span=CONTEXT.spans.token(name))

    # ------------------------------------------------------------------ parameters

    def parameters(self, c):
        args, defaults = [], []
        vararg = kwarg = None
        kwonly, kw_defaults = [], []
        for part in c:
            if not isinstance(part, _Part):
                continue
            if part.kind == "param":
                args.append(part.value[0])
                if part.value[1] is not None:
                    defaults.append(part.value[1])
            elif part.kind == "star":
                vararg, params, kwarg = part.value
                kwonly = [p[0] for p in params]
                kw_defaults = [p[1] for p in params]
            else:
                kwarg = part.value
        checks.check_defaults([p.value for p in c if isinstance(p, _Part)
                               and p.kind == "param"], CONTEXT.diagnostics)
        return S.arguments((), tuple(args), vararg, tuple(kwonly), tuple(kw_defaults), kwarg,
                           tuple(defaults), span=_join(c))

    def starparams(self, c):
        vararg = c[1] if len(c) > 1 and isinstance(c[1], S.arg) else None
        params = [x.value for x in c if isinstance(x, _Part) and x.kind == "param"]
        kwarg = next((x.value for x in c if isinstance(x, _Part) and x.kind == "kw"), None)
        if vararg is None and not params:
            CONTEXT.diagnostics.append(Diagnostic.error(
                "syntax", CONTEXT.spans.token(c[0]), "named arguments must follow bare *"))
        return _Part("star", (vararg, params, kwarg), _join(c))

    def kwparams(self, c):
        return _Part("kw", c[1], _join(c))

    def paramvalue(self, c):
        default = _val(c[2]) if len(c) > 2 else None
        return _Part("param", (c[0], default), _join(c))

    def typedparam(self, c):
        annotation = _val(c[2]) if len(c) > 2 else None
        return S.arg(str(c[0]), annotation, span=_join(c))

    def lambda_param(self, c):
        return S.arg(str(c[0]), None, span=_join(c))

    lambda_params = parameters
    lambda_starparams = starparams
    lambda_kwparams = kwparams
    lambda_paramvalue = paramvalue

    def lambdef(self, c):
        params = c[1] if isinstance(c[1], S.arguments) else _empty_arguments(_after(c[0]))
        return S.Lambda(params, _val(c[-1]), span=_join(c))

    # ------------------------------------------------------------------ operators

    def named_expr(self, c):
        target = S.Name(str(c[0]), span=CONTEXT.spans.token(c[0]))
        return S.NamedExpr(target, _val(c[2]), span=_join(c))

    def ifexp(self, c):
        return S.IfExp(_val(c[2]), _val(c[0]), _val(c[4]), span=_join(c))

    def or_test(self, c):
        return S.BoolOp(S.Or(span=CONTEXT.spans.token(c[1])), tuple(_values(c)), span=_join(c))

    def and_test(self, c):
        return S.BoolOp(S.And(span=CONTEXT.spans.token(c[1])), tuple(_values(c)), span=_join(c))

    def not_expr(self, c):
        return S.UnaryOp(S.Not(span=CONTEXT.spans.token(c[0])), _val(c[1]), span=_join(c))

    def comparison(self, c):
        return S.Compare(_val(c[0]), tuple(c[1::2]), tuple(_val(x) for x in c[2::2]),
                         span=_join(c))

    def comp_op(self, c):
        return S.COMPARISON_OPERATORS[" ".join(c)](span=_join(c))

    def _binary_chain(self, c):
        left = c[0]
        for i in range(1, len(c), 2):
            op = S.BINARY_OPERATORS[c[i]](span=CONTEXT.spans.token(c[i]))
            node = S.BinOp(_val(left), op, _val(c[i + 1]), span=_join([left, c[i + 1]]))
            left = node
        return left

    expr = xor_expr = and_expr = shift_expr = arith_expr = term = power = _binary_chain

    def factor(self, c):
        op = S.UNARY_OPERATORS[c[0]](span=CONTEXT.spans.token(c[0]))
        return S.UnaryOp(op, _val(c[1]), span=_join(c))

    # ------------------------------------------------------------------ trailers

    def call(self, c):
        part = c[2] if isinstance(c[2], _Part) else None
        args, keywords = _call_arguments(part, c)
        return S.Call(_val(c[0]), args, keywords, span=_join(c))

    def arguments(self, c):
        args, keywords = [], []
        for item in c:
            if isinstance(item, Token):
                continue
            item = _val(item)
            (keywords if isinstance(item, S.keyword) else args).append(item)
        checks.check_call_arguments((_val(x) for x in c if not isinstance(x, Token)),
                                    CONTEXT.diagnostics)
        return _Part("args", (tuple(args), tuple(keywords)), _join(c))

    def genexp_arg(self, c):
        return _Part("genexp", (_val(c[0]), tuple(c[1:])), _join(c))

    def kwarg(self, c):
        return S.keyword(str(c[0]), _val(c[2]), span=_join(c))

    def stararg(self, c):
        return S.Starred(_val(c[1]), span=_join(c))

    def kwstararg(self, c):
        return S.keyword(None, _val(c[1]), span=_join(c))

    def subscript(self, c):
        index = _val(c[2])
        if isinstance(index, S.Starred):            # A[*idx] indexes with a 1-tuple
            index = S.Tuple((index,), span=index.span)
        return S.Subscript(_val(c[0]), index, span=_join(c))

    def subscript_tuple(self, c):
        return S.Tuple(tuple(_values(c)), span=_join(c))

    def slice(self, c):
        parts: list = [None, None, None]
        slot = 0
        for item in c:
            if isinstance(item, Token) and item == ":":
                slot += 1
            else:
                parts[slot] = _val(item)
        return S.Slice(*parts, span=_join(c))

    def attribute(self, c):
        return S.Attribute(_val(c[0]), str(c[2]), span=_join(c),
                           attr_span=CONTEXT.spans.token(c[2]))

    # ------------------------------------------------------------------ displays

    def paren(self, c):
        return _Paren(_val(c[1]), _join(c))

    def tuple(self, c):
        elts = c[1] if len(c) == 3 else []
        return S.Tuple(tuple(elts), span=_join(c))

    def tuple_bare(self, c):
        node = S.Tuple(tuple(_values(c)), span=_join(c))
        CONTEXT.bare_tuples.add(id(node))
        return node

    def tuple_items(self, c):
        return _values(c)

    list_items = tuple_items

    def list(self, c):
        elts = c[1] if len(c) == 3 else []
        return S.List(tuple(elts), span=_join(c))

    def set(self, c):
        return S.Set(tuple(c[1]), span=_join(c))

    def dict(self, c):
        items = c[1] if len(c) == 3 else []
        keys = tuple(part.value[0] for part in items)
        values = tuple(part.value[1] for part in items)
        return S.Dict(keys, values, span=_join(c))

    def dict_items(self, c):
        return [x for x in c if isinstance(x, _Part)]

    def key_value(self, c):
        return _Part("item", (_val(c[0]), _val(c[2])), _join(c))

    def dict_unpack(self, c):
        return _Part("item", (None, _val(c[1])), _join(c))

    def star_expr(self, c):
        return S.Starred(_val(c[1]), span=_join(c))

    def comp_for(self, c):
        ifs = tuple(_val(x.value) for x in c[4:])
        checks.check_target(_val(c[1]), "assign to", CONTEXT.diagnostics)
        return S.comprehension(_val(c[1]), _val(c[3]), ifs, 0, span=_join(c))

    def comp_if(self, c):
        return _Part("if", c[1], _join(c))

    def genexp(self, c):
        return S.GeneratorExp(_val(c[1]), tuple(c[2:-1]), span=_join(c))

    def listcomp(self, c):
        return S.ListComp(_val(c[1]), tuple(c[2:-1]), span=_join(c))

    def setcomp(self, c):
        return S.SetComp(_val(c[1]), tuple(c[2:-1]), span=_join(c))

    def dictcomp(self, c):
        return S.DictComp(_val(c[1]), _val(c[3]), tuple(c[4:-1]), span=_join(c))

    # ------------------------------------------------------------------ atoms

    def name(self, c):
        tok = c[0]
        return S.Name(tok.value, span=CONTEXT.spans.span(tok.start_pos, tok.end_pos))

    def number(self, c):
        span = CONTEXT.spans.token(c[0])
        try:
            value = number_value(c[0])
        except (ValueError, OverflowError, LimitExceeded) as err:
            CONTEXT.diagnostics.append(Diagnostic.error("limit", span, str(err)))
            value = 0  # the unit has an error: no IR is built from it
        return S.Constant(value, None, span=span)

    def strings(self, c):
        return string_node(c)

    def ellipsis(self, c):
        return S.Constant(..., span=_join(c))

    def const_none(self, c):
        return S.Constant(None, span=_join(c))

    def const_true(self, c):
        return S.Constant(True, span=_join(c))

    def const_false(self, c):
        return S.Constant(False, span=_join(c))


def _call_arguments(part: Optional[_Part], c: list) -> tuple[tuple, tuple]:
    """Positional and keyword arguments of a call or class header; a lone generator argument
    spans the parentheses of the call, as in ``ast``."""
    if part is None:
        return (), ()
    if part.kind == "args":
        return part.value
    elt, generators = part.value
    opening = next(i for i, x in enumerate(c) if isinstance(x, Token) and x == "(")
    span = _join(c[opening:opening + 3])
    return (S.GeneratorExp(elt, generators, span=span),), ()


_MAX_LITERAL_DIGITS = MAX_INT_BITS + 8  # a binary literal of MAX_INT_BITS bits, its prefix...


def number_value(tok: str) -> object:
    """The value of a number token of any Python spelling (``0x1F``, ``1_000``, ``1e-3``,
    ``2j``); Python's ``ast.Constant.value`` for the same literal.

    Raises:
        LimitExceeded: an integer over ``MAX_INT_BITS`` bits.
    """
    if len(tok) > _MAX_LITERAL_DIGITS and sum(ch.isalnum() for ch in tok) > _MAX_LITERAL_DIGITS:
        raise LimitExceeded(f"number literal of {len(tok)} characters; tirkit reads integers of "
                            f"at most {MAX_INT_BITS} bits")
    if tok.isdigit():
        return check_int(int(tok))
    last = tok[-1]
    if last in "jJ":
        return complex(0, float(tok[:-1]))
    if tok[:2].lower() in ("0x", "0o", "0b") or ("." not in tok and "e" not in tok.lower()):
        return check_int(int(tok, 0))
    return float(tok)


def _quote_start(tok: str) -> int:
    index = 0
    while tok[index] not in "'\"":
        index += 1
    return index


def _literal(tok: Token) -> tuple[object, str]:
    """``(value, prefix)`` of one string token; the value is ``None`` for an f-string."""
    start = _quote_start(tok)
    prefix = tok[:start].lower()
    if "f" in prefix:
        _check_fstring(tok)
        return None, prefix
    if not prefix and "\\" not in tok:
        quote = 3 if tok.startswith(('"""', "'''")) else 1
        return tok[quote:-quote], prefix
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _pyast.literal_eval(tok), prefix
        except (SyntaxError, ValueError) as err:
            CONTEXT.diagnostics.append(Diagnostic.error(
                "syntax", _spans().token(tok), f"invalid string literal: {err.msg}"
                if isinstance(err, SyntaxError) else f"invalid string literal: {err}"))
            return "", prefix


def _check_fstring(tok: Token) -> None:
    """f-strings stay opaque, but their syntax is checked (with Python's parser, which
    evaluates nothing)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            _pyast.parse(str(tok), mode="eval")
        except SyntaxError as err:
            CONTEXT.diagnostics.append(Diagnostic.error(
                "syntax", _spans().token(tok), f"invalid f-string: {err.msg}"))


def string_node(tokens: list) -> S.ExprNode:
    """One :class:`Constant` (or :class:`JoinedStr`) for adjacent string tokens."""
    span = _join(tokens)
    literals = [_literal(tok) for tok in tokens]
    if any(value is None for value, _ in literals):
        return S.JoinedStr(CONTEXT.text[tokens[0].start_pos:tokens[-1].end_pos], span=span)
    values = [value for value, _ in literals]
    chunks = [v for v in values if isinstance(v, bytes)]
    texts = [v for v in values if isinstance(v, str)]
    if chunks and texts:
        CONTEXT.diagnostics.append(Diagnostic.error(
            "syntax", span, "cannot mix bytes and nonbytes literals"))
    value: object = "".join(texts) if texts else b"".join(chunks)
    kind = "u" if tokens[0][0] == "u" else None
    return S.Constant(value, kind, span=span)
