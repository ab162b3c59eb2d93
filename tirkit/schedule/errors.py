"""Schedule errors (mirrors ``tvm.tir.ScheduleError`` and the C++ ``ScheduleError`` subclasses of
``src/tir/schedule/error.h`` and ``primitive/*.cc``).

A primitive that does not apply raises a :class:`ScheduleError` subclass named as in TVM. Its
message names the block or loop and the violated condition; :attr:`ScheduleError.locations` holds
the IR nodes (Blocks, Fors) it is about and :attr:`ScheduleError.span` the source span of the
first one that came from a file, so ``tirc`` and the language server can underline it.
"""
from __future__ import annotations

from typing import Any, Sequence


def describe(node: Any) -> str:
    """``block "C"`` / ``loop "i"`` for an IR node named in an error message (no TVM counterpart)."""
    name = getattr(node, "name_hint", None)
    if name is not None and hasattr(node, "iter_vars"):
        return f'block "{name}"'
    var = getattr(node, "loop_var", None)
    if var is not None:
        return f'loop "{var.name_hint}"'
    return type(node).__name__


def node_span(node: Any) -> Any:
    """The source span of a Block or For: the loop var's (the ``for`` target) when known, else the
    node's own (no TVM counterpart)."""
    var = getattr(node, "loop_var", None)
    if var is not None and getattr(var, "span", None) is not None:
        return var.span
    return getattr(node, "span", None)


class ScheduleError(Exception):
    """A schedule primitive could not be applied (mirrors ``tvm.tir.ScheduleError``).

    Subclasses carry TVM's class names. ``str(err)`` is rendered per the schedule's
    ``error_render_level``: ``"detail"`` (the default: the detailed message, block/loop names
    substituted), ``"fast"`` (the one-line fast message) or ``"none"``.
    """

    fast: str = "the schedule primitive does not apply"
    detail: str = ""

    def __init__(self, *locations: Any, fast: str | None = None, detail: str | None = None,
                 render_level: str = "detail", **fields: Any) -> None:
        self.locations: tuple[Any, ...] = tuple(loc for loc in locations if loc is not None)
        self.fields = fields
        if fast is not None:
            self.fast = fast
        if detail is not None:
            self.detail = detail
        self.render_level = render_level
        super().__init__(self.render())

    def fast_error_string(self) -> str:
        """The short message (TVM ``ScheduleError::FastErrorString``)."""
        return "ScheduleError: " + self.fast.format(**self.fields)

    def detail_render_template(self) -> str:
        """The message with ``{0}``, ``{1}``... standing for :attr:`locations`
        (TVM ``ScheduleError::DetailRenderTemplate``)."""
        return self.detail or self.fast

    def render(self, level: str | None = None) -> str:
        """The message at ``level`` (``detail``/``fast``/``none``; default the error's own)."""
        level = level or self.render_level
        if level == "none":
            return "ScheduleError: (not rendered)"
        if level == "fast":
            return self.fast_error_string()
        names = [describe(loc) for loc in self.locations]
        template = self.detail_render_template()
        if names and "{0}" not in template and names[0] not in template.format(*names,
                                                                                  **self.fields):
            template = "{0}: " + template  # the message always names the block/loop it is about
        text = template.format(*names, **self.fields)
        if type(self) is ScheduleError:
            return f"ScheduleError: {text}"
        return f"ScheduleError: {type(self).__name__}: {text}"

    def rerender(self, level: str) -> "ScheduleError":
        """Re-render ``str(self)`` at ``level`` (the schedule's ``error_render_level``)."""
        self.render_level = level
        self.args = (self.render(),)
        return self

    @property
    def span(self) -> Any:
        """Source span of the first loop location that has one (a caret under the loop), else
        of the first location that has one, or ``None``."""
        loops = [loc for loc in self.locations if hasattr(loc, "loop_var")]
        for loc in loops + [loc for loc in self.locations if loc not in loops]:
            span = node_span(loc)
            if span is not None:
                return span
        return None

    @property
    def message(self) -> str:
        """The detailed message."""
        return self.render("detail")


def _error(name: str, fast: str, detail: str = "",
           base: type | tuple[type, ...] = ScheduleError) -> type[ScheduleError]:
    cls = type(name, base if isinstance(base, tuple) else (base,), {
        "fast": fast, "detail": detail,
        "__doc__": f"{fast} (mirrors TVM's ``{name}``)."})
    return cls


# --- generic (src/tir/schedule/analysis/analysis.cc, error.h) ---------------------------------
NotSingleChildBlockError = _error(
    "NotSingleChildBlockError", "the loop has more than one child block",
    "{0} does not have a single child block")
HasAnnotationOrThreadBindingError = _error(
    "HasAnnotationOrThreadBindingError",
    "the loop has annotations or thread bindings",
    "{0} has annotations or a thread binding; the primitive needs a plain serial loop")
LoopNotStartWithZeroError = _error(
    "LoopNotStartWithZeroError", "the loop does not start with 0",
    "{0} does not start with 0")


class LoopStepError(ScheduleError):
    """A primitive's block or loop is, is inside or encloses a loop whose step is not 1 (TVM
    0.27 ``For.step``). TVM 0.27's primitives ignore the step (``split`` of ``range(0, 16,
    4)`` makes 16 iterations of the body); tirkit refuses, the schedule unchanged."""

    fast = "the loop has a step other than 1"
    detail = ("{0} steps by {step}: schedule primitives work on loops of step 1; rewrite it "
              "with CanonicalizeLoop (tirkit.compiler.passes.canonicalize_loop) first")


NotAffineBindingError = _error(
    "NotAffineBindingError", "the block's binding is not affine",
    "{0} has a binding that is not affine in its loops (quasi-affine required)")
NotCompleteOrReductionBlockError = _error(
    "NotCompleteOrReductionBlockError",
    "the block is neither a complete block nor a reduction block",
    "{0} is neither a complete block nor a reduction block: {reason}")
NotCompleteBlockError = _error(
    "NotCompleteBlockError", "the block is not a complete block",
    "{0} is not a complete block: {reason}")
NotReductionBlockError = _error(
    "NotReductionBlockError", "the block is not a reduction block",
    "{0} is not a reduction block: {reason}")
RootBlockError = _error(
    "RootBlockError", "The primitive does not operate on the root block",
    "{0}: the primitive does not operate on the root block")
NotStagePipelineError = _error(
    "NotStagePipelineError", "the scope is not a stage pipeline",
    "the scope {0} is not a stage pipeline: some block reads a region that its producers do "
    "not cover")
OpaqueNewIterTypeError = _error(
    "OpaqueNewIterTypeError", "cannot detect the iter type of the new loop",
    "{0}: {reason}")
WrongFactorError = _error(
    "WrongFactorError", "the factors are wrong",
    "{0}: {reason}")
LoopsNotAChainError = _error(
    "LoopsNotAChainError", "the loops are not in a chain",
    "the loops are not in a chain: {reason}")
LoopMultiAppearanceError = _error(
    "LoopMultiAppearanceError", "a loop appears more than once",
    "{0} appears more than once in the list")
DependentLoopError = _error(
    "DependentLoopError", "a loop's extent depends on another loop",
    "{0}'s extent or min depends on another loop being reordered")
BlockIterTypeError = _error(
    "NotDataParOrReduceIterError",
    "a block iter is neither data-parallel nor reduction",
    "{0} has an iter var that is neither data-parallel nor reduction; reorder cannot move loops "
    "bound to it")
NotOnlyChildError = _error(
    "NotOnlyChildError", "the loops cannot be fused because one is not the only child",
    "{1} is not the only child of {0}")
LoopNotInSameScopeError = _error(
    "LoopsNotInSameScopeError", "the loops are not under the same scope",
    "{0} and {1} are not under the same scope block")
NotChildError = _error("NotChildError", "the loop is not a child", "{reason}")
ExprRVNotConstError = _error(
    "ExprRVNotConstError", "an expression random variable is not a constant", "{reason}")
# --- loop kinds (for_kind.cc) --------------------------------------------------------------
WrongBlockIterTypeError = _error(
    "WrongBlockIterTypeError",
    "the loop is bound to a block iter of a type the loop kind does not allow",
    "{0} cannot be {kind}: {1} binds it to an iter var of a type other than data-parallel"
    "{extra}")
ThreadAxisError = _error("ThreadAxisError", "invalid thread axis", "{reason}")
NotMergeableError = _error(
    "NotMergeableError", "merging the loops would reorder dependent accesses",
    "{0}: {reason}")  # no TVM counterpart: TVM 0.27's Merge does not check dependences
# --- compute location (compute_at.cc, compute_inline.cc) ------------------------------------
NotAllRequiredBlocksAreVisitedError = _error(
    "NotAllRequiredBlocksAreVisitedError",
    "not all required producers/consumers are visited at the target loop",
    "{0} cannot be moved under {1}: {reason}")
NotInSameScopeError = _error(
    "NotInSameScopeError", "the block and the loop are not in the same scope",
    "{0} and {1} are not in the same scope: {reason}")
LoopPositionError = _error(
    "LoopPositionError", "the loop is not a valid target",
    "{1} is not a valid location for {0}: {reason}")
NotCompactDataFlowError = _error(
    "NotCompactDataFlowError", "the subtree does not have compact data flow",
    "the subtree of {0} does not have compact data flow: {reason}")
BufferRegionPatternError = _error(
    "BufferRegionPatternError", "BufferRegion pattern match failed",
    "the iteration domain of {0} cannot be solved: {reason}",
    base=(NotCompactDataFlowError, ValueError))  # TVM's "ValueError: ... pattern match failed"
BodyAnalysisError = _error(
    "BodyAnalysisError", "the block body is not a single BufferStore of the required form",
    "{0}: {reason}")
NonSingleProducerError = _error(
    "NonSingleProducerError", "the consumer has more than one producer",
    "{0}: {reason}")
OpaqueAccessError = _error(
    "OpaqueAccessError", "the buffer is accessed opaquely", "{0}: {reason}")
ProducerHasNonTrivialPredicateError = _error(
    "ProducerHasNonTrivialPredicateError", "the producer has a non-trivial predicate",
    "{0}: {reason}")
OnlyLeafError = _error(
    "OnlyLeafError", "cannot remove the only leaf of the scope",
    "{0} is the only leaf of the scope {1}; removing it would leave an empty scope")
NotOutputBlockError = _error(
    "NotOutputBlockError", "the block writes an output buffer",
    "{0} writes an output buffer of the function; {reason}")
# --- reductions (reduction.cc) ---------------------------------------------------------------
HasInitBlock = _error(
    "HasInitBlock", "the block has init statement",
    "{0} has an init statement (T.init()): {reason}")
LoopPositionDecomposeError = _error(
    "DecomposeReductionLoopPositionError", "the loop is not a valid decompose position",
    "decompose_reduction of {0} at {1}: {reason}")
LoopHeightError = _error(
    "LoopHeightError", "the loop is not higher than the loops of the reduction iters",
    "decompose_reduction of {0} at {1}: {reason}")
ReducerNotFoundError = _error(
    "NoMatchedReducerError", "no commutative reducer matches the block",
    "{0}: {reason}")
FactorAxisOutOfRangeError = _error(
    "FactorAxisOutOfRangeError", "the factor axis is out of range", "{0}: {reason}")
LoopPropertyError = _error(
    "LoopPropertyError", "the loop cannot be rfactor-ed", "{0}: {reason}")
# --- annotations (annotate.cc, block_annotate.cc) -------------------------------------------
StorageAlignAxisOutOfRangeError = _error(
    "StorageAlignAxisOutOfRangeError", "the axis is out of range", "{0}: {reason}")
StorageAlignInvalidFactorError = _error(
    "StorageAlignInvalidFactorError", "the factor is invalid", "{0}: {reason}")
StorageAlignInvalidAnnotationError = _error(
    "StorageAlignInvalidAnnotationError",
    "the block's buffer_dim_align annotation is not an array of 4-integer tuples",
    "{0}: {reason}")
AxisSeparatorError = _error(
    "AxisSeparatorError", "the axis separators are invalid", "{0}: {reason}")
AnnotationTypeError = _error(
    "AnnotationTypeError", "the annotation key or value has an unsupported type",
    "{0}: {reason}", base=(ScheduleError, TypeError))  # TVM's FFI TypeError (a Python one too)
BufferIndexOutOfRangeError = _error(
    "BufferIndexOutOfRangeError", "the buffer index is out of range", "{0}: {reason}")
NonAllocatedBufferError = _error(
    "NonAllocatedBufferError", "the buffer is not allocated by a block", "{0}: {reason}")
InvalidScopeError = _error("InvalidScopeError", "the storage scope is invalid", "{reason}")
DTypeError = _error("DTypeError", "the dtype is invalid", "{0}: {reason}")
IndexError_ = _error(
    "IndexOutOfRangeError", "index out of range", "{0}: {reason}",
    base=(ScheduleError, IndexError))  # TVM's "IndexError: ..." (a Python IndexError too)
# --- getters ---------------------------------------------------------------------------------
NotSingleResult = _error(
    "NotSingleResult", "the block name does not match exactly one block", "{reason}")
BlockNotFoundError = _error(
    "BlockNotFoundError", "Cannot find a block with the specified name",
    "{reason}", base=NotSingleResult)
RVExpiredError = _error("RVExpiredError", "the random variable was invalidated",
                        "{reason}")
InvalidArgumentError = _error("InvalidArgumentError", "invalid argument", "{reason}")
NotLoopError = _error(
    "NotLoopError", "the random variable does not stand for a loop",
    "{0} is given where a loop is expected: {reason}", base=InvalidArgumentError)
NotBlockError = _error(
    "NotBlockError", "the random variable does not stand for a block",
    "{0} is given where a block is expected: {reason}", base=InvalidArgumentError)


def all_errors() -> Sequence[type[ScheduleError]]:
    """Every ScheduleError subclass defined here (no TVM counterpart)."""
    return [v for v in globals().values()
            if isinstance(v, type) and issubclass(v, ScheduleError) and v is not ScheduleError]
