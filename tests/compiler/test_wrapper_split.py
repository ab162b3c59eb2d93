"""The packed wrappers in a module of their own, compiled at -O0 (codegen/wrapper_split.py,
codegen.llvm.optimized_modules, JITModule(wrapper_ref=...), the cache's extra objects)."""
import ctypes
import json
import re

import numpy as np
import pytest

from test_codegen_packed import _call_packed, _dltensor  # noqa: E402  (tests/compiler on sys.path)
from tirkit.compiler import build, cache, lower
from tirkit.compiler.codegen.llvm import _emit_module, optimized_module, optimized_modules
from tirkit.compiler.codegen.compute_scope import runs_loops
from tirkit.compiler.codegen.wrapper_split import split_text, wrappers
from tirkit.compiler.driver import as_target
from tirkit.compiler.runtime import abi
from tirkit.compiler.runtime.jit import get_last_error
from tirkit.lang import from_source

_SRC = '''
from tvm.script import tir as T
@T.prim_func
def scale(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    for i in T.parallel(64):
        with T.block("b"):
            vi = T.axis.spatial(64, i)
            B[vi] = A[vi] * T.float32(3)
'''

_PLAIN = '''
@T.prim_func
def f(x: T.int32) -> T.int32:
    T.func_attr({"global_symbol": "f"})
    return x + 1
'''

HOST = as_target("llvm", 3)


def _defined(text):
    return set(re.findall(r'^define [^@]*@"?([\w.]+)"?\(', text, re.M))


def _declared(text):
    return set(re.findall(r'^declare [^@]*@"?([\w.]+)"?\(', text, re.M))


def test_split_text_defines_each_function_once_and_links_the_callee():
    module = _emit_module(lower(from_source(_SRC), opt_level=3), HOST, "tirkit")
    whole = str(module)
    main, outer = split_text(module)
    assert str(module) == whole  # left as it was
    # the wrapper and its compute function (it only starts the parallel loop) go unoptimised
    assert [w.name for w in wrappers(module)] == ["scale", "scale_compute_"]
    assert _defined(outer) == {"scale", "scale_compute_"}
    assert _defined(main) == _defined(whole) - {"scale", "scale_compute_"} == {
        "scale_compute__compute_"}  # the parallel loop's closure
    assert {"scale", "scale_compute_"} <= _declared(main)
    assert "scale_compute__compute_" in _declared(outer)
    # the closure handed to GOMP_parallel is internal in the one-module IR, external in both
    assert re.search(r'define internal void @"scale_compute__compute_"', whole)
    assert re.search(r'define void @"scale_compute__compute_"', main)
    assert not re.search(r"declare internal", main + outer)


_SERIAL = _SRC.replace("for i in T.parallel(64):", "for i in range(64):")


def test_a_compute_function_that_runs_a_loop_stays_optimised():
    module = _emit_module(lower(from_source(_SERIAL), opt_level=3), HOST, "tirkit")
    assert [w.name for w in wrappers(module)] == ["scale"]
    main, outer = split_text(module)
    assert _defined(outer) == {"scale"} and _defined(main) == {"scale_compute_"}
    assert re.search(r'define i32 @"scale_compute_"', main)  # external: the wrapper calls it


@pytest.mark.parametrize("loops,expected", [
    ("for i in T.parallel(8):\n        A[i] = 0", False),
    ("for i in T.parallel(8):\n        for j in range(4):\n            A[i * 4 + j] = 0", False),
    ("for j in range(4):\n        for i in T.parallel(8):\n            A[i * 4 + j] = 0", True),
    ("for i in T.serial(8):\n        A[i] = 0", True),
    ("for i in T.unroll(8):\n        A[i] = 0", True),
    ("A[0] = 0", False),
])
def test_runs_loops_looks_through_parallel_loops_only(loops, expected):
    func = from_source(f"""
@T.prim_func
def f(A: T.Buffer((32,), "float32")):
    {loops}
""")
    assert runs_loops(func.body) is expected


def test_a_module_without_packed_wrappers_is_not_split():
    module = _emit_module(from_source(_PLAIN), HOST, "tirkit")
    assert split_text(module) == (str(module), None)
    ref, wrapper_ref = optimized_modules(from_source(_PLAIN), HOST)
    assert wrapper_ref is None and str(ref) == str(optimized_module(from_source(_PLAIN), HOST))


def test_build_links_the_wrapper_object_and_runs(monkeypatch):
    monkeypatch.setenv("TIRKIT_CACHE_DIR", "")
    module = build(from_source(_SRC), opt_level=3)
    assert len(module.jit.extra_objects) == 1  # the wrappers' object, next to the optimised one
    assert set(module.jit.function_names()) >= {"scale", "scale_compute_"}
    a = np.arange(64, dtype="float32")
    b = np.zeros(64, "float32")
    module(a, b)
    np.testing.assert_array_equal(b, a * 3)
    # the -O0 wrapper's checks: a short shape, then a wrong number of arguments
    fn = abi.PACKED_FUNC_TYPE(module.jit.get_function_address("scale"))
    short = np.zeros(8, "float32")
    tensors = [_dltensor(x) for x in (short, b)]
    values = [abi.TVMValue(v_handle=ctypes.addressof(t)) for t, _shape in tensors]
    assert _call_packed(fn, values, [7, 7])[0] == -1
    assert "scale.A.shape[0] has an unsatisfied constraint" in get_last_error()
    assert _call_packed(fn, values[:1], [7])[0] == -1
    assert "num_args == 2 with num_args = 1, scale: num_args should be 2" in get_last_error()


def test_the_cache_stores_and_loads_both_objects(tmp_path, monkeypatch):
    monkeypatch.setenv("TIRKIT_CACHE_DIR", str(tmp_path))
    first = build(from_source(_SRC), opt_level=3)
    (meta_path,) = tmp_path.glob("*.json")
    meta = json.loads(meta_path.read_text())
    assert meta["sizes"] == [len(first.jit.object_code), len(first.jit.extra_objects[0])]
    second = build(from_source(_SRC), opt_level=3)
    assert second.jit.llvm_ir == ""  # loaded, not compiled
    assert second.jit.object_code == first.jit.object_code
    assert second.jit.extra_objects == first.jit.extra_objects
    a = np.arange(64, dtype="float32")
    b = np.zeros(64, "float32")
    second(a, b)
    np.testing.assert_array_equal(b, a * 3)
    meta["sizes"] = [meta["sizes"][0]]  # sizes that do not add up: a miss, not an error
    meta_path.write_text(json.dumps(meta))
    assert cache.load(meta_path.stem) is None


def test_builds_with_the_same_symbols_each_link_their_own_functions(monkeypatch):
    """The closures and compute functions are external symbols of their objects now: several
    live builds of same-named kernels (the tuner's candidates) each call their own."""
    monkeypatch.setenv("TIRKIT_CACHE_DIR", "")
    modules = [build(from_source(_SRC.replace("T.float32(3)", f"T.float32({k})")), opt_level=3)
               for k in (3, 4, 5)]
    a = np.arange(64, dtype="float32")
    for k, module in zip((3, 4, 5), modules):
        b = np.zeros(64, "float32")
        module(a, b)
        np.testing.assert_array_equal(b, a * k)
