"""Dispatch machinery and expression visitors/mutators (mirrors ``tvm/tir/expr_functor.h`` and
Python's ``tvm.tir.functor``/``tvm.tir.expr_functor``).

How dispatch works: ``visit_expr(e)`` / ``visit_stmt(s)`` look up a per-node method named after
the node class in snake case with a trailing underscore, TVM's Python spelling
(``Add`` -> ``visit_add_``, ``FloorDiv`` -> ``visit_floor_div_``, ``BufferLoad`` ->
``visit_buffer_load_``, ``EQ`` -> ``visit_eq_``). The node class's MRO is walked once per
(visitor class, node class) pair and the result is cached, so a subclass of a known node falls back
to its base's method.

Which children a default method visits is data: :data:`EXPR_CHILDREN` (and, for statements,
``STMT_CHILDREN`` in :mod:`.stmt_functor`) map a node class to ``(field, kind)`` pairs in TVM's
visiting order. Each default per-node method is built from these tables by :func:`default_visit`
/ :func:`default_mutate` and listed explicitly in its class body (so that static tools see it);
:func:`check_defaults` keeps the lists and the tables in step. Kinds:

- ``expr`` / ``exprs``: a PrimExpr (``None`` skipped) / a tuple of them (non-PrimExpr entries,
  such as non-expression Call args, are left alone);
- ``stmt`` / ``stmts``: a Stmt (``None`` skipped) / a tuple of them;
- ``ranges``: Ranges (``min`` then ``extent``); ``iter_vars``: IterVars' ``dom`` ranges;
- ``regions``: BufferRegions' ranges; ``match_buffers``: MatchBufferRegions' source ranges.

As in TVM, visitors never descend into ``Buffer`` objects (their shape, strides and elem_offset),
nor into definition points (loop vars, let vars, iter vars themselves), a ``Reduce``'s combiner,
an ``AttrStmt``'s ``node`` or a ``For``'s ``thread_binding``. One deliberate difference: the
optional ``predicate`` of ``BufferLoad``/``BufferStore`` is visited when present.

Mutators are copy-on-write: a node whose children all come back identical (``is``) is returned
itself; otherwise it is rebuilt with ``with_changes`` (keeping ``span`` and fields that are not
children, e.g. a BufferLoad's buffer), which re-derives dtypes.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from ..ir.expr import FloatImm, IntImm, PrimExpr, Range
from ..ir.node import Node
from . import expr as E

Children = tuple[tuple[str, str], ...]

_BINARY = (E.Add, E.Sub, E.Mul, E.Div, E.Mod, E.FloorDiv, E.FloorMod, E.Min, E.Max, E.EQ, E.NE,
           E.LT, E.LE, E.GT, E.GE, E.And, E.Or)

#: Expression node class -> ``(field, kind)`` children, in TVM's ``ExprVisitor`` order.
EXPR_CHILDREN: dict[type, Children] = {
    E.Var: (), E.SizeVar: (), IntImm: (), FloatImm: (), E.StringImm: (),
    **{cls: (("a", "expr"), ("b", "expr")) for cls in _BINARY},
    E.Cast: (("value", "expr"),),
    E.Not: (("a", "expr"),),
    E.Select: (("condition", "expr"), ("true_value", "expr"), ("false_value", "expr")),
    E.BufferLoad: (("indices", "exprs"), ("predicate", "expr")),
    E.ProducerLoad: (("indices", "exprs"),),
    E.Ramp: (("base", "expr"), ("stride", "expr")),
    E.Broadcast: (("value", "expr"),),
    E.Shuffle: (("indices", "exprs"), ("vectors", "exprs")),
    E.Let: (("value", "expr"), ("body", "expr")),
    E.Call: (("args", "exprs"),),
    E.Reduce: (("axis", "iter_vars"), ("source", "exprs"), ("init", "exprs"),
               ("condition", "expr")),
}


def method_name(cls: type) -> str:
    """The visit method name for a node class: ``visit_<snake_case>_`` (TVM's Python names)."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", cls.__name__.lstrip("_")).lower()
    return f"visit_{snake}_"


# ------------------------------------------------------------------------------- walking kinds
def _visit_range(f: Any, r: Range | None) -> None:
    if r is not None:
        f.visit_expr(r.min)
        f.visit_expr(r.extent)


def _visit_regions(f: Any, regions: Any) -> None:
    for br in regions:
        for r in br.region:
            _visit_range(f, r)


def _visit_expr(f: Any, v: Any) -> None:
    if isinstance(v, PrimExpr):
        f.visit_expr(v)


def _visit_stmt(f: Any, v: Any) -> None:
    if v is not None:
        f.visit_stmt(v)


def _each(visit_one: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    def run(f: Any, values: Any) -> None:
        for v in values:
            visit_one(f, v)
    return run


#: kind -> how a visitor walks a field value of that kind.
VISIT_KIND: dict[str, Callable[[Any, Any], None]] = {
    "expr": _visit_expr,
    "exprs": _each(_visit_expr),
    "stmt": _visit_stmt,
    "stmts": _each(_visit_stmt),
    "ranges": _each(_visit_range),
    "iter_vars": _each(lambda f, iv: _visit_range(f, iv.dom)),
    "regions": _visit_regions,
    "match_buffers": lambda f, ms: _visit_regions(f, [m.source for m in ms]),
}


def map_tuple(values: tuple, fn: Callable[[Any], Any]) -> tuple:
    """``tuple(map(fn, values))``, or ``values`` itself when every item came back identical
    (TVM's ``Array::Map`` copy-on-write)."""
    out = [fn(v) for v in values]
    if all(a is b for a, b in zip(out, values)):
        return values
    return tuple(out)


def mutate_range(f: Any, r: Range | None) -> Range | None:
    """Mutate a Range's ``min``/``extent`` with ``f.visit_expr``; same object when unchanged
    (the range handling inside TVM's ``StmtMutator::VisitStmt_``)."""
    if r is None:
        return None
    lo, ext = f.visit_expr(r.min), f.visit_expr(r.extent)
    if lo is r.min and ext is r.extent:
        return r
    return r.with_changes(min=lo, extent=ext)


def _mutate_iter_var(f: Any, iv: E.IterVar) -> E.IterVar:
    dom = mutate_range(f, iv.dom)
    return iv if dom is iv.dom else iv.with_changes(dom=dom)


def mutate_region(f: Any, br: Any) -> Any:
    """Mutate a BufferRegion's ranges; same object when unchanged (as TVM's ``StmtMutator``
    does for block reads/writes)."""
    region = map_tuple(br.region, lambda r: mutate_range(f, r))
    return br if region is br.region else br.with_changes(region=region)


def _mutate_match(f: Any, m: Any) -> Any:
    source = mutate_region(f, m.source)
    return m if source is m.source else m.with_changes(source=source)


def _mutate_expr_item(f: Any, v: Any) -> Any:
    return f.visit_expr(v) if isinstance(v, PrimExpr) else v


#: kind -> how a mutator maps a field value of that kind (identity when nothing changed).
MUTATE_KIND: dict[str, Callable[[Any, Any], Any]] = {
    "expr": lambda f, v: None if v is None else f.visit_expr(v),
    "exprs": lambda f, vs: map_tuple(vs, lambda v: _mutate_expr_item(f, v)),
    "stmt": lambda f, v: None if v is None else f.visit_stmt(v),
    "stmts": lambda f, vs: map_tuple(vs, f.visit_stmt),
    "ranges": lambda f, rs: map_tuple(rs, lambda r: mutate_range(f, r)),
    "iter_vars": lambda f, ivs: map_tuple(ivs, lambda iv: _mutate_iter_var(f, iv)),
    "regions": lambda f, rs: map_tuple(rs, lambda br: mutate_region(f, br)),
    "match_buffers": lambda f, ms: map_tuple(ms, lambda m: _mutate_match(f, m)),
}


def visit_children(f: Any, op: Node, children: Children) -> None:
    """Visit the children of ``op`` listed in ``children`` with visitor ``f`` (the body of a
    default TVM ``VisitExpr_``/``VisitStmt_``)."""
    for name, kind in children:
        VISIT_KIND[kind](f, getattr(op, name))


def mutate_children(f: Any, op: Node, children: Children) -> Any:
    """Mutate the children of ``op`` with mutator ``f``; rebuild ``op`` only if one changed
    (TVM's copy-on-write ``CopyOnWrite`` pattern in ``StmtExprMutator``)."""
    changes = {}
    for name, kind in children:
        old = getattr(op, name)
        new = MUTATE_KIND[kind](f, old)
        if new is not old:
            changes[name] = new
    return op.with_changes(**changes) if changes else op


# ------------------------------------------------------------------------------------ dispatch
class Functor:
    """Base of all visitors and mutators: cached dispatch on the node class.

    Mirrors the vtable of TVM's ``NodeFunctor``: for a node of class ``C``, the method named
    :func:`method_name` of the first class in ``C.__mro__`` that this functor defines is called.
    """

    _vtable: dict[type, Callable[[Any, Any], Any]] = {}
    #: the childless expression classes (vars, constants) this functor's default methods do
    #: not visit (see :func:`leaf_skips`)
    _skip: frozenset[type] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._vtable = {}
        cls._skip = leaf_skips(cls)

    @classmethod
    def _resolve(cls, node_type: type) -> Callable[[Any, Any], Any]:
        fn = cls._vtable.get(node_type)
        if fn is None:
            for k in node_type.__mro__:
                fn = getattr(cls, method_name(k), None)
                if fn is not None:
                    break
            else:
                raise TypeError(f"{cls.__name__}: no visit method for {node_type.__name__} "
                                f"(define {method_name(node_type)})")
            cls._vtable[node_type] = fn
        return fn

    def _dispatch(self, node: Any) -> Any:
        fn = self._vtable.get(type(node))  # the class's table (hot path: one dict lookup)
        if fn is None:
            fn = type(self)._resolve(type(node))
        return fn(self, node)


#: the childless expression classes a functor may skip (exactly these: a SizeVar is visited as
#: a Var by a method of its own)
_LEAF_TYPES = (E.Var, IntImm, FloatImm, E.StringImm)
#: every expression class a functor has a method for (a SizeVar's defaults to the Var's)
_EXPR_TYPES = (*EXPR_CHILDREN, E.SizeVar)
#: a functor's ``visit_expr`` that dispatches -> the class whose leaf methods are the default
#: ones; one that visits no expression -> None (registered by :func:`register_leaf_defaults`)
_DISPATCHERS: dict[Any, type | None] = {}


def register_leaf_defaults(cls: type, dispatches: bool) -> None:
    """Make ``cls.visit_expr`` known to :func:`leaf_skips`: a dispatcher whose leaf methods on
    ``cls`` are the defaults (``dispatches``), or one that visits no expression; then refresh
    ``_skip`` of every functor class made so far. No TVM counterpart."""
    _DISPATCHERS[cls.__dict__["visit_expr"]] = cls if dispatches else None
    stack = [Functor]
    while stack:
        k = stack.pop()
        k._skip = leaf_skips(k)  # pylint: disable=protected-access
        stack.extend(k.__subclasses__())


def leaf_skips(cls: type) -> frozenset[type]:
    """The expression classes whose visit by ``cls`` is the default one for the node and all
    its descendants: nothing for a visitor, the node itself for a mutator. The default methods
    of the parents do not call ``visit_expr`` for them. These are the leaf classes (vars,
    constants: a call and a dispatch per leaf, about half the nodes of a tree) whose method
    ``cls`` does not override, or every expression class when it overrides none (a statement
    mutator such as LoopUnroller then never walks an expression). Empty when ``cls`` overrides
    ``visit_expr``. No TVM counterpart."""
    visit = getattr(cls, "visit_expr", None)
    if visit not in _DISPATCHERS:
        return frozenset()
    base = _DISPATCHERS[visit]
    if base is None:
        return frozenset(_LEAF_TYPES)
    custom = {t for t in _EXPR_TYPES
              if getattr(cls, method_name(t), None) is not getattr(base, method_name(t))}
    if not custom:  # no expression method of its own: visiting one does nothing / gives it back
        return frozenset(_EXPR_TYPES)
    return frozenset(t for t in _LEAF_TYPES if t not in custom)


def default_visit(node_cls: type, table: dict[type, Children]) -> Callable[[Any, Any], None]:
    """The default ``visit_<node>_`` of a visitor: visit the children ``table`` lists for
    ``node_cls`` (the body of TVM's default ``ExprVisitor::VisitExpr_`` / ``StmtVisitor::
    VisitStmt_``)."""
    children = table[node_cls]
    return _named(_straight_line(children, "visit"), node_cls, children, "Visit")


def default_mutate(node_cls: type, table: dict[type, Children]) -> Callable[[Any, Any], Any]:
    """The default ``visit_<node>_`` of a mutator: mutate the children, copy-on-write (TVM's
    default ``ExprMutator::VisitExpr_`` / ``StmtMutator::VisitStmt_``)."""
    children = table[node_cls]
    return _named(_straight_line(children, "mutate"), node_cls, children, "Mutate")


#: per kind, the straight-line code of one child field ``{f}`` (value in ``v{i}``): for a visitor,
#: the walk of :data:`VISIT_KIND`; for a mutator, the new value ``n{i}`` as :data:`MUTATE_KIND`
#: computes it. Kinds without an entry call those tables.
_VISIT_CODE = {
    "expr": "    v{i} = op.{f}\n"
            "    if isinstance(v{i}, PrimExpr) and type(v{i}) not in self._skip:\n"
            "        self.visit_expr(v{i})\n",
    "exprs": "    skip = self._skip\n    for v in op.{f}:\n"
             "        if isinstance(v, PrimExpr) and type(v) not in skip:\n"
             "            self.visit_expr(v)\n",
    "stmt": "    v{i} = op.{f}\n    if v{i} is not None:\n        self.visit_stmt(v{i})\n",
    "stmts": "    for v in op.{f}:\n        if v is not None:\n            self.visit_stmt(v)\n",
}
_MUTATE_CODE = {
    "expr": "    v{i} = op.{f}\n"
            "    n{i} = v{i} if v{i} is None or type(v{i}) in self._skip \\\n"
            "        else self.visit_expr(v{i})\n",
    "stmt": "    v{i} = op.{f}\n    n{i} = None if v{i} is None else self.visit_stmt(v{i})\n",
    "exprs": "    v{i} = op.{f}\n    skip = self._skip\n"
             "    n{i} = [v if type(v) in skip else self.visit_expr(v) if isinstance(v, PrimExpr)\n"
             "           else v for v in v{i}]\n"
             "    for a, b in zip(n{i}, v{i}):\n        if a is not b:\n"
             "            n{i} = tuple(n{i})\n            break\n"
             "    else:\n        n{i} = v{i}\n",
}


def _straight_line(children: Children, verb: str) -> Callable[[Any, Any], Any]:
    """The default method for ``children`` as straight-line code, one block per field (what
    :func:`visit_children` / :func:`mutate_children` do, without their per-field table lookups
    and calls: every node of every pass goes through one of these)."""
    lines = ["def method(self, op):\n"]
    for i, (name, kind) in enumerate(children):
        if verb == "visit":
            code = _VISIT_CODE.get(kind, "    VISIT_KIND[{k!r}](self, op.{f})\n")
        else:
            code = _MUTATE_CODE.get(kind, "    v{i} = op.{f}\n    n{i} = MUTATE_KIND[{k!r}](self, v{i})\n")
        lines.append(code.format(i=i, f=name, k=kind))
    if verb == "visit":
        lines.append("    return None\n")
    elif children:
        same = " and ".join(f"n{i} is v{i}" for i in range(len(children)))
        args = ", ".join(f"{name}=n{i}" for i, (name, _) in enumerate(children))
        lines.append(f"    if {same}:\n        return op\n    return op.with_changes({args})\n")
    else:
        lines.append("    return op\n")
    scope: dict[str, Any] = {"PrimExpr": PrimExpr, "VISIT_KIND": VISIT_KIND,
                             "MUTATE_KIND": MUTATE_KIND}
    exec("".join(lines), scope)  # pylint: disable=exec-used
    return scope["method"]


def _named(method: Callable, node_cls: type, children: Children, verb: str) -> Callable:
    fields = ", ".join(f for f, _ in children) or "nothing"
    method.__name__ = method.__qualname__ = method_name(node_cls)
    method.__doc__ = (f"{verb} a ``{node_cls.__name__}``: its {fields} (TVM "
                      f"``VisitExpr_/VisitStmt_(const {node_cls.__name__}Node*)``).")
    return method


def check_defaults(cls: type, table: dict[type, Children]) -> None:
    """Assert that ``cls`` has a ``visit_<node>_`` method for every node class of ``table`` (keeps
    the explicit method lists in step with the tables; no TVM counterpart)."""
    missing = [method_name(c) for c in table if not hasattr(cls, method_name(c))]
    if missing:
        raise AssertionError(f"{cls.__name__} lacks {', '.join(missing)}")


# ------------------------------------------------------------------------ expression functors
class ExprVisitor(Functor):
    """Visit every sub-expression of a PrimExpr (mirrors ``tvm::tir::ExprVisitor`` and
    ``tvm.tir.expr_functor.ExprVisitor``).

    Override ``visit_<node>_`` methods (``visit_add_``, ``visit_var_``, ``visit_buffer_load_``...)
    and call ``super()`` to keep descending. ``visit_size_var_`` defaults to ``visit_var_``.
    """

    def visit_expr(self, expr: PrimExpr) -> Any:
        """Dispatch on the expression's class (``ExprVisitor::VisitExpr``)."""
        fn = self._vtable.get(type(expr))  # _dispatch inlined: one call less per node
        if fn is None:
            fn = type(self)._resolve(type(expr))
        return fn(self, expr)

    def visit_size_var_(self, op: E.SizeVar) -> Any:
        """A SizeVar is visited as a Var (``VisitExpr_(const SizeVarNode*)``)."""
        return self.visit_var_(op)

    visit_var_ = default_visit(E.Var, EXPR_CHILDREN)
    visit_int_imm_ = default_visit(IntImm, EXPR_CHILDREN)
    visit_float_imm_ = default_visit(FloatImm, EXPR_CHILDREN)
    visit_string_imm_ = default_visit(E.StringImm, EXPR_CHILDREN)
    visit_add_ = default_visit(E.Add, EXPR_CHILDREN)
    visit_sub_ = default_visit(E.Sub, EXPR_CHILDREN)
    visit_mul_ = default_visit(E.Mul, EXPR_CHILDREN)
    visit_div_ = default_visit(E.Div, EXPR_CHILDREN)
    visit_mod_ = default_visit(E.Mod, EXPR_CHILDREN)
    visit_floor_div_ = default_visit(E.FloorDiv, EXPR_CHILDREN)
    visit_floor_mod_ = default_visit(E.FloorMod, EXPR_CHILDREN)
    visit_min_ = default_visit(E.Min, EXPR_CHILDREN)
    visit_max_ = default_visit(E.Max, EXPR_CHILDREN)
    visit_eq_ = default_visit(E.EQ, EXPR_CHILDREN)
    visit_ne_ = default_visit(E.NE, EXPR_CHILDREN)
    visit_lt_ = default_visit(E.LT, EXPR_CHILDREN)
    visit_le_ = default_visit(E.LE, EXPR_CHILDREN)
    visit_gt_ = default_visit(E.GT, EXPR_CHILDREN)
    visit_ge_ = default_visit(E.GE, EXPR_CHILDREN)
    visit_and_ = default_visit(E.And, EXPR_CHILDREN)
    visit_or_ = default_visit(E.Or, EXPR_CHILDREN)
    visit_not_ = default_visit(E.Not, EXPR_CHILDREN)
    visit_cast_ = default_visit(E.Cast, EXPR_CHILDREN)
    visit_select_ = default_visit(E.Select, EXPR_CHILDREN)
    visit_buffer_load_ = default_visit(E.BufferLoad, EXPR_CHILDREN)
    visit_producer_load_ = default_visit(E.ProducerLoad, EXPR_CHILDREN)
    visit_ramp_ = default_visit(E.Ramp, EXPR_CHILDREN)
    visit_broadcast_ = default_visit(E.Broadcast, EXPR_CHILDREN)
    visit_shuffle_ = default_visit(E.Shuffle, EXPR_CHILDREN)
    visit_let_ = default_visit(E.Let, EXPR_CHILDREN)
    visit_call_ = default_visit(E.Call, EXPR_CHILDREN)
    visit_reduce_ = default_visit(E.Reduce, EXPR_CHILDREN)


class ExprMutator(Functor):
    """Rebuild a PrimExpr bottom-up, copy-on-write (mirrors ``tvm::tir::ExprMutator`` and
    ``tvm.tir.expr_functor.ExprMutator``).

    Each ``visit_<node>_`` returns the new expression; the default mutates the children and returns
    ``op`` itself when none changed. ``visit_size_var_`` defaults to ``visit_var_``.
    """

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        """Dispatch on the expression's class and return the mutated expression."""
        fn = self._vtable.get(type(expr))  # _dispatch inlined: one call less per node
        if fn is None:
            fn = type(self)._resolve(type(expr))
        return fn(self, expr)

    def visit_size_var_(self, op: E.SizeVar) -> PrimExpr:
        """A SizeVar is mutated as a Var (``VisitExpr_(const SizeVarNode*)``)."""
        return self.visit_var_(op)

    visit_var_ = default_mutate(E.Var, EXPR_CHILDREN)
    visit_int_imm_ = default_mutate(IntImm, EXPR_CHILDREN)
    visit_float_imm_ = default_mutate(FloatImm, EXPR_CHILDREN)
    visit_string_imm_ = default_mutate(E.StringImm, EXPR_CHILDREN)
    visit_add_ = default_mutate(E.Add, EXPR_CHILDREN)
    visit_sub_ = default_mutate(E.Sub, EXPR_CHILDREN)
    visit_mul_ = default_mutate(E.Mul, EXPR_CHILDREN)
    visit_div_ = default_mutate(E.Div, EXPR_CHILDREN)
    visit_mod_ = default_mutate(E.Mod, EXPR_CHILDREN)
    visit_floor_div_ = default_mutate(E.FloorDiv, EXPR_CHILDREN)
    visit_floor_mod_ = default_mutate(E.FloorMod, EXPR_CHILDREN)
    visit_min_ = default_mutate(E.Min, EXPR_CHILDREN)
    visit_max_ = default_mutate(E.Max, EXPR_CHILDREN)
    visit_eq_ = default_mutate(E.EQ, EXPR_CHILDREN)
    visit_ne_ = default_mutate(E.NE, EXPR_CHILDREN)
    visit_lt_ = default_mutate(E.LT, EXPR_CHILDREN)
    visit_le_ = default_mutate(E.LE, EXPR_CHILDREN)
    visit_gt_ = default_mutate(E.GT, EXPR_CHILDREN)
    visit_ge_ = default_mutate(E.GE, EXPR_CHILDREN)
    visit_and_ = default_mutate(E.And, EXPR_CHILDREN)
    visit_or_ = default_mutate(E.Or, EXPR_CHILDREN)
    visit_not_ = default_mutate(E.Not, EXPR_CHILDREN)
    visit_cast_ = default_mutate(E.Cast, EXPR_CHILDREN)
    visit_select_ = default_mutate(E.Select, EXPR_CHILDREN)
    visit_buffer_load_ = default_mutate(E.BufferLoad, EXPR_CHILDREN)
    visit_producer_load_ = default_mutate(E.ProducerLoad, EXPR_CHILDREN)
    visit_ramp_ = default_mutate(E.Ramp, EXPR_CHILDREN)
    visit_broadcast_ = default_mutate(E.Broadcast, EXPR_CHILDREN)
    visit_shuffle_ = default_mutate(E.Shuffle, EXPR_CHILDREN)
    visit_let_ = default_mutate(E.Let, EXPR_CHILDREN)
    visit_call_ = default_mutate(E.Call, EXPR_CHILDREN)
    visit_reduce_ = default_mutate(E.Reduce, EXPR_CHILDREN)


check_defaults(ExprVisitor, EXPR_CHILDREN)
check_defaults(ExprMutator, EXPR_CHILDREN)
register_leaf_defaults(ExprVisitor, True)
register_leaf_defaults(ExprMutator, True)
