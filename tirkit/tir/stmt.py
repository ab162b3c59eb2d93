"""TIR statements (mirrors ``tvm.tir.stmt``), including TensorIR's Block and BlockRealize."""
from __future__ import annotations

from enum import IntEnum
import sys as _sys
from typing import Any, Iterable

from .. import _layers
from ..ir.dtype import dtype as _dtype
from ..ir.expr import DTypeField, ExprField, ExprLike, ExprsField, IntImm, PrimExpr, Range
from ..ir.node import AttrsField, Coerced, Node, TupleOf, coerced_field, def_field, node
from .buffer import Buffer
from .expr import IterVar, StringImm, Var

# Buffer (tirkit.tir.buffer, imported above) builds BufferRegion / BufferStore of this module
_layers.provide("tir.stmt", _sys.modules[__name__])


def _set(obj: Any, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


def _expr(value: Any, dtype: Any = None) -> PrimExpr:
    if isinstance(value, PrimExpr):
        return value  # what convert returns for it, without the relative import per node
    from .op import convert  # pylint: disable=import-outside-toplevel

    return convert(value, dtype)


def _true() -> PrimExpr:
    return IntImm("bool", 1)


@node
class Stmt(Node):
    """Base of all statements (mirrors ``tvm.tir.Stmt``)."""

    def __hash__(self) -> int:
        return object.__hash__(self)


@node
class LetStmt(Stmt):
    """``var = value`` scoped over ``body`` (mirrors ``tvm.tir.LetStmt``).

    Raises:
        TypeError: when ``value``'s dtype differs from ``var``'s.
    """

    var: Var = def_field()
    value: ExprField
    body: Stmt

    def __post_init__(self) -> None:
        value = _expr(self.value, self.var.dtype)
        if value.dtype != self.var.dtype:
            raise TypeError(f"LetStmt: value dtype {value.dtype} differs from var "
                            f"{self.var.name_hint!r} dtype {self.var.dtype}")
        _set(self, "value", value)


@node
class AttrStmt(Stmt):
    """Annotate ``body`` with ``attr_key = value`` about ``node`` (mirrors ``tvm.tir.AttrStmt``).

    ``node`` is any IR object (an IterVar for ``thread_extent``, a Var, a Buffer, a StringImm).
    """

    node: Any
    attr_key: str
    value: ExprField
    body: Stmt

    def __post_init__(self) -> None:
        _set(self, "value", _expr(self.value))


@node
class AssertStmt(Stmt):
    """Check ``condition`` or fail with ``message`` before ``body`` (``tvm.tir.AssertStmt``;
    TVM 0.27's ``tvm.tirx.AssertStmt`` adds the error kind and the message parts, tirx
    ``assert cond, ("ValueError", ["part", "part"])``, kept here as ``error_kind`` and
    ``message_parts``).

    ``message_parts`` is ``()`` for a message in one part (the form every classic assert has);
    with two or more, ``message`` is their concatenation. ``error_kind`` is a Python exception
    name (``"RuntimeError"``, the default, ``"ValueError"``...).

    Raises:
        TypeError: for an error kind or a message part that is not a string.
    """

    condition: ExprField
    message: Coerced[PrimExpr, PrimExpr | str]
    body: Stmt
    error_kind: str = "RuntimeError"
    message_parts: TupleOf[str] = coerced_field(default=())

    def __post_init__(self) -> None:
        _set(self, "condition", _expr(self.condition))
        parts = tuple(self.message_parts)
        if not isinstance(self.error_kind, str) or not all(isinstance(m, str) for m in parts):
            raise TypeError("AssertStmt: the error kind and the message parts are strings, got "
                            f"{self.error_kind!r}, {parts!r}")
        if len(parts) == 1:  # one part is the message itself
            _set(self, "message", parts[0])
            parts = ()
        elif parts:
            _set(self, "message", "".join(parts))
        _set(self, "message_parts", parts)
        if isinstance(self.message, str):
            _set(self, "message", StringImm(self.message))

    @property
    def error_message(self) -> str:
        """The message text a failure reports: the message, after ``"Kind: "`` when the kind is
        not ``RuntimeError`` (what TVM 0.27 raises as that exception type); ``""`` when the
        message is not a string."""
        text = self.message.value if isinstance(self.message, StringImm) else ""
        return text if self.error_kind == "RuntimeError" else f"{self.error_kind}: {text}"


@node
class BufferStore(Stmt):
    """``buffer[indices] = value`` (mirrors ``tvm.tir.BufferStore``).

    Python numbers take the buffer's dtype. ``predicate`` (bool vector or None) masks lanes.

    Raises:
        ValueError: when the number of indices differs from the buffer's rank;
        TypeError: when ``value``'s element dtype differs from the buffer's.
    """

    buffer: Buffer
    value: ExprField
    indices: Coerced[tuple[PrimExpr, ...], Iterable[ExprLike] | ExprLike]
    predicate: PrimExpr | None = None

    def __post_init__(self) -> None:
        indices = self.indices
        if isinstance(indices, (PrimExpr, int)):
            indices = (indices,)
        indices = tuple(_expr(i) for i in indices)
        if len(indices) != len(self.buffer.shape) and self.buffer.shape:
            raise ValueError(f"buffer {self.buffer.name!r} has {len(self.buffer.shape)} "
                             f"dimension(s) but {len(indices)} index(es) are given")
        value = _expr(self.value, self.buffer.dtype)
        if value.dtype.element_of() != self.buffer.dtype.element_of():
            raise TypeError(f"BufferStore to {self.buffer.name!r}: value dtype {value.dtype} "
                            f"differs from buffer dtype {self.buffer.dtype}")
        _set(self, "indices", indices)
        _set(self, "value", value)


@node
class BufferRealize(Stmt):
    """Realize ``buffer`` over ``bounds`` for ``body`` (mirrors ``tvm.tir.BufferRealize``)."""

    buffer: Buffer
    bounds: TupleOf[Range]
    condition: ExprField
    body: Stmt

    def __post_init__(self) -> None:
        _set(self, "bounds", tuple(self.bounds))
        _set(self, "condition", _expr(self.condition))


def _annotations(value: Any) -> dict[str, Any]:
    return dict(value or {})


@node
class Allocate(Stmt):
    """Allocate ``extents`` elements of ``dtype`` bound to ``buffer_var`` (``tvm.tir.Allocate``).

    ``buffer_var`` is a handle Var whose ``PointerType`` carries the storage scope.
    """

    buffer_var: Var = def_field()
    dtype: DTypeField
    extents: ExprsField
    condition: ExprField
    body: Stmt
    annotations: AttrsField = coerced_field(default_factory=dict)

    def __post_init__(self) -> None:
        _set(self, "dtype", _dtype(self.dtype))
        _set(self, "extents", tuple(_expr(e) for e in self.extents))
        _set(self, "condition", _expr(self.condition))
        _set(self, "annotations", _annotations(self.annotations))


@node
class AllocateConst(Stmt):
    """A constant array of ``dtype``/``extents`` bound to ``buffer_var`` (``tvm.tir.AllocateConst``).

    ``data`` is a NumPy array (or nested list) holding the values.
    """

    buffer_var: Var = def_field()
    dtype: DTypeField
    extents: ExprsField
    data: Any
    body: Stmt
    annotations: AttrsField = coerced_field(default_factory=dict)

    def __post_init__(self) -> None:
        _set(self, "dtype", _dtype(self.dtype))
        _set(self, "extents", tuple(_expr(e) for e in self.extents))
        _set(self, "annotations", _annotations(self.annotations))


@node
class DeclBuffer(Stmt):
    """Declare ``buffer`` (a view over an existing data pointer) for ``body`` (``tvm.tir.DeclBuffer``)."""

    buffer: Buffer = def_field()
    body: Stmt


@node
class SeqStmt(Stmt):
    """A sequence of statements (mirrors ``tvm.tir.SeqStmt``); see :meth:`flatten`."""

    seq: TupleOf[Stmt]

    def __post_init__(self) -> None:
        seq = tuple(self.seq)
        if any(isinstance(s, SeqStmt) for s in seq):  # canonical: no SeqStmt directly in another
            seq = tuple(x for s in seq for x in (s.seq if isinstance(s, SeqStmt) else (s,)))
        _set(self, "seq", seq)

    def __getitem__(self, i: int) -> Stmt:
        return self.seq[i]

    def __len__(self) -> int:
        return len(self.seq)

    @staticmethod
    def flatten(*stmts: Any) -> Stmt:
        """Join statements, splicing nested SeqStmts and dropping ``None``/no-op ``Evaluate(0)``;
        one statement is returned as is (``SeqStmt::Flatten``)."""
        out: list[Stmt] = []
        _flatten_into(stmts, out)
        if not out:
            return Evaluate(0)
        return out[0] if len(out) == 1 else SeqStmt(out)


def _flatten_into(items: Iterable[Any], out: list[Stmt]) -> None:
    for s in items:
        if s is None:
            continue
        if isinstance(s, SeqStmt):
            _flatten_into(s.seq, out)
        elif isinstance(s, (list, tuple)):
            _flatten_into(s, out)
        elif isinstance(s, Evaluate) and isinstance(s.value, IntImm) and s.value.value == 0:
            continue
        else:
            out.append(s)


@node
class IfThenElse(Stmt):
    """``if condition: then_case else: else_case`` (mirrors ``tvm.tir.IfThenElse``).

    Raises:
        TypeError: when ``condition`` is not bool.
    """

    condition: ExprField
    then_case: Stmt
    else_case: Stmt | None = None

    def __post_init__(self) -> None:
        cond = _expr(self.condition)
        if not (cond.dtype.is_bool() or cond.dtype.is_int() or cond.dtype.is_uint()):
            # TVM's constructor takes any condition; an integer one (``if i:``) is parsed and
            # lowered as ``i != 0``, a float or handle one is refused here
            raise TypeError(f"IfThenElse: condition must be bool or an integer, got {cond.dtype}")
        _set(self, "condition", cond)


@node
class Evaluate(Stmt):
    """Evaluate an expression for its side effects (mirrors ``tvm.tir.Evaluate``)."""

    value: ExprField

    def __post_init__(self) -> None:
        _set(self, "value", _expr(self.value))


class ForKind(IntEnum):
    """Kinds of ``For`` loops (mirrors ``tvm.tir.ForKind``)."""

    SERIAL = 0
    PARALLEL = 1
    VECTORIZED = 2
    UNROLLED = 3
    THREAD_BINDING = 4


@node
class For(Stmt):
    """``for (loop_var = min; loop_var < min + extent; loop_var += step): body`` (mirrors
    ``tvm.tir.For``; TVM 0.27 ``tvm.tirx.For`` with its optional ``step``).

    ``kind`` is a ``ForKind``; ``thread_binding`` an ``IterVar`` when ``kind`` is THREAD_BINDING;
    ``annotations`` a dict of loop annotations (``pragma_*``, ``software_pipeline_stage``...).
    ``min``/``extent``/``step`` ints take ``loop_var``'s dtype. ``step`` is ``None`` for the
    trivial step 1 (TVM 0.27: ``std::nullopt``); a loop with another step (``range(1, 128, 5)``
    in tirx TVMScript: min 1, extent 127, step 5) runs ``ceildiv(extent, step)`` iterations and
    is rewritten to a unit-step loop by ``CanonicalizeLoop``, the first stage of lowering.

    Raises:
        TypeError: when ``min``/``extent``/``step`` dtypes differ from ``loop_var``'s.
    """

    loop_var: Var = def_field()
    min: ExprField
    extent: ExprField
    kind: Coerced[ForKind, ForKind | int]
    body: Stmt
    thread_binding: IterVar | None = None
    annotations: AttrsField = coerced_field(default_factory=dict)
    step: PrimExpr | None = None

    def __post_init__(self) -> None:
        t = self.loop_var.dtype
        lo, ext = _expr(self.min, t), _expr(self.extent, t)
        step = None if self.step is None else _expr(self.step, t)
        if lo.dtype != t or ext.dtype != t or (step is not None and step.dtype != t):
            raise TypeError(f"For {self.loop_var.name_hint!r}: min/extent/step dtypes ({lo.dtype}, "
                            f"{ext.dtype}, {None if step is None else step.dtype}) differ from "
                            f"the loop var's {t}")
        _set(self, "min", lo)
        _set(self, "extent", ext)
        _set(self, "step", step)
        _set(self, "kind", ForKind(self.kind))
        _set(self, "annotations", _annotations(self.annotations))

    def has_trivial_step(self) -> bool:
        """True when the loop steps by 1: no ``step``, or the constant 1 (TVM 0.27
        ``ForNode::HasTrivialStep``)."""
        return self.step is None or (isinstance(self.step, IntImm) and self.step.value == 1)


@node
class While(Stmt):
    """``while condition: body`` (mirrors ``tvm.tir.While``)."""

    condition: ExprField
    body: Stmt

    def __post_init__(self) -> None:
        _set(self, "condition", _expr(self.condition))


@node
class Break(Stmt):
    """``break`` out of the innermost loop (TVM 0.27 tirx ``Break``)."""


@node
class Continue(Stmt):
    """``continue`` the innermost loop (TVM 0.27 tirx ``Continue``)."""


@node
class Prefetch(Stmt):
    """Prefetch hint for ``buffer`` over ``bounds`` (mirrors ``tvm.tir.Prefetch``)."""

    buffer: Buffer
    bounds: TupleOf[Range]

    def __post_init__(self) -> None:
        _set(self, "bounds", tuple(self.bounds))


@node
class BufferRegion(Node):
    """A rectangular region of ``buffer``: one ``Range`` per dimension (``tvm.tir.BufferRegion``).

    Raises:
        ValueError: when the number of ranges differs from the buffer's rank.
    """

    buffer: Buffer
    region: Coerced[tuple[Range, ...], Iterable[Range | ExprLike]]

    def __post_init__(self) -> None:
        region = tuple(r if isinstance(r, Range) else Range.from_min_extent(r, 1)
                       for r in self.region)
        if len(region) != len(self.buffer.shape):
            raise ValueError(f"BufferRegion of {self.buffer.name!r}: buffer has "
                             f"{len(self.buffer.shape)} dimension(s), got {len(region)} range(s)")
        _set(self, "region", region)

    def __hash__(self) -> int:
        return object.__hash__(self)

    @staticmethod
    def full_region(buffer: Buffer) -> "BufferRegion":
        """The region covering all of ``buffer`` (``BufferRegion.full_region``)."""
        return BufferRegion(buffer, [Range.from_min_extent(0, s) for s in buffer.shape])

    @staticmethod
    def from_point(buffer: Buffer, indices: Iterable[Any]) -> "BufferRegion":
        """The one-element region at ``indices`` (``BufferRegion.from_point``)."""
        return BufferRegion(buffer, [Range.from_min_extent(i, 1) for i in indices])


@node
class MatchBufferRegion(Node):
    """Bind a new ``buffer`` to a ``source`` region inside a block (``tvm.tir.MatchBufferRegion``)."""

    buffer: Buffer = def_field()
    source: BufferRegion

    def __hash__(self) -> int:
        return object.__hash__(self)


@node
class Block(Stmt):
    """A TensorIR block: the unit of scheduling (mirrors ``tvm.tir.Block``).

    ``iter_vars`` (IterVars with domains and kinds), ``reads``/``writes`` (BufferRegions),
    ``name_hint``, ``body``, ``init`` (the reduction init statement or None), ``alloc_buffers``,
    ``match_buffers`` (MatchBufferRegions), ``annotations``.
    """

    iter_vars: Coerced[tuple[IterVar, ...], Iterable[IterVar] | None] = def_field()
    reads: Coerced[tuple[BufferRegion, ...], Iterable[BufferRegion] | None]
    writes: Coerced[tuple[BufferRegion, ...], Iterable[BufferRegion] | None]
    name_hint: str
    body: Stmt
    init: Stmt | None = None
    alloc_buffers: Coerced[tuple[Buffer, ...], Iterable[Buffer] | None] = def_field(default=())
    match_buffers: Coerced[tuple[MatchBufferRegion, ...], Iterable[MatchBufferRegion] | None] = \
        coerced_field(default=())
    annotations: AttrsField = coerced_field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("iter_vars", "reads", "writes", "alloc_buffers", "match_buffers"):
            _set(self, name, tuple(getattr(self, name) or ()))
        _set(self, "annotations", _annotations(self.annotations))


@node
class BlockRealize(Stmt):
    """Execute ``block`` with its iter vars bound to ``iter_values`` when ``predicate`` holds
    (mirrors ``tvm.tir.BlockRealize``).

    Raises:
        ValueError: when the number of values differs from the block's iter vars;
        TypeError: when a value's dtype differs from its iter var's.
    """

    iter_values: ExprsField
    predicate: Coerced[PrimExpr, ExprLike | bool]
    block: Block

    def __post_init__(self) -> None:
        ivs = self.block.iter_vars
        values = tuple(_expr(v, iv.var.dtype) for v, iv in zip(self.iter_values, ivs))
        if len(tuple(self.iter_values)) != len(ivs):
            raise ValueError(f"BlockRealize of block {self.block.name_hint!r}: "
                             f"{len(ivs)} iter var(s), got {len(tuple(self.iter_values))} value(s)")
        for v, iv in zip(values, ivs):
            if v.dtype != iv.var.dtype:
                raise TypeError(f"BlockRealize of block {self.block.name_hint!r}: binding of "
                                f"{iv.var.name_hint!r} has dtype {v.dtype}, expected {iv.var.dtype}")
        _set(self, "iter_values", values)
        pred = self.predicate
        _set(self, "predicate", _true() if pred is True else _expr(pred))
