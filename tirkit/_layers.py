"""Late binding between tirkit's layers, so that every import points down (DESIGN.md §2).

A few functions of a lower layer call into a higher one: ``PrimExpr``'s operator overloads (ir)
build IR through tir's op functions, ``Node.script`` (ir) prints through the printer, and
``IndexMap``, ``Buffer`` slicing and the block region detection (tir) analyse through arith. The
lower layer reads such a function from a slot of this table, which the higher layer fills at its
import (:func:`provide`). A slot read before its layer was imported (``IntImm("int32", 1) + 1``
after ``import tirkit.ir`` alone) makes :func:`get` import that layer first, through the importer
that ``tirkit/__init__.py`` (the one module above every layer) registers in :data:`IMPORTERS`.

==========  =======================================  =========================================
slot        filled by, at its import                 read by
==========  =======================================  =========================================
``tir.op``  ``tirkit.tir.op`` (the module)           ``tirkit.ir.expr`` (PrimExpr operators)
``arith``   ``tirkit.arith``: ``Analyzer``,          ``tirkit.tir``: ``index_map``,
            ``detect_iter_map``, ``eval_set``,       ``_index_map_inverse``, ``buffer``,
            ``IntervalSet``, ``IterSumExpr``         ``block_access``
``script``  ``tirkit.printer`` (``script``)          ``tirkit.ir.node`` (``Node.script``)
==========  =======================================  =========================================

This module imports nothing of tirkit (no TVM counterpart: TVM's C++ layers link together).
"""
from __future__ import annotations

from typing import Any, Callable

_SLOTS: dict[str, Any] = {}

#: slot -> a function that imports the layer filling it (registered by ``tirkit/__init__.py``)
IMPORTERS: dict[str, Callable[[], object]] = {}


def provide(slot: str, value: Any) -> None:
    """Fill ``slot`` with ``value`` (called by the providing layer at its import)."""
    _SLOTS[slot] = value


def get(slot: str) -> Any:
    """The value of ``slot``, importing the layer that fills it when not imported yet.

    Raises:
        KeyError: for a slot that no layer provides.
    """
    value = _SLOTS.get(slot)
    if value is None:
        IMPORTERS[slot]()
        value = _SLOTS[slot]
    return value
