"""detect_iter_map / normalize_iter_map_to_expr / iter_map_simplify (tvm.arith)."""
import itertools

import pytest

from tirkit import tir
from tirkit.arith import (IterMark, IterSplitExpr, IterSumExpr, detect_iter_map,
                          iter_map_simplify, normalize_iter_map_to_expr)
from tirkit.ir.expr import IntImm, Range
from tirkit.tir.stmt_functor import substitute

from evaluator import evaluate

fd, fm = tir.floordiv, tir.floormod


def _vars(*names):
    return [tir.Var(n, "int32") for n in names]


def _check_values(res, indices, dom):
    """Every normalized index evaluates like the original over the whole domain."""
    exprs = [normalize_iter_map_to_expr(s) for s in res.indices]
    vars_ = list(dom)
    for point in itertools.product(*(range(r.min.value, r.min.value + r.extent.value)
                                     for r in dom.values())):
        env = dict(zip(vars_, point))
        assert [evaluate(e, env) for e in exprs] == [evaluate(e, env) for e in indices]


def test_fuse_structure():
    i0, i1 = _vars("i0", "i1")
    dom = {i0: Range(0, 4), i1: Range(0, 32)}
    res = detect_iter_map([i0 * 32 + i1], dom)
    assert res.errors == ()
    (s,) = res.indices
    assert isinstance(s, IterSumExpr) and s.base.value == 0 and len(s.args) == 1
    top = s.args[0]
    assert isinstance(top, IterSplitExpr) and isinstance(top.source, IterMark)
    assert top.source.extent.value == 128 and top.extent.value == 128
    assert top.lower_factor.value == 1 and top.scale.value == 1
    inner = top.source.source
    assert [a.source.source for a in inner.args] == [i0, i1]
    assert [a.scale.value for a in inner.args] == [32, 1]
    _check_values(res, [i0 * 32 + i1], dom)


def test_split_bijective():
    (f,) = _vars("f")
    dom = {f: Range(0, 128)}
    idx = [fd(f, 32), fm(f, 32)]
    res = detect_iter_map(idx, dom, check_level="bijective")
    assert res.errors == ()
    lower = [r.args[0].source.source.args[0] for r in res.indices]
    assert [(s.lower_factor.value, s.extent.value) for s in lower] == [(32, 4), (1, 32)]
    _check_values(res, idx, dom)


def test_bijective_needs_full_cover():
    (f,) = _vars("f")
    dom = {f: Range(0, 128)}
    assert detect_iter_map([fd(f, 4)], dom, check_level="bijective").errors
    assert not detect_iter_map([fd(f, 4)], dom, check_level="surjective").errors
    assert not detect_iter_map([fm(f, 8), fd(f, 32)], dom).errors
    i, j = _vars("i", "j")
    assert detect_iter_map([i], {i: Range(0, 4), j: Range(0, 4)},
                           check_level="bijective").errors
    assert not detect_iter_map([i], {i: Range(0, 4), j: Range(0, 4)}).errors


def test_iterator_used_twice_fails():
    f, i0, i1 = _vars("f", "i0", "i1")
    res = detect_iter_map([f, f], {f: Range(0, 128)})
    assert res.indices == () and res.errors == ("Mapped indices are not independent.",)
    dom = {i0: Range(0, 4), i1: Range(0, 32)}
    assert detect_iter_map([fd(i0 * 32 + i1, 16), i1], dom).errors


def test_offsets_and_min():
    f, i = _vars("f", "i")
    dom = {f: Range(0, 128), i: Range(2, 5)}
    idx = [f + 3, i]
    res = detect_iter_map(idx, dom, check_level="bijective")
    assert res.errors == ()
    assert res.indices[0].base.value == 3 and res.indices[1].base.value == 2
    _check_values(res, idx, dom)


def test_multi_level_split_and_fuse():
    i, j, k = _vars("i", "j", "k")
    dom = {i: Range(0, 2), j: Range(0, 3), k: Range(0, 8)}
    fused = (i * 3 + j) * 8 + k
    idx = [fd(fused, 4), fm(fused, 4)]
    res = detect_iter_map(idx, dom, check_level="bijective")
    assert res.errors == ()
    _check_values(res, idx, dom)


def test_trivial_iterators():
    i, t = _vars("i", "t")
    dom = {i: Range(0, 8), t: Range(0, 1)}
    res = detect_iter_map([i * 4 + t * 0, t], dom, check_level="surjective")
    assert res.errors == ()
    assert res.indices[1].args == () and res.indices[1].base.value == 0


def test_failures_are_reported():
    i, j = _vars("i", "j")
    dom = {i: Range(0, 4), j: Range(0, 4)}
    for bad in (i * j, fd(i, j), fd(i * 4 + j, 3), tir.min(i, j)):
        res = detect_iter_map([bad], dom)
        assert res.indices == () and len(res.errors) == 1, bad
    with pytest.raises(ValueError):
        detect_iter_map([i], dom, check_level="mostly")


def test_symbolic_offset_multiple_of_divisor():
    """An outer loop var in the offset (``j0 * 64 + j1`` by 64, a region of a tile computed at
    an inner loop) divides out as in TVM: floordiv -> ``j0`` with a unit split, floormod -> the
    iterator; an offset not provably a multiple (``j0 * 32``) still needs padding: unsupported."""
    j0, j1 = _vars("j0", "j1")
    dom = {j1: Range(0, 64)}
    idx = [fd(j0 * 64 + j1, 64), fm(j0 * 64 + j1, 64)]
    res = detect_iter_map(idx, dom, check_level="surjective")
    assert res.errors == ()
    assert res.indices[0].base is j0 and [a.extent.value for a in res.indices[0].args] == [1]
    assert res.indices[1].base.value == 0 and res.indices[1].args[0].extent.value == 64
    for v in (0, 3):  # the normalized indices evaluate like the originals at j0 = v
        exprs = [substitute(normalize_iter_map_to_expr(s), {j0: IntImm("int32", v)})
                 for s in res.indices]
        originals = [fd(v * 64 + j1, 64), fm(v * 64 + j1, 64)]
        for x in range(64):
            assert [evaluate(e, {j1: x}) for e in exprs] == \
                [evaluate(e, {j1: x}) for e in originals]
    res = detect_iter_map([fd(j0 * 32 + j1, 64)], dom, check_level="surjective")
    assert res.indices == () and "multiple of the divisor" in res.errors[0]


def test_predicate_limits_fused_extent():
    i0, i1 = _vars("i0", "i1")
    dom = {i0: Range(0, 4), i1: Range(0, 32)}
    res = detect_iter_map([i0 * 32 + i1], dom, predicate=i0 * 32 + i1 < 100,
                          check_level="bijective")
    assert res.errors == ()
    assert res.indices[0].args[0].extent.value == 100


def test_iter_map_simplify():
    i0, i1 = _vars("i0", "i1")
    dom = {i0: Range(0, 4), i1: Range(0, 32)}
    out = iter_map_simplify([fd(i0 * 32 + i1, 32), fm(i0 * 32 + i1, 16)], dom)
    assert out[0] is i0
    assert isinstance(out[1], tir.FloorMod) and out[1].a is i1
    bad = [i0 * i1]
    assert iter_map_simplify(bad, dom)[0] is bad[0]


def test_int64_iterators():
    i = tir.Var("i", "int64")
    res = detect_iter_map([fd(i, 4)], {i: Range(IntImm("int64", 0), IntImm("int64", 16))})
    assert res.errors == ()
    assert res.indices[0].dtype == "int64"
    assert normalize_iter_map_to_expr(res.indices[0]).dtype == "int64"
