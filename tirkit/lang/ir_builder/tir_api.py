"""The TIR IRBuilder API: what ``T.xxx`` calls do while building (mirrors
``tvm.script.ir_builder.tir.ir``).

Scope functions return frames to use with ``with`` (or, through the parser's concise scoping, as
plain statements covering the rest of their block); others add to the innermost open frame.
Names given to loop vars, buffers and block iter vars are placeholders until the parser (or the
user, with :meth:`IRBuilder.name`) names them.
"""
from __future__ import annotations

from typing import Any, Sequence

from tirkit import tir
from tirkit.ir import PointerType, PrimExpr, PrimType, Range
from tirkit.ir.dtype import dtype as _dtype

from . import tir_frames as F
from .base import IRBuilder, ScriptError


_WHERE = {F.BlockFrame: "a block", F.PrimFuncFrame: "a prim_func"}


def _frame(kind: type, what: str) -> Any:
    frame = IRBuilder.current().find_frame(kind) if IRBuilder.is_in_scope() else None
    if frame is None:
        raise ScriptError(f"{what}() must be inside {_WHERE.get(kind, kind.__name__)}",
                          code="context")
    return frame


def _range(value: Any, dtype: Any = None) -> Range:
    if isinstance(value, Range):
        return value
    if isinstance(value, (tuple, list)):
        return Range(value[0], value[1])
    return Range.from_min_extent(tir.convert(0, dtype or getattr(value, "dtype", None)), value)


# ------------------------------------------------------------------------------- functions
def prim_func(is_private: bool = False) -> F.PrimFuncFrame:
    """Start a PrimFunc (mirrors ``T.prim_func`` in IRBuilder mode)."""
    return F.PrimFuncFrame(is_private)


def arg(name: str, obj: Any) -> Any:
    """Add a parameter (``T.arg``): a Var becomes a param, a Buffer a handle param bound to it in
    ``buffer_map``. Returns ``obj``.

    Raises:
        TypeError: for other objects.
    """
    frame = _frame(F.PrimFuncFrame, "T.arg")
    if isinstance(obj, tir.Var):
        IRBuilder.name(name, obj)
        frame.args.append(obj)
    elif isinstance(obj, tir.Buffer):
        IRBuilder.name(name, obj)
        handle = tir.Var(name, "handle")
        frame.args.append(handle)
        frame.buffer_map[handle] = obj
    else:
        raise TypeError(f"T.arg {name!r}: expected a Var or Buffer, got {type(obj).__name__}")
    return obj


def func_name(name: str) -> None:
    """Set the PrimFunc's name (``T.func_name``)."""
    _frame(F.PrimFuncFrame, "T.func_name").name = name


def func_attr(attrs: dict[str, Any]) -> None:
    """Set PrimFunc attributes (``T.func_attr``).

    Raises:
        ValueError: a ``global_symbol`` in a ``@T.prim_func(private=True)`` (TVM's message).
    """
    frame = _frame(F.PrimFuncFrame, "T.func_attr")
    if frame.is_private and "global_symbol" in attrs:
        raise ValueError('A private function may not have the kGlobalSymbol ("global_symbol") '
                         "attribute.  However, a private function specified the global symbol "
                         f'as "{attrs["global_symbol"]}"')
    frame.attrs = {**(frame.attrs or {}), **attrs}


def func_ret(ret_type: Any) -> Any:
    """Set the PrimFunc's return type (``T.func_ret``)."""
    _frame(F.PrimFuncFrame, "T.func_ret").ret_type = ret_type
    return ret_type


def buffer(shape: Any, dtype: Any = "float32", data: Any = None, strides: Any = None,
           elem_offset: Any = None, scope: str = "global", align: int = 0,
           offset_factor: int = 0, buffer_type: str = "", axis_separators: Any = None,
           span: Any = None) -> tir.Buffer:
    """Declare a buffer (``T.Buffer(...)``; mirrors ``tvm.script.ir_builder.tir.buffer``).

    ``shape`` in elements; ``dtype`` a dtype string; ``align`` in bytes (0 = 64).
    """
    if isinstance(shape, (int, PrimExpr)):
        shape = (shape,)
    idx = shape[0].dtype if shape and isinstance(shape[0], PrimExpr) else "int32"
    return tir.decl_buffer(shape, dtype, "", data, named_strides(strides, idx), elem_offset, scope,
                           align if align > 0 else -1, offset_factor,
                           _BUFFER_TYPES.get(buffer_type, buffer_type), axis_separators, span)


def named_strides(strides: Any, idx_dtype: Any = "int32") -> Any:
    """Strides given by name (``strides=("s0", "s1")``) become fresh Vars of ``idx_dtype``, as
    TVM's ir_builder makes them; other strides are returned as given."""
    if not isinstance(strides, (list, tuple)):
        return strides
    return [tir.Var(s, idx_dtype) if isinstance(s, str) else s for s in strides]


#: TVM's spellings of ``buffer_type`` (``BufferDecl``: "auto" or "default"/"" )
_BUFFER_TYPES = {"auto": "auto_broadcast", "default": ""}


def match_buffer(param: Any, shape: Any = None, dtype: Any = "float32", data: Any = None,
                 strides: Any = None, elem_offset: Any = None, scope: str = "global",
                 align: int = -1, offset_factor: int = 0, buffer_type: str = "default",
                 axis_separators: Any = None) -> tir.Buffer:
    """Bind a buffer to a handle param, or to a region inside a block (``T.match_buffer``).

    Raises:
        ValueError: when ``param`` is not a param of the function; TypeError for other objects.
    """
    if isinstance(param, tir.BufferLoad):
        param = tir.BufferRegion.from_point(param.buffer, param.indices)
    if shape is None and isinstance(param, tir.BufferRegion):
        shape = [r.extent for r in param.region]
    buf = buffer(shape, dtype, data, named_strides(strides), elem_offset, scope, align,
                 offset_factor, "" if buffer_type == "default" else buffer_type, axis_separators)
    if isinstance(param, tir.BufferRegion):
        _frame(F.BlockFrame, "T.match_buffer on a region").match_buffers.append(
            tir.MatchBufferRegion(buf, param))
        return buf
    if not isinstance(param, tir.Var):
        raise TypeError(f"T.match_buffer: expected a handle param or a buffer region, "
                        f"got {type(param).__name__}")
    frame = _frame(F.PrimFuncFrame, "T.match_buffer")
    if not any(param is a for a in frame.args):
        raise ValueError(f"T.match_buffer: {param.name_hint!r} is not a parameter")
    frame.buffer_map[param] = buf
    return buf


# ---------------------------------------------------------------------------------- blocks
def block(name: str = "", no_realize: bool = False) -> F.BlockFrame:
    """Start a block (``T.block`` / tirx ``T.sblock``).

    Raises:
        ScriptError: for the legacy ``T.block([extents], name) as [vi, ...]`` form.
    """
    if not isinstance(name, str):
        raise ScriptError("T.block takes the block's name; the `T.block([extents]) as [vi, ...]` "
                          "form is the legacy hybrid script: declare iter vars with "
                          "T.axis.spatial/reduce/remap inside the block", arg=0)
    return F.BlockFrame(name, no_realize)


def init() -> F.BlockInitFrame:
    """The reduction-init part of the enclosing block (``T.init``).

    Raises:
        ScriptError: outside a block.
    """
    _frame(F.BlockFrame, "T.init")
    return F.BlockInitFrame()


def where(predicate: Any) -> None:
    """Set the block's predicate (``T.where``)."""
    _frame(F.BlockFrame, "T.where").predicate = tir.convert(predicate)


def _regions(items: Sequence[Any]) -> list[tir.BufferRegion]:
    out = []
    for index, item in enumerate(items):
        if isinstance(item, (list, tuple)):
            out.extend(_regions(item))
        elif isinstance(item, tir.BufferLoad):
            out.append(tir.BufferRegion.from_point(item.buffer, item.indices))
        elif isinstance(item, tir.BufferRegion):
            out.append(item)
        elif isinstance(item, tir.Buffer):
            out.append(tir.BufferRegion.full_region(item))
        else:
            raise ScriptError(f"expected a buffer region such as A[i, 0:4], got "
                              f"{type(item).__name__}", arg=index)
    return out


def reads(*regions: Any) -> None:
    """Declare the regions the block reads (``T.reads``).

    Raises:
        ScriptError: outside a block, for a non-region argument, or when repeated.
    """
    frame = _frame(F.BlockFrame, "T.reads")
    if frame.reads is not None:
        raise ScriptError("duplicate T.reads in one block: list every region in one call")
    frame.reads = _regions(regions)


def writes(*regions: Any) -> None:
    """Declare the regions the block writes (``T.writes``).

    Raises:
        ScriptError: outside a block, for a non-region argument, or when repeated.
    """
    frame = _frame(F.BlockFrame, "T.writes")
    if frame.writes is not None:
        raise ScriptError("duplicate T.writes in one block: list every region in one call")
    frame.writes = _regions(regions)


def block_attr(attrs: dict[str, Any]) -> None:
    """Add block annotations (``T.block_attr`` / tirx ``T.sblock_attr``); a second call merges
    into the first as TVM 0.27's ``MergeAnnotations`` does: dict values recursively, a key
    given twice must have the same value.

    Raises:
        ValueError: for a key given two different values.
    """
    frame = _frame(F.BlockFrame, "T.block_attr")
    frame.annotations = _merge_annotations(dict(attrs), dict(frame.annotations or {}))


def _merge_annotations(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """TVM 0.27 ``MergeAnnotations(new_attrs, old_attrs)`` (including its argument order in the
    recursion, which only decides the order of the keys)."""
    out = dict(old)
    for key, value in new.items():
        if key not in old:
            out[key] = value
        elif isinstance(old[key], dict) and isinstance(value, dict):
            out[key] = _merge_annotations(old[key], value)
        elif not (old[key] is value or (type(old[key]) is type(value)
                                        and isinstance(value, (bool, int, float, str))
                                        and old[key] == value)):
            raise ValueError(f"Try to merge two annotations with different values for key "
                             f"`{key}`, previous one is {old[key]!r}, new one is {value!r}")
    return out


def alloc_buffer(shape: Any, dtype: Any = "float32", data: Any = None, strides: Any = None,
                 elem_offset: Any = None, scope: str = "global", align: int = -1,
                 offset_factor: int = 0, buffer_type: str = "default",
                 axis_separators: Any = None) -> tir.Buffer:
    """Allocate a buffer in the enclosing block, or in the root block at function level
    (``T.alloc_buffer``)."""
    buf = buffer(shape, dtype, data, named_strides(strides), elem_offset, scope, align,
                 offset_factor, "" if buffer_type == "default" else buffer_type, axis_separators)
    builder = IRBuilder.current()
    frame = builder.last_frame()
    block_frame = builder.find_frame(F.BlockFrame)
    if block_frame is not None:
        block_frame.alloc_buffers.append(buf)
    elif isinstance(frame, F.PrimFuncFrame) or builder.find_frame(F.PrimFuncFrame) is not None:
        _frame(F.PrimFuncFrame, "T.alloc_buffer").root_alloc_buffers.append(buf)
    else:
        raise RuntimeError("T.alloc_buffer must be used inside a block or a prim_func")
    return buf


class axis:  # pylint: disable=invalid-name
    """Block iter var declarations (``T.axis``): ``spatial``/``S``, ``reduce``/``R``, ``scan``,
    ``opaque``, ``remap``."""

    @staticmethod
    def _new(kind: tir.IterVarType, dom: Any, binding: Any, dtype: Any) -> tir.Var:
        frame = _frame(F.BlockFrame, "T.axis")
        binding = tir.convert(binding)
        dt = dtype or binding.dtype
        rng = _range(dom, dt)
        iv = tir.IterVar(rng, tir.Var("v", dt), kind)
        frame.iter_vars.append(iv)
        frame.iter_values.append(tir.cast(dt, binding))
        return iv.var

    @staticmethod
    def spatial(dom: Any, binding: Any, dtype: str | None = None) -> tir.Var:
        """A data-parallel block iter var over ``dom`` bound to ``binding`` (``T.axis.spatial``)."""
        return axis._new(tir.IterVarType.DataPar, dom, binding, dtype)

    @staticmethod
    def reduce(dom: Any, binding: Any, dtype: str | None = None) -> tir.Var:
        """A reduction block iter var (``T.axis.reduce``)."""
        return axis._new(tir.IterVarType.CommReduce, dom, binding, dtype)

    @staticmethod
    def scan(dom: Any, binding: Any, dtype: str | None = None) -> tir.Var:
        """An ordered (scan) block iter var (``T.axis.scan``)."""
        return axis._new(tir.IterVarType.Ordered, dom, binding, dtype)

    @staticmethod
    def opaque(dom: Any, binding: Any, dtype: str | None = None) -> tir.Var:
        """An opaque block iter var (``T.axis.opaque``)."""
        return axis._new(tir.IterVarType.DimInfo, dom, binding, dtype)

    S = spatial
    R = reduce

    @staticmethod
    def remap(kinds: str, bindings: Sequence[Any], dtype: str | None = None) -> Any:
        """Declare one iter var per character of ``kinds`` (``S`` spatial, ``R`` reduce), each
        over the domain of the loop var it is bound to (``T.axis.remap``).

        Raises:
            ValueError: when ``kinds`` and ``bindings`` differ in length or a binding is not
            the var of an enclosing loop.
        """
        if len(kinds) != len(bindings):
            raise ScriptError(f"T.axis.remap: {len(kinds)} kind(s) but {len(bindings)} "
                              "binding(s)")
        table = {"S": axis.spatial, "R": axis.reduce}
        bad = [k for k in kinds if k not in table]
        if bad:
            raise ScriptError(f"T.axis.remap: invalid iter kind {bad[0]!r} (expected 'S' for "
                              "spatial or 'R' for reduce)", arg=(0, "kinds"))
        doms = [_loop_dom(var, i) for i, var in enumerate(bindings)]
        out = [table[kind](dom, var, dtype) for kind, var, dom in zip(kinds, bindings, doms)]
        return out[0] if len(out) == 1 else out


def _loop_dom(var: Any, index: int) -> Range:
    for frame in reversed(IRBuilder.current().frames):
        if isinstance(frame, F.ForFrame):
            for v, dom in zip(frame.vars, frame.doms):
                if v is var:
                    return dom
    raise ScriptError("T.axis.remap: each binding must be a loop variable of an enclosing loop",
                      arg=(1, "bindings"), item=index)
