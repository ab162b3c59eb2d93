"""Binding of packed-function arguments to a PrimFunc's params and buffers (mirrors TVM v0.20
``src/tir/transforms/arg_binder.cc`` and ``MergeNest`` of ``ir_utils.cc``).

Not a pass: :class:`ArgBinder` is the helper :mod:`.make_packed_api` uses to turn each
``DLTensor*`` argument into ``LetStmt`` definitions (``init_nest``) and ``AssertStmt`` checks
(``asserts``) whose messages name the function, the argument and the violated constraint, exactly
as TVM words them (``"main.A.ndim is expected to equal 2"``, ``"Argument main.A.shape[0] has an
unsatisfied constraint: 128 == T.Cast(\\"int32\\", main_A_shape[0])"``).

Nest items are statements whose body is the no-op ``T.evaluate(0)``; :func:`merge_nest` stitches
them around a body.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from tirkit.arith import Analyzer
from tirkit.ir.dtype import DataType, dtype as _dtype
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.op import Op
from tirkit.printer import script
from tirkit import tir
from tirkit.tir import (EQ, AssertStmt, AttrStmt, Buffer, BufferLoad, Call, Cast, DeclBuffer,
                        Evaluate, IfThenElse, LetStmt, Not, SeqStmt, Stmt, StringImm, Var)

from ..runtime.abi import StructField

__all__ = ["ArgBinder", "merge_nest", "nop", "vector_bytes", "struct_get"]

_INT32 = _dtype("int32")
_ZERO = IntImm(_INT32, 0)


def nop(span: Any = None) -> Stmt:
    """``T.evaluate(0)``, the placeholder body of nest items (TVM's ``Evaluate(0)``); the
    constant is one shared node (dozens are made per function, most replaced at once)."""
    return Evaluate(_ZERO, span=span)


def struct_get(dtype: str, handle: Var, index: int, field: int, span: Any = None) -> PrimExpr:
    """``T.tvm_struct_get(handle, index, field, dtype)`` (TVM ``TVMStructGet``)."""
    t = _STRUCT_TYPES.get(dtype)
    if t is None:
        t = _STRUCT_TYPES[dtype] = _dtype(dtype)
    if not _STRUCT_OP:
        _STRUCT_OP.append(Op.get(_STRUCT_GET))
    return Call(t, _STRUCT_OP[0], (handle, IntImm(_INT32, index), IntImm(_INT32, int(field))),
                span=span)


#: the dtypes struct_get was asked for by name, and the tvm_struct_get op once looked up
_STRUCT_TYPES: dict[str, DataType] = {}
_STRUCT_OP: list[Any] = []


def vector_bytes(t: DataType) -> int:
    """Bytes of one element of ``t`` (TVM ``GetVectorBytes``): bool and 4-bit types count 1.

    Raises:
        ValueError: for a dtype that is not a whole number of bytes.
    """
    if (t.is_bool() or t.bits == 1 or t.bits == 4) and t.lanes == 1:
        return 1
    bits = t.bits * t.lanes
    if bits % 8:
        raise ValueError(f"expected a dtype of whole bytes, got {t}")
    return bits // 8


_SET_BODY: dict[type, Callable[[Any, Stmt], Stmt]] = {
    LetStmt: lambda s, b: s.with_changes(body=b),
    AttrStmt: lambda s, b: s.with_changes(body=b),
    AssertStmt: lambda s, b: s.with_changes(body=b),
    DeclBuffer: lambda s, b: s.with_changes(body=b),
    IfThenElse: lambda s, b: s.with_changes(then_case=b),
    SeqStmt: lambda s, b: SeqStmt((*s.seq[:-1], *(b.seq if isinstance(b, SeqStmt) else (b,))),
                                  span=s.span),
}


def merge_nest(nests: list[list[Stmt]], body: Stmt) -> Stmt:
    """Wrap ``body`` in the nest items, the first item outermost (TVM ``MergeNest``): each
    item's no-op body (a SeqStmt's last statement) is replaced by what follows.

    Raises:
        TypeError: for a nest item of a kind that has no body.
    """
    for item in reversed([s for nest in nests for s in nest]):
        setter = _SET_BODY.get(type(item))
        if setter is None:
            raise TypeError(f"merge_nest: expected a statement with a body, got "
                            f"{type(item).__name__}")
        body = setter(item, body)
    return body


def _is_const(e: PrimExpr, value: int) -> bool:
    return isinstance(e, IntImm) and e.value == value


def _index_type(t: DataType) -> bool:
    return t.is_int() and t.bits in (32, 64) and t.lanes == 1


def _tvm_simplify(analyzer: Analyzer, cond: PrimExpr) -> PrimExpr:
    """``Analyzer.simplify`` plus TVM's ``c1 == x -> x == c1`` rewrite on index types, which
    TVM's RewriteSimplifier applies and tirkit.arith does not."""
    known = known_simplify(cond)
    if known is not None:
        return known
    out = analyzer.simplify(cond)
    if (isinstance(out, EQ) and isinstance(out.a, IntImm) and not isinstance(out.b, IntImm)
            and _index_type(out.a.dtype)):
        out = EQ(out.b, out.a, span=out.span)
    return out


_STRUCT_GET = "tir.tvm_struct_get"
_DOTTED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


def _is(e: Any, cls: type) -> bool:
    """``e`` is exactly a ``cls`` (a subclass, such as SizeVar, may be known to the simplifier)."""
    return type(e) is cls  # pylint: disable=unidiomatic-typecheck


def _field_load(e: Any) -> bool:
    """``buf[k]``: a load of one element of a DLTensor field buffer (shape or strides), int64."""
    return (_is(e, BufferLoad) and e.predicate is None and len(e.indices) == 1
            and _is(e.indices[0], IntImm) and e.dtype == _I64)


def _shape_value(e: Any, t: DataType) -> bool:
    """``T.Cast(t, buf[k])`` (or ``buf[k]`` itself for int64): a shape entry as bind_dltensor
    reads it."""
    if _is(e, Cast):
        return e.dtype == t and _field_load(e.value)
    return t == _I64 and _field_load(e)


def _struct_get(e: Any, t: DataType) -> bool:
    """``T.tvm_struct_get(handle, 0, field, t)``."""
    return (_is(e, Call) and e.dtype == t and getattr(e.op, "name", None) == _STRUCT_GET
            and all(_is(a, Var) or _is(a, IntImm) for a in e.args))


_I64 = _dtype("int64")
_U64 = _dtype("uint64")


def known_simplify(cond: Any) -> PrimExpr | None:
    """What :func:`_tvm_simplify` makes of the checks :meth:`ArgBinder.bind_dltensor` adds
    most (a constant or a var compared with a DLTensor field: an opaque load or struct read
    the simplifier can decide nothing about), without running the simplifier; None for any
    other condition. The simplifier, with no fact known, keeps such a comparison as it is;
    on index types the constant then goes to the right. tests/compiler/test_arg_binder.py
    holds every form against the simplifier. No TVM counterpart (a C++ Simplify is cheap)."""
    if not _is(cond, EQ):
        return None
    a, b = cond.a, cond.b
    t = a.dtype
    if _is(a, IntImm):
        if _index_type(t) and (_shape_value(b, t) or _struct_get(b, t)):
            return EQ(b, a, span=cond.span)
        if t == _U64 and _struct_get(b, t):
            return cond
    elif _is(a, Var) and _index_type(t) and _struct_get(b, t):
        return cond
    return None


def known_message(cond: Any) -> str | None:
    """``script(cond)`` for the checks of :func:`known_simplify` (``1024 ==
    T.Cast("int32", f.A.shape[0])``, ``T.int64(1024) == f.A.shape[0]``, ``1 ==
    T.tvm_struct_get(A, 0, 10, "int32")``, ``dev_id == T.tvm_struct_get(B, 0, 9, "int32")``),
    written directly (the printer costs tens of microseconds a call); None for any other
    condition. tests/compiler/test_arg_binder.py holds every form against the printer."""
    if not _is(cond, EQ):
        return None
    a, b = cond.a, cond.b
    if _is(a, IntImm):
        lhs = str(a.value) if a.dtype == _INT32 else f"T.{a.dtype}({a.value})"
    elif _is(a, Var):
        lhs = a.name_hint or "v"  # (a free var prints as its name)
    else:
        return None
    if _struct_get(b, a.dtype):
        return _struct_get_message(lhs, b)
    if _is(a, IntImm) and _shape_value(b, a.dtype):
        return _shape_message(lhs, a.dtype, b)
    return None


def _struct_get_message(lhs: str, read: Any) -> str | None:
    handle, index, field = read.args
    if not (_is(handle, Var) and _is(index, IntImm) and _is(field, IntImm)
            and index.dtype == _INT32 and field.dtype == _INT32):
        return None
    return (f'{lhs} == T.tvm_struct_get({handle.name_hint or "v"}, {index.value}, '
            f'{field.value}, "{read.dtype}")')


def _shape_message(lhs: str, dtype: DataType, value: Any) -> str | None:
    load: Any = value.value if _is(value, Cast) else value
    if load.indices[0].dtype != _INT32 or not _DOTTED_NAME.match(load.buffer.name):
        return None
    index = f"{load.buffer.name}[{load.indices[0].value}]"
    if dtype == _INT32:
        return f'{lhs} == T.Cast("int32", {index})'
    return f"{lhs} == {index}" if dtype == _I64 else None




class ArgBinder:
    """Collects the definitions and checks that bind arguments (TVM ``ArgBinder``).

    ``def_map`` maps each Var already defined to its definition (shared with the caller);
    ``init_nest`` holds LetStmt/AttrStmt/AssertStmt/DeclBuffer items to run first, ``asserts``
    the checks that may use every definition.
    """

    def __init__(self, def_map: dict[Var, PrimExpr]) -> None:
        self.def_map = def_map
        self.defs: list[Var] = []
        self.init_nest: list[Stmt] = []
        self.asserts: list[Stmt] = []
        self.analyzer = Analyzer()
        self._names: set[str] = set()

    # ----------------------------------------------------------------- scalar binding
    def _message(self, cond: PrimExpr) -> str:
        """``cond`` as TVM's printer shows it, dotted buffer names made identifiers."""
        text = known_message(cond) or script(cond)
        for name in sorted(self._names, key=len, reverse=True):
            if name in text:  # (most checks name no field buffer)
                text = re.sub(re.escape(name) + r"\b", name.replace(".", "_"), text)
        return text

    def add_assert(self, cond: PrimExpr, arg_name: str, span: Any = None) -> None:
        """Check ``cond`` (TVM ``BinderAddAssert``): dropped when it simplifies to true.

        Raises:
            ValueError: when ``cond`` simplifies to false (the binding can never hold).
        """
        scond = _tvm_simplify(self.analyzer, cond)
        if _is_const(scond, 0):
            raise ValueError(f"Bind have an unmet assertion: {script(cond)}, on argument "
                             f"{arg_name}")
        if not _is_const(scond, 1):
            msg = f"Argument {arg_name} has an unsatisfied constraint: {self._message(cond)}"
            self.asserts.append(AssertStmt(scond, StringImm(msg), nop(span), span=span))

    def bind_(self, arg: PrimExpr, value: PrimExpr, arg_name: str, with_lets: bool,
              span: Any = None) -> bool:
        """Bind ``arg`` to ``value`` (TVM ``ArgBinder::Bind_``): a new Var is defined (by a
        LetStmt when ``with_lets``), anything else becomes a check. True when a Var was defined.

        Raises:
            TypeError: when the dtypes of ``arg`` and ``value`` differ.
        """
        if arg.dtype != value.dtype:
            raise TypeError(f"binding {arg_name}: expected a value of dtype {arg.dtype}, got "
                            f"{value.dtype}")
        if isinstance(arg, Var):
            if arg not in self.def_map:
                self.defs.append(arg)
                if with_lets:
                    self.def_map[arg] = arg
                    self.init_nest.append(LetStmt(arg, value, nop(span), span=span))
                else:
                    self.def_map[arg] = value
                return True
            self.add_assert(EQ(self.def_map[arg], value), arg_name, span)
        else:
            self.add_assert(EQ(arg, value), arg_name, span)
        return False

    def bind(self, arg: PrimExpr, value: PrimExpr, arg_name: str, with_let: bool = False,
             span: Any = None) -> None:
        """Bind a scalar (TVM ``ArgBinder::Bind``)."""
        self.bind_(arg, value, arg_name, with_let, span)

    # ----------------------------------------------------------------- DLTensor binding
    def bind_dltensor(self, buffer: Buffer, device_type: PrimExpr, device_id: Var,
                      handle: Var, arg_name: str) -> None:
        """Bind ``buffer`` to the ``DLTensor*`` in ``handle`` (TVM ``BindDLTensor``): null and
        ndim checks, dtype check, shape/strides/elem_offset/device/data binding."""
        span = buffer.span
        self.init_nest.append(AssertStmt(
            Not(tir.isnullptr(handle)),
            StringImm(f"{arg_name} is expected to have non-NULL DLTensor* pointer"),
            nop(span), span=span))
        ndim = len(buffer.shape)
        v_ndim = struct_get("int32", handle, 0, StructField.kArrNDim)
        self.init_nest.append(AssertStmt(
            EQ(IntImm(_INT32, ndim), v_ndim),
            StringImm(f"{arg_name}.ndim is expected to equal {ndim}"), nop(span), span=span))
        self._check_dtype(buffer, handle, arg_name)
        buf_shape = self._field_buffer(handle, arg_name + ".shape", ndim, StructField.kArrShape,
                                       span)
        if not _sub_byte(buffer.dtype):
            for k, dim in enumerate(buffer.shape):
                load = tir.cast(dim.dtype, BufferLoad(buf_shape, (IntImm(_INT32, k),)))
                self.bind_(dim, load, f"{arg_name}.shape[{k}]", True, span)
        buf_strides = self._field_buffer(handle, arg_name + ".strides", len(buffer.strides),
                                         StructField.kArrStrides, span)
        self._bind_strides(buffer, buf_shape, buf_strides, arg_name)
        self._bind_offset(buffer, handle, arg_name)
        self.bind_(device_type, struct_get("int32", handle, 0, StructField.kArrDeviceType),
                   arg_name + ".device_type", True, span)
        self.bind_(device_id, struct_get("int32", handle, 0, StructField.kArrDeviceId),
                   arg_name + ".device_id", True, span)
        self._bind_data(buffer, handle, arg_name)

    def _check_dtype(self, buffer: Buffer, handle: Var, arg_name: str) -> None:
        t = buffer.dtype
        if t in (_dtype("int1"), _dtype("int4"), _dtype("uint4")):
            return
        cond = tir.logical_and(tir.logical_and(
            EQ(struct_get("uint8", handle, 0, StructField.kArrTypeCode), IntImm("uint8", t.code)),
            EQ(struct_get("uint8", handle, 0, StructField.kArrTypeBits), IntImm("uint8", t.bits))),
            EQ(struct_get("uint16", handle, 0, StructField.kArrTypeLanes),
               IntImm("uint16", t.lanes)))
        self.asserts.append(AssertStmt(
            cond, StringImm(f"{arg_name}.dtype is expected to be {t}"), nop(buffer.span),
            span=buffer.span))

    def _field_buffer(self, handle: Var, name: str, size: int, field: int, span: Any) -> Buffer:
        """``name: T.handle("int64") = T.tvm_struct_get(handle, 0, field, "handle")`` and its
        ``T.decl_buffer((size,), "int64", data=name)``."""
        buf = tir.decl_buffer((IntImm(_INT32, size),), "int64", name=name)
        self._names.add(name)
        self.init_nest.append(LetStmt(buf.data, struct_get("handle", handle, 0, field),
                                      nop(span), span=span))
        self.init_nest.append(DeclBuffer(buf, nop(span), span=span))
        return buf

    def _bind_strides(self, buffer: Buffer, buf_shape: Buffer, buf_strides: Buffer,
                      arg_name: str) -> None:
        is_null = tir.isnullptr(buf_strides.data)
        if not buffer.strides:
            self._assert_compact(buffer, buf_strides, is_null, arg_name)
        elif buffer.buffer_type == tir.BufferType.AUTO_BROADCAST:
            self._bind_broadcast_strides(buffer, buf_strides, is_null, arg_name)
        else:
            from_shape: PrimExpr = IntImm(_INT32, 1)
            for k in range(len(buffer.strides) - 1, -1, -1):
                dt = buffer.shape[k].dtype
                explicit = tir.cast(dt, BufferLoad(buf_strides, (IntImm(_INT32, k),)))
                self.bind_(buffer.strides[k], tir.if_then_else(is_null, from_shape, explicit),
                           f"{arg_name}.strides[{k}]", True, buffer.span)
                from_shape = from_shape * tir.cast(
                    dt, BufferLoad(buf_shape, (IntImm(_INT32, k),)))

    def _assert_compact(self, buffer: Buffer, buf_strides: Buffer, is_null: PrimExpr,
                        arg_name: str) -> None:
        stype = _default_index_type(buffer)
        expect: PrimExpr = tir.const(1, stype)
        conds = []
        for k in range(len(buffer.shape) - 1, -1, -1):
            svalue = tir.cast(stype, BufferLoad(buf_strides, (IntImm(_INT32, k),)))
            conds.append(tir.logical_or(buffer.shape[k] == 1, expect == svalue))
            expect = expect * buffer.shape[k]
        if not conds:
            return
        cond: PrimExpr = tir.const(True, "bool")
        for c in conds:
            cond = tir.logical_and(cond, c)
        span = buffer.span
        check = AssertStmt(cond, StringImm(f"{arg_name}.strides: expected to be compact array"),
                           nop(span), span=span)
        self.asserts.append(SeqStmt((IfThenElse(Not(is_null), check, None, span=span),
                                     nop(span)), span=span))

    def _bind_broadcast_strides(self, buffer: Buffer, buf_strides: Buffer, is_null: PrimExpr,
                                arg_name: str) -> None:
        stride: PrimExpr = tir.const(1, _default_index_type(buffer))
        for k in range(len(buffer.shape) - 1, -1, -1):
            dim = buffer.shape[k]
            value = tir.cast(dim.dtype, BufferLoad(buf_strides, (IntImm(_INT32, k),)))
            value = tir.if_then_else(is_null, stride, value)
            value = tir.if_then_else(dim == 1, tir.const(0, value.dtype), value)
            self.bind_(buffer.strides[k], value, f"{arg_name}.strides[{k}]", True, buffer.span)
            stride = self.analyzer.simplify(stride * dim)

    def _bind_offset(self, buffer: Buffer, handle: Var, arg_name: str) -> None:
        nbytes = vector_bytes(buffer.dtype)
        get = struct_get("uint64", handle, 0, StructField.kArrByteOffset)
        offset = buffer.elem_offset
        if isinstance(offset, IntImm):
            self.bind_(tir.const(offset.value * nbytes, "uint64"), get,
                       arg_name + ".byte_offset", True, buffer.span)
            return
        value = tir.cast(offset.dtype, tir.truncdiv(get, tir.const(nbytes, "uint64")))
        if self.bind_(offset, value, arg_name + ".elem_offset", True, buffer.span):
            if buffer.offset_factor > 1:
                factor = tir.const(buffer.offset_factor, offset.dtype)
                self.add_assert(EQ(tir.truncmod(offset, factor), tir.const(0, offset.dtype)),
                                arg_name + ".elem_offset", buffer.span)

    def _bind_data(self, buffer: Buffer, handle: Var, arg_name: str) -> None:
        span = buffer.span
        if not self.bind_(buffer.data, struct_get("handle", handle, 0, StructField.kArrData),
                          arg_name + ".data", True, span):
            return
        size: PrimExpr = tir.const(1, _default_index_type(buffer))
        for dim in buffer.shape:
            size = size * dim
        cond = tir.logical_or(size == 0, Not(tir.isnullptr(buffer.data)))
        self.asserts.append(AssertStmt(
            cond, StringImm(f"{arg_name} is expected to have non-NULL data pointer"),
            nop(span), span=span))
        self.init_nest.append(AttrStmt(buffer.data, "storage_alignment",
                                       IntImm(_INT32, buffer.data_alignment), nop(span),
                                       span=span))


def _sub_byte(t: DataType) -> bool:
    return t in (_dtype("int4"), _dtype("uint4"), _dtype("int1"))


def _default_index_type(buffer: Buffer) -> DataType:
    """TVM ``Buffer::DefaultIndexType``: the dtype of the first extent, else int32."""
    return buffer.shape[0].dtype if buffer.shape else _dtype("int32")
