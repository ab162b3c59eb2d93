"""Chains of frame-opening nodes for the printer's common-prefix analysis (TVM keeps them as
vectors of frames in ``IRDocsifier::SetCommonPrefix``).

A :class:`FramePath` is a linked list from the root, each link one enclosing frame-opening node,
with skew-binary jump pointers (Myers' level-ancestor scheme): extending a path, testing whether
one path is a prefix of another and finding the common prefix of two paths cost O(1), O(log d)
and O(log d) for paths d deep. Tuples of ids cost O(d) for each of them, which made the
printing of IR thousands of frames deep (a chain of 20,000 LetStmts) quadratic.
"""
from __future__ import annotations

from typing import Iterator


class FramePath:
    """One frame-opening node (``key``: its id) below the path ``parent``; :data:`ROOT` is the
    empty path."""

    __slots__ = ("parent", "key", "depth", "jump")

    def __init__(self, parent: "FramePath | None", key: int) -> None:
        self.key = key
        if parent is None:  # the root: its own parent and jump
            self.parent, self.depth, self.jump = self, 0, self
            return
        self.parent = parent
        self.depth = parent.depth + 1
        j = parent.jump
        self.jump = j.jump if parent.depth - j.depth == j.depth - j.jump.depth else parent

    def ancestor(self, depth: int) -> "FramePath":
        """The prefix of this path ``depth`` links long (``depth`` <= this path's)."""
        node = self
        while node.depth > depth:
            node = node.jump if node.jump.depth >= depth else node.parent
        return node

    def starts_with(self, prefix: "FramePath") -> bool:
        """Whether ``prefix`` is a prefix of this path (or this path itself)."""
        return prefix.depth <= self.depth and self.ancestor(prefix.depth) is prefix

    def common(self, other: "FramePath") -> "FramePath":
        """The longest common prefix of this path and ``other``."""
        a, b = self, other
        if a.depth > b.depth:
            a = a.ancestor(b.depth)
        elif b.depth > a.depth:
            b = b.ancestor(a.depth)
        while a is not b:  # same depth: jumps land on the same depth too
            if a.jump is not b.jump:
                a, b = a.jump, b.jump
            else:
                a, b = a.parent, b.parent
        return a

    def keys_inward(self) -> Iterator[int]:
        """The node ids of the path, innermost first (the root's excluded)."""
        node = self
        while node.depth:
            yield node.key
            node = node.parent

    def child(self, key: int) -> "FramePath":
        """This path extended by the frame-opening node ``key``."""
        return FramePath(self, key)


#: the empty path (no enclosing frame-opening node)
ROOT = FramePath(None, 0)
