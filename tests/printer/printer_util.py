"""Helpers of the printer tests: parse printed TVMScript back with tirkit's front end."""
from __future__ import annotations

from typing import Any

from tirkit.lang import from_source

TIRX_HEADER = "from tvm.script import ir as I\nfrom tvm.script import tirx as T\n"


def parse(text: str, dialect: str = "tir") -> Any:
    """IR of printed TVMScript ``text`` (a function or module). Its ``# from ...`` header is a
    comment; ``from_source`` then reads ``T``/``I`` as tvm.script's, as TVM does. The tirx
    dialect gets a real tirx import."""
    return from_source(TIRX_HEADER + text if dialect == "tirx" else text)
