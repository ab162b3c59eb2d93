"""Tensors and operations of the tensor-expression language (mirrors ``tvm.te.Tensor``,
``tvm.te.placeholder``, ``tvm.te.compute``, ``tvm.te.extern``).

A :class:`Tensor` is one output of an :class:`Operation`: a :class:`PlaceholderOp` (an input), a
:class:`ComputeOp` (an expression of its indices, possibly a reduction) or an :class:`ExternOp`
(a statement writing its outputs). ``A[i, j]`` reads a tensor; it is a ``BufferLoad`` of the
tensor's buffer, the buffer :func:`~tirkit.te.create_prim_func` gives that tensor.

Shapes are tuples of PrimExprs: Python ints become ``int32`` constants (``int64`` when they do
not fit), as in TVM; an axis var takes its dimension's dtype.
"""
from __future__ import annotations

import inspect
import weakref
from typing import Any, Callable, Sequence

from tirkit import tir
from tirkit.ir.expr import PrimExpr, Range
from tirkit.tir.stmt_functor import post_order_visit

__all__ = ["Tensor", "Operation", "PlaceholderOp", "ComputeOp", "ExternOp", "placeholder",
           "compute", "extern", "var", "size_var", "const", "tensor_of_buffer"]

_BY_BUFFER: "weakref.WeakValueDictionary[int, Tensor]" = weakref.WeakValueDictionary()


def _dim(value: Any) -> PrimExpr:
    if isinstance(value, bool) or not isinstance(value, (int, PrimExpr)):
        raise TypeError(f"a shape dimension must be an int or an integer PrimExpr, got "
                        f"{value!r}")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"a shape dimension must be >= 0, got {value}")
        return tir.const(value, "int32" if -2**31 <= value < 2**31 else "int64")
    if not value.dtype.is_int() and not value.dtype.is_uint():
        raise TypeError(f"a shape dimension must be an integer expression, got {value.dtype}")
    return value


def as_shape(shape: Any) -> tuple[PrimExpr, ...]:
    """A TE shape: a tuple of integer PrimExprs.

    Raises:
        TypeError: for a dimension that is not an int or an integer PrimExpr.
    """
    if isinstance(shape, (int, PrimExpr)):
        shape = (shape,)
    return tuple(_dim(d) for d in shape)


class Operation:
    """Base of TE operations (``tvm.te.Operation``): ``name``, ``tag``, ``attrs`` and the
    tensors it produces (``op.output(i)``)."""

    def __init__(self, name: str, tag: str = "", attrs: dict[str, Any] | None = None) -> None:
        self.name, self.tag, self.attrs = name, tag, dict(attrs or {})
        self.outputs: list[Tensor] = []

    @property
    def num_outputs(self) -> int:
        """Number of output tensors."""
        return len(self.outputs)

    def output(self, index: int) -> "Tensor":
        """The ``index``-th output tensor (``Operation.output``)."""
        return self.outputs[index]

    @property
    def input_tensors(self) -> list["Tensor"]:
        """Tensors this operation reads (``Operation.input_tensors``)."""
        return []


class PlaceholderOp(Operation):
    """An input tensor (``tvm.te.PlaceholderOp``)."""


class ComputeOp(Operation):
    """``out[axis] = body`` (``tvm.te.ComputeOp``): ``axis`` the spatial IterVars, ``body`` one
    expression per output (a ``tir.Reduce`` for reductions), ``reduce_axis`` its reduce
    IterVars."""

    def __init__(self, name: str, tag: str, attrs: dict[str, Any] | None,
                 axis: Sequence[tir.IterVar], body: Sequence[PrimExpr]) -> None:
        super().__init__(name, tag, attrs)
        self.axis, self.body = tuple(axis), tuple(body)
        first = self.body[0]
        self.reduce_axis = tuple(first.axis) if isinstance(first, tir.Reduce) else ()
        # Strong references, taken while the tensors read are certainly alive: the body holds
        # only their buffers, and _BY_BUFFER only weak references, so an intermediate tensor
        # (softmax's maxelem) nothing else holds would vanish at the next cyclic GC and
        # create_prim_func would drop its computation and alloc_buffer (TVM's ProducerLoad
        # holds the tensor itself).
        self._inputs = tuple(_tensors_read(self.body))

    @property
    def input_tensors(self) -> list["Tensor"]:
        return list(self._inputs)


class ExternOp(Operation):
    """Outputs written by a statement (``tvm.te.ExternOp``): ``body`` reads the input tensors'
    buffers and writes the outputs' buffers."""

    def __init__(self, name: str, tag: str, attrs: dict[str, Any] | None,
                 inputs: Sequence["Tensor"], body: Any) -> None:
        super().__init__(name, tag, attrs)
        self.inputs, self.body = list(inputs), body

    @property
    def input_tensors(self) -> list["Tensor"]:
        return list(self.inputs)


class Tensor:
    """One output of an operation (``tvm.te.Tensor``): ``shape``, ``dtype``, ``op``,
    ``value_index``, ``name``, ``ndim``; ``A[i, j]`` reads it.

    Raises:
        IndexError: when indexed with the wrong number of indices.
    """

    def __init__(self, shape: Any, dtype: str, op: Operation, value_index: int,
                 name: str) -> None:
        self.shape = as_shape(shape)
        self.dtype = str(dtype)
        self.op, self.value_index, self.name = op, value_index, name
        self.buffer = tir.decl_buffer(self.shape, self.dtype, name=name)
        _BY_BUFFER[id(self.buffer)] = self

    @property
    def ndim(self) -> int:
        """The rank."""
        return len(self.shape)

    def __iter__(self) -> Any:
        """Not iterable (``t[i]`` indexes): without this Python would iterate ``t[0], t[1], ...``
        through ``__getitem__`` without end."""
        raise TypeError(f"tensor {self.name!r} is not iterable")

    def __getitem__(self, indices: Any) -> PrimExpr:
        if not isinstance(indices, tuple):
            indices = (indices,)
        flat: list[Any] = []
        for i in indices:
            flat.extend(i if isinstance(i, (list, tuple)) else [i])
        if len(flat) != self.ndim:
            raise IndexError(f"tensor {self.name!r} has {self.ndim} dimensions, indexed with "
                             f"{len(flat)}")
        index = [tir.convert(i) if isinstance(i, int) else i.var if isinstance(i, tir.IterVar)
                 else i for i in flat]
        for i in index:
            if not isinstance(i, PrimExpr) or not (i.dtype.is_int() or i.dtype.is_uint()):
                raise TypeError(f"tensor {self.name!r} is indexed with {i!r}: an index must be "
                                "an int or an integer PrimExpr")
        return tir.BufferLoad(self.buffer, index)

    def __repr__(self) -> str:
        return f"Tensor(shape={list(self.shape)}, op.name={self.op.name})"


def tensor_of_buffer(buf: tir.Buffer) -> Tensor | None:
    """The tensor whose buffer ``buf`` is, if any."""
    return _BY_BUFFER.get(id(buf))


def _tensors_read(exprs: Sequence[Any]) -> list[Tensor]:
    found: list[Tensor] = []
    seen: set[int] = set()

    def visit(node: Any) -> None:
        if isinstance(node, tir.BufferLoad) and id(node.buffer) not in seen:
            seen.add(id(node.buffer))
            t = tensor_of_buffer(node.buffer)
            if t is not None:
                found.append(t)

    for e in exprs:
        post_order_visit(e, visit)
    return found


# ------------------------------------------------------------------------------- builders
def var(name: str = "tindex", dtype: str = "int32") -> tir.Var:
    """A scalar variable (``te.var``)."""
    return tir.Var(name, dtype)


def size_var(name: str = "size", dtype: str = "int32") -> tir.SizeVar:
    """A non-negative scalar variable (``te.size_var``)."""
    return tir.SizeVar(name, dtype)


def const(value: Any, dtype: str = "int32") -> PrimExpr:
    """A constant (``te.const``)."""
    return tir.const(value, dtype)


def placeholder(shape: Any, dtype: str = "float32", name: str = "placeholder") -> Tensor:
    """An input tensor of ``shape`` and ``dtype`` (``te.placeholder``)."""
    op = PlaceholderOp(name)
    t = Tensor(shape, dtype, op, 0, name)
    op.outputs.append(t)
    return t


def _axis_names(fcompute: Callable[..., Any], ndim: int) -> list[str]:
    try:
        params = list(inspect.signature(fcompute).parameters.values())
    except (TypeError, ValueError):
        params = []
    if len(params) == 1 and params[0].kind == inspect.Parameter.VAR_POSITIONAL:
        return [f"i{k}" for k in range(ndim)]
    names = [p.name for p in params if p.kind in (inspect.Parameter.POSITIONAL_ONLY,
                                                  inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    if len(names) != ndim:
        raise ValueError(f"te.compute: the function takes {len(names)} indices but the shape "
                         f"has {ndim} dimensions")
    return names


def compute(shape: Any, fcompute: Callable[..., Any], name: str = "compute", tag: str = "",
            attrs: dict[str, Any] | None = None) -> Any:
    """A tensor whose element at ``index`` is ``fcompute(*index)`` (``te.compute``); a tuple of
    expressions gives several outputs (a list of tensors); a reduction (``te.sum(...)``) makes a
    reduction.

    Raises:
        ValueError: when ``fcompute``'s arity differs from the rank of ``shape``.
    """
    dims = as_shape(shape)
    axis = [tir.IterVar(Range(tir.const(0, d.dtype), d), tir.Var(n, d.dtype),
                        tir.IterVarType.DataPar)
            for n, d in zip(_axis_names(fcompute, len(dims)), dims)]
    body = fcompute(*[iv.var for iv in axis])
    bodies = list(body) if isinstance(body, (list, tuple)) else [body]
    bodies = [tir.convert(b) if not isinstance(b, PrimExpr) else b for b in bodies]
    op = ComputeOp(name, tag, attrs, axis, bodies)
    for k, b in enumerate(bodies):
        tname = name if len(bodies) == 1 else f"{name}_v{k}"
        op.outputs.append(Tensor(dims, str(b.dtype), op, k, tname))
    return op.outputs[0] if len(bodies) == 1 else list(op.outputs)


def extern(shape: Any, inputs: Sequence[Tensor], fcompute: Callable[[list, list], Any],
           name: str = "extern", dtype: Any = None, tag: str = "",
           attrs: dict[str, Any] | None = None) -> Any:
    """Outputs computed by a statement (``te.extern``): ``fcompute(ins, outs)`` receives the
    input and output buffers and returns a ``tir.Stmt`` (or a PrimExpr, evaluated).
    ``shape`` is one shape or a list of shapes; ``dtype`` one dtype or a list (default: the
    first input's)."""
    shapes = [shape] if shape and not isinstance(shape[0], (list, tuple)) else list(shape)
    dtypes = dtype if isinstance(dtype, (list, tuple)) else \
        [dtype or (inputs[0].dtype if inputs else "float32")] * len(shapes)
    op = ExternOp(name, tag, attrs, inputs, None)
    for k, (s, d) in enumerate(zip(shapes, dtypes)):
        op.outputs.append(Tensor(s, d, op, k, name if len(shapes) == 1 else f"{name}_v{k}"))
    body = fcompute([t.buffer for t in inputs], [t.buffer for t in op.outputs])
    op.body = tir.Evaluate(body) if isinstance(body, PrimExpr) else body
    return op.outputs[0] if len(shapes) == 1 else list(op.outputs)
