"""The mutation fuzzer (issue 15) in the suite: a fixed-seed budget of every mutation family
through the front end, tirfmt and tirc's front end with no uncaught exception, crash or hang;
and the watchdog itself counts a real segfault and a real hang instead of dying with them.
``make fuzz`` runs the long campaign (tests/fuzz/fuzzer.py)."""
import os
import random
import signal
import time

import pytest

import fuzzer


def _dies_or_hangs(text):
    if "CRASH" in text:
        os.kill(os.getpid(), signal.SIGSEGV)
    if "HANG" in text:
        time.sleep(600)
    return ("target", "ValueError: boom") if "RAISE" in text else None


@pytest.mark.parametrize("family", sorted(fuzzer.FAMILIES))
def test_each_family_changes_real_units(family):
    seeds = fuzzer.corpus()
    assert len(seeds) > 100
    rng = random.Random(7)
    changed = sum(fuzzer.mutate(rng, rng.choice(seeds), family)[1] != s for s in seeds[:20])
    assert changed >= 10


def test_seeded_budget_of_every_family_is_clean():
    families = tuple(sorted(fuzzer.FAMILIES))
    report = fuzzer.fuzz(units=3 * len(families), seed=15, workers=2, slow_s=60.0, hang_s=120.0,
                         families=families)
    assert report.units == 3 * len(families)
    assert sorted(report.by_family) == list(families)
    assert report.failures == [], report.failures[0][:2]


def test_watchdog_counts_a_segfault_a_hang_and_an_exception():
    seeds = ["x = 'CRASH'\n", "x = 'HANG'\n", "x = 'RAISE'\n", "x = 1\n"]
    report = fuzzer.fuzz(units=12, workers=4, hang_s=3.0, families=("duplicate_lines",),
                         target=_dies_or_hangs, seeds=seeds, seed=0)
    assert report.units == 12
    kinds = [kind for kind, _, _ in report.failures]
    assert kinds.count("crash") == report.crashes >= 1
    assert kinds.count("slow") == report.slow >= 1
    assert kinds.count("uncaught") == report.uncaught >= 1
    assert all(("CRASH" in text) == (kind == "crash") for kind, _, text in report.failures)


@pytest.mark.parametrize("name", ["ill_formed_strides.py", "chained_decl_buffer.py",
                                  "unbound_var.py", "nan_to_int.py"])
def test_regressions_of_the_compile_target_are_clean(name):
    """Inputs the tirc_compile target (lowering + LLVM for a mutant that parses) and a line swap
    found: a buffer with 1 stride for 2 dimensions (tirc exit 3 from LowerOpaqueBlock) and a
    chained assignment of T.decl_buffer (a segmentation fault). Both are diagnostics now. A long
    campaign (``fuzzer.py --units 8000 --seed 3302``) found two more tirc exits 3: a var used
    but never bound under ``check_well_formed=False`` (MakePackedAPI's ValueError, now an
    ill-formed-IR error, exit 1) and a NaN float constant stored to an int64 buffer (the cast's
    constant folding called ``int(nan)``; NaN and infinities are not folded now)."""
    text = (fuzzer.ROOT / "tests" / "fuzz" / "regressions" / name).read_text(encoding="utf-8")
    assert fuzzer.run_targets(text) is None
