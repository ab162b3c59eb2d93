"""reverse_compute_at must not drop instances of the consumer it moves (SCHED_FUZZ find on
examples/conv2d_nchw.py, 80 of 144 outputs wrong).

The consumer is given the instances whose reads lie in what its producers write under the
target loop. ``pad`` reads ``data_global[vh - 1, vw - 1]`` behind ``T.if_then_else`` and writes
the zero border at ``vh == 0``, ``vh == 7`` (reading out of bounds there, guarded): moved under
the producer's loop it ran only over ``vh, vw`` in ``[1, 6]`` and the border was never written.
TVM 0.27 makes the same schedule and fails to build it ("Buffer pad is used before its
definition"); tirkit refuses it with DroppedInstancesError, the schedule unchanged."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule
from tirkit.schedule.primitives.compute_at import DroppedInstancesError

from sched_util import parse  # tests/schedule is on sys.path (rootdir-less test dir)

PAD_BOX = parse("""
@T.prim_func
def main(data: T.Buffer((1, 2, 6, 6), "float32"), out: T.Buffer((1, 2, 6, 6), "float32")):
    pad = T.alloc_buffer((1, 2, 8, 8))
    for n, c, h, w in T.grid(1, 2, 8, 8):
        with T.block("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            T.reads(data[vn, vc, vh - 1, vw - 1])
            T.writes(pad[vn, vc, vh, vw])
            pad[vn, vc, vh, vw] = T.if_then_else(
                1 <= vh and vh < 7 and 1 <= vw and vw < 7,
                data[vn, vc, vh - 1, vw - 1], T.float32(0))
    for n, c, y, x, ry, rx in T.grid(1, 2, 6, 6, 3, 3):
        with T.block("box"):
            vn, vc, vy, vx, vry, vrx = T.axis.remap("SSSSRR", [n, c, y, x, ry, rx])
            with T.init():
                out[vn, vc, vy, vx] = T.float32(0)
            out[vn, vc, vy, vx] = out[vn, vc, vy, vx] + pad[vn, vc, vy + vry, vx + vrx]
""")

# the same producer, but a consumer that reads data_global exactly where it writes
SCALE = parse("""
@T.prim_func
def main(data: T.Buffer((1, 2, 6, 6), "float32"), out: T.Buffer((1, 2, 6, 6), "float32")):
    for n, c, h, w in T.grid(1, 2, 6, 6):
        with T.block("scale"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            out[vn, vc, vh, vw] = data[vn, vc, vh, vw] * T.float32(2)
""")


def _box_filter(data):
    padded = np.pad(data, ((0, 0), (0, 0), (1, 1), (1, 1)))
    return sum(padded[:, :, dy:dy + 6, dx:dx + 6] for dy in range(3) for dx in range(3))


def _run(mod):
    rng = np.random.default_rng(0)
    data = rng.uniform(-1, 1, (1, 2, 6, 6)).astype("float32")
    out = np.full((1, 2, 6, 6), np.nan, "float32")
    build(mod)["main"](data, out)
    return data, out


@pytest.mark.parametrize("loop", [0, 1, 2, 3])
@pytest.mark.parametrize("preserve_unit_loops", [False, True])
def test_reverse_compute_at_refuses_to_drop_the_zero_border_of_a_pad(loop, preserve_unit_loops):
    sch = Schedule(PAD_BOX)
    sch.cache_read("pad", 0, "global")  # data_global = data, read by pad
    before = sch.mod.script()
    target = sch.get_loops("data_global")[loop]
    with pytest.raises(DroppedInstancesError,
                       match=r'block "pad" moved under loop "ax%d" would run only for vh in '
                             r'\[1, 6\] of \[0, 7\] and vw in \[1, 6\] of \[0, 7\]' % loop) as info:
        sch.reverse_compute_at(sch.get_block("pad"), target,
                               preserve_unit_loops=preserve_unit_loops)
    assert [getattr(loc, "name_hint", None) or loc.loop_var.name_hint
            for loc in info.value.locations] == ["pad", f"ax{loop}"]
    assert sch.mod.script() == before  # refused: the schedule is unchanged
    assert "ReverseComputeAt" not in [inst.kind.name for inst in sch.trace.insts]
    data, out = _run(sch.mod)  # and still the right kernel
    np.testing.assert_allclose(out, _box_filter(data), rtol=1e-5, atol=1e-6)


def test_compute_at_of_the_pad_into_its_consumer_still_makes_the_border():
    # compute_at needs no such check: pad's instances cover what the box filter reads there
    sch = Schedule(PAD_BOX)
    sch.compute_at(sch.get_block("pad"), sch.get_loops("box")[2])
    data, out = _run(sch.mod)
    np.testing.assert_allclose(out, _box_filter(data), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("loop", [0, 1, 2, 3])
def test_reverse_compute_at_of_a_consumer_reading_only_what_is_written_is_kept(loop):
    # every instance of "scale" reads one element data_global writes under any of its loops
    sch = Schedule(SCALE)
    sch.cache_read("scale", 0, "global")
    sch.reverse_compute_at(sch.get_block("scale"), sch.get_loops("data_global")[loop])
    assert len(sch.get_loops("scale")) == 4
    data, out = _run(sch.mod)
    np.testing.assert_allclose(out, data * 2, rtol=1e-6)
