"""Dtype constructors of the ``T`` namespace (mirrors the dtype functions of
``tvm.script.ir_builder.tir.ir``): ``T.int32()`` declares a var, ``T.int32(5)`` is a constant,
``T.int64(i)`` a cast. Every name is defined explicitly so static tools can read them.
"""
from __future__ import annotations

from typing import Any, Callable

from tirkit import tir
from tirkit.ir import PointerType, PrimExpr, PrimType
from tirkit.ir.dtype import dtype as _dtype


def _dtype_func(name: str) -> Callable[..., PrimExpr]:
    t = _dtype(name)

    def func(expr: Any = None, is_size_var: bool = False) -> PrimExpr:
        if expr is None:
            return (tir.SizeVar if is_size_var else tir.Var)("", t)
        if isinstance(expr, str) and expr in ("inf", "-inf", "nan"):
            expr = float(expr)  # TVM: T.float32("inf") as printed for infinities
        if isinstance(expr, (bool, int, float)):
            return tir.const(expr, t)
        return tir.cast(t, expr)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = (f"``T.{name}()`` declares a {name} var, ``T.{name}(3)`` is a constant, "
                    f"``T.{name}(e)`` casts ``e`` (mirrors TVM's ``T.{name}``).")
    return func


def handle(dtype: Any = None, storage_scope: str = "global", *, is_size_var: bool = False
           ) -> tir.Var:
    """A ``handle`` var; with ``dtype`` a typed pointer into ``storage_scope`` (``T.handle``)."""
    del is_size_var
    if dtype is None:
        return tir.Var("", "handle")
    return tir.Var("", PointerType(PrimType(_dtype(dtype)), storage_scope))


def ptr(dtype: Any, storage_scope: str = "global", *, is_size_var: bool = False) -> tir.Var:
    """A typed pointer var (``T.ptr``)."""
    return handle(dtype, storage_scope, is_size_var=is_size_var)


def void(expr: Any = None) -> Any:
    """The void type (``T.void``): with no argument the type itself, used as a return annotation."""
    return _dtype("void") if expr is None else tir.cast("void", expr)


def boolean(expr: Any = None, is_size_var: bool = False) -> PrimExpr:
    """``T.bool``: a bool var, constant or cast (mirrors TVM's ``T.bool``)."""
    return _dtype_func("bool")(expr, is_size_var)

int8 = _dtype_func("int8")
int8x2 = _dtype_func("int8x2")
int8x4 = _dtype_func("int8x4")
int8x8 = _dtype_func("int8x8")
int8x16 = _dtype_func("int8x16")
int8x32 = _dtype_func("int8x32")
int8x64 = _dtype_func("int8x64")
int16 = _dtype_func("int16")
int16x2 = _dtype_func("int16x2")
int16x4 = _dtype_func("int16x4")
int16x8 = _dtype_func("int16x8")
int16x16 = _dtype_func("int16x16")
int16x32 = _dtype_func("int16x32")
int16x64 = _dtype_func("int16x64")
int32 = _dtype_func("int32")
int32x2 = _dtype_func("int32x2")
int32x4 = _dtype_func("int32x4")
int32x8 = _dtype_func("int32x8")
int32x16 = _dtype_func("int32x16")
int32x32 = _dtype_func("int32x32")
int32x64 = _dtype_func("int32x64")
int64 = _dtype_func("int64")
int64x2 = _dtype_func("int64x2")
int64x4 = _dtype_func("int64x4")
int64x8 = _dtype_func("int64x8")
int64x16 = _dtype_func("int64x16")
int64x32 = _dtype_func("int64x32")
int64x64 = _dtype_func("int64x64")
uint8 = _dtype_func("uint8")
uint8x2 = _dtype_func("uint8x2")
uint8x4 = _dtype_func("uint8x4")
uint8x8 = _dtype_func("uint8x8")
uint8x16 = _dtype_func("uint8x16")
uint8x32 = _dtype_func("uint8x32")
uint8x64 = _dtype_func("uint8x64")
uint16 = _dtype_func("uint16")
uint16x2 = _dtype_func("uint16x2")
uint16x4 = _dtype_func("uint16x4")
uint16x8 = _dtype_func("uint16x8")
uint16x16 = _dtype_func("uint16x16")
uint16x32 = _dtype_func("uint16x32")
uint16x64 = _dtype_func("uint16x64")
uint32 = _dtype_func("uint32")
uint32x2 = _dtype_func("uint32x2")
uint32x4 = _dtype_func("uint32x4")
uint32x8 = _dtype_func("uint32x8")
uint32x16 = _dtype_func("uint32x16")
uint32x32 = _dtype_func("uint32x32")
uint32x64 = _dtype_func("uint32x64")
uint64 = _dtype_func("uint64")
uint64x2 = _dtype_func("uint64x2")
uint64x4 = _dtype_func("uint64x4")
uint64x8 = _dtype_func("uint64x8")
uint64x16 = _dtype_func("uint64x16")
uint64x32 = _dtype_func("uint64x32")
uint64x64 = _dtype_func("uint64x64")
float16 = _dtype_func("float16")
float16x2 = _dtype_func("float16x2")
float16x4 = _dtype_func("float16x4")
float16x8 = _dtype_func("float16x8")
float16x16 = _dtype_func("float16x16")
float16x32 = _dtype_func("float16x32")
float16x64 = _dtype_func("float16x64")
float32 = _dtype_func("float32")
float32x2 = _dtype_func("float32x2")
float32x4 = _dtype_func("float32x4")
float32x8 = _dtype_func("float32x8")
float32x16 = _dtype_func("float32x16")
float32x32 = _dtype_func("float32x32")
float32x64 = _dtype_func("float32x64")
float64 = _dtype_func("float64")
float64x2 = _dtype_func("float64x2")
float64x4 = _dtype_func("float64x4")
float64x8 = _dtype_func("float64x8")
float64x16 = _dtype_func("float64x16")
float64x32 = _dtype_func("float64x32")
float64x64 = _dtype_func("float64x64")
bfloat16 = _dtype_func("bfloat16")
float8_e4m3fn = _dtype_func("float8_e4m3fn")
float8_e5m2 = _dtype_func("float8_e5m2")
uint1 = _dtype_func("uint1")

DTYPE_FUNCS: tuple[str, ...] = (
    "int8",
    "int8x2",
    "int8x4",
    "int8x8",
    "int8x16",
    "int8x32",
    "int8x64",
    "int16",
    "int16x2",
    "int16x4",
    "int16x8",
    "int16x16",
    "int16x32",
    "int16x64",
    "int32",
    "int32x2",
    "int32x4",
    "int32x8",
    "int32x16",
    "int32x32",
    "int32x64",
    "int64",
    "int64x2",
    "int64x4",
    "int64x8",
    "int64x16",
    "int64x32",
    "int64x64",
    "uint8",
    "uint8x2",
    "uint8x4",
    "uint8x8",
    "uint8x16",
    "uint8x32",
    "uint8x64",
    "uint16",
    "uint16x2",
    "uint16x4",
    "uint16x8",
    "uint16x16",
    "uint16x32",
    "uint16x64",
    "uint32",
    "uint32x2",
    "uint32x4",
    "uint32x8",
    "uint32x16",
    "uint32x32",
    "uint32x64",
    "uint64",
    "uint64x2",
    "uint64x4",
    "uint64x8",
    "uint64x16",
    "uint64x32",
    "uint64x64",
    "float16",
    "float16x2",
    "float16x4",
    "float16x8",
    "float16x16",
    "float16x32",
    "float16x64",
    "float32",
    "float32x2",
    "float32x4",
    "float32x8",
    "float32x16",
    "float32x32",
    "float32x64",
    "float64",
    "float64x2",
    "float64x4",
    "float64x8",
    "float64x16",
    "float64x32",
    "float64x64",
    "bfloat16",
    "float8_e4m3fn",
    "float8_e5m2",
    "uint1",
)
