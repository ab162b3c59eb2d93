"""The suite's property tests are reproducible: the default hypothesis profile (tests/conftest.py)
is derandomized, so a clean-clone `make test` draws the same examples on every run."""
import os

import pytest
from hypothesis import given, settings, strategies as st

DRAWN: list[int] = []


@pytest.mark.skipif(bool(os.environ.get("HYPOTHESIS_PROFILE") or os.environ.get("SCHED_FUZZ")),
                    reason="an explore profile was asked for")
def test_default_profile_is_derandomized():
    assert settings.default is not None and settings.default.derandomize


@pytest.mark.skipif(bool(os.environ.get("HYPOTHESIS_PROFILE") or os.environ.get("SCHED_FUZZ")),
                    reason="an explore profile was asked for")
def test_two_runs_draw_the_same_examples():
    runs = []
    for _ in range(2):
        DRAWN.clear()

        @settings(max_examples=20, database=None)
        @given(st.integers(-10**9, 10**9))
        def draw(x):
            DRAWN.append(x)

        draw()
        runs.append(list(DRAWN))
    assert runs[0] == runs[1] and len(set(runs[0])) > 5
