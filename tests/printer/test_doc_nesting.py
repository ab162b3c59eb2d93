"""Docs nested thousands deep (an expression built by program: 20,000 nested ``T.Let``): each
level copies a bounded amount of text and parts, so printing is linear in the depth."""
from tirkit.printer import doc as D


def _walk(d):
    stack = [d]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, D.Concat):
            stack.extend(x.parts)
        elif isinstance(x, (D.Group, D.Nest, D.Mark)):
            stack.append(x.doc)


def test_a_deeply_nested_doc_copies_bounded_text_per_level():
    """``T.Let(inner, where={...})`` nested 2,000 deep, built as the printer builds a call
    that does not wrap. Joining every text into one made each level copy the text of all the
    levels inside it (n**2: ~9 s for 20,000 nested T.Let); no text of the doc is longer than
    _JOIN_MAX now, and no Concat has more than about _FLATTEN_MAX parts."""
    n = 2000
    d, expected = D.Text("x"), "x"
    for i in range(n):
        where = D.concat("where=", D.Text(f"{{x{i}: x{i} + T.float32(1.0)}}"))
        d = D.concat("T.Let", D.bracket("(", [d, where], ")", wrap=False))
        expected = f"T.Let({expected}, where={{x{i}: x{i} + T.float32(1.0)}})"
    parts = list(_walk(d))
    assert max(len(x.text) for x in parts if isinstance(x, D.Text)) <= D._JOIN_MAX
    assert max(len(x.parts) for x in parts if isinstance(x, D.Concat)) <= 2 * D._FLATTEN_MAX
    assert D.render(d, 1 << 30).lines == [expected]


def test_short_docs_are_still_one_text():
    d = D.concat("T.Let", D.bracket("(", [D.Text("x"), D.Text("where={x: 1}")], ")", wrap=False))
    assert d == D.Text("T.Let(x, where={x: 1})")
