"""Structural equality on the seed kernels (matmul, softmax, conv2d) and their variants."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tirkit.ir import (IRModule, assert_structural_equal, first_mismatch, structural_equal,
                       structural_hash)

import api_kernels as kernels  # examples/, on sys.path through tests/conftest.py

BUILDERS = [kernels.matmul, kernels.softmax, kernels.conv2d_nchw]


def check_equal(a, b):
    assert structural_equal(a, b)
    assert structural_equal(b, a)
    assert structural_hash(a) == structural_hash(b)
    assert_structural_equal(a, b)


def check_unequal(a, b, path):
    found = first_mismatch(a, b)
    assert found is not None
    assert found[0] == path
    assert not structural_equal(a, b)
    assert not structural_equal(b, a)
    assert structural_hash(a) != structural_hash(b)
    with pytest.raises(ValueError) as err:
        assert_structural_equal(a, b)
    assert f"caused by lhs at <root>.{path}:" in str(err.value)
    assert f"and rhs at <root>.{path}:" in str(err.value)


@pytest.mark.parametrize("build", BUILDERS, ids=lambda b: b.__name__)
def test_fresh_copies_equal(build):
    check_equal(build(), build())
    assert structural_equal(build(), build(), map_free_vars=True)
    assert structural_hash(build(), True) == structural_hash(build(), True)


def test_hash_is_stable_for_closed_kernels():
    assert structural_hash(kernels.matmul()) == structural_hash(kernels.matmul())
    assert structural_hash(kernels.matmul()) != structural_hash(kernels.softmax())


def test_matmul_alpha_renamed_loop_and_iter_vars():
    renamed = kernels.matmul(loop_names=("x", "y", "z"), iter_names=("a", "b", "c"))
    check_equal(kernels.matmul(), renamed)


def test_matmul_swapped_loop_order():
    check_unequal(kernels.matmul(), kernels.matmul(loop_order="ikj"),
                  "body.block.body.body.body.body.iter_values[1]")
    # with distinct extents the first difference is the second loop's extent
    check_unequal(kernels.matmul(128, 64, 32), kernels.matmul(128, 64, 32, loop_order="ikj"),
                  "body.block.body.body.extent.value")


def test_matmul_dtype_differs():
    check_unequal(kernels.matmul(), kernels.matmul(dtype="float16"),
                  "buffer_map[A].data.type_annotation.element_type.dtype")


def test_matmul_buffer_shape_differs():
    check_unequal(kernels.matmul(), kernels.matmul(shapes={"B": (128, 64)}),
                  "buffer_map[B].shape[1].value")


def test_matmul_block_name_differs():
    check_unequal(kernels.matmul(), kernels.matmul(block_name="update"),
                  "body.block.body.body.body.body.block.name_hint")


def test_softmax_variants():
    check_equal(kernels.softmax(), kernels.softmax(loop_names=("r", "c"), iter_names=("vr", "vc")))
    names = ("T_softmax_maxelem", "T_softmax_exp", "sum", "T_softmax_norm")
    check_unequal(kernels.softmax(), kernels.softmax(block_names=names),
                  "body.block.body.seq[2].body.body.block.name_hint")
    check_unequal(kernels.softmax(), kernels.softmax(shapes={"A": (64, 256)}),
                  "buffer_map[A].shape[1].value")
    check_unequal(kernels.softmax(), kernels.softmax(dtype="float64"),
                  "buffer_map[A].data.type_annotation.element_type.dtype")


def test_softmax_temporaries_are_root_allocations():
    func = kernels.softmax()
    assert len(func.body.block.alloc_buffers) == 3
    other = kernels.softmax()
    root = other.body.block
    swapped = other.with_changes(body=other.body.with_changes(block=root.with_changes(
        alloc_buffers=root.alloc_buffers[::-1])))
    # the (64,) temporaries match each other by fields; the first use tells them apart
    check_unequal(func, swapped, "body.block.body.seq[0].body.body.block.writes[0].buffer")


def test_conv2d_variants():
    check_equal(kernels.conv2d_nchw(), kernels.conv2d_nchw())
    check_unequal(kernels.conv2d_nchw(), kernels.conv2d_nchw(reduce_order="yxc"),
                  "body.block.body.seq[1].body.body.body.body.body.body.body.iter_values[4]")
    check_unequal(kernels.conv2d_nchw(), kernels.conv2d_nchw(k=4),
                  "buffer_map[weight].shape[0].value")
    check_unequal(kernels.conv2d_nchw(), kernels.conv2d_nchw(block_names=("pad", "conv2d_nchw")),
                  "body.block.body.seq[0].body.body.body.body.block.name_hint")


def test_module_of_kernels():
    def module(order, **matmul_args):
        funcs = {"matmul": kernels.matmul(**matmul_args), "softmax": kernels.softmax(),
                 "conv2d": kernels.conv2d_nchw()}
        return IRModule({name: funcs[name] for name in order})

    base = module(("matmul", "softmax", "conv2d"))
    check_equal(base, module(("conv2d", "matmul", "softmax")))
    check_unequal(base, module(("matmul", "softmax", "conv2d"), block_name="D"),
                  'functions["matmul"].body.block.body.body.body.body.block.name_hint')


def test_hash_independent_of_python_hash_seed():
    code = ("import sys; sys.path[:0] = [{examples!r}, {root!r}]; import api_kernels; "
            "from tirkit.ir import structural_hash; print(structural_hash(api_kernels.softmax()))")
    here = Path(__file__).resolve()
    code = code.format(examples=str(here.parents[2] / "examples"), root=str(here.parents[2]))
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert int(out) == structural_hash(kernels.softmax())
