"""Late binding between tirkit's layers and modules, so that every import points down (house
rule: no import cycles; DESIGN.md §2).

A few functions of a lower module call into a higher one: ``PrimExpr``'s operator overloads (ir)
build IR through tir's op functions, ``Node.script`` (ir) prints through the printer, ``IndexMap``,
``Buffer`` slicing and the block region detection (tir) analyse through arith. The lower module
reads such a function from a slot of this table, which the higher module fills at its import
(:func:`provide`). A slot read before its module was imported (``IntImm("int32", 1) + 1`` after
``import tirkit.ir`` alone) makes :func:`get` import that module first, through the importer that
``tirkit/__init__.py`` (the one module above every layer) installs (:func:`set_importer`).

=========================  ==================================  =================================
slot                       filled by, at its import            read by
=========================  ==================================  =================================
``tir.op``                 ``tirkit.tir.op`` (the module)      ``tirkit.ir.expr`` (PrimExpr
                                                               operators), ``tirkit.tir.expr``
``arith``                  ``tirkit.arith``: ``Analyzer``,     ``tirkit.tir``: ``index_map``,
                           ``detect_iter_map``, ``eval_set``,  ``_index_map_inverse``,
                           ``IntervalSet``, ``IterSumExpr``    ``buffer``, ``block_access``
``script``                 ``tirkit.printer`` (``script``)     ``tirkit.ir.node`` (Node.script)
``tir.stmt``               ``tirkit.tir.stmt`` (the module)    ``tirkit.tir.buffer``
``tir.op_intrin``          ``tirkit.tir.op_intrin`` (module)   ``tirkit.tir.buffer``
``tir.stmt_functor``       ``tirkit.tir.stmt_functor``         ``tirkit.tir.expr`` (CommReducer)
``index_map_inverse``      ``tirkit.tir._index_map_inverse``   ``tirkit.tir.index_map``
                           (``inverse_impl``)
``parse_python_function``  ``tirkit.lang.entry``               ``tirkit.lang.tir`` (T.prim_func)
``parse_python_class``     ``tirkit.lang.entry``               ``tirkit.lang.ir`` (I.ir_module)
=========================  ==================================  =================================

This module imports nothing of tirkit (no TVM counterpart: TVM's C++ layers link together).
"""
from __future__ import annotations

from typing import Any, Callable

_SLOTS: dict[str, Any] = {}
_IMPORTER: list[Callable[[str], object]] = []  # set by tirkit/__init__.py


def provide(slot: str, value: Any) -> None:
    """Fill ``slot`` with ``value`` (called by the providing module at its import)."""
    _SLOTS[slot] = value


def set_importer(importer: Callable[[str], object]) -> None:
    """Install ``importer(slot)``, which imports the module that fills ``slot``."""
    _IMPORTER[:] = [importer]


def get(slot: str) -> Any:
    """The value of ``slot``, importing the module that fills it when not imported yet.

    Raises:
        KeyError: for a slot that no module provides.
    """
    value = _SLOTS.get(slot)
    if value is None:
        for importer in _IMPORTER:
            importer(slot)
        value = _SLOTS[slot]
    return value
