"""The GPU units of the front end's corpus (tests/lang/cases: thread bindings, launch_thread,
shared/local memory, syncs, warp shuffles, cross-thread reductions) compile for ``cuda`` to PTX
that ptxas accepts, for sm_70 and sm_90 (issue 17 acceptance). Units that need what tirkit does
not lower are listed with their reason and checked to be exactly those."""
import sys
from pathlib import Path

import pytest

from gpu_helpers import run_or_check, validate
from tirkit.compiler.driver import compile_module

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "compiler"))
from test_corpus_compiles import _not_cpu, _units  # noqa: E402  pylint: disable=wrong-import-position

# units that are not GPU kernels tirkit can compile, and why
NOT_COMPILED = {
    "17_packed_api/host_launcher": "calls TVM's global function registry",
    "40_calls/packed": "calls TVM's global function registry",
    "26_block_attr_match_region/wmma_fill": "tensor-core fragments (wmma) are not lowered",
}


def _gpu_units():
    for p in _units():
        reason = _not_cpu(p.values[0])
        if reason is not None:
            yield pytest.param(p.values[0], id=p.id)


GPU_UNITS = list(_gpu_units())


@pytest.mark.parametrize("ir", GPU_UNITS)
def test_gpu_unit_compiles_to_ptx_ptxas_accepts(ir, request):
    name = request.node.callspec.id
    if name in NOT_COMPILED:
        pytest.skip(f"not compiled for cuda: {NOT_COMPILED[name]}")
    for arch in ("sm_70", "sm_90"):
        compiled = compile_module(ir, f"cuda -arch={arch}")
        assert f".target {arch}" in compiled.ptx and ".entry " in compiled.ptx
        assert validate(compiled.ptx, arch)[:4] == b"\x7fELF"


def test_the_corpus_has_gpu_units():
    ids = {p.id for p in GPU_UNITS}
    assert len(ids) >= 15 and set(NOT_COMPILED) <= ids


@pytest.mark.parametrize("ir", GPU_UNITS)
def test_gpu_unit_runs_on_random_inputs_twice_alike(ir, request):
    """Each unit built for ``cuda`` runs as ``tirc run`` runs it (random inputs of its declared
    shapes, symbolic dimensions 256) and gives the same result twice; without a GPU its
    arguments are checked and the call stops only for want of a GPU."""
    import numpy as np  # pylint: disable=import-outside-toplevel

    from tirkit.cli.tirc_run import copy_args, make_arguments, max_difference  # pylint: disable=import-outside-toplevel
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel
    from tirkit.tir import PrimFunc  # pylint: disable=import-outside-toplevel

    name = request.node.callspec.id
    if name in NOT_COMPILED:
        pytest.skip(f"not compiled for cuda: {NOT_COMPILED[name]}")
    funcs = [ir] if isinstance(ir, PrimFunc) else [f for f in ir.functions.values()
                                                   if isinstance(f, PrimFunc)]
    if len(funcs) != 1:
        pytest.skip(f"{len(funcs)} functions: tirc run runs modules of one kernel")
    func = funcs[0]
    try:
        args = make_arguments(func, {}, np.random.default_rng(0), [])
    except Exception as exc:  # pylint: disable=broad-except  # tirc run refuses it too
        pytest.skip(f"no random inputs for it: {exc}")
    mod = build(ir, target="cuda")
    first, second = copy_args(args), copy_args(args)
    if not run_or_check(mod, *first):
        return
    mod(*second)
    ok, worst = max_difference(first, second)
    assert ok, f"two runs differ by {worst}"
