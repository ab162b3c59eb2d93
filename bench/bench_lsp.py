"""Language-server latency (issue 6 targets: diagnostics p95 < 100 ms after an edit of a
2,000-line file, hover p95 < 20 ms, a preview < 300 ms).

Registered benchmarks (``make bench``) time the server's work in process: re-analysing a
2,000-line file after an edit inside one unit, a hover, and a lowering preview.
``python bench/bench_lsp.py`` additionally drives a real ``python -m tirkit.lsp`` over stdio:
edit -> published diagnostics (median, p95), hover round trips, preview round trips, and a
replay of 1,000 rapid edits (breaking and repairing syntax) that must end with the diagnostics of
a fresh open; it writes ``bench/results/lsp_latency.{json,md}``.
"""
from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent))

from registry import bench  # noqa: E402

from tirkit.lsp.analysis import Analyzer  # noqa: E402
from tirkit.lsp.diagnostics import to_lsp_all  # noqa: E402
from tirkit.lsp.hover import hover_markdown  # noqa: E402
from tirkit.lsp.positions import PositionMap  # noqa: E402

CASES = sorted((ROOT.parent / "tests" / "lang" / "cases").glob("*.py"))


def big_file(min_lines: int = 2000) -> str:
    """A TVMScript file of at least ``min_lines`` lines made of the corpus cases."""
    parts, lines = [], 0
    for path in CASES * 4:
        text = path.read_text(encoding="utf-8")
        parts.append(text)
        lines += text.count("\n")
        if lines >= min_lines:
            break
    return "\n\n".join(parts)


TEXT = big_file()
EDIT_AT = TEXT.index("T.grid(128, 128, 128)") if "T.grid(128, 128, 128)" in TEXT else \
    TEXT.index("T.grid(")


def _edited(i: int) -> str:
    """The big file with a different comment-free edit inside one unit (cache misses)."""
    return TEXT[:EDIT_AT] + f"T.grid({100 + i % 50}, 128, 128)" + \
        TEXT[EDIT_AT + len("T.grid(128, 128, 128)"):]


def _hover_position(text: str) -> tuple[int, int]:
    offset = text.index("C[vi, vj]") if "C[vi, vj]" in text else text.index("[")
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1)


@bench("lsp_edit_to_diagnostics_2000_lines", "edits")
def edit_to_diagnostics():
    analyzer = Analyzer()
    analyzer.analyze(TEXT, "big.py")
    counter = [0]

    def run():
        counter[0] += 1
        text = _edited(counter[0])
        fa = analyzer.analyze(text, "big.py")
        to_lsp_all(fa.diagnostics(), PositionMap(text), "file:///big.py")
    return 1, run


@bench("lsp_hover", "hovers")
def hover():
    fa = Analyzer().analyze(TEXT, "big.py")
    line, col = _hover_position(TEXT)

    def run():
        hover_markdown(fa, line, col)
    return 1, run


@bench("lsp_preview_stage", "previews")
def preview():
    from tirkit.lsp import previews

    fa = Analyzer().analyze(TEXT, "big.py")
    line, _ = _hover_position(TEXT)
    placed = fa.unit_at(line)

    def run():
        previews._CACHE.clear()  # pylint: disable=protected-access
        lowering = previews.lower_unit(placed.analysis)
        previews.stage_payload(placed, lowering, len(lowering.results) - 1)
    return 1, run


# --------------------------------------------------------------------------- end to end
def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


async def _session(edits: int = 100, hovers: int = 100, replay: int = 1000) -> dict:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("bench", "0")
    published: dict[tuple[str, int | None], float] = {}
    latest: dict[str, list] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _diag(params: types.PublishDiagnosticsParams) -> None:
        published[(params.uri, params.version)] = time.perf_counter()
        latest[params.uri] = params.diagnostics

    await client.start_io(sys.executable, "-m", "tirkit.lsp")
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    uri = "file:///bench/big.py"
    doc = types.TextDocumentIdentifier(uri=uri)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=TEXT)))
    await _wait(published, (uri, 1))
    text, lat = await _edit_latencies(client, types, uri, edits, published)
    line, col = _hover_position(text)
    hov = []
    for _ in range(hovers):
        t0 = time.perf_counter()
        await client.text_document_hover_async(types.HoverParams(
            text_document=doc, position=types.Position(line=line - 1, character=col)))
        hov.append(time.perf_counter() - t0)
    prev = []
    for _ in range(5):
        t0 = time.perf_counter()
        await client.protocol.send_request_async("tirkit/loweringStage", {
            "textDocument": {"uri": uri}, "position": {"line": line - 1, "character": col},
            "stage": 1})
        prev.append(time.perf_counter() - t0)
    replay_ok = await _replay(client, types, text, replay, published, latest)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"edit_to_diagnostics_ms": _stats(lat), "hover_ms": _stats(hov),
            "preview_ms": _stats(prev), "replay_1000_edits_consistent": replay_ok}


async def _edit_latencies(client, types, uri: str, edits: int, published: dict
                          ) -> tuple[str, list[float]]:
    """Seconds from each edit (inside one unit) to its published diagnostics."""
    text, lat = TEXT, []
    start_pos = _lsp_pos(text, EDIT_AT)
    for v in range(2, edits + 2):
        new = f"T.grid({100 + v % 50}, 128, 128)"
        old_len = text.index(")", EDIT_AT) + 1 - EDIT_AT
        rng = types.Range(start=start_pos, end=types.Position(
            line=start_pos.line, character=start_pos.character + old_len))
        t0 = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)]))
        await _wait(published, (uri, v))
        lat.append(published[(uri, v)] - t0)
        text = text[:EDIT_AT] + new + text[EDIT_AT + old_len:]
    return text, lat


def _lsp_pos(text: str, offset: int):
    from lsprotocol import types

    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


async def _replay(client, types, text: str, count: int, published: dict, latest: dict) -> bool:
    """``count`` edits without waiting (every 7th breaks a bracket, the next repairs it);
    true when the server answered a final hover and its diagnostics equal a fresh open's."""
    uri, fresh = "file:///bench/replay.py", "file:///bench/fresh.py"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=text)))
    pos = _lsp_pos(text, EDIT_AT)
    for v in range(2, count + 2):
        broken = v % 7 == 0
        new = "T.grid(128, 128, 128" if broken else "T.grid(128, 128, 128)"
        old_len = 21 if text.startswith("T.grid(128, 128, 128)", EDIT_AT) else 20
        rng = types.Range(start=pos, end=types.Position(line=pos.line,
                                                        character=pos.character + old_len))
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)]))
        text = text[:EDIT_AT] + new + text[EDIT_AT + old_len:]
    await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos))
    await _wait(published, (uri, count + 1))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=fresh, language_id="python", version=1,
                                             text=text)))
    await _wait(published, (fresh, 1))
    return latest[uri] == latest[fresh]


async def _wait(published: dict, key: tuple) -> None:
    for _ in range(60000):
        if key in published:
            return
        await asyncio.sleep(0.001)
    raise RuntimeError(f"no diagnostics published for {key}")


def _stats(values: list[float]) -> dict:
    ms = [v * 1e3 for v in values]
    return {"n": len(ms), "median": statistics.median(ms), "p95": _pct(ms, 0.95),
            "max": max(ms)}


def main(argv: list[str] | None = None) -> int:
    """Run the end-to-end session and write ``lsp_latency.{json,md}`` into ``--out`` (default
    ``bench/results``)."""
    import argparse  # pylint: disable=import-outside-toplevel

    parser = argparse.ArgumentParser(description="language-server latency and replay check")
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    args = parser.parse_args(argv)
    result = asyncio.run(_session())
    result["file_lines"] = TEXT.count("\n") + 1
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "lsp_latency.json").write_text(json.dumps(result, indent=2) + "\n")
    rows = ["| measure | n | median (ms) | p95 (ms) | max (ms) |", "|---|---:|---:|---:|---:|"]
    for key in ("edit_to_diagnostics_ms", "hover_ms", "preview_ms"):
        s = result[key]
        rows.append(f"| {key[:-3]} | {s['n']} | {s['median']:.1f} | {s['p95']:.1f} | "
                    f"{s['max']:.1f} |")
    rows.append(f"\nfile: {result['file_lines']} lines; 1,000-edit replay ends like a fresh "
                f"open: {result['replay_1000_edits_consistent']}")
    (out / "lsp_latency.md").write_text("\n".join(rows) + "\n")
    print("\n".join(rows))
    return 0 if result["replay_1000_edits_consistent"] else 1


if __name__ == "__main__":
    sys.exit(main())
