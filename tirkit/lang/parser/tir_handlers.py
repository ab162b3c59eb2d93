"""Statement handlers of the ``tir`` dialect (mirrors ``tvm.script.parser.tir.parser``).

Each handler turns one statement into IRBuilder calls: a ``for`` over a loop frame, ``with``
over scope frames, ``if`` on a PrimExpr into ``T.If``, assignments into buffer stores, names or
``LetStmt`` bindings, bare scope calls into concise scopes.
"""
from __future__ import annotations

from typing import Any, Sequence

from tirkit import tir
from tirkit.ir import PrimExpr

from ..ir_builder import tir_api as TB
from ..ir_builder import tir_stmts as TS
from ..ir_builder.base import IRBuilder, IRBuilderFrame
from ..ir_builder.tir_frames import BlockFrame, ForFrame, PrimFuncFrame
from .core import ParseError, Parser
from . import forward_dims
from .dispatch import register
from .evaluator import POISON, EvalError, attach_span, is_scalar_buffer
from ..tirx_let import LetAnnotation
from tirkit.ir.node import fill_missing_spans
from tirkit.tir.expr import scalable_lanes_factor
from .evaluator_ops import binary, op_name, unpack_pairs


class MetaVar:
    """``T.meta_var(value)``: a Python value bound by name without a LetStmt (``T.meta_var``)."""

    def __init__(self, value: Any) -> None:
        self.value = value


def _is_docstring(node: Any) -> bool:
    value: Any = getattr(node, "value", None)
    return type(value).__name__ == "Constant" and isinstance(value.value, str)


@register("tir", "FunctionDef")
def visit_function_def(self: Parser, node: Any) -> None:
    """``def f(A: T.Buffer(...), n: T.int32) -> ...:`` → a PrimFunc frame."""
    if self.builder.find_frame(PrimFuncFrame) is not None:
        raise ParseError(_Keyword(node, "def"), "nested function definitions are not supported "
                         "in TVMScript", code="unsupported")
    flags = _decorator_flags(self, node)
    self.s_tir = bool(flags.get("s_tir", False))
    self.check_well_formed = self.unit_check_well_formed and \
        flags.get("check_well_formed", True) is not False
    for value in self.evaluator.env.values():
        if type(value).__name__ == "TirxNamespace":
            value.s_tir = self.s_tir
    self.evaluator.scalar_buffers = self.dialect == "tirx" and not self.s_tir
    self.builder.keep_loop_steps = self.dialect == "tirx"  # TVM 0.27's For.step
    self.forward_vars = {}
    with self.table.frame():
        self.table.add("range", TS.range_)
        frame = TB.prim_func(is_private=bool(flags.get("private", False)))
        frame.s_tir = self.s_tir
        with frame:
            TB.func_name(node.name)
            _visit_params(self, node)
            if node.returns is not None:
                try:
                    TB.func_ret(_return_type(self, node.returns))
                except EvalError as err:
                    self.report(err.node, err.message, err.code, err.notes)
            body = node.body[1:] if node.body and _is_docstring(node.body[0]) else node.body
            self.visit_body(body)


class _Keyword:
    """Stands for a statement's leading keyword (``def``, ``try``) in a diagnostic."""

    def __init__(self, node: Any, keyword: str) -> None:
        span = getattr(node, "span", None)
        self.span = None if span is None else span.__class__(
            span.source_name, span.line, span.column, span.line, span.column + len(keyword),
            span.start_offset, span.start_offset + len(keyword))


def _decorator_flags(self: Parser, node: Any) -> dict[str, Any]:
    """Keyword arguments of the prim_func decorator, evaluated statically (``private``,
    ``s_tir``); errors in them are reported."""
    flags: dict[str, Any] = {}
    for deco in getattr(node, "decorator_list", []):
        for kw in getattr(deco, "keywords", []) or []:
            if kw.arg == "capture":  # host values: bound by the caller of the parser
                continue
            try:
                flags[kw.arg] = self.eval_expr(kw.value)
            except EvalError as err:
                self.report(err.node, err.message, err.code, err.notes)
    return flags


def _return_type(self: Parser, node: Any) -> Any:
    """``-> T.int32`` / ``-> T.handle`` / ``-> None``: the function's return ``Type``."""
    from tirkit.ir.type import PointerType, type_of_dtype  # pylint: disable=import-outside-toplevel

    value = self.eval_expr(node)
    if value is None:
        return type_of_dtype("void")
    if callable(value) and not isinstance(value, PrimExpr):
        value = value()
    if isinstance(value, tir.Var):
        ann = value.type_annotation
        return ann if isinstance(ann, PointerType) else type_of_dtype(value.dtype)
    return type_of_dtype(value)


def _annotation_value(self: Parser, node: Any) -> Any:
    value = self.eval_expr(node)
    if callable(value) and not isinstance(value, (tir.Buffer, PrimExpr)):
        value = value()  # T.handle, T.int32, T.Buffer proxy used bare
    return value


def _visit_params(self: Parser, node: Any) -> None:
    args = node.args
    for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
        try:
            self.eval_expr(default)  # TVMScript ignores defaults; they must still be static
        except EvalError as err:
            self.report(err.node, err.message, err.code, err.notes)
    params = list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs)
    early: dict[int, Any] = {}  # scalar params a quoted dim named, evaluated early

    def param_var(arg: Any) -> Any:
        if arg.annotation is not None:
            early[id(arg)] = _annotation_value(self, arg.annotation)
            return early[id(arg)]
        return None

    for k, a in enumerate(params):
        if a.annotation is None:
            self.report(a, f"parameter {a.arg!r} has no type annotation: use `T.handle`, "
                        "`T.int32` or `T.Buffer((n,), \"float32\")`", code="missing-annotation")
            self.table.add(a.arg, POISON)
            continue
        try:
            ann = forward_dims.resolve(self, a.annotation, params[k + 1:], param_var)
            value = early.pop(id(a)) if id(a) in early else _annotation_value(self, ann)
        except (EvalError, ValueError) as err:
            if isinstance(err, EvalError):
                self.report(err.node, err.message, err.code, err.notes)
            else:
                self.report(a.annotation, str(err))
            self.table.add(a.arg, POISON)
            continue
        value = forward_dims.claim(self, a.arg, value)
        if not isinstance(value, (tir.Var, tir.Buffer)):
            self.report(a.annotation, f"parameter {a.arg!r}: expected a Buffer or a scalar type, "
                        f"got {type(value).__name__}", code="bad-annotation")
            continue
        fill_missing_spans(value, self.span_of(a))
        self.table.add(a.arg, TB.arg(a.arg, value))


@register("tir", "For")
def visit_for(self: Parser, node: Any) -> None:
    """``for i in T.serial(...)`` / ``range`` / ``T.grid`` ... → loop frames."""
    try:
        frame = self.eval_expr(node.iter)
        if isinstance(frame, MetaVar):
            frame = frame.value
        if isinstance(frame, (tuple, list)):
            _unrolled_for(self, node, frame)
            return
        if not isinstance(frame, ForFrame):
            raise ParseError(node.iter, f"{type(frame).__name__} is not a loop range: iterate "
                             "over range(), T.serial/parallel/vectorized/unroll/thread_binding "
                             "or T.grid", code="bad-loop")
        _check_loop_arity(node, frame)
    except (EvalError, ParseError) as err:
        _report_err(self, err)
        self.loop_depth += 1
        self.recover_body([node.target], node.body)
        self.loop_depth -= 1
        return
    self.check_nesting(len(frame.vars))  # a T.grid of n extents nests n loops
    self.loop_depth += 1
    self.grid_levels += len(frame.vars) - 1
    try:
        with self.table.frame(), frame as loop_vars:
            if _has_starred(node.target) and not isinstance(loop_vars, list):
                loop_vars = [loop_vars]  # ``for *ax, in T.grid(n)``: a list of one
            self.bind(node.target, loop_vars)
            if frame.index_exprs is not None and type(node.target).__name__ == "Name":
                IRBuilder.name(node.target.id, frame.vars[0])  # the strided loop's own var
            self.visit_body(node.body)
    finally:
        self.loop_depth -= 1
        self.grid_levels -= len(frame.vars) - 1


def _has_starred(target: Any) -> bool:
    return type(target).__name__ == "Starred" or any(
        type(e).__name__ == "Starred" for e in getattr(target, "elts", ()))


def _unrolled_for(self: Parser, node: Any, values: Sequence[Any]) -> None:
    """``for k in (0, 2, 5):`` / ``for k in T.meta_var(items):`` over a Python tuple or list:
    the body is parsed once per item with ``k`` bound to it (unrolled at parse time; no loop
    in the IR). The number of items is bounded like every parse-time value."""
    from .evaluator_ops import bind_target as _bind  # pylint: disable=import-outside-toplevel

    if len(values) > _MAX_UNROLL:
        raise ParseError(node.iter, f"a parse-time loop over {len(values)} items exceeds the "
                         f"limit of {_MAX_UNROLL}", code="limit")
    for item in values:
        with self.table.frame():
            _bind(self.evaluator, node.target, item)
            self.visit_body(node.body)


_MAX_UNROLL = 4096


def _check_loop_arity(node: Any, frame: ForFrame) -> None:
    kind = type(node.target).__name__
    elts = getattr(node.target, "elts", ())
    if _has_starred(node.target):
        if len(elts) - 1 > len(frame.vars):
            raise ParseError(node.iter, f"{len(frame.vars)} extent(s) but at least "
                             f"{len(elts) - 1} loop variable(s)", code="bad-loop")
        return
    count = len(node.target.elts) if kind in ("Tuple", "List") else 1
    if count != len(frame.vars) and kind != "Name":  # one name may take the tuple (TVM)
        raise ParseError(node.iter, f"{len(frame.vars)} extent(s) but {count} loop "
                         "variable(s)", code="bad-loop")


def _report_err(self: Parser, err: Any) -> None:
    self.report(err.node, err.message, err.code, getattr(err, "notes", ()),
                getattr(err, "fixes", ()))


@register("tir", "While")
def visit_while(self: Parser, node: Any) -> None:
    """``while cond:`` → ``T.While``."""
    try:
        cond = self.eval_expr(node.test)
    except EvalError as err:
        _report_err(self, err)
        self.loop_depth += 1
        self.recover_body([], node.body)
        self.loop_depth -= 1
        return
    self.loop_depth += 1
    try:
        with self.table.frame(), TS.While(cond):
            self.visit_body(node.body)
    finally:
        self.loop_depth -= 1


@register("tir", "With")
def visit_with(self: Parser, node: Any) -> None:
    """``with T.block(...)``, ``with T.init()``, ``with T.allocate(...) as A`` ..."""
    _visit_with_items(self, node, list(node.items))


def _visit_with_items(self: Parser, node: Any, items: list[Any]) -> None:
    if not items:
        self.visit_body(node.body)
        return
    item = items[0]
    try:
        frame = self.eval_expr(item.context_expr)
        if not isinstance(frame, IRBuilderFrame):
            raise ParseError(item.context_expr, f"{type(frame).__name__} is not a scope handler: "
                             "`with` takes T.block, T.init, T.allocate, T.launch_thread...",
                             code="bad-with")
    except (EvalError, ParseError) as err:
        _report_err(self, err)
        targets = [i.optional_vars for i in items if i.optional_vars is not None]
        self.recover_body(targets, node.body)
        return
    with self.table.frame(), frame as value:
        if item.optional_vars is not None:
            self.bind(item.optional_vars, value)
        _visit_with_items(self, node, items[1:])
        if isinstance(frame, BlockFrame):
            check_block_bindings(self, frame)


@register("tir", "If")
def visit_if(self: Parser, node: Any) -> None:
    """``if`` on a PrimExpr → ``T.If``; on a Python value → only the taken branch is parsed."""
    try:
        cond = self.eval_expr(node.test)
    except EvalError as err:
        _report_err(self, err)
        self.recover_body([], list(node.body) + list(node.orelse))
        return
    if isinstance(cond, PrimExpr) and not isinstance(cond, tir.IntImm):
        with TS.If(cond):
            with TS.Then(), self.table.frame():
                self.visit_body(node.body)
            if node.orelse:
                with TS.Else(), self.table.frame():
                    self.visit_body(node.orelse)
        return
    with self.table.frame():
        self.visit_body(node.body if bool(cond) else node.orelse)


@register("tir", "Assign")
def visit_assign(self: Parser, node: Any) -> None:
    """``A[i] = v`` → BufferStore; ``x = expr`` → LetStmt / naming; ``A = T.alloc_buffer()``.
    One target only, as in TVM (``a = b = T.decl_buffer(...)`` entered the frame twice, and its
    exit then closed itself without end)."""
    if len(node.targets) != 1:
        raise ParseError(node, "Consequential assignments like 'a = b = c' are not supported.")
    value = self.evaluator.eval_operand(node.value)
    for target in node.targets:
        _assign(self, target, value, node)


def _assign(self: Parser, target: Any, value: Any, node: Any) -> None:
    kind = type(target).__name__
    if isinstance(value, MetaVar) and kind != "Name":
        value = value.value
    if kind == "Subscript":
        _store(self, target, value, node)
    elif kind == "Name":
        current = self.table.lookup(target.id)
        if ((self.evaluator.scalar_buffers and is_scalar_buffer(current))
                or id(current) in self.evaluator.scalar_cells) \
                and isinstance(value, (PrimExpr, int, float)):
            TS.buffer_store(current, value, [tir.IntImm("int32", 0)])  # tirx ``out = v``
            attach_span(self.builder.last_frame().stmts[-1], self.span_of(node))  # type: ignore[union-attr]
            return
        self.table.add(target.id, bind_assign_value(self, target, value))
        _note_iter_binding(self, target.id, value, node.value)
    elif kind in ("Tuple", "List"):
        try:
            pairs = unpack_pairs(target, value)
        except EvalError as err:
            raise ParseError(target, err.message) from None
        for t, v in pairs:
            _assign(self, t.value if type(t).__name__ == "Starred" else t, v, node)
    else:
        raise ParseError(target, f"cannot assign to a {kind}")


def _note_iter_binding(self: Parser, name: str, value: Any, value_node: Any) -> None:
    """Remember where ``vi = T.axis.spatial(8, i)`` named an iter var, for the domain check
    when its block closes."""
    block = self.builder.find_frame(BlockFrame)
    if block is not None and block.iter_vars and block.iter_vars[-1].var is value:
        self.iter_binding_nodes[id(value)] = (name, value_node)


def check_block_bindings(self: Parser, block: BlockFrame) -> None:
    """Each binding of a block without ``T.where`` must stay inside its iter var's domain over
    the enclosing loops' ranges (TVM's well-formedness check)."""
    from tirkit.arith import Analyzer  # pylint: disable=import-outside-toplevel

    if block.predicate is not None:
        return
    ana = Analyzer()
    for frame in self.builder.frames:
        if isinstance(frame, ForFrame):
            for v, dom in zip(frame.vars, frame.doms):
                ana.bind(v, dom)
        elif isinstance(frame, BlockFrame) and frame is not block:
            for outer in frame.iter_vars:  # an inner block may bind to outer iter vars
                if outer.dom is not None:
                    ana.bind(outer.var, outer.dom)
    for iv, binding in zip(block.iter_vars, block.iter_values):
        assert iv.dom is not None  # (a block iter var's domain)
        lo, ext = iv.dom.min, iv.dom.extent
        where = self.iter_binding_nodes.get(id(iv.var))
        if where is None or not isinstance(lo, tir.IntImm) or not isinstance(ext, tir.IntImm):
            continue
        bound = ana.const_int_bound(binding, simplify=False)
        if bound.min_value == bound.NEG_INF or bound.max_value == bound.POS_INF or \
                bound.min_value < lo.value or bound.max_value > lo.value + ext.value - 1:
            # not shown inside the domain as written: the bound of the simplified binding too
            # (inside, the tighter bound is inside as well, and simplifying costs the most)
            bound = ana.const_int_bound(binding)
        if bound.min_value == bound.NEG_INF or bound.max_value == bound.POS_INF:
            continue  # not provable either way: nothing to report
        if bound.min_value < lo.value or bound.max_value > lo.value + ext.value - 1:
            shown = getattr(binding, "name_hint", None) or binding
            self.warn(where[1], f"binding {str(shown)!r} of {where[0]!r} exceeds its domain "
                      f"[{lo.value}, {lo.value + ext.value})", code="bad-binding")


def bind_assign_value(self: Parser, target: Any, value: Any) -> Any:
    """How ``name = value`` binds (TVM's ``bind_assign_value``): frames open concisely, buffers
    and new vars are named, Python values stay Python, other PrimExprs become ``LetStmt``; in
    tirx (TVM 0.27) a PrimExpr or a Python number is a local scalar cell instead (a pointer or a
    string still a Bind, the LetStmt)."""
    name = target.id
    if isinstance(value, MetaVar):
        return value.value
    if isinstance(value, IRBuilderFrame):
        result = self.enter_concise(value)
        self.bind(target, result)
        return result
    claimed = forward_dims.claim(self, name, value)  # ``n = T.int32()`` after a quoted "n"
    if claimed is not value:
        self.bind(target, claimed)
        return claimed
    if isinstance(value, (tir.Buffer, tir.IterVar)) or (
            isinstance(value, tir.Var) and not self.table.exist(value)):
        self.bind(target, value)
        return value
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, tir.Var) and not self.table.exist(v) for v in value):
        for k, v in enumerate(value):  # ``vi = T.axis.remap("SS", ax)``: vi_0, vi_1
            IRBuilder.name(f"{name}_{k}", v)
            fill_missing_spans(v, self.span_of(target))
        return value
    if self.dialect == "tirx" and isinstance(value, (bool, int, float)):
        value = tir.const(value)  # TVM 0.27: a Python scalar is a constant, then a cell
    if not isinstance(value, PrimExpr):
        return value
    if self.dialect == "tirx" and not value.dtype.is_handle() \
            and not isinstance(value, tir.StringImm):
        # TVM 0.27 tirx: ``x = expr`` is a local scalar cell of the value's dtype (its
        # bind_assign_value: T.local_scalar + BufferStore), as ``x: T.int32 = expr`` is
        return _scalar_cell(self, target, value.dtype, value)
    frame = TS.LetStmt(value)
    var = self.enter_concise(frame)
    self.bind(target, var)
    return var


def _scalar_cell(self: Parser, target: Any, dtype: Any, value: Any) -> tir.Buffer:
    """tirx (TVM 0.27): the local scalar cell ``target`` names (a shape-(1,) local buffer for
    the rest of the scope, AllocBuffer in TVM 0.27) holding ``value``; its name reads and
    writes element 0."""
    buf = self.enter_concise(TS.decl_buffer((1,), dtype, scope="local"))
    self.bind(target, buf)
    self.evaluator.scalar_cells.add(id(buf))
    TS.buffer_store(buf, value, [tir.IntImm("int32", 0)])
    return buf


def _store(self: Parser, target: Any, value: Any, node: Any) -> None:
    buffer = self.evaluator.eval_base(target.value)
    if not isinstance(buffer, tir.Buffer):
        name = getattr(target.value, "id", None) or type(buffer).__name__
        raise ParseError(target.value, f"{name!r} is not a buffer: only buffer elements can be "
                         "assigned to", code="bad-store")
    index = self.eval_expr(target.slice)
    indices = list(index) if isinstance(index, (tuple, list)) else [index]  # TVM: a list too
    if len(indices) != len(buffer.shape):
        raise ParseError(target, f"buffer {buffer.name!r} has {len(buffer.shape)} dimension(s) "
                         f"but {len(indices)} index(es) are given", code="rank-mismatch")
    indices = [_slice_to_ramp(i) for i in indices]
    _check_store(buffer, value, indices, target, node)
    TS.buffer_store(buffer, value, indices)
    attach_span(self.builder.last_frame().stmts[-1], self.span_of(node))  # type: ignore[union-attr]


def _check_store(buffer: tir.Buffer, value: Any, indices: list, target: Any, node: Any) -> None:
    index_nodes = getattr(target.slice, "elts", None) or [target.slice]
    for idx, sub in zip(indices, index_nodes):
        if isinstance(idx, (PrimExpr, float)) and not isinstance(idx, int):
            t = tir.convert(idx).dtype
            if not (t.is_int() or t.is_uint()):
                raise ParseError(sub, f"a buffer index must be an integer, got {t}",
                                 code="dtype")
    value_node = getattr(node, "value", node)
    if not isinstance(value, PrimExpr):
        return
    lanes = tir.convert(indices[-1]).dtype.lanes if indices else 1
    want = buffer.dtype.with_lanes(buffer.dtype.lanes * lanes)
    if value.dtype.element_of() != buffer.dtype.element_of() and not value.dtype.is_handle() \
            and value.dtype.lanes == want.lanes:
        return  # a Python-number store or a cast the constructor reports precisely
    if value.dtype.is_handle() or value.dtype.element_of() != buffer.dtype.element_of():
        raise ParseError(value_node, f"cannot store a value of dtype {value.dtype} into buffer "
                         f"{buffer.name!r} of dtype {buffer.dtype}", code="dtype")
    if value.dtype.lanes != want.lanes:
        raise ParseError(value_node, f"the value has {value.dtype.lanes} lanes but the store to "
                         f"{buffer.name!r} writes {want.lanes}", code="dtype")


def _slice_to_ramp(index: Any) -> Any:
    if not isinstance(index, slice):
        return index
    from tirkit.arith import Analyzer  # pylint: disable=import-outside-toplevel

    start = tir.convert(index.start if index.start is not None else 0)
    step = index.step if index.step is not None else 1
    if isinstance(step, (float, tir.FloatImm)):  # (1e-400 is 0.0: found by make fuzz)
        raise ValueError(f"a slice step must be an integer, got {step}")
    if isinstance(step, (int, tir.IntImm)) and int(step) == 0:  # found by make fuzz
        raise ValueError("slice step cannot be zero")
    # TVM's buffer_store: ceil((stop - start) / step) lanes; one lane stores at ``start``
    lanes = Analyzer().simplify((tir.convert(index.stop) - start + (step - 1)) // step)
    if scalable_lanes_factor(lanes) is not None:  # A[i : i + T.vscale() * 4] (AArch64 SVE)
        return tir.Ramp(start, tir.convert(step, start.dtype), lanes)
    if not isinstance(lanes, tir.IntImm):
        raise ValueError("a vector store needs a constant-length slice")
    if lanes.value < 1:
        raise ValueError(f"the slice {index.start}:{index.stop}:{step} selects no element")
    if lanes.value == 1:
        return start
    return tir.Ramp(start, tir.convert(step, start.dtype), lanes.value)


@register("tir", "AugAssign")
def visit_aug_assign(self: Parser, node: Any) -> None:
    """``A[i] += v`` → ``A[i] = A[i] + v``."""
    if type(node.target).__name__ != "Subscript":
        raise ParseError(node.target, "augmented assignment is only supported on buffer "
                         "elements (A[i] += v)", code="unsupported")
    current = self.eval_expr(node.target)
    value = binary(op_name(node.op), current, self.eval_expr(node.value))
    _store(self, node.target, value, node)


@register("tir", "AnnAssign")
def visit_ann_assign(self: Parser, node: Any) -> None:
    """``x: T.int32 = expr`` → LetStmt of a var with that dtype."""
    if node.value is None:
        raise ParseError(node, "an annotated name needs a value: `x: T.int32 = ...`")
    ann = _annotation_value(self, node.annotation)
    explicit_let = isinstance(ann, LetAnnotation)  # tirx x: T.let[T.int32] = v: a Bind
    if explicit_let:
        ann = ann.value
    value = self.eval_expr(node.value)
    if isinstance(ann, tir.Var) and type(node.target).__name__ == "Name" and not explicit_let \
            and self.dialect == "tirx" and not ann.dtype.is_handle():
        # tirx (TVM 0.27): x: T.int32 = v is a local scalar cell, AllocBuffer + BufferStore
        _scalar_cell(self, node.target, ann.dtype, value)
        return
    if explicit_let and ann is None and type(node.target).__name__ == "Name":
        ann = TS.LetStmt(value).var  # bare ``x: T.let = v``: a Bind of the value's type
    if isinstance(ann, tir.Var) and type(node.target).__name__ == "Name":
        frame = TS.LetStmt(value, var=ann)
        var = self.enter_concise(frame)
        self.bind(node.target, var)
        return
    _assign(self, node.target, value, node)


@register("tir", "Assert")
def visit_assert(self: Parser, node: Any) -> None:
    """``assert cond, msg`` → ``T.Assert`` over the rest of the scope."""
    cond = self.eval_expr(node.test)
    msg = self.eval_expr(node.msg) if node.msg is not None else ""
    self.enter_concise(TS.Assert(cond, msg))


@register("tir", "Return")
def visit_return(self: Parser, node: Any) -> None:
    """``return v`` → ``T.evaluate(T.ret(v))``; inside a ``T.macro``, the macro's value."""
    if self.macro_returns:
        raise self.macro_returns[-1](None if node.value is None else self.eval_expr(node.value))
    if node.value is None:
        return
    value = tir.convert(self.eval_expr(node.value))
    TS.evaluate(tir.Call(value.dtype, "tir.ret", [value]))


@register("tir", "Expr")
def visit_expr_stmt(self: Parser, node: Any) -> None:
    """A bare expression: scope calls open concisely, PrimExprs become ``T.evaluate``."""
    if _is_docstring(node):
        return
    value = self.eval_expr(node.value)
    if isinstance(value, IRBuilderFrame):
        self.enter_concise(value)
    elif isinstance(value, PrimExpr):
        TS.evaluate(value)
    elif isinstance(value, (bool, int)):
        TS.evaluate(tir.const(value))
    elif isinstance(value, tir.BufferStore):  # ``A.vstore(...)`` (TVM's visit_expr_stmt)
        TS.buffer_store(value.buffer, value.value, list(value.indices), value.predicate)


@register("tir", "Pass")
def visit_pass(self: Parser, node: Any) -> None:
    """``pass`` builds nothing."""


@register("tir", "Break")
def visit_break(self: Parser, node: Any) -> None:
    """``break`` (tirx) → ``Break``."""
    if self.loop_depth == 0:
        raise ParseError(node, "'break' outside loop", code="syntax")
    TS.break_()


@register("tir", "Continue")
def visit_continue(self: Parser, node: Any) -> None:
    """``continue`` (tirx) → ``Continue``."""
    if self.loop_depth == 0:
        raise ParseError(node, "'continue' not properly in loop", code="syntax")
    TS.continue_()
