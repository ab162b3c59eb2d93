"""The persistent compile cache (tirkit/compiler/cache.py, driver.build, runtime/jit.py): a
rebuild of an unchanged kernel loads its machine code, keyed by structural hash, names, target,
-O level, config and the compiler's own source; corrupt entries are misses; ``TIRKIT_CACHE_DIR=""`` turns it off."""
import numpy as np
import pytest

from tirkit.compiler import build, cache
from tirkit.compiler.instrument import StageRecorder
from tirkit.compiler.transform import as_module
from tirkit.lang import from_source

_SRC = '''
from tvm.script import tir as T
@T.prim_func
def scale(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in T.parallel(16):
        with T.block("b"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi] * T.float32(3)
'''


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIRKIT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _entries(path):
    return sorted(p.suffix for p in path.iterdir()) if path.exists() else []


def _check(module):
    a = np.arange(16, dtype="float32")
    b = np.zeros(16, "float32")
    module(a, b)
    np.testing.assert_array_equal(b, a * 3)


def test_rebuild_loads_the_cached_machine_code(cache_dir):
    first = build(from_source(_SRC))
    assert _entries(cache_dir) == [".json", ".o"]
    _check(first)
    second = build(from_source(_SRC))  # a fresh parse: same structure, new objects
    assert second.jit.object_code is not None and second.jit.llvm_ir == ""
    _check(second)
    ro = np.zeros(16, "float32")
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="argument B: expected a writeable array"):
        second(np.ones(16, "float32"), ro)  # the written args come back from the entry
    assert [gv.name_hint for gv in second.lowered.functions] == ["scale"]  # lowered on demand


def test_a_changed_kernel_or_option_is_a_miss(cache_dir):
    build(from_source(_SRC))
    build(from_source(_SRC.replace("T.float32(3)", "T.float32(4)")))
    build(from_source(_SRC), opt_level=1)
    assert len(_entries(cache_dir)) == 6
    changed = build(from_source(_SRC.replace("T.float32(3)", "T.float32(4)")))
    b = np.zeros(16, "float32")
    changed(np.ones(16, "float32"), b)
    assert np.all(b == 4)


def test_corrupt_entry_is_a_miss_and_rewritten(cache_dir):
    build(from_source(_SRC))
    obj = next(cache_dir.glob("*.o"))
    obj.write_bytes(b"garbage")
    rebuilt = build(from_source(_SRC))
    assert rebuilt.jit.llvm_ir != ""  # compiled again
    _check(rebuilt)
    assert obj.stat().st_size > len(b"garbage")


def test_empty_env_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("TIRKIT_CACHE_DIR", "")
    assert cache.cache_dir() is None
    build(from_source(_SRC))
    assert not any(tmp_path.iterdir())


def test_instruments_bypass_the_cache(cache_dir):
    build(from_source(_SRC))
    recorder = StageRecorder()
    build(from_source(_SRC), instruments=[recorder])
    assert len(recorder.results) > 10  # the passes really ran


def test_default_directory_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("TIRKIT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "tirkit"


def test_an_edited_compiler_source_changes_the_fingerprint(tmp_path):
    root = tmp_path / "tirkit"
    (root / "compiler" / "codegen").mkdir(parents=True)
    (root / "lsp").mkdir()
    gen = root / "compiler" / "codegen" / "stmt.py"
    gen.write_text("ALIAS_INFO = False\n")
    (root / "lsp" / "server.py").write_text("x = 1\n")
    before = cache.source_fingerprint(root, "0.50.0")
    (root / "lsp" / "server.py").write_text("x = 2\n")  # not compiler code: same fingerprint
    assert cache.source_fingerprint(root, "0.50.0") == before
    gen.write_text("ALIAS_INFO = True\n")
    assert cache.source_fingerprint(root, "0.50.0") != before
    assert cache.source_fingerprint(root, "0.47.0") != cache.source_fingerprint(root, "0.50.0")


def test_the_key_carries_the_compiler_fingerprint(monkeypatch):
    mod = as_module(from_source(_SRC))
    key = cache.cache_key(mod, "llvm", 3, {})
    assert cache.cache_key(mod, "llvm", 3, {}) == key
    monkeypatch.setattr(cache, "compiler_fingerprint", lambda: "a code generator edited since")
    assert cache.cache_key(mod, "llvm", 3, {}) != key
