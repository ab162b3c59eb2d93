"""The TensorIR schedule (mirrors ``tvm.tir.Schedule``; C++ ``concrete_schedule.cc`` and
``traced_schedule.cc``).

``Schedule(mod_or_func, seed=None, debug_mask="all", error_render_level="detail")`` holds a
:class:`ScheduleState`, a symbol table from random variables (BlockRV/LoopRV/ExprRV) to srefs and
integers, a :class:`Trace` and a random state. Primitives are added by the modules of
``tirkit/schedule/primitives`` through :func:`primitive` (see ``tirkit/schedule/README.md``):
each call snapshots the state, applies, verifies per ``debug_mask`` and records an Instruction;
a :class:`ScheduleError` restores the snapshot, so an error leaves the schedule unchanged.
"""
from __future__ import annotations

import functools
import inspect
import numbers
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from ..ir.deep import run_deep
from ..ir.expr import IntImm, PrimExpr
from ..ir.module import IRModule
from ..tir.expr import Var
from ..tir.function import PrimFunc
from ..tir.stmt import Block, For
from . import errors as err
from .instruction import Instruction, InstructionKind, register_inst_kind
from .rand import RandState
from .rv import BlockRV, LoopRV
from .state import ScheduleState, StmtSRef
from .trace import Trace

#: ``ScheduleDebugMask``: 1 verifies the sref tree and well-formedness after each primitive,
#: 2 re-checks the cached flags.
DEBUG_MASKS = {"all": 3, "none": 0}
RENDER_LEVELS = ("detail", "fast", "none")
_BLOCK_PARAMS = ("block", "scope_block", "block_or_loop")


def _as_module(mod: Any) -> IRModule:
    if isinstance(mod, PrimFunc):
        return IRModule({"main": mod})
    if isinstance(mod, IRModule):
        return mod
    raise TypeError(f"Schedule: expected a PrimFunc or IRModule, got {type(mod).__name__}")


class Schedule:
    """A TensorIR schedule over an IRModule (mirrors ``tvm.tir.Schedule``).

    ``mod_or_func``: a PrimFunc (scheduled as ``"main"``) or an IRModule; ``seed`` seeds the
    sampling primitives (``None``: random); ``debug_mask`` is ``"all"``, ``"none"`` or an int
    (``ScheduleDebugMask``); ``error_render_level`` is ``"detail"``, ``"fast"`` or ``"none"``.

    Raises:
        TypeError: when ``mod_or_func`` is neither a PrimFunc nor an IRModule, or a PrimFunc's body
            has no root block;
        ValueError: for an unknown ``debug_mask``/``error_render_level``.
    """

    if TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any:
            """The primitives (``get_block``, ``split``...): methods that :func:`primitive` adds
            from the modules of ``tirkit/schedule/primitives``, unknown to a type checker."""

    def __init__(self, mod_or_func: PrimFunc | IRModule, *, seed: int | None = None,
                 debug_mask: str | int = "all", error_render_level: str = "detail") -> None:
        mask = DEBUG_MASKS.get(debug_mask, debug_mask) if isinstance(debug_mask, str) \
            else debug_mask
        if not isinstance(mask, int):
            raise ValueError(f"debug_mask must be 'all', 'none' or an int, got {debug_mask!r}")
        if error_render_level not in RENDER_LEVELS:
            raise ValueError(f"error_render_level must be one of {RENDER_LEVELS}, "
                             f"got {error_render_level!r}")
        mod = _as_module(mod_or_func)
        self._state = run_deep(ScheduleState, mod, mask, what="Schedule")
        self._symbols: dict[int, tuple[Any, Any]] = {}   # id(rv) -> (rv, sref | int)
        self._trace = Trace()
        self._rand = RandState(seed)
        self._render = error_render_level
        self._depth = 0
        self._decision: Any = None
        names = [g.name_hint for g, f in mod.functions.items() if isinstance(f, PrimFunc)]
        self._func: str | None = "main" if "main" in names else \
            (names[0] if len(names) == 1 else None)

    # -- properties -----------------------------------------------------------------------
    @property
    def mod(self) -> IRModule:
        """The IRModule as scheduled so far (``Schedule.mod``)."""
        return self._state.mod

    @property
    def state(self) -> ScheduleState:
        """The ScheduleState (``Schedule.state``)."""
        return self._state

    @property
    def trace(self) -> Trace:
        """The instructions applied so far (``Schedule.trace``)."""
        return self._trace

    @property
    def func_working_on(self) -> str | None:
        """Name of the function the schedule works on (``Schedule.func_working_on``)."""
        return self._func

    def work_on(self, func_name: str) -> None:
        """Work on function ``func_name`` from now on (``Schedule.work_on``).

        Raises:
            ValueError: when the module has no PrimFunc named ``func_name``.
        """
        if func_name not in self._state.roots:
            raise ValueError(f"the IRModule has no PrimFunc named {func_name!r} "
                             f"(functions: {', '.join(sorted(self._state.roots))})")
        self._func = func_name

    def copy(self) -> "Schedule":
        """An independent copy; every RV of this schedule is valid in it (``Schedule.copy``)."""
        new = Schedule.__new__(Schedule)
        new._state = ScheduleState(self.mod, self._state.debug_mask)
        new._symbols = {}
        for key, (rv, value) in self._symbols.items():
            if isinstance(value, StmtSRef):
                value = new._state.get_sref(value.stmt) if value.stmt is not None else StmtSRef()
            new._symbols[key] = (rv, value)
        new._trace = self._trace.copy()
        new._rand = RandState(1)
        new._rand.state = self._rand.state
        new._render, new._depth, new._decision, new._func = self._render, 0, None, self._func
        return new

    def seed(self, seed: int) -> None:
        """Reseed the random state (``Schedule.seed``)."""
        self._rand = RandState(seed)

    def fork_seed(self) -> int:
        """A new seed drawn from this schedule's random state (``Schedule.fork_seed``)."""
        return self._rand.fork_seed()

    def show(self, *args: Any, **kwargs: Any) -> None:
        """Print the module as TVMScript and the trace as Python (``Schedule.show``)."""
        print(self.mod.script())
        print(str(self._trace))

    # -- random variables -----------------------------------------------------------------
    def get(self, rand_var_or_sref: Any) -> Any:
        """The Block/For an RV or sref evaluates to, or an ExprRV's int (``Schedule.get``).

        Raises:
            ScheduleError: (``RVExpiredError``) when the RV is unknown or its block/loop was
                removed.
        """
        if isinstance(rand_var_or_sref, StmtSRef):
            return rand_var_or_sref.stmt
        if isinstance(rand_var_or_sref, (int, IntImm)):
            return int(getattr(rand_var_or_sref, "value", rand_var_or_sref))
        if isinstance(rand_var_or_sref, Var):
            return self._expr_value(rand_var_or_sref)
        return self._sref(rand_var_or_sref).stmt

    def get_sref(self, rand_var_or_stmt: Any) -> StmtSRef | None:
        """The sref of a BlockRV, LoopRV, Block or For (``Schedule.get_sref``)."""
        if isinstance(rand_var_or_stmt, (Block, For)):
            return self._state.get_sref(rand_var_or_stmt)
        return self._sref(rand_var_or_stmt)

    def remove_rv(self, rand_var: Any) -> None:
        """Forget a random variable (``Schedule.remove_rv``)."""
        self._symbols.pop(id(rand_var), None)

    def _sref(self, rv: Any, kind: type | None = None) -> StmtSRef:
        entry = self._symbols.get(id(rv))
        if entry is None or not isinstance(entry[1], StmtSRef):
            what = type(rv).__name__
            raise err.RVExpiredError(reason=f"the {what} is not defined in this schedule")
        sref = entry[1]
        if sref.stmt is None:
            what = "block" if isinstance(rv, BlockRV) else "loop"
            raise err.RVExpiredError(reason=f"the {what} this {type(rv).__name__} refers to no "
                                     "longer exists in the IRModule")
        if kind is not None and not isinstance(sref.stmt, kind):
            error = err.NotLoopError if kind is For else err.NotBlockError
            raise error(sref.stmt, reason=f"got a {type(rv).__name__} of a "
                        f"{'block' if kind is For else 'loop'}")
        return sref

    def _block_sref(self, rv: Any) -> StmtSRef:
        return self._sref(rv, Block)

    def _loop_sref(self, rv: Any) -> StmtSRef:
        return self._sref(rv, For)

    def _new_rv(self, sref: StmtSRef | None) -> Any:
        # (the sref of a statement a primitive just put into the module: never None)
        assert sref is not None, "a primitive made a random variable of no statement"
        rv: Any = BlockRV() if sref.is_block else LoopRV()
        self._symbols[id(rv)] = (rv, sref)
        return rv

    def _new_expr_rv(self, value: int) -> Var:
        rv = Var("v", "int32")
        self._symbols[id(rv)] = (rv, int(value))
        return rv

    def _expr_value(self, expr: Any) -> int:
        """The integer an ExprRV, an int or an expression over ExprRVs evaluates to."""
        if isinstance(expr, bool):
            raise err.ExprRVNotConstError(reason=f"expected an integer, got {expr!r}")
        if isinstance(expr, int):
            return expr
        if isinstance(expr, IntImm):
            return int(expr.value)
        if isinstance(expr, Var):
            entry = self._symbols.get(id(expr))
            if entry is None or not isinstance(entry[1], int):
                raise err.ExprRVNotConstError(reason=f"{expr.name_hint!r} is not an ExprRV of "
                                              "this schedule")
            return entry[1]
        if isinstance(expr, PrimExpr):
            from ..arith import Analyzer  # pylint: disable=import-outside-toplevel
            from ..tir.stmt_functor import substitute  # pylint: disable=import-outside-toplevel
            vmap = {rv: IntImm(rv.dtype, v) for rv, v in self._symbols.values()
                    if isinstance(rv, Var) and isinstance(v, int)}
            out = Analyzer().simplify(substitute(expr, vmap))
            if isinstance(out, IntImm):
                return int(out.value)
        raise err.ExprRVNotConstError(reason=f"{expr!r} does not evaluate to a constant integer")

    # -- applying primitives -------------------------------------------------------------
    def _resolve_block_names(self, bound: inspect.BoundArguments) -> None:
        for name in _BLOCK_PARAMS:
            if isinstance(bound.arguments.get(name), str):
                bound.arguments[name] = self.get_block(bound.arguments[name])

    def _check_loop_steps(self, bound: inspect.BoundArguments) -> None:
        """LoopStepError when a block or loop argument is, encloses or is inside a loop whose
        step is not 1, before the primitive runs (the schedule unchanged)."""
        stepped = self._state.stepped_loops()
        if not stepped:
            return
        args = [sref for sref in map(self._arg_sref, _rvs(bound.arguments.values()))
                if sref is not None]
        for loop in stepped:
            for sref in args:
                if _encloses(loop, sref) or _encloses(sref, loop):
                    raise err.LoopStepError(loop.stmt, step=loop.stmt.step).rerender(
                        self._render)

    def _arg_sref(self, rv: Any) -> StmtSRef | None:
        entry = self._symbols.get(id(rv))
        sref = entry[1] if entry is not None else None
        return sref if isinstance(sref, StmtSRef) and sref.stmt is not None else None

    def _apply(self, kind: InstructionKind, fn: Callable[..., Any],
               sig: inspect.Signature, args: tuple, kwargs: dict) -> Any:
        bound = _bind(kind, sig, self, args, kwargs)
        bound.apply_defaults()
        if self._depth == 0:
            self._resolve_block_names(bound)
            if not kind.is_pure:
                self._check_loop_steps(bound)
        snap = self._state.snapshot() if not kind.is_pure else None
        symbols = dict(self._symbols)
        self._depth += 1
        self._decision = None
        try:
            result = fn(*bound.args, **bound.kwargs)
            if snap is not None and self._depth == 1:
                self._verify(kind)
        except Exception as exc:
            if snap is not None:
                self._state.restore(snap)
            self._symbols = symbols
            if isinstance(exc, err.ScheduleError):
                raise exc.rerender(self._render) from None
            raise
        finally:
            self._depth -= 1
        if self._depth == 0:
            self._record(kind, bound, result)
        return result

    def _record(self, kind: InstructionKind, bound: inspect.BoundArguments, result: Any) -> None:
        inputs, attrs = [], []
        for pname, role in kind.params:
            value = bound.arguments.get(pname)
            if role in ("input", "inputs"):
                inputs.append(list(value) if isinstance(value, (list, tuple)) else value)
            elif role == "attr":
                attrs.append(list(value) if isinstance(value, tuple) else value)
        outs: tuple = () if kind.outputs == "none" else \
            (result,) if kind.outputs == "one" else tuple(result)
        self._trace.append(Instruction(kind, tuple(inputs), tuple(attrs), outs), self._decision)

    def _verify(self, kind: InstructionKind) -> None:
        mask = self._state.debug_mask
        if not mask & 1:
            return
        from ..tir.analysis import verify_well_formed  # pylint: disable=import-outside-toplevel
        try:
            verify_well_formed(self._state.mod)
        except ValueError as exc:
            raise err.ScheduleError(fast=f"{kind.method} produced ill-formed IR: {exc}") \
                from None
        except Exception as exc:  # pylint: disable=broad-except  # IR the check cannot read
            raise err.ScheduleError(
                fast=f"{kind.method} produced ill-formed IR: the well-formedness check could not "
                f"read it ({type(exc).__name__}: {exc})") from exc


def primitive(kind_name: str, *, attrs: Sequence[str] = (), decision: str | None = None,
              pure: bool = False, outputs: str = "none",
              normalize: Callable[[Schedule, dict], None] | None = None,
              checks_own: Sequence[str] = ()) -> Callable[[Callable], Callable]:
    """Register ``fn(sch, ...)`` as the Schedule method ``fn.__name__`` and as instruction kind
    ``kind_name`` (no TVM counterpart: TVM's ``TVM_REGISTER_INST_KIND_TRAITS`` plus the
    ``Schedule`` method). Parameters named in ``attrs`` are recorded as attributes, ``decision``
    as the sampling decision, every other parameter as an input; a ``*args`` parameter is a
    positional input list. ``outputs`` is ``"one"``, ``"list"`` or ``"none"``. ``normalize(sch,
    arguments)`` may fill defaults in the bound arguments before the call (what is recorded).
    Arguments are checked against the parameters' annotations (:data:`_KIND_TESTS`) first,
    except those named in ``checks_own``, which the primitive refuses with its own error."""
    def deco(fn: Callable) -> Callable:
        sig = inspect.signature(fn)
        params = []
        for p in list(sig.parameters.values())[1:]:
            role = "inputs" if p.kind == p.VAR_POSITIONAL else "attr" if p.name in attrs \
                else "decision" if p.name == decision else "input"
            params.append((p.name, role))
        kind = register_inst_kind(InstructionKind(kind_name, fn.__name__, tuple(params), pure,
                                                  outputs))

        checks = {name: check for name, check in _kind_checks(sig).items()
                  if name not in checks_own}

        @functools.wraps(fn)
        def method(self: Schedule, *args: Any, **kwargs: Any) -> Any:
            if checks or normalize is not None:
                bound = _bind(kind, sig, self, args, kwargs)
                _check_kinds(self, kind, checks, bound.arguments)  # the arguments given
                if normalize is not None:
                    bound.apply_defaults()
                    normalize(self, bound.arguments)
                args, kwargs = bound.args[1:], bound.kwargs
            return self._apply(kind, fn, sig, args, kwargs)  # pylint: disable=protected-access
        method.__signature__ = sig  # type: ignore[attr-defined]
        setattr(Schedule, fn.__name__, method)
        return fn
    return deco


def _is_int(v: Any) -> bool:
    return (isinstance(v, numbers.Integral) and not isinstance(v, bool)) or isinstance(v, IntImm)


def _is_sequence_of(test: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, (list, tuple)) and all(test(x) for x in v)


#: a primitive parameter's annotation -> (what it accepts, in words; the test). Parameters
#: annotated otherwise (``Any``: RVs, buffers given several ways, index maps) are checked by
#: the primitive itself, and so is every ``storage_scope`` (InvalidScopeError).
_KIND_TESTS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "int": ("an integer", _is_int),
    "str": ("a string", lambda v: isinstance(v, str)),
    "bool": ("a bool", lambda v: isinstance(v, (bool, numbers.Integral))
             or type(v).__name__ == "bool_"),
    "float": ("a number", lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool)),
    "Sequence[int]": ("a list of integers", _is_sequence_of(_is_int)),
    "Sequence[float]": ("a list of numbers",
                        _is_sequence_of(lambda v: isinstance(v, numbers.Real)
                                        and not isinstance(v, bool))),
    "Sequence[Any]": ("a list", lambda v: isinstance(v, (list, tuple))),
}
_OWN_CHECKS = ("storage_scope",)
#: the parameters naming the block or loop an argument error is reported at, in order
_SUBJECTS = ("block", "block_or_loop", "target", "loop", "scope_block")


def _kind_checks(sig: inspect.Signature) -> dict[str, tuple[str, Callable[[Any], bool]]]:
    """The parameters of a primitive whose annotation :data:`_KIND_TESTS` knows (``X | None``
    also accepts ``None``)."""
    checks = {}
    for name, param in list(sig.parameters.items())[1:]:
        ann = param.annotation if isinstance(param.annotation, str) else ""
        optional = ann.endswith(" | None")
        entry = _KIND_TESTS.get(ann[:-len(" | None")] if optional else ann)
        if entry is not None and name not in _OWN_CHECKS:
            words, test = entry
            checks[name] = (f"{words} or None", lambda v, t=test: v is None or t(v)) \
                if optional else entry
    return checks


def _rvs(values: Iterable[Any]) -> Iterator[Any]:
    """The BlockRVs and LoopRVs among primitive arguments (one level of lists/tuples)."""
    for value in values:
        for v in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(v, (BlockRV, LoopRV)):
                yield v


def _encloses(outer: StmtSRef, inner: StmtSRef) -> bool:
    """Whether ``outer`` is ``inner`` or one of its ancestors."""
    node: StmtSRef | None = inner
    while node is not None:
        if node is outer:
            return True
        node = node.parent
    return False


def _bind(kind: InstructionKind, sig: inspect.Signature, sch: Schedule, args: tuple,
          kwargs: dict) -> inspect.BoundArguments:
    """``sig.bind(sch, *args, **kwargs)``; a TypeError naming the method when they do not fit."""
    try:
        return sig.bind(sch, *args, **kwargs)
    except TypeError as exc:
        raise TypeError(f"Schedule.{kind.method}: {exc}") from None


def _check_kinds(sch: Schedule, kind: InstructionKind,
                 checks: dict[str, tuple[str, Callable[[Any], bool]]],
                 arguments: dict[str, Any]) -> None:
    """InvalidArgumentError naming the block or loop and the parameter when an argument is of
    the wrong kind (a float index, a tuple where an index goes, a list key, a NaN decision...),
    before the primitive runs: the schedule is unchanged. (TVM's FFI raises a TypeError.)"""
    for name, value in arguments.items():
        check = checks.get(name)
        if check is not None and not check[1](value):
            raise err.InvalidArgumentError(
                _subject(sch, arguments),
                reason=f"{kind.method}: {name} must be {check[0]}, got {value!r}")


def _subject(sch: Schedule, arguments: dict) -> Any:
    """The block or loop statement a primitive call is about, if its argument names one."""
    for name in _SUBJECTS:
        rv = arguments.get(name)  # (a block given by name: the message names no block)
        if isinstance(rv, (BlockRV, LoopRV)):
            try:
                return sch._sref(rv).stmt  # pylint: disable=protected-access
            except err.ScheduleError:
                return None
    return None
