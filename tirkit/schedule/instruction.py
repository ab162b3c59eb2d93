"""Instructions of a schedule trace (mirrors ``tvm.tir.schedule.Instruction`` and
``InstructionKind``; C++ ``instruction_traits.h``).

Each primitive registers one :class:`InstructionKind` (see ``tirkit/schedule/README.md``): its
TVM name (``"Split"``), the Schedule method it calls, which parameters are *inputs* (random
variables, lists of them, expressions of ExprRVs, or constants that are part of the call) and
which are *attrs* (plain values), and which one is the *decision* of a sampling instruction. From
that one description the trace knows how to apply the instruction to a schedule, how to print it
as Python and how to write it as JSON.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

#: InstructionKind name -> kind (``InstructionKind::Get`` looks names up here).
INST_KINDS: dict[str, "InstructionKind"] = {}


@dataclass(frozen=True)
class InstructionKind:
    """What an instruction does (mirrors ``tvm.tir.schedule.InstructionKind``).

    ``name`` is TVM's kind name, ``method`` the Schedule method applying it, ``params`` the
    method's parameters in order as ``(name, role)`` with role ``"input"``, ``"inputs"`` (a
    ``*args`` list printed positionally), ``"attr"`` or ``"decision"``. ``is_pure`` is True for
    getters and sampling (no IR change). ``outputs`` is ``"one"``, ``"list"`` or ``"none"``.
    """

    name: str
    method: str
    params: tuple[tuple[str, str], ...]
    is_pure: bool = False
    outputs: str = "none"
    as_python_hook: Callable[..., str] | None = field(default=None, compare=False)

    @staticmethod
    def get(name: str) -> "InstructionKind":
        """The kind registered as ``name`` (``InstructionKind.get``).

        Raises:
            KeyError: when no kind is registered under ``name``.
        """
        try:
            return INST_KINDS[name]
        except KeyError:
            raise KeyError(f"unknown instruction kind {name!r}") from None

    @property
    def input_names(self) -> list[str]:
        """Names of the input parameters in order."""
        return [n for n, r in self.params if r in ("input", "inputs")]

    @property
    def attr_names(self) -> list[str]:
        """Names of the attribute parameters in order."""
        return [n for n, r in self.params if r == "attr"]

    @property
    def decision_name(self) -> str | None:
        """The decision parameter's name, if the kind samples."""
        return next((n for n, r in self.params if r == "decision"), None)

    def apply_to_schedule(self, sch: Any, inputs: Sequence[Any], attrs: Sequence[Any],
                          decision: Any) -> list[Any]:
        """Call the Schedule method with ``inputs``/``attrs``/``decision`` and return the outputs
        as a list (``InstructionKind::f_apply_to_schedule``)."""
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        ins, ats = iter(inputs), iter(attrs)
        for pname, role in self.params:
            if role == "inputs":
                args.extend(next(ins))
            elif role == "input":
                kwargs[pname] = next(ins)
            elif role == "attr":
                kwargs[pname] = next(ats)
            elif decision is not None:
                kwargs[pname] = decision
        out = getattr(sch, self.method)(*args, **kwargs)
        if self.outputs == "none":
            return []
        if self.outputs == "one":
            return [out]
        return list(out)


@dataclass(frozen=True, eq=False)
class Instruction:
    """One recorded primitive call (mirrors ``tvm.tir.schedule.Instruction``): ``kind``,
    ``inputs`` (RVs, constants, nested lists), ``attrs`` (plain values), ``outputs`` (the RVs the
    call produced)."""

    kind: InstructionKind
    inputs: tuple[Any, ...]
    attrs: tuple[Any, ...]
    outputs: tuple[Any, ...]


def register_inst_kind(kind: InstructionKind) -> InstructionKind:
    """Register ``kind`` under its name (``TVM_REGISTER_INST_KIND_TRAITS``).

    Raises:
        ValueError: when another kind already has the name.
    """
    old = INST_KINDS.get(kind.name)
    if old is not None and old.method != kind.method:
        raise ValueError(f"instruction kind {kind.name!r} is already registered")
    INST_KINDS[kind.name] = kind
    return kind
