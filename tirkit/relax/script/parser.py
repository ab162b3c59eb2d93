"""The ``relax`` dialect of the TVMScript parser (mirrors ``tvm.script.parser.relax``):
handlers registered in the parser's dispatch table for ``@R.function`` bodies.

- Names used in the signature's annotations that are not defined (``n`` in
  ``x: R.Tensor((n, 4), "float32")``) become int64 symbolic dims, as do ``n = T.int64()``
  declarations in the body.
- ``v = expr`` / ``v: sinfo = expr`` bind a var (a DataflowVar inside ``with R.dataflow():``
  unless the block's closing ``R.output(...)`` names it); ``v = R.match_cast(e, sinfo)`` binds a
  MatchCast; ``return e`` gives the body's result.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from tirkit import tir
from tirkit.lang.ir_builder.base import IRBuilder, IRBuilderFrame
from tirkit.lang.parser.core import ParseError, Parser
from tirkit.lang.parser.dispatch import register
from tirkit.lang.parser.evaluator import EvalError

from .. import expr as rx
from ..struct_info import ObjectStructInfo, StructInfo, TensorStructInfo
from . import namespace as RN


class RelaxFunctionFrame(IRBuilderFrame):
    """Collects one Relax function while its body is parsed; on exit hands it to the enclosing
    module frame, or makes it the builder's result."""

    def __init__(self, name: str, flags: dict[str, Any]) -> None:
        super().__init__()
        self.name, self.flags = name, flags
        self.params: list[rx.Var] = []
        self.ret: StructInfo = ObjectStructInfo()
        self.attrs: dict[str, Any] = {}
        self.blocks: list[rx.BindingBlock] = []
        self.bindings: list[Any] = []
        self.dataflow_outputs: set[str] | None = None  # inside a dataflow block
        self.result: rx.Expr | None = None
        self.saw_return = False  # a return statement was seen (its value may have failed)

    def close_block(self, dataflow: bool = False) -> None:
        """End the current binding block."""
        if self.bindings:
            cls = rx.DataflowBlock if dataflow else rx.BindingBlock
            self.blocks.append(cls(self.bindings))
            self.bindings = []

    def exit(self) -> None:
        self.close_block()
        if self.result is None:
            if self.saw_return:  # the return value's error is already reported
                raise EvalError(None, "", code="poisoned")
            raise RuntimeError(f"Relax function {self.name!r} has no return statement")
        attrs = dict(self.attrs)
        if not self.flags.get("private", False):
            attrs.setdefault("global_symbol", self.name)
        ret = self.ret
        if isinstance(ret, ObjectStructInfo) and self.result.struct_info_ is not None:
            ret = self.result.struct_info_
        func = rx.Function(self.params, rx.SeqExpr(self.blocks, self.result), ret,
                           bool(self.flags.get("pure", True)), attrs, span=self.span)
        from tirkit.lang.ir_builder.ir_frames import IRModuleFrame  # pylint: disable=import-outside-toplevel

        builder = IRBuilder.current()
        module = builder.find_frame(IRModuleFrame)
        if module is not None:
            module.add_function(self.name, func)
        else:
            builder.set_result(func)


def _frame(self: Parser) -> RelaxFunctionFrame:
    frame = self.builder.find_frame(RelaxFunctionFrame)
    if frame is None:
        raise RuntimeError("a Relax statement must be inside an @R.function")
    return frame


# ------------------------------------------------------------------------------ functions
@register("relax", "FunctionDef")
def visit_function_def(self: Parser, node: Any) -> None:
    """``@R.function def f(x: R.Tensor((n, 4), "float32")) -> R.Tensor(...):``."""
    flags = _decorator_flags(self, node)
    with self.table.frame():
        _declare_symbolic(self, node)
        frame = RelaxFunctionFrame(node.name, flags)
        with frame:
            for arg in node.args.args:
                if arg.annotation is None:
                    raise ParseError(arg, f"parameter {arg.arg!r} of a Relax function needs a "
                                     "struct info annotation such as R.Tensor((n,), \"float32\")")
                sinfo = _sinfo(self, arg.annotation)
                var = rx.Var(arg.arg, sinfo, span=self.span_of(arg))
                frame.params.append(var)
                self.table.add(arg.arg, var)
            if node.returns is not None:
                frame.ret = _sinfo(self, node.returns)
            body = node.body[1:] if node.body and _is_docstring(node.body[0]) else node.body
            self.visit_body(body)


def _decorator_flags(self: Parser, node: Any) -> dict[str, Any]:
    for deco in getattr(node, "decorator_list", []):
        try:
            value = self.eval_expr(deco)
        except EvalError:
            continue
        flags = getattr(value, "relax_function_flags", None)
        if flags is not None:
            return dict(flags)
    return {}


def _is_docstring(stmt: Any) -> bool:
    value: Any = getattr(stmt, "value", None)
    return type(stmt).__name__ == "Expr" and type(value).__name__ == "Constant" and \
        isinstance(value.value, str)


def _names_in(node: Any) -> list[Any]:
    out: list[Any] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif dataclasses.is_dataclass(n) and not isinstance(n, type):
            if type(n).__name__ == "Name":
                out.append(n)
                continue
            stack.extend(getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "span")
    return out


def _declare_symbolic(self: Parser, node: Any) -> None:
    """Bind the undefined names of the signature's annotations, and the names the body declares
    with ``n = T.int64()``, to int64 symbolic vars (TVM's relax parser does the same)."""
    annotations = [a.annotation for a in node.args.args] + [node.returns]
    for ann in annotations:
        for name in _names_in(ann):
            if self.evaluator.table.lookup(name.id) is _MISSING() and \
                    name.id not in self.evaluator.env and name.id not in _BUILTIN_NAMES:
                self.table.add(name.id, tir.Var(name.id, "int64"))


_BUILTIN_NAMES = {"int", "float", "str", "None", "True", "False"}


def _MISSING() -> Any:  # pylint: disable=invalid-name
    from tirkit.lang.parser.var_table import MISSING  # pylint: disable=import-outside-toplevel

    return MISSING


def _sinfo(self: Parser, node: Any) -> StructInfo:
    value = self.eval_expr(node)
    if isinstance(value, StructInfo):
        return value
    if value is RN.Tensor:
        return TensorStructInfo(None, "void")
    if value is RN.Shape:
        return RN.Shape()
    raise ParseError(node, f"expected a Relax struct info annotation (R.Tensor, R.Shape, "
                     f"R.Tuple, R.Prim, R.Object), got {type(value).__name__}")


# ------------------------------------------------------------------------------- bindings
@register("relax", "Assign")
def visit_assign(self: Parser, node: Any) -> None:
    """``v = value``: a symbolic var declaration, ``cls = Module``, or a binding."""
    if len(node.targets) != 1 or type(node.targets[0]).__name__ != "Name":
        raise ParseError(node, "a Relax binding assigns exactly one name")
    target = node.targets[0]
    value = self.eval_expr(node.value)
    if isinstance(value, tir.Var):  # n = T.int64()
        existing = self.table.lookup(target.id)
        if not isinstance(existing, tir.Var):
            self.table.add(target.id, tir.Var(target.id, value.dtype))
        return
    if not isinstance(value, (rx.Expr, RN.MatchCastMarker)):
        self.table.add(target.id, value)  # cls = Module, helper constants
        return
    _bind(self, target, value, None)


@register("relax", "AnnAssign")
def visit_ann_assign(self: Parser, node: Any) -> None:
    """``v: R.Tensor(...) = value``."""
    if node.value is None or type(node.target).__name__ != "Name":
        raise ParseError(node, "a Relax binding needs a name and a value")
    sinfo = _sinfo(self, node.annotation)
    _bind(self, node.target, self.eval_expr(node.value), sinfo)


def _bind(self: Parser, target: Any, value: Any, sinfo: StructInfo | None) -> None:
    frame = _frame(self)
    dataflow = frame.dataflow_outputs is not None
    local = dataflow and target.id not in (frame.dataflow_outputs or ())
    var_cls = rx.DataflowVar if local else rx.Var
    span = self.span_of(target)
    if isinstance(value, RN.MatchCastMarker):
        expr = _normalize(self, frame, value.value)
        var = var_cls(target.id, value.struct_info, span=span)
        frame.bindings.append(rx.MatchCast(var, expr, value.struct_info, span=self.span_of(target)))
    else:
        expr = _normalize(self, frame, value)
        inferred = expr.struct_info_
        _check_annotation(target, sinfo, inferred)
        var = var_cls(target.id, sinfo or inferred or ObjectStructInfo(), span=span)
        frame.bindings.append(rx.VarBinding(var, expr, span=span))
    self.table.add(target.id, var)


def _normalize(self: Parser, frame: RelaxFunctionFrame, value: Any) -> rx.Expr:
    if not isinstance(value, rx.Expr):
        raise EvalError(None, f"expected a Relax expression, got {type(value).__name__}")
    if isinstance(value, rx.Call) and value.struct_info_ is None:
        from ..block_builder import _infer_call  # pylint: disable=import-outside-toplevel
        from tirkit.ir.module import IRModule  # pylint: disable=import-outside-toplevel

        object.__setattr__(value, "struct_info_", _infer_call(IRModule({}), value))
    del self, frame
    return value


def _check_annotation(target: Any, sinfo: StructInfo | None, inferred: Any) -> None:
    if sinfo is None or not isinstance(sinfo, TensorStructInfo) or \
            not isinstance(inferred, TensorStructInfo):
        return
    if -1 not in (sinfo.ndim, inferred.ndim) and sinfo.ndim != inferred.ndim:
        raise ParseError(target, f"{target.id!r} is annotated with rank {sinfo.ndim} but the "
                         f"value has rank {inferred.ndim}")
    if not sinfo.dtype.is_void() and not inferred.dtype.is_void() and \
            sinfo.dtype != inferred.dtype:
        raise ParseError(target, f"{target.id!r} is annotated {sinfo.dtype} but the value is "
                         f"{inferred.dtype}")


# ------------------------------------------------------------------------ blocks, return
@register("relax", "With")
def visit_with(self: Parser, node: Any) -> None:
    """``with R.dataflow():`` — a dataflow block ending with ``R.output(...)``."""
    if len(node.items) != 1 or not isinstance(self.eval_expr(node.items[0].context_expr),
                                              RN.DataflowMarker):
        raise ParseError(node, "only `with R.dataflow():` is supported in a Relax function")
    frame = _frame(self)
    if frame.dataflow_outputs is not None:
        raise ParseError(node, "dataflow blocks cannot be nested")
    frame.close_block()
    frame.dataflow_outputs = _output_names(node.body)
    try:
        self.visit_body(node.body)
    finally:
        frame.close_block(dataflow=True)
        frame.dataflow_outputs = None


def _output_names(body: list[Any]) -> set[str]:
    last = body[-1] if body else None
    call: Any = getattr(last, "value", None)
    if type(last).__name__ != "Expr" or type(call).__name__ != "Call":
        return set()
    return {a.id for a in call.args if type(a).__name__ == "Name"}


@register("relax", "Expr")
def visit_expr(self: Parser, node: Any) -> None:
    """``R.output(...)``, ``R.func_attr({...})``, docstrings."""
    value = self.eval_expr(node.value)
    frame = _frame(self)
    if isinstance(value, RN.OutputMarker):
        if frame.dataflow_outputs is None:
            raise ParseError(node, "R.output is only valid at the end of a dataflow block")
        return
    if isinstance(value, RN.FuncAttrMarker):
        frame.attrs.update(value.attrs)
        return
    if isinstance(value, str):
        return
    raise ParseError(node, "a Relax expression statement must be R.output(...) or "
                     "R.func_attr(...); bind other values to a name")


@register("relax", "Return")
def visit_return(self: Parser, node: Any) -> None:
    """``return value`` — the function's result."""
    frame = _frame(self)
    frame.saw_return = True
    value = self.eval_expr(node.value)
    if isinstance(value, (list, tuple)):
        value = rx.Tuple(list(value))
    frame.result = _normalize(self, frame, value)


@register("relax", "Pass")
def visit_pass(self: Parser, node: Any) -> None:
    """``pass``."""
    del self, node
