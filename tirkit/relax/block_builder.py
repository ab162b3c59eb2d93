"""The BlockBuilder: builds Relax functions binding by binding (mirrors
``tvm.relax.BlockBuilder``)::

    bb = BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            lv = bb.emit(relax.op.add(x, x))
            gv = bb.emit_output(bb.emit_te(topi.nn.relu, lv))
        bb.emit_func_output(gv)
    mod = bb.get()

Emitting normalizes: nested calls are bound to fresh vars first (A-normal form) and every
binding's var carries the inferred struct info. ``emit_te`` stages a TE function (seed 004): Relax
tensors of known shape become ``te.placeholder``\\ s, ``te.create_prim_func`` makes a PrimFunc
that is added to the module, and a ``call_tir`` to it is emitted — or ``call_tir_dyn`` when the
PrimFunc takes symbolic ints that no buffer shape defines.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from tirkit import tir
from tirkit.ir.expr import GlobalVar
from tirkit.ir.module import IRModule

from .expr import (BindingBlock, Call, Constant, DataflowBlock, DataflowVar, Expr, ExternFunc,
                   Function, MatchCast, PrimValue, SeqExpr, ShapeExpr, StringImm, Tuple,
                   TupleGetItem, Var, VarBinding)
from .struct_info import ObjectStructInfo, StructInfo, TensorStructInfo, TupleStructInfo

_LEAVES = (Var, Constant, ShapeExpr, PrimValue, StringImm, ExternFunc, GlobalVar)


class BlockBuilderError(ValueError):
    """A BlockBuilder used out of order (emit outside a function, output outside dataflow...)."""


class _FuncFrame:
    def __init__(self, name: str, params: Sequence[Var] | None, attrs: dict, pure: bool,
                 private: bool) -> None:
        self.name, self.params, self.attrs = name, list(params or []), dict(attrs)
        self.pure, self.private = pure, private
        self.blocks: list[BindingBlock] = []
        self.bindings: list[Any] = []
        self.dataflow = False
        self.outputs: list[Var] = []
        self.done = False


class BlockBuilder:
    """Builds an IRModule of Relax functions (and the PrimFuncs ``emit_te`` creates).

    Raises:
        BlockBuilderError: for calls out of order; RelaxOpError from shape inference.
    """

    def __init__(self, mod: IRModule | None = None) -> None:
        self._mod = IRModule(dict(mod.functions) if mod is not None else {},
                             dict(mod.attrs) if mod is not None else {})
        self._frame: _FuncFrame | None = None
        self._names: dict[str, int] = {}

    # ------------------------------------------------------------------------ frames
    @contextmanager
    def function(self, name: str, params: Sequence[Var] | Var | None = None,
                 attrs: dict[str, Any] | None = None, pure: bool = True,
                 private: bool = False) -> Iterator[None]:
        """Open the function ``name`` (``BlockBuilder.function``); close it with
        :meth:`emit_func_output` inside the ``with``."""
        if self._frame is not None:
            raise BlockBuilderError("BlockBuilder.function: functions cannot be nested")
        if isinstance(params, Var):
            params = [params]
        self._frame = _FuncFrame(name, params, attrs or {}, pure, private)
        try:
            yield
            if not self._frame.done:
                raise BlockBuilderError(f"function {name!r} was not finished with "
                                        "emit_func_output")
        finally:
            self._frame = None

    @contextmanager
    def dataflow(self) -> Iterator[None]:
        """Open a dataflow block (``BlockBuilder.dataflow``): emitted vars are DataflowVars;
        :meth:`emit_output` makes the ones visible after the block."""
        frame = self._need_frame("dataflow")
        if frame.dataflow:
            raise BlockBuilderError("dataflow blocks cannot be nested")
        self._close_block()
        frame.dataflow = True
        try:
            yield
        finally:
            frame.dataflow = False
        if frame.bindings:
            frame.blocks.append(DataflowBlock(frame.bindings))
            frame.bindings = []

    def _need_frame(self, what: str) -> _FuncFrame:
        if self._frame is None:
            raise BlockBuilderError(f"BlockBuilder.{what} must be called inside "
                                    "`with bb.function(...)`")
        return self._frame

    def _close_block(self) -> None:
        frame = self._need_frame("emit")
        if frame.bindings:
            frame.blocks.append(BindingBlock(frame.bindings))
            frame.bindings = []

    # ------------------------------------------------------------------------- naming
    def get_unique_name(self, prefix: str) -> str:
        """A function name not used in the module yet (``BlockBuilder.get_unique_name``)."""
        name, k = prefix, self._names.get(prefix, 0)
        taken = {g.name_hint for g in self._mod.functions}
        while name in taken or (k and name == prefix):
            k += 1
            name = f"{prefix}{k}"
        self._names[prefix] = k
        return name

    # -------------------------------------------------------------------------- emit
    def emit(self, expr: Expr, name_hint: str = "") -> Var:
        """Bind ``expr`` (normalized) to a new var and return it (``BlockBuilder.emit``)."""
        frame = self._need_frame("emit")
        value = self.normalize(expr)
        sinfo = value.struct_info_ or ObjectStructInfo()
        var_cls = DataflowVar if frame.dataflow else Var
        var = var_cls(name_hint or ("lv" if frame.dataflow else "gv"), sinfo)
        frame.bindings.append(VarBinding(var, value))
        return var

    def emit_output(self, output: Expr, name_hint: str = "") -> Var:
        """Bind ``output`` to a var visible after the dataflow block
        (``BlockBuilder.emit_output``)."""
        frame = self._need_frame("emit_output")
        if not frame.dataflow:
            raise BlockBuilderError("emit_output is only valid inside a dataflow block")
        value = self.normalize(output)
        var = Var(name_hint or "gv", value.struct_info_ or ObjectStructInfo())
        frame.bindings.append(VarBinding(var, value))
        frame.outputs.append(var)
        return var

    def match_cast(self, value: Expr, struct_info: StructInfo, name_hint: str = "") -> Var:
        """Bind ``value`` cast to ``struct_info`` (checked at run time), defining the symbolic
        dims it introduces (``BlockBuilder.match_cast``)."""
        frame = self._need_frame("match_cast")
        value = self.normalize(value)
        var_cls = DataflowVar if frame.dataflow else Var
        var = var_cls(name_hint or "lv", struct_info)
        frame.bindings.append(MatchCast(var, value, struct_info))
        return var

    def emit_func_output(self, output: Expr | Sequence[Expr],
                         params: Sequence[Var] | Var | None = None) -> GlobalVar:
        """Finish the current function returning ``output`` (a tuple for a sequence) and add it
        to the module (``BlockBuilder.emit_func_output``). Returns its GlobalVar."""
        frame = self._need_frame("emit_func_output")
        if frame.dataflow:
            raise BlockBuilderError("emit_func_output must be called outside the dataflow block")
        if params is not None:
            if frame.params:
                raise BlockBuilderError("params were already given to BlockBuilder.function")
            frame.params = [params] if isinstance(params, Var) else list(params)
        body = self.normalize(output if isinstance(output, Expr) else Tuple(list(output)))
        if not isinstance(body, _LEAVES):
            body = self.emit(body)
        self._close_block()
        seq = SeqExpr(frame.blocks, body)
        attrs = dict(frame.attrs)
        if not frame.private:
            attrs.setdefault("global_symbol", frame.name)
        func = Function(frame.params, seq, body.struct_info_ or ObjectStructInfo(), frame.pure,
                        attrs)
        frame.done = True
        return self.add_func(func, frame.name)

    # ----------------------------------------------------------------------- normalize
    def normalize(self, expr: Expr) -> Expr:
        """``expr`` in A-normal form with struct info (``BlockBuilder.normalize``): nested calls
        are emitted as bindings first (so this must run inside a function)."""
        if isinstance(expr, _LEAVES):
            return expr
        if isinstance(expr, Tuple):
            return Tuple([self._leaf(f) for f in expr.fields])
        if isinstance(expr, TupleGetItem):
            return TupleGetItem(self._leaf(expr.tuple_value), expr.index)
        if isinstance(expr, Call):
            args = tuple(self._arg(a) for a in expr.args)
            call = expr if args == expr.args else Call(expr.op, args, expr.attrs,
                                                       expr.sinfo_args)
            if call.struct_info_ is None:
                object.__setattr__(call, "struct_info_", _infer_call(self._mod, call))
            return call
        return expr

    def _arg(self, arg: Expr) -> Expr:
        if isinstance(arg, Tuple):
            return Tuple([self._leaf(f) for f in arg.fields])
        return self._leaf(arg)

    def _leaf(self, expr: Expr) -> Expr:
        expr = self.normalize(expr)
        if isinstance(expr, _LEAVES) or self._frame is None:
            return expr
        return self.emit(expr)

    # ------------------------------------------------------------------------ module
    def add_func(self, func: Any, func_name: str) -> GlobalVar:
        """Add ``func`` (Relax Function or PrimFunc) as ``func_name`` (``BlockBuilder.add_func``);
        an identical function already in the module is reused."""
        from tirkit.ir.structural import structural_equal  # pylint: disable=import-outside-toplevel

        for gv, existing in self._mod.functions.items():
            if isinstance(func, tir.PrimFunc) and isinstance(existing, tir.PrimFunc) and \
                    structural_equal(_strip_symbol(existing), _strip_symbol(func)):
                return gv
        try:
            gv = self._mod.get_global_var(func_name)
        except KeyError:
            gv = GlobalVar(func_name)
        self._mod.functions[gv] = func
        return gv

    def update_func(self, gv: GlobalVar, func: Any) -> None:
        """Replace the function of ``gv`` (``BlockBuilder.update_func``)."""
        self._mod.functions[gv] = func

    def get(self) -> IRModule:
        """The module built so far (``BlockBuilder.get``)."""
        return IRModule(dict(self._mod.functions), dict(self._mod.attrs))

    # ----------------------------------------------------------------------- emit_te
    def call_te(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Call:
        """The ``call_tir`` (or ``call_tir_dyn``) that ``func`` staged through TE becomes, not yet
        emitted (``BlockBuilder.call_te``). ``primfunc_name_hint`` names the PrimFunc."""
        from .te_bridge import call_te  # pylint: disable=import-outside-toplevel

        return call_te(self, func, *args, **kwargs)

    def emit_te(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Var:
        """Stage ``func`` (a TE / topi function) on Relax tensors and emit the call
        (``BlockBuilder.emit_te``; seed 004 D0-D2). Returns the bound var."""
        return self.emit(self.call_te(func, *args, **kwargs))


def _strip_symbol(func: Any) -> Any:
    attrs = {k: v for k, v in func.attrs.items() if k != "global_symbol"}
    return func.with_changes(attrs=attrs)


def _infer_call(mod: IRModule, call: Call) -> StructInfo:
    from .op.registry import infer_struct_info  # pylint: disable=import-outside-toplevel
    from tirkit.ir.op import Op  # pylint: disable=import-outside-toplevel

    if isinstance(call.op, Op):
        return infer_struct_info(call)
    if isinstance(call.op, GlobalVar) and call.op in mod.functions:
        func = mod.functions[call.op]
        if isinstance(func, Function):
            return func.ret_struct_info
    sinfo = getattr(call.op, "struct_info_", None)
    if sinfo is not None and hasattr(sinfo, "ret"):
        return sinfo.ret
    return ObjectStructInfo()


def tensor_sinfo(shape: Sequence[Any] | None, dtype: str = "float32") -> TensorStructInfo:
    """``R.Tensor(shape, dtype)`` as struct info."""
    return TensorStructInfo(tuple(shape) if shape is not None else None, dtype)


def tuple_sinfo(fields: Sequence[StructInfo]) -> TupleStructInfo:
    """``R.Tuple(...)`` as struct info."""
    return TupleStructInfo(list(fields))
