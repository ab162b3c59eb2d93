"""``tirc FILE --html OUT`` (issue 13): the pipeline explorer page, checked for its content and
then driven in a real browser (Debian's chromium, headless, over the DevTools pipe): it loads
with no console error, clicking stages, tabs and source lines changes what is shown, and
screenshots are written (paths printed; ``TIRKIT_UPDATE_SCREENSHOT=1`` refreshes
docs/explorer-matmul.png).

The browser test installs chromium with apt-get when it can (root, apt) and is skipped with the
reason printed only when chromium cannot be had.
"""
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from cdp import Browser, ensure_chromium  # tests/cli/, on sys.path through this directory
from tirkit.cli.tirc import main as tirc

ROOT = Path(__file__).resolve().parents[2]
MATMUL = ROOT / "examples" / "matmul.py"


@pytest.fixture(name="page", scope="module")
def fixture_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("explorer") / "matmul.html"
    old = os.getcwd()
    os.chdir(ROOT)  # the page names the file as given: examples/matmul.py
    try:
        assert tirc(["examples/matmul.py", "--html", str(out)]) == 0
    finally:
        os.chdir(old)
    return out


def page_data(path):
    text = path.read_text(encoding="utf-8")
    raw = re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S)
    return text, json.loads(raw.group(1).replace("<\\/", "</"))


def test_page_is_self_contained_and_holds_every_stage(page):
    text, data = page_data(page)
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', text), "the page loads nothing"
    assert "<link" not in text and "@import" not in text
    assert data["source"] == MATMUL.read_text(encoding="utf-8")
    names = [s["name"] for s in data["stages"]]
    assert names[0] == "Input" and "LowerOpaqueBlock" in names and "MakePackedAPI" in names
    unchanged = [s for s in data["stages"] if not s["changed"]]
    assert unchanged and all(s["diff"] == "" for s in unchanged)
    lower = data["stages"][names.index("LowerInitBlock")]
    assert "-            with T.init():" in lower["diff"]
    assert all(s["map"] for s in data["stages"]), "every stage maps back to the source"
    code = data["code"]
    assert code["available"] and "define" in code["before"] and "define" in code["after"]
    assert code["asm"].strip() and code["before"] != code["after"]


def test_stage_map_points_at_the_statement(page):
    """The source line of the update statement maps, in the flattened stage, to the line that
    stores into the flat C."""
    _, data = page_data(page)
    src = data["source"].split("\n")
    line = next(i for i, t in enumerate(src) if "C[vi, vj] = C[vi, vj] + A[vi, vk]" in t)
    stage = next(s for s in data["stages"] if s["name"] == "FlattenBuffer")
    hits = [e for e in stage["map"] if e[0] <= line <= e[1]]
    width = min(e[1] - e[0] for e in hits)
    innermost = [e for e in hits if e[1] - e[0] == width]
    shown = stage["text"].split("\n")
    assert any("C_1[" in shown[e[2]] and "A_1[" in shown[e[2]] for e in innermost), innermost


def test_html_usage_errors_are_reported(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((4,), "
                   "'float32')):\n    A[0] = nope\n")
    assert tirc([str(bad), "--html", str(tmp_path / "x.html")]) == 1
    assert "nope" in capsys.readouterr().err and not (tmp_path / "x.html").exists()


@pytest.fixture(name="browser", scope="module")
def fixture_browser():
    binary, reason = ensure_chromium()
    if binary is None:
        print(f"\nexplorer browser test skipped: {reason}")
        pytest.skip(reason)
    b = Browser(binary)
    yield b
    b.close()


def view(browser):
    return browser.eval("document.getElementById('view').innerText")


def lines(text):
    """Lines without trailing blanks (the page shows an empty line as one space)."""
    return [t.rstrip() for t in text.rstrip("\n").split("\n")]


def test_explorer_in_chromium(page, browser, tmp_path):
    _, data = page_data(page)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    browser.open(page.as_uri())
    assert browser.eval("document.body.dataset.ready") == "1"
    first = view(browser)
    assert "T.block" in first and "T.init()" in first

    names = [s["name"] for s in data["stages"]]
    flat = names.index("FlattenBuffer")
    browser.click(f'#stages button[data-stage="{flat}"]')
    after = view(browser)
    assert after != first and "C_1[" in after and "T.block" not in after
    assert browser.eval("document.getElementById('view').dataset.stage") == str(flat)

    # an unchanged stage sits in a folded group: open it, then pick the stage
    same = next(i for i, s in enumerate(data["stages"]) if not s["changed"])
    assert browser.eval(f'document.querySelector(\'#stages button[data-stage="{same}"]\')'
                        '.closest("details").open') is False
    browser.click(f'#stages details:has(button[data-stage="{same}"]) > summary')
    browser.click(f'#stages button[data-stage="{same}"]')
    assert lines(view(browser)) == lines(data["stages"][same]["text"])

    browser.click(f'#stages button[data-stage="{flat}"]')
    src_line = next(i for i, t in enumerate(data["source"].split("\n"))
                    if "C[vi, vj] = C[vi, vj] + A[vi, vk]" in t)
    browser.click(f'#source .ln[data-line="{src_line}"]')
    status = browser.eval("document.getElementById('status').innerText")
    assert f"source line {src_line + 1} \u2192 line" in status and "FlattenBuffer" in status
    marked = browser.eval("document.querySelector('#view .hl').innerText")
    assert "C_1[" in marked and "A_1[" in marked
    browser.screenshot(shots / "stage-with-source-line.png")

    browser.click('#tabs button[data-mode="diff"]')
    assert browser.eval("document.querySelectorAll('#view .add').length") > 0
    assert browser.eval("document.querySelectorAll('#view .del').length") > 0
    browser.screenshot(shots / "diff.png")
    for mode, word in (("before", "define"), ("after", "define"), ("asm", "ret")):
        browser.click(f'#tabs button[data-mode="{mode}"]')
        assert word in view(browser)
    browser.screenshot(shots / "assembly.png")

    assert browser.errors() == [], browser.errors()
    assert browser.eval("document.body.dataset.errors || ''") == ""
    print(f"\nexplorer screenshots: {', '.join(str(p) for p in sorted(shots.iterdir()))}")
    if os.environ.get("TIRKIT_UPDATE_SCREENSHOT"):
        browser.click('#tabs button[data-mode="text"]')
        browser.click(f'#source .ln[data-line="{src_line}"]')
        shutil.copy(browser.screenshot(shots / "docs.png"), ROOT / "docs" / "explorer-matmul.png")
