"""Benchmarks of the front end and printer on the test corpus (tests/lang/cases)."""
from __future__ import annotations

from pathlib import Path

from registry import bench

from tirkit.lang import parse_file
from tirkit.lang.grammar import parse_module
from tirkit.lang.host import HostFile
from tirkit.printer import script

CASES = sorted((Path(__file__).resolve().parents[1] / "tests" / "lang" / "cases").glob("*.py"))
TEXTS = [(str(p), p.read_text(encoding="utf-8")) for p in CASES]
LINES = sum(t.count("\n") for _, t in TEXTS)


@bench("host_layer_lines", "lines")
def host_layer():
    def run():
        for path, text in TEXTS:
            HostFile.parse(text, path)
    return LINES, run


@bench("grammar_lines", "lines")
def grammar():
    def run():
        for path, text in TEXTS:
            parse_module(text, source_name=path)
    return LINES, run


@bench("parse_to_ir_units", "units")
def parse_units():
    units = sum(len(parse_file(text, path)) for path, text in TEXTS)

    def run():
        for path, text in TEXTS:
            parse_file(text, path)
    return units, run


@bench("parse_to_ir_lines", "lines")
def parse_lines():
    def run():
        for path, text in TEXTS:
            parse_file(text, path)
    return LINES, run


@bench("print_units", "units")
def print_units():
    irs = [u.ir for path, text in TEXTS for u in parse_file(text, path) if u.ir is not None]

    def run():
        for ir in irs:
            script(ir)
    return len(irs), run
