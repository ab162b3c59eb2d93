"""First-character dispatch for the scanner's alternation of terminals (no TVM counterpart: TVM
uses Python's tokenizer).

The scanner's regular expression tries the grammar's 63 terminals in order at every token, and
Python's ``re`` does not skip the alternatives that cannot start with the character at hand:
lexing a ``)`` fails 60 alternatives first. :class:`DispatchTable` compiles, for each ASCII
character, the same alternation restricted to the terminals that *may* start with it (and to
those that may start with a blank, which the leading ``[\\t\\f ]*`` can give back), in the same
order. An alternative left out could not have matched there, so every match, its group and its
extent are those of the full pattern.

:func:`first_chars` over-approximates: anything it does not understand (case-insensitive flags,
back references, ``.``...) counts as "may start with any character".
"""
from __future__ import annotations

import re
from typing import Iterable

try:  # Python 3.11+
    # (private modules typeshed does not describe)
    import re._constants as _C  # type: ignore[import-not-found]  # pylint: disable=E0611
    import re._parser as _P  # type: ignore[import-not-found]  # pylint: disable=E0611
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _C  # pylint: disable=deprecated-module
    import sre_parse as _P  # pylint: disable=deprecated-module

ASCII = frozenset(chr(i) for i in range(128))
BLANKS = frozenset(" \t\f")  # what the scanner's leading ``[\t\f ]*`` skips


class _Unknown(Exception):
    """A construct the analysis does not model: the alternative may start with anything."""


_CATEGORIES = {getattr(_C, name): re.compile(esc) for name, esc in (
    ("CATEGORY_DIGIT", r"\d"), ("CATEGORY_NOT_DIGIT", r"\D"), ("CATEGORY_SPACE", r"\s"),
    ("CATEGORY_NOT_SPACE", r"\S"), ("CATEGORY_WORD", r"\w"), ("CATEGORY_NOT_WORD", r"\W"))}
_REPEATS = tuple(getattr(_C, name) for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
                 if hasattr(_C, name))
_ZERO_WIDTH = (_C.AT, _C.ASSERT, _C.ASSERT_NOT)


def first_chars(regex: str) -> frozenset[str] | None:
    """The ASCII characters a match of ``regex`` may start with, or ``None`` when it may start
    with any character (or match the empty string, or use what the analysis does not model)."""
    try:
        parsed = _P.parse(regex)
        if parsed.state.flags & re.IGNORECASE:
            return None
        chars, nullable = _first(parsed.data)
    except (_Unknown, re.error, AttributeError, TypeError, ValueError):
        return None
    return None if nullable else frozenset(chars)


def _first(seq: Iterable) -> tuple[set[str], bool]:
    """First characters of a sequence of items, and whether it can match the empty string."""
    out: set[str] = set()
    for op, av in seq:
        chars, nullable = _item(op, av)
        out |= chars
        if not nullable:
            return out, False
    return out, True


def _item(op, av) -> tuple[set[str], bool]:  # pylint: disable=too-many-return-statements
    if op is _C.LITERAL:
        return {chr(av)} & ASCII, False
    if op is _C.NOT_LITERAL:
        return set(ASCII - {chr(av)}), False
    if op is _C.IN:
        return _charset(av), False
    if op is _C.SUBPATTERN:
        _, add_flags, _, pattern = av
        if add_flags & re.IGNORECASE:
            raise _Unknown
        return _first(pattern)
    if op is _C.BRANCH:
        out: set[str] = set()
        nullable = False
        for alternative in av[1]:
            chars, empty = _first(alternative)
            out |= chars
            nullable = nullable or empty
        return out, nullable
    if op in _REPEATS:
        low, _, pattern = av
        chars, nullable = _first(pattern)
        return chars, nullable or low == 0
    if op is getattr(_C, "ATOMIC_GROUP", None):
        return _first(av)
    if op in _ZERO_WIDTH:
        return set(), True  # consumes nothing: what follows starts the match
    raise _Unknown


def _charset(items) -> set[str]:
    out: set[str] = set()
    negate = False
    for op, av in items:
        if op is _C.NEGATE:
            negate = True
        elif op is _C.LITERAL:
            out |= {chr(av)} & ASCII
        elif op is _C.RANGE:
            low, high = av
            out.update(chr(i) for i in range(max(low, 0), min(high, 127) + 1))
        elif op is _C.CATEGORY and av in _CATEGORIES:
            out.update(ch for ch in ASCII if _CATEGORIES[av].fullmatch(ch))
        else:
            raise _Unknown
    return set(ASCII - out) if negate else out


class DispatchTable(dict):
    """``table[ch]``: for an ASCII character, ``prefix`` followed by the alternation of the
    ``alternatives`` (in their order) that may start with ``ch`` or with a blank; the ``full``
    pattern for any other character, or where that restriction leaves every alternative or none
    (an empty alternation would match the empty string). Compiled on first use of a character
    (a file uses a few dozen), so that building the scanner stays cheap."""

    def __init__(self, prefix: str, alternatives: list[str], full: re.Pattern) -> None:
        super().__init__()
        self.prefix, self.alternatives, self.full = prefix, alternatives, full
        self.firsts = [first_chars(alt) for alt in alternatives]
        self.compiled: dict[tuple[int, ...], re.Pattern] = {}

    def __missing__(self, ch: str) -> re.Pattern:
        if ch not in ASCII:
            return self.full
        chosen = tuple(i for i, first in enumerate(self.firsts)
                       if first is None or ch in first or first & BLANKS)
        if not chosen or len(chosen) == len(self.alternatives):
            pattern = self.full
        else:
            compiled = self.compiled.get(chosen)
            if compiled is not None:
                pattern = compiled
            else:
                body = "|".join(self.alternatives[i] for i in chosen)
                pattern = self.compiled[chosen] = re.compile(f"{self.prefix}(?:{body})")
        self[ch] = pattern
        return pattern
