"""Building and running Relax modules (mirrors ``tvm.relax.build`` / ``relax.Executable`` /
``relax.VirtualMachine``).

``relax.build(mod)`` legalizes high-level operators into ``call_tir`` calls of PrimFuncs
(:func:`~tirkit.relax.transform.LegalizeOps`), compiles every PrimFunc with
:func:`tirkit.compiler.build`, and returns an :class:`Executable`. ``VirtualMachine(exe)["main"]``
is a Python callable taking NumPy arrays: at entry it checks every argument against the
parameter's struct info (rank, dtype, static dims) and binds the symbolic dims (``n``) from the
arguments' shapes; ``call_tir`` allocates the outputs with the shapes those bindings give and
calls the compiled kernel in place.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence, cast

import numpy as np

from tirkit import tir
from tirkit.ir.expr import GlobalVar
from tirkit.ir.module import IRModule
from tirkit.ir.op import Op

from . import expr as rx
from . import struct_info as si

#: Packed functions ``call_dps_packed`` can call, by name: ``fn(*inputs, *outputs)``.
PACKED_FUNCS: dict[str, Callable[..., Any]] = {}


class VMError(ValueError):
    """A Relax function called with arguments its struct info rejects, or a run-time check
    (``match_cast``) that fails; the message names the parameter or binding."""


# -------------------------------------------------------------------- PrimExpr evaluation
_EVAL: dict[type, Callable[[Any, dict[int, int]], int]] = {
    tir.IntImm: lambda e, env: e.value,
    tir.Add: lambda e, env: _ev(e.a, env) + _ev(e.b, env),
    tir.Sub: lambda e, env: _ev(e.a, env) - _ev(e.b, env),
    tir.Mul: lambda e, env: _ev(e.a, env) * _ev(e.b, env),
    tir.FloorDiv: lambda e, env: _ev(e.a, env) // _ev(e.b, env),
    tir.FloorMod: lambda e, env: _ev(e.a, env) % _ev(e.b, env),
    tir.Div: lambda e, env: int(_ev(e.a, env) / _ev(e.b, env)),
    tir.Min: lambda e, env: min(_ev(e.a, env), _ev(e.b, env)),
    tir.Max: lambda e, env: max(_ev(e.a, env), _ev(e.b, env)),
    tir.Cast: lambda e, env: _ev(e.value, env),
}


def _ev(expr: Any, env: dict[int, int]) -> int:
    if isinstance(expr, int):
        return expr
    if isinstance(expr, tir.Var):
        try:
            return env[id(expr)]
        except KeyError:
            raise VMError(f"symbolic variable {expr.name_hint!r} is not bound at this point")
    fn = _EVAL.get(type(expr))
    if fn is None:
        raise VMError(f"cannot evaluate {type(expr).__name__} in a shape")
    return fn(expr, env)


def eval_shape(dims: Sequence[Any], env: dict[int, int]) -> tuple[int, ...]:
    """Concrete shape of symbolic ``dims`` under the bindings ``env`` (var id -> int)."""
    return tuple(_ev(d, env) for d in dims)


# ------------------------------------------------------------------------ struct info checks
def match_sinfo(value: Any, sinfo: si.StructInfo, env: dict[int, int], what: str,
                later: list | None = None) -> None:
    """Check ``value`` against ``sinfo``, binding symbolic dims seen first here into ``env``.
    Dims that are expressions (``2 * floordiv(m, 2)``) are checked at once, or appended to
    ``later`` (checked by :func:`check_later` once every parameter has bound its vars).

    Raises:
        VMError: naming ``what`` (the parameter or binding) and the mismatch.
    """
    own = later is None
    later = [] if later is None else later
    _match(value, sinfo, env, what, later)
    if own:
        check_later(later, env)


def check_later(later: list, env: dict[int, int]) -> None:
    """Check the deferred expression dims ``(what, k, size, dim)``.

    Raises:
        VMError: naming the parameter, the dimension and the expected value.
    """
    for what, k, size, dim in later:
        want = _ev(dim, env)
        if want != size:
            expected = str(want) if isinstance(dim, tir.IntImm) else f"{dim} = {want}"
            raise VMError(f"{what}: dimension {k} is {size}, expected {expected}")


def _match(value: Any, sinfo: si.StructInfo, env: dict[int, int], what: str, later: list) -> None:
    if isinstance(sinfo, si.TensorStructInfo):
        _match_tensor(value, sinfo, env, what, later)
    elif isinstance(sinfo, si.TupleStructInfo):
        if not isinstance(value, tuple) or len(value) != len(sinfo.fields):
            raise VMError(f"{what}: expected a tuple of {len(sinfo.fields)} values, got "
                          f"{type(value).__name__}")
        for k, (v, s) in enumerate(zip(value, sinfo.fields)):
            _match(v, s, env, f"{what}[{k}]", later)
    elif isinstance(sinfo, si.ShapeStructInfo) and sinfo.values is not None:
        if len(tuple(value)) != len(sinfo.values):
            raise VMError(f"{what}: expected a shape of {len(sinfo.values)} values, got "
                          f"{tuple(value)}")
        _match_dims(tuple(value), sinfo.values, env, what, later)
    elif isinstance(sinfo, si.PrimStructInfo) and sinfo.value is not None:
        _match_dims((int(value),), (sinfo.value,), env, what, later)


def _match_tensor(value: Any, sinfo: si.TensorStructInfo, env: dict[int, int], what: str,
                  later: list) -> None:
    if not isinstance(value, np.ndarray):
        raise VMError(f"{what}: expected a tensor (NumPy array), got {type(value).__name__}")
    if sinfo.ndim != -1 and value.ndim != sinfo.ndim:
        raise VMError(f"{what}: expected rank {sinfo.ndim}, got an array of rank {value.ndim} "
                      f"(shape {value.shape})")
    if not sinfo.dtype.is_void() and str(value.dtype) != str(sinfo.dtype):
        raise VMError(f"{what}: expected dtype {sinfo.dtype}, got {value.dtype}")
    if sinfo.shape is not None:
        _match_dims(value.shape, sinfo.shape, env, what, later)


def _match_dims(shape: Sequence[int], dims: Sequence[Any], env: dict[int, int], what: str,
                later: list) -> None:
    for k, (size, dim) in enumerate(zip(shape, dims)):
        if isinstance(dim, tir.Var):
            bound = env.get(id(dim))
            if bound is None:
                env[id(dim)] = int(size)
            elif bound != size:
                raise VMError(f"{what}: dimension {k} is {size}, but symbolic dim "
                              f"{dim.name_hint!r} is already bound to {bound}")
        else:
            later.append((what, k, size, dim))


# ---------------------------------------------------------------------------- executable
class Executable:
    """A built Relax module (``relax.Executable``): its Relax functions and the compiled
    PrimFuncs (a :class:`tirkit.compiler` runtime Module)."""

    def __init__(self, mod: IRModule, kernels: Any) -> None:
        self.mod = mod
        self.kernels = kernels

    def function_names(self) -> list[str]:
        """Names of the Relax functions."""
        return sorted(g.name_hint for g, f in self.mod.functions.items()
                      if isinstance(f, rx.Function))


def build(mod: IRModule, target: str = "llvm", opt_level: int = 2,
          fuse: bool = True) -> Executable:
    """Run the graph pipeline (LegalizeOps, and FuseOps/FuseTIR unless ``fuse`` is False) and
    compile every PrimFunc (``tvm.relax.build``).

    Raises:
        RelaxOpError: for an operator without legalization; compiler errors from the PrimFuncs.
    """
    from tirkit.compiler import build as build_tir  # pylint: disable=import-outside-toplevel

    from .pipeline import prim_funcs, run_graph_pipeline  # pylint: disable=import-outside-toplevel

    mod = run_graph_pipeline(mod, fuse)
    prims = prim_funcs(mod, fuse=False)
    kernels = build_tir(prims, target, opt_level=opt_level) if prims.functions else None
    return Executable(mod, kernels)


class VirtualMachine:
    """Runs an :class:`Executable` (``relax.VirtualMachine``): ``vm["main"](*arrays)``.

    Arguments are NumPy arrays (tuples for tuple parameters, ints for shape/prim values);
    results are NumPy arrays (tuples of them for tuple results).
    """

    def __init__(self, exe: Executable, device: Any = None) -> None:
        del device
        self.exe = exe

    def __getitem__(self, name: str) -> Callable[..., Any]:
        gv = self.exe.mod.get_global_var(name)
        func = self.exe.mod.functions[gv]
        if not isinstance(func, rx.Function):
            raise KeyError(f"{name!r} is not a Relax function")
        return lambda *args: self.invoke(func, name, args)

    def invoke(self, func: rx.Function, name: str, args: Sequence[Any]) -> Any:
        """Call ``func`` on ``args`` (checks struct info at entry)."""
        if len(args) != len(func.params):
            raise VMError(f"{name}: expected {len(func.params)} arguments, got {len(args)}")
        env: dict[int, int] = {}
        frame: dict[int, Any] = {}
        later: list = []
        for param, arg in zip(func.params, args):
            arg = np.asarray(arg) if isinstance(param.struct_info_, si.TensorStructInfo) and \
                hasattr(arg, "__array__") and not isinstance(arg, np.ndarray) else arg
            match_sinfo(arg, cast(si.StructInfo, param.struct_info_), env,
                        f"{name}: parameter {param.name_hint!r}",
                        later)
            frame[id(param)] = arg
        check_later(later, env)
        body = cast(rx.SeqExpr, func.body)  # (a normalized function's body)
        for block in body.blocks:
            for binding in block.bindings:
                value = self._eval(binding.value, frame, env)
                if isinstance(binding, rx.MatchCast):
                    match_sinfo(value, binding.struct_info, env,
                                f"{name}: match_cast to {binding.var.name_hint!r}")
                frame[id(binding.var)] = value
        return self._eval(body.body, frame, env)

    # ------------------------------------------------------------------------ evaluation
    def _eval(self, e: Any, frame: dict[int, Any], env: dict[int, int]) -> Any:
        if isinstance(e, rx.Var):
            return frame[id(e)]
        handler = _EXPR_EVAL.get(type(e))
        if handler is None:
            raise VMError(f"the VM cannot evaluate {type(e).__name__}")
        return handler(self, e, frame, env)

    def _call(self, c: rx.Call, frame: dict[int, Any], env: dict[int, int]) -> Any:
        if isinstance(c.op, Op):
            fn = _OP_EVAL.get(c.op.name)
            if fn is None:
                raise VMError(f"operator {c.op.name!r} was not legalized (run LegalizeOps)")
            return fn(self, c, frame, env)
        if isinstance(c.op, GlobalVar):
            func = self.exe.mod.functions[c.op]
            args = [self._eval(a, frame, env) for a in c.args]
            return self.invoke(cast(rx.Function, func), c.op.name_hint, args)
        raise VMError(f"cannot call {c.op!r}")

    def _dps(self, c: rx.Call, frame: dict[int, Any], env: dict[int, int]) -> Any:
        inputs = [self._eval(a, frame, env) for a in cast(rx.Tuple, c.args[1]).fields]
        sinfo = c.sinfo_args[0]
        outs_sinfo: Sequence[Any] = sinfo.fields if isinstance(sinfo, si.TupleStructInfo) \
            else (sinfo,)  # TensorStructInfos
        outs = [np.empty(eval_shape(s.shape, env), dtype=str(s.dtype)) for s in outs_sinfo]
        ints = list(eval_shape(cast(rx.ShapeExpr, c.args[2]).values, env)) \
            if len(c.args) > 2 else []
        callee: Any = c.args[0]  # an ExternFunc or a GlobalVar
        if isinstance(callee, rx.ExternFunc):
            fn = PACKED_FUNCS.get(callee.global_symbol)
            if fn is None:
                raise VMError(f"packed function {callee.global_symbol!r} is not registered in "
                              "tirkit.relax.vm.PACKED_FUNCS")
        else:
            fn = self.exe.kernels[callee.name_hint]
        fn(*inputs, *outs, *ints)
        return outs[0] if len(outs) == 1 else tuple(outs)


_EXPR_EVAL: dict[type, Callable[..., Any]] = {
    rx.Constant: lambda vm, e, fr, env: e.data,
    rx.ShapeExpr: lambda vm, e, fr, env: eval_shape(e.values, env),
    rx.PrimValue: lambda vm, e, fr, env: _ev(e.value, env),
    rx.StringImm: lambda vm, e, fr, env: e.value,
    rx.Tuple: lambda vm, e, fr, env: tuple(vm._eval(f, fr, env) for f in e.fields),
    rx.TupleGetItem: lambda vm, e, fr, env: vm._eval(e.tuple_value, fr, env)[e.index],
    rx.Call: lambda vm, e, fr, env: vm._call(e, fr, env),
}
_OP_EVAL: dict[str, Callable[..., Any]] = {
    "relax.call_tir": VirtualMachine._dps,
    "relax.call_tir_dyn": VirtualMachine._dps,
    "relax.call_dps_packed": VirtualMachine._dps,
}
