"""tirkit: a Python toolchain for TVMScript (TVM's tensor IR), without TVM.

Layers (see DESIGN.md): ``tirkit.ir``/``tirkit.tir``/``tirkit.arith`` (the IR and arithmetic),
``tirkit.lang`` (front end), ``tirkit.printer``, ``tirkit.te``, ``tirkit.schedule``,
``tirkit.compiler``, and the ``tirfmt``/``tirc``/``tirls`` command lines.
"""

from . import _layers

__version__ = "0.1.0"


def _import_provider(slot: str) -> None:
    """Import the module that fills ``slot`` of :mod:`tirkit._layers` (when the slot is read
    before that module was imported): this package module is the one place above every layer,
    so only it names them all."""
    # pylint: disable=import-outside-toplevel,unused-import
    if slot == "tir.op":
        from .tir import op  # noqa: F401
    elif slot == "tir.stmt":
        from .tir import stmt  # noqa: F401
    elif slot == "tir.op_intrin":
        from .tir import op_intrin  # noqa: F401
    elif slot == "tir.stmt_functor":
        from .tir import stmt_functor  # noqa: F401
    elif slot == "index_map_inverse":
        from .tir import _index_map_inverse  # noqa: F401
    elif slot == "arith":
        from . import arith  # noqa: F401
    elif slot == "script":
        from . import printer  # noqa: F401
    elif slot in ("parse_python_function", "parse_python_class"):
        from .lang import entry  # noqa: F401


_layers.set_importer(_import_provider)
