"""The in-process JIT (tirkit.compiler.runtime.jit; TVM's LLVMModuleNode + the C runtime's
TVMAPISetLastError / TVMBackendAllocWorkspace) and parallel loops on libgomp's GOMP_parallel."""
import ctypes
import os

import numpy as np
import pytest

from test_codegen import HOST, compile_c, run  # noqa: E402  (tests/compiler is on sys.path)
from tirkit.compiler.codegen import emit_llvm, optimize
from tirkit.compiler.codegen.llvm import parse_and_verify
from tirkit.compiler.runtime.jit import JITModule, get_last_error, load_libgomp, set_last_error
from tirkit.compiler.target import Target
from tirkit.lang import from_source

PARALLEL = '''
@T.prim_func
def f(a: T.handle("float32"), b: T.handle("float32"), tid: T.handle("int32"),
      nth: T.handle("int32"), n: T.int32):
    A = T.Buffer((n,), "float32", data=a)
    B = T.Buffer((n,), "float32", data=b)
    TID = T.Buffer((n,), "int32", data=tid)
    NTH = T.Buffer((n,), "int32", data=nth)
    for i in T.parallel(n):
        B[i] = A[i] * T.float32(3) + T.float32(1)
        TID[i] = T.call_extern("int32", "omp_get_thread_num")
        NTH[i] = T.call_extern("int32", "omp_get_num_threads")
'''


def test_parallel_loop_runs_on_libgomp_threads():
    text = emit_llvm(from_source(PARALLEL), HOST)
    assert "GOMP_parallel" in text and "f_compute_" in text
    n = 1001
    a = np.random.default_rng(5).random(n, dtype="float32")
    b = np.zeros(n, "float32")
    tid, nth = np.full(n, -1, "int32"), np.zeros(n, "int32")
    run(PARALLEL, "f", a, b, tid, nth, n)
    np.testing.assert_allclose(b, a * 3 + 1, rtol=1e-6)
    threads = int(nth[0])
    assert threads >= 1 and (nth == threads).all()
    # every thread of the team got one contiguous chunk, in order (TVM's ParallelFor split)
    assert set(tid.tolist()) == set(range(min(threads, n)))
    assert (np.diff(tid) >= 0).all()


def test_parallel_loop_with_offset_min_and_nested_loops():
    src = '''
@T.prim_func
def f(c: T.handle("int32"), m: T.int32, n: T.int32):
    C = T.Buffer((m * n,), "int32", data=c)
    for i in T.parallel(1, m):
        for j in T.parallel(n):
            C[i * n + j] = i * 100 + j
'''
    m, n = 7, 5
    c = np.full(m * n, -1, "int32")
    run(src, "f", c, m, n)
    expect = (np.arange(m)[:, None] * 100 + np.arange(n)[None, :]).reshape(-1)
    expect[:n] = -1
    np.testing.assert_array_equal(c, expect)


def test_assert_inside_parallel_loop_fails_the_caller():
    src = '''
@T.prim_func
def f(a: T.handle("float32"), n: T.int32) -> T.int32:
    A = T.Buffer((n,), "float32", data=a)
    for i in T.parallel(n):
        assert A[i] >= T.float32(0), "f: A must be non-negative"
        A[i] = T.sqrt(A[i])
    return 0
'''
    a = np.array([4.0, 9.0, 16.0, 25.0], "float32")
    assert run(src, "f", a, 4, restype=ctypes.c_int32) == 0
    np.testing.assert_array_equal(a, [2, 3, 4, 5])
    bad = np.array([1.0, -1.0, 4.0, 9.0], "float32")
    assert run(src, "f", bad, 4, restype=ctypes.c_int32) == -1
    assert "f: A must be non-negative" in get_last_error()


def test_workspace_is_64_byte_aligned_and_usable():
    src = '''
@T.prim_func
def f(out: T.handle("int64"), n: T.int32) -> T.int32:
    O = T.Buffer((2,), "int64", data=out)
    ws: T.handle("float64") = T.TVMBackendAllocWorkspace(1, 0, T.Cast("uint64", n * 8), 2, 64)
    O[0] = T.Cast("int64", ws) % T.int64(64)
    W = T.decl_buffer((n,), "float64", data=ws)
    for i in range(n):
        W[i] = T.Cast("float64", i)
    O[1] = T.Cast("int64", W[n - 1])
    T.evaluate(T.TVMBackendFreeWorkspace(1, 0, ws))
    return 0
'''
    out = np.full(2, -1, "int64")
    for n in (1, 3, 1000):
        assert run(src, "f", out, n, restype=ctypes.c_int32) == 0
        assert out[0] == 0 and out[1] == n - 1


def _workspace_functions():
    import llvmlite.binding as llvm  # pylint: disable=import-outside-toplevel
    from tirkit.compiler.runtime.jit import _init_runtime  # pylint: disable=import-outside-toplevel
    _init_runtime()
    alloc = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_uint64,
                             ctypes.c_int32, ctypes.c_int32)(
                                 llvm.address_of_symbol("TVMBackendAllocWorkspace"))
    free = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p)(
        llvm.address_of_symbol("TVMBackendFreeWorkspace"))
    return (lambda n: alloc(1, 0, n, 2, 32)), (lambda p: free(1, 0, p))


def test_workspace_pool_reuses_freed_blocks_of_a_fitting_size():
    from tirkit.compiler.runtime.jit import release_workspace_pool
    alloc, free = _workspace_functions()
    release_workspace_pool()
    held = [alloc(100_000 + i) for i in range(3)]  # three blocks live at once, all distinct
    assert len(set(held)) == 3 and all(p % 64 == 0 for p in held)
    for p in held:
        ctypes.memset(p, 0x5A, 100_000)  # usable over their whole size
        assert free(p) == 0
    again = [alloc(90_000) for _ in range(3)]  # within [need, 2 * need]: the same blocks back
    assert sorted(again) == sorted(held)
    small = alloc(1000)  # every pooled block is over twice the need: a block of its own
    assert small not in held and small % 64 == 0
    for p in (*again, small):
        free(p)
    assert free(None) == 0  # freeing NULL is a no-op, as free(3)
    release_workspace_pool()


def test_kernel_workspace_comes_back_from_the_pool_on_the_next_call():
    src = '''
@T.prim_func
def f(out: T.handle("int64"), n: T.int32) -> T.int32:
    O = T.Buffer((1,), "int64", data=out)
    ws: T.handle("float64") = T.TVMBackendAllocWorkspace(1, 0, T.Cast("uint64", n * 8), 2, 64)
    O[0] = T.Cast("int64", ws)
    T.evaluate(T.TVMBackendFreeWorkspace(1, 0, ws))
    return 0
'''
    first, second = np.zeros(1, "int64"), np.zeros(1, "int64")
    run(src, "f", first, 1 << 20, restype=ctypes.c_int32)
    run(src, "f", second, 1 << 20, restype=ctypes.c_int32)
    assert first[0] == second[0] != 0  # 8 MiB not page-faulted in again on every call


def test_last_error_round_trip():
    set_last_error("boom")
    assert get_last_error() == "boom"
    assert get_last_error() == ""


def test_missing_function_and_cross_target_errors():
    jit, _ = compile_c(PARALLEL)
    with pytest.raises(KeyError, match="no function 'g'.*functions: f"):
        jit.get_function_address("g")
    with pytest.raises(ValueError, match="cannot JIT code for aarch64"):
        JITModule(emit_llvm(from_source(PARALLEL), HOST), Target.parse(
            "llvm -mtriple=aarch64-linux-gnu"))


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_every_opt_level_gives_the_same_result(level):
    n = 64
    a = np.arange(n, dtype="float32")
    b = np.zeros(n, "float32")
    tid, nth = np.zeros(n, "int32"), np.zeros(n, "int32")
    text = optimize(emit_llvm(from_source(PARALLEL), HOST), HOST, opt_level=level)
    fn = JITModule(text, HOST).get_cfunc("f", None, *[ctypes.c_void_p] * 4, ctypes.c_int32)
    fn(a.ctypes.data, b.ctypes.data, tid.ctypes.data, nth.ctypes.data, n)
    np.testing.assert_array_equal(b, a * 3 + 1)


def test_libgomp_is_loaded():
    assert "gomp" in load_libgomp()


PARALLEL_THEN_EXIT = '''
import numpy as np
from tirkit.compiler import build
from tirkit.lang import from_source

mod = build(from_source("""
from tvm.script import tir as T
@T.prim_func
def f(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32")):
    for i in T.parallel(1024):
        with T.block("b"):
            vi = T.axis.spatial(1024, i)
            B[vi] = A[vi] * T.float32(2)
"""))
a = np.ones(1024, "float32")
b = np.empty_like(a)
mod(a, b)
assert (b == 2).all()
print("ran")
'''


def test_a_process_that_ran_a_parallel_kernel_exits_cleanly_with_spinning_omp_threads():
    # libgomp's workers spin on their barrier under OMP_WAIT_POLICY=ACTIVE; before they were
    # released at exit, 5 of 6 such processes died with SIGSEGV after the script's last line
    import os
    import subprocess
    import sys

    env = {**os.environ, "OMP_WAIT_POLICY": "ACTIVE", "OMP_NUM_THREADS": "2"}
    for _ in range(3):
        proc = subprocess.run([sys.executable, "-c", PARALLEL_THEN_EXIT], env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert (proc.returncode, proc.stdout) == (0, "ran\n"), proc.stderr[-2000:]


def test_worker_places_pin_each_worker_and_leave_the_caller_every_cpu():
    from tirkit.compiler.runtime.jit import worker_places
    assert worker_places([0, 1]) == "{0,1},{1}"
    assert worker_places([2, 5, 7]) == "{2,5,7},{5},{7}"
    assert worker_places([3]) is None and worker_places([]) is None


THREAD_AFFINITY = PARALLEL_THEN_EXIT.replace('print("ran")', '''
import glob, os, threading
main = threading.get_native_id()
lists = {}
for status in glob.glob(f"/proc/{os.getpid()}/task/*/status"):
    fields = dict(line.split(":\\t", 1) for line in open(status).read().splitlines() if ":\\t" in line)
    lists[int(status.split("/")[-2])] = fields["Cpus_allowed_list"].strip()
print(lists.pop(main), sorted(set(lists.values())), "OMP_PLACES" in os.environ)
''')


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2
                    or not os.path.exists("/proc/self/task"), reason="needs Linux, 2+ CPUs")
@pytest.mark.parametrize("user_env, pinned", [({}, True), ({"OMP_PROC_BIND": "false"}, False)])
def test_libgomp_workers_are_pinned_unless_the_user_set_omp_affinity(user_env, pinned):
    # as TVM's thread pool pins its workers: the caller keeps every CPU, the worker gets CPU 1
    # alone; a user's OMP_PROC_BIND / OMP_PLACES wins; the process environment is left as given
    import subprocess
    import sys

    cpus = sorted(os.sched_getaffinity(0))[:2]
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY")}
    env.update(user_env, OMP_NUM_THREADS="2", OPENBLAS_NUM_THREADS="1")  # no BLAS threads
    proc = subprocess.run([sys.executable, "-c", THREAD_AFFINITY], env=env,
                          preexec_fn=lambda: os.sched_setaffinity(0, cpus),
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    every = f"{cpus[0]}-{cpus[1]}" if cpus[1] == cpus[0] + 1 else f"{cpus[0]},{cpus[1]}"
    workers = [f"{cpus[1]}"] if pinned else [every]
    assert proc.stdout.split("\n")[-2] == f"{every} {workers} False"


@pytest.mark.parametrize("user_env, shown", [
    ({}, "'10000'"),                              # tirkit's default: idle workers sleep soon
    ({"GOMP_SPINCOUNT": "123"}, "'123'"),         # the user's wins
    ({"OMP_WAIT_POLICY": "active"}, None),        # so does a wait policy (libgomp's count)
])
def test_libgomp_spin_count_default_unless_the_user_set_one(user_env, shown):
    # libgomp reads GOMP_SPINCOUNT when it loads and prints it under OMP_DISPLAY_ENV=VERBOSE;
    # the variable is gone from the environment again after
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    env.update(user_env, OMP_DISPLAY_ENV="VERBOSE")
    code = ("import os\nfrom tirkit.compiler.runtime.jit import load_libgomp\nload_libgomp()\n"
            "print(os.environ.get('GOMP_SPINCOUNT'))")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (line,) = [x for x in proc.stderr.splitlines() if x.strip().startswith("GOMP_SPINCOUNT =")]
    value = line.split("=", 1)[1].strip()
    if shown is None:
        assert value != "'10000'"
    else:
        assert value == shown
    assert proc.stdout.strip() == user_env.get("GOMP_SPINCOUNT", "None")


def test_shared_target_machine_is_one_per_thread_and_key():
    """Passes and code generation reuse a thread's target machine (its subtarget is built once);
    another thread, option set or opt level gets its own."""
    import threading

    target = Target(opt_level=3)
    first = target.shared_target_machine(jit=True)
    assert target.shared_target_machine(jit=True) is first
    assert target.shared_target_machine(jit=False) is not first
    assert target.shared_target_machine(jit=True, opt_level=1) is not first
    other: list = []
    thread = threading.Thread(target=lambda: other.append(target.shared_target_machine(jit=True)))
    thread.start()
    thread.join()
    assert other[0] is not first


def test_jit_module_machine_code_reloads_into_a_working_module():
    """A module compiled from IR keeps the machine code the thread's target machine emitted (the
    compile cache's entry): byte-identical to a fresh emission, and it loads back and runs."""
    src = """
@T.prim_func
def add_one(a: T.handle("float32"), b: T.handle("float32")):
    A = T.Buffer((8,), "float32", data=a)
    B = T.Buffer((8,), "float32", data=b)
    for i in range(8):
        B[i] = A[i] + T.float32(1)
"""
    module, text = compile_c(src)
    ref = parse_and_verify(text)
    machine = HOST.shared_target_machine(jit=True)
    ref.triple, ref.data_layout = HOST.triple, str(machine.target_data)
    assert module.object_code == machine.emit_object(ref)
    again = JITModule.from_object(module.object_code, module.function_names(), HOST)
    for m in (module, again):
        a = np.arange(8, dtype="float32")
        b = np.zeros(8, dtype="float32")
        m.get_cfunc("add_one", None, ctypes.c_void_p, ctypes.c_void_p)(a.ctypes.data,
                                                                       b.ctypes.data)
        np.testing.assert_array_equal(b, a + 1)
