"""A persistent compile cache: rebuilding an unchanged kernel loads its machine code instead of
lowering, generating and optimising it again (no TVM counterpart; the language server's previews
and the tuner rebuild the same kernels over and over).

An entry is keyed by the structural hash of the module (what the code does), the names the
compiled error messages and symbols carry (functions, params, buffers), the target, the ``-O``
level, the pass config, tirkit's version and a fingerprint of the compiler itself (the source of
the packages that lower and generate code, and the LLVM llvmlite carries: a changed pass or code
generator never serves code it did not make); it holds the object code MCJIT produced and, as
JSON, the packed functions with the arguments each writes.

Where: ``$TIRKIT_CACHE_DIR`` if set (an empty value turns the cache off), else
``$XDG_CACHE_HOME/tirkit`` or ``~/.cache/tirkit``. Entries are written atomically; a corrupt or
unreadable entry is a miss, never an error.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from tirkit.ir import IRModule, structural_hash
from tirkit.tir import PrimFunc

__all__ = ["cache_dir", "cache_key", "compiler_fingerprint", "CacheEntry", "load", "store"]

ENV = "TIRKIT_CACHE_DIR"
#: 2: an entry's object file may be followed by more (``extra``), their sizes in the JSON
_FORMAT = 2


def cache_dir() -> Path | None:
    """The cache directory, or None when ``$TIRKIT_CACHE_DIR`` is set to the empty string."""
    env = os.environ.get(ENV)
    if env is not None:
        return Path(env).expanduser() if env.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tirkit"


def _names(mod: IRModule) -> list[Any]:
    out: list[Any] = []
    for gv, func in sorted(mod.functions.items(), key=lambda kv: kv[0].name_hint):
        if isinstance(func, PrimFunc):
            out.append([gv.name_hint, [p.name_hint for p in func.params],
                        [b.name for b in func.buffer_map.values()]])
    return out


#: the packages whose code decides what a build produces (lowering, passes, code generation)
_COMPILER_PACKAGES = ("compiler", "tir", "arith", "ir")


@lru_cache(maxsize=1)
def compiler_fingerprint() -> str:
    """A digest of the source of tirkit's compiler packages and of llvmlite's LLVM version,
    computed once per process: an edited pass or code generator makes new cache keys."""
    import llvmlite  # pylint: disable=import-outside-toplevel

    return source_fingerprint(Path(__file__).resolve().parent.parent, llvmlite.__version__)


def source_fingerprint(root: Path, salt: str = "") -> str:
    """A digest of the ``.py`` files (names and bytes) of the compiler packages under ``root``
    (a ``tirkit`` directory) and ``salt``."""
    digest = hashlib.sha256(salt.encode())
    for package in _COMPILER_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            try:
                digest.update(path.read_bytes())
            except OSError:
                digest.update(b"?")
    return digest.hexdigest()[:24]


def cache_key(mod: IRModule, target: Any, opt_level: int, config: dict[str, Any]) -> str:
    """The hex digest naming ``mod``'s entry for ``target`` at ``opt_level`` with ``config``."""
    from tirkit import __version__  # pylint: disable=import-outside-toplevel

    parts = [_FORMAT, __version__, compiler_fingerprint(), structural_hash(mod), _names(mod),
             repr(target), opt_level, sorted((k, repr(v)) for k, v in config.items())]
    return hashlib.sha256(json.dumps(parts, default=repr).encode()).hexdigest()[:40]


@dataclass(frozen=True)
class CacheEntry:
    """A cached build: the object code, ``{function: [written arg indices]}`` and the object
    files linked with ``obj`` (the packed wrappers, compiled at -O0)."""

    obj: bytes
    functions: dict[str, list[int] | None]
    extra: tuple[bytes, ...] = ()


def load(key: str) -> CacheEntry | None:
    """The entry ``key``, or None (cache off, missing, unreadable or corrupt)."""
    root = cache_dir()
    if root is None:
        return None
    try:
        meta = json.loads((root / f"{key}.json").read_text())
        data = (root / f"{key}.o").read_bytes()
        sizes = meta.get("sizes")
        if meta.get("format") != _FORMAT or not isinstance(sizes, list) \
                or sum(sizes) != len(data) or not sizes:
            return None
        objs, at = [], 0
        for size in sizes:
            objs.append(data[at:at + size])
            at += size
        return CacheEntry(objs[0], dict(meta["functions"]), tuple(objs[1:]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def store(key: str, entry: CacheEntry) -> bool:
    """Write ``entry`` under ``key`` (object first, its JSON last); False when the cache is off
    or not writable (the build goes on uncached)."""
    root = cache_dir()
    if root is None:
        return False
    objs = (entry.obj, *entry.extra)
    meta = {"format": _FORMAT, "sizes": [len(o) for o in objs], "functions": entry.functions}
    try:
        root.mkdir(parents=True, exist_ok=True)
        _write_atomic(root / f"{key}.o", b"".join(objs))
        _write_atomic(root / f"{key}.json", json.dumps(meta).encode())
    except OSError:
        return False
    return True
