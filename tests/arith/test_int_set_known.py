"""``eval_set(expr, dom, known=(sub, set))`` takes ``sub``'s set as given and returns what
evaluating ``expr`` again would (CompactBufferAllocation and the block read/write detector
relax a range's last index ``min + extent - 1`` with its ``min``'s set known)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tirkit import tir
from tirkit.arith.int_set import IntervalSet, eval_set
from tirkit.arith.keys import expr_key
from tirkit.ir.expr import IntImm, Range
from tirkit.tir import expr as E
from tirkit.tir import op

I, J, K = tir.Var("i", "int32"), tir.Var("j", "int32"), tir.Var("k", "int32")
DOM = {I: IntervalSet.from_range(Range.from_min_extent(0, 16)),
       J: IntervalSet.from_range(Range.from_min_extent(0, 8)),
       K: IntervalSet.point(E.Add(I, IntImm("int32", 3)))}


@st.composite
def index_exprs(draw, depth=3):
    """Index expressions over relaxed, point-mapped and free vars."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from([I, J, K, tir.Var("n", "int32"), IntImm("int32", 2),
                                     IntImm("int32", 7)]))
    kind = draw(st.sampled_from(["add", "sub", "mul", "fdiv", "fmod", "min"]))
    a, b = draw(index_exprs(depth - 1)), draw(index_exprs(depth - 1))
    if kind in ("mul", "fdiv", "fmod"):
        b = IntImm("int32", draw(st.integers(1, 9)))
    cls = {"add": E.Add, "sub": E.Sub, "mul": E.Mul, "fdiv": E.FloorDiv, "fmod": E.FloorMod,
           "min": E.Min}[kind]
    return cls(a, b)


def _key(s):
    return (None if s.min_value is None else expr_key(s.min_value),
            None if s.max_value is None else expr_key(s.max_value))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index_exprs(), st.integers(1, 4))
def test_known_min_gives_the_same_last_index_set(lo, extent):
    first = eval_set(lo, DOM)
    last = op.subtract(op.add(lo, IntImm("int32", extent)), 1)
    assert _key(eval_set(last, DOM, (lo, first))) == _key(eval_set(last, DOM))
