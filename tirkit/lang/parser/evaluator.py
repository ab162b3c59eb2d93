"""Evaluation of parse-time expressions (mirrors ``tvm.script.parser.core.evaluator``).

One evaluator serves both modes (DESIGN.md §3.5):

- **static** (every tool): only literals, arithmetic, tuples/lists/dicts, names bound while
  parsing, the ``T``/``I`` namespaces, a few pure builtins and names the file binds to such values.
  Calling anything else (a user function, ``__import__``...) is an :class:`EvalError` saying the
  value is not known statically. Dunder attributes are never read.
- **python** (decorator mode, when Python itself runs ``@T.prim_func``): names also resolve in
  the function's globals and closure, and any callable may be called.

Operators on PrimExprs follow TVMScript: node constructors (``T.Add`` ...) with Python numbers
taking the other operand's dtype, no folding, ``/`` → ``Div``, ``//`` → ``FloorDiv``,
``%`` → ``FloorMod``; on plain Python values, Python's own operators.
"""
from __future__ import annotations

import builtins
from typing import Any, Callable, Mapping

from tirkit import tir
from tirkit.ir import GlobalVar, Node, PrimExpr
from tirkit.ir.expr import IntImm
from tirkit.ir.node import SET_SPAN
from tirkit.ir.span import Span

from ..ir_builder.base import ScriptError
from ..ir_builder.tir_stmts import BUFFER_METHODS
from ..limits import MAX_SEQUENCE, MAX_WORK, LimitExceeded, check_budget, check_value
from .var_table import MISSING, VarTable

Handler = Callable[["Evaluator", Any], Any]
_HANDLERS: dict[str, Handler] = {}

SAFE_BUILTINS: dict[str, Any] = {
    name: getattr(builtins, name) for name in (
        "abs", "all", "any", "bool", "dict", "enumerate", "float", "int", "len", "list", "max",
        "min", "range", "reversed", "round", "sorted", "str", "sum", "tuple", "zip", "slice",
        "isinstance", "print")
}


def _bounded_range(*args: Any) -> range:
    """``range``, refusing more than ``MAX_SEQUENCE`` elements (the evaluator would iterate
    them)."""
    out = range(*args)
    if len(out) > MAX_SEQUENCE:
        raise LimitExceeded(f"range of {len(out)} elements; the static evaluator iterates at "
                            f"most {MAX_SEQUENCE}")
    return out


_bounded_range.__name__ = "range"
SAFE_BUILTINS["range"] = _bounded_range
_SAFE_IDS = frozenset(id(v) for v in SAFE_BUILTINS.values())  # is_trusted's identity test


class _Poison:
    """Bound to names whose definition failed: uses of them are not reported again."""

    def __repr__(self) -> str:
        return "<error>"


POISON: Any = _Poison()


class NotStatic:
    """What a module-level name bound by an import, a def or a non-static assignment stands for
    in static mode: using it is an error saying its value is not known statically."""

    def __repr__(self) -> str:
        return "<not known statically>"


class Captured(NotStatic):
    """A value a kernel generator's ``@T.prim_func`` captures from its enclosing function that
    static tools cannot make symbolic (a dtype, a shape tuple): using it gives one
    information-level note, not an error."""

    def __init__(self, name: str, host: bool = False) -> None:
        self.name, self.host = name, host  # host: named in ``@T.prim_func(capture=[...])``

    def __repr__(self) -> str:
        return f"<the caller's {self.name}>"

    def message(self) -> str:
        """The information note for a use of the value."""
        if self.host:
            return (f"depends on the captured host value `{self.name}`: checked when Python "
                    "runs the decorator")
        return f"depends on the caller's `{self.name}`: checked when the generator runs"


class TypeVarName:
    """A module-level ``n = TypeVar("n")``: TVM 0.27 declares a symbolic shape var that is not
    ``int32`` that way (``def f(A: T.Buffer((n, m), "float16"))``); each unit naming it gets one
    ``int64`` var of that name (TVM's other index dtype)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"TypeVar({self.name!r})"


class EvalError(Exception):
    """A parse-time expression could not be evaluated; carries the syntax ``node`` to blame."""

    def __init__(self, node: Any, message: str, notes: tuple[str, ...] = (),
                 code: str = "eval") -> None:
        super().__init__(message)
        self.node, self.message, self.notes, self.code = node, message, notes, code


#: what :func:`~tirkit.lang.limits.check_value` may refuse; other values pass it unchanged
_CHECKED = (int, str, bytes, list, tuple, dict, set)


def register(*type_names: str) -> Callable[[Handler], Handler]:
    """Register an evaluation handler for syntax node types (by class name)."""
    def deco(fn: Handler) -> Handler:
        for name in type_names:
            _HANDLERS[name] = fn
        return fn
    return deco


class Evaluator:
    """Evaluates expression syntax nodes (TVM's ``ExprEvaluator``).

    Args:
        table: the parser's scoped names (searched first).
        env: further names: namespaces by alias, module constants (static) or globals.
        static: static mode (see module doc).
        span_of: maps a syntax node to its :class:`Span` (attached to IR built from it).
    """

    def __init__(self, table: VarTable, env: Mapping[str, Any], *, static: bool,
                 span_of: Callable[[Any], Span | None]) -> None:
        self.table, self.env, self.static, self.span_of = table, env, static, span_of
        # hooks the parser sets: called on every resolved name / attribute of a namespace
        self.on_name: Callable[[Any, Any], None] | None = None
        self.on_attribute: Callable[[Any, Any, str], None] | None = None
        # calls whose arguments may use loop vars inside a block (T.axis.*, T.where)
        self.binding_funcs: set[Any] = set()
        self.binding_depth = 0
        self.work = 0  # expression nodes evaluated, bounded by limits.MAX_WORK
        # tirx without blocks: a shape-(1,) buffer named as a value is its element 0 (TVM 0.27)
        self.scalar_buffers = False
        # tirx: ids of the local cells ``x: T.int32 = v`` made; their name is their element 0
        # in every function, s_tir ones included (TVM 0.27's AllocBuffer + BufferStore)
        self.scalar_cells: set[int] = set()
        self.type_vars: dict[str, Any] = {}  # the unit's var of each module TypeVar by name

    def eval(self, node: Any) -> Any:
        """Evaluate ``node``; IR built from it gets its span.

        Raises:
            EvalError: for anything that cannot be evaluated, naming the sub-expression.
        """
        handler = _HANDLERS.get(type(node).__name__)
        if handler is None:
            raise EvalError(node, f"{type(node).__name__} expressions are not supported here")
        self.work += 1
        if not self.work & 1023:
            check_budget()
        if self.work > MAX_WORK:
            raise EvalError(node, f"the unit evaluates more than {MAX_WORK} expressions; "
                            "tirkit stops here", code="limit")
        try:
            value = handler(self, node)
            if isinstance(value, _CHECKED):  # the common IR values skip the call
                value = check_value(value)
        except EvalError:
            raise
        except (LimitExceeded, OverflowError, MemoryError, RecursionError) as err:
            raise EvalError(node, _limit_message(err), code="limit") from err
        except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, RuntimeError,
                AttributeError, ArithmeticError) as err:
            raise EvalError(node, str(err) or type(err).__name__) from err
        attach_span(value, self.span_of(node))
        return value

    def eval_base(self, node: Any) -> Any:
        """Evaluate the base of ``A[i]`` / ``A.data`` / a store target: a name is looked up as
        it is bound (a shape-(1,) buffer stays a buffer, see ``scalar_buffers``)."""
        if type(node).__name__ == "Name":
            return self.lookup(node, node.id)
        return self.eval(node)

    def lookup(self, node: Any, name: str) -> Any:
        """Resolve a name: parser scopes, then the environment, then safe builtins."""
        value = self.table.lookup(name)
        if value is POISON:
            raise EvalError(node, "", code="poisoned")
        if value is not MISSING:
            if self.on_name is not None:
                self.on_name(node, value)
            return value
        if name in self.env:
            value = self.env[name]
            if isinstance(value, TypeVarName):
                return self.type_vars.setdefault(name, tir.Var(value.name, "int64"))
            if isinstance(value, Captured):
                raise EvalError(node, value.message(), code="captured")
            if isinstance(value, NotStatic):
                raise EvalError(node, f"the value of {name!r} is not known statically: tirkit "
                                "does not run user code when it reads a file", code="not-static")
            return value
        if name in SAFE_BUILTINS:
            return SAFE_BUILTINS[name]
        if not self.static and hasattr(builtins, name):
            return getattr(builtins, name)
        import difflib  # pylint: disable=import-outside-toplevel

        candidates = self.table.names() + [n for n in self.env if not n.startswith("_")]
        close = difflib.get_close_matches(name, candidates, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise EvalError(node, f"name {name!r} is not defined{hint}", code="undefined-name")

    def eval_operand(self, node: Any) -> Any:
        """Evaluate an operand of an operator, a ``T.xxx``/method call or an assignment's value:
        there, a subscript whose slices have both bounds and no step is a vector load
        (``A[0:4]`` → ``A[T.Ramp(0, 1, 4)]``), elsewhere a buffer region (TVM's evaluator adds
        the step the same way)."""
        if type(node).__name__ != "Subscript":
            return self.eval(node)
        sl = node.slice
        elts = list(sl.elts) if type(sl).__name__ == "Tuple" else [sl]
        if not any(_bounded_slice(e) for e in elts):
            return self.eval(node)
        value = self.eval_base(node.value)
        if not isinstance(value, tir.Buffer):
            return self.eval(node)
        index = [slice(self.eval(e.lower), self.eval(e.upper), 1) if _bounded_slice(e)
                 else self.eval(e) for e in elts]
        try:
            result = value[tuple(index)]
        except (TypeError, ValueError, IndexError) as err:
            raise EvalError(node, str(err) or type(err).__name__) from err
        attach_span(result, self.span_of(node))
        return result

    def check_callable(self, node: Any, fn: Any) -> None:
        """In static mode, refuse to call anything but trusted callables."""
        if self.static and not is_trusted(fn):
            what = getattr(fn, "__name__", type(fn).__name__)
            raise EvalError(node, f"calling {what!r} is not allowed in static mode: its value is "
                            "not known without running user code", code="not-static")


def _limit_message(err: BaseException) -> str:
    if isinstance(err, OverflowError):
        return f"value out of range: {err.args[-1] if err.args else err}"
    if isinstance(err, MemoryError):
        return "out of memory evaluating this expression"
    if isinstance(err, RecursionError):
        return "expression nested too deeply"
    return str(err)


def _bounded_slice(node: Any) -> bool:
    return (type(node).__name__ == "Slice" and node.step is None and node.lower is not None
            and node.upper is not None)


def attach_span(value: Any, span: Span | None) -> None:
    """Give a freshly built IR node the span of the text it came from (only if it has none)."""
    if span is not None and isinstance(value, Node) and value.span is None:
        SET_SPAN(value, span)


def is_trusted(fn: Any) -> bool:
    """Whether static mode may call ``fn``: tirkit's own functions/classes and bound methods of
    tirkit objects, lambdas the evaluator made, and the safe builtins."""
    if getattr(fn, "__tirkit_lambda__", False):
        return True
    if id(fn) in _SAFE_IDS:  # one of SAFE_BUILTINS' values (they live as long as the module)
        return True
    owner = getattr(fn, "__self__", None)
    if owner is not None and not isinstance(owner, type(builtins)):
        return _from_tirkit(type(owner)) or _from_tirkit(owner)
    return _from_tirkit(fn)


def _from_tirkit(obj: Any) -> bool:
    module = getattr(obj, "__module__", None) or ""
    return module == "tirkit" or module.startswith("tirkit.")


# ------------------------------------------------------------------------------ leaves
@register("Constant")
def _constant(ev: Evaluator, node: Any) -> Any:
    return node.value


@register("Name")
def _name(ev: Evaluator, node: Any) -> Any:
    value = ev.lookup(node, node.id)
    if (ev.scalar_buffers and is_scalar_buffer(value)) or id(value) in ev.scalar_cells:
        return value[0]  # tirx: ``out`` is ``out[0]`` (TVM 0.27 reads the buffer as a scalar)
    return value


def is_scalar_buffer(value: Any) -> bool:
    """A buffer of shape ``(1,)``: in a tirx function without blocks, its name alone reads and
    writes element 0."""
    return isinstance(value, tir.Buffer) and len(value.shape) == 1 \
        and isinstance(value.shape[0], tir.IntImm) and value.shape[0].value == 1


@register("JoinedStr")
def _joined_str(ev: Evaluator, node: Any) -> Any:
    """An f-string (TVM evaluates it with Python): its fields may name values known statically
    (str, int, float, bool); any other field is not static (``f"{a.b}"``, a call)."""
    import ast  # pylint: disable=import-outside-toplevel

    tree = ast.parse(node.source, mode="eval").body
    return "".join(_fstring_part(ev, node, part) for part in getattr(tree, "values", [tree]))


def _fstring_part(ev: Evaluator, node: Any, part: Any) -> str:
    import ast  # pylint: disable=import-outside-toplevel

    if isinstance(part, ast.Constant):
        return str(part.value)
    if not isinstance(part, ast.FormattedValue) or not isinstance(part.value, ast.Name):
        raise EvalError(node, "an f-string field other than a name is not known statically: "
                        "tirkit does not run user code when it reads a file", code="not-static")
    value = ev.lookup(node, part.value.id)
    if not isinstance(value, (str, int, float)):
        raise EvalError(node, f"an f-string formats '{part.value.id}', which is a "
                        f"{type(value).__name__}, not a Python value known statically")
    if part.conversion != -1:
        convert: dict[str, Callable[[Any], str]] = {"r": repr, "s": str, "a": ascii}
        value = convert[chr(part.conversion)](value)
    spec = "" if part.format_spec is None else _joined_spec(ev, node, part.format_spec)
    return format(value, spec)


def _joined_spec(ev: Evaluator, node: Any, spec: Any) -> str:
    return "".join(_fstring_part(ev, node, p) for p in spec.values)


@register("Attribute")
def _attribute(ev: Evaluator, node: Any) -> Any:
    value = ev.eval_base(node.value)
    if node.attr.startswith("__"):
        raise EvalError(node, f"attribute {node.attr!r} cannot be read", code="not-static")
    if ev.on_attribute is not None:
        ev.on_attribute(node, value, node.attr)
    if isinstance(value, tir.Buffer) and node.attr in BUFFER_METHODS:
        method = BUFFER_METHODS[node.attr]
        return lambda *args, **kwargs: method(value, *args, **kwargs)  # a tirkit callable
    try:
        return getattr(value, node.attr)
    except AttributeError as err:
        if getattr(value, "__tirkit_exact_errors__", False):
            raise EvalError(node, str(err), code="unknown-name") from None
        raise _attribute_error(node, value) from None


def dotted_name(node: Any) -> str | None:
    """``"T.axis.spatial"`` for a Name/Attribute chain, else ``None``."""
    kind = type(node).__name__
    if kind == "Name":
        return node.id
    if kind == "Attribute":
        base = dotted_name(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _attribute_error(node: Any, value: Any) -> EvalError:
    import difflib  # pylint: disable=import-outside-toplevel

    options = [o for o in dir(value) if not o.startswith("_")]
    explicit = getattr(value, "__tirkit_suggest__", {}).get(node.attr)
    close = [explicit] if explicit else difflib.get_close_matches(node.attr, options, n=1)
    if _is_namespace(value):
        full = dotted_name(node) or node.attr
        base = full.rsplit(".", 1)[0]
        hint = f"; did you mean `{base}.{close[0]}`?" if close else ""
        return EvalError(node, f"`{full}` is not a TVMScript name{hint}", code="unknown-name")
    owner = getattr(value, "__name__", type(value).__name__)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return EvalError(node, f"{owner} has no attribute {node.attr!r}{hint}", code="unknown-name")


def _is_namespace(value: Any) -> bool:
    import types  # pylint: disable=import-outside-toplevel

    if isinstance(value, types.ModuleType):
        return value.__name__.startswith("tirkit.")
    return isinstance(value, type) and _from_tirkit(value) or \
        type(value).__name__ == "TirxNamespace"


@register("Tuple")
def _tuple(ev: Evaluator, node: Any) -> Any:
    return tuple(_elements(ev, node.elts))


@register("List")
def _list(ev: Evaluator, node: Any) -> Any:
    return _elements(ev, node.elts)


@register("Set")
def _set(ev: Evaluator, node: Any) -> Any:
    return set(_elements(ev, node.elts))


def _elements(ev: Evaluator, elts: Any) -> list[Any]:
    out: list[Any] = []
    for e in elts:
        if type(e).__name__ == "Starred":
            value = ev.eval(e.value)
            if isinstance(value, tir.SizeVar) and type(e.value).__name__ == "Name" and \
                    ev.table.lookup(e.value.id) is MISSING:  # a generator's captured size
                raise EvalError(e, f"cannot unpack '{e.value.id}': its length is not known "
                                "statically")
            out.extend(star_items(value))
        else:
            out.append(ev.eval(e))
    return out


def star_items(value: Any) -> Any:
    """What ``*value`` spreads: a lone PrimExpr counts as one item, so rank-polymorphic code
    works at rank 1, where ``T.grid(n)``/``T.axis.remap("S", ...)`` give one var.

    Raises:
        LimitExceeded: an iterable other than a list, tuple or range gives more than
            ``MAX_SEQUENCE`` items (the unit's time budget is checked as they come).
    """
    if isinstance(value, PrimExpr):
        return (value,)
    if isinstance(value, (list, tuple, range)):
        return value
    out: list[Any] = []
    for item in value:
        if len(out) % 4096 == 0:
            check_budget()
            if len(out) >= MAX_SEQUENCE:
                raise LimitExceeded(f"more than {MAX_SEQUENCE} items to unpack with '*'")
        out.append(item)
    return out


@register("Dict")
def _dict(ev: Evaluator, node: Any) -> Any:
    out: dict[Any, Any] = {}
    for k, v in zip(node.keys, node.values):
        if k is None:
            out.update(ev.eval(v))
        else:
            out[ev.eval(k)] = ev.eval(v)
    return out


@register("Slice")
def _slice(ev: Evaluator, node: Any) -> Any:
    def opt(n: Any) -> Any:
        return None if n is None else ev.eval(n)
    return slice(opt(node.lower), opt(node.upper), opt(node.step))


@register("Subscript")
def _subscript(ev: Evaluator, node: Any) -> Any:
    value = ev.eval_base(node.value)
    if isinstance(value, PrimExpr):
        name = dotted_name(node.value) or "this expression"
        raise EvalError(node.value, f"{name!r} is not a buffer", code="type")
    index = ev.eval(node.slice)
    item = value[index]
    if type(item) is IntImm and isinstance(value, (tuple, list)):
        # ``A.strides[0]``: a constant of its own, with the span of this text (the buffer's
        # own constant carries the declaration's; tirfmt prints the user's spelling from it)
        return IntImm(item.dtype, item.value)
    return item


@register("Call")
def _call(ev: Evaluator, node: Any) -> Any:
    fn = _callee(ev, node)
    binding = fn in ev.binding_funcs
    ev.binding_depth += binding
    try:
        return _call_with(ev, node, fn)
    finally:
        ev.binding_depth -= binding


_REGION_CALLS = frozenset({"reads", "writes", "match_buffer", "realize"})


def _call_with(ev: Evaluator, node: Any, fn: Any) -> Any:
    args: list[Any] = []
    attr = getattr(node.func, "attr", None)
    operand = ev.eval if attr is None or attr in _REGION_CALLS else ev.eval_operand
    for a in node.args:
        if type(a).__name__ == "Starred":
            args.extend(star_items(ev.eval(a.value)))
        else:
            args.append(operand(a))
    kwargs: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            kwargs.update(ev.eval(kw.value))
        else:
            kwargs[kw.arg] = ev.eval(kw.value)
    if isinstance(fn, GlobalVar):  # cls.f(...) inside an IRModule: a cross-function call
        return tir.Call("int32", fn, args)
    ev.check_callable(node, fn)
    if not callable(fn):
        what = dotted_name(node.func)
        raise EvalError(node, f"{what!r} is not callable" if what
                        else f"{type(fn).__name__} object is not callable", code="type")
    try:
        return fn(*args, **kwargs)
    except ScriptError as err:
        raise EvalError(_arg_node(node, err.arg, err.item), str(err), code=err.code) from err
    except TypeError as err:
        raise _call_type_error(node, fn, err) from err
    except ValueError as err:
        raise EvalError(_dtype_arg_node(node, str(err)), str(err), code="bad-argument") from err


def _dtype_arg_node(node: Any, message: str) -> Any:
    """For "unknown dtype 'x'", the string literal argument spelling ``x``; else the call."""
    import re  # pylint: disable=import-outside-toplevel

    m = re.match(r"unknown dtype '(.*?)'", message)
    if m:
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            if type(arg).__name__ == "Constant" and arg.value == m.group(1):
                return arg
    return node


def _callee(ev: Evaluator, node: Any) -> Any:
    try:
        return ev.eval(node.func)
    except EvalError as err:
        plain = type(node.func).__name__ == "Name" and err.code == "undefined-name"
        if ev.static and (err.code == "not-static" or plain):
            raise EvalError(node, "this call's value is not known statically: tirkit does not run "
                            "user code when it reads a file (run the file with Python to use "
                            "host helpers)", code="not-static") from err
        raise


def _arg_node(node: Any, arg: Any, item: int | None) -> Any:
    target = node
    index, name = arg if isinstance(arg, tuple) else (arg, arg)
    if isinstance(index, int) and index < len(node.args):
        target = node.args[index]
    elif isinstance(name, str):
        target = next((kw.value for kw in node.keywords if kw.arg == name), node)
    if item is not None and type(target).__name__ in ("List", "Tuple") and \
            item < len(target.elts):
        target = target.elts[item]
    return target


def _call_type_error(node: Any, fn: Any, err: TypeError) -> EvalError:
    import difflib  # pylint: disable=import-outside-toplevel
    import inspect  # pylint: disable=import-outside-toplevel
    import re  # pylint: disable=import-outside-toplevel

    text = str(err)
    name = dotted_name(node.func) or getattr(fn, "__name__", "function")
    m = re.search(r"unexpected keyword argument '(\w+)'", text)
    if m:
        kw = next((k for k in node.keywords if k.arg == m.group(1)), None)
        try:
            params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            params = []
        close = difflib.get_close_matches(m.group(1), params, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        target = _keyword_name_node(kw) if kw is not None else node
        return EvalError(target, f"{name}() got an unexpected keyword argument "
                         f"{m.group(1)!r}{hint}", code="bad-argument")
    text = re.sub(r"^[\w.]+\(\)", f"{name}()", text)
    text = re.sub(r"missing (\d+) required positional argument", r"missing \1 required argument",
                  text)
    return EvalError(node, text, code="bad-argument")


class _KeywordName:
    """The span of a keyword argument's name only (``dtyp`` of ``dtyp="float32"``)."""

    def __init__(self, kw: Any) -> None:
        span = getattr(kw, "span", None)
        self.span = None if span is None else span.__class__(
            span.source_name, span.line, span.column, span.line, span.column + len(kw.arg),
            span.start_offset, span.start_offset + len(kw.arg))


def _keyword_name_node(kw: Any) -> Any:
    return _KeywordName(kw) if getattr(kw, "span", None) is not None else kw


@register("Lambda")
def _lambda(ev: Evaluator, node: Any) -> Any:
    params = [a.arg for a in node.args.args]

    def fn(*values: Any) -> Any:
        if len(values) != len(params):
            raise TypeError(f"lambda takes {len(params)} argument(s), got {len(values)}")
        with ev.table.frame():
            for name, value in zip(params, values):
                ev.table.add(name, value)
            return ev.eval(node.body)

    fn.__tirkit_lambda__ = True  # type: ignore[attr-defined]
    fn.__tirkit_params__ = tuple(params)  # type: ignore[attr-defined]
    fn.__name__ = "<lambda>"
    return fn
