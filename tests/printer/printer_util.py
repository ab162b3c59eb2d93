"""Helpers of the printer tests: parse printed TVMScript back with tirkit's front end."""
from __future__ import annotations

from typing import Any

from tirkit.ir import IRModule
from tirkit.ir.type import PrimType
from tirkit.lang import from_source
from tirkit.tir import PrimFunc, Var

HEADERS = {
    "tir": "from tvm.script import ir as I\nfrom tvm.script import tir as T\n",
    "tirx": "from tvm.script import ir as I\nfrom tvm.script import tirx as T\n",
}


def parse(text: str, dialect: str = "tir") -> Any:
    """IR of TVMScript ``text`` (a function or module); the printed ``# from ...`` header is a
    comment, so a real import is put in front (``from_source`` finds units by their imports)."""
    return from_source(HEADERS[dialect] + text)


def _fix_ret(func: Any) -> Any:
    # The parser currently evaluates ``-> T.int32`` to a Var instead of a PrimType (reported);
    # normalise so the round trip compares the rest of the function.
    if isinstance(func, PrimFunc) and isinstance(func.ret_type, Var):
        return func.with_changes(ret_type=PrimType(func.ret_type.dtype))
    return func


def normalize(ir: Any) -> Any:
    """``ir`` with the known parser quirks above undone."""
    if isinstance(ir, IRModule):
        return IRModule({gv: _fix_ret(f) for gv, f in ir.functions.items()}, ir.attrs)
    return _fix_ret(ir)
