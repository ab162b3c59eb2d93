"""The TIR IRBuilder namespace (mirrors ``tvm.script.ir_builder.tir``): the ``T`` namespace's
functions, with ``prim_func()`` the PrimFunc *frame* instead of the parsing decorator, so IR can
be built imperatively by running Python (seed 001's "IRBuilder as core")::

    from tirkit.lang.ir_builder import IRBuilder, tir as T

    with IRBuilder() as b:
        with T.prim_func():
            T.func_name("main")
            A = T.arg("A", T.Buffer((128,), "float32"))
            with T.grid(128) as i:
                T.buffer_store(A, A[i] * 2.0, [i])
    func = b.get()
"""
# pylint: disable=wildcard-import,unused-wildcard-import,redefined-builtin
import builtins  # (the wildcard import below shadows bool: T.bool)

from tirkit.lang.tir import *  # noqa: F401,F403  (every T function, as the parser sees them)

from . import tir_frames as _F
from .base import IRBuilder as _IRBuilder


class _CompletedPrimFuncFrame(_F.PrimFuncFrame):
    """A PrimFunc frame completed on exit as TVM's ``PrimFuncFrame`` is (``ScriptComplete``:
    the implicit root block, the reads/writes of blocks that declared none); the parser
    completes its functions itself, after attaching their spans."""

    def exit(self) -> None:
        super().exit()
        from ..complete import script_complete  # pylint: disable=import-outside-toplevel

        builder = _IRBuilder.current()
        if getattr(builder, "_has_result", False) and \
                isinstance(builder.result, _F.tir.PrimFunc):
            builder.set_result(script_complete(builder.result))


def prim_func(is_private: builtins.bool = False) -> _F.PrimFuncFrame:  # type: ignore[no-redef]
    """``with T.prim_func():`` starts a PrimFunc built by the statements inside (mirrors
    ``tvm.script.ir_builder.tir.prim_func``); ``IRBuilder.get()`` returns it completed."""
    return _CompletedPrimFuncFrame(is_private)
