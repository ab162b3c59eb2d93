"""What a pipeline run gives back, shared by :mod:`.pipeline` (which runs the stages) and
:mod:`.instrument` (which records them): one :class:`StageResult` per stage, and
:class:`PipelineError` when the pipeline cannot run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from tirkit.ir import IRModule

__all__ = ["PipelineError", "StageResult"]


class PipelineError(RuntimeError):
    """The pipeline cannot run: a stage's pass is not registered, or an unknown stage was named.
    No TVM counterpart (TVM's passes are compiled in)."""


@dataclass
class StageResult:
    """The IR after one stage: ``changed`` is False when the stage left the module as it was
    (identity or structurally equal); ``skipped`` when its ``-O`` gate or config turned it off;
    ``seconds`` is the pass's wall time.

    ``changed`` may be given as ``None`` with the module before the stage in ``before``: it is
    then compared when first read (a build that never looks at it pays nothing).
    """

    name: str
    mod: IRModule
    _changed: bool | None
    skipped: bool = False
    seconds: float = 0.0
    before: IRModule | None = field(default=None, repr=False, compare=False)

    @property
    def changed(self) -> bool:
        """Whether the stage changed the module (computed on first use when deferred)."""
        if self._changed is None:
            from tirkit.ir import structural_equal  # pylint: disable=import-outside-toplevel

            self._changed = self.mod is not self.before and \
                not structural_equal(self.mod, self.before)
            self.before = None
        return self._changed
