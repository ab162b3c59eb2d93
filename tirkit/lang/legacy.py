"""The legacy hybrid-script dialect of seed 000 (TVM <= 0.8): the ``tir`` and ``ty`` namespaces
and how its units are found in a file.

A legacy unit has no ``@T.prim_func`` decorator: it is a ``class Module:`` whose methods take
``ty.handle``/``ty.int32`` parameters, or such a function on its own (also under the old
``@tvm.hybrid.script`` / ``@tvm.script.tir`` decorators). Its statements are parsed by the
``legacy`` dispatch table (:mod:`tirkit.lang.parser.legacy_handlers`) into the same IR the current
syntax gives:

- ``tir.buffer_bind(h, shape, ...)`` is ``T.match_buffer``; ``tir.range(a, b)`` ``T.serial``;
  ``tir.func_attr``, ``tir.attr``, ``tir.evaluate``, ``tir.allocate``, the dtype constructors and
  the intrinsics are the classic ones (``dtype=`` keywords accepted); ``tir.cast(dtype, x)`` takes
  the dtype first;
- ``tir.realize(region)`` is a ``BufferRealize`` whose ``realize_scope`` comes from the
  ``tir.attr(buf, "realize_scope", ...)`` before it (together: ``T.realize(region, scope)``);
- ``tir.load(dtype, ptr, i)``, ``tir.store(ptr, i, value)`` and ``ptr[i] = value`` on a pointer
  (``C_1.data[i]``) access a flat buffer over that pointer (``T.Buffer((n,), dtype, data=ptr)``:
  ``n`` the size of the buffer the pointer belongs to, else 1), one per pointer and dtype;
- ``meta[Target][0]`` (the printed host module's target) is ``T.target("llvm")``.

No TVM counterpart (TVM dropped the dialect in v0.9).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, cast

from tirkit import tir as _tir

from . import tir as _T
from .ir_builder import tir_api as _TB
from .ir_builder.base import ScriptError
from .ir_builder.tir_frames import _BodyFrame

#: decorators that marked a hybrid-script function in TVM <= 0.8
LEGACY_DECORATORS = frozenset({"tvm.hybrid.script", "hybrid.script", "tvm.script.tir",
                               "tvm.script.script", "script"})


class BufferRealizeFrame(_BodyFrame):
    """``tir.realize(region)``: a ``BufferRealize`` over the rest of the scope (its
    ``realize_scope`` attribute is the ``tir.attr`` statement written before it)."""

    def __init__(self, region: Any, condition: Any) -> None:
        super().__init__()
        self.region, self.condition = region, condition

    def wrap(self, body: Any) -> Any:
        return _tir.BufferRealize(self.region.buffer, self.region.region, self.condition, body)


class LegacyTir:
    """``tir`` in a legacy unit (one instance per unit: it keeps the unit's flat buffers)."""

    __tirkit_exact_errors__ = False

    def __init__(self) -> None:
        self._flat: dict[tuple[int, str], _tir.Buffer] = {}
        self._bound: dict[int, _tir.Buffer] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(_T, name)

    # ------------------------------------------------------------------ renamed functions
    def range(self, begin: Any, end: Any = None) -> Any:
        """``tir.range(begin, end)``: a serial loop (``T.serial``)."""
        return _T.serial(begin, end)

    def buffer_bind(self, param: Any, shape: Any, dtype: Any = "float32", **kwargs: Any) -> Any:
        """``tir.buffer_bind(handle, shape, ...)``: ``T.match_buffer``."""
        buf = _TB.match_buffer(param, shape, dtype, **kwargs)
        self._bound[id(buf.data)] = buf
        return buf

    def cast(self, dtype: Any, value: Any) -> Any:
        """``tir.cast(dtype, value)`` (the dtype comes first in the legacy dialect)."""
        return _tir.cast(dtype, value)

    def realize(self, region: Any, scope: str | None = None, condition: Any = True) -> Any:
        """``tir.realize(C[0:n, 0:m])``: a ``BufferRealize``; with ``scope`` it is
        ``T.realize(region, scope)`` (the ``realize_scope`` attribute included)."""
        if not isinstance(region, _tir.BufferRegion):
            raise ScriptError("tir.realize takes a buffer region such as C[0:16, 0:16]", arg=0)
        if scope is not None:
            return _T.realize(cast(Any, region), scope, condition)  # (the stub's BufferRegion)
        return BufferRealizeFrame(region, _tir.convert(condition))

    # ------------------------------------------------------------------ pointer accesses
    def flat_buffer(self, ptr: Any, dtype: Any) -> _tir.Buffer:
        """The flat buffer of ``dtype`` over pointer ``ptr`` (one per pointer and dtype)."""
        if not isinstance(ptr, _tir.Var):
            raise ScriptError(f"expected a pointer (a handle var or buf.data), got "
                              f"{type(ptr).__name__}")
        dtype = _tir.DataType(str(dtype)).element_of()  # a vector access uses a Ramp index
        key = (id(ptr), str(dtype))
        if key not in self._flat:
            owner = self._bound.get(id(ptr))
            size: Any = 1
            if owner is not None:
                for extent in owner.shape:
                    size = size * extent
            buf = _tir.decl_buffer((size,), dtype, f"{ptr.name_hint}_flat", data=ptr)
            self._flat[key] = buf
        return self._flat[key]

    def load(self, dtype: Any, ptr: Any, index: Any, predicate: Any = None) -> Any:
        """``tir.load(dtype, ptr, index[, predicate])``: a BufferLoad of the flat buffer."""
        return _tir.BufferLoad(self.flat_buffer(ptr, dtype), [index], _predicate(predicate))

    def store(self, ptr: Any, index: Any, value: Any, predicate: Any = None) -> Any:
        """``tir.store(ptr, index, value[, predicate])``: a BufferStore into the flat buffer."""
        value = _tir.convert(value)
        return _tir.BufferStore(self.flat_buffer(ptr, value.dtype), value, [index],
                                _predicate(predicate))


def _predicate(value: Any) -> Any:
    """The legacy printer wrote ``True`` for an unmasked access: that is no predicate."""
    if value is None or value is True:
        return None
    if isinstance(value, _tir.IntImm) and value.dtype.is_bool() and value.value:
        return None
    return value


class Ty:
    """``ty`` in a legacy unit: ``ty.handle``, ``ty.int32`` ... (the classic dtype functions)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name == "bool":
            return _T.boolean
        return getattr(_T, name)


class Meta:
    """``meta[Target][0]``: the printed host module's target, taken as ``T.target("llvm")``."""

    def __getitem__(self, key: Any) -> Any:
        if key == "Target":
            return [_T.target("llvm")]
        raise ScriptError(f"meta[{key}] is not known: tirkit has no metadata section")


def legacy_env() -> dict[str, Any]:
    """Names a legacy unit sees (fresh per unit)."""
    return {"tir": LegacyTir(), "ty": Ty(), "meta": Meta(), "Target": "Target"}


# ------------------------------------------------------------------------------ discovery
@dataclass(frozen=True)
class LegacyUnit:
    """A legacy unit of a file: ``[start, end)`` offsets (from its first line through the end of
    its last line), its name and kind (``"ir_module"`` for a class, ``"prim_func"``)."""

    name: str
    kind: str
    start: int
    end: int


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _dotted(node.func)
    return ""


def _uses_ty(func: ast.FunctionDef) -> bool:
    anns = [a.annotation for a in func.args.args + func.args.kwonlyargs] + [func.returns]
    return any(isinstance(a, ast.Attribute) and _dotted(a.value) == "ty" for a in anns if a)


def _is_legacy_func(node: ast.AST) -> bool:
    if not isinstance(node, ast.FunctionDef):
        return False
    decos = {_dotted(d) for d in node.decorator_list}
    if decos & LEGACY_DECORATORS:
        return True
    return not node.decorator_list and _uses_ty(node)


def _is_legacy_class(node: ast.AST) -> bool:
    return (isinstance(node, ast.ClassDef) and not node.decorator_list
            and any(_is_legacy_func(s) for s in node.body)
            and all(isinstance(s, ast.FunctionDef) or _is_docstring(s) for s in node.body))


def _is_docstring(stmt: ast.AST) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(getattr(stmt, "value", None), ast.Constant)


def find_legacy_units(text: str) -> list[LegacyUnit]:
    """The legacy units at the top level of a Python file (none when the file is not valid
    Python: the host layer reports that)."""
    if "ty." not in text and "hybrid" not in text and "tvm.script.tir" not in text:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    starts = _line_starts(text)
    out = []
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and (
                _is_legacy_class(node) or _is_legacy_func(node)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            end_line = node.end_lineno or node.lineno
            end = starts[end_line] if end_line < len(starts) else len(text)
            while end > 0 and text[end - 1] in "\r\n":
                end -= 1
            kind = "ir_module" if isinstance(node, ast.ClassDef) else "prim_func"
            out.append(LegacyUnit(node.name, kind, starts[first - 1], end))
    return out


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts
