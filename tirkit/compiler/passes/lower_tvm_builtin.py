"""``LowerTVMBuiltin``: lower packed calls, DLTensor stack descriptions and workspace allocations
to TVM's runtime ABI (mirrors TVM v0.20 ``tvm.tir.transform.LowerTVMBuiltin``,
``src/tir/transforms/lower_tvm_builtin.cc``).

- ``T.call_packed("f", a, b)`` / ``T.call_cpacked(...)``: the arguments are stored into a
  ``TVMValue`` stack (``T.tvm_struct_set(stack_value, i, 12, v)``) and their type codes into an
  ``int32`` stack; the call becomes ``T.call_packed_lowered("f", stack_value, stack_tcode, begin,
  end)``. The stacks are ``T.tvm_stack_alloca`` lets at the function root and at the body of every
  parallel loop (one frame per thread).
- ``T.tvm_stack_make_shape`` / ``T.tvm_stack_make_array`` fill a shape stack / DLTensor array.
- ``T.allocate`` on the CPU in "global" scope whose constant size is below 1024 bytes stays on the
  stack; any other becomes ``TVMBackendAllocWorkspace`` (checked for NULL, raising through
  ``T.tvm_throw_last_error()``) and ``TVMBackendFreeWorkspace`` after its body.
- The ``T.attr("default", "device_id"/"device_type", ...)`` markers MakePackedAPI left are
  consumed (they give the device the workspace is allocated on).
"""
from __future__ import annotations

from typing import Any, Callable

from tirkit.ir.dtype import DataType, dtype as _dtype
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit import tir
from tirkit.tir import (NE, Allocate, AttrStmt, Buffer, BufferLoad, BufferStore, Call, Cast,
                        Evaluate, For, ForKind, IfThenElse, LetStmt, PrimFunc, SeqStmt, Stmt,
                        StringImm, Var)
from tirkit.tir.stmt_functor import StmtExprMutator, post_order_visit

from ..runtime.abi import DeviceType, StructField, TypeCode
from ..transform import prim_func_pass, register_pass
from .arg_binder import vector_bytes

__all__ = ["LowerTVMBuiltin", "BuiltinLower", "MAX_STACK_ALLOCA", "TEMP_ALLOCA_ALIGNMENT"]

#: ``runtime::kMaxStackAlloca``: bytes below which a constant CPU allocation stays on the stack
MAX_STACK_ALLOCA = 1024
#: ``runtime::kTempAllocaAlignment``: alignment of workspace allocations, bytes
TEMP_ALLOCA_ALIGNMENT = 64
#: ``transform::kDisableLowerTVMBuiltin``: an Allocate annotation that keeps it as is
DISABLE_LOWER_BUILTIN = "disable_lower_builtin"


def _i32(v: int) -> IntImm:
    return IntImm("int32", int(v))


def _struct_set(handle: Var, index: int, field: int, value: PrimExpr) -> Stmt:
    """``T.tvm_struct_set(handle, index, field, value)`` as a statement (TVM ``TVMStructSet``)."""
    return Evaluate(Call("int32", "tir.tvm_struct_set", (handle, _i32(index), _i32(field), value)))


def _seq(stmts: tuple[Stmt, ...], span: Any) -> Stmt:
    """A SeqStmt of ``stmts`` with nested sequences spliced in (as the parser builds them)."""
    flat: list[Stmt] = []
    for s in stmts:
        flat.extend(s.seq if isinstance(s, SeqStmt) else (s,))
    return flat[0] if len(flat) == 1 else SeqStmt(tuple(flat), span=span)


def _stack_alloca(kind: str, num: int) -> PrimExpr:
    return Call("handle", "tir.tvm_stack_alloca", (StringImm(kind), _i32(num)))


def _address_offset(handle: Var, dtype: DataType, offset: int) -> PrimExpr:
    """``T.address_of(handle[offset])`` over a dummy buffer (TVM ``AddressOffset``)."""
    off = _i32(offset * dtype.lanes)
    dummy = Buffer(handle, dtype, (_i32(offset * dtype.lanes + 1),), name=handle.name_hint)
    return Call("handle", "tir.address_of", (BufferLoad(dummy, (off,)),))


def _api_type(t: DataType) -> DataType:
    if t.is_handle():
        return t
    return _dtype("float64") if t.is_floating() else _dtype("int64")


def _is_array_handle(arg: PrimExpr) -> bool:
    return (isinstance(arg, Call) and getattr(arg.op, "name", "") == "tir.tvm_struct_get"
            and isinstance(arg.args[2], IntImm) and arg.args[2].value == StructField.kArrAddr)


class _Sizes:
    """Stack depths: ``shape`` is -1 while no shape was made (TVM ``StackSizes``)."""

    def __init__(self) -> None:
        self.shape, self.array, self.arg = -1, 0, 0

    def update_max(self, run: "_Sizes") -> None:
        self.shape = max(self.shape, run.shape)
        self.array = max(self.array, run.array)
        self.arg = max(self.arg, run.arg)


class _AllocaScope:
    """The stack frames of one scope: the root or a parallel loop body (TVM ``AllocaScope``)."""

    def __init__(self, max_sizes: _Sizes | None = None) -> None:
        self.max = max_sizes or _Sizes()
        self.run = _Sizes()
        self.stack_array = Var("stack_array", "handle")
        self.stack_value = Var("stack_value", "handle")
        # the two stack buffers are declared when first used (most scopes use neither), with
        # the sizes known now
        self._sizes = (max(self.max.shape, 0), self.max.arg)
        self._shape: Buffer | None = None
        self._tcode: Buffer | None = None

    @property
    def stack_shape(self) -> Buffer:
        """The int64 shape stack (``stack_shape``)."""
        if self._shape is None:
            self._shape = tir.decl_buffer((IntImm("int64", self._sizes[0]),), "int64",
                                          name="stack_shape")
        return self._shape

    @property
    def stack_tcode(self) -> Buffer:
        """The int32 type-code stack (``stack_tcode``)."""
        if self._tcode is None:
            self._tcode = tir.decl_buffer((IntImm("uint64", self._sizes[1]),), "int32",
                                          name="stack_tcode")
        return self._tcode


class _StackNeeded(Exception):
    """A builtin that takes stack space was met by a walk that assumed none (see build)."""


class BuiltinLower(StmtExprMutator):
    """The mutator behind :func:`LowerTVMBuiltin` (TVM ``BuiltinLower``)."""

    def __init__(self, precheck: bool = False, device_type: PrimExpr | None = None,
                 device_id: PrimExpr | None = None) -> None:
        self.precheck = precheck
        self.device_type, self.device_id = device_type, device_id
        self.scopes: list[_AllocaScope] = []
        self.prep: list[list[Stmt]] = []
        self.no_builtin_calls = False  # the function body calls no builtin
        self.assume_no_builtin = False  # see build

    def build(self, stmt: Stmt) -> Stmt:
        """Lower a function body (TVM ``BuiltinLower::Build``).

        First as if no builtin that takes stack space were called: the stack precheck would
        count nothing then, and its walk of the body is spared (most kernels call none). The
        walk stops at the first such builtin, and the body is lowered again with the
        precheck."""
        if not self.precheck:
            trial = BuiltinLower(False, self.device_type, self.device_id)
            trial.assume_no_builtin = True
            try:
                return trial._visit_body_and_realize_alloca(stmt)  # pylint: disable=protected-access
            except Exception:  # pylint: disable=broad-exception-caught
                pass  # _StackNeeded; any other error is the usual way's to raise, as before
        return self._visit_body_and_realize_alloca(stmt)

    def _max_stack(self, stmt: Stmt) -> _Sizes:
        if self.no_builtin_calls or self.assume_no_builtin:
            return _Sizes()
        if not _calls_a_builtin(stmt):  # the precheck walk would find nothing to count
            # a function body that calls no builtin has no parallel loop body that does: those
            # are not walked again
            self.no_builtin_calls = not self.scopes
            return _Sizes()
        pre = BuiltinLower(True, self.device_type, self.device_id)
        pre.scopes.append(_AllocaScope())
        pre.visit_stmt(stmt)
        return pre.scopes[0].max

    def _visit_body_and_realize_alloca(self, stmt: Stmt) -> Stmt:
        if self.precheck:
            return stmt
        scope = _AllocaScope(self._max_stack(stmt))
        span = stmt.span
        if scope.max.shape != -1:
            stmt = LetStmt(scope.stack_shape.data, _stack_alloca("shape", scope.max.shape), stmt,
                           span=span)
        if scope.max.array:
            stmt = LetStmt(scope.stack_array, _stack_alloca("array", scope.max.array), stmt,
                           span=span)
        if scope.max.arg:
            stmt = LetStmt(scope.stack_value, _stack_alloca("arg_value", scope.max.arg), stmt,
                           span=span)
            stmt = LetStmt(scope.stack_tcode.data, _stack_alloca("arg_tcode", scope.max.arg),
                           stmt, span=span)
        self.scopes.append(scope)
        try:
            return self.visit_stmt(stmt)
        finally:
            self.scopes.pop()

    # ------------------------------------------------------------------------ statements
    def visit_stmt(self, stmt: Stmt) -> Stmt:
        """Mutate ``stmt``; the preparation statements its calls need go right before it."""
        self.prep.append([])
        try:
            out = super().visit_stmt(stmt)
        finally:
            prep = self.prep.pop()
        if not prep:
            return out
        return _seq((*prep, out), stmt.span)

    def visit_attr_stmt_(self, op: AttrStmt) -> Stmt:
        if op.attr_key == "device_id" and self.device_id is None:
            self.device_id = op.value
            return self.visit_stmt(op.body)
        if op.attr_key == "device_type" and self.device_type is None:
            self.device_type = op.value
            return self.visit_stmt(op.body)
        return super().visit_attr_stmt_(op)

    def visit_for_(self, op: For) -> Stmt:
        if op.kind != ForKind.PARALLEL:
            return super().visit_for_(op)
        lo, ext = self.visit_expr(op.min), self.visit_expr(op.extent)
        body = self._visit_body_and_realize_alloca(op.body)
        if lo is op.min and ext is op.extent and body is op.body:
            return op
        return op.with_changes(min=lo, extent=ext, body=body)

    def _device(self) -> tuple[PrimExpr, PrimExpr]:
        """The device of the current function; CPU device 0 when MakePackedAPI left no marker
        (TVM requires the markers)."""
        dev_type = self.device_type if self.device_type is not None else _i32(DeviceType.kDLCPU)
        dev_id = self.device_id if self.device_id is not None else _i32(0)
        return tir.cast("int32", dev_type), tir.cast("int32", dev_id)

    def _stays_on_stack(self, op: Allocate) -> bool:
        if op.annotations.get(DISABLE_LOWER_BUILTIN):
            return True
        dev_type = self.device_type if self.device_type is not None else _i32(DeviceType.kDLCPU)
        ann = op.buffer_var.type_annotation
        scope = getattr(ann, "storage_scope", "global")
        if not (isinstance(dev_type, IntImm) and dev_type.value == DeviceType.kDLCPU
                and scope == "global"):
            return False
        size = 1
        for e in op.extents:
            if not isinstance(e, IntImm):
                return False
            size *= e.value
        return 0 < size * vector_bytes(op.dtype) < MAX_STACK_ALLOCA

    def visit_allocate_(self, op: Allocate) -> Stmt:
        new = super().visit_allocate_(op)
        if self._stays_on_stack(new):
            return new
        span = op.span
        total: PrimExpr = tir.const(vector_bytes(new.dtype), new.extents[0].dtype)
        for e in new.extents:
            total = total * e
        dev_type, dev_id = self._device()
        throw = Evaluate(tir.tvm_throw_last_error(), span=span)
        var = new.buffer_var
        alloc = Call(var.dtype, "tir.TVMBackendAllocWorkspace",
                     (dev_type, dev_id, tir.cast("uint64", total), _i32(new.dtype.code),
                      _i32(new.dtype.bits)))
        free = Call("int32", "tir.TVMBackendFreeWorkspace", (dev_type, dev_id, var))
        free_stmt = IfThenElse(NE(free, _i32(0)), throw, None, span=span)
        body = _seq((IfThenElse(tir.isnullptr(var), throw, None, span=span), new.body,
                     free_stmt), span)
        # TVM puts the attr and the free outside the LetStmt (a use outside the var's scope);
        # here both are inside it so that the IR stays well formed and prints/parses back.
        body = AttrStmt(var, "storage_alignment", _i32(TEMP_ALLOCA_ALIGNMENT), body, span=span)
        return LetStmt(var, alloc, body, span=span)

    # ----------------------------------------------------------------------- expressions
    def visit_call_(self, op: Call) -> PrimExpr:
        handler = _CALL_LOWERING.get(getattr(op.op, "name", ""))
        if handler is None:
            return super().visit_call_(op)
        if self.assume_no_builtin:
            raise _StackNeeded
        return handler(self, op)

    def _make_shape(self, op: Call) -> PrimExpr:
        scope, prep = self.scopes[-1], self.prep[-1]
        if scope.run.shape == -1:
            scope.run.shape = 0
        begin = scope.run.shape
        scope.run.shape += len(op.args)
        new = super().visit_call_(op)
        for i, arg in enumerate(new.args):
            prep.append(BufferStore(scope.stack_shape, tir.cast("int64", arg), (_i32(begin + i),)))
        return _address_offset(scope.stack_shape.data, _dtype("int64"), begin)

    def _make_array(self, op: Call) -> PrimExpr:
        scope, prep = self.scopes[-1], self.prep[-1]
        idx = scope.run.array
        scope.run.array += 1
        new = super().visit_call_(op)
        arr = scope.stack_array
        data, shape, strides, ndim, dtype_ann, elem_offset = new.args
        if isinstance(strides, IntImm) and strides.value == 0:
            strides = tir.reinterpret("handle", tir.const(0, "uint64"))
        t = dtype_ann.dtype
        offset = elem_offset
        if not (isinstance(offset, IntImm) and offset.value == 0):
            offset = offset * tir.const(vector_bytes(t), offset.dtype)
        dev_type, dev_id = self._device()
        fields = ((StructField.kArrData, data), (StructField.kArrShape, shape),
                  (StructField.kArrStrides, strides), (StructField.kArrNDim, ndim),
                  (StructField.kArrTypeCode, IntImm("uint8", int(t.code))),
                  (StructField.kArrTypeBits, IntImm("uint8", t.bits)),
                  (StructField.kArrTypeLanes, IntImm("uint16", t.lanes)),
                  (StructField.kArrByteOffset, tir.cast("uint64", offset)),
                  (StructField.kArrDeviceId, dev_id), (StructField.kArrDeviceType, dev_type))
        prep.extend(_struct_set(arr, idx, int(f), v) for f, v in fields)
        return Call("handle", "tir.tvm_struct_get", (arr, _i32(idx), _i32(StructField.kArrAddr)))

    def _push_args(self, args: tuple[PrimExpr, ...], begin: int, check_array: bool) -> None:
        scope, prep = self.scopes[-1], self.prep[-1]
        for i, arg in enumerate(args, start=1):
            t = arg.dtype
            api = _api_type(t)
            if t != api:
                arg = Cast(api, arg)
            slot = begin + i - 1
            prep.append(_struct_set(scope.stack_value, slot, StructField.kTVMValueContent, arg))
            tcode = int(api.code)
            if api.is_handle() and isinstance(arg, StringImm):
                tcode = int(TypeCode.kTVMStr)
            if _is_array_handle(arg):
                if not check_array:
                    raise ValueError("LowerTVMBuiltin: expected no buffers in a traced packed "
                                     "call, got a DLTensor argument")
                tcode = int(TypeCode.kTVMDLTensorHandle)
            prep.append(BufferStore(scope.stack_tcode, _i32(tcode), (_i32(slot),)))

    def _finish(self, scope: _AllocaScope, shape: int, array: int) -> None:
        if self.precheck:
            scope.max.update_max(scope.run)
        scope.run.shape, scope.run.array = shape, array

    def _make_call_packed(self, op: Call, string_lookup: bool = True) -> PrimExpr:
        scope = self.scopes[-1]
        shape, array, begin = scope.run.shape, scope.run.array, scope.run.arg
        count = len(op.args) - (0 if string_lookup else 1)
        scope.run.arg += count
        new = super().visit_call_(op)
        self._push_args(new.args[1:count], begin, True)
        self._finish(scope, shape, array)
        scope.run.arg = begin
        args: list[Any] = [new.args[0], scope.stack_value, scope.stack_tcode.data, _i32(begin),
                           _i32(begin + len(op.args) - 1)]
        if not string_lookup:
            last = new.args[count]
            args.append(StringImm(last.name_hint) if isinstance(last, Var) else last)
        name = "tir.tvm_call_packed_lowered" if string_lookup else "tir.tvm_call_cpacked_lowered"
        return Call(op.dtype, name, tuple(args), span=op.span)

    def _make_call_cpacked(self, op: Call) -> PrimExpr:
        return self._make_call_packed(op, string_lookup=False)

    def _make_call_trace_packed(self, op: Call) -> PrimExpr:
        scope = self.scopes[-1]
        shape, array, begin = scope.run.shape, scope.run.array, scope.run.arg
        if not op.args:
            raise ValueError("LowerTVMBuiltin: expected tvm_call_trace_packed to name a function")
        scope.run.arg += len(op.args)
        new = super().visit_call_(op)
        self._push_args(new.args[1:], begin, False)
        self._finish(scope, shape, array)
        scope.run.arg = begin + len(op.args) - 1
        args = (new.args[0], scope.stack_value, scope.stack_tcode.data, _i32(begin),
                _i32(begin + len(op.args) - 1), new.args[-1])
        return Call(op.dtype, "tir.tvm_call_trace_packed_lowered", args, span=op.span)

    def _context_id(self, op: Call) -> PrimExpr:
        return tir.reinterpret("handle", tir.const(0, "uint64")) if op.dtype.is_handle() \
            else tir.const(0, op.dtype)


_CALL_LOWERING: dict[str, Callable[[BuiltinLower, Call], PrimExpr]] = {
    "tir.tvm_call_packed": BuiltinLower._make_call_packed,  # pylint: disable=protected-access
    "tir.tvm_call_cpacked": BuiltinLower._make_call_cpacked,  # pylint: disable=protected-access
    "tir.tvm_call_trace_packed":
        BuiltinLower._make_call_trace_packed,  # pylint: disable=protected-access
    "tir.tvm_stack_make_shape": BuiltinLower._make_shape,  # pylint: disable=protected-access
    "tir.tvm_stack_make_array": BuiltinLower._make_array,  # pylint: disable=protected-access
    "tir.tvm_context_id": BuiltinLower._context_id,  # pylint: disable=protected-access
}


def _calls_a_builtin(stmt: Stmt) -> bool:
    """Whether ``stmt`` calls a builtin this pass lowers (the only calls that take stack
    space): a plain walk, cheaper than the precheck mutator it spares (TVM runs the precheck
    always; here the compute body of a kernel without packed calls was walked three times)."""
    found = [False]

    def visit(node: Any) -> None:
        if isinstance(node, Call) and getattr(node.op, "name", "") in _CALL_LOWERING:
            found[0] = True
    post_order_visit(stmt, visit)
    return found[0]


@register_pass("LowerTVMBuiltin")
def LowerTVMBuiltin():  # pylint: disable=invalid-name
    """The LowerTVMBuiltin pass (``tvm.tir.transform.LowerTVMBuiltin``); see the module doc."""
    @prim_func_pass("LowerTVMBuiltin", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        body = BuiltinLower().build(func.body)
        return func if body is func.body else func.with_body(body)
    return run
