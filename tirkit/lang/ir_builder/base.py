"""The IRBuilder: a thread-local stack of frames entered and exited with ``with``
(mirrors ``tvm.script.ir_builder.base``: ``IRBuilder``, ``IRBuilderFrame``, ``name``).

A frame collects what is built inside it; on exit it turns that into IR and hands it to its
parent frame (or, for the outermost frame, to the builder as its result)::

    with IRBuilder() as ib:
        with T.prim_func():
            ...
    func = ib.get()
"""
from __future__ import annotations

import threading
from typing import Any, Callable


class IRBuilderFrame:
    """One scope of the builder (mirrors ``tvm.script.ir_builder.IRBuilderFrame``).

    Subclasses override :meth:`enter` / :meth:`exit`. ``callbacks`` run when the frame exits
    (used for concise scoping: a frame opened by a plain statement closes with its parent).
    """

    def __init__(self) -> None:
        self.callbacks: list[Callable[[], None]] = []
        # the source span of the statement that opened this frame (set by the parser)
        self.span: Any = IRBuilder.current().current_span if IRBuilder.is_in_scope() else None

    def __enter__(self) -> Any:
        frames = IRBuilder.current().frames
        if any(f is self for f in frames):  # its exit would run its own exit callback forever
            raise RuntimeError(f"{type(self).__name__} entered twice")
        frames.append(self)
        return self.enter()

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        builder = IRBuilder.current()
        if exc_type is not None:
            builder.frames.pop()
            return
        for cb in reversed(self.callbacks):
            cb()
        self.callbacks.clear()
        top = builder.frames.pop()
        assert top is self, "IRBuilder frames exited out of order"
        self.exit()

    def enter(self) -> Any:
        """Called on ``__enter__``; its result is bound by ``with ... as x`` (default: the frame)."""
        return self

    def exit(self) -> None:
        """Called on ``__exit__`` after the frame was popped; builds IR and hands it upward."""

    def add_callback(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` when this frame exits (``IRBuilderFrame.add_callback``)."""
        self.callbacks.append(callback)


class IRBuilder:
    """Builds IR through nested frames (mirrors ``tvm.script.ir_builder.IRBuilder``).

    ``with IRBuilder() as ib:`` makes it the current builder of this thread; frames then find it
    with :meth:`current`. After the outermost frame exits, :meth:`get` returns the result.

    Raises:
        RuntimeError: from :meth:`current` when no builder is active, and from :meth:`get` when
        nothing was built yet.
    """

    _local = threading.local()

    def __init__(self) -> None:
        self.frames: list[IRBuilderFrame] = []
        self.current_span: Any = None  # span of the statement being built (parser sets it)
        # TVM 0.27 tirx keeps a loop's step in the For (``range(1, 128, 5)``: step 5); the classic
        # dialect (TVM v0.20's For has no step) lowers it to a unit-step loop at parse time
        self.keep_loop_steps = False
        self.result: Any = None
        self._has_result = False

    def __enter__(self) -> "IRBuilder":
        stack = getattr(IRBuilder._local, "stack", None)
        if stack is None:
            stack = IRBuilder._local.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        IRBuilder._local.stack.pop()

    @staticmethod
    def current() -> "IRBuilder":
        """The innermost active builder of this thread (``IRBuilder.current``)."""
        stack = getattr(IRBuilder._local, "stack", None)
        if not stack:
            raise RuntimeError("no IRBuilder is active: use `with IRBuilder() as ib:`")
        return stack[-1]

    @staticmethod
    def is_in_scope() -> bool:
        """Whether a builder is active in this thread (``IRBuilder.is_in_scope``)."""
        return bool(getattr(IRBuilder._local, "stack", None))

    def find_frame(self, kind: type, outermost: bool = False) -> Any:
        """The innermost (or outermost) open frame of ``kind``, or ``None`` (``FindFrame``)."""
        frames = self.frames if outermost else reversed(self.frames)
        return next((f for f in frames if isinstance(f, kind)), None)

    def last_frame(self) -> IRBuilderFrame | None:
        """The innermost open frame, or ``None``."""
        return self.frames[-1] if self.frames else None

    def set_result(self, value: Any) -> None:
        """Record the builder's result (the outermost frame calls this on exit)."""
        self.result = value
        self._has_result = True

    def get(self) -> Any:
        """The built IR (``IRBuilder.get``).

        Raises:
            RuntimeError: if frames are still open or nothing was built.
        """
        if self.frames:
            raise RuntimeError(f"IRBuilder.get: {len(self.frames)} frame(s) still open")
        if not self._has_result:
            raise RuntimeError("IRBuilder.get: nothing was built")
        return self.result

    @staticmethod
    def name(s: str, v: Any) -> Any:
        """Give ``v`` (a Var, SizeVar, Buffer, IterVar or a list/tuple of them) the name ``s``
        (``IRBuilder.name``); returns ``v``.

        Like TVM, which sets ``name_hint`` on the existing node, this renames in place: a name is
        not part of a node's identity (structural equality and hashing ignore it), and the
        object may already be recorded by an open frame (e.g. ``A = T.alloc_buffer(...)``).
        """
        rename(v, s)
        return v

    @staticmethod
    def name_many(names: list[str], vs: list[Any]) -> list[Any]:
        """:meth:`name` over parallel lists (``IRBuilder.name_many``)."""
        for s, v in zip(names, vs):
            rename(v, s)
        return vs


def rename(v: Any, name: str) -> None:
    """Set the display name of a Var/Buffer/IterVar in place (see :meth:`IRBuilder.name`).

    A Buffer's data pointer var is renamed along with it when it carried the buffer's old name.
    Other objects are left alone.
    """
    from tirkit.tir import Buffer, IterVar, Var  # pylint: disable=import-outside-toplevel

    if isinstance(v, Var):
        object.__setattr__(v, "name_hint", name)
    elif isinstance(v, Buffer):
        if v.data.name_hint in (v.name, "", "buffer"):
            object.__setattr__(v.data, "name_hint", name)
        object.__setattr__(v, "name", name)
    elif isinstance(v, IterVar):
        object.__setattr__(v.var, "name_hint", name)


class ScriptError(ValueError):
    """An error in a ``T.xxx(...)`` call that names the argument at fault, so the parser can
    underline exactly it: ``arg`` is a positional index or keyword name, ``item`` an index into a
    list/tuple argument. Mirrors the ``ValueError``s TVM's IRBuilder raises, with a location."""

    def __init__(self, message: str, arg: Any = None, item: int | None = None,
                 code: str = "bad-argument"):
        super().__init__(message)
        self.arg, self.item, self.code = arg, item, code
