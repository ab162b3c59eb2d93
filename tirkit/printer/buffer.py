"""Printing of buffers, buffer accesses and regions (mirrors TVM's ``printer/tir/buffer.cc``).

A buffer declaration prints ``T.alloc_buffer((16, 16))``, ``T.match_buffer(a, (n,))``,
``T.decl_buffer((64,), data=buf)`` or ``T.Buffer((128,), "float32")`` with only the
non-default attributes as keyword arguments, in TVM's order (data, strides, elem_offset, scope,
align, offset_factor, buffer_type, axis_separators). Shape vars not yet defined get a
``n = T.int32()`` line before the declaration; a match_buffer defines new strides / elem_offset
var inline (``A.elem_offset``, with ``offset_factor`` printed so the parser makes it).
"""
from __future__ import annotations

from enum import IntEnum
from typing import Any, cast

from tirkit.ir.dtype import dtype
from tirkit.ir.expr import IntImm
from tirkit.tir import BufferLoad, BufferRegion, Ramp, Var
from tirkit.tir import op as O
from tirkit.tir.buffer import DEFAULT_ALIGNMENT, Buffer, BufferType
from tirkit.tir.stmt_functor import post_order_visit

from .context import E, Frame, Printer, register
from .doc import Doc, Text, bracket, concat, join
from .expr import call, dtype_lit, str_lit, var_creation
from .stmt_doc import LineDoc
from .written import declared_frame, dtype_written, keyword_written, slices_written, written

#: the calls that declare a buffer (the spans :func:`keyword_written` reads)
_DECLARING = ("match_buffer", "alloc_buffer", "decl_buffer", "Buffer", "buffer_decl")


class VarDef(IntEnum):
    """Where a buffer declaration may define its vars (TVM ``BufferVarDefinition``)."""

    NONE = 0          # ``T.Buffer(...)`` in a body: every new var out of line
    DATA_POINTER = 1  # data defined inline as ``A.data``
    MATCH_BUFFER = 2  # data and elem_offset defined inline (``A.elem_offset``)


def _is_new_var(p: Printer, e: Any) -> bool:
    return isinstance(e, Var) and not p.is_defined(e)


class _Attrs:
    def __init__(self, p: Printer, buf: Buffer, frame: Frame, mode: VarDef,
                 decl: Any = None) -> None:
        self.p, self.buf, self.frame, self.mode = p, buf, frame, mode
        self.decl = buf if decl is None else decl  # the node holding the declaration's span
        self.lhs: list[Doc] = []
        self.rhs: list[Doc] = []
        self.kw: dict[str, Doc] = {}
        self.vars: list[Var] = []  # those of lhs

    def out_of_line(self, v: Var) -> None:
        self.lhs.append(self.p.define(v, self.frame, v.name_hint))
        self.rhs.append(var_creation(self.p, v).doc)
        self.vars.append(v)

    def written(self, key: str) -> bool:
        """Whether the user wrote ``key=`` in the declaration (tirfmt keeps a default value
        written out: ``elem_offset=0``, ``align=64``, ``scope="global"``)."""
        return self.p.cfg.written is not None and \
            keyword_written(self.p, self.decl, key, _DECLARING) is not None

    def uses(self, v: Var) -> int:
        """How often ``v`` occurs in the buffer's shape, strides and elem_offset."""
        found: list[Any] = []
        for e in (*self.buf.shape, *self.buf.strides, self.buf.elem_offset):
            post_order_visit(e, lambda n: found.append(n) if n is v else None)
        return len(found)

    def self_doc(self) -> Doc:
        doc = self.p.var_doc(self.buf)
        return doc if doc is not None else Text(self.buf.name)

    def shape(self) -> None:
        for e in self.buf.shape:
            if _is_new_var(self.p, e):
                self.out_of_line(cast(Var, e))
        items = [self.p.expr(e).doc for e in self.buf.shape]
        self.kw["shape"] = bracket("(", items, ")", 4, "," if len(items) == 1 else "",
                                   self.p.wrap)

    def data(self) -> None:
        data = self.buf.data
        if _is_new_var(self.p, data):
            if self.mode >= VarDef.DATA_POINTER:
                self.p.define_as(data, self.frame, concat(self.self_doc(), ".data"))
                self.p.data_owner[id(data)] = self.buf
                return
            self.out_of_line(data)
        self.kw["data"] = self.p.expr(data).doc

    def strides(self) -> None:
        if not self.buf.strides:
            return
        items: list[Doc] = []
        for i, e in enumerate(self.buf.strides):
            if _is_new_var(self.p, e) and self.p.tirx and self.mode >= VarDef.MATCH_BUFFER \
                    and self.uses(cast(Var, e)) == 1:  # TVM 0.27: "s0", defined as A.strides[0]
                self.p.define_as(e, self.frame, concat(self.self_doc(), f".strides[{i}]"))
                items.append(str_lit(cast(Var, e).name_hint))
                continue
            if _is_new_var(self.p, e):
                self.out_of_line(cast(Var, e))
            items.append(self.p.expr(e).doc)
        self.kw["strides"] = bracket("(", items, ")", 4, "," if len(items) == 1 else "",
                                     self.p.wrap)

    def index_dtype(self) -> Any:
        """The buffer's index dtype (TVM ``Buffer::DefaultIndexType``): its first dim's, int32
        for a buffer of rank 0."""
        return self.buf.shape[0].dtype if self.buf.shape else dtype("int32")

    def elem_offset(self) -> bool:
        off = self.buf.elem_offset
        if isinstance(off, IntImm):
            if off.value != 0 or self.written("elem_offset") or (  # TVM 0.27 also prints a 0
                    off.dtype != self.index_dtype()):  # of another dtype than the index dtype
                self.kw["elem_offset"] = self.p.expr(off).doc  # (both dialects: the classic
                # text read back without it had an elem_offset of the index dtype)
            return False
        if _is_new_var(self.p, off) and self.mode >= VarDef.MATCH_BUFFER and not (
                self.p.cfg.written is not None and keyword_written(
                    self.p, self.decl, "elem_offset", _DECLARING) == cast(Var, off).name_hint):
            # (tirfmt: the user's own var, A_elem_offset = T.int32(), stays one)
            self.p.define_as(off, self.frame, concat(self.self_doc(), ".elem_offset"))
            return True
        if _is_new_var(self.p, off):
            self.out_of_line(cast(Var, off))
        self.kw["elem_offset"] = self.p.expr(off).doc
        return False

    def rest(self, needs_factor: bool) -> None:
        buf = self.buf
        if buf.scope() != "global" or self.written("scope"):
            self.kw["scope"] = str_lit(buf.scope())
        if buf.data_alignment != DEFAULT_ALIGNMENT or self.written("align"):
            self.kw["align"] = Text(str(buf.data_alignment))
        if needs_factor or buf.offset_factor != 1 or self.written("offset_factor"):
            self.kw["offset_factor"] = Text(str(buf.offset_factor))
        if buf.buffer_type != BufferType.DEFAULT:
            self.kw["buffer_type"] = str_lit("auto")
        if buf.axis_separators:
            self.kw["axis_separators"] = self.p.expr(list(buf.axis_separators)).doc

    def flush_defs(self) -> None:
        if len(self.lhs) == 1 or (self.p.cfg.written is not None and _separate_lines(self.vars)):
            for lhs, rhs in zip(self.lhs, self.rhs):  # (tirfmt: m = T.int32() / n = ... as
                self.frame.stmts.append(LineDoc(concat(lhs, " = ", rhs)))  # the user wrote)
        elif self.lhs:
            self.frame.stmts.append(LineDoc(concat(join(", ", self.lhs), " = ",
                                                   join(", ", self.rhs))))


def _separate_lines(vs: list[Var]) -> bool:
    """Whether the vars were declared on lines of their own (their spans on distinct lines)."""
    lines = [v.span.line for v in vs if v.span is not None]
    return len(lines) == len(vs) and len(set(lines)) == len(lines)


def buffer_attrs(p: Printer, buf: Buffer, frame: Frame, mode: VarDef,
                 force_dtype: bool = False, decl: Any = None) -> dict[str, Doc]:
    """The keyword docs describing ``buf`` (TVM ``BufferAttrs``); new vars are defined in
    ``frame`` as ``mode`` allows. ``decl``: the statement that declares it, when that (not the
    buffer) holds the declaration's span (a ``DeclBuffer``)."""
    a = _Attrs(p, buf, frame, mode, decl)
    a.shape()
    spelled = dtype_written(p, buf if decl is None else decl) \
        if p.cfg.written is not None else None
    if a.written("shape"):  # the user's shape=... (tirfmt): a marker for buffer_call
        a.kw[_SHAPE_KEYWORD] = Text("")
    if spelled == "keyword":  # the user's dtype=... (tirfmt)
        a.kw["dtype="] = dtype_lit(buf.dtype)
    elif buf.dtype != p.cfg.buffer_dtype or force_dtype or spelled:
        a.kw["dtype"] = dtype_lit(buf.dtype)
    a.data()
    a.strides()
    needs_factor = a.elem_offset()
    a.rest(needs_factor)
    a.flush_defs()
    return a.kw


_KW_ORDER = ("data", "strides", "elem_offset", "scope", "align", "offset_factor", "buffer_type",
             "axis_separators", "annotations")


#: the key of :func:`buffer_attrs` saying that the user wrote ``shape=...`` (tirfmt)
_SHAPE_KEYWORD = "=shape"


def buffer_call(p: Printer, method: str, attrs: dict[str, Doc], args: list[Doc]) -> E:
    """``T.method(args..., shape, dtype, key=value...)`` (TVM ``BufferCall``; ``shape=...`` /
    ``dtype=...`` first of the keywords where the user wrote them so, see
    :func:`buffer_attrs`)."""
    if _SHAPE_KEYWORD in attrs:
        kwargs = [(k.rstrip("="), attrs[k]) for k in ("shape", "dtype=" if "dtype=" in attrs
                                                      else "dtype", *_KW_ORDER) if k in attrs]
        return call(p, p.T(method), list(args), kwargs)
    pos = list(args) + [attrs[k] for k in ("shape", "dtype") if k in attrs]
    kwargs = [(k.rstrip("="), attrs[k]) for k in ("dtype=", *_KW_ORDER) if k in attrs]
    return call(p, p.T(method), pos, kwargs)


def buffer_decl(p: Printer, buf: Buffer, method: str, args: list[Doc], frame: Frame,
                mode: VarDef) -> E:
    """A buffer declaration call (TVM ``BufferDecl``)."""
    return buffer_call(p, method, buffer_attrs(p, buf, frame, mode), args)


def define_buffer(p: Printer, buf: Buffer, frame: Frame) -> Doc:
    """Define ``buf`` under its name (TVM ``DefineBuffer``)."""
    return p.define(buf, frame, buf.name)


@register(Buffer)
def _buffer(p: Printer, buf: Buffer) -> E:
    doc = p.var_doc(buf)
    if doc is None and p.define_free:
        frame = p.lowest_def_frame(buf)
        if p.cfg.written is not None:  # tirfmt: where the user declared it
            frame = declared_frame(p, buf, frame)
        if frame is not None:
            lhs = define_buffer(p, buf, frame)
            rhs = buffer_decl(p, buf, "Buffer", [], frame, VarDef.DATA_POINTER)
            frame.stmts.append(LineDoc(concat(lhs, " = ", rhs.doc)))
            doc = lhs
    return E(doc if doc is not None else Text(buf.name))


def buffer_indices(p: Printer, indices: Any, slices: bool) -> list[Doc]:
    """Index docs; with ``slices`` a constant-stride Ramp prints as ``a:b`` / ``a:b:s`` (TVM
    ``BufferIndices``, used for stores)."""
    out: list[Doc] = []
    for idx in indices:
        if slices and isinstance(idx, Ramp) and isinstance(idx.stride, IntImm):
            start = p.expr(idx.base).doc
            stop = p.expr(O.add(idx.base, O.multiply(idx.stride, idx.lanes))).doc
            step: list[Doc | str] = [] if idx.stride.value == 1 else [":", p.expr(idx.stride).doc]
            out.append(concat(start, ":", stop, *step))
        else:
            out.append(p.expr(idx).doc)
    return out


def subscript(p: Printer, buf: Doc, items: list[Doc]) -> Doc:
    """``A[i, j]`` (``buf`` is the buffer's doc, printed before the indices as TVM does); a
    rank-0 access is ``A[()]``, as TVM writes it."""
    if not items:
        return concat(buf, "[()]")
    return concat(buf, bracket("[", items, "]", p.cfg.indent_spaces, wrap=p.wrap))


def is_scalar(p: Printer, buf: Buffer, indices: Any) -> bool:
    """Whether an access ``buf[indices]`` prints as ``buf`` alone: tirx, element 0 of a local
    cell printed ``x: T.int32 = v``, or in a function without blocks (not ``s_tir``) of any
    buffer of shape ``(1,)`` -- TVM 0.27 reads such a buffer as a scalar (``out = v``,
    ``if A > 100``)."""
    return (p.scalar_buffers or id(buf) in p.scalar_cells) and is_cell_shape(buf, indices)


def is_cell_shape(buf: Buffer, indices: Any) -> bool:
    """``buf`` has shape ``(1,)`` and ``indices`` are ``[0]``."""
    return (len(buf.shape) == 1 and isinstance(buf.shape[0], IntImm)
            and buf.shape[0].value == 1 and len(indices) == 1
            and isinstance(indices[0], IntImm) and indices[0].value == 0)


@register(BufferLoad)
def _buffer_load(p: Printer, load: BufferLoad) -> E:
    if load.predicate is None and is_scalar(p, load.buffer, load.indices):
        return E(p.expr(load.buffer).doc)
    if load.predicate is not None:
        return call(p, concat(p.expr(load.buffer).doc, ".vload"),
                    [p.expr(list(load.indices)).doc],
                    [("predicate", p.expr(load.predicate).doc)])
    buf = p.expr(load.buffer).doc
    text = written(p, load) if p.cfg.written is not None else None
    sliced = text is not None and ":" in text  # tirfmt: the user's A[i * 4 : i * 4 + 4]
    return E(subscript(p, buf, buffer_indices(p, load.indices, sliced)))


@register(BufferRegion)
def _buffer_region(p: Printer, region: BufferRegion) -> E:
    buf = p.expr(region.buffer).doc
    items: list[Doc] = []
    # tirfmt: the user's A[i : i + 1] stays a slice
    sliced = slices_written(p, region) if p.cfg.written is not None else None
    for k, r in enumerate(region.region):
        if isinstance(r.extent, IntImm) and r.extent.value == 1 and not (sliced and sliced[k]):
            items.append(p.expr(r.min).doc)
        else:
            items.append(concat(p.expr(r.min).doc, ":", p.expr(O.add(r.min, r.extent)).doc))
    return E(subscript(p, buf, items))
