"""IndexMap (tvm.tir.IndexMap): application, shapes, inverses with and without padding, printing
and parsing. Inverses and padding predicates are checked by enumerating every point."""
import itertools

import numpy as np
import pytest

from tirkit.arith import Analyzer
from tirkit.ir import structural_equal
from tirkit.ir.expr import IntImm
from tirkit.lang import from_source
from tirkit.tir import IndexMap, floordiv, floormod
from tirkit.tir.stmt_functor import substitute


def _ints(exprs):
    out = []
    for e in exprs:
        assert isinstance(e, IntImm), e
        out.append(e.value)
    return out


def _eval(expr, env):
    e = Analyzer().simplify(substitute(expr, {v: IntImm(v.dtype, x) for v, x in env.items()}))
    assert isinstance(e, IntImm), e
    return e.value


def test_map_indices_and_dtype_promotion():
    m = IndexMap.from_func(lambda i: [i // 4, i % 4], index_dtype="int32")
    assert _ints(m.map_indices([42])) == [10, 2]
    out = m.map_indices([IntImm("int64", 42)])
    assert _ints(out) == [10, 2] and all(str(e.dtype) == "int64" for e in out)
    with pytest.raises(ValueError, match="takes 1 indices"):
        m.map_indices([1, 2])


@pytest.mark.parametrize("shape,expected", [([4], [1, 4]), ([16], [4, 4]), ([14], [4, 4])])
def test_map_shape_rounds_padding_up(shape, expected):
    m = IndexMap.from_func(lambda i: [i // 4, i % 4], index_dtype="int32")
    assert _ints(m.map_shape(shape)) == expected


def test_map_shape_keeps_int64():
    m = IndexMap.from_func(lambda i: [i // 4, i % 4], index_dtype="int32")
    out = m.map_shape([IntImm("int64", 14)])
    assert _ints(out) == [4, 4] and str(out[0].dtype) == "int64"


def test_inverse_is_bijective_inverse():
    m = IndexMap.from_func(lambda i, j: [j // 8, i, j % 8], index_dtype="int32")
    inv = m.inverse([3, 16])
    assert inv.is_equivalent_to(IndexMap.from_func(lambda a, b, c: [b, a * 8 + c],
                                                   index_dtype="int32"))
    for i, j in itertools.product(range(3), range(16)):
        assert _ints(inv.map_indices(m.map_indices([i, j]))) == [i, j]


def test_inverse_of_padded_map_is_an_error():
    m = IndexMap.from_func(lambda i: [i // 4, i % 4])
    with pytest.raises(ValueError, match="Could not parse mapping"):
        m.inverse([14])


def test_user_given_inverse_is_returned():
    m = IndexMap.from_func(lambda i, j: (j, i), inverse_index_map=lambda a, b: (b, a))
    assert m.inverse([4, 5]) is m.inverse_index_map


def test_unit_extent_inputs_invert_to_their_min():
    def fwd(i0, i1, i2, i3):
        return floordiv(i3, 32), floordiv(i2, 2), floormod(i2, 2), floormod(i3, 32)

    inv = IndexMap.from_func(fwd).inverse([1, 1, 64, 64])
    assert inv.is_equivalent_to(IndexMap.from_func(lambda a, b, c, d: (0, 0, c + b * 2,
                                                                       d + a * 32)))


PADDING = {
    "right": (lambda i: [i // 4, i % 4], [15]),
    "left": (lambda i: [(i + 1) // 4, (i + 1) % 4], [15]),
    "left_and_right": (lambda i: [(i + 1) // 4, (i + 1) % 4], [14]),
    "2d": (lambda i, j: [(i + 1) // 4, (j + 5) // 8, (i + 1) % 4, (j + 5) % 8], [14, 31]),
    "multiple_right": (lambda i: [i // 32, (i // 4) % 8, i % 4], [116]),
    "multiple_left_transposed": (lambda i: [((i + 5) // 4) % 8, (i + 5) // 32, (i + 5) % 4],
                                 [123]),
    "outer_extent_one": (lambda i: [i // 4, i % 4], [3]),
    "no_padding": (lambda i: [i // 4, i % 4], [16]),
}


@pytest.mark.parametrize("name", sorted(PADDING))
def test_non_surjective_inverse_enumerated(name):
    fwd, shape = PADDING[name]
    m = IndexMap.from_func(fwd, index_dtype="int32")
    inv, pred = m.non_surjective_inverse(shape)
    post = _ints(m.map_shape(shape))
    images = set()
    for point in itertools.product(*(range(n) for n in shape)):
        image = tuple(_ints(m.map_indices(list(point))))
        assert all(0 <= x < n for x, n in zip(image, post))
        images.add(image)
        assert _ints(inv.map_indices(list(image))) == list(point)
    for out in itertools.product(*(range(n) for n in post)):
        env = dict(zip(inv.initial_indices, out))
        assert bool(_eval(pred, env)) == (out not in images), out


def test_is_equivalent_to():
    a = IndexMap.from_func(lambda i, j: (i * 4 + j,))
    assert a.is_equivalent_to(IndexMap.from_func(lambda x, y: (y + x * 4,)))
    assert not a.is_equivalent_to(IndexMap.from_func(lambda x, y: (y * 4 + x,)))
    assert not a.is_equivalent_to(IndexMap.from_func(lambda x: (x,)))


def test_from_func_variadic_and_errors():
    m = IndexMap.from_func(lambda *idx: [idx[-1], *idx[:-1]], ndim=3)
    assert [v.name_hint for v in m.initial_indices] == ["idx_0", "idx_1", "idx_2"]
    with pytest.raises(ValueError, match="ndim must be specified"):
        IndexMap.from_func(lambda *idx: idx)
    with pytest.raises(TypeError, match="Expected mapping function"):
        IndexMap.from_func(lambda i: ["x"])
    with pytest.raises(ValueError, match="AXIS_SEPARATOR"):
        IndexMap.from_func(lambda i, j: [i, IndexMap.AXIS_SEPARATOR, j])
    m, seps = IndexMap.from_func_with_separators(lambda i, j: [i, IndexMap.AXIS_SEPARATOR, j])
    assert seps == [1] and len(m.final_indices) == 2


def test_map_ndarray():
    m = IndexMap.from_func(lambda i: [i // 4, i % 4])
    np.testing.assert_equal(m.map_ndarray(np.arange(16)), np.arange(16).reshape(4, 4))
    arr = np.random.default_rng(0).standard_normal((2, 3, 4, 5))
    t = IndexMap.from_func(lambda i0, i1, i2, i3: (i3, i0, i1, i2))
    np.testing.assert_equal(t.map_ndarray(arr), np.transpose(arr, (3, 0, 1, 2)))


def test_prints_and_parses_back():
    m = IndexMap.from_func(lambda i, j: (j, i // 4, i % 4), inverse_index_map=lambda a, b, c: (
        b * 4 + c, a))
    text = m.script()
    assert text == ("T.index_map(lambda i, j: (j, i // T.int64(4), i % T.int64(4),), "
                    "inverse_index_map=lambda a, b, c: (b * T.int64(4) + c, a,))")
    src = ("from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((4,), 'float32')):\n"
           f"    T.func_attr({{'layout': {text}}})\n    A[0] = T.float32(1)\n")
    parsed = from_source(src).attrs["layout"]
    assert structural_equal(parsed, m)
    assert parsed.script() == text
