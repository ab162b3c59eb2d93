"""Shared test set-up: the example kernels in ``examples/`` are importable from every test."""
import os
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

LANG = Path(__file__).resolve().parent / "lang"
if str(LANG) not in sys.path:
    sys.path.insert(0, str(LANG))

# The persistent compile cache stays out of the user's ~/.cache: off for the suite (every build
# compiles), except in tests/compiler/test_compile_cache.py, which points it at a tmp dir.
os.environ["TIRKIT_CACHE_DIR"] = ""
