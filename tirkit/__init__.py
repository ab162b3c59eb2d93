"""tirkit: a Python toolchain for TVMScript (TVM's tensor IR), without TVM.

Layers (see DESIGN.md): ``tirkit.ir``/``tirkit.tir``/``tirkit.arith`` (the IR and arithmetic),
``tirkit.lang`` (front end), ``tirkit.printer``, ``tirkit.te``, ``tirkit.schedule``,
``tirkit.compiler``, and the ``tirfmt``/``tirc``/``tirls`` command lines.
"""

__version__ = "0.1.0"

from . import _layers


# The importers of the layers that fill tirkit._layers' slots: this package module is the one
# place above every layer, so only it names them all (a slot read before its layer was imported
# imports the layer through these).
def _import_tir_op() -> None:
    from .tir import op  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import


def _import_arith() -> None:
    from . import arith  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import


def _import_printer() -> None:
    from . import printer  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import


_layers.IMPORTERS.update({"tir.op": _import_tir_op, "arith": _import_arith,
                          "script": _import_printer})
