"""Limits that keep the front end bounded on hostile input (issue 15): checked on the raw text
*before* it reaches libcst's native parser or Lark, and on the values the static evaluator
computes.

No TVM counterpart: TVM's front end runs the user's file through CPython, whose own parser
refuses more than 200 nested brackets and 100 indentation levels. tirkit parses with libcst
(whose native parser overflows its stack near 5,000 nested brackets and takes quadratic time on
long operator chains) and Lark, so it checks first and reports a diagnostic at the exact span:

- ``MAX_SOURCE_CHARS``: characters in one file;
- ``MAX_NESTING``: nested ``( [ {`` (CPython's own limit, so no valid Python file is refused);
- ``MAX_INDENT_LEVELS``: nested indented blocks (hundreds of nested loops still parse);
- ``MAX_OPERATORS``: binary/boolean operators in one statement (libcst's time is quadratic
  in them);
- ``MAX_SCOPES``: nested scopes in one function (``with`` blocks, loops — each extent of a
  ``T.grid`` is one — and the statements that scope the rest of their block,
  ``x = T.decl_buffer(...)``), so the IR's nesting stays within what the recursive passes after
  the parser handle;
- ``MAX_INT_BITS``, ``MAX_SEQUENCE``, ``MAX_EXPONENT``, ``MAX_WORK``: the static evaluator's
  integers, sequence lengths, exponents and the number of expression nodes one unit evaluates.

A per-unit *time* budget (:func:`time_budget`, checked by :func:`check_budget` in the evaluator
and between statements) stops a unit that is within those limits but still slow (a
million-element comprehension in a shape), so one unit cannot stall the others in ``tirc`` or
the language server.
"""
from __future__ import annotations

import re
import threading
import time
from contextlib import contextmanager
from typing import Any, ContextManager, Iterator

from tirkit.ir.deep import raised_recursion_limit
from tirkit.ir.diagnostics import Diagnostic
from tirkit.ir.span import LineIndex

MAX_SOURCE_CHARS = 4_000_000
MAX_NESTING = 200
MAX_INDENT_LEVELS = 256
MAX_OPERATORS = 500
MAX_INT_BITS = 4096
MAX_SEQUENCE = 1_000_000
MAX_EXPONENT = 4096
MAX_WORK = 2_000_000
MAX_SCOPES = 2_000  # nested scopes in one function: each statement such as x = T.decl_buffer()
# nests the rest of its block in a new scope, and every later stage walks the nest recursively
RECURSION_LIMIT = 30_000  # Python frames the front end may use on the deepest bounded input

_STRING = (r"""[rRbBuUfF]{0,2}(?:"{3}[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"{3}"""
           r"""|'{3}[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*'{3}"""
           r"""|"[^"\\\n]*(?:\\[\s\S][^"\\\n]*)*"|'[^'\\\n]*(?:\\[\s\S][^'\\\n]*)*')""")
_TOKEN = re.compile(rf"(?P<s>{_STRING})|(?P<c>#[^\n]*)|(?P<o>[(\[{{])|(?P<x>[)\]}}])"
                    r"|(?P<n>\\?\r?\n[ \t\f]*)|(?P<p>\*\*|//|<<|>>|[-+*/%@&|^<>]|\band\b|\bor\b)")


# a line that can only start a new top-level statement (after a bracket left open by an error)
_TOP_LEVEL = re.compile(r"(?:@|(?:async\s+)?def\s|class\s|from\s|import\s)")


class LimitExceeded(Exception):
    """A value or text beyond one of this module's limits; ``message`` says which."""


class BudgetExceeded(BaseException):
    """A unit's time budget (:func:`time_budget`) ran out. A ``BaseException`` (like
    ``KeyboardInterrupt``) so that the front end's error recovery, which turns ``Exception`` into
    diagnostics statement by statement, does not catch it: it ends the whole unit, and the
    caller that set the budget reports it. ``seconds`` is the budget."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"time budget of {seconds:g} s exceeded")
        self.seconds = seconds


_BUDGET = threading.local()  # per thread: .deadline (time.thread_time) and .seconds


@contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Within the block, :func:`check_budget` raises :class:`BudgetExceeded` once this thread has
    spent ``seconds`` of CPU time (``time.thread_time``; ``None``: no budget) — CPU time, so
    units analysed side by side on threads, or on a loaded machine, are not charged for each
    other. Per thread; a nested budget can only shorten the enclosing one."""
    old, old_seconds = getattr(_BUDGET, "deadline", None), getattr(_BUDGET, "seconds", None)
    if seconds is not None:
        deadline = time.thread_time() + seconds
        if old is None or deadline < old:
            _BUDGET.deadline, _BUDGET.seconds = deadline, seconds
    try:
        yield
    finally:
        _BUDGET.deadline, _BUDGET.seconds = old, old_seconds


def check_budget() -> None:
    """Raise :class:`BudgetExceeded` when this thread's :func:`time_budget` has run out."""
    deadline = getattr(_BUDGET, "deadline", None)
    if deadline is not None and time.thread_time() > deadline:
        raise BudgetExceeded(_BUDGET.seconds)


def _diag(index: LineIndex, start: int, end: int, message: str, base: int = 0) -> Diagnostic:
    return Diagnostic.error("limit", index.span(base + start, base + end), message)


class _Scan:
    """One pass over the text's tokens (strings and comments skipped)."""

    def __init__(self, index: LineIndex, text: str, base: int) -> None:
        self.index, self.text, self.base = index, text, base
        self.opens: list[int] = []   # offsets of the open brackets
        self.indents: list[int] = [0]
        self.ops = 0
        self.stmt_start = 0

    def newline(self, match: re.Match) -> Diagnostic | None:
        text, end = self.text, match.end()
        if self.opens and _TOP_LEVEL.match(text, end):
            self.opens.clear()  # an unclosed bracket before: a new top-level statement starts
        if self.opens or match.group().startswith("\\"):
            return None
        self.ops, self.stmt_start = 0, end
        if end >= len(text) or text[end] in "\r\n#":
            return None  # a blank or comment line does not open or close a block
        width = len(match.group().lstrip("\r\n").expandtabs(8))
        while width < self.indents[-1]:
            self.indents.pop()
        if width > self.indents[-1]:
            self.indents.append(width)
            if len(self.indents) > MAX_INDENT_LEVELS + 1:
                return _diag(self.index, end, end + 1, base=self.base, message=f"more than {MAX_INDENT_LEVELS} nested "
                             "indented blocks; tirkit refuses deeper nesting")
        return None

    def token(self, match: re.Match) -> Diagnostic | None:
        kind = match.lastgroup
        if kind == "o":
            self.opens.append(match.start())
            if len(self.opens) > MAX_NESTING:
                return _diag(self.index, match.start(), match.end(), base=self.base,
                             message=f"more than {MAX_NESTING} nested brackets (Python's own limit)")
        elif kind == "x":
            if self.opens:
                self.opens.pop()
        elif kind == "n":
            return self.newline(match)
        elif kind == "p":
            self.ops += 1
            if self.ops > MAX_OPERATORS:
                return _diag(self.index, self.stmt_start, match.end(), base=self.base,
                             message=f"more than {MAX_OPERATORS} operators in one statement; "
                             "split the expression")
        return None


def check_text(text: str, index: LineIndex | None = None, base: int = 0) -> Diagnostic | None:
    """The first limit ``text`` exceeds (size, bracket nesting, indentation depth, operators
    in one statement) as an ``"limit"`` error diagnostic at the offending text, or ``None``.
    Linear in the text; strings and comments are skipped. ``index`` indexes the whole file and
    ``base`` is the offset of ``text`` in it (default: ``text`` is the file)."""
    index = index if index is not None else LineIndex(text)
    if len(text) > MAX_SOURCE_CHARS:
        return _diag(index, MAX_SOURCE_CHARS, MAX_SOURCE_CHARS, base=base, message=f"file has {len(text)} characters; "
                     f"tirkit reads at most {MAX_SOURCE_CHARS}")
    if _within_limits(text):
        return None
    scan = _Scan(index, text, base)
    for match in _TOKEN.finditer(text):
        if match.lastgroup in ("s", "c"):
            continue
        found = scan.token(match)
        if found is not None:
            return found
    return None


_OPERATOR_CHARS = "-+*/%@&|^<>"


def _within_limits(text: str) -> bool:
    """True when counting characters already shows that the scan of :func:`check_text` cannot
    find a limit exceeded (the common case; the scan costs a Python call per token, and runs
    for the file and again for each unit): no more bracket characters than ``MAX_NESTING``,
    newlines than ``MAX_INDENT_LEVELS`` (each level opens on a new line) and operator
    characters and ``and``/``or`` substrings than ``MAX_OPERATORS`` (each operator the scan
    counts contains one of them), strings and comments included."""
    count = text.count
    return (count("(") + count("[") + count("{") <= MAX_NESTING
            and count("\n") <= MAX_INDENT_LEVELS
            and sum(map(count, _OPERATOR_CHARS)) + count("and") + count("or") <= MAX_OPERATORS)


def check_int(value: int) -> int:
    """``value`` if its magnitude fits in ``MAX_INT_BITS`` bits.

    Raises:
        LimitExceeded: otherwise.
    """
    if value.bit_length() > MAX_INT_BITS:
        raise LimitExceeded(f"integer of {value.bit_length()} bits; the static evaluator "
                            f"computes at most {MAX_INT_BITS}-bit integers")
    return value


def check_value(value: Any) -> Any:
    """``value`` if it is an integer or sequence within the limits (anything else passes).

    Raises:
        LimitExceeded: an integer over ``MAX_INT_BITS`` bits or a sequence over
            ``MAX_SEQUENCE`` elements.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return check_int(value)
    if isinstance(value, (str, bytes, list, tuple, dict, set)) and len(value) > MAX_SEQUENCE:
        raise LimitExceeded(f"sequence of {len(value)} elements; the static evaluator builds "
                            f"at most {MAX_SEQUENCE}")
    return value


def deep_recursion(limit: int = RECURSION_LIMIT) -> ContextManager[None]:
    """Raise Python's recursion limit to ``limit`` for the front end's recursive walks; the old
    limit comes back when the last thread inside leaves (a thread leaving early must not lower
    it under another one still deep in a parse, or under the deep IR worker: one account for
    both, :func:`tirkit.ir.deep.raised_recursion_limit`). The text limits above bound how deep
    they go."""
    return raised_recursion_limit(limit)
