"""Line-level scanning of Python source for the host layer: the fallback that locates TVMScript
units when libcst cannot parse the file (the user is in the middle of typing), and the rule that
decides where a unit's text ends.

TVM has no counterpart: its parser gets a function's source from ``inspect.getsource`` (which uses
``inspect.getblock``, an indentation-based block finder over tokens). This scanner is the static,
error-tolerant equivalent: it tracks strings, comments, brackets and backslash continuations well
enough to tell which physical lines start a logical line, and never needs the file to be valid.

A unit's extent (both for libcst-parsed and for recovered files) is: from the beginning of the line
of its first decorator through the end of the last line that belongs to the decorated ``def`` /
``class``: every following line indented deeper than the ``def`` line, continuation lines of open
brackets and strings, blank and comment lines in between, and trailing comment lines indented
deeper than the ``def`` line; trailing blank lines and trailing shallower comments are excluded.
The end offset stops before the last line's terminator.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from .host_imports import DEF_UNITS, UNIT_DECORATORS, ImportBinding

_NEWLINE = re.compile(r"\r\n|\r|\n")
_EVENT = re.compile(r"[#'\"\\()\[\]{}\r\n]")
_BLOCK_START = re.compile(r"[ \t\f]*(?:@[^\W\d]|(?:async[ \t]+)?def[ \t]|class[ \t])")
_DEF = re.compile(r"(?:async[ \t]+)?def[ \t\f]+([^\W\d]\w*)|class[ \t\f]+([^\W\d]\w*)")
_DECORATOR = re.compile(r"@[ \t\f]*([^\W\d]\w*(?:[ \t\f]*\.[ \t\f]*[^\W\d]\w*)*)")
_IMPORT = re.compile(r"import\s+(.+)", re.S)
_FROM_IMPORT = re.compile(r"from\s+(\.*[\w.]*)\s+import\s+(.+)", re.S)
_IMPORT_ITEM = re.compile(r"\s*([\w.*]+)(?:\s+as\s+(\w+))?\s*")


def indent_width(indent: str) -> int:
    """Column width of leading whitespace as Python's tokenizer counts it: a tab advances to the
    next multiple of 8, a form feed resets the column to 0. No TVM counterpart."""
    width = 0
    for ch in indent:
        if ch == "\t":
            width = (width // 8 + 1) * 8
        elif ch == "\f":
            width = 0
        else:
            width += 1
    return width


def line_start(text: str, offset: int) -> int:
    """Offset of the beginning of the line holding ``offset`` (after a ``\\n``, ``\\r\\n`` or
    lone ``\\r`` terminator). No TVM counterpart."""
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


@dataclass(slots=True)
class Line:
    """One physical line: ``[start, end)`` is its content without the terminator, ``code`` the
    offset of its first non-whitespace character (``== end`` for a blank line), ``comment`` the
    offset of a ``#`` comment outside strings (-1 if none), ``logical`` whether it starts a logical
    line (is not inside a string, an open bracket or a backslash continuation).
    No TVM counterpart (``inspect.getblock`` works on tokens instead)."""

    start: int
    end: int
    code: int
    width: int
    logical: bool = False
    comment: int = -1

    @property
    def blank(self) -> bool:
        """True for a line of whitespace only."""
        return self.code == self.end

    @property
    def comment_only(self) -> bool:
        """True for a logical line holding nothing but a comment."""
        return self.comment >= 0 and self.comment == self.code


def split_lines(text: str) -> list[Line]:
    """The physical lines of ``text`` (terminators ``\\r\\n``, ``\\r``, ``\\n`` as libcst).
    No TVM counterpart."""
    lines: list[Line] = []
    start = 0
    for match in _NEWLINE.finditer(text):
        lines.append(_make_line(text, start, match.start()))
        start = match.end()
    if start < len(text) or not lines:
        lines.append(_make_line(text, start, len(text)))
    return lines


def _make_line(text: str, start: int, end: int) -> Line:
    code = start + 1 if start == 0 and text.startswith("\ufeff") else start
    while code < end and text[code] in " \t\f":
        code += 1
    return Line(start, end, code, indent_width(text[start:code].lstrip("\ufeff")))


def _skip_string(text: str, at: int) -> int:
    """Offset just after the string literal whose opening quote is at ``at``; an unterminated
    single-quoted string stops at its line end, an unterminated triple-quoted one at end of file."""
    quote = text[at]
    if text.startswith(quote * 3, at):
        pos = at + 3
        while True:
            close = text.find(quote * 3, pos)
            if close == -1:
                return len(text)
            backslashes = 0
            while text[close - 1 - backslashes] == "\\":
                backslashes += 1
            if backslashes % 2 == 0:
                return close + 3
            pos = close + 1
    pattern = re.compile(r"\\(?:\r\n|[\s\S])|[\r\n]|" + re.escape(quote))
    pos = at + 1
    while True:
        match = pattern.search(text, pos)
        if match is None:
            return len(text)
        if match.group() == quote:
            return match.end()
        if match.group() in ("\r", "\n"):
            return match.start()
        pos = match.end()


def scan_lines(text: str) -> list[Line]:
    """Split ``text`` into :class:`Line` records with ``logical`` and ``comment`` filled in.

    Unclosed brackets (common while typing) do not swallow the rest of the file: a line that
    starts with a decorator, ``def`` or ``class`` while a bracket is open closes all brackets.
    No TVM counterpart (TVM tokenizes source it knows to be valid).
    """
    lines = split_lines(text)
    starts = [line.start for line in lines]
    index_of = {start: k for k, start in enumerate(starts)}
    lines[0].logical = True
    depth, pos = 0, 0
    while (match := _EVENT.search(text, pos)) is not None:
        char, at = match.group(), match.start()
        pos = at + 1
        if char == "#":
            line = lines[bisect_right(starts, at) - 1]
            line.comment, pos = at, line.end
        elif char in "'\"":
            pos = _skip_string(text, at)
        elif char == "\\":
            newline = _NEWLINE.match(text, at + 1)
            pos = newline.end() if newline else at + 1
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        else:
            pos = at + 2 if text.startswith("\r\n", at) else at + 1
            k = index_of.get(pos)
            if k is not None:
                if depth and _BLOCK_START.match(text, pos):
                    depth = 0
                lines[k].logical = depth == 0
    return lines


def extend_over_comments(text: str, end: int, width: int) -> int:
    """Move ``end`` (the end of a unit's last code line) past the comment lines that follow it and
    are indented deeper than ``width`` (blank lines between them included, trailing blank lines and
    shallower comments not). Only blank and comment lines may follow ``end`` up to the next code
    line, so this needs no string tracking. No TVM counterpart."""
    pos = end
    while True:
        newline = _NEWLINE.match(text, pos)
        if newline is None:
            return end
        start = newline.end()
        stop = _NEWLINE.search(text, start)
        line_end = stop.start() if stop else len(text)
        content = text[start:line_end]
        stripped = content.lstrip(" \t\f")
        if stripped.startswith("#"):
            if indent_width(content[:len(content) - len(stripped)]) > width:
                end = line_end
        elif stripped:
            return end
        pos = line_end


def logical_end(lines: list[Line], k: int) -> int:
    """Index of the last physical line of the logical line starting at ``lines[k]``.
    No TVM counterpart."""
    while k + 1 < len(lines) and not lines[k + 1].logical:
        k += 1
    return k


def block_end(text: str, lines: list[Line], k: int) -> int:
    """End offset of the block headed by the logical line ``lines[k]`` (a ``def`` or ``class``):
    see the module docstring for the rule. The static stand-in for TVM's use of
    ``inspect.getsource``/``inspect.getblock``."""
    width = lines[k].width
    end = lines[logical_end(lines, k)].end
    for j in range(k + 1, len(lines)):
        line = lines[j]
        if line.blank or (line.logical and line.comment_only):
            continue
        if line.logical and line.width <= width:
            break
        end = line.end
    return extend_over_comments(text, end, width)


def logical_code(text: str, lines: list[Line], k: int) -> str:
    """The code of the logical line starting at ``lines[k]`` with comments removed and
    backslash continuations joined, starting at its first non-whitespace character.
    No TVM counterpart."""
    parts = []
    for line in lines[k:logical_end(lines, k) + 1]:
        start = line.code if line is lines[k] else line.start
        stop = line.comment if line.comment >= 0 else line.end
        parts.append(text[start:stop])
    return " ".join(part[:-1] if part.endswith("\\") else part for part in parts)


def scan_imports(text: str, lines: list[Line]) -> list[ImportBinding]:
    """The bindings made by import statements found line by line (any indentation; all treated
    as module scope). No TVM counterpart."""
    bindings = []
    for k, line in enumerate(lines):
        if not line.logical or line.blank or text[line.code] not in "fi":
            continue
        code = logical_code(text, lines, k)
        for statement in code.split(";"):
            bindings.extend(_import_bindings(statement.strip(), line.code))
    return bindings


def _import_bindings(statement: str, offset: int) -> list[ImportBinding]:
    module: str | None = None
    match = _FROM_IMPORT.fullmatch(statement)
    if match:
        module, names = match.group(1), match.group(2)
    elif (match := _IMPORT.fullmatch(statement)) is not None:
        names = match.group(1)
    else:
        return []
    out = []
    for item in names.strip().strip("()").split(","):
        parsed = _IMPORT_ITEM.fullmatch(item)
        if parsed:
            name = re.sub(r"\s+", "", parsed.group(1))
            binding = ImportBinding.make(module, name, parsed.group(2), offset)
            if binding is not None:
                out.append(binding)
    return out


@dataclass(frozen=True, slots=True)
class FoundUnit:
    """A unit located by :func:`scan_units` before it is turned into a ``host.Unit``:
    ``decorator_start`` is the offset of the ``@`` of its first decorator, ``decorator`` the
    source text of the unit decorator's expression (without ``@``), ``canonical`` what it
    resolves to, ``keyword`` ``"def"`` or ``"class"``, ``name_offset`` the offset of the name,
    ``end`` the end of its extent, ``nested`` whether a ``def`` encloses it, ``arguments`` the
    decorator's ``(keyword pairs, positional)`` argument sources when already known.
    No TVM counterpart."""

    decorator_start: int
    decorator: str
    canonical: str
    keyword: str
    name: str
    name_offset: int
    end: int
    width: int
    nested: bool
    scope: str
    arguments: tuple | None = None


def _enclosing_defs(text: str, lines: list[Line], k: int) -> list[str]:
    """Names of the ``def``/``class`` lines enclosing line ``k``, outermost first, each tagged
    ``"def:"`` or ``"class:"``."""
    found: list[str] = []
    width = lines[k].width
    for j in range(k - 1, -1, -1):
        line = lines[j]
        if width == 0:
            break
        if not line.logical or line.blank or line.comment_only or line.width >= width:
            continue
        width = line.width
        match = _DEF.match(text, line.code)
        if match:
            found.append(("def:" + match.group(1)) if match.group(1) else "class:" + match.group(2))
    return found[::-1]


def _decorator_stack(text: str, lines: list[Line], k: int) -> tuple[list[int], int]:
    """Indices of the decorator lines of the stack starting at line ``k`` and the index of the
    first code line after them (``len(lines)`` at end of file)."""
    stack, j = [k], logical_end(lines, k) + 1
    while j < len(lines):
        line = lines[j]
        if line.blank or line.comment_only or not line.logical:
            j += 1
        elif text.startswith("@", line.code):
            stack.append(j)
            j = logical_end(lines, j) + 1
        else:
            break
    return stack, j


def scan_units(text: str, lines: list[Line], resolve) -> list[FoundUnit]:
    """Locate TVMScript units by their decorator lines. ``resolve(dotted, offset)`` maps a
    decorator's dotted name to its canonical name (or ``None``). Units are returned in source
    order, including prim_funcs inside ir_module classes (the caller nests them)."""
    found: list[FoundUnit] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        if not (line.logical and not line.blank and text.startswith("@", line.code)):
            k += 1
            continue
        stack, head = _decorator_stack(text, lines, k)
        if head < len(lines) and _DEF.match(text, lines[head].code):
            for decorator in stack:
                unit = _unit_at(text, lines, decorator, k, head, resolve)
                if unit is not None:
                    found.append(unit)
                    break
        k = head
    return found


def _unit_at(text: str, lines: list[Line], k: int, stack_start: int, head: int,
             resolve) -> FoundUnit | None:
    code = logical_code(text, lines, k)
    match = _DECORATOR.match(code)
    rest = code[match.end():].strip() if match else ""
    if match is None or (rest and not (rest.startswith("(") and rest.endswith(")"))):
        return None
    canonical = resolve(re.sub(r"[ \t\f]", "", match.group(1)), lines[k].code)
    kind = UNIT_DECORATORS.get(canonical or "")
    def_match = _DEF.match(text, lines[head].code)
    if canonical is None or kind is None or def_match is None:
        return None
    is_def = kind in DEF_UNITS
    if is_def != bool(def_match.group(1)):
        return None
    group = 1 if is_def else 2
    outer = _enclosing_defs(text, lines, head)
    scope = ".".join(part.split(":", 1)[1] + (".<locals>" if part.startswith("def:") else "")
                     for part in outer)
    return FoundUnit(
        decorator_start=lines[stack_start].code,
        decorator=code[1:].strip(),
        canonical=canonical, keyword="def" if group == 1 else "class",
        name=def_match.group(group), name_offset=def_match.start(group),
        end=block_end(text, lines, head), width=lines[head].width,
        nested=any(part.startswith("def:") for part in outer), scope=scope)
