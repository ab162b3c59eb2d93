"""The expression simplifier behind ``Analyzer.simplify`` (mirrors TVM's ``RewriteSimplifier`` and
``CanonicalSimplifier``, ``src/arith/rewrite_simplify.cc`` / ``canonical_simplify.cc``).

Signed scalar integer arithmetic is brought to a :class:`~.linear.LinearSum` (like terms combined,
constants folded) and rebuilt deterministically, which makes the result idempotent. Division,
comparison and logic rules live in :mod:`.rules_div` and :mod:`.rules_logic` and register their
handlers in the one table of this module. Other expressions keep their shape; their
sub-expressions are simplified and constants folded.
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import fields
from typing import Any, Callable, Iterator

from ..ir.deep import run_deep
from ..ir.expr import IntImm, PrimExpr
from ..ir.node import Node, field_kind, init_field_names
from ..tir import expr as E
from ..tir import op as tir_op
from ..tir.const_fold import try_const_fold
from .bound import ConstIntBoundAnalyzer, Interval, iv_add, iv_scale
from .keys import expr_key, keys_equal
from .linear import LinearSum, to_expr
from ..ir.dispatch import DispatchTable

_Handler = Callable[["Simplifier", Any], PrimExpr]
_TABLE = DispatchTable()
#: node class -> its handler as :func:`_lookup` found it (emptied by :func:`register`)
_RESOLVED: dict[type, _Handler] = {}


def register(*classes: type) -> Callable[[_Handler], _Handler]:
    """Register the simplification handler of node classes (TVM's ``ExprFunctor`` dispatch)."""
    _RESOLVED.clear()
    return _TABLE.register(*classes)


def _lookup(cls: type) -> _Handler:
    fn = _RESOLVED.get(cls)
    if fn is None:
        fn = _RESOLVED[cls] = _resolve(cls)
    return fn


def _resolve(cls: type) -> _Handler:
    for k in cls.__mro__:
        fn = _TABLE.get(k)
        if fn is not None:
            return fn
    return _generic


def is_index(e: PrimExpr) -> bool:
    """Whether ``e`` is a signed scalar integer (the domain of the linear rules) (mirrors TVM's
    ``IsIndexType``)."""
    t = e.dtype
    return t.is_int() and t.lanes == 1


def bool_const(value: bool) -> IntImm:
    """``T.bool(value)`` (mirrors TVM's ``const_true``/``const_false``)."""
    return IntImm("bool", int(bool(value)))


#: entries past which a table kept from run to run is dropped
_MEMO_LIMIT = 50_000


class Simplifier:  # pylint: disable=too-many-instance-attributes
    """Simplification state: bounds, substitutions, known facts, a memo per constraint scope
    (mirrors TVM's ``RewriteSimplifier::Impl``)."""

    def __init__(self, bounds: ConstIntBoundAnalyzer) -> None:
        self.bounds = bounds
        self.subst: dict[int, tuple[E.Var, PrimExpr]] = {}
        self.facts: dict[Any, bool] = {}
        self._memo: list[dict[int, tuple[PrimExpr, PrimExpr]]] = [{}]
        self._keys: dict[int, Any] = {}
        #: bumped by every change of the state (Analyzer.bind/update/constraint_scope)
        self.state = 0
        #: id -> a node known to simplify to itself (no assumption of a run's own in force)
        #: while the state is ``_kept_state``: met again in a later run, it is given back at
        #: once, as simplifying it again would (see run)
        self._kept: dict[int, PrimExpr] = {}
        self._kept_state = -1
        #: id of a node -> what _generic rebuilt it to with a changed operand: a simplified
        #: operand that is not its original differs from it (simplify returns the original when
        #: they are equal), so the rebuilt node differs from the node, without comparing them
        self._rebuilt: dict[int, tuple[Any, Any]] = {}

    # -- entry points ---------------------------------------------------------------------
    def run(self, e: PrimExpr) -> PrimExpr:
        """Simplify ``e`` (a fresh memo per call). The nodes an earlier run found already
        simplified are known while the state (bounds, substitutions, facts) has not changed
        since: the parts an expression shares with the previous one (UnrollLoop's copies share
        every part without the unrolled var) are not walked again. Only those: a node
        rewritten in an earlier run is rewritten again, to a node of this run's own."""
        self._memo = [{}]
        if self._kept_state != self.state or len(self._kept) > _MEMO_LIMIT:
            self._kept = {}
            self._kept_state = self.state
        if len(self._keys) > _MEMO_LIMIT:
            self._keys = {}
        if len(self._rebuilt) > _MEMO_LIMIT:
            self._rebuilt = {}
        try:
            return run_deep(self.simplify, e, what="simplify")
        except BaseException:
            self._kept_state = -1
            raise
        finally:
            self._memo = [{}]

    def simplify(self, e: PrimExpr) -> PrimExpr:
        """Simplify ``e`` under the current state (memoized)."""
        memo = self._memo[-1]
        hit = memo.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        # no assumption of this run's own in force, and the kept nodes are of this state (a
        # simplify outside a run, Simplifier.assume's, may come after a change of it)
        outer = len(self._memo) == 1 and self._kept_state == self.state
        if outer and self._kept.get(id(e)) is e:
            return e
        out = _lookup(type(e))(self, e)
        if out is not e:
            pair = self._rebuilt.get(id(e))
            if (pair is None or pair[1] is not out or pair[0] is not e) \
                    and keys_equal(out, e, self._keys):
                out = e
        if self.facts and out.dtype.is_bool() and not isinstance(out, IntImm):
            fact = self.facts.get(self.key(out))
            if fact is not None:
                out = bool_const(fact)
        memo[id(e)] = (e, out)
        memo[id(out)] = (out, out)
        if outer:
            self._kept[id(out)] = out  # (e itself when it was left as it was)
        return out

    def final(self, e: PrimExpr) -> PrimExpr:
        """Mark ``e`` (built by a rule from simplified parts) as already simplified."""
        self._memo[-1][id(e)] = (e, e)
        return e

    def key(self, e: Any) -> Any:
        """Structural key of ``e`` (cached for this run)."""
        return expr_key(e, self._keys)

    # -- linear form ----------------------------------------------------------------------
    def lin(self, e: PrimExpr) -> LinearSum:
        """The linear form of signed-integer ``e`` (atoms simplified)."""
        t = e.dtype
        if isinstance(e, IntImm):
            return LinearSum(t, e.value)
        if isinstance(e, E.Add):
            return self.lin(e.a).iadd(self.lin(e.b))
        if isinstance(e, E.Sub):
            return self.lin(e.a).iadd(self.lin(e.b), -1)
        if isinstance(e, E.Mul):
            la, lb = self.lin(e.a), self.lin(e.b)
            if lb.is_const:
                return la.scaled(lb.base)
            if la.is_const:
                return lb.scaled(la.base)
            atom = E.Mul(self.from_lin(la), self.from_lin(lb))
            return LinearSum.atom(t, self.key(atom), atom)
        s = self.simplify(e)
        if s is not e and isinstance(s, (IntImm, E.Add, E.Sub, E.Mul)):
            return self.lin(s)
        return LinearSum.atom(t, self.key(s), s)

    def from_lin(self, s: LinearSum) -> PrimExpr:
        """Rebuild a linear sum, merging ``floordiv(x, c)*c + floormod(x, c)`` into ``x``."""
        while _merge_divmod(self, s):
            pass
        return to_expr(s)

    # -- bounds ---------------------------------------------------------------------------
    def bound(self, e: PrimExpr) -> Interval:
        """Constant bound of ``e``."""
        return self.bounds.bound(e)

    def bound_lin(self, s: LinearSum) -> Interval:
        """Constant bound of a linear sum (interval arithmetic over its terms)."""
        iv: Interval = (s.base, s.base)
        for _, atom, coeff in s.items():
            iv = iv_add(iv, iv_scale(self.bound(atom), coeff))
        return iv

    # -- constraints ----------------------------------------------------------------------
    @contextlib.contextmanager
    def assume(self, cond: PrimExpr) -> Iterator[None]:
        """Within the block, ``cond`` is known true (the facts and bounds it adds are undone on
        exit, as TVM's ``ConstraintContext`` recovers them; what else changes them inside, an
        ``Analyzer.bind``, stays)."""
        c = self.simplify(cond)
        memo = self._memo  # the outer scopes' memos: still valid after the block
        depth = len(memo)
        memo.append({})
        undo: list[tuple[dict, Any, Any]] = []
        try:
            for part in conjuncts(c):
                self.add_fact(part, undo)
            self._memo[-1] = {}  # (what adding the facts cached, under only some of them)
            yield
        finally:
            # the outer scopes' memos back (a nested ``run`` may have replaced the stack; what
            # was cached under the facts dropped here is in the block's own memo, dropped).
            # Emptying them all instead made a chain of n conditions cost 2**n: each level
            # simplified its operand again after the inner levels' blocks (a 20-term `and`
            # in a T.Select never finished compiling). Undoing what the block added instead
            # of copying every fact, bound and memo on entry: scopes nested n deep (nested
            # Selects or ifs) cost n, not n**2
            del memo[depth:]
            self._memo = memo
            for table, key, old in reversed(undo):
                if old is _ABSENT:
                    table.pop(key, None)
                else:
                    table[key] = old

    def add_fact(self, c: PrimExpr, undo: list[tuple[dict, Any, Any]]) -> None:
        """Record the simplified condition ``c`` as true (and its negation as false), and in
        ``undo`` what each changed entry held before. The negation is recorded as
        :func:`negate` builds it, not simplified again (TVM's ``EnterConstraint`` records
        ``NormalizeBooleanOperators(Not(c))``): simplifying it walked each fact once more, and
        the memo had to be emptied after each fact."""
        if isinstance(c, IntImm):
            return
        self._set(self.facts, self.key(c), True, undo)
        neg = negate(c)
        if not isinstance(neg, IntImm):
            self._set(self.facts, self.key(neg), False, undo)
        found = bound_from_cmp(self, c)
        if found is not None:
            known = self.bounds.known
            undo.append((known, found[0], known.get(found[0], _ABSENT)))
            self.bounds.update(*found)

    @staticmethod
    def _set(table: dict, key: Any, value: Any, undo: list[tuple[dict, Any, Any]]) -> None:
        undo.append((table, key, table.get(key, _ABSENT)))
        table[key] = value


#: an entry absent before a constraint scope set it (Simplifier.assume)
_ABSENT = object()


# the bound a fact gives (Simplifier.add_fact), next to the comparison rules of rules_logic
def bound_from_cmp(s: Simplifier, c: PrimExpr) -> tuple[Any, Interval] | None:
    """``(key, interval)`` of the single atom a known-true integer comparison bounds (mirrors TVM's
    ``ConstIntBoundAnalyzer::EnterConstraint``)."""
    if not isinstance(c, (E.LT, E.LE, E.EQ)) or not is_index(c.a):
        return None
    d = s.lin(c.a).iadd(s.lin(c.b), -1)
    one = d.single()
    if one is None:
        return None
    key, _, k = one
    # k*x + base (op) 0
    if isinstance(c, E.EQ):
        if d.base % k:
            return None
        v = -d.base // k
        return key, (v, v)
    limit = -d.base - 1 if isinstance(c, E.LT) else -d.base  # k*x <= limit
    if k > 0:
        return key, (-math.inf, limit // k)
    return key, (-((-limit) // k), math.inf)


#: the comparison ``Not`` of a comparison is: (class, swap the operands)
NEGATED_CMP = {E.LT: (E.LE, True), E.LE: (E.LT, True), E.GT: (E.GE, True),
               E.GE: (E.GT, True), E.EQ: (E.NE, False), E.NE: (E.EQ, False)}


def negate(c: PrimExpr) -> PrimExpr:
    """``Not(c)`` in the form the ``Not`` rule rewrites it to, built without simplifying
    (TVM's ``NormalizeBooleanOperators(Not(c))`` when a constraint is entered): ``!!x`` is ``x``,
    an integer comparison (or any ``==`` / ``!=``) is flipped, ``And`` / ``Or`` go through De
    Morgan. Simplifying the result gives what simplifying ``Not(c)`` gives, without the ``Not``
    rule simplifying each negated operand again (``simplify(Not(And(a, b)))`` simplifies ``Not(a)``
    once more under the assumption it adds, for every level of a chain)."""
    if isinstance(c, IntImm):
        folded = try_const_fold(E.Not, c)
        return folded if folded is not None else E.Not(c)
    if isinstance(c, E.Not):
        return c.a
    if isinstance(c, E.CmpExpr) and (is_index(c.a) or isinstance(c, (E.EQ, E.NE))):
        cls, swap = NEGATED_CMP[type(c)]
        return cls(c.b, c.a) if swap else cls(c.a, c.b)
    if isinstance(c, E.And):
        return E.Or(negate(c.a), negate(c.b))
    if isinstance(c, E.Or):
        return E.And(negate(c.a), negate(c.b))
    return E.Not(c)


def conjuncts(c: PrimExpr) -> list[PrimExpr]:
    """The operands of a chain of ``And`` (mirrors TVM's ``ExtractConstraints``)."""
    out, todo = [], [c]  # (a walk, not recursion: a chain of n terms is linear, at any depth)
    while todo:
        x = todo.pop()
        if isinstance(x, E.And):
            todo += (x.b, x.a)
        else:
            out.append(x)
    return out


def _merge_divmod(s: Simplifier, lin: LinearSum) -> bool:
    mods = {}
    atom: PrimExpr
    for key, (atom, coeff) in lin.terms.items():
        if isinstance(atom, E.FloorMod) and isinstance(atom.b, IntImm):
            mods[(s.key(atom.a), atom.b.value)] = (key, atom, coeff)
    if not mods:
        return False
    for key, (atom, coeff) in lin.terms.items():  # (left as soon as ``lin`` changes)
        if not (isinstance(atom, E.FloorDiv) and isinstance(atom.b, IntImm)):
            continue
        c = atom.b.value
        hit = mods.get((s.key(atom.a), c))
        if hit is None or coeff != hit[2] * c:
            continue
        k = hit[2]
        lin.add_term(key, atom, -coeff)
        lin.add_term(hit[0], hit[1], -k)
        lin.iadd(s.lin(atom.a), k)
        return True
    return False


# ------------------------------------------------------------------------------------ handlers
def _simplify_field(s: Simplifier, v: Any) -> Any:
    if isinstance(v, PrimExpr):
        return s.simplify(v)
    if isinstance(v, tuple) and any(isinstance(x, PrimExpr) for x in v):
        new = tuple(s.simplify(x) if isinstance(x, PrimExpr) else x for x in v)
        return v if all(a is b for a, b in zip(new, v)) else new
    return v


def _generic(s: Simplifier, e: Node) -> PrimExpr:
    """Simplify the (non-definition) expression fields, then fold constants."""
    names = _GENERIC_FIELDS.get(type(e))
    if names is None:
        cls: type = type(e)  # (mypy 2.4 takes a type[Node] for unhashable: lru_cache refuses it)
        init = init_field_names(cls)
        names = _GENERIC_FIELDS[type(e)] = tuple(
            f.name for f in fields(e)
            if f.name in init and f.name != "span" and field_kind(f) != "def")
    changes = {}
    for name in names:
        old = getattr(e, name)
        new = _simplify_field(s, old)
        if new is not old:
            changes[name] = new
    if not changes:
        out = e
    else:
        out = e.with_changes(**changes)
        s._rebuilt[id(e)] = (e, out)  # pylint: disable=protected-access  # (see Simplifier)
    if isinstance(out, (E.BinaryOpExpr, E.CmpExpr, E.And, E.Or)):
        folded = try_const_fold(type(out), out.a, out.b)
        if folded is not None:
            return folded
    return out  # type: ignore[return-value]


#: node class -> the fields :func:`_generic` simplifies (constructor fields, no definitions)
_GENERIC_FIELDS: dict[type, tuple[str, ...]] = {}


@register(E.Var)
def _var(s: Simplifier, e: E.Var) -> PrimExpr:
    hit = s.subst.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    return e


@register(E.Add, E.Sub, E.Mul)
def _arith(s: Simplifier, e: Any) -> PrimExpr:
    if not is_index(e):
        return _generic(s, e)
    return s.from_lin(s.lin(e))


@register(E.Cast)
def _cast(s: Simplifier, e: E.Cast) -> PrimExpr:
    return tir_op.cast(e.dtype, s.simplify(e.value))
