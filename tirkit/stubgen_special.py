"""Hand-written stub templates for the ``T``/``I`` names whose runtime signature cannot say their
TVMScript type (used by :mod:`tirkit.stubgen`; no TVM counterpart).

``T.grid(m, n)`` binds a tuple of two vars, ``T.axis.remap("SSR", ...)`` three, dtype
constructors give a ``Var`` without argument and an expression with one, decorators turn functions
into ``PrimFunc``/classes into ``IRModule``. ``{doc}`` in a template is replaced by the runtime
object's docstring.
"""
from __future__ import annotations

import itertools

from tirkit.lang.ir_builder.tir_dtypes import DTYPE_FUNCS

#: the largest ``T.grid`` arity and ``T.axis.remap`` kind string typed with an exact tuple
MAX_ARITY = 8

DTYPE_NAMES = frozenset(DTYPE_FUNCS) | {"bool", "boolean", "handle", "ptr"}


def dtype_stub(name: str, doc: str) -> str:
    """A dtype constructor as a variable of a callable type: ``T.int32()`` -> ``Var``,
    ``T.int32(e)`` -> an expression. A variable (not a function) so that ``n: T.int32`` is an
    invalid type form of the kind the documented configuration silences, which the mypy plugin
    then reads as ``PrimExpr | int``. ``doc`` is the unindented stub docstring ('' for none)."""
    ctor = "HandleConstructor" if name in ("handle", "ptr") else "DTypeConstructor"
    return f"{name}: {ctor}\n{doc.rstrip()}\n" if doc else f"{name}: {ctor}\n"


def _grid(tirx: bool = False) -> str:
    """``T.grid``'s overloads; ``tirx``: TVM 0.27's, whose extents may be ``(start, extent)``
    pairs and which takes ``dtype=``."""
    ext = "ExprLike | tuple[ExprLike, ExprLike]" if tirx else "ExprLike"
    kw = ", dtype: str | None = None" if tirx else ""
    lines = []
    for n in range(1, MAX_ARITY + 1):
        params = ", ".join(f"e{i}: {ext}" for i in range(n))
        ret = "Var" if n == 1 else f"tuple[{', '.join(['Var'] * n)}]"
        body = "\n{doc}" if n == 1 else " ..."
        fixed = kw.replace(", ", ", *, ", 1)
        lines.append(f"@overload\ndef grid({params}, /{fixed}) -> ForFrame[{ret}]:{body}")
    lines.append(f"@overload\ndef grid(*extents: {ext}{kw}) -> ForFrame[tuple[Var, ...]]: ...")
    return "\n".join(lines) + "\n"


def _remap() -> str:
    out = []
    for n in range(1, MAX_ARITY + 1):
        kinds = ", ".join(f'"{"".join(k)}"' for k in itertools.product("SR", repeat=n))
        ret = "Var" if n == 1 else f"tuple[{', '.join(['Var'] * n)}]"
        out.append(f"    @overload\n    @staticmethod\n    def remap(kinds: Literal[{kinds}], "
                   f"bindings: Sequence[ExprLike], dtype: str | None = None) -> {ret}: ...\n")
    out.append("    @overload\n    @staticmethod\n    def remap(kinds: str, bindings: "
               "Sequence[ExprLike], dtype: str | None = None) -> Any:\n"
               '        """Declare one block iter var per character of ``kinds`` (``S`` spatial,'
               " ``R`` reduce),\n        each over the domain of the loop var it is bound to "
               "(``T.axis.remap``); one var,\n        or a tuple of as many vars as ``kinds`` has "
               'characters."""\n')
    return "".join(out)


def _axis_kind(name: str, what: str) -> str:
    return (f"    @staticmethod\n    def {name}(dom: DomainLike, binding: ExprLike, "
            f"dtype: str | None = None) -> Var:\n"
            f'        """{what} block iter var over ``dom`` bound to ``binding`` '
            f'(``T.axis.{name}``)."""\n')


_AXIS = ("class axis:\n{doc}"
         + _axis_kind("spatial", "A data-parallel") + _axis_kind("S", "A data-parallel")
         + _axis_kind("reduce", "A reduction") + _axis_kind("R", "A reduction")
         + _axis_kind("scan", "An ordered (scan)") + _axis_kind("opaque", "An opaque")
         + _remap())

_PRIM_FUNC = '''\
@overload
def prim_func(func: Callable[..., Any], /) -> PrimFunc:
{doc}@overload
def prim_func(*, private: builtins.bool = False, s_tir: builtins.bool = False,
              check_well_formed: builtins.bool = True,
              capture: Sequence[Any] | dict[str, Any] | None = None
              ) -> Callable[[Callable[..., Any]], PrimFunc]: ...
'''

_LET = '''\
@overload
def let(v: Var, value: ExprLike, body: None = None) -> VarFrame:
{doc}@overload
def let(v: Var, value: ExprLike, body: ExprLike) -> PrimExpr: ...
'''

_META_VAR = '''\
def meta_var(value: _V) -> _V:
    """``T.meta_var(value)``: ``value`` bound to a Python name at parse time, without a ``LetStmt``
    (``T.meta_var``); the name stands for the value itself.
    """
'''

#: return types the runtime annotations leave as ``Any``
RETURNS = {"min": "PrimExpr", "max": "PrimExpr", "fabs": "PrimExpr", "cast": "PrimExpr",
           "ceildiv": "PrimExpr", "ramp": "PrimExpr", "broadcast": "PrimExpr", "Let": "PrimExpr",
           "sblock": "Frame", "truncdiv": "PrimExpr", "ret": "NoReturn"}

#: ``T`` names with a template instead of their runtime signature
SPECIAL = {"grid": _grid(), "axis": _AXIS, "prim_func": _PRIM_FUNC, "let": _LET,
           "meta_var": _META_VAR}
#: the tirx namespace's own special stubs (its names in :data:`tirkit.lang.tirx.TIRX_NAMES`)
TIRX_SPECIAL = {"grid": _grid(tirx=True)}

_IR_MODULE = '''\
@overload
def ir_module(cls: type, /) -> IRModule:
{doc}@overload
def ir_module(*, check_well_formed: bool = True) -> Callable[[type], IRModule]: ...
'''

#: ``I`` names with a template
IR_SPECIAL = {"ir_module": _IR_MODULE}

TVM_INIT = '''\
"""``tvm``, as far as the tvm-stubs distribution types it: only ``tvm.script`` (this stub
package is partial; any other attribute is ``Any``)."""
from typing import Any

from . import script as script

def __getattr__(name: str) -> Any: ...
'''

SCRIPT_INIT = '''\
"""``tvm.script``: the TVMScript namespaces ``ir`` (``I``), ``tir`` and ``tirx`` (``T``)."""
from typing import Any

from . import ir as ir, tir as tir, tirx as tirx
from .ir import ir_module as ir_module

def __getattr__(name: str) -> Any: ...
'''
