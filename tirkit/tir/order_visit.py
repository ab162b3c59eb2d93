"""The walk behind :func:`~tirkit.tir.stmt_functor.post_order_visit` and ``pre_order_visit``: the
same nodes in the same order as a :class:`~tirkit.tir.stmt_functor.StmtExprVisitor` whose
``visit_stmt``/``visit_expr`` call back once per distinct node (TVM's ``IRApplyVisit``), read
straight from the children tables instead of through method dispatch (the walks run for every
pass, the printer and the analyses, so their per-node cost matters).
"""
from __future__ import annotations

from typing import Any, Callable

from ..ir.expr import PrimExpr
from .functor import Children, method_name


def _range_exprs(r: Any, out: list) -> None:
    if r is not None:
        out.append(r.min)
        out.append(r.extent)


def _kid_expr(v: Any, out: list) -> None:
    if isinstance(v, PrimExpr):
        out.append(v)


def _kid_exprs(vs: Any, out: list) -> None:
    for v in vs:
        if isinstance(v, PrimExpr):
            out.append(v)


def _kid_stmt(v: Any, out: list) -> None:
    if v is not None:
        out.append(v)


def _kid_stmts(vs: Any, out: list) -> None:
    for v in vs:
        if v is not None:
            out.append(v)


def _kid_ranges(rs: Any, out: list) -> None:
    for r in rs:
        _range_exprs(r, out)


def _kid_iter_vars(ivs: Any, out: list) -> None:
    for iv in ivs:
        _range_exprs(iv.dom, out)


def _kid_regions(brs: Any, out: list) -> None:
    for br in brs:
        for r in br.region:
            _range_exprs(r, out)


def _kid_match_buffers(ms: Any, out: list) -> None:
    _kid_regions([m.source for m in ms], out)


#: child kind -> how its nodes are collected (the walking rules of ``functor.VISIT_KIND``)
_COLLECT: dict[str, Callable[[Any, list], None]] = {
    "expr": _kid_expr, "exprs": _kid_exprs, "stmt": _kid_stmt, "stmts": _kid_stmts,
    "ranges": _kid_ranges, "iter_vars": _kid_iter_vars, "regions": _kid_regions,
    "match_buffers": _kid_match_buffers,
}


#: per kind, the straight-line code collecting the nodes of child field ``{f}`` into ``out``
#: (what the ``_kid_*`` functions above do); other kinds call them
_CODE = {
    "expr": "    v = node.{f}\n    if isinstance(v, PrimExpr):\n        out.append(v)\n",
    "stmt": "    v = node.{f}\n    if v is not None:\n        out.append(v)\n",
    "exprs": "    for v in node.{f}:\n        if isinstance(v, PrimExpr):\n            out.append(v)\n",
    "stmts": "    for v in node.{f}:\n        if v is not None:\n            out.append(v)\n",
}


def _kids_function(children: Children) -> Callable[[Any], list]:
    """``kids(node)`` for a class with ``children``, as straight-line code (one block per field,
    no per-field table lookups or calls for the expression and statement kinds)."""
    lines = ["def kids(node):\n    out = []\n"]
    for name, kind in children:
        code = _CODE.get(kind, "    _COLLECT[{k!r}](node.{f}, out)\n")
        lines.append(code.format(f=name, k=kind))
    lines.append("    return out\n")
    scope: dict[str, Any] = {"PrimExpr": PrimExpr, "_COLLECT": _COLLECT}
    exec("".join(lines), scope)  # pylint: disable=exec-used
    return scope["kids"]


class OrderWalk:
    """Pre- or post-order walks over the node classes of ``table`` (class -> children): TVM's
    ``IRApplyVisit`` behind ``tvm.tir.stmt_functor.post_order_visit`` / ``pre_order_visit``."""

    def __init__(self, table: dict[type, Children]) -> None:
        self.table = table
        #: node class -> its ``kids`` function (made on first use)
        self.plans: dict[type, Callable[[Any], list]] = {}
        #: the classes without children (vars, constants: half the nodes of most trees),
        #: visited in line by the walks instead of through a call that would find no kids
        self.leaves: frozenset[type] = frozenset(cls for cls, kids in table.items() if not kids)

    def _plan(self, cls: type) -> Callable[[Any], list]:
        plan = self.plans.get(cls)
        if plan is None:
            children = next((self.table[k] for k in cls.__mro__ if k in self.table), None)
            if children is None:
                raise TypeError(f"_OrderVisitor: no visit method for {cls.__name__} "
                                f"(define {method_name(cls)})")
            plan = self.plans[cls] = _kids_function(children)
        return plan

    def kids(self, node: Any) -> list:
        """The Stmt/PrimExpr children of ``node`` in visiting order."""
        fn = self.plans.get(type(node))
        if fn is None:
            fn = self._plan(type(node))
        return fn(node)

    def post(self, root: Any, fvisit: Callable[[Any], Any]) -> None:
        """Call ``fvisit`` on each distinct node under ``root``, children first. A loop over a
        stack of child iterators, not a recursion: IR built by program nests thousands deep
        (an Add chain of 20,000 terms), and ``fvisit`` runs once per node (no retry)."""
        seen: set[int] = {id(root)}
        plans, plan, leaves = self.plans, self._plan, self.leaves
        stack = [(root, iter((plans.get(type(root)) or plan(type(root)))(root)))]
        while stack:
            node, kids = stack[-1]
            for k in kids:
                if id(k) not in seen:
                    seen.add(id(k))
                    if type(k) in leaves:
                        fvisit(k)
                    else:
                        stack.append((k, iter((plans.get(type(k)) or plan(type(k)))(k))))
                        break
            else:
                stack.pop()
                fvisit(node)

    def pre(self, root: Any, fvisit: Callable[[Any], Any]) -> None:
        """Call ``fvisit`` on each distinct node under ``root``, parents first; a ``False``
        answer skips the node's children (a loop, as :meth:`post`)."""
        seen: set[int] = {id(root)}
        plans, plan, leaves = self.plans, self._plan, self.leaves
        if fvisit(root) is False:
            return
        stack = [iter((plans.get(type(root)) or plan(type(root)))(root))]
        while stack:
            for k in stack[-1]:
                if id(k) not in seen:
                    seen.add(id(k))
                    if type(k) in leaves:
                        fvisit(k)
                    elif fvisit(k) is not False:
                        stack.append(iter((plans.get(type(k)) or plan(type(k)))(k)))
                        break
            else:
                stack.pop()
