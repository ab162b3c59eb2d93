"""Schedule traces (mirrors ``tvm.tir.schedule.Trace``, C++ ``trace.cc``).

A trace is the list of instructions a schedule applied plus the decisions of its sampling
instructions. It prints as Python (:meth:`Trace.as_python`, TVM's format:
``l1, l2 = sch.split(loop=l0, factors=[None, 8], ...)``), replays on another schedule
(:meth:`Trace.apply_to_schedule`) and round-trips through JSON (:meth:`Trace.as_json` /
:meth:`Trace.from_json`: ``[[[kind, inputs, attrs, outputs], ...], [[index, decision], ...]]``).
"""
from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from ..ir.expr import FloatImm, IntImm, PrimExpr
from ..tir.expr import Var
from ..tir.stmt_functor import substitute
from .instruction import INST_KINDS, Instruction, InstructionKind
from .rv import BlockRV, LoopRV


#: Input values of other types (``IndexMap``...): ``type -> (to_python_text, tag, to_json)`` and
#: ``tag -> from_json``; a JSON input ``{tag: data}`` is decoded by ``from_json(data)``.
_CODECS: dict[type, tuple[Callable[[Any], str], str, Callable[[Any], Any]]] = {}
_DECODERS: dict[str, Callable[[Any], Any]] = {}


def register_value_codec(cls: type, to_python: Callable[[Any], str], tag: str,
                         to_json: Callable[[Any], Any], from_json: Callable[[Any], Any]) -> None:
    """Let instruction inputs of type ``cls`` print as Python and round-trip through JSON as
    ``{tag: to_json(value)}`` (no TVM counterpart: TVM serialises objects generically)."""
    _CODECS[cls] = (to_python, tag, to_json)
    _DECODERS[tag] = from_json


def _codec(value: Any) -> Any:
    for cls in type(value).__mro__:
        if cls in _CODECS:
            return _CODECS[cls]
    return None


def _is_rv(obj: Any) -> bool:
    return isinstance(obj, (BlockRV, LoopRV, Var))


def _rv_prefix(obj: Any) -> str:
    if isinstance(obj, BlockRV):
        return "b"
    if isinstance(obj, LoopRV):
        return "l"
    return "v"


class _Names:
    """RV -> name (``b0``, ``l1``, ``v2``: one counter over all RVs, as TVM)."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.keep: list[Any] = []

    def add(self, outputs: Sequence[Any]) -> list[str]:
        out = []
        for rv in outputs:
            if rv is None:
                out.append("_")
                continue
            name = f"{_rv_prefix(rv)}{len(self.names)}"
            self.names[id(rv)] = name
            self.keep.append(rv)
            out.append(name)
        return out

    def name(self, rv: Any) -> str:
        try:
            return self.names[id(rv)]
        except KeyError:
            raise ValueError(f"random variable {rv!r} is not defined in the trace") from None

    def expr_text(self, expr: PrimExpr) -> str:
        """An expression over ExprRVs printed with their names."""
        vmap = {}
        from ..tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel

        def visit(n: Any) -> None:
            if isinstance(n, Var) and id(n) in self.names:
                vmap[n] = Var(self.names[id(n)], n.dtype)
        post_order_visit(expr, visit)
        return repr(substitute(expr, vmap) if vmap else expr)


def _py_value(value: Any, names: _Names) -> str:
    if value is None:
        return "None"
    if _is_rv(value):
        return names.name(value)
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, (IntImm, FloatImm)):
        return repr(value.value)
    if isinstance(value, PrimExpr):
        return names.expr_text(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_py_value(v, names) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py_value(k, names)}: {_py_value(v, names)}"
                               for k, v in value.items()) + "}"
    codec = _codec(value)
    if codec is not None:
        return codec[0](value)
    return repr(value)


def _py_attr(pname: str, value: Any, names: _Names) -> str:
    """An attribute as Python; a ``buffer=("read"|"write", i)`` pair prints as a tuple, as TVM's
    ``TransformLayout`` / ``SetAxisSeparator`` traits do."""
    if pname == "buffer" and isinstance(value, (list, tuple)) and len(value) == 2 \
            and value[0] in ("read", "write"):
        return f"({json.dumps(value[0])}, {_py_value(value[1], names)})"
    return _py_value(value, names)


def _json_input(value: Any, names: _Names) -> Any:
    if value is None:
        return "None"
    if _is_rv(value):
        return names.name(value)
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, (IntImm, FloatImm)):
        return value.value
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return [_json_input(v, names) for v in value]
    if isinstance(value, dict):  # an annotation value (TVM: a Map)
        return {"dict": [[_json_input(k, names), _json_input(v, names)]
                         for k, v in value.items()]}
    if isinstance(value, (int, float)):
        return value
    codec = _codec(value)
    if codec is not None:
        return {codec[1]: codec[2](value)}
    raise TypeError(f"cannot write {type(value).__name__} as a trace input")


def _from_json_input(value: Any, named: dict[str, Any]) -> Any:
    if isinstance(value, list):
        return [_from_json_input(v, named) for v in value]
    if isinstance(value, dict) and "bool" in value:
        return bool(value["bool"])
    if isinstance(value, dict) and list(value) == ["dict"]:
        return {_from_json_input(k, named): _from_json_input(v, named) for k, v in value["dict"]}
    if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in _DECODERS:
        tag, data = next(iter(value.items()))
        return _DECODERS[tag](data)
    if isinstance(value, str):
        if value == "None":
            return None
        if len(value) >= 2 and value[0] == value[-1] == '"':
            return json.loads(value)
        try:
            return named[value]
        except KeyError:
            raise ValueError(f"the random variable is not defined: {value}") from None
    return value


def _json_attr(value: Any) -> Any:
    if isinstance(value, (IntImm, FloatImm)):
        return value.value
    if isinstance(value, tuple):
        return [_json_attr(v) for v in value]
    if isinstance(value, list):
        return [_json_attr(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_attr(v) for k, v in value.items()}
    return value


def _translate(value: Any, rv_map: dict[int, Any]) -> Any:
    """An input with the old trace's RVs replaced by the new schedule's."""
    if isinstance(value, (list, tuple)):
        return [_translate(v, rv_map) for v in value]
    if isinstance(value, dict):
        return {k: _translate(v, rv_map) for k, v in value.items()}
    if isinstance(value, (BlockRV, LoopRV)) or (isinstance(value, Var) and id(value) in rv_map):
        try:
            return rv_map[id(value)]
        except KeyError:
            raise ValueError(f"random variable {value!r} does not exist in the trace") from None
    if isinstance(value, PrimExpr) and not isinstance(value, (IntImm, FloatImm)):
        vmap: dict[Var, Any] = {}
        from ..tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel
        post_order_visit(value, lambda n: vmap.__setitem__(n, rv_map[id(n)])
                         if isinstance(n, Var) and id(n) in rv_map else None)
        return substitute(value, vmap) if vmap else value
    return value


class Trace:
    """The instructions a schedule applied and the sampling decisions (mirrors
    ``tvm.tir.schedule.Trace``).

    ``insts`` is a list of :class:`Instruction`; ``decisions`` maps an instruction to its
    decision (an int or a list of ints).
    """

    def __init__(self, insts: Sequence[Instruction] | None = None,
                 decisions: dict[Instruction, Any] | None = None) -> None:
        self.insts: list[Instruction] = list(insts or [])
        self.decisions: dict[Instruction, Any] = dict(decisions or {})

    def get_decision(self, inst: Instruction) -> Any:
        """The decision made for ``inst``, or ``None`` (``Trace.get_decision``)."""
        return self.decisions.get(inst)

    def append(self, inst: Instruction, decision: Any = None) -> None:
        """Append ``inst`` with an optional decision (``Trace.append``)."""
        self.insts.append(inst)
        if decision is not None:
            self.decisions[inst] = decision

    def pop(self) -> Instruction | None:
        """Remove and return the last instruction (``Trace.pop``)."""
        if not self.insts:
            return None
        inst = self.insts.pop()
        self.decisions.pop(inst, None)
        return inst

    def copy(self) -> "Trace":
        """A shallow copy (instructions shared)."""
        return Trace(self.insts, self.decisions)

    def with_decision(self, inst: Instruction, decision: Any, remove_postproc: bool = True
                      ) -> "Trace":
        """A copy with ``inst``'s decision replaced (``Trace.with_decision``)."""
        out = self.copy()
        out.decisions[inst] = decision
        return out

    # -- replay ---------------------------------------------------------------------------
    def apply_to_schedule(self, sch: Any, remove_postproc: bool = False,
                          decision_provider: Callable[..., Any] | None = None) -> None:
        """Replay every instruction on ``sch`` (``Trace.apply_to_schedule``).
        ``decision_provider(inst, inputs, attrs, decision)`` may change sampling decisions.

        Raises:
            ScheduleError: when an instruction does not apply to ``sch``.
        """
        rv_map: dict[int, Any] = {}
        for inst in self.insts:
            inputs = [_translate(v, rv_map) for v in inst.inputs]
            attrs = list(inst.attrs)
            decision = self.get_decision(inst)
            if decision_provider is not None:
                decision = decision_provider(inst, inputs, attrs, decision)
            outputs = inst.kind.apply_to_schedule(sch, inputs, attrs, decision)
            for old, new in zip(inst.outputs, outputs):
                if old is not None:
                    rv_map[id(old)] = new

    # -- printing -------------------------------------------------------------------------
    def as_python(self, remove_postproc: bool = False) -> list[str]:
        """The trace as lines of Python, one per instruction (``Trace.as_python``):
        ``b0 = sch.get_block(name="C", func_name="main")``."""
        names = _Names()
        lines = []
        for inst in self.insts:
            lines.append(self._inst_python(inst, names))
        return lines

    def _inst_python(self, inst: Instruction, names: _Names) -> str:
        kind = inst.kind
        parts: list[str] = []
        ins, ats = iter(inst.inputs), iter(inst.attrs)
        decision = self.get_decision(inst)
        for pname, role in kind.params:
            if role == "inputs":
                parts.extend(_py_value(v, names) for v in next(ins))
            elif role == "input":
                parts.append(f"{pname}={_py_value(next(ins), names)}")
            elif role == "attr":
                parts.append(f"{pname}={_py_attr(pname, next(ats), names)}")
            elif decision is not None:
                parts.append(f"{pname}={_py_value(decision, names)}")
        call = f"sch.{kind.method}({', '.join(parts)})"
        outs = names.add(inst.outputs)
        if kind.outputs == "none" or not outs:
            return call
        if kind.outputs == "one":
            return f"{outs[0]} = {call}"
        target = outs[0] + "," if len(outs) == 1 else ", ".join(outs)
        return f"{target} = {call}"

    def show(self, style: str | None = None, black_format: bool = False) -> None:
        """Print :meth:`as_python` (``Trace.show``)."""
        print(str(self))

    def __str__(self) -> str:
        return "\n".join(["# from tirkit.schedule import Schedule", "def apply_trace(sch):"]
                         + ["  " + line for line in self.as_python()]
                         + (["  pass"] if not self.insts else []))

    # -- JSON -----------------------------------------------------------------------------
    def as_json(self, remove_postproc: bool = False) -> list[Any]:
        """``[[[kind, inputs, attrs, outputs], ...], [[index, decision], ...]]``
        (``Trace.as_json``); RVs appear by name, strings quoted."""
        names = _Names()
        insts, decisions = [], []
        for i, inst in enumerate(self.insts):
            inputs = [_json_input(v, names) for v in inst.inputs]
            attrs = [_json_attr(a) for a in inst.attrs]
            outputs = names.add(inst.outputs)
            insts.append([inst.kind.name, inputs, attrs, outputs])
            if inst in self.decisions:
                decisions.append([i, _json_attr(self.decisions[inst])])
        return [insts, decisions]

    @staticmethod
    def from_json(json_obj: Any) -> "Trace":
        """A trace from :meth:`as_json`'s data (or its JSON text); RVs are made afresh.

        Raises:
            ValueError: on malformed data or an unknown instruction kind.
        """
        if isinstance(json_obj, str):
            json_obj = json.loads(json_obj)
        try:
            json_insts, json_decisions = json_obj
        except (TypeError, ValueError):
            raise ValueError("a trace is [[instructions...], [decisions...]]") from None
        decisions = {int(i): d for i, d in json_decisions}
        named: dict[str, Any] = {}
        trace = Trace()
        for i, item in enumerate(json_insts):
            try:
                kind_name, inputs, attrs, outputs = item
            except (TypeError, ValueError):
                raise ValueError(f"instruction {i} is not [kind, inputs, attrs, outputs]") from None
            if kind_name not in INST_KINDS:
                raise ValueError(f"instruction {i}: unknown instruction kind {kind_name!r}")
            kind: InstructionKind = INST_KINDS[kind_name]
            ins = tuple(_from_json_input(v, named) for v in inputs)
            outs = tuple(_new_rv(name, named) for name in outputs)
            inst = Instruction(kind, ins, tuple(attrs), outs)
            trace.append(inst, decisions.get(i))
        return trace


def _new_rv(name: str, named: dict[str, Any]) -> Any:
    if name == "_":
        return None
    rv: Any = BlockRV() if name[0] == "b" else LoopRV() if name[0] == "l" else Var(name, "int32")
    named[name] = rv
    return rv
