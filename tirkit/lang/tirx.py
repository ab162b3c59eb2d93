"""The ``T`` namespace as TVM 0.27's ``tvm.script.tirx`` spells it, for files that import
``from tvm.script import tirx as T``: the classic names that tirx removed are gone (with a
pointer to their replacement), ``T.sblock`` requires ``@T.prim_func(s_tir=True)``, and the
allocation names mean what they mean in tirx: ``T.alloc_buffer`` / ``T.alloc_local`` /
``T.alloc_shared`` allocate a buffer for the rest of the scope (TVM 0.27's ``AllocBuffer``
statement; here the ``Allocate`` + ``DeclBuffer`` pair classic ``T.decl_buffer`` makes), and
``T.sblock_alloc_buffer`` is the block allocation classic ``T.alloc_buffer`` spells."""
from __future__ import annotations

from typing import Any, cast

from tirkit.ir import Type
from tirkit.ir.type import PointerType, PrimType
from tirkit.ir.dtype import DataType
from tirkit.tir import Buffer, Call as _TirCall, Var as _TirVar, convert as _tir_convert

from . import tir as _tir
from .ir_builder import tir_frames as F
from .ir_builder.base import ScriptError
from .tirx_let import LetAnnotation
from .tirx_loops import LOOPS
from .ir_builder.tir_stmts import break_ as _break, continue_ as _continue
from .ir_builder.tir_stmts import decl_buffer as _decl_buffer, evaluate as _evaluate

#: classic names tirx does not have -> the tirx name to use instead
REMOVED = {"block": "sblock", "block_attr": "sblock_attr", "allocate": "alloc_buffer",
           "allocate_const": "alloc_buffer"}


def alloc_buffer(shape: Any, dtype: Any = "float32", data: Any = None, strides: Any = None,
                 elem_offset: Any = None, scope: str = "global", align: int = -1,
                 offset_factor: int = 0, annotations: dict[str, Any] | None = None
                 ) -> F.DeclBufferFrame:
    """Allocate a buffer for the rest of the scope (TVM 0.27 tirx ``T.alloc_buffer``, an
    ``AllocBuffer`` statement; classic ``T.decl_buffer`` without ``data``). ``shape`` in
    elements; ``align`` in bytes; ``annotations`` (e.g. ``{"tirx.volatile": True}``) go on the
    allocation (classic ``T.allocate(..., annotations=...)``). For a block's own buffers use
    ``T.sblock_alloc_buffer``.

    Raises:
        ScriptError: when ``data`` is given (that is ``T.decl_buffer(..., data=...)``).
    """
    if data is not None:
        raise ScriptError("tirx `T.alloc_buffer` allocates its own data: declare a buffer over "
                          "existing data with `T.decl_buffer(..., data=...)`", arg="data")
    frame = _decl_buffer(shape, dtype, None, strides, elem_offset, scope, align, offset_factor)
    frame.annotations = {k: _annotation(v) for k, v in (annotations or {}).items()}
    return frame


def _annotation(value: Any) -> Any:
    """An annotation value as TVM's FFI converts it: scalars to IR constants, lists (also
    empty ones: TVM's ``"buffer_allocated_addr": []``) and dicts element by element."""
    if isinstance(value, (list, tuple)):
        return [_annotation(v) for v in value]
    if isinstance(value, dict):
        return {k: _annotation(v) for k, v in value.items()}
    return _tir_convert(value)


def alloc_local(shape: Any, dtype: Any = "float32", strides: Any = None,
                elem_offset: Any = None, align: int = -1,
                offset_factor: int = 0) -> F.DeclBufferFrame:
    """``T.alloc_buffer(..., scope="local")`` (TVM 0.27 tirx ``T.alloc_local``)."""
    return alloc_buffer(shape, dtype, None, strides, elem_offset, "local", align, offset_factor)


def alloc_shared(shape: Any, dtype: Any = "float32", strides: Any = None,
                 elem_offset: Any = None, align: int = -1,
                 offset_factor: int = 0) -> F.DeclBufferFrame:
    """``T.alloc_buffer(..., scope="shared")`` (TVM 0.27 tirx ``T.alloc_shared``)."""
    return alloc_buffer(shape, dtype, None, strides, elem_offset, "shared", align, offset_factor)


def attr(node: Any, attr_key: Any = None, value: Any = None) -> F.AttrFrame:
    """An attribute scope: ``T.attr(node, key, value)``, or tirx's ``T.attr({key: value, ...})``
    for attributes on no node (TVM 0.27: one ``AttrStmt`` per key, node ``0``).

    Raises:
        ScriptError: for a dict with other arguments, or a non-string key.
    """
    if not isinstance(node, dict) or attr_key is not None:
        # a dict with a key is a node, not the sugar: T.attr(T.target("cuda"), "target", 0)
        return cast(F.AttrFrame, _tir.attr(node, attr_key, value))  # (the stub says Frame)
    if attr_key is not None or value is not None or not node:
        raise ScriptError("`T.attr({key: value, ...})` takes one non-empty dict alone", arg=0)
    for key in node:
        if not isinstance(key, str):
            raise ScriptError(f"T.attr: attribute keys are strings, got {key!r}", arg=0)
    return F.DictAttrFrame({k: _tir_convert(v) for k, v in node.items()})


class LoopJump:  # pylint: disable=too-few-public-methods
    """What :func:`break_loop` / :func:`continue_loop` return: their statement is already in
    the scope, and ``T.evaluate`` of it adds nothing (TVM 0.27's ``T.evaluate(T.break_loop())``,
    where the call is an expression)."""


def break_loop() -> LoopJump:
    """``break`` out of the innermost loop (TVM 0.27 tirx ``T.break_loop()``; also inside
    ``T.evaluate``)."""
    _break()
    return LoopJump()


def continue_loop() -> LoopJump:
    """``continue`` with the next iteration of the innermost loop (TVM 0.27 tirx
    ``T.continue_loop()``; also inside ``T.evaluate``)."""
    _continue()
    return LoopJump()


def evaluate(value: Any) -> None:
    """Evaluate an expression for its effect (TVM 0.27 tirx ``T.evaluate``); of
    ``T.break_loop()`` / ``T.continue_loop()``, the jump they already added."""
    if not isinstance(value, LoopJump):
        _evaluate(value)


def Return(value: Any) -> None:  # pylint: disable=invalid-name
    """``T.Return(v)`` returns ``v`` from the function (TVM 0.27 tirx ``T.Return``, the
    statement ``return v`` spells; here the ``T.evaluate(T.ret(v))`` of classic ``return v``,
    printed ``return v`` as TVM 0.27 prints its Return)."""
    _evaluate(_tir.ret(value))


def Var(name: str | None = None, ty: Any = None, span: Any = None, *,  # pylint: disable=C0103
        name_hint: str | None = None) -> Any:
    """A free variable (TVM 0.27 tirx ``T.Var(name, ty)``: the dtype argument is ``ty``, a
    dtype string or a type such as ``T.handle("float32")``; classic ``T.Var(name, dtype)``).
    ``name_hint`` is ``name``'s older keyword.

    Raises:
        ScriptError: when ``ty`` is neither a dtype string nor a type (TVM 0.27's message).
    """
    if ty is None:
        ty = "int32"
    elif not isinstance(ty, (str, DataType, Type)):
        raise ScriptError("ty must be a Type or primitive dtype string", arg="ty")
    return _TirVar(name_hint if name is None and name_hint is not None else name or "v", ty,
                    span=span)


def Call(*args: Any, ret_ty: Any = None, span: Any = None) -> Any:  # pylint: disable=C0103
    """A call expression: TVM 0.27 tirx ``T.Call(op, args, ret_ty=...)`` (the op first, its
    result type as ``ret_ty``: a dtype string, ``"void"``, a ``PrimType`` or a pointer type);
    without ``ret_ty`` the classic ``T.Call(dtype, op, args)``.

    Raises:
        ScriptError: for ``ret_ty`` with other than an op and a list of arguments.
    """
    if ret_ty is None:
        return _TirCall(*args, span=span)
    if len(args) != 2:
        raise ScriptError("T.Call(op, args, ret_ty=...) takes the op and the list of arguments")
    if isinstance(ret_ty, PointerType):
        ret_ty = "handle"
    elif isinstance(ret_ty, PrimType):
        ret_ty = ret_ty.dtype
    return _TirCall(ret_ty, args[0], args[1], span=span)


def prefetch(*args: Any) -> Any:
    """``T.prefetch(address, rw, locality, cache_type)``: the ``tir.prefetch`` intrinsic (a
    ``void`` call, LLVM's ``llvm.prefetch``), as TVM 0.27 prints a call of it; with a buffer
    and its bounds, the classic prefetch statement."""
    if args and isinstance(args[0], Buffer):
        return _tir.prefetch(*args)
    return _TirCall("void", "tir.prefetch", args)


def bind(value: Any, type_annotation: Any = None, *, var: Any = None) -> Any:
    """``x = T.bind(value)`` binds a new var to ``value`` over the rest of the scope (TVM 0.27
    tirx ``T.bind``, its flat ``Bind`` statement; the classic ``LetStmt``, printed
    ``x: T.let[T.float32] = value`` in tirx as TVM does). ``type_annotation`` types the var
    (a ``T.handle("float32")`` for a pointer); ``var`` binds an existing var."""
    return _tir.LetStmt(value, _typed(type_annotation), var=var)


def _typed(annotation: Any) -> Any:
    """``T.float32`` (the dtype function) called for a var of that type; else as given."""
    return annotation() if callable(annotation) and not hasattr(annotation, "dtype") \
        else annotation


class _Let:
    """tirx ``T.let``: ``T.let(v, value, body)`` is the ``Let`` expression (classic ``T.let``);
    ``x: T.let[T.int32] = value`` (``T.let[T.handle("float32")]``...) is a Bind, the LetStmt of
    classic ``x: T.int32 = value``, where tirx's ``x: T.int32 = value`` is a local scalar cell
    (TVM 0.27); a bare ``x: T.let = value`` binds a var of the value's type."""

    __name__ = "let"
    def __iter__(self) -> Any:
        """Not iterable: ``T.let[0], T.let[1], ...`` would never end."""
        raise TypeError("T.let is not iterable")

    def __call__(self, v: Any = None, value: Any = None, body: Any = None) -> Any:
        if v is None and value is None:
            # ``x: T.let = value`` (the annotation used bare): a Bind of the value's type
            return LetAnnotation(None)
        return _tir.let(v, value, body)

    def __getitem__(self, annotation: Any) -> Any:
        return LetAnnotation(_typed(annotation))  # T.let[T.int32]: the dtype function


class _PtxLegacy:
    """tirx ``T.ptx_legacy``: TVM 0.27's namespace of the classic PTX intrinsics,
    ``T.ptx_legacy.ldmatrix(dtype, ...)`` = ``T.ptx_ldmatrix`` and ``T.ptx_legacy.mma(dtype,
    ...)`` = ``T.ptx_mma`` (the same calls; tirx prints them so)."""

    def __init__(self) -> None:
        self.ldmatrix = _tir.ptx_ldmatrix
        self.mma = _tir.ptx_mma


#: names whose tirx meaning differs from, or is missing in, the classic namespace
TIRX_NAMES: dict[str, Any] = {"attr": attr, "alloc_buffer": alloc_buffer, "alloc_local": alloc_local,
                              "alloc_shared": alloc_shared, "bind": bind, "break_loop": break_loop,
                              "continue_loop": continue_loop, "evaluate": evaluate,
                              "Return": Return, "Var": Var, "Call": Call,
                              "prefetch": prefetch, **LOOPS}
_LET = _Let()
_PTX_LEGACY = _PtxLegacy()


class TirxNamespace:
    """``T`` for tirx files (mirrors ``tvm.script.tirx``); one instance per parsed file.

    ``s_tir`` is set by the parser from the current function's ``@T.prim_func(s_tir=...)``.
    """

    __tirkit_suggest__ = REMOVED

    def __init__(self) -> None:
        self.s_tir = False

    def __getattr__(self, name: str) -> Any:
        if name in REMOVED or name.startswith("_"):
            raise AttributeError(name)
        if name == "sblock":
            return self._sblock
        if name in TIRX_NAMES:
            return TIRX_NAMES[name]
        if name == "let":
            return _LET
        if name == "ptx_legacy":
            return _PTX_LEGACY
        return getattr(_tir, name)

    def __dir__(self) -> list[str]:
        return sorted({n for n in dir(_tir) if n not in REMOVED} | set(TIRX_NAMES)
                      | {"let", "ptx_legacy"})

    def _sblock(self, name: str = "", no_realize: bool = False) -> Any:
        if not self.s_tir:
            raise ScriptError("`T.sblock` needs `@T.prim_func(s_tir=True)` in the tirx dialect")
        return _tir.sblock(name, no_realize)
