"""Getters: get_block, get_loops, get_child_blocks, get_producers, get_consumers,
get_output_blocks (mirrors ``src/tir/schedule/primitive/get_block_loop.cc``).
"""
from __future__ import annotations

import difflib
from typing import Any, cast

from ...tir.stmt import Block, For
from ...tir.function import PrimFunc
from .. import analysis as A
from .. import errors as err
from ..block_scope import DepKind
from ..schedule import Schedule, primitive
from ..state import StmtSRef

NotSingleResult = err.NotSingleResult


def _default_func(sch: Schedule, arguments: dict) -> None:
    if arguments.get("func_name") is None:
        arguments["func_name"] = sch.func_working_on


@primitive("GetBlock", attrs=("name", "func_name"), pure=True, outputs="one",
           normalize=_default_func)
def get_block(sch: Schedule, name: str, func_name: str | None = None) -> Any:
    """The block named ``name`` in function ``func_name`` (default: the function worked on)
    (``Schedule.get_block``).

    Raises:
        ScheduleError: ``BlockNotFoundError`` (a ``NotSingleResult``) when no block has the
            name, ``NotSingleResult`` when more than one has it.
    """
    func = func_name or sch.func_working_on
    if func is None or func not in sch.state.roots:
        raise NotSingleResult(reason=f"no function to search for block {name!r}: the module has "
                              "several functions; pass func_name or call work_on")
    blocks = [s for s in sch.state.srefs(func) if s.is_block]
    found = [s for s in blocks if s.stmt.name_hint == name]
    if not found:
        raise err.BlockNotFoundError(
            reason=f'Cannot find a block with the name "{name}" in function "{func}"'
            f'{_like(name, [s.stmt.name_hint for s in blocks])}')
    if len(found) != 1:
        raise NotSingleResult(*[s.stmt for s in found], reason=f'Found {len(found)} blocks '
                              f'with the name "{name}" in function "{func}"')
    return sch._new_rv(found[0])  # pylint: disable=protected-access


def _like(name: str, names: list[str]) -> str:
    """The blocks named like ``name``: its renamed parts (``B_i0``/``B_rf``, as loop_partition,
    rfactor and decompose_reduction name them) or close spellings; ``""`` when none."""
    derived = [n for n in names if isinstance(n, str) and n.startswith(f"{name}_")]
    lower = {n.lower(): n for n in names if isinstance(n, str) and n}
    like = derived[:6] or [lower[n] for n in difflib.get_close_matches(name.lower(), lower, n=3)]
    return f"; blocks named like it: {', '.join(like)}" if like else ""


@primitive("GetLoops", pure=True, outputs="list")
def get_loops(sch: Schedule, block: Any) -> list[Any]:
    """The loops above ``block`` up to its scope root, outermost first (``Schedule.get_loops``)."""
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    return [sch._new_rv(s) for s in A.get_loops(sref)]  # pylint: disable=protected-access


@primitive("GetChildBlocks", pure=True, outputs="list")
def get_child_blocks(sch: Schedule, block_or_loop: Any) -> list[Any]:
    """The blocks directly under a block or loop, in order (``Schedule.get_child_blocks``)."""
    sref = sch._sref(block_or_loop)  # pylint: disable=protected-access
    return [sch._new_rv(s) for s in A.get_child_blocks(sch.state, sref)]  # pylint: disable=W0212


def _deps(sch: Schedule, block: Any, consumers: bool) -> list[Any]:
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    root = cast(StmtSRef, A.get_scope_root(sref))  # (checked: not the root block)
    if root is None:
        return []
    scope = sch.state.get_block_scope(root)
    deps = scope.get_deps_by_src(sref) if consumers else scope.get_deps_by_dst(sref)
    out: list[Any] = []
    for dep in deps:
        other = dep.dst if consumers else dep.src
        if dep.kind in (DepKind.RAW, DepKind.WAW) and all(o is not other for o in out):
            out.append(other)
    return [sch._new_rv(s) for s in out]  # pylint: disable=protected-access


@primitive("GetProducers", pure=True, outputs="list")
def get_producers(sch: Schedule, block: Any) -> list[Any]:
    """Blocks of the same scope that ``block`` depends on by RAW/WAW
    (``Schedule.get_producers``)."""
    return _deps(sch, block, consumers=False)


@primitive("GetConsumers", pure=True, outputs="list")
def get_consumers(sch: Schedule, block: Any) -> list[Any]:
    """Blocks of the same scope that depend on ``block`` by RAW/WAW
    (``Schedule.get_consumers``)."""
    return _deps(sch, block, consumers=True)


@primitive("GetOutputBlocks", pure=True, outputs="list")
def get_output_blocks(sch: Schedule, scope_block: Any) -> list[Any]:
    """Blocks under ``scope_block`` that write a buffer not allocated in the function
    (``Schedule.get_output_blocks``)."""
    sref = sch._block_sref(scope_block)  # pylint: disable=protected-access
    func = cast(PrimFunc, sch.mod[sch.state.func_of(sref)])
    params = set(func.buffer_map.values())
    out = [s for s in A.get_child_blocks(sch.state, sref)
           if any(r.buffer in params for r in s.stmt.writes)]
    return [sch._new_rv(s) for s in out]  # pylint: disable=protected-access


__all__ = ["get_block", "get_loops", "get_child_blocks", "get_producers", "get_consumers",
           "get_output_blocks", "Block", "For"]
