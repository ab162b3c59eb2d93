"""Shared test set-up: the example kernels in ``examples/`` are importable from every test."""
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

LANG = Path(__file__).resolve().parent / "lang"
if str(LANG) not in sys.path:
    sys.path.insert(0, str(LANG))
