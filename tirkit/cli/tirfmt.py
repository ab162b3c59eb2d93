"""``tirfmt``: the TVMScript formatter (DESIGN.md §5). No TVM counterpart.

``tirfmt [PATH ...|-]`` formats the TVMScript units (``@T.prim_func`` functions and
``@I.ir_module`` classes) of Python files in place and leaves every other byte of each file as
it is. Directories are walked for ``*.py`` files; ``-`` reads standard input and writes the
result to standard output. Nothing in a file is executed.

Options: ``--check`` (write nothing; exit 1 if a file would change), ``--diff`` (write nothing;
print a unified diff on stdout), ``--line-length N`` (0: never wrap; default 100),
``--dialect {tir,tirx}`` (translate units to that spelling, and the file's ``tvm.script``
import lines with them), ``--safe`` (default: a file is written only if its new units parse to
structurally equal IR and format to themselves) / ``--fast`` (skip that check),
``--upgrade`` (also rewrite the legacy hybrid-script units of TVM <= 0.8 in today's syntax),
``--stdin-filename`` (the name of ``-`` in messages and for finding pyproject.toml),
``--include`` / ``--exclude`` (globs for files found under directories), ``-q``.
``[tool.tirfmt]`` in the nearest pyproject.toml sets ``line-length``, ``dialect``, ``include``,
``exclude``; command-line options win.

Exit status: 0 done (nothing to do or files written), 1 ``--check``/``--diff --check`` found
files that would change, 2 error (syntax errors in a unit, a result that failed verification,
unreadable files, bad options), 3 internal error (a tirfmt bug, reported with a "please report"
text); a file with an error is never written. Writes go through symbolic links to their target
and keep hard links and the file's mode. Code goes to stdout,
messages to stderr. Writes are atomic: a temporary file in the same directory, the original
permissions, then ``os.replace``.
"""
from __future__ import annotations

import argparse
import difflib
import io
import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, TextIO

from .tirfmt_config import Config, ConfigError, collect_files, load_config
from .tirfmt_format import FormatResult, Mode, format_source
from .. import __version__
from .quiet import without_python_warnings

PROGRESS_THRESHOLD = 20
DEFAULT_LINE_LENGTH = 100


@dataclass
class _Report:
    changed: int = 0
    unchanged: int = 0
    errors: int = 0
    internal: int = 0


INTERNAL = ("tirfmt: internal error: a tirkit bug, not a problem in your file (the file was "
            "left as it is). Please report it with the input file and this message.")


def _guarded_format(source: str, name: str, mode: Mode, report: _Report,
                    err: TextIO) -> FormatResult | None:
    """``format_source``, with an unexpected exception reported as an internal error."""
    try:
        return format_source(source, name, mode)
    except Exception as exc:  # pylint: disable=broad-except  # exit 3 with the report text
        print(f"{name}: error: {type(exc).__name__}: {exc}\n{INTERNAL}", file=err)
        report.internal += 1
        report.errors += 1
        return None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tirfmt``."""
    ap = argparse.ArgumentParser(
        prog="tirfmt", description="Format the TVMScript units of Python files; every other "
        "byte of a file is left as it is. Nothing is executed.",
        epilog="exit status: 0 ok (nothing to do or files written); 1 --check found files that "
        "would be reformatted; 2 usage or I/O error, syntax errors, a result that failed "
        "verification; 3 internal error (please report it)")
    ap.add_argument("paths", nargs="*", metavar="PATH",
                    help="files or directories (walked for *.py); '-' for stdin/stdout")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if some file would be reformatted")
    ap.add_argument("--diff", action="store_true",
                    help="write nothing; print a unified diff of the changes on stdout")
    ap.add_argument("--version", action="version", version=f"tirfmt {__version__}")
    ap.add_argument("--line-length", type=_length, default=None, metavar="N",
                    help=f"wrap lines longer than N (0: never; default {DEFAULT_LINE_LENGTH})")
    ap.add_argument("--dialect", choices=("tir", "tirx"), default=None,
                    help="print units in this dialect (translating imports too)")
    ap.add_argument("--upgrade", action="store_true",
                    help="rewrite legacy hybrid-script units (class Module: / ty.handle / "
                    "tir.xxx, TVM <= 0.8) in today's syntax (--dialect picks tir or tirx)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--safe", dest="safe", action="store_true", default=True,
                      help="verify each result parses to the same IR and is stable (default)")
    mode.add_argument("--fast", dest="safe", action="store_false",
                      help="skip the verification")
    ap.add_argument("--stdin-filename", default=None, metavar="NAME",
                    help="name of the file read from '-' (messages, pyproject.toml lookup)")
    ap.add_argument("--include", action="append", default=None, metavar="GLOB",
                    help="format files under directories matching GLOB (default *.py)")
    ap.add_argument("--exclude", action="append", default=None, metavar="GLOB",
                    help="skip files and directories matching GLOB")
    ap.add_argument("-q", "--quiet", action="store_true", help="only errors on stderr")
    return ap


def _length(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") \
            from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def _mode(args: argparse.Namespace, cfg: Config) -> Mode:
    length = args.line_length if args.line_length is not None else cfg.line_length
    if length is None:
        length = DEFAULT_LINE_LENGTH
    return Mode(length or None, args.dialect or cfg.dialect, args.safe, args.upgrade)


def _diff(old: str, new: str, name: str) -> str:
    lines = difflib.unified_diff(io.StringIO(old).readlines(), io.StringIO(new).readlines(),
                                 f"{name}\t(original)", f"{name}\t(formatted)")
    return "".join(ln if ln.endswith("\n") else ln + "\n\\ No newline at end of file\n"
                   for ln in lines)


def write_atomic(path: Path, text: str) -> None:
    """Replace the content of ``path`` by ``text`` (UTF-8, line endings as given), keeping the
    file: a symbolic link is written through (its target changes, the link stays), a file with
    several hard links is rewritten in place (every link sees the new text), and otherwise the
    text goes to a temporary file in the same directory with the original permissions, then
    ``os.replace`` (atomic)."""
    target = Path(os.path.realpath(path))
    info = target.stat()
    if info.st_nlink > 1:
        with open(target, "r+", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.truncate()
            fh.flush()
            os.fsync(fh.fileno())
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tirfmt", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, stat.S_IMODE(info.st_mode))
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _emit(result: FormatResult, err: TextIO, quiet: bool) -> None:
    for message in result.errors:
        print(message, file=err)
    if not quiet:
        for note in result.notes:
            print(f"tirfmt: note: {note}", file=err)


def _one_file(path: Path, args: argparse.Namespace, mode: Mode, report: _Report,
              out: TextIO, err: TextIO) -> None:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            source = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{path}: error: cannot read: {exc}", file=err)
        report.errors += 1
        return
    result = _guarded_format(source, str(path), mode, report, err)
    if result is None:
        return
    _emit(result, err, args.quiet)
    if result.errors:
        report.errors += 1
        return
    if not result.changed:
        report.unchanged += 1
        return
    report.changed += 1
    if args.diff:
        out.write(_diff(source, result.text, str(path)))
    if args.check or args.diff:
        if not args.quiet:
            print(f"would reformat {path}", file=err)
        return
    try:
        write_atomic(path, result.text)
    except OSError as exc:
        print(f"{path}: error: cannot write: {exc}", file=err)
        report.errors += 1
        report.changed -= 1
        return
    if not args.quiet:
        print(f"reformatted {path}", file=err)


def _stdin(args: argparse.Namespace, mode: Mode, report: _Report, out: TextIO,
           err: TextIO) -> None:
    name = args.stdin_filename or "<stdin>"
    data = sys.stdin.buffer.read()
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        print(f"{name}: error: cannot read: {exc}", file=err)
        report.errors += 1
        return
    result = _guarded_format(source, name, mode, report, err)
    if result is None:
        if not (args.check or args.diff):
            out.write(source)
        return
    _emit(result, err, args.quiet)
    if result.errors:
        report.errors += 1
        if not (args.check or args.diff):
            out.write(source)  # as black does: the input back, unchanged
        return
    report.changed += result.changed
    report.unchanged += not result.changed
    if args.diff:
        out.write(_diff(source, result.text, name))
    elif not args.check:
        out.write(result.text)


def _summary(report: _Report, args: argparse.Namespace, err: TextIO) -> None:
    if args.quiet:
        return
    verb = "would be reformatted" if (args.check or args.diff) else "reformatted"
    parts = []
    if report.changed:
        parts.append(f"{report.changed} file{'s' * (report.changed != 1)} {verb}")
    if report.unchanged:
        parts.append(f"{report.unchanged} file{'s' * (report.unchanged != 1)} left unchanged")
    if report.errors:
        parts.append(f"{report.errors} file{'s' * (report.errors != 1)} failed")
    print("tirfmt: " + (", ".join(parts) or "no files") + ".", file=err)


def _status(report: _Report, args: argparse.Namespace) -> int:
    if report.internal:
        return 3
    if report.errors:
        return 2
    return 1 if (args.check and report.changed) else 0


@without_python_warnings
def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tirfmt``; returns the exit status (see the module docstring). A closed
    standard output (``tirfmt --diff | head``) ends it quietly."""
    try:
        return _main(argv)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        return 2  # an I/O error, reported by the status only
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:  # pylint: disable=broad-except  # exit 3 with the report text
        print(f"tirfmt: {type(exc).__name__}: {exc}\n{INTERNAL}", file=sys.stderr)
        return 3


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    paths = args.paths or []
    if not paths:
        print("tirfmt: no paths given (use '-' for standard input)", file=err)
        return 2
    if "-" in paths and len(paths) > 1:
        print("tirfmt: '-' cannot be combined with other paths", file=err)
        return 2
    start = Path(args.stdin_filename).parent if "-" in paths and args.stdin_filename else \
        Path(os.path.commonpath([os.path.abspath(p) for p in paths]))
    try:
        cfg = load_config(start if start.is_dir() else start.parent)
    except ConfigError as exc:
        print(f"tirfmt: error: {exc}", file=err)
        return 2
    mode = _mode(args, cfg)
    report = _Report()
    if paths == ["-"]:
        _stdin(args, mode, report, out, err)
        return _status(report, args)
    try:
        files = list(collect_files(paths, args.include or cfg.include,
                                   (args.exclude or []) + cfg.exclude, cfg.root))
    except FileNotFoundError as exc:
        print(f"tirfmt: error: no such file or directory: {exc.args[0]}", file=err)
        return 2
    _run(files, args, mode, report, out, err)
    _summary(report, args, err)
    return _status(report, args)


def _run(files: list[Path], args: argparse.Namespace, mode: Mode, report: _Report,
         out: TextIO, err: TextIO) -> None:
    many = len(files) > PROGRESS_THRESHOLD and not args.quiet
    step = max(1, len(files) // 10)
    for i, path in enumerate(files, 1):
        _one_file(path, args, mode, report, out, err)
        if many and (i % step == 0 or i == len(files)):
            print(f"tirfmt: {i}/{len(files)} files done", file=err, flush=True)


if __name__ == "__main__":
    sys.exit(main())
