"""The schedule scripts of examples/: the matmul schedules reproduce the hand-written
matmul_scheduled.py and matmul_packed.py, every scheduled kernel compiles and gives the
unscheduled kernel's numbers (the NumPy reference of examples/references.py, which the unscheduled kernels are checked
against in tests/compiler/test_examples.py), and every trace replays."""
import numpy as np
import pytest

import references  # examples/, on sys.path through tests/conftest.py
import scheduled
from tirkit.compiler import build
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source
from tirkit.schedule.testing import verify_trace_roundtrip


@pytest.mark.parametrize("index,kernel", [(0, "matmul_scheduled.py"), (1, "matmul_packed.py")])
def test_matmul_schedule_reproduces_the_hand_written_kernel(index, kernel):
    assert scheduled.SCHEDULES[index].reference + ".py" == kernel
    sch = scheduled.apply(scheduled.SCHEDULES[index])
    path = scheduled.HERE / kernel
    hand = from_source(path.read_text(), str(path))
    got = sch.mod["matmul_naive"]
    assert_structural_equal(got.with_changes(attrs=hand.attrs), hand)


@pytest.mark.parametrize("item", scheduled.SCHEDULES, ids=[s.entry for s in scheduled.SCHEDULES])
def test_scheduled_example_matches_reference(item):
    sch = scheduled.apply(item)
    verify_trace_roundtrip(sch, scheduled.kernel_module(item), text_format="json")
    kernel = references.BY_ENTRY[item.reference]
    fn = build(sch.mod, opt_level=2)[item.entry]
    args = kernel.inputs(np.random.default_rng(0))
    index, expected = kernel.reference(args)
    fn(*args)
    references.assert_matches(args[index], expected)
