"""Errors of the cache, reindex, layout and blockize primitives, named as in TVM
(``primitive/cache_read_write.cc``, ``layout_transformation.cc``, ``blockize_tensorize.cc``,
``pad_einsum.cc``, ``decompose_padding.cc``, ``rolling_buffer.cc``)."""
from __future__ import annotations

from ..errors import ScheduleError


def _error(name: str, fast: str, detail: str) -> type[ScheduleError]:
    return type(name, (ScheduleError,), {
        "fast": fast, "detail": detail, "__doc__": f"{fast} (mirrors TVM's ``{name}``)."})


NotSingleWriteBlock = _error(
    "NotSingleWriteBlock", "The buffer is allowed to be written by single block.",
    "The buffer {buffer} is expected to be written by single block, but got {count} blocks "
    "who write it: {blocks}.")
NotRegionCoverError = _error(
    "NotRegionCoverError", "The scope root's region cover is not complete.",
    "The scope {0} 's region cover is not complete: {reason}")
NotSinglePointAccess = _error(
    "NotSinglePointAccess", "The buffer region accessed inside the block is not a single point.",
    "The buffer region {region} accessed inside {0} is not a single point; "
    "{primitive} requires single-point accesses.")
ReindexCacheReadWriteNotMatchError = _error(
    "ReindexCacheReadWriteNotMatchError",
    "The buffer accesses of the block do not match the index map.",
    "{0}: {reason}")
NotReadWriteError = _error(
    "NotReadWriteError", "The target block does not both read & write target buffer.",
    "{0} does not both read & write the target buffer {buffer}.")
NotLeafBlockError = _error(
    "NotLeafBlockError", "The target block is not a leaf block.",
    "{0} is not a leaf block: it has child blocks.")
InvalidBufferAccessError = _error(
    "InvalidBufferAccessError", "The target buffer should be accessed via BufferLoad or "
    "BufferStore.", "{0}: {reason}")
NotBijectiveAffineIndexMapError = _error(
    "NotBijectiveAffineIndexMapError", "The index map is not bijective affine.", "{reason}")
TransformationPaddingIndexMapError = _error(
    "TransformationPaddingIndexMapError", "The IndexMap specifying pad_value should only have "
    "one output.", "{reason}")
TransformationPaddingTypeError = _error(
    "TransformationPaddingTypeError", "The pad value's type differs from the buffer's.",
    "{reason}")
TransformationPaddingExpressionError = _error(
    "TransformationPaddingExpressionError", "The pad value loads from another buffer.",
    "{reason}")
TransformationIntroducesPaddingError = _error(
    "TransformationIntroducesPaddingError", "Transformation would introduce padding.",
    "{reason}")
BufferIsSubregionError = _error(
    "BufferIsSubregionError", "The input buffer is defined in `match_buffer` of a block, it is "
    "expected to be a function parameter or allocated by a block", "{reason}")
IndexMapNotApplicableToBlockIterError = _error(
    "IndexMapNotApplicableToBlockIterError", "The index map can't be applied to block iters "
    "because the number of parameters mismatch.", "{0}: {reason}")
IndexMapRangeError = _error(
    "IndexMapRangeError", "The index map's output range does not start at 0.", "{reason}")
TransformLayoutBufferError = _error(
    "TransformLayoutBufferError", "The buffer cannot be transformed.", "{reason}")
BlockHasNontrivialBindingError = _error(
    "NotTrivialBindingError", "The binding values of the block are not variables of outer loops.",
    "{0}: {reason}")
BlockizeError = _error(
    "SubspaceNotDivisibleError", "The bindings of the inner block cannot be divided by the "
    "outer loops.", "{0}: {reason}")
TensorizeError = _error(
    "TensorizeError", "The block does not match the tensor intrinsic's description.",
    "{0}: {reason}")
InvalidPaddingError = _error(
    "InvalidPaddingError", "The padding size for the block is invalid.",
    "The padding for the block {0} are invalid. It should be a list of {count} positive "
    "integers. Got {padding}")
NonEinsumError = _error(
    "NonEinsumError", "The block is not a computation of Einsum pattern.",
    "The block {0} not a computation of Einsum pattern.")
PaddingPatternMatchError = _error(
    "PaddingPatternMatchError", "decompose_padding expect the block to match padding pattern",
    "decompose_padding expect the block {0} to match padding pattern: {reason}")
RollingBufferDependencyError = _error(
    "RollingBufferDependencyError", "The target block is required to have only RAW dependencies",
    "The target block {0} is required to have only RAW dependencies")
RollingBufferMatchError = _error(
    "RollingBufferMatchError", "rolling_buffer expect the buffer region to have at least one "
    "dimension matching the rolling pattern such as: hh.outer * stride + hh.inner",
    "The target buffer {buffer} with region {region} should have at least one dimension range "
    "that matches a rolling pattern such as hh.outer * stride + hh.inner.")
RollingBufferInsertionError = _error(
    "RollingBufferInsertionError", "rolling_buffer injection is invalid, the lca of the access "
    "location of the target buffer is not a for loop.",
    "rolling_buffer injection is invalid. The block {0} should be tiled so that the lca of the "
    "access location of the target buffer {buffer} is a for loop.")
ReIndexPartialWriteError: type[ScheduleError] = type("ReIndexPartialWriteError", (ScheduleError,), {
    "fast": "The block does not write the buffer at every point of its iteration domain.",
    "detail": "{0} does not write {buffer} at every point of its iteration domain ({reason}); "
              "the copy stage of the reindexed write would copy the new buffer back at every "
              "point and overwrite what other blocks wrote there",
    "__doc__": "A write reindex (or reindex_cache_write) of a block that writes only part of "
               "its iteration domain: under a predicate, a loop nest covering part of an iter's "
               "domain, or a store under a condition (no TVM counterpart: TVM 0.27's ReIndex "
               "applies and the copy stage overwrites the rest)."})
ReadModifyWriteError: type[ScheduleError] = type("ReadModifyWriteError", (ScheduleError,), {
    "fast": "The block reads and writes the buffer, and the new buffer would break one of them.",
    "detail": "{0} reads and writes {buffer}: {reason}",
    "__doc__": "The block reads and writes the buffer and a primitive would give one side of "
               "it a new buffer: read uninitialised, or writes that never reach the old buffer "
               "(no TVM counterpart: TVM 0.27's ReIndex and CacheWrite apply)."})
