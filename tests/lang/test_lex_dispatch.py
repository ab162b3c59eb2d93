"""The scanner's first-character dispatch (tirkit.lang.lex_dispatch) gives exactly the tokens of
the full alternation of terminals: same kinds, values and positions, comments and bad
characters included."""
import random
from pathlib import Path

from tirkit.lang import grammar
from tirkit.lang.lex_dispatch import DispatchTable, first_chars
from tirkit.lang.lexing import Scanner

PIECES = list("abrRbBuUfFxXoOjJeE_019.+-*/%@&|^<>=!~:;,()[]{}'\"#\\ \t\f\r\n") + [
    "é", "λ", "\u00a0", "\x1c", "'''", '"""', "0x", "1e5", "rb'", "\\\n", "  ", "\n    ",
    "and", "or", "not", "lambda", "T.grid", "0_0", "1_", ".5j"]


def _scanners() -> tuple[Scanner, Scanner]:
    grammar.get_parser()
    fast = grammar._SCANNER  # pylint: disable=protected-access
    full = Scanner.__new__(Scanner)
    full.__dict__.update(fast.__dict__)
    full.by_char = DispatchTable("", [], fast.pattern)  # every character: the full pattern
    return fast, full


def _tokens(scanner: Scanner, text: str) -> tuple[list, list]:
    comments: list = []
    out = scanner.tokens(text, comments)
    return ([(t.type, str(t), t.start_pos, t.end_pos) for t in out],
            [(t.type, str(t), t.start_pos, t.end_pos) for t in comments])


def test_dispatch_gives_the_full_patterns_tokens_on_random_text():
    fast, full = _scanners()
    rnd = random.Random(0)
    for _ in range(3000):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 30)))
        assert _tokens(fast, text) == _tokens(full, text), repr(text)


def test_dispatch_gives_the_full_patterns_tokens_on_the_corpus():
    fast, full = _scanners()
    for path in sorted((Path(__file__).parent / "cases").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert _tokens(fast, text) == _tokens(full, text), path.name


def test_first_chars():
    assert first_chars(r"\(") == frozenset("(")
    assert first_chars(r"[^\W\d]\w*") == frozenset(
        c for c in map(chr, range(128)) if c.isalpha() or c == "_")
    assert first_chars(r"(?:[rR][bB])?'") == frozenset("rR'")
    assert first_chars(r"x*") is None            # matches the empty string
    assert first_chars(r"(?i:a)") is None        # case-insensitive: not modelled
    assert first_chars(r".") is None             # any character
    assert first_chars(r"[^\n]") == frozenset(map(chr, range(128))) - {"\n"}
