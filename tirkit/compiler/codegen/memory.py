"""Memory: buffer loads and stores, allocations, ``address_of`` (mirrors ``CodeGenLLVM``'s
``BufferAccessHelper``, ``VisitExpr_(BufferLoad)``, ``VisitStmt_(BufferStore)`` and
``VisitStmt_(Allocate)``).

Buffers must be flat (one index) after FlattenBuffer. The address of ``buf[i]`` is
``gep elem, data, i + elem_offset``. A ``Ramp(base, 1, n)`` index becomes one ``<n x elem>`` load or
store whose alignment is derived, as TVM does, from the pointer's known alignment
(``storage_alignment``, allocations) and the modular set of the base index; any other vector index
is gathered/scattered lane by lane. A ``predicate`` uses ``llvm.masked.load/store`` (contiguous) or
``llvm.masked.gather/scatter``. ``bool`` elements are bytes in memory.
"""
from __future__ import annotations

from math import gcd, prod
from typing import cast

from llvmlite import ir

from ...arith.modular_set import ModularSetAnalyzer
from ...ir.dtype import DataType
from ...ir.expr import IntImm, PrimExpr
from ...tir import expr as E
from ...tir import stmt as S
from ...tir.buffer import Buffer
from .asserts import let_exprs
from .core import CodeGenLLVM, register, register_call
from .expr import mangle
from .ir_values import MDString
from .types import I32, I64, PTR, CodegenError, elem_bytes, storage_type

__all__ = ["element_address", "tbaa_tag"]



def _flat_index(buf: Buffer, indices: tuple[PrimExpr, ...]) -> PrimExpr:
    if len(indices) != 1:
        raise CodegenError(f"buffer {buf.name!r} is accessed with {len(indices)} indices: the "
                           "LLVM code generator needs flat buffers (run FlattenBuffer first)")
    return indices[0]


def element_address(cg: CodeGenLLVM, buf: Buffer, index: PrimExpr) -> ir.Value:
    """``&buf.data[index + elem_offset]`` for a scalar ``index``."""
    data = cg.lookup_var(buf.data)
    idx = cg.expr(index)
    if not (isinstance(buf.elem_offset, IntImm) and buf.elem_offset.value == 0):
        off = cg.expr(buf.elem_offset)
        if off.type is not idx.type and off.type != idx.type:
            off = cg.builder.sext(off, idx.type) if off.type.width < idx.type.width else \
                cg.builder.trunc(off, idx.type)
        idx = cg.builder.add(idx, off)
    return cg.builder.gep(data, [idx], inbounds=True, source_etype=storage_type(buf.dtype))


class _LetModularSet(ModularSetAnalyzer):  # pylint: disable=too-few-public-methods
    """The modular set analysis with the LetStmts met so far bound (TVM's codegen binds each
    LetStmt's var in its analyzer): a vector access at ``cse_var_7`` is as aligned as the value
    CommonSubexprElimTIR named so. A var's set is computed on first use and kept (each let var
    has one value after ConvertSSA); chains deeper than :attr:`MAX_DEPTH` are unknown."""

    MAX_DEPTH = 256

    def __init__(self, lets: dict) -> None:
        super().__init__()
        self.lets, self.depth = lets, 0

    def analyze(self, e: PrimExpr) -> tuple[int, int]:
        if isinstance(e, E.Var) and id(e) not in self.known:
            value = self.lets.get(e)
            if value is not None and value.dtype.is_int() and self.depth < self.MAX_DEPTH:
                self.depth += 1
                try:
                    self.known[id(e)] = (e, self.analyze(value))
                finally:
                    self.depth -= 1
        return super().analyze(e)


def _modular_set(cg: CodeGenLLVM, e: PrimExpr) -> tuple[int, int]:
    an = getattr(cg, "_let_modular", None)
    if an is None:
        an = _LetModularSet(let_exprs(cg))
        setattr(cg, "_let_modular", an)
    return an.analyze(e)


def _alignment(cg: CodeGenLLVM, buf: Buffer, base: PrimExpr) -> int:
    """Byte alignment of ``&buf[base]``: the pointer's known alignment reduced by the base's
    modular set, let-bound variables seen through (TVM's ``GetAlignment`` helper)."""
    ebytes = elem_bytes(buf.dtype) * buf.dtype.lanes
    known = cg.alignment.get(buf.data, 0)
    if known <= ebytes:
        return ebytes
    ms = _modular_set(cg, base + buf.elem_offset if not _is_zero(buf.elem_offset) else base)
    align = known
    for part in ms:
        if part:
            align = gcd(align, ebytes * part)
    return max(align, ebytes)


def tbaa_tag(cg: CodeGenLLVM, buf: Buffer) -> ir.Value | None:
    """The TBAA access tag of ``buf``'s data pointer, one type node per pointer under one root
    (as TVM's ``AddAliasInfo`` gives each buffer variable its own node), or None for pointers
    that may alias others (let-bound pointer arithmetic, handles of unknown origin)."""
    var = buf.data
    if var not in cg.tbaa:
        return None
    tag = cg.tbaa[var]
    if tag is None:
        mod = cg.module
        if cg.tbaa_root is None:
            cg.tbaa_root = mod.add_metadata([MDString(mod, "tirkit-tbaa")])
        name = f"{var.name_hint}#{len(mod.metadata)}"
        node = mod.add_metadata([MDString(mod, name), cg.tbaa_root,
                                 ir.Constant(I64, 0)])
        tag = cg.tbaa[var] = mod.add_metadata([node, node, ir.Constant(I64, 0)])
    return tag


def _tagged(cg: CodeGenLLVM, buf: Buffer, instr: ir.Instruction) -> ir.Instruction:
    tag = tbaa_tag(cg, buf)
    if tag is not None:
        instr.set_metadata("tbaa", tag)
    return instr


def _is_zero(e: PrimExpr) -> bool:
    return isinstance(e, IntImm) and e.value == 0


def _dense_ramp(index: PrimExpr) -> bool:
    return isinstance(index, E.Ramp) and isinstance(index.stride, IntImm) and \
        index.stride.value == 1


def _to_value(cg: CodeGenLLVM, raw: ir.Value, t: DataType) -> ir.Value:
    """Memory form -> register form (bytes -> i1 for bool)."""
    if t.is_bool():
        return cg.builder.icmp_unsigned("!=", raw, ir.Constant(raw.type, None))
    return raw


def _to_memory(cg: CodeGenLLVM, value: ir.Value, t: DataType) -> ir.Value:
    if t.is_bool():
        return cg.builder.zext(value, storage_type(t))
    return value


# ------------------------------------------------------------------------------------- loads
@register(E.BufferLoad)
def _load(cg: CodeGenLLVM, e: E.BufferLoad) -> ir.Value:
    buf, index, t = e.buffer, _flat_index(e.buffer, e.indices), e.dtype
    mask = cg.expr(e.predicate) if e.predicate is not None else None
    if index.dtype.lanes == 1:
        ptr = element_address(cg, buf, index)
        return _to_value(cg, _tagged(cg, buf, cg.builder.load(
            ptr, typ=storage_type(t), align=_alignment(cg, buf, index))), t)
    if buf.dtype.lanes != 1:
        raise CodegenError(f"vector index into buffer {buf.name!r} of vector dtype {buf.dtype}")
    if _dense_ramp(index):
        base = cast(E.Ramp, index).base  # (a dense ramp)
        ptr = element_address(cg, buf, base)
        align = _alignment(cg, buf, base)
        if mask is None:
            raw = _tagged(cg, buf, cg.builder.load(ptr, typ=storage_type(t), align=align))
        else:
            raw = _masked_load(cg, ptr, storage_type(t), align, mask)
        return _to_value(cg, raw, t)
    return _to_value(cg, _gather(cg, buf, index, t, mask), t)


def _masked_load(cg: CodeGenLLVM, ptr: ir.Value, ty: ir.Type, align: int,
                 mask: ir.Value) -> ir.Value:
    passthru = ir.Constant(ty, ir.Undefined)
    name = f"llvm.masked.load.{mangle(ty)}.p0"
    fn = cg.declare(name, ty, [PTR, I32, mask.type, ty])
    return cg.builder.call(fn, [ptr, ir.Constant(I32, align), mask, passthru])


def _lane_addresses(cg: CodeGenLLVM, buf: Buffer, index: PrimExpr) -> list[ir.Value]:
    idx = cg.expr(index)
    data = cg.lookup_var(buf.data)
    out = []
    for lane in range(index.dtype.lanes):
        i = cg.builder.extract_element(idx, ir.Constant(I32, lane))
        if not _is_zero(buf.elem_offset):
            off = cg.expr(buf.elem_offset)
            i = cg.builder.add(i, off if off.type is i.type or off.type == i.type else cg.builder.sext(off, i.type))
        out.append(cg.builder.gep(data, [i], inbounds=True,
                                  source_etype=storage_type(buf.dtype)))
    return out


def _gather(cg: CodeGenLLVM, buf: Buffer, index: PrimExpr, t: DataType,
            mask: ir.Value | None) -> ir.Value:
    ptrs = _lane_addresses(cg, buf, index)
    ty, ety, align = storage_type(t), storage_type(buf.dtype), elem_bytes(buf.dtype)
    if mask is not None:
        vptr = _vector_of(cg, ptrs, PTR)
        fn = cg.declare(f"llvm.masked.gather.{mangle(ty)}.{mangle(vptr.type)}", ty,
                        [vptr.type, I32, mask.type, ty])
        return cg.builder.call(fn, [vptr, ir.Constant(I32, align), mask,
                                    ir.Constant(ty, ir.Undefined)])
    lanes = [_tagged(cg, buf, cg.builder.load(p, typ=ety, align=align)) for p in ptrs]
    return _vector_of(cg, lanes, ety)


def _vector_of(cg: CodeGenLLVM, values: list[ir.Value], ety: ir.Type) -> ir.Value:
    out: ir.Value = ir.Constant(ir.VectorType(ety, len(values)), ir.Undefined)
    for lane, v in enumerate(values):
        out = cg.builder.insert_element(out, v, ir.Constant(I32, lane))
    return out


# ------------------------------------------------------------------------------------ stores
@register(S.BufferStore)
def _store(cg: CodeGenLLVM, s: S.BufferStore) -> None:
    buf, index = s.buffer, _flat_index(s.buffer, s.indices)
    t = s.value.dtype
    value = _to_memory(cg, cg.expr(s.value), t)
    mask = cg.expr(s.predicate) if s.predicate is not None else None
    if t.lanes != 1:
        assert cg.fs is not None  # (inside a function)
        cg.fs.vector_store_bits += t.bits * t.lanes
    if index.dtype.lanes == 1:
        ptr = element_address(cg, buf, index)
        _tagged(cg, buf, cg.builder.store(value, ptr, align=_alignment(cg, buf, index)))
    elif _dense_ramp(index) and buf.dtype.lanes == 1:
        base = cast(E.Ramp, index).base  # (a dense ramp)
        ptr = element_address(cg, buf, base)
        align = _alignment(cg, buf, base)
        if mask is None:
            _tagged(cg, buf, cg.builder.store(value, ptr, align=align))
        else:
            fn = cg.declare(f"llvm.masked.store.{mangle(value.type)}.p0", ir.VoidType(),
                            [value.type, PTR, I32, mask.type])
            cg.builder.call(fn, [value, ptr, ir.Constant(I32, align), mask])
    else:
        _scatter(cg, buf, index, value, mask)


def _scatter(cg: CodeGenLLVM, buf: Buffer, index: PrimExpr, value: ir.Value,
             mask: ir.Value | None) -> None:
    ptrs = _lane_addresses(cg, buf, index)
    align = elem_bytes(buf.dtype)
    if mask is not None:
        vptr = _vector_of(cg, ptrs, PTR)
        fn = cg.declare(f"llvm.masked.scatter.{mangle(value.type)}.{mangle(vptr.type)}",
                        ir.VoidType(), [value.type, vptr.type, I32, mask.type])
        cg.builder.call(fn, [value, vptr, ir.Constant(I32, align), mask])
        return
    for lane, p in enumerate(ptrs):
        _tagged(cg, buf, cg.builder.store(
            cg.builder.extract_element(value, ir.Constant(I32, lane)), p, align=align))


@register_call("tir.address_of")
def _address_of(cg: CodeGenLLVM, call: E.Call) -> ir.Value:
    load = call.args[0]
    if not isinstance(load, E.BufferLoad):
        raise CodegenError("T.address_of expects a buffer element, e.g. T.address_of(A[i])")
    index = _flat_index(load.buffer, load.indices)
    base = index.base if isinstance(index, E.Ramp) else index
    return element_address(cg, load.buffer, base)


# ------------------------------------------------------------------------------- allocations
_STACK_ALIGN = 64
#: constant-size allocations above this go to the workspace, not the stack (parallel worker
#: threads have small stacks); LowerTVMBuiltin normally moved them already
MAX_STACK_BYTES = 64 * 1024


@register(S.Allocate)
def _allocate(cg: CodeGenLLVM, s: S.Allocate) -> None:
    ety = storage_type(s.dtype)
    count = prod(cast(IntImm, e).value for e in s.extents) if all(isinstance(e, IntImm)
                                                    for e in s.extents) else -1
    nbytes = count * elem_bytes(s.dtype) * s.dtype.lanes
    if 0 <= nbytes <= MAX_STACK_BYTES:
        align = max(_STACK_ALIGN if nbytes >= _STACK_ALIGN else 16, elem_bytes(s.dtype))
        ptr = cg.alloca(ety, max(count, 1), align, name=s.buffer_var.name_hint)
        cg.alignment[s.buffer_var] = align
        cg.tbaa.setdefault(s.buffer_var, None)
        with cg.bind(s.buffer_var, ptr):
            cg.stmt(s.body)
        return
    _workspace_allocate(cg, s)


def _workspace_allocate(cg: CodeGenLLVM, s: S.Allocate) -> None:
    """Dynamic size: ``TVMBackendAllocWorkspace`` / ``TVMBackendFreeWorkspace`` around the body."""
    bld = cg.builder
    nbytes: ir.Value = ir.Constant(I64, elem_bytes(s.dtype) * s.dtype.lanes)
    for ext in s.extents:
        v = cg.expr(ext)
        nbytes = bld.mul(nbytes, bld.sext(v, I64) if v.type.width < 64 else v)
    alloc = cg.declare("TVMBackendAllocWorkspace", PTR, [I32, I32, I64, I32, I32])
    free = cg.declare("TVMBackendFreeWorkspace", I32, [I32, I32, PTR])
    ptr = bld.call(alloc, [ir.Constant(I32, 1), ir.Constant(I32, 0), nbytes,
                           ir.Constant(I32, int(s.dtype.code)), ir.Constant(I32, s.dtype.bits)])
    failed = bld.icmp_unsigned("==", ptr, ir.Constant(PTR, None))
    with bld.if_then(failed, likely=False):
        cg.set_error(f"Failed to allocate {s.buffer_var.name_hint!r} from the workspace")
        cg.return_error()
    cg.alignment[s.buffer_var] = 64
    cg.tbaa.setdefault(s.buffer_var, None)
    with cg.bind(s.buffer_var, ptr):
        cg.stmt(s.body)
    if not cg.builder.block.is_terminated:
        cg.builder.call(free, [ir.Constant(I32, 1), ir.Constant(I32, 0), ptr])


@register(S.AllocateConst)
def _allocate_const(cg: CodeGenLLVM, s: S.AllocateConst) -> None:
    import numpy as np  # pylint: disable=import-outside-toplevel

    flat = np.asarray(s.data).reshape(-1)
    ety = storage_type(s.dtype)
    values = [ir.Constant(ety, float(x) if s.dtype.is_floating() else int(x)) for x in flat]
    arr_ty = ir.ArrayType(ety, len(values))
    gvar = ir.GlobalVariable(cg.module, arr_ty, name=cg.fresh_name(s.buffer_var.name_hint))
    gvar.linkage, gvar.global_constant = "private", True
    gvar.initializer = ir.Constant(arr_ty, values)
    gvar.align = 64
    gvar.type = PTR
    cg.alignment[s.buffer_var] = 64
    with cg.bind(s.buffer_var, gvar):
        cg.stmt(s.body)


@register(S.DeclBuffer)
def _decl_buffer(cg: CodeGenLLVM, s: S.DeclBuffer) -> None:
    cg.stmt(s.body)




@register_call("tir.tvm_access_ptr")
def _access_ptr(cg: CodeGenLLVM, call: E.Call) -> ir.Value:
    """``T.tvm_access_ptr(T.type_annotation(dtype), data, offset, extent, rw_mask)``: the address
    of element ``offset`` of ``data`` viewed as ``dtype`` (TVM lowers it to this in
    ``LowerDeviceStorageAccessInfo``; the extent and access mask only inform analyses)."""
    annotation, data, offset = call.args[0], call.args[1], call.args[2]
    elem = annotation.dtype if isinstance(annotation, E.Call) else call.dtype
    ptr = cg.expr(data)
    return cg.builder.gep(ptr, [cg.expr(offset)], inbounds=True,
                          source_etype=storage_type(elem))
