"""What ``tirfmt`` keeps of a unit as the user wrote it (issue 15: a formatter changes layout,
never content). No TVM counterpart.

- The ``global_symbol`` entry of a ``T.func_attr`` the user wrote (TVM's printer leaves it out
  when it equals the function's name; the formatter must not drop what was written).
- No ``# with T.block("root"):`` line the user did not write (TVM's printer writes one for the
  implicit root block); the user's own spelling of one they did write.
- A prim_func's header (decorators and ``def`` signature) verbatim when it holds comments, so a
  comment on the decorator line or on a parameter line stays on that line.
- A prim_func's docstring, verbatim, right after the header (the IR has no docstring).
- The user's spelling where the IR allows two (:class:`WrittenText`, given to the printer as
  its ``written`` option, see :mod:`tirkit.printer.written`): ``a: T.handle`` with
  ``A = T.match_buffer(a, ...)``, ``-> None``, a default dtype written out (``"float32"``,
  ``dtype="float32"``), ``T.serial`` / ``range`` / ``T.grid`` loops as grouped,
  ``T.axis.S`` / ``T.axis.remap`` as written, ``T.evaluate(call)``, ``T.int32(1)``.
- Every name, string (its value: ``'block'`` may become ``"block"``) and comment the user
  wrote (:func:`lost_content`): a unit whose printed
  form would lose one (a module constant ``N`` replaced by its value, ``T.min_value("float32")``
  folded, a default dtype left out) is left as it is, with a note.
"""
from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass

from tirkit.lang.comments import comment_text

__all__ = ["written_global_symbols", "Tokens", "UnitSource", "WrittenText",
           "keep_user_content", "lost_content"]

_GLOBAL_SYMBOL = re.compile(r"""["']global_symbol["']\s*:\s*["']([^"'\\]*)["']""")
_ROOT_LINE = re.compile(r'^\s*#\s*with [A-Za-z_][\w.]*\.s?block\("root"\):?\s*$')


def written_global_symbols(text: str) -> frozenset[str]:
    """The ``global_symbol`` values written in ``T.func_attr({...})`` calls of ``text``."""
    return frozenset(_GLOBAL_SYMBOL.findall(text))


class WrittenText:
    """``node -> str | None``: the text of a file that a node's span covers (the printer's
    ``written`` option: tirfmt prints the user's spelling where the IR allows two). Spans are
    in the coordinates of the parsed file text (1-based lines, 0-based character columns)."""

    def __init__(self, text: str) -> None:
        self._lines = text.split("\n")

    def __call__(self, node: object) -> str | None:
        span = getattr(node, "span", None)
        if span is None or not 0 < span.line <= span.end_line <= len(self._lines):
            return None
        lines = self._lines
        if span.line == span.end_line:
            return lines[span.line - 1][span.column:span.end_column]
        return "\n".join([lines[span.line - 1][span.column:], *lines[span.line:span.end_line - 1],
                          lines[span.end_line - 1][:span.end_column]])


class Tokens:
    """What ``tirfmt`` reads from the Python tokens of unit texts (their words, their
    :class:`UnitSource`), each text tokenized once per run: the formatting pass reads a unit's
    source and words and its formatted text's words, the stability pass the same of the
    formatted text (six tokenizations of 0.15 s each for a 5,000-statement unit before). The
    tokens themselves are not kept."""

    def __init__(self) -> None:
        self._memo: dict[tuple[str, str], tuple[list[str] | None, UnitSource | None]] = {}

    def words(self, text: str, indent: str) -> list[str] | None:
        """The names, strings and comment texts of ``text`` (a unit at ``indent``), in order;
        ``None`` when it does not tokenize."""
        return self._read(text, indent)[0]

    def source(self, text: str, indent: str) -> "UnitSource | None":
        """:meth:`UnitSource.read` of ``text``."""
        return self._read(text, indent)[1]

    def _read(self, text: str, indent: str) -> tuple[list[str] | None, "UnitSource | None"]:
        key = (text, indent)
        if key not in self._memo:
            lines = _dedent(text, indent).split("\n")
            try:
                toks = list(tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n")
                                                     .readline))
            except (tokenize.TokenError, IndentationError, SyntaxError):
                self._memo[key] = (None, None)
            else:
                words = [comment_text(t.string) if t.type == tokenize.COMMENT
                         else _string(t.string) if t.type == tokenize.STRING else t.string
                         for t in toks if t.type in _KEPT_TOKENS]
                self._memo[key] = (words, UnitSource.from_tokens(lines, toks))
        return self._memo[key]


@dataclass(frozen=True)
class UnitSource:
    """A prim_func unit's source, dedented: ``header`` (decorator and ``def`` lines),
    ``header_comments`` (their comment texts, in order) and ``docstring`` (its lines, or ())."""

    header: tuple[str, ...]
    header_comments: tuple[str, ...]
    docstring: tuple[str, ...]
    root_comment: bool
    docstring_comments: tuple[str, ...] = ()
    root_line: str = ""  # the user's ``# with T.block("root")`` line, stripped

    @staticmethod
    def read(text: str, indent: str) -> "UnitSource | None":
        """The parts of a unit's ``text`` (at ``indent``); ``None`` when it does not tokenize."""
        return Tokens().source(text, indent)

    @staticmethod
    def from_tokens(lines: list[str], toks: list[tokenize.TokenInfo]) -> "UnitSource | None":
        """The parts of a dedented unit given as its ``lines`` and their tokens."""
        end = _header_end(toks)
        if end is None:
            return None
        comments = tuple(comment_text(t.string) for t in toks
                         if t.type == tokenize.COMMENT and t.start[0] <= end)
        doc = _docstring(toks, end)
        docstring = tuple(lines[doc[0] - 1:doc[1]]) if doc else ()
        doc_comments = tuple(comment_text(t.string) for t in toks if doc and
                             t.type == tokenize.COMMENT and doc[0] <= t.start[0] <= doc[1])
        root = next((ln.strip() for ln in lines if _ROOT_LINE.match(ln)), "")
        return UnitSource(tuple(lines[:end]), comments, docstring, bool(root), doc_comments,
                          root)


def _header_end(toks: list[tokenize.TokenInfo]) -> int | None:
    """The line (1-based) of the ``:`` that ends the ``def`` signature."""
    depth, seen_def = 0, False
    for t in toks:
        if t.type == tokenize.NAME and t.string == "def" and depth == 0:
            seen_def = True
        elif t.type == tokenize.OP and t.string in "([{":
            depth += 1
        elif t.type == tokenize.OP and t.string in ")]}":
            depth -= 1
        elif seen_def and depth == 0 and t.type == tokenize.OP and t.string == ":":
            return t.start[0]
    return None


def _docstring(toks: list[tokenize.TokenInfo], end: int) -> tuple[int, int] | None:
    skip = (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT)
    rest = [t for t in toks if t.start[0] > end and t.type not in skip]
    if len(rest) < 2 or rest[0].type != tokenize.STRING:
        return None
    after = next((t for t in toks if t.start >= rest[0].end and t is not rest[0]
                  and t.type != tokenize.COMMENT), None)
    if after is None or after.type != tokenize.NEWLINE:
        return None
    return rest[0].start[0], rest[0].end[0]


def _printed_header_end(lines: list[str]) -> int | None:
    """Index of the printed line ending the ``def`` signature."""
    start = next((i for i, ln in enumerate(lines) if ln.startswith("def ")), None)
    if start is None:
        return None
    for i in range(start, len(lines)):
        code = lines[i].split("  #", 1)[0].rstrip()
        if not lines[i][:1].isspace() and code.endswith(":"):
            return i
    return None


def _drop_hoisted(body: list[str], texts: tuple[str, ...]) -> list[str]:
    """``body`` without the first comment line holding each of ``texts`` (the header comments
    the printer moved into the body)."""
    wanted = list(texts)
    out = []
    for ln in body:
        stripped = ln.strip()
        if wanted and stripped.startswith("#") and comment_text(stripped) in wanted:
            wanted.remove(comment_text(stripped))
            continue
        out.append(ln)
    return out


def keep_user_content(lines: list[str], src: UnitSource | None, prim_func: bool,
                      same_dialect: bool = True, indent_unit: str = "    ") -> list[str]:
    """The printed lines of a unit (dedented) with what the user wrote put back (see the
    module docstring); a header with comments is kept verbatim only when the dialect stays."""
    if src is None:
        return lines
    if not src.root_comment:
        lines = [ln for ln in lines if not _ROOT_LINE.match(ln)]
    else:  # in the user's spelling (``# with T.block("root")`` without the colon...)
        lines = [ln[:len(ln) - len(ln.lstrip())] + src.root_line if _ROOT_LINE.match(ln)
                 else ln for ln in lines]
    if not prim_func:
        return lines
    end = _printed_header_end(lines)
    if end is None:
        return lines
    header, body = lines[:end + 1], lines[end + 1:]
    if src.header_comments and same_dialect:
        header = list(src.header)
        body = _drop_hoisted(body, src.header_comments)
    if src.docstring:
        body = _drop_hoisted(body, src.docstring_comments)  # they stay on the docstring's line
        first = indent_unit + src.docstring[0].lstrip()
        body = [first, *src.docstring[1:], *body]
    return header + body


_KEPT_TOKENS = (tokenize.NAME, tokenize.STRING, tokenize.COMMENT)


def _string(token: str) -> str:
    """A string token in one spelling per value (``'block'`` is ``"block"``: the quotes are
    layout, as for Black); a string with quotes, escapes or a prefix stays as written."""
    body = token[1:-1]
    if len(token) >= 2 and token[0] == token[-1] == "'" and not any(c in body for c in "'\"\\"):
        return '"' + body + '"'
    return token


def _dedent(text: str, indent: str) -> str:
    return "\n".join(ln[len(indent):] if ln.startswith(indent) else ln.lstrip()
                     for ln in text.split("\n"))


def lost_content(old: str, new: str, indent: str = "",
                 tokens: Tokens | None = None) -> str | None:
    """What the user wrote in the unit text ``old`` that its formatted text ``new`` no longer
    holds (a name, a string or a comment, quoted), or ``None`` when nothing is lost. Layout and
    number spelling may change; a name the user wrote (``N`` for a module constant,
    ``T.min_value``), a string (a dtype the printer would leave out as the default) or a comment
    may not disappear. ``tokens``: the run's :class:`Tokens` (a fresh one when not given)."""
    tokens = tokens or Tokens()
    before, after = tokens.words(old, indent), tokens.words(new, indent)
    if before is None or after is None:
        return None
    missing = Counter(before) - Counter(after)
    if not missing:
        # a name the printer made unique (the user's loop var ``i`` printed ``i_1``) while
        # its words added elsewhere (``T.reads(A[0:i])``) keep the count of ``i``
        written = set(before)
        renamed = next((m.group(1) for w in after if w not in written
                        for m in [_RENAMED.fullmatch(w)] if m and m.group(1) in written), None)
        return None if renamed is None else repr(renamed)
    first = next(w for w in before if w in missing)
    return repr(first if len(first) <= 40 else first[:37] + "...")


_RENAMED = re.compile(r"([A-Za-z_]\w*?)_\d+")
