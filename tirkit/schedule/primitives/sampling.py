"""sample_categorical, sample_perfect_tile, sample_compute_location (mirrors
``src/tir/schedule/primitive/sampling.cc``). Decisions are drawn from the schedule's random
state (deterministic for a seed) unless given, and recorded in the trace."""
from __future__ import annotations

from typing import Any, Sequence, cast

from ...tir.expr import IterVarType
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive
from ..state import StmtSRef


#: trial division stops here: a cofactor left above it counts as prime (a product of two
#: primes > 2**20 then loses its middle divisors, never the draw's correctness)
_TRIAL_LIMIT = 1 << 20
#: at most this many tiles: an extent below 2**63 has at most 63 factors > 1
MAX_TILES = 64


def _factors(n: int) -> list[int]:
    """The divisors of ``n`` in increasing order, from its factorization (time O(sqrt(n)) up to
    :data:`_TRIAL_LIMIT`; the old ``range(1, n + 1)`` scan hung on a loop of extent 2**31 - 1)."""
    primes: dict[int, int] = {}
    m, p = n, 2
    while p * p <= m and p <= _TRIAL_LIMIT:
        while m % p == 0:
            primes[p] = primes.get(p, 0) + 1
            m //= p
        p += 1 if p == 2 else 2
    if m > 1:
        primes[m] = primes.get(m, 0) + 1
    divisors = [1]
    for prime, power in primes.items():
        divisors = [d * prime ** e for d in divisors for e in range(power + 1)]
    return sorted(divisors)


@primitive("SampleCategorical", attrs=("candidates", "probs"), decision="decision",
           pure=True, outputs="one")
def sample_categorical(sch: Schedule, candidates: Sequence[int], probs: Sequence[float],
                       decision: int | None = None) -> Any:
    """Draw one of ``candidates`` with weights ``probs``; returns an ExprRV
    (``Schedule.sample_categorical``). ``decision`` (an index) replays a draw.

    Raises:
        ScheduleError: ``InvalidArgumentError`` for mismatched lengths, negative weights or a
            decision out of range.
    """
    cands, weights = list(candidates), [float(p) for p in probs]
    if len(cands) != len(weights) or not cands or any(p < 0 for p in weights) or \
            sum(weights) <= 0:
        raise err.InvalidArgumentError(reason="sample_categorical needs as many non-negative "
                                       "probs as candidates, with a positive sum")
    if decision is None:
        decision = sch._rand.categorical(weights)  # pylint: disable=protected-access
    if not 0 <= int(decision) < len(cands):
        raise err.InvalidArgumentError(reason=f"decision {decision} is out of range")
    sch._decision = int(decision)  # pylint: disable=protected-access
    return sch._new_expr_rv(int(cands[int(decision)]))  # pylint: disable=protected-access


def _perfect_tile(sch: Schedule, extent: int, n: int, max_innermost: int) -> list[int]:
    """TVM ``SamplePerfectTile``: a random factorization of ``extent`` into ``n`` parts whose
    innermost part is at most ``max_innermost``."""
    rand = sch._rand  # pylint: disable=protected-access
    inner_choices = [d for d in _factors(extent) if max_innermost <= 0 or d <= max_innermost]
    innermost = inner_choices[rand.randint(0, len(inner_choices))]
    rest = extent // innermost
    out = [innermost]
    for _ in range(n - 2):
        choices = _factors(rest)
        f = choices[rand.randint(0, len(choices))]
        out.append(f)
        rest //= f
    out.append(rest)
    return out[::-1] if n > 1 else [extent]


def _int_attrs(sch: Schedule, args: dict) -> None:
    """Integers (NumPy's, IntImm) as plain ints in the trace (its JSON); other kinds were
    refused by the primitive's argument check."""
    for name in ("n", "max_innermost_factor"):
        args[name] = int(getattr(args[name], "value", args[name]))


@primitive("SamplePerfectTile", attrs=("n", "max_innermost_factor"), decision="decision",
           pure=True, outputs="list", normalize=_int_attrs)
def sample_perfect_tile(sch: Schedule, loop: Any, n: int, max_innermost_factor: int = 16,
                        decision: Sequence[int] | None = None) -> list[Any]:
    """Draw ``n`` factors whose product is the loop's (constant) extent, the innermost at most
    ``max_innermost_factor``; returns ExprRVs for ``split`` (``Schedule.sample_perfect_tile``).

    Raises:
        ScheduleError: ``InvalidArgumentError`` for a non-constant extent, ``n < 1`` or a
            decision whose product differs from the extent.
    """
    sref = sch._loop_sref(loop)  # pylint: disable=protected-access
    extent = getattr(sref.stmt.extent, "value", None)
    if extent is None or not 1 <= n <= MAX_TILES:
        raise err.InvalidArgumentError(sref.stmt, reason="sample_perfect_tile needs a loop of "
                                       f"constant extent and 1 <= n <= {MAX_TILES}, got n={n}")
    if decision is None:
        decision = _perfect_tile(sch, int(extent), n, max_innermost_factor)
    decision = [int(d) for d in decision]
    prod = 1
    for d in decision:
        prod *= d
    if len(decision) != n or prod != extent:
        raise err.InvalidArgumentError(sref.stmt, reason=f"decision {decision} is not {n} "
                                       f"factors of {extent}")
    sch._decision = decision  # pylint: disable=protected-access
    return [sch._new_expr_rv(d) for d in decision]  # pylint: disable=protected-access


@primitive("SampleComputeLocation", decision="decision", pure=True, outputs="one")
def sample_compute_location(sch: Schedule, block: Any, decision: int | None = None) -> Any:
    """Draw a loop where ``block`` may be computed at (``Schedule.sample_compute_location``):
    the decision indexes the loops of its first consumer that ``compute_at`` accepts; -1 means
    "stay at the root" and -2 "inline" (returned as the root's LoopRV stand-in ``None``).

    Raises:
        ScheduleError: ``InvalidArgumentError`` for a decision out of range.
    """
    block_sref = sch._block_sref(block)  # pylint: disable=protected-access
    candidates = _locations(sch, block_sref)
    if decision is None:
        decision = sch._rand.randint(-1, len(candidates)) \
            if candidates else -1  # pylint: disable=protected-access
    decision = int(decision)
    if not -2 <= decision < len(candidates):
        raise err.InvalidArgumentError(block_sref.stmt,
                                       reason=f"decision {decision} is out of range")
    sch._decision = decision  # pylint: disable=protected-access
    if decision < 0:
        return None
    return sch._new_rv(candidates[decision])  # pylint: disable=protected-access


def _locations(sch: Schedule, block_sref: Any) -> list[Any]:
    """Loops of the block's first consumer where compute_at applies (TVM
    ``CollectComputeLocation``), checked on copies so the schedule is untouched. As in TVM, unit
    loops are skipped, and neither data-parallel loops after a reduction loop nor trailing
    reduction loops are candidates (a location there only repeats the producer)."""
    scope_root = A.get_scope_root(block_sref)
    consumer = _first_consumer(sch, block_sref, scope_root) if scope_root is not None else None
    if consumer is None:
        return []
    loops = A.get_loops(consumer)
    kinds = _loop_kinds(sch, consumer, loops)
    last_datapar = max((i for i, k in enumerate(kinds) if k), default=-1)
    out, seen_reduce = [], False
    for i, loop in enumerate(loops):
        if getattr(loop.stmt.extent, "value", None) == 1:
            continue
        if kinds[i] and seen_reduce:
            break
        if not kinds[i]:
            seen_reduce = True
            if i > last_datapar:
                break
        if _can_compute_at(sch, block_sref, loop):
            out.append(loop)
    return out


def _loop_kinds(sch: Schedule, block_sref: Any, loops: list[Any]) -> list[bool]:
    """Per loop: whether it is data-parallel for the block (binds only spatial iters)."""
    realize = A.get_block_realize(sch.state, block_sref)
    pairs = list(zip(realize.block.iter_vars, realize.iter_values))
    return [all(iv.iter_type == IterVarType.DataPar for iv, value in pairs
                if A.uses_var(value, loop.stmt.loop_var)) for loop in loops]


def _can_compute_at(sch: Schedule, block_sref: Any, loop: Any) -> bool:
    trial = sch.copy()
    brv, lrv = trial._new_rv(cast(StmtSRef, trial.state.get_sref(block_sref.stmt))), \
        trial._new_rv(cast(StmtSRef, trial.state.get_sref(loop.stmt)))  # pylint: disable=W0212
    try:
        trial.compute_at(brv, lrv)
    except err.ScheduleError:
        return False
    return True


def _first_consumer(sch: Schedule, block_sref: Any, scope_root: Any) -> Any:
    scope = sch.state.get_block_scope(scope_root)
    for dep in scope.get_deps_by_src(block_sref):
        return dep.dst
    return None
