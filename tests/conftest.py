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

# Property tests draw the same examples on every run (a seed derived from each test), so a red
# `make test` on a clean clone is reproducible and CI cannot turn red by chance on a commit that
# changed nothing the test covers. `HYPOTHESIS_PROFILE=explore` (or SCHED_FUZZ=N for the schedule
# fuzzers) draws fresh random examples for a long bug hunt; a failure prints its reproduce blob.
from hypothesis import settings  # noqa: E402  pylint: disable=wrong-import-position

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE",
                                     "explore" if os.environ.get("SCHED_FUZZ") else "ci"))
