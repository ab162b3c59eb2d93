"""Building and timing candidates (mirrors MetaSchedule's ``Builder``/``Runner`` with
``LocalBuilder``/``LocalRunner``; Ray instead of TVM's RPC tracker).

A :class:`MeasureInput` is plain data — the kernel's TVMScript, the candidate's trace JSON and
the run settings — so it travels to another process or another machine. :func:`measure` (run
in a worker) replays the trace, compiles the result, runs it on seeded random inputs, checks the
outputs against the unscheduled kernel on the same inputs, and times it like TVM's
``time_evaluator`` (``repeat`` rounds of ``number`` calls; seconds per call).

Backends (:class:`LocalBackend`, :class:`RayBackend`) run a batch of inputs and return one
:class:`MeasureResult` each; a candidate that crashes its worker, hangs past the timeout or gives
wrong numbers is a failed result, never an exception of the run.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .worker import Worker


@dataclass(frozen=True)
class MeasureInput:
    """One candidate to measure (``MeasureCandidate`` + ``RunnerInput``): kernel text, entry,
    trace JSON, data seed, timing settings (``number`` calls per round, ``repeat`` rounds; a
    candidate whose first call shows the rounds would take over ``budget`` seconds is timed
    by one call: it is slow and its exact time matters little), the
    tolerance of the output check and the ``PassContext`` config of the build. Candidates build
    without TIR common-subexpression elimination by default: LLVM's GVN does the same work at
    ``-O2``, and tirkit's CommonSubexprElimTIR takes tens of seconds on unrolled bodies."""

    script: str
    trace_json: str
    entry: str = "main"
    seed: int = 0
    number: int = 3
    repeat: int = 3
    rtol: float = 1e-3
    config: tuple[tuple[str, Any], ...] = (("tir.disable_cse_tir", True),)
    budget: float = 5.0


@dataclass
class MeasureResult:
    """Outcome of one candidate (``RunnerResult``): ``run_secs`` (seconds per call, one per
    round) or ``error`` (``"build: ..."``, ``"run: ..."``, ``"wrong result: ..."``,
    ``"timeout"``, ``"worker crashed"``)."""

    run_secs: list[float] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the candidate built, ran and gave the right numbers."""
        return self.error is None and bool(self.run_secs)

    @property
    def best(self) -> float:
        """The fastest round (seconds per call); infinity on failure."""
        return min(self.run_secs) if self.ok else float("inf")


def _prim_func(script: str, entry: str) -> Any:
    from tirkit.ir import IRModule  # pylint: disable=import-outside-toplevel
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel

    ir = from_source(script)
    return ir[entry] if isinstance(ir, IRModule) else ir


def random_args(func: Any, seed: int) -> list[np.ndarray]:
    """Seeded random arrays for every buffer parameter of ``func`` (static shapes; floats from
    a standard normal, integers in [-8, 8))."""
    rng = np.random.default_rng(seed)
    out = []
    for p in func.params:
        buf = func.buffer_map[p]
        shape = tuple(int(d) for d in buf.shape)
        dtype = str(buf.dtype)
        if dtype.startswith("float"):
            out.append(rng.standard_normal(shape).astype(dtype))
        else:
            out.append(rng.integers(-8, 8, shape).astype(dtype))
    return out


def reference(inp: MeasureInput) -> list[np.ndarray]:
    """The arguments after one call of the *unscheduled* kernel on the seeded inputs: what
    every candidate must reproduce (computed once per run, in a worker)."""
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel

    func = _prim_func(inp.script, inp.entry)
    args = random_args(func, inp.seed)
    build(func)(*args)
    return args


def measure(inp: MeasureInput, want: Sequence[np.ndarray] | None = None) -> MeasureResult:
    """Replay, build, check against ``want`` (:func:`reference`'s arrays; computed here when
    None) and time one candidate in this process (the worker body)."""
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel
    from tirkit.schedule import Schedule, Trace  # pylint: disable=import-outside-toplevel

    try:
        func = _prim_func(inp.script, inp.entry)
        sch = Schedule(func, debug_mask="none")
        Trace.from_json(inp.trace_json).apply_to_schedule(sch)
        kernel = build(sch.mod, config=dict(inp.config))
    except Exception as err:  # pylint: disable=broad-except
        return MeasureResult(error=f"build: {type(err).__name__}: {err}")
    try:
        want = reference(inp) if want is None else want
        args = random_args(func, inp.seed)
        kernel(*args)
        for k, (got, ref) in enumerate(zip(args, want)):
            if not np.allclose(got, ref, rtol=inp.rtol, atol=inp.rtol):
                return MeasureResult(error=f"wrong result: argument {k} differs from the "
                                     "unscheduled kernel")
        t0 = time.perf_counter()
        kernel(*args)
        first = time.perf_counter() - t0
        number, repeat = (inp.number, inp.repeat) if first * inp.number * inp.repeat \
            <= inp.budget else (1, 1)
        secs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            for _ in range(number):
                kernel(*args)
            secs.append((time.perf_counter() - t0) / number)
        return MeasureResult(secs)
    except Exception as err:  # pylint: disable=broad-except
        return MeasureResult(error=f"run: {type(err).__name__}: {err}\n{traceback.format_exc(2)}")


# ---------------------------------------------------------------------------------- local
class LocalBackend:
    """Measure in worker processes on this machine (``LocalBuilder`` + ``LocalRunner``):
    ``workers`` fresh interpreters (:mod:`.worker`) measure one candidate each at a time; a
    candidate that crashes its worker or runs past ``timeout`` seconds (the worker is killed)
    costs that candidate only, and the worker is restarted for the next one. The reference
    outputs are computed once per kernel and data seed, in a worker (``reference_timeout``
    seconds, default ``10 * timeout``), and handed to every candidate.
    """

    def __init__(self, workers: int = 1, timeout: float = 60.0,
                 reference_timeout: float | None = None) -> None:
        self.timeout = timeout
        self.reference_timeout = timeout * 10 if reference_timeout is None else reference_timeout
        self.pool = [Worker(preload=(__name__,)) for _ in range(max(1, workers))]
        self.references: dict[tuple[str, str, int], Any] = {}

    def _reference(self, inp: MeasureInput) -> Any:
        key = (inp.script, inp.entry, inp.seed)
        if key not in self.references:
            (res,) = self._run_jobs([(reference, (inp,))], self.reference_timeout)
            self.references[key] = res
        return self.references[key]

    def run(self, inputs: Sequence[MeasureInput]) -> list[MeasureResult]:
        """Measure ``inputs``; results in the same order."""
        jobs: list[tuple[Any, tuple]] = []
        for inp in inputs:
            want = self._reference(inp)
            if isinstance(want, MeasureResult):  # the unscheduled kernel itself failed
                jobs.append((failed, (f"reference: {want.error}",)))
            else:
                jobs.append((measure, (inp, want)))
        return self._run_jobs(jobs, self.timeout)

    def _run_jobs(self, jobs: Sequence[tuple[Any, tuple]], timeout: float) -> list[Any]:
        """``fn(*args)`` of each job on the pool; a worker that dies or runs past ``timeout``
        seconds gives a failed :class:`MeasureResult`."""
        results: list[Any] = [None] * len(jobs)
        pending = list(enumerate(jobs))
        running: dict[int, tuple[int, float]] = {}  # worker index -> (job, start)
        while pending or running:
            for w, worker in enumerate(self.pool):
                if pending and w not in running:
                    k, (fn, args) = pending.pop(0)
                    worker.submit(fn, args)
                    running[w] = (k, time.monotonic())
            time.sleep(0.002)
            for w in list(running):
                k, start = running[w]
                worker = self.pool[w]
                if worker.ready():
                    results[k] = _outcome(worker)
                elif time.monotonic() - start > timeout:
                    worker.kill()
                    results[k] = MeasureResult(error=f"timeout after {timeout:g} s")
                else:
                    continue
                del running[w]
        return results

    def close(self) -> None:
        """End the worker processes."""
        for worker in self.pool:
            worker.close()


def _outcome(worker: Worker) -> Any:
    try:
        res = worker.result()
    except EOFError as err:
        return MeasureResult(error=str(err))
    return MeasureResult(error=f"worker: {res}") if isinstance(res, BaseException) else res


def failed(error: str) -> MeasureResult:
    """A failed result with ``error`` (a job for a candidate that cannot be measured)."""
    return MeasureResult(error=error)


# ------------------------------------------------------------------------------------ ray
class RayBackend:
    """Measure as Ray tasks (``ray.remote``) on an existing cluster (``address="auto"`` or
    ``"ray://host:port"``) or on a local Ray started for the run (``address=None``, ``num_cpus``
    workers). At most one task per CPU of the cluster is in flight, so a task's time since
    submission is its run time: a task past ``timeout`` seconds is cancelled (its worker killed)
    and a task whose worker dies is a failed candidate. The reference outputs are computed once
    per kernel by a task (``reference_timeout`` seconds, default ``10 * timeout``) and passed to
    the others through the object store.

    Raises:
        RuntimeError: when Ray is not installed.
    """

    def __init__(self, address: str | None = None, num_cpus: int = 2,
                 timeout: float = 60.0, reference_timeout: float | None = None) -> None:
        try:
            import ray  # pylint: disable=import-outside-toplevel
        except ImportError as err:
            raise RuntimeError("the ray backend needs Ray: pip install 'tirkit[tune]'") from err
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started and address:
            ray.init(address=address, log_to_driver=False)
        elif self.started:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", num_cpus)))
        self.task = ray.remote(max_retries=0)(measure)
        self.ref_task = ray.remote(max_retries=0)(reference)
        self.timeout = timeout
        self.reference_timeout = timeout * 10 if reference_timeout is None else reference_timeout
        self.references: dict[tuple[str, str, int], Any] = {}

    def _reference(self, inp: MeasureInput) -> Any:
        key = (inp.script, inp.entry, inp.seed)
        if key not in self.references:
            ref = self.ref_task.remote(inp)
            ready, _ = self.ray.wait([ref], timeout=self.reference_timeout)
            if not ready:
                self.ray.cancel(ref, force=True)
            self.references[key] = ref if ready else None
        return self.references[key]

    def run(self, inputs: Sequence[MeasureInput]) -> list[MeasureResult]:
        """Measure ``inputs`` as Ray tasks; results in the same order."""
        results: list[MeasureResult | None] = [None] * len(inputs)
        pending = list(enumerate(inputs))
        running: dict[Any, tuple[int, float]] = {}
        while pending or running:
            while pending and len(running) < self.workers:
                k, inp = pending.pop(0)
                want = self._reference(inp)
                if want is None:
                    results[k] = MeasureResult(error="reference: timeout")
                    continue
                running[self.task.remote(inp, want)] = (k, time.monotonic())
            if not running:
                continue
            ready, _ = self.ray.wait(list(running), num_returns=1, timeout=0.05)
            for ref in ready:
                k, _start = running.pop(ref)
                results[k] = self._get(ref)
            now = time.monotonic()
            for ref in [r for r, (_, t0) in running.items() if now - t0 > self.timeout]:
                k, _start = running.pop(ref)
                self.ray.cancel(ref, force=True)
                results[k] = MeasureResult(error=f"timeout after {self.timeout:g} s")
        return [r if r is not None else MeasureResult(error="not run") for r in results]

    def _get(self, ref: Any) -> MeasureResult:
        try:
            return self.ray.get(ref)
        except Exception as err:  # pylint: disable=broad-except
            return MeasureResult(error=f"worker crashed: {type(err).__name__}")

    def close(self) -> None:
        """Shut down the Ray instance this backend started."""
        if self.started:
            self.ray.shutdown()
