"""``tirfmt`` configuration and file discovery: ``[tool.tirfmt]`` in the nearest
``pyproject.toml`` (keys ``line-length``, ``dialect``, ``include``, ``exclude``) and the walk of
directories for Python files filtered by include/exclude globs. No TVM counterpart.
"""
from __future__ import annotations

import fnmatch
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

__all__ = ["Config", "ConfigError", "find_pyproject", "load_config", "collect_files"]

DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", ".mypy_cache",
                   ".pytest_cache", "__pycache__", "build", "dist", "node_modules", "*.egg-info")


class ConfigError(Exception):
    """A bad ``[tool.tirfmt]`` table or an unreadable pyproject.toml."""


@dataclass
class Config:
    """Settings from ``[tool.tirfmt]``: ``line_length``, ``dialect``, ``include`` / ``exclude``
    (glob patterns), ``root`` (the directory of the pyproject.toml, patterns are relative to
    it) and ``path`` (the file read, ``None`` without one)."""

    line_length: int | None = None
    dialect: str | None = None
    include: list[str] = field(default_factory=lambda: ["*.py"])
    exclude: list[str] = field(default_factory=list)
    root: Path = field(default_factory=Path.cwd)
    path: Path | None = None


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` (a file's directory) or above it."""
    start = start.resolve()
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


_KEYS = {"line-length", "line_length", "dialect", "include", "exclude"}


def load_config(start: Path) -> Config:
    """The ``[tool.tirfmt]`` settings of the pyproject.toml nearest to ``start``.

    Raises:
        ConfigError: naming the file and the bad key or value.
    """
    path = find_pyproject(start)
    if path is None:
        return Config(root=start.resolve())
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{path}: cannot read: {err}") from None
    table = data.get("tool", {}).get("tirfmt", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.tirfmt] must be a table")
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown [tool.tirfmt] key(s) {', '.join(unknown)}; "
                          f"known: line-length, dialect, include, exclude")
    cfg = Config(root=path.parent, path=path)
    length = table.get("line-length", table.get("line_length"))
    if length is not None:
        if not isinstance(length, int) or isinstance(length, bool) or length < 0:
            raise ConfigError(f"{path}: line-length must be a non-negative integer, "
                              f"got {length!r}")
        cfg.line_length = length
    dialect = table.get("dialect")
    if dialect is not None and dialect not in ("tir", "tirx"):
        raise ConfigError(f"{path}: dialect must be \"tir\" or \"tirx\", got {dialect!r}")
    cfg.dialect = dialect
    for key in ("include", "exclude"):
        if key in table:
            setattr(cfg, key, _patterns(path, key, table[key]))
    return cfg


def _patterns(path: Path, key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: {key} must be a glob string or a list of them")
    return list(value)


def matches(rel: str, patterns: Sequence[str]) -> bool:
    """Whether a relative posix path, or one of its components, matches a glob pattern."""
    parts = rel.split("/")
    for pat in patterns:
        pat = pat.rstrip("/")
        if fnmatch.fnmatch(rel, pat) or any(fnmatch.fnmatch(p, pat) for p in parts):
            return True
    return False


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def collect_files(paths: Sequence[str], include: Sequence[str], exclude: Sequence[str],
                  root: Path) -> Iterator[Path]:
    """The files to format: files named explicitly (always), and the files under directories
    whose path matches ``include`` and neither it nor a directory above it matches ``exclude``
    (or a default exclude such as ``.git``, ``.venv``, ``__pycache__``).

    Raises:
        FileNotFoundError: for a path that does not exist.
    """
    excluded = list(DEFAULT_EXCLUDE) + list(exclude)
    for name in paths:
        path = Path(name)
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from _walk(path, include, excluded, root)
        else:
            raise FileNotFoundError(name)


def _walk(top: Path, include: Sequence[str], exclude: Sequence[str], root: Path
          ) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(top):
        base = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames
                             if not matches(_relative(base / d, root), exclude))
        for fname in sorted(filenames):
            rel = _relative(base / fname, root)
            if matches(rel, include) and not matches(rel, exclude):
                yield base / fname
