"""Producer/consumer dependencies between the child blocks of a scope (mirrors
``tvm.tir.schedule.BlockScope``, ``Dependency`` and ``DepKind``; C++ ``state.cc``).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Sequence


class DepKind(IntEnum):
    """Kind of a dependency (mirrors ``tvm.tir.schedule.DepKind``)."""

    RAW = 0
    WAW = 1
    WAR = 2
    OPAQUE = 3


@dataclass(frozen=True, eq=False)
class Dependency:
    """``src`` must run before ``dst`` because of ``kind`` (``tvm.tir.schedule.Dependency``);
    ``src``/``dst`` are block srefs."""

    src: Any
    dst: Any
    kind: DepKind


class BlockScope:
    """Dependencies among the child blocks of one scope block (``tvm.tir.schedule.BlockScope``).

    Built as TVM builds it: walking the child blocks in program order, a block that reads a
    buffer an earlier block writes depends on it (RAW), one that writes it depends on earlier
    writers (WAW) and readers (WAR).
    """

    def __init__(self, child_block_srefs: Sequence[Any]) -> None:
        self.child_block_srefs = list(child_block_srefs)
        self.src2deps: dict[Any, list[Dependency]] = {}
        self.dst2deps: dict[Any, list[Dependency]] = {}
        self.buffer_writers: dict[Any, list[Any]] = {}
        readers: dict[Any, list[Any]] = {}
        for sref in self.child_block_srefs:
            block = sref.stmt
            for region in block.reads:
                readers.setdefault(region.buffer, []).append(sref)
            for region in block.writes:
                self.buffer_writers.setdefault(region.buffer, []).append(sref)
            for region in block.reads:
                for src in self.buffer_writers.get(region.buffer, ()):
                    self._add(src, sref, DepKind.RAW)
            for region in block.writes:
                for src in self.buffer_writers.get(region.buffer, ()):
                    self._add(src, sref, DepKind.WAW)
                for src in readers.get(region.buffer, ()):
                    self._add(src, sref, DepKind.WAR)

    def _add(self, src: Any, dst: Any, kind: DepKind) -> None:
        if src is dst:
            return
        for dep in self.src2deps.get(src, ()):
            if dep.dst is dst and dep.kind == kind:
                return
        dep = Dependency(src, dst, kind)
        self.src2deps.setdefault(src, []).append(dep)
        self.dst2deps.setdefault(dst, []).append(dep)

    def get_deps_by_src(self, block: Any) -> list[Dependency]:
        """Dependencies whose source is ``block`` (``BlockScope.get_deps_by_src``)."""
        return list(self.src2deps.get(block, ()))

    def get_deps_by_dst(self, block: Any) -> list[Dependency]:
        """Dependencies whose destination is ``block`` (``BlockScope.get_deps_by_dst``)."""
        return list(self.dst2deps.get(block, ()))
