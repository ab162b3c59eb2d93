"""The document model of the printer: Wadler/Prettier-style docs that wrap only where needed.

TVM's printer builds a Python AST-like ``Doc`` tree (``tvm.script.printer.doc``) and prints it
without ever wrapping. tirkit keeps the two levels apart:

- *expression docs* (this module): :class:`Text`, :class:`Concat`, :class:`Group`, :class:`Nest`,
  :class:`Line` (a break that is a space or nothing when its group fits on the line) and
  :class:`Mark` (records where the text of an IR object lands, for ``obj_to_underline``);
- *statement docs* (:mod:`tirkit.printer.stmt_doc`): lines and indented scopes of lines.

:func:`render` lays an expression doc out at a width; groups break only when their flat form does
not fit, so short code prints exactly as TVM prints it and long argument lists wrap inside their
brackets (valid Python: implicit line joining).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence


class Doc:
    """Base of expression docs (mirrors ``tvm.script.printer.doc.Doc``)."""

    __slots__ = ()

    def __add__(self, other: "Doc | str") -> "Doc":
        return concat(self, other)

    def __radd__(self, other: "Doc | str") -> "Doc":
        return concat(other, self)


# The doc classes are not ``frozen`` (nothing mutates a doc once built): a frozen dataclass's
# ``__init__`` sets its fields through ``object.__setattr__`` and costs twice as much, and the
# printer makes hundreds of docs per printed line. ``unsafe_hash`` keeps them hashable.
@dataclass(slots=True, unsafe_hash=True)
class Text(Doc):
    """Literal text without newlines."""

    text: str


@dataclass(slots=True, unsafe_hash=True)
class Concat(Doc):
    """Docs one after the other."""

    parts: tuple[Doc, ...]


@dataclass(slots=True, unsafe_hash=True)
class Group(Doc):
    """Print ``doc`` flat when it fits in the remaining width, else break its lines."""

    doc: Doc


@dataclass(slots=True, unsafe_hash=True)
class Nest(Doc):
    """Indent the lines broken inside ``doc`` by ``indent`` more columns."""

    indent: int
    doc: Doc


@dataclass(slots=True, unsafe_hash=True)
class Line(Doc):
    """A possible line break: ``flat`` (``" "`` or ``""``) when the enclosing group is flat."""

    flat: str = ""


@dataclass(slots=True, unsafe_hash=True)
class Mark(Doc):
    """Record the extent of ``doc`` in the output under ``key`` (for underlining)."""

    key: int
    doc: Doc


EMPTY = Text("")
SOFTLINE = Line("")
LINE = Line(" ")
COMMA = Text(",")

#: shared docs of the separators and brackets the printers spell as strings (a dict lookup
#: instead of a new :class:`Text` per use)
_TEXTS: dict[str, Text] = {t: Text(t) for t in (
    ",", ", ", " = ", ": ", ":", "(", ")", "[", "]", "{", "}", "=", ".", " ", "()", "[()]",
    "for ", " in ", "with ", " as ", "if ", "while ", "not ", "~", " + ", " - ", " * ", " // ",
    " % ", " / ", " < ", " <= ", " > ", " >= ", " == ", " != ", " and ", " or ", ".data")}
#: no longer string is among them: a joined text (a line of an Add chain 20,000 terms long) is
#: not hashed to look it up (a fresh string's hash costs its length, at every level of a chain)
_TEXT_MAX = max(map(len, _TEXTS))


def as_doc(value: "Doc | str") -> Doc:
    """A doc for ``value`` (strings become :class:`Text`)."""
    return (_TEXTS.get(value) or Text(value)) if isinstance(value, str) else value


#: texts are joined while the result is at most this long, and a Concat of at most this many
#: parts is flattened into the one it is put in: a doc nested n deep (20,000 nested ``T.Let``
#: built by program, printed on one line) then costs n, where joining every text and flattening
#: every Concat copied the inner levels' text at each level (n**2)
_JOIN_MAX = 256
_FLATTEN_MAX = 8


def concat(*parts: "Doc | str") -> Doc:
    """Concatenate docs and strings (nested concatenations are flattened, adjacent texts
    joined into one :class:`Text`: a doc without groups, e.g. any doc of a printer that does not
    wrap, ends up as one Text, which :func:`render` lays out without a walk, unless it is longer
    than ``_JOIN_MAX``; a Concat of more than ``_FLATTEN_MAX`` parts stays one part)."""
    out: list[Doc | str] = []  # str: a text still open for joining
    for p in parts:
        cls = type(p)
        if cls is Text:
            p = p.text  # type: ignore[union-attr]
            cls = str
        if cls is str:
            if p:
                if out and type(out[-1]) is str \
                        and len(out[-1]) + len(p) <= _JOIN_MAX:  # type: ignore[arg-type]
                    out[-1] += p
                else:
                    out.append(p)
        elif cls is Concat and len(p.parts) <= _FLATTEN_MAX:  # type: ignore[union-attr]
            for q in p.parts:  # type: ignore[union-attr]
                if type(q) is not Text:
                    out.append(q)
                elif out and type(out[-1]) is str and len(out[-1]) + len(q.text) <= _JOIN_MAX:
                    out[-1] += q.text
                elif q.text:
                    out.append(q.text)
        else:
            out.append(p)
    if len(out) == 1:
        d = out[0]
        if type(d) is not str:
            return d  # type: ignore[return-value]
        return (len(d) <= _TEXT_MAX and _TEXTS.get(d)) or Text(d)
    return Concat(tuple(((len(d) <= _TEXT_MAX and _TEXTS.get(d)) or Text(d))
                        if type(d) is str else d for d in out))  # type: ignore[misc]


def join(sep: "Doc | str", docs: Iterable["Doc | str"]) -> Doc:
    """``docs`` with ``sep`` between them."""
    parts: list[Doc | str] = []
    for i, d in enumerate(docs):
        if i:
            parts.append(sep)
        parts.append(d)
    return concat(*parts)


def bracket(open_: str, items: Sequence[Doc], close: str, indent: int = 4,
            trailing: str = "", wrap: bool = True) -> Doc:
    """``open_ item, item close`` that wraps one item per line, indented, when too long;
    ``wrap=False`` (a printer whose lines never wrap): the same text, built flat."""
    if not items:
        return as_doc(open_ + trailing + close)
    if not wrap:
        texts = []
        size = 0
        for d in items:
            if type(d) is not Text:
                return concat(open_, join(", ", items), trailing, close)
            texts.append(d.text)
            size += len(d.text)
        if size > _JOIN_MAX:  # (joined by render, once)
            return concat(open_, join(", ", items), trailing, close)
        return Text(open_ + ", ".join(texts) + trailing + close)  # the usual case: one Text
    # built directly (the items are not flattened into the body: :func:`render` lays a nested
    # Concat out as the flat one), the same doc as
    # Group(concat(open_, Nest(indent, concat(SOFTLINE, join(concat(",", LINE), items),
    # trailing)), SOFTLINE, close))
    body: list[Doc] = [SOFTLINE]
    for i, d in enumerate(items):
        if i:
            body.append(COMMA)
            body.append(LINE)
        body.append(as_doc(d))
    if trailing:
        body.append(as_doc(trailing))
    return Group(Concat((as_doc(open_), Nest(indent, Concat(tuple(body))), SOFTLINE,
                         as_doc(close))))


@dataclass
class Rendered:
    """The lines of a rendered doc and the spans marked in them: ``marks[key]`` is a list of
    ``(line, start_col, end_col)``."""

    lines: list[str]
    marks: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)


def _fits(rest: list[tuple[int, bool, Doc]], first: tuple[int, bool, Doc], width: int) -> bool:
    """Whether ``first`` and then the rest of the current line (``rest``, read from its end
    without copying it) fit in ``width`` (Wadler's ``fits``)."""
    stack = [first]
    k = len(rest)
    while width >= 0:
        if not stack:
            if not k:
                break
            k -= 1
            stack.append(rest[k])
        indent, flat, d = stack.pop()
        if isinstance(d, Text):
            width -= len(d.text)
        elif isinstance(d, Concat):
            stack.extend((indent, flat, p) for p in reversed(d.parts))
        elif isinstance(d, (Group, Nest, Mark)):
            stack.append((indent, flat, d.doc))
        elif isinstance(d, Line):
            if not flat:
                return True
            width -= len(d.flat)
    return width >= 0


def _flat(doc: Doc, parts: list[str], grouped: bool) -> bool:
    """Append the flat text of ``doc`` to ``parts``; False when the doc has a mark or a line
    break outside every group (those need the full layout). Groups and nests are unwrapped and
    a Concat's texts and lines appended in a loop, so a call is made per Concat only."""
    cls = type(doc)
    while cls is Group or cls is Nest:
        if cls is Group:
            grouped = True
        doc = doc.doc  # type: ignore[attr-defined]
        cls = type(doc)
    if cls is Text:
        parts.append(doc.text)  # type: ignore[attr-defined]
    elif cls is Concat:
        for d in doc.parts:  # type: ignore[attr-defined]
            dcls = type(d)
            if dcls is Text:
                parts.append(d.text)
            elif dcls is Line:
                if not grouped:
                    return False
                parts.append(d.flat)
            elif not _flat(d, parts, grouped):
                return False
    elif cls is Line and grouped:
        parts.append(doc.flat)  # type: ignore[attr-defined]
    else:
        return False
    return True


def render(doc: Doc, width: int) -> Rendered:
    """Lay ``doc`` out in at most ``width`` columns where possible (groups that cannot fit
    break; text longer than the width is never split)."""
    parts: list[str] = []
    if _flat(doc, parts, False):  # every group fits flat when the whole line does
        text = "".join(parts)
        if len(text) <= width:
            return Rendered([text])
    out = Rendered([""])
    stack: list[tuple[int, bool, Doc]] = [(0, False, doc)]
    open_marks: dict[int, list[tuple[int, int]]] = {}
    while stack:
        indent, flat, d = stack.pop()
        if isinstance(d, Text):
            out.lines[-1] += d.text
        elif isinstance(d, Concat):
            stack.extend((indent, flat, p) for p in reversed(d.parts))
        elif isinstance(d, Nest):
            stack.append((indent + d.indent, flat, d.doc))
        elif isinstance(d, Group):
            fits = flat or _fits(stack, (indent, True, d.doc), width - len(out.lines[-1]))
            stack.append((indent, fits, d.doc))
        elif isinstance(d, Line):
            if flat:
                out.lines[-1] += d.flat
            else:
                out.lines.append(" " * indent)
        elif isinstance(d, Mark):
            open_marks.setdefault(d.key, []).append((len(out.lines) - 1, len(out.lines[-1])))
            stack.append((indent, flat, _EndMark(d.key)))
            stack.append((indent, flat, d.doc))
        elif isinstance(d, _EndMark):
            _close_mark(out, d.key, open_marks)
    return out


@dataclass(slots=True, unsafe_hash=True)
class _EndMark(Doc):
    key: int


def _close_mark(out: Rendered, key: int, open_marks: dict[int, list[tuple[int, int]]]) -> None:
    line0, col0 = open_marks[key].pop()
    spans = out.marks.setdefault(key, [])
    last = len(out.lines) - 1
    for ln in range(line0, last + 1):
        text = out.lines[ln]
        start = col0 if ln == line0 else len(text) - len(text.lstrip(" "))
        end = len(text) if ln < last else len(out.lines[last])
        if end > start:
            spans.append((ln, start, end))
