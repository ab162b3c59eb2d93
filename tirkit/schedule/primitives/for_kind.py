"""parallel, vectorize, bind, unroll (mirrors ``src/tir/schedule/primitive/for_kind.cc``)."""
from __future__ import annotations

from typing import Any, cast

from ...tir.expr import IterVar, IterVarType, Var
from ...tir.stmt import ForKind
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive
from ..state import StmtSRef

THREAD_TAGS = ("blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y",
               "threadIdx.z", "vthread", "vthread.x", "vthread.y", "vthread.z")
_KIND_WORD = {ForKind.PARALLEL: "parallelized", ForKind.VECTORIZED: "vectorized",
              ForKind.THREAD_BINDING: "bound to a thread axis"}


def _check_compact_dataflow(sch: Schedule, loop_sref: Any) -> None:
    """Every block under the loop is complete or a reduction (TVM
    ``CheckSubtreeCompactDataflow``)."""
    for block_sref in A.get_child_blocks(sch.state, loop_sref):
        root = cast(StmtSRef, A.get_scope_root(block_sref))
        complete = A.complete_block_reason(sch.state, block_sref, root)
        if complete is None:
            continue
        reason = A.reduction_block_reason(sch.state, block_sref, root)
        if reason is not None:
            raise err.NotCompactDataFlowError(
                loop_sref.stmt, block_sref.stmt,
                reason=f'block "{block_sref.stmt.name_hint}" is neither complete ({complete}) '
                f"nor a reduction block ({reason})")


def _check_parallelizable(sch: Schedule, loop_sref: Any, kind: ForKind, thread: str | None
                          ) -> None:
    """TVM ``CheckParallelizability``: blocks under the loop have affine bindings and the loop only
    feeds data-parallel iters (or reduction iters of a cross-thread reduction)."""
    loop_var = loop_sref.stmt.loop_var
    for block_sref in A.get_child_blocks(sch.state, loop_sref):
        _check_block(sch, loop_sref, block_sref, loop_var, kind, thread)


def _check_block(sch: Schedule, loop_sref: Any, block_sref: Any, loop_var: Var, kind: ForKind,
                 thread: str | None) -> None:
    A.check_affine_binding(sch.state, block_sref)
    realize = A.get_block_realize(sch.state, block_sref)
    for iv, value in zip(block_sref.stmt.iter_vars, realize.iter_values):
        if not A.uses_var(value, loop_var) or iv.iter_type == IterVarType.DataPar:
            continue
        if kind == ForKind.THREAD_BINDING and iv.iter_type == IterVarType.CommReduce \
                and thread is not None and thread.startswith("threadIdx"):
            continue
        extra = " (a reduction iter can only be bound to threadIdx.*)" \
            if kind == ForKind.THREAD_BINDING else ""
        raise err.WrongBlockIterTypeError(loop_sref.stmt, block_sref.stmt,
                                          kind=_KIND_WORD[kind], extra=extra)


def _set_kind(sch: Schedule, loop: Any, kind: ForKind, thread: str | None = None) -> None:
    sref = sch._loop_sref(loop)  # pylint: disable=protected-access
    if kind != ForKind.UNROLLED:
        _check_compact_dataflow(sch, sref)
        _check_parallelizable(sch, sref, kind, thread)
    loop_stmt = sref.stmt
    binding = None
    if thread is not None:
        binding = IterVar(None, Var("iter", loop_stmt.loop_var.dtype), IterVarType.ThreadIndex,
                          thread)
    sch.state.replace(sref, loop_stmt.with_changes(kind=kind, thread_binding=binding))


@primitive("Parallel")
def parallel(sch: Schedule, loop: Any) -> None:
    """Make ``loop`` a parallel loop (``Schedule.parallel``).

    Raises:
        ScheduleError: ``NotCompactDataFlowError`` (a block under the loop is neither complete
            nor a reduction), ``NotAffineBindingError``, ``WrongBlockIterTypeError`` (the loop
            feeds a reduction iter).
    """
    _set_kind(sch, loop, ForKind.PARALLEL)


@primitive("Vectorize")
def vectorize(sch: Schedule, loop: Any) -> None:
    """Make ``loop`` a vectorized loop (``Schedule.vectorize``); same checks as
    :func:`parallel`."""
    _set_kind(sch, loop, ForKind.VECTORIZED)


@primitive("Bind", attrs=("thread_axis",))
def bind(sch: Schedule, loop: Any, thread_axis: str) -> None:
    """Bind ``loop`` to a GPU thread axis (``blockIdx.x``, ``threadIdx.y``, ``vthread``...)
    (``Schedule.bind``); same checks as :func:`parallel`, and a reduction iter may only be bound
    to ``threadIdx.*``.

    Raises:
        ScheduleError: ``ThreadAxisError`` for an unknown thread axis, and :func:`parallel`'s.
    """
    if thread_axis not in THREAD_TAGS:
        raise err.ThreadAxisError(reason=f"unknown thread axis {thread_axis!r}; expected one of "
                                  f"{', '.join(THREAD_TAGS)}")
    _set_kind(sch, loop, ForKind.THREAD_BINDING, thread_axis)


@primitive("Unroll")
def unroll(sch: Schedule, loop: Any) -> None:
    """Make ``loop`` an unrolled loop (``Schedule.unroll``); always legal."""
    _set_kind(sch, loop, ForKind.UNROLLED)
