"""Measurement worker processes of the local backend (TVM's ``PopenWorker`` / ``PopenPoolExecutor``).

A worker is ``python -m tirkit.tune.worker``: a fresh interpreter that reads jobs from its stdin
and writes results to its stdout, each a length-prefixed pickle. A job is ``(function, args)``
with a module-level function of a ``tirkit`` module (the measuring functions, whose module the
parent names to preload); the worker stays up for the next job, so the
imports and the JIT are paid once. Kernels' own output to file descriptor 1 goes to stderr, never
into the protocol. It never imports the caller's ``__main__`` (unlike multiprocessing's spawn and
forkserver) and holds no OpenMP state of the caller (unlike fork).

:class:`Worker` is the parent's handle: :meth:`Worker.submit` a job, poll :meth:`Worker.ready`,
:meth:`Worker.result`; :meth:`Worker.kill` a hung one. A worker that died or was killed is
restarted by the next :meth:`Worker.submit`.
"""
from __future__ import annotations

import os
import pickle
import select
import struct
import subprocess
import sys
from typing import Any, BinaryIO, Sequence, cast

_HEADER = struct.Struct("<Q")
PRELOAD = ("tirkit.compiler", "tirkit.schedule", "tirkit.lang")


def _write(fh: BinaryIO, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    fh.write(_HEADER.pack(len(data)) + data)
    fh.flush()


def _read(fh: BinaryIO) -> Any:
    """One message, or raise EOFError when the stream ends first."""
    head = fh.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError("worker closed its output")
    (size,) = _HEADER.unpack(head)
    data = fh.read(size)
    if len(data) < size:
        raise EOFError("worker output cut short")
    return pickle.loads(data)


class Worker:
    """One ``python -m tirkit.tune.worker`` child (started on the first job)."""

    def __init__(self, preload: Sequence[str] = ()) -> None:
        """``preload``: modules (under ``tirkit.``) the worker imports before its first job,
        besides :data:`PRELOAD`."""
        self.proc: subprocess.Popen | None = None
        self.busy = False
        self.preload = tuple(preload)

    def _start(self) -> subprocess.Popen:
        """The running worker, started (and waited for until its imports are done, so start-up
        never counts against a job's timeout) when there is none."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([sys.executable, "-m", "tirkit.tune.worker",
                                          *self.preload],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL)
            try:
                _read(self.proc.stdout)  # type: ignore[arg-type]  # the "ready" message
            except EOFError:
                pass  # it died while starting: the job's result() reports it
        return self.proc

    def submit(self, fn: Any, args: tuple) -> None:
        """Send ``fn(*args)`` (``fn`` a module-level function) to the worker."""
        proc = self._start()
        try:
            _write(proc.stdin, (fn.__module__, fn.__name__, args))  # type: ignore[arg-type]
        except (BrokenPipeError, OSError):
            pass  # the worker died: ready() is true and result() reports it
        self.busy = True

    def ready(self) -> bool:
        """Whether the result (or the worker's death) can be read without blocking."""
        assert self.proc is not None and self.proc.stdout is not None
        readable, _, _ = select.select([self.proc.stdout], [], [], 0)
        return bool(readable) or self.proc.poll() is not None

    def result(self) -> Any:
        """The job's return value.

        Raises:
            EOFError: when the worker died before answering (it is restarted on the next job).
        """
        assert self.proc is not None and self.proc.stdout is not None
        self.busy = False
        try:
            return _read(cast(BinaryIO, self.proc.stdout))  # (a pipe opened in binary mode)
        except EOFError:
            code = self.proc.wait()
            self.proc = None
            raise EOFError(f"worker crashed (exit code {code})") from None

    def kill(self) -> None:
        """Stop the worker now (a hung job); the next job starts a new one."""
        self.busy = False
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def close(self) -> None:
        """End the worker."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()  # type: ignore[union-attr]
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None


def main() -> None:
    """The worker loop: jobs from stdin, results to the original stdout."""
    import importlib  # pylint: disable=import-outside-toplevel

    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a kernel's printf must not corrupt the protocol
    sys.stdout = sys.stderr
    inp = sys.stdin.buffer
    for name in (*PRELOAD, *sys.argv[1:]):
        if name.startswith("tirkit."):
            importlib.import_module(name)
    _write(out, "ready")
    while True:
        try:
            module, name, args = _read(inp)
        except EOFError:
            return
        if not module.startswith("tirkit."):
            _write(out, RuntimeError(f"refused job {module}.{name}"))
            continue
        try:
            result = getattr(importlib.import_module(module), name)(*args)
        except Exception as err:  # pylint: disable=broad-except
            result = RuntimeError(f"{type(err).__name__}: {err}")
        _write(out, result)


if __name__ == "__main__":
    main()
