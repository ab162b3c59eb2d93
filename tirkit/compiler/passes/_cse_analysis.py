"""The analysis half of ``CommonSubexprElimTIR`` (:mod:`.common_subexpr_elim`): eligibility,
complexity, structural keys, the computations a statement does (its :class:`Table`), their
free vars and nesting, each memoised per node while one pass runs; :func:`clear_memos` empties
the memos when the pass is done (TVM v0.20 ``src/tir/transforms/common_subexpr_elim_tools.cc``).
"""
from __future__ import annotations

from itertools import islice
from typing import Any, Iterator, Sequence

from tirkit.ir.expr import FloatImm, IntImm, PrimExpr
from tirkit.tir import expr as E
from tirkit.tir import stmt as S
from tirkit.tir.analysis import undefined_vars
from tirkit.tir.functor import EXPR_CHILDREN
from tirkit.tir.stmt_functor import STMT_CHILDREN, post_order_visit
from tirkit.arith.keys import shallow_key

_NOT_ELIGIBLE = (IntImm, FloatImm, E.StringImm, E.Var, E.Ramp, E.Broadcast, E.Call,
                 E.BufferLoad, E.ProducerLoad)

#: per-node memos (id -> value) of keys, complexities, sizes and eligibility. Every node given an
#: entry is kept in _ALIVE, so that an id is never reused while the entry lives (a lookup is
#: then one dict get, with no identity check). Nodes are immutable, so a value never goes
#: stale; the pass clears the memos when it is done (TVM caches nothing, but its keys are C++
#: hashes, not Python tuples rebuilt on every comparison).
_ALIVE: list[Any] = []
_COMPLEXITY: dict[int, int] = {}
#: the Table of each statement (shared: callers never mutate one they did not make) and the
#: free vars of each computation; a statement left as it was by its parent's eliminations is the
#: same object when the pass recurses into it, so a nest is walked once instead of once per level
_DONE: dict[int, "Table"] = {}
_FREE: dict[int, frozenset] = {}
_MISS = object()


_INTERNED: dict[Any, int] = {}
_IDS: dict[int, int] = {}


def _key(e: PrimExpr) -> int:
    """A small int standing for ``expr_key(e)``: equal for two expressions exactly when they
    are structurally equal, interned from :func:`~tirkit.arith.keys.shallow_key` (the node's
    fields with its children's ints), so that each node is keyed in constant time."""
    value = _IDS.get(id(e))
    if value is None:
        value = _INTERNED.setdefault(shallow_key(e, _key), len(_INTERNED))
        _IDS[id(e)] = value
        _ALIVE.append(e)
    return value


def _memo(table: dict[int, Any], e: Any, compute: Any) -> Any:
    value = table.get(id(e), _MISS)
    if value is _MISS:
        value = table[id(e)] = compute(e)
        _ALIVE.append(e)
    return value


def is_eligible(e: PrimExpr) -> bool:
    """Whether ``e`` may be bound to a variable (TVM's ``IsEligibleComputation``)."""
    if isinstance(e, _NOT_ELIGIBLE):
        return False
    info = _INFO.get(id(e))
    return (info or _info(e))[1]


#: expression class -> its child fields when all are PrimExprs (the walkers below go straight
#: through these instead of a visitor; a class outside it takes the visitor path)
_KIDS = {cls: tuple(name for name, _ in kids) for cls, kids in EXPR_CHILDREN.items()
         if all(kind in ("expr", "exprs") for _, kind in kids)}
_LOADS = (E.Call, E.BufferLoad, E.ProducerLoad)
#: the two-operand classes whose default mutation _ReplaceAll inlines (a class visitors treat
#: as ``(a, b)`` children, rebuilt from them: see tirkit/tir/functor.py)
_BINARY = frozenset(cls for cls, kids in EXPR_CHILDREN.items()
                    if kids == (("a", "expr"), ("b", "expr")))
#: the classes without children (vars, constants)
_LEAVES = frozenset(cls for cls, kids in EXPR_CHILDREN.items() if not kids)
#: id -> (tree size, free of loads and calls) of each expression (see _info)
_INFO: dict[int, tuple[int, bool]] = {}
_DIRECT: dict[int, tuple] = {}


_KID_LISTS: dict[int, list | None] = {}


def _kids(e: Any) -> Sequence[Any] | None:
    """The PrimExpr children of ``e`` in visiting order, or None for a class outside _KIDS
    (memoized: the complexity count walks each new expression again; do not change it)."""
    cls = type(e)
    if cls in _BINARY:  # the most common classes, answered without the memo
        return (e.a, e.b)
    if cls in _LEAVES:
        return ()
    out = _KID_LISTS.get(id(e), _MISS)
    if out is not _MISS:
        return out  # type: ignore[return-value]
    out = _KID_LISTS[id(e)] = _kid_list(e)
    _ALIVE.append(e)
    return out


def _kid_list(e: Any) -> list | None:
    fields = _KIDS.get(type(e))
    if fields is None:
        return None
    out: list = []
    for name in fields:
        v = getattr(e, name)
        if isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, PrimExpr))
        elif isinstance(v, PrimExpr):
            out.append(v)
    return out


def _info(e: PrimExpr) -> tuple[int, bool]:
    """``(size, no_load)`` of ``e``, memoized. ``size``: nodes of ``e`` counted as a tree (a shared
    node once per use): deep-equal expressions have equal sizes and a sub-expression is never
    larger, so :class:`_Replace` skips any expression smaller than its target. ``no_load``:
    ``e`` holds no load or call."""
    info = _INFO.get(id(e))
    if info is not None:
        return info
    kids = _kids(e)
    if kids is None:  # never skipped
        info = (1 << 62, not isinstance(e, _LOADS) and _visit_no_load_or_call(e))
    else:
        size, no_load = 1, not isinstance(e, _LOADS)
        for k in kids:
            k_info = _INFO.get(id(k)) or _info(k)
            size += k_info[0]
            no_load = no_load and k_info[1]
        info = (size, no_load)
    _INFO[id(e)] = info
    _ALIVE.append(e)
    return info


def _tree_size(e: PrimExpr) -> int:
    """The size of :func:`_info`."""
    info = _INFO.get(id(e))
    return (info or _info(e))[0]


def _visit_no_load_or_call(e: PrimExpr) -> bool:
    found = [False]

    def visit(n: Any) -> None:
        if isinstance(n, (E.Call, E.BufferLoad, E.ProducerLoad)):
            found[0] = True
    post_order_visit(e, visit)
    return not found[0]


def complexity(e: PrimExpr) -> int:
    """The number of expression nodes in ``e`` (TVM's ``CalculateExprComplexity``)."""
    value = _COMPLEXITY.get(id(e))
    if value is None:
        value = _COMPLEXITY[id(e)] = _count_nodes(e)
        _ALIVE.append(e)
    return value


def _count_nodes(e: PrimExpr) -> int:
    """Distinct node objects under ``e`` (what ``post_order_visit`` calls back on)."""
    seen: set[int] = set()
    stack = [e]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        kids = _kids(n)
        if kids is None:
            return _visit_count_nodes(e)
        stack.extend(kids)
    return len(seen)


def _visit_count_nodes(e: PrimExpr) -> int:
    count = [0]
    post_order_visit(e, lambda n: count.__setitem__(0, count[0] + 1))
    return count[0]


def direct_subexprs(e: PrimExpr) -> tuple[PrimExpr, ...]:
    """The eligible computations directly under ``e`` (TVM's ``DirectSubexpr``): children,
    looking through ineligible ones (memoized while the pass runs)."""
    value = _DIRECT.get(id(e))
    if value is None:
        value = _DIRECT[id(e)] = _direct_subexprs(e)
        _ALIVE.append(e)
    return value


def _direct_subexprs(e: PrimExpr) -> tuple[PrimExpr, ...]:
    out: list[PrimExpr] = []
    for name, kind in EXPR_CHILDREN.get(type(e), ()):
        vals = getattr(e, name)
        for v in (vals if kind == "exprs" else (vals,)):
            if isinstance(v, PrimExpr):
                out.extend([v] if is_eligible(v) else computations_in(v))
    return tuple(out)


def computations_in(e: PrimExpr) -> tuple[PrimExpr, ...]:
    """The maximal eligible computations inside ``e``, in visiting order (TVM's
    ``ComputationsDoneBy`` on an expression)."""
    if is_eligible(e):
        return (e,)
    if isinstance(e, E.Let):
        return computations_in(e.value)
    return direct_subexprs(e)


class Table:
    """Computations with their counts, in order of first appearance (TVM's
    ``ComputationTable``), compared by deep equality."""

    def __init__(self) -> None:
        self.items: dict[Any, list] = {}

    def add(self, e: PrimExpr, count: int = 1) -> None:
        """Count ``e`` ``count`` more times."""
        key = _key(e)
        if key in self.items:
            self.items[key][1] += count
        else:
            self.items[key] = [e, count]

    def union(self, other: "Table") -> None:
        """Add every count of ``other``."""
        items = self.items
        for key, (e, c) in other.items.items():  # (its keys are _key(e))
            entry = items.get(key)
            if entry is None:
                items[key] = [e, c]
            else:
                entry[1] += c

    def intersect(self, other: "Table") -> "Table":
        """Computations in both, counts summed (TVM's ``IntersectComputationTables``)."""
        out = Table()
        for key, (e, c) in self.items.items():
            if key in other.items:
                out.add(e, c + other.items[key][1])
        return out


def computations_done_by(stmt: S.Stmt | None) -> Table:
    """The computations a statement does (TVM's ``ComputationsDoneBy::GetComputationsDoneBy``);
    an ``if`` contributes its condition and what both branches do. The result is shared
    (memoized per node while the pass runs): read it, do not change it."""
    if stmt is None:
        return Table()
    return _memo(_DONE, stmt, _computations_done_by)


def _computations_done_by(stmt: S.Stmt) -> Table:
    table = Table()
    if isinstance(stmt, S.IfThenElse):
        for c in computations_in(stmt.condition):
            table.add(c)
        if stmt.else_case is not None:
            table.union(computations_done_by(stmt.then_case)
                        .intersect(computations_done_by(stmt.else_case)))
        return table
    for f in ("min", "extent", "value", "condition"):
        v = getattr(stmt, f, None)
        if isinstance(v, PrimExpr):
            for c in computations_in(v):
                table.add(c)
    for v in getattr(stmt, "indices", ()) + getattr(stmt, "extents", ()):
        for c in computations_in(v):
            table.add(c)
    for child in _stmt_children(stmt):
        table.union(computations_done_by(child))
    return table


class _Keys:
    """The keys of the computations in an expression, each once: the first ``n`` keys of an
    insertion-ordered dict (key -> its position) that the expressions of a chain share. An
    expression extends the dict of its largest operand in place when nothing was added after
    that operand's keys (otherwise it copies them), and adds the keys of its other operands:
    a chain of n nested expressions costs n additions (about n log n for any tree), where a
    set per expression cost n**2 (time and memory: 20,000 nested ``T.Let`` took minutes)."""

    __slots__ = ("d", "n")

    def __init__(self, d: dict[int, int]) -> None:
        self.d, self.n = d, len(d)

    def __contains__(self, key: int) -> bool:
        i = self.d.get(key)
        return i is not None and i < self.n

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[int]:
        return islice(self.d, self.n)


#: id -> the keys of the computations in an expression, each once, or None (see below)
_DISTINCT: dict[int, _Keys | None] = {}


def _distinct_computations(e: PrimExpr) -> _Keys | None:
    """The keys of the eligible computations in ``e`` counted as a tree (a shared node once per
    use), or None when one is there twice (or ``e`` has a class outside _KIDS). When they are
    all distinct, every count the elimination at ``e`` and under it makes is 1, so it binds
    nothing: the expression comes back as it is, unwalked."""
    value = _DISTINCT.get(id(e), _MISS)
    if value is not _MISS:
        return value  # type: ignore[return-value]
    _DISTINCT[id(e)] = out = _distinct(e)
    _ALIVE.append(e)
    return out


def _distinct(e: PrimExpr) -> _Keys | None:
    kids = _kids(e)
    if kids is None:
        return None
    subs = []
    for k in kids:
        sub = _distinct_computations(k)
        if sub is None:
            return None
        if sub.n:
            subs.append(sub)
    d: dict[int, int]
    if subs:
        base = max(subs, key=len)
        subs.remove(base)  # (by identity first: the same object twice stays once in subs)
        d = base.d if base.n == len(base.d) else dict(islice(base.d.items(), base.n))
    else:
        d = {}
    for sub in subs:
        for key in sub:
            if key in d:
                return None
            d[key] = len(d)
    if is_eligible(e):
        key = _key(e)
        if key in d:
            return None
        d[key] = len(d)
    return _Keys(d)


def _binds_nothing(table: Table) -> bool:
    """Whether the elimination over ``table`` would bind nothing: every computation is done
    once and no two of them (nor one with itself) share a sub-computation, so each count the
    elimination hands down stays 1 (a quick answer for most statements)."""
    keys: set[int] = set()
    total = 0
    for e, count in table.items.values():
        if count != 1:
            return False
        sub = _distinct_computations(e)
        if sub is None:
            return False
        keys.update(sub)
        total += len(sub)
        if len(keys) != total:
            return False
    return True


#: id -> the free-var sets (var ids) of the minimal eligible nodes in an expression, or None
_MINIMAL: dict[int, frozenset | None] = {}
_NO_SETS: frozenset = frozenset()


def _minimal_free_sets(e: PrimExpr) -> frozenset | None:
    """The free vars (ids, as :meth:`CommonSubexpressionEliminator._in_context` reads them) of
    each minimal eligible node of ``e`` (an eligible node with no eligible node below it), as
    a set of sets; None when ``e`` holds a class outside _KIDS or a Let (whose body may use
    the var it defines: a node below it is not in context when the Let is) (memoized)."""
    value = _MINIMAL.get(id(e), _MISS)
    if value is not _MISS:
        return value  # type: ignore[return-value]
    kids = None if isinstance(e, E.Let) else _kids(e)
    out: frozenset | None = _NO_SETS
    if kids is None:
        out = None
    else:
        for k in kids:
            sub = _minimal_free_sets(k)
            if sub is None:
                out = None
                break
            if sub and sub is not out:
                out = sub if not out else out | sub
        if out is not None and not out and is_eligible(e):
            out = frozenset((_free_vars(e),))
    _MINIMAL[id(e)] = out
    _ALIVE.append(e)
    return out


def _free_vars(e: PrimExpr) -> frozenset:
    """The ids of the vars ``e`` uses and does not define (``undefined_vars``, memoized)."""
    return _memo(_FREE, e, lambda n: frozenset(id(v) for v in undefined_vars(n)))


def _stmt_children(stmt: S.Stmt) -> list[S.Stmt]:
    if isinstance(stmt, S.SeqStmt):
        return list(stmt.seq)
    body = getattr(stmt, "body", None)
    return [body] if isinstance(body, S.Stmt) and not isinstance(stmt, S.Block) else []


#: statements nested below which CSE places no binding: at a statement with a deeper nest below
#: it (a chain of thousands of LetStmts built by program) the table of every computation done
#: under it costs its size, and a chain n deep costs n**2 (TVM's CSE is as quadratic, in C++).
#: The statements inside are still places of elimination; only a computation shared by
#: statements more than this many levels apart is not hoisted. Ordinary kernels nest far less.
MAX_HOIST_DEPTH = 1000
_NESTING: dict[int, int] = {}


def _nesting(stmt: S.Stmt) -> int:
    """How deep the statements nest in ``stmt`` (1: no sub-statement, as :func:`_stmt_children`
    sees them), memoized; a loop, not a recursion (the nest may be thousands deep)."""
    got = _NESTING.get(id(stmt))
    if got is not None:
        return got
    stack: list[tuple[S.Stmt, bool]] = [(stmt, False)]
    while stack:
        s, ready = stack.pop()
        if ready:
            _NESTING[id(s)] = 1 + max((_NESTING[id(c)] for c in _stmt_children(s)), default=0)
            _ALIVE.append(s)
        elif id(s) not in _NESTING:
            stack.append((s, True))
            stack.extend((c, False) for c in _stmt_children(s) if id(c) not in _NESTING)
    return _NESTING[id(stmt)]


_IN: dict[int, frozenset | None] = {}
_LEAF_FIELDS = {"expr", "exprs"}


def _leaf_keys(stmt: S.Stmt) -> frozenset | None:
    """The keys (:func:`_key`) of every expression :class:`_Replace` would visit in ``stmt``, a
    statement without sub-statements (a store, an evaluate), or None (a statement with a body,
    an expression class with other kinds of children)."""
    children = STMT_CHILDREN.get(type(stmt))
    if children is None:
        return None
    stack: list[Any] = []
    for name, kind in children:
        if kind not in _LEAF_FIELDS:
            return None
        value = getattr(stmt, name)
        if kind == "exprs":
            stack.extend(v for v in value if isinstance(v, PrimExpr))
        elif value is not None:
            if not isinstance(value, PrimExpr):
                return None
            stack.append(value)
    out: set[int] = set()
    seen: set[int] = set()
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        kids = _kids(e)
        if kids is None:
            return None
        out.add(_key(e))
        stack.extend(kids)
    return frozenset(out)


def clear_memos() -> None:
    """Empty every per-node memo (the pass calls it when it is done: ids are reused once the
    nodes they name are freed)."""
    for table in (_COMPLEXITY, _INTERNED, _IDS, _DONE, _FREE, _INFO, _DIRECT,
                  _IN, _DISTINCT, _KID_LISTS, _MINIMAL, _NESTING):
        table.clear()
    _ALIVE.clear()
