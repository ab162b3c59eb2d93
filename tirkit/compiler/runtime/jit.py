"""In-process JIT for the LLVM IR tirkit generates (the counterpart of TVM's ``LLVMModuleNode``
with its MCJIT/ORC engine and of the C runtime functions compiled code calls).

:class:`JITModule` compiles textual IR with llvmlite's MCJIT for the host and hands out function
addresses. Before the first module, the runtime symbols compiled code may call are made visible
to the JIT linker (``llvmlite.binding.add_symbol``):

- ``TVMAPISetLastError(const char*)``: records the message; :func:`get_last_error` returns and
  clears it (one process-wide slot, so a message set by a worker thread of a parallel loop reaches
  the caller);
- ``TVMBackendAllocWorkspace(int dev_type, int dev_id, uint64 nbytes, int code, int bits)`` and
  ``TVMBackendFreeWorkspace(int, int, void*)``: 64-byte aligned heap memory from a pool of freed
  blocks (as TVM's ``WorkspacePool``; :func:`release_workspace_pool` empties it), written in LLVM
  IR over libc's ``aligned_alloc``/``free`` (no Python on the hot path, no C extension);
- libgomp (``GOMP_parallel``, ``omp_get_thread_num``...) is loaded permanently from the system's
  ``libgomp.so.1`` (Debian/Ubuntu package ``libgomp1``), its worker threads pinned one per CPU
  as TVM's thread pool pins them (:func:`worker_places`).
"""
from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import os
import threading
from typing import Any, Iterator, Sequence

import llvmlite.binding as llvm

from ..codegen.llvm import data_layout, parse_and_verify
from ..target import Target, initialize_llvm

__all__ = ["JITModule", "get_last_error", "set_last_error", "load_libgomp",
           "release_workspace_pool", "worker_places"]

_lock = threading.Lock()
_last_error: list[str] = [""]
_keepalive: list[Any] = []
_runtime_ready = [False]
_release_pool: list[Any] = []
_gomp: list[str] = []

#: blocks the workspace pool keeps for reuse (TVM's ``WorkspacePool`` keeps every freed block)
WORKSPACE_POOL_SLOTS = 16

_RUNTIME_IR = r"""
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)

; The workspace pool (TVM's WorkspacePool): a freed block goes to one of 16 slots instead of back
; to libc, and an allocation takes a slotted block whose size is between its need and twice it.
; Slots are taken and filled with atomic exchanges, so the parallel workers of a kernel share the
; pool without a lock. A block carries its usable size in a 64-byte header before the pointer
; returned. Without the pool a kernel's per-call workspace was page-faulted in again on most
; calls (glibc gives large blocks of worker threads' arenas back to the system on free).
@__tirkit_ws_slots = internal global [16 x ptr] zeroinitializer, align 64

define ptr @TVMBackendAllocWorkspace(i32 %device_type, i32 %device_id, i64 %nbytes,
                                     i32 %dtype_code_hint, i32 %dtype_bits_hint) {
entry:
  %padded = add i64 %nbytes, 63
  %rounded = and i64 %padded, -64
  %zero = icmp eq i64 %rounded, 0
  %size = select i1 %zero, i64 64, i64 %rounded
  br label %scan
scan:
  %i = phi i64 [ 0, %entry ], [ %next, %cont ]
  %slot = getelementptr [16 x ptr], ptr @__tirkit_ws_slots, i64 0, i64 %i
  %p = atomicrmw xchg ptr %slot, ptr null acq_rel
  %taken = icmp ne ptr %p, null
  br i1 %taken, label %check, label %cont
check:
  %hdr = getelementptr i8, ptr %p, i64 -64
  %cap = load i64, ptr %hdr, align 64
  %big_enough = icmp uge i64 %cap, %size
  %half = lshr i64 %cap, 1
  %not_too_big = icmp ule i64 %half, %size
  %fits = and i1 %big_enough, %not_too_big
  br i1 %fits, label %hit, label %put_back
hit:
  ret ptr %p
put_back:
  %cx = cmpxchg ptr %slot, ptr null, ptr %p acq_rel monotonic
  %back = extractvalue { ptr, i1 } %cx, 1
  br i1 %back, label %cont, label %drop
drop:
  call void @free(ptr %hdr)
  br label %cont
cont:
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 16
  br i1 %done, label %miss, label %scan
miss:
  %total = add i64 %size, 64
  %base = call ptr @aligned_alloc(i64 64, i64 %total)
  %failed = icmp eq ptr %base, null
  br i1 %failed, label %out_of_memory, label %fresh
out_of_memory:
  ret ptr null
fresh:
  store i64 %size, ptr %base, align 64
  %user = getelementptr i8, ptr %base, i64 64
  ret ptr %user
}

define i32 @TVMBackendFreeWorkspace(i32 %device_type, i32 %device_id, ptr %ptr) {
entry:
  %null = icmp eq ptr %ptr, null
  br i1 %null, label %done, label %scan
scan:
  %i = phi i64 [ 0, %entry ], [ %next, %cont ]
  %slot = getelementptr [16 x ptr], ptr @__tirkit_ws_slots, i64 0, i64 %i
  %cx = cmpxchg ptr %slot, ptr null, ptr %ptr acq_rel monotonic
  %kept = extractvalue { ptr, i1 } %cx, 1
  br i1 %kept, label %done, label %cont
cont:
  %next = add i64 %i, 1
  %full = icmp eq i64 %next, 16
  br i1 %full, label %release, label %scan
release:
  %hdr = getelementptr i8, ptr %ptr, i64 -64
  call void @free(ptr %hdr)
  br label %done
done:
  ret i32 0
}

; frees every pooled block (tirkit.compiler.runtime.jit.release_workspace_pool)
define void @__tirkit_ws_release() {
entry:
  br label %scan
scan:
  %i = phi i64 [ 0, %entry ], [ %next, %cont ]
  %slot = getelementptr [16 x ptr], ptr @__tirkit_ws_slots, i64 0, i64 %i
  %p = atomicrmw xchg ptr %slot, ptr null acq_rel
  %taken = icmp ne ptr %p, null
  br i1 %taken, label %free_it, label %cont
free_it:
  %hdr = getelementptr i8, ptr %p, i64 -64
  call void @free(ptr %hdr)
  br label %cont
cont:
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 16
  br i1 %done, label %exit, label %scan
exit:
  ret void
}
"""

_SET_ERROR_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p)


def set_last_error(message: str) -> None:
    """Record ``message`` as the last error (what ``TVMAPISetLastError`` does)."""
    with _lock:
        _last_error[0] = message


def get_last_error() -> str:
    """The message of the last ``TVMAPISetLastError`` call, cleared by reading it."""
    with _lock:
        message, _last_error[0] = _last_error[0], ""
    return message


def _set_last_error_c(message: bytes | None) -> None:
    set_last_error((message or b"").decode("utf-8", errors="replace"))


def load_libgomp() -> str:
    """Load the system's libgomp permanently (once) and return the name it was loaded as.

    Raises:
        RuntimeError: when no libgomp is installed, with the package to install.
    """
    if _gomp:
        return _gomp[0]
    candidates = [n for n in (ctypes.util.find_library("gomp"), "libgomp.so.1",
                              "libgomp.dylib") if n]
    for name in candidates:
        try:
            with _gomp_load_env():
                llvm.load_library_permanently(name)
        except RuntimeError:
            continue
        _gomp.append(name)
        _release_threads_at_exit(name)
        return name
    raise RuntimeError("parallel loops need the GNU OpenMP runtime libgomp, which is not "
                       "installed: install it (Debian/Ubuntu: apt-get install -y libgomp1)")


def worker_places(cpus: Sequence[int]) -> str | None:
    """The ``OMP_PLACES`` that pins libgomp's workers as TVM's thread pool pins its own
    (``ThreadGroup::Impl::SetAffinity``, mode ``kBig``): the calling thread (place 0) keeps every
    CPU of ``cpus``, worker ``i`` runs on ``cpus[i]`` alone (with ``OMP_PROC_BIND=close``).
    None for fewer than two CPUs.

    A worker pinned to its own CPU wakes there at once when a parallel loop starts after the
    threads went to sleep; unpinned, the scheduler first looks for a CPU for it. Measured on a
    2-CPU VM, vector add 2^22 f32 on NumPy's arrays called 10 times after 100 ms of rest: the
    first three calls took 5.2-5.3 ms unpinned, 4.8-4.9 with these places (TVM 4.2-4.5).
    """
    if len(cpus) < 2:
        return None
    every = ",".join(map(str, cpus))
    return ",".join([f"{{{every}}}", *(f"{{{c}}}" for c in cpus[1:])])


_AFFINITY_VARS = ("OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY")
_WAIT_VARS = ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")

#: how long (in libgomp's spin-loop steps, ``pause`` instructions) an idle worker spins before
#: it sleeps, unless the user set ``GOMP_SPINCOUNT`` or ``OMP_WAIT_POLICY``: about 0.15 ms on
#: a 2-core AVX-512 VM (libgomp's default, 300,000, is about 4 ms there). Back-to-back calls
#: (a few microseconds apart) still find the workers awake; a worker that sleeps soon after its
#: share does not spend the CPU time the scheduler then makes it wait for: with another process
#: busy on one of the two CPUs, vector add 2^22 f32 took 7.8-8.0 ms per call with libgomp's
#: default and 3.0-3.3 ms with this (TVM 0.27's pool, which yields while it spins: 2.4-2.9 ms;
#: alone on the machine all three take ~1.2 ms).
SPIN_COUNT = 10000


def _gomp_env() -> dict[str, str]:
    """The variables libgomp should see when it loads: pinned workers (:func:`worker_places`,
    unless the user set any of ``OMP_PROC_BIND`` / ``OMP_PLACES`` / ``GOMP_CPU_AFFINITY``;
    ``OMP_PROC_BIND=false`` turns pinning off) and :data:`SPIN_COUNT` (unless the user set
    ``GOMP_SPINCOUNT`` or ``OMP_WAIT_POLICY``)."""
    env: dict[str, str] = {}
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    places = worker_places(cpus)
    if places is not None and not any(v in os.environ for v in _AFFINITY_VARS):
        env.update(OMP_PLACES=places, OMP_PROC_BIND="close")
    if not any(v in os.environ for v in _WAIT_VARS):
        env["GOMP_SPINCOUNT"] = str(SPIN_COUNT)
    return env


@contextlib.contextmanager
def _gomp_load_env() -> Iterator[None]:
    """While libgomp loads (it reads its settings then): the variables of :func:`_gomp_env`.
    They are removed again after, so subprocesses see the environment the user gave."""
    env = _gomp_env()
    os.environ.update(env)
    try:
        yield
    finally:
        for name in env:
            del os.environ[name]


def _release_threads_at_exit(name: str) -> None:
    """Stop libgomp's worker threads before the process exits: with ``OMP_WAIT_POLICY=ACTIVE``
    they spin on the team barrier while the exiting process tears down what they read, and the
    process died with SIGSEGV at exit about five times in six. ``omp_pause_resource_all
    (omp_pause_hard)`` (OpenMP 5.0, libgomp of GCC >= 9) joins them first."""
    try:
        pause = ctypes.CDLL(name).omp_pause_resource_all
    except (OSError, AttributeError):  # an older libgomp: nothing to call
        return
    pause.argtypes, pause.restype = [ctypes.c_int], ctypes.c_int
    atexit.register(pause, 2)  # omp_pause_hard


def load_libgomp_if_available() -> None:
    """Load libgomp when the system has it (machine code loaded from the compile cache may call
    it; a missing one shows as an unresolved symbol only if the code does)."""
    try:
        load_libgomp()
    except RuntimeError:
        pass


def _init_runtime() -> None:
    with _lock:
        if _runtime_ready[0]:
            return
        initialize_llvm()
        callback = _SET_ERROR_TYPE(_set_last_error_c)
        _keepalive.append(callback)
        llvm.add_symbol("TVMAPISetLastError", ctypes.cast(callback, ctypes.c_void_p).value)
        ref = parse_and_verify(_RUNTIME_IR)
        engine = llvm.create_mcjit_compiler(ref, Target().target_machine(jit=True))
        engine.finalize_object()
        _keepalive.append(engine)
        for name in ("TVMBackendAllocWorkspace", "TVMBackendFreeWorkspace"):
            llvm.add_symbol(name, engine.get_function_address(name))
        _release_pool.append(ctypes.CFUNCTYPE(None)(
            engine.get_function_address("__tirkit_ws_release")))
        for lib in ("gcc_s", "m", "mvec"):  # mvec: glibc's vector libm (codegen/veclib.py)
            found = ctypes.util.find_library(lib)
            if found:
                llvm.load_library_permanently(found)
        _runtime_ready[0] = True


def release_workspace_pool() -> None:
    """Give the workspace pool's blocks back to libc (a process that ran a kernel with a large
    workspace and no longer needs it; mirrors freeing TVM's ``WorkspacePool``). Safe while no
    kernel runs; kernels called later allocate afresh."""
    if _release_pool:
        _release_pool[0]()


def _uses_openmp(llvm_ir: str | None, ref: Any) -> bool:
    """Whether the module calls libgomp (``GOMP_parallel``, ``omp_get_*``)."""
    if llvm_ir is not None:
        return "@GOMP_parallel" in llvm_ir or "@omp_get_" in llvm_ir
    return any(f.name == "GOMP_parallel" or f.name.startswith("omp_get_")
               for f in ref.functions)


def _loader_machine(target: Target) -> Any:
    """A target machine for an engine that only links machine code made for ``target``."""
    return llvm.Target.from_triple(target.triple).create_target_machine(
        cpu="generic", features="", opt=0, jit=True)


class JITModule:
    """Compile textual LLVM IR in this process (MCJIT) and keep the engine alive.

    ``target`` must run here (default: the host). The IR is compiled as given: run
    :func:`tirkit.compiler.codegen.optimize` first for optimised code. ``wrapper_ref``: a second
    module (the packed wrappers of :func:`~tirkit.compiler.codegen.llvm.optimized_modules`)
    compiled at ``-O0`` into a second object file linked with the first.

    Raises:
        ValueError: for a cross target; CodegenError: for IR that does not verify;
        RuntimeError: when the IR calls ``GOMP_parallel`` and libgomp is missing.
    """

    def __init__(self, llvm_ir: str | None, target: "Target | str | None" = None, *,
                 object_code: bytes | None = None,
                 functions: "list[str] | None" = None, module_ref: Any = None,
                 wrapper_ref: Any = None, extra_objects: "Sequence[bytes]" = ()) -> None:
        target = target if isinstance(target, Target) else Target.parse(target)
        if not target.is_host:
            raise ValueError(f"cannot JIT code for {target.triple} on this "
                             f"{llvm.get_process_triple()} host: emit an object file instead")
        if llvm_ir is None and module_ref is None and object_code is None:
            raise ValueError("JITModule needs LLVM IR text, a module_ref or object code")
        _init_runtime()
        self.target = target
        self._llvm_ir = llvm_ir
        #: the machine code (what the compile cache stores, with :attr:`extra_objects`)
        self.object_code: bytes | None = object_code
        #: the object files linked with ``object_code`` (the wrappers' module at -O0)
        self.extra_objects: list[bytes] = list(extra_objects)
        self._functions = functions
        ref = None
        if object_code is None:
            # a ModuleRef parsed (and verified) from llvm_ir by the caller spares a re-parse
            ref = module_ref if module_ref is not None else parse_and_verify(llvm_ir or "")
            if _uses_openmp(llvm_ir, ref):
                load_libgomp()
            # machine code from the thread's shared target machine (a fresh one, as an engine
            # of its own would need, builds its subtarget again: ~2 ms of every build)
            tm = target.shared_target_machine(jit=True)
            ref.triple, ref.data_layout = target.triple, data_layout(target)
            object_code = self.object_code = tm.emit_object(ref)
            if wrapper_ref is not None:
                if _uses_openmp(None, wrapper_ref):
                    load_libgomp()
                fast = target.shared_target_machine(jit=True, opt_level=0)
                self.extra_objects.append(fast.emit_object(wrapper_ref))
                if self._functions is None:  # defined in one module or the other
                    self._functions = [f.name for m in (wrapper_ref, ref)
                                       for f in m.functions if not f.is_declaration]
        else:
            load_libgomp_if_available()
        # the engine only links machine code: a generic target machine (creating the host's
        # costs 0.5 ms, a generic one 0.05) and its empty module taken out again, or
        # finalize_object sets up code generation for it (~1 ms of a 1.7 ms load)
        empty = llvm.parse_assembly("")
        self._engine = llvm.create_mcjit_compiler(empty, _loader_machine(target))
        self._engine.remove_module(empty)
        for code in (object_code, *self.extra_objects):
            self._engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        self._engine.finalize_object()
        self._engine.run_static_constructors()
        self._module = ref if ref is not None else empty

    @property
    def llvm_ir(self) -> str:
        """The IR this module was made from: the text given, "" for machine code loaded with
        :meth:`from_object`, or, when it was given only a ``module_ref``, that module as the
        engine holds it, printed on first use (without the functions of a ``wrapper_ref``,
        which it declares)."""
        if self._llvm_ir is None:
            self._llvm_ir = str(self._module)
        return self._llvm_ir

    @classmethod
    def from_object(cls, object_code: bytes, functions: "list[str]",
                    target: "Target | str | None" = None,
                    extra_objects: "Sequence[bytes]" = ()) -> "JITModule":
        """Load machine code made earlier by a JITModule (its ``object_code`` and
        ``extra_objects``) for the same host; ``functions`` are the names it defines (the
        compile cache's entry)."""
        return cls("", target, object_code=object_code, functions=list(functions),
                   extra_objects=extra_objects)

    def get_function_address(self, name: str) -> int:
        """The address of the compiled function ``name``.

        Raises:
            KeyError: when the module defines no function ``name``, listing those it defines.
        """
        if self._functions is not None:
            if name not in self._functions:
                raise KeyError(f"the JIT module has no function {name!r} (functions: "
                               f"{', '.join(self._functions) or 'none'})")
            return self._engine.get_function_address(name)
        fn = None
        try:
            fn = self._module.get_function(name)
        except NameError:
            pass
        if fn is None or fn.is_declaration:
            raise KeyError(f"the JIT module has no function {name!r} (functions: "
                           f"{', '.join(self.function_names()) or 'none'})")
        return self._engine.get_function_address(name)

    def function_names(self) -> list[str]:
        """Names of the functions the module defines (declarations excluded)."""
        if self._functions is not None:
            return list(self._functions)
        return [f.name for f in self._module.functions if not f.is_declaration]

    def get_cfunc(self, name: str, restype: Any, *argtypes: Any) -> Any:
        """A ctypes function for ``name`` with the given C signature (plain C-ABI functions).

        The function keeps this module (and so its machine code) alive.
        """
        proto = ctypes.CFUNCTYPE(restype, *argtypes)
        cfunc = proto(self.get_function_address(name))
        cfunc.jit_module = self  # type: ignore[attr-defined]  # (a ctypes function's __dict__)
        return cfunc
