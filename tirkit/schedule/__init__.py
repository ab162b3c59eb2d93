"""TensorIR Schedule (mirrors ``tvm.tir.schedule``): :class:`Schedule`, its state and srefs,
random variables, traces, errors and every primitive (one module per group under
``primitives/``; see ``README.md`` in this folder for how a primitive registers itself)."""
from . import errors
from .block_scope import BlockScope, DepKind, Dependency
from .errors import ScheduleError
from .instruction import Instruction, InstructionKind
from .rv import BlockRV, ExprRV, LoopRV
from .schedule import Schedule, primitive
from .state import ScheduleState, StmtSRef
from .trace import Trace
from .primitives import (annotate, compute_at, for_kind, get_block_loop,  # noqa: E402,F401
                         compute_inline, loop_transformation, reduction, reorder,
                         loop_partition, sampling)
from .primitives import (annotate_buffer_access, blockize_tensorize,  # noqa: E402,F401
                         cache_index, cache_inplace, cache_read_write, decompose_padding,
                         layout_transformation, pad_einsum, read_write_at, reindex,
                         reindex_cache, rolling_buffer)
from .primitives import hide_buffer_access  # noqa: E402,F401

__all__ = ["Schedule", "ScheduleState", "StmtSRef", "BlockRV", "LoopRV", "ExprRV", "Trace",
           "Instruction", "InstructionKind", "ScheduleError", "BlockScope", "DepKind",
           "Dependency", "errors", "primitive"]
