"""IndexMap: a mapping from multi-dimensional indices to other multi-dimensional indices
(mirrors ``tvm.tir.IndexMap``, ``src/tir/ir/index_map.cc``).

``IndexMap.from_func(lambda i, j: [j, i // 4, i % 4])`` records the lambda's parameters as
``initial_indices`` (Vars of ``index_dtype``) and its results as ``final_indices``. The map is
applied to indices (:meth:`IndexMap.map_indices`), to a buffer shape (:meth:`IndexMap.map_shape`)
and inverted over a region (:meth:`IndexMap.inverse`, :meth:`IndexMap.non_surjective_inverse`)
through the affine iterator maps of :mod:`tirkit.arith` (which provides them through
:mod:`tirkit._layers`: ``tirkit.arith`` imports ``tirkit.tir``). Padding (``i // 4, i % 4``
over 14 elements) is supported when each input enters divisions with a constant offset; a map
that mixes several inputs inside one padded division is reported as not invertible.
"""
from __future__ import annotations

import inspect
from math import lcm
from typing import Any, Callable, ClassVar, Iterable, Sequence

from .. import _layers
from ..ir.expr import ExprLike, IntImm, PrimExpr, Range
from ..ir.node import Coerced, Node, TupleOf, def_field, node, coerced_field
from . import expr as E
from . import op as tir_op
from .stmt_functor import post_order_visit, substitute

_REBUILD: dict[type, Callable[[Any, Any], PrimExpr]] = {
    E.Add: tir_op.add, E.Sub: tir_op.subtract, E.Mul: tir_op.multiply,
    E.FloorDiv: tir_op.floordiv, E.FloorMod: tir_op.floormod, E.Div: tir_op.truncdiv,
    E.Mod: tir_op.truncmod, E.Min: tir_op.min, E.Max: tir_op.max,
}


def _rebuild(e: PrimExpr, vmap: dict[int, PrimExpr]) -> PrimExpr:
    """Substitute vars, re-applying arithmetic with TVM's type promotion (a simple form of
    TVM's ``SubstituteWithDataTypeLegalization``)."""
    if isinstance(e, E.Var):
        return vmap.get(id(e), e)
    fn = _REBUILD.get(type(e))
    if fn is not None:
        return fn(_rebuild(e.a, vmap), _rebuild(e.b, vmap))  # type: ignore[attr-defined]
    return substitute(e, lambda v: vmap.get(id(v)))


def _analyzer(bindings: Sequence[tuple[E.Var, Range]] = ()) -> Any:
    ana = _layers.get("arith").Analyzer()
    for var, rng in bindings:
        ana.bind(var, rng)
    return ana


def _as_range(dim: Any) -> Range:
    if isinstance(dim, Range):
        return dim
    dim = tir_op.convert(dim)
    return Range.from_min_extent(IntImm(dim.dtype, 0), dim)


def _param_names(fn: Callable[..., Any]) -> tuple[list[str], str | None, list[str]]:
    names = getattr(fn, "__tirkit_params__", None)  # a lambda of the TVMScript evaluator
    if names is not None:
        return list(names), None, []
    args, kwonly, star = [], [], None
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            args.append(name)
        elif param.kind == param.VAR_POSITIONAL:
            star = name
        elif param.kind == param.KEYWORD_ONLY:
            kwonly.append(name)
        else:
            raise ValueError("transform_layout mapping may not have **kwargs")
    return args, star, kwonly


@node
class IndexMap(Node):
    """A mapping from indices to indices (mirrors ``tvm.tir.IndexMap``).

    ``initial_indices``: the Vars standing for the indices before remapping (a definition point:
    structural equality matches them by position); ``final_indices``: PrimExprs of them after
    remapping; ``inverse_index_map``: an optional user-given inverse, returned by
    :meth:`inverse` unchecked (as in TVM). Printed as ``T.index_map(lambda i, j: (...))``.
    """

    initial_indices: TupleOf[E.Var] = def_field()
    final_indices: Coerced[tuple[PrimExpr, ...], Iterable[ExprLike]]
    inverse_index_map: Coerced[IndexMap | None, IndexMap | Callable[..., Any] | None] = \
        coerced_field(default=None)

    AXIS_SEPARATOR: ClassVar[str] = "axis_separator"

    def __post_init__(self) -> None:
        inv = self.inverse_index_map
        if inv is not None and not isinstance(inv, IndexMap):
            inv = IndexMap.from_func(inv)
        object.__setattr__(self, "initial_indices", tuple(self.initial_indices))
        object.__setattr__(self, "final_indices",
                           tuple(tir_op.convert(e) for e in self.final_indices))
        object.__setattr__(self, "inverse_index_map", inv)

    def __hash__(self) -> int:
        return object.__hash__(self)

    def __str__(self) -> str:
        return self.script()

    # -- construction ---------------------------------------------------------------------
    @staticmethod
    def from_func(mapping_function: Callable[..., Any], ndim: int | None = None,
                  inverse_index_map: "Callable[..., Any] | IndexMap | None" = None, *,
                  index_dtype: str = "int64") -> "IndexMap":
        """An IndexMap from a Python function of index Vars (``IndexMap.from_func``).

        The function takes one Var (dtype ``index_dtype``) per parameter (``*args`` gets
        ``ndim`` minus the named ones) and returns a PrimExpr or a list of them.

        Raises:
            ValueError: when the function uses ``*args`` without ``ndim``, or returns
                ``IndexMap.AXIS_SEPARATOR`` (use :meth:`from_func_with_separators`).
            TypeError: when it returns something that is not a PrimExpr.
        """
        index_map, seps = IndexMap.from_func_with_separators(
            mapping_function, ndim, inverse_index_map, index_dtype=index_dtype)
        if seps:
            raise ValueError("The mapping_function provided to IndexMap.from_func may not return "
                             "IndexMap.AXIS_SEPARATOR; use IndexMap.from_func_with_separators")
        return index_map

    @staticmethod
    def from_func_with_separators(
            mapping_function: Callable[..., Any], ndim: int | None = None,
            inverse_index_map: "Callable[..., Any] | IndexMap | None" = None, *,
            index_dtype: str = "int64") -> "tuple[IndexMap, list[int]]":
        """Like :meth:`from_func`, also returning the positions of ``IndexMap.AXIS_SEPARATOR``
        in the result list (``IndexMap.from_func_with_separators``).

        Raises:
            ValueError / TypeError: as :meth:`from_func`.
        """
        names, star, kwonly = _param_names(mapping_function)
        args = [E.Var(n, index_dtype) for n in names]
        kwargs = {n: E.Var(n, index_dtype) for n in kwonly}
        if star is not None:
            if ndim is None:
                raise ValueError("ndim must be specified when *args is used")
            args += [E.Var(f"{star}_{i}", index_dtype) for i in range(ndim - len(args) - len(kwargs))]
        mapping = mapping_function(*args, **kwargs)
        final: list[PrimExpr] = []
        seps: list[int] = []
        for val in (mapping if isinstance(mapping, (list, tuple)) else [mapping]):
            if isinstance(val, str) and val == IndexMap.AXIS_SEPARATOR:
                seps.append(len(final))
            elif isinstance(val, (PrimExpr, int, float)) and not isinstance(val, bool):
                final.append(tir_op.convert(val, index_dtype if isinstance(val, int) else None))
            else:
                raise TypeError("Expected mapping function to return list of either PrimExpr or "
                                f"IndexMap.AXIS_SEPARATOR. Instead received {val!r} of type "
                                f"{type(val).__name__}.")
        return IndexMap(args + list(kwargs.values()), final, inverse_index_map), seps

    # -- application ----------------------------------------------------------------------
    def map_indices(self, indices: Sequence[PrimExpr | int]) -> list[PrimExpr]:
        """Apply the map to ``indices`` (``IndexMap.map_indices``): one PrimExpr per final
        index, simplified; an index of a wider dtype widens the result.

        Raises:
            ValueError: when the number of indices differs from ``len(initial_indices)``.
        """
        self._check_arity(indices, "indices")
        vmap = {id(v): tir_op.convert(i, v.dtype if isinstance(i, int) else None)
                for v, i in zip(self.initial_indices, indices)}
        ana = _analyzer()
        return [ana.simplify(_rebuild(e, vmap)) for e in self.final_indices]

    def map_ranges(self, ranges: Sequence[Range]) -> list[Range]:
        """The ranges the final indices cover when the initial ones sweep ``ranges``
        (``IndexMapNode::MapRanges``); padding is rounded up as TVM does (``i // 4, i % 4``
        over 14 gives ``[0, 4), [0, 4)``).

        Raises:
            ValueError: when the number of ranges differs from ``len(initial_indices)``.
        """
        self._check_arity(ranges, "ranges")
        ranges = [_as_range(r) for r in ranges]
        out = _affine_ranges(self, ranges) or _interval_ranges(self, ranges)
        bits = max((r.extent.dtype.bits for r in ranges), default=32)
        t = f"int{bits}"
        return [Range.from_min_extent(tir_op.cast(t, r.min), tir_op.cast(t, r.extent)) for r in out]

    def map_shape(self, shape: Sequence[PrimExpr | int]) -> list[PrimExpr]:
        """The buffer shape after the map (``IndexMap.map_shape``): ``i // 4, i % 4`` maps
        ``[16]`` to ``[4, 4]`` and ``[14]`` to ``[4, 4]`` (padded).

        Raises:
            ValueError: when the rank differs from ``len(initial_indices)``, or a mapped range
                does not start at 0.
        """
        self._check_arity(shape, "shape")
        ranges = [_as_range(d) for d in shape]
        out = []
        for r in self.map_ranges(ranges):
            if not (isinstance(r.min, IntImm) and r.min.value == 0):
                raise ValueError(f"IndexMap.map_shape: mapped range {r} does not start at 0")
            out.append(r.extent)
        return out

    def map_ndarray(self, arr_src: Any) -> Any:
        """Apply the map to a NumPy array's layout (``IndexMap.map_ndarray``): element ``x`` of
        the source lands at ``map_indices(x)`` of an array of shape ``map_shape(arr.shape)``.

        Raises:
            ValueError: when the array's rank differs from ``len(initial_indices)``.
        """
        import numpy as np  # pylint: disable=import-outside-toplevel

        arr_src = np.asarray(arr_src)
        self._check_arity(arr_src.shape, "array dimensions")
        # (constant shapes map to IntImms)
        dst_shape = [int(d.value) for d in  # type: ignore[attr-defined]
                     self.map_shape([int(s) for s in arr_src.shape])]
        out = np.zeros(dst_shape, dtype=arr_src.dtype)
        for src in np.ndindex(*arr_src.shape):
            dst = self.map_indices([IntImm("int64", int(x)) for x in src])
            out[tuple(int(d.value) for d in dst)] = arr_src[src]  # type: ignore[attr-defined]
        return out

    # -- inversion ------------------------------------------------------------------------
    def inverse(self, shape: Sequence[Range | PrimExpr | int]) -> "IndexMap":
        """The inverse map over the region ``shape`` (``IndexMap.inverse``); a pre-defined
        ``inverse_index_map`` is returned as is.

        Raises:
            ValueError: when the map is not bijective over ``shape`` (padding included).
        """
        inverse_impl = _layers.get("index_map_inverse")  # (it imports this module)
        inv, pred = inverse_impl(self, [_as_range(d) for d in shape], bijective=True)
        if not _analyzer().can_prove(tir_op.logical_not(pred)):
            raise ValueError(f"Bijective inverse should not contain padding, but inverse of "
                             f"{self} resulted in a padding predicate of {pred.script()}")
        return inv

    def non_surjective_inverse(self, shape: Sequence[Range | PrimExpr | int]
                               ) -> "tuple[IndexMap, PrimExpr]":
        """The inverse of a map that may introduce padding, and the predicate that is true on
        the padding (``IndexMap.non_surjective_inverse``): ``i // 4, i % 4`` over ``[14]`` gives
        ``lambda axis0, axis1: (axis0 * 4 + axis1,)`` and ``14 <= axis0 * 4 + axis1``.

        Raises:
            ValueError: when the map is not an affine map of its indices.
        """
        inverse_impl = _layers.get("index_map_inverse")  # (it imports this module)
        return inverse_impl(self, [_as_range(d) for d in shape], bijective=False)

    def is_equivalent_to(self, other_map: "IndexMap") -> bool:
        """Whether both maps give provably equal final indices (``IndexMap.is_equivalent_to``)."""
        if len(self.initial_indices) != len(other_map.initial_indices) \
                or len(self.final_indices) != len(other_map.final_indices):
            return False
        ana = _analyzer()
        mapped = other_map.map_indices(list(self.initial_indices))
        return all(ana.can_prove_equal(a, b) for a, b in zip(self.final_indices, mapped))

    def _check_arity(self, items: Sequence[Any], what: str) -> None:
        if len(items) != len(self.initial_indices):
            raise ValueError(f"IndexMap takes {len(self.initial_indices)} indices, got "
                             f"{len(items)} {what}")


def _affine_ranges(imap: IndexMap, ranges: list[Range]) -> list[Range] | None:
    detect_iter_map = _layers.get("arith").detect_iter_map
    for padded in (ranges, padded_ranges(imap, ranges)):
        if padded is None:
            continue
        res = detect_iter_map(imap.final_indices, dict(zip(imap.initial_indices, padded)),
                              check_level="no_check", simplify_trivial_iterators=False)
        if not res.errors:
            out = []
            for index in res.indices:
                ext = tir_op.multiply(index.args[0].extent, index.args[0].scale) \
                    if index.args else IntImm(index.base.dtype, 1)
                out.append(Range.from_min_extent(index.base, ext))
            return out
    return None


def _interval_ranges(imap: IndexMap, ranges: list[Range]) -> list[Range]:
    eval_set = _layers.get("arith").eval_set
    ana = _analyzer()
    dom = dict(zip(imap.initial_indices, ranges))
    out = []
    for e in imap.final_indices:
        s = eval_set(e, dom)
        if not s.is_bounded():
            raise ValueError(f"IndexMap: the range of {e.script()} is unbounded")
        lo = ana.simplify(s.min_value)
        out.append(Range.from_min_extent(lo, ana.simplify(s.max_value - lo + 1)))
    return out


def padded_ranges(imap: IndexMap, ranges: list[Range]) -> list[Range] | None:
    """The input ranges widened so that every ``floordiv``/``floormod`` of an input by a
    constant divides evenly (no TVM counterpart: TVM's ``DetectIterMap`` pads internally).
    ``None`` when nothing needs padding or a range is not constant."""
    divisors: dict[int, list[tuple[int, PrimExpr]]] = {}

    def visit(n: Any) -> None:
        if isinstance(n, (E.FloorDiv, E.FloorMod)) and isinstance(n.b, IntImm) and n.b.value > 0:
            for v in imap.initial_indices:
                if _uses(n.a, v):
                    divisors.setdefault(id(v), []).append((n.b.value, n.a))

    for e in imap.final_indices:
        post_order_visit(e, visit)
    out, changed = [], False
    ana = _analyzer()
    mins = {id(v): r.min for v, r in zip(imap.initial_indices, ranges)}
    for v, r in zip(imap.initial_indices, ranges):
        uses = divisors.get(id(v))
        if not uses:
            out.append(r)
            continue
        if not (isinstance(r.min, IntImm) and isinstance(r.extent, IntImm)):
            return None
        step = lcm(*(d for d, _ in uses))
        linear = [a for _, a in uses if not _has_div(a)]
        base = ana.simplify(_rebuild(linear[0], mins)) if linear else None
        left = base.value % step if isinstance(base, IntImm) else 0
        total = -(-(r.extent.value + left) // step) * step
        changed |= left != 0 or total != r.extent.value
        dt = r.extent.dtype
        out.append(Range.from_min_extent(IntImm(dt, r.min.value - left), IntImm(dt, total)))
    return out if changed else None


def _has_div(e: PrimExpr) -> bool:
    found: list[bool] = []
    post_order_visit(e, lambda n: found.append(True)
                     if isinstance(n, (E.FloorDiv, E.FloorMod)) else None)
    return bool(found)


def _uses(e: PrimExpr, v: E.Var) -> bool:
    found: list[bool] = []
    post_order_visit(e, lambda n: found.append(True) if n is v else None)
    return bool(found)
