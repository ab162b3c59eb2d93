"""Deep IR: recursive walks of IR nested deeper than Python's default recursion limit allows.

IR built by program (TE, the IR builder, passes) can be far deeper than any source file: a chain
of 20,000 LetStmts, an ``Add`` chain of 20,000 terms (``functools.reduce(add, ...)``), thousands
of nested loops. TVM walks such IR with C++ visitors on a deep native stack; tirkit's walkers
recurse in Python. Raising Python's recursion limit alone is unsafe: a Python frame that goes
through a C call (``with``, a property, ``map``...) also uses C stack, and the 8 MiB main thread
stack then overflows into a segfault before the raised limit is reached.

:func:`deep_walk` makes a public entry point safe at any depth: it runs the walk on the caller's
stack under the caller's limit (the usual IR: no cost), and only when that walk runs out of
recursion, again on a worker thread whose stack is large and bounded (:data:`STACK_BYTES`) under a
recursion limit that stack can hold (:data:`RECURSION_LIMIT`). A walk deeper still ends in
:class:`IRTooDeepError`, which names the limit, never in a crash. The walks it wraps must be pure
(printing, comparison, analysis, lowering to new IR): the first, abandoned try leaves nothing
behind.

No TVM counterpart (TVM recurses in C++).
"""
from __future__ import annotations

import functools
import gc
import sys
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

__all__ = ["IRTooDeepError", "deep_walk", "run_deep", "raised_recursion_limit", "in_deep_worker",
           "carry_thread_state",
           "STACK_BYTES", "RECURSION_LIMIT"]

#: the worker thread's stack: reserved, not committed (pages are touched only as deep as the walk
#: goes)
STACK_BYTES = 1 << 30
#: Python frames allowed on the worker: 5 KiB of its stack per frame, ten times what a frame that
#: goes through a C call was measured to take on CPython 3.11 (~0.5 KiB)
RECURSION_LIMIT = 200_000

F = TypeVar("F", bound=Callable[..., Any])

_STATE = threading.local()  # .deep: this thread is a deep worker
_LIMITS: list[int] = []  # the raised limits in force (one per user), under _LOCK
_BASE = {"limit": 0}
_LOCK = threading.Lock()
_STACK_LOCK = threading.Lock()
#: per-thread state a walk reads (``PassContext.current()``...): each function captures it in
#: the calling thread and returns the function that installs it in the worker
_CARRIERS: list[Callable[[], Callable[[], None]]] = []


class IRTooDeepError(RecursionError):
    """IR nested deeper than tirkit's walkers support even on the deep worker: more than
    :data:`RECURSION_LIMIT` Python frames (no TVM counterpart; the message names the limit and
    the walk). A ``RecursionError`` subclass, so code that handles running out of recursion
    handles it too."""


@contextmanager
def raised_recursion_limit(limit: int) -> Iterator[None]:
    """Python's recursion limit at least ``limit`` while inside (shared by concurrent users: the
    limit in force is the largest any of them asked for, and the original one comes back when
    the last leaves). Only for a stack that can hold ``limit`` frames: the deep worker's, or the
    front end's walks, whose depth its text limits bound. No TVM counterpart."""
    with _LOCK:
        if not _LIMITS:
            _BASE["limit"] = sys.getrecursionlimit()
        _LIMITS.append(limit)
        if sys.getrecursionlimit() < limit:
            sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        with _LOCK:
            _LIMITS.remove(limit)
            sys.setrecursionlimit(max(_LIMITS, default=_BASE["limit"]))


def carry_thread_state(capture: Callable[[], Callable[[], None]]) -> None:
    """Register ``capture``: called in the thread that hands a walk to the deep worker, it
    returns a function that the worker calls before the walk to install the same per-thread
    state (e.g. the ``with PassContext(...)`` stack, thread-local as in TVM). No TVM
    counterpart."""
    _CARRIERS.append(capture)


def in_deep_worker() -> bool:
    """Whether this thread is a deep worker (a walk here already has the large stack; no TVM
    counterpart)."""
    return getattr(_STATE, "deep", False)


def run_deep(fn: Callable[..., Any], *args: Any, what: str = "", **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, on the caller's stack, or when it runs out of recursion there, on
    a worker thread with a :data:`STACK_BYTES` stack and a :data:`RECURSION_LIMIT` limit (see the
    module docstring). ``what`` names the walk in the error. No TVM counterpart (TVM's C++
    visitors run on the native stack).

    Raises:
        IRTooDeepError: when ``fn`` runs out of recursion on the worker too, or the worker
        cannot be started.
        Whatever ``fn`` raises otherwise.
    """
    return _run(fn, args, kwargs, what or getattr(fn, "__qualname__", "the walk"))


def _run(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
         what: str) -> Any:
    if getattr(_STATE, "deep", False):  # already on the deep worker
        return fn(*args, **kwargs)
    # the cyclic GC is off for the try on the caller's stack: a collection that ran while the
    # walk is at the recursion limit would call finalizers (weakref callbacks, __del__) that
    # have no frame left, and they would fail as "Exception ignored" (an LLVM object left
    # undisposed...)
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        return fn(*args, **kwargs)
    except IRTooDeepError:
        raise
    except RecursionError:
        pass
    finally:
        if collecting:
            gc.enable()
    return _on_worker(fn, args, kwargs, what)


def _on_worker(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
               what: str) -> Any:
    result: list[Any] = []
    error: list[BaseException] = []
    installs = [capture() for capture in _CARRIERS]

    def work() -> None:
        _STATE.deep = True
        try:
            for install in installs:
                install()
            result.append(fn(*args, **kwargs))
        except RecursionError as exc:
            error.append(exc if isinstance(exc, IRTooDeepError) else IRTooDeepError(
                f"{what}: the IR is nested too deep (more than {RECURSION_LIMIT} Python frames "
                f"on a {STACK_BYTES >> 20} MiB stack, tirkit.ir.deep.RECURSION_LIMIT)"))
        except BaseException as exc:  # pylint: disable=broad-exception-caught  # re-raised below
            error.append(exc)

    worker = threading.Thread(target=work, name="tirkit-deep-ir", daemon=True)
    with raised_recursion_limit(RECURSION_LIMIT):
        with _STACK_LOCK:  # threading.stack_size is process-wide: only for this thread's start
            old = threading.stack_size(STACK_BYTES)
            try:
                worker.start()
            except RuntimeError as exc:  # no memory for the stack, or no threads left
                raise IRTooDeepError(f"{what}: the IR is nested too deep for this thread's stack, "
                                     f"and no worker with a {STACK_BYTES >> 20} MiB stack could "
                                     f"be started ({exc})") from None
            finally:
                threading.stack_size(old)
        worker.join()
    if error:
        raise error[0].with_traceback(error[0].__traceback__)
    return result[0]


def deep_walk(what: str) -> Callable[[F], F]:
    """Decorate a public entry point whose walk recurses along the IR: :func:`run_deep` it;
    ``what`` names it in the error (no TVM counterpart)."""
    def deco(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return _run(fn, args, kwargs, what)
        return wrapper  # type: ignore[return-value]
    return deco
