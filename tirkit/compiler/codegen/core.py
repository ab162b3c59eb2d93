"""The LLVM code generator's state and dispatch (mirrors ``CodeGenLLVM`` / ``CodeGenCPU`` of TVM's
``src/target/llvm/codegen_llvm.cc`` and ``codegen_cpu.cc``).

One :class:`CodeGenLLVM` builds one llvmlite ``ir.Module``. Translation rules live in registration
tables, one per node kind, filled by the sibling modules:

- :data:`EXPR_RULES`: expression class -> ``rule(cg, expr) -> ir.Value`` (``@register(tir.Add)``);
- :data:`STMT_RULES`: statement class -> ``rule(cg, stmt) -> None`` (``@register(tir.For)``);
- :data:`CALL_RULES`: op name -> ``rule(cg, call) -> ir.Value`` (``@register_call("tir.ret")``);
- :data:`ATTR_RULES`: ``AttrStmt`` key -> ``rule(cg, attr_stmt) -> None`` (``@register_attr(
  "compute_scope")``); a key without a rule translates the body alone.

A class without a rule falls back to the rule of its nearest base class; none gives a
:class:`CodegenError` naming the node.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, TypeVar

from llvmlite import ir

from ...ir.dtype import DataType
from ...ir.expr import PrimExpr
from ...tir.expr import Var
from ...tir.stmt import Stmt
from .ir_values import StringGlobal, new_block
from .types import I32, PTR, VOID, CodegenError, Module, ir_const

__all__ = ["CodeGenLLVM", "FunctionState", "EXPR_RULES", "STMT_RULES", "CALL_RULES", "ATTR_RULES",
           "register", "register_call", "register_attr", "rule_registrar"]

Rule = Callable[["CodeGenLLVM", Any], Any]
_R = TypeVar("_R")  # the rule type of a table (a subclass's tables take the subclass)
_PTR_ARG = [PTR]
EXPR_RULES: dict[type, Rule] = {}
STMT_RULES: dict[type, Rule] = {}
CALL_RULES: dict[str, Rule] = {}
ATTR_RULES: dict[str, Rule] = {}


def register(*classes: type) -> Callable[[Rule], Rule]:
    """Register ``rule`` as the translation of the given expression or statement classes."""
    def deco(rule: Rule) -> Rule:
        for cls in classes:
            table = STMT_RULES if issubclass(cls, Stmt) else EXPR_RULES
            table[cls] = rule
        return rule
    return deco


def rule_registrar(table: dict[Any, _R], what: str) -> Callable[..., Callable[[_R], _R]]:
    """A decorator factory filling ``table``: ``@reg(key, ...)`` registers the decorated rule
    under each key (``what`` names the keys in the factory's docstring)."""
    def reg(*keys: Any) -> Callable[[_R], _R]:
        def deco(rule: _R) -> _R:
            for key in keys:
                table[key] = rule
            return rule
        return deco
    reg.__doc__ = f"Register ``rule`` as the translation of {what}."
    return reg


register_call = rule_registrar(CALL_RULES, 'calls to the named ops (``"tir.ret"``)')
register_attr = rule_registrar(ATTR_RULES, "``AttrStmt`` nodes with the given keys")


def _lookup(table: dict[type, Rule], cls: type) -> Rule | None:
    for base in cls.__mro__:
        rule = table.get(base)
        if rule is not None:
            if base is not cls:
                table[cls] = rule
            return rule
    return None


class _Binding:
    """``with cg.bind(var, value):`` (a class: a generator-based context manager costs three
    times as much, and every LetStmt and loop makes one)."""

    __slots__ = ("cg", "var", "value", "old")

    def __init__(self, cg: "CodeGenLLVM", var: Var, value: ir.Value) -> None:
        self.cg, self.var, self.value, self.old = cg, var, value, None

    def __enter__(self) -> None:
        variables = self.cg.vars
        self.old = variables.get(self.var)
        variables[self.var] = self.value

    def __exit__(self, *_exc: Any) -> None:
        if self.old is None:
            self.cg.vars.pop(self.var, None)
        else:
            self.cg.vars[self.var] = self.old


@dataclass
class FunctionState:
    """Per-function state: the LLVM function, its builder, the entry block for allocas, the TIR
    return dtype (``None`` = void) and, inside a parallel closure, the shared error-flag pointer."""

    name: str
    func: ir.Function
    builder: ir.IRBuilder
    entry: ir.Block
    ret_dtype: DataType | None
    error_flag: ir.Value | None = None
    loop_exits: list[tuple[ir.Block, ir.Block]] = field(default_factory=list)
    #: bits stored by the vector stores emitted so far (see :func:`.loops.serial_loop`)
    vector_store_bits: int = 0
    #: the function's one failure exit (see :func:`.asserts.failure_exit`)
    assert_exit: Any = None
    #: called once the body is emitted (:meth:`CodeGenLLVM.function`): what needs the whole
    #: function first (the failure exit's message table)
    finishers: list[Callable[[], None]] = field(default_factory=list)


class CodeGenLLVM:
    """Translate fully lowered TIR to an llvmlite module (TVM's ``CodeGenLLVM`` + ``CodeGenCPU``).

    ``vars`` maps TIR ``Var`` objects to LLVM values; ``alignment`` records the known byte
    alignment of data pointers (``storage_alignment`` attributes, allocations).
    """

    #: fast-math flags of float ``fadd``/``fsub``/``fmul`` (none on the CPU: there LowerIntrin
    #: makes ``a * b + c`` an ``llvm.fmuladd``, TVM's ``MakeFMA``)
    fp_flags: tuple[str, ...] = ()

    def __init__(self, target: Any, module_name: str = "tirkit") -> None:
        self.target = target
        self.module = Module(name=module_name)
        self.module.triple = target.triple
        self.vars: dict[Var, ir.Value] = {}
        self.alignment: dict[Var, int] = {}
        #: data pointers that alias no other one (DLTensor data, allocations) -> their TBAA
        #: access tag (None until first used); see memory.tbaa_tag
        self.tbaa: dict[Var, Any] = {}
        self.tbaa_root: Any = None
        self.fs: FunctionState | None = None
        #: the builder of the function being emitted (``fs.builder``; None outside one)
        self.builder: ir.IRBuilder = None
        self._strings: dict[str, ir.GlobalVariable] = {}
        self._names: dict[str, int] = {}
        self._set_last_error: ir.Function | None = None

    # -------------------------------------------------------------------------------- dispatch
    def expr(self, e: PrimExpr) -> ir.Value:
        """Translate an expression to an LLVM value."""
        rule = EXPR_RULES.get(type(e)) or _lookup(EXPR_RULES, type(e))
        if rule is None:
            raise CodegenError(f"the LLVM code generator cannot translate a {type(e).__name__} "
                               "expression (is the function fully lowered?)")
        return rule(self, e)

    def stmt(self, s: Stmt) -> None:
        """Translate a statement at the builder's position (a fresh block after a terminator)."""
        builder = self.builder
        if builder.block.terminator is not None:
            builder.position_at_end(self.new_block("dead"))
        rule = STMT_RULES.get(type(s)) or _lookup(STMT_RULES, type(s))
        if rule is None:
            raise CodegenError(f"the LLVM code generator cannot translate a {type(s).__name__} "
                               "statement (is the function fully lowered? blocks and "
                               "multi-dimensional buffers must be lowered first)")
        rule(self, s)

    # ----------------------------------------------------------------------------- state helpers

    def fresh_name(self, base: str) -> str:
        """A module-unique symbol name derived from ``base``."""
        n = self._names.get(base, 0)
        self._names[base] = n + 1
        return base if n == 0 and base not in self.module.globals else f"{base}_{n}"

    def new_block(self, name: str) -> ir.Block:
        """A new basic block at the end of the current function."""
        assert self.fs is not None
        return new_block(self.fs.func, name)

    def lookup_var(self, var: Var) -> ir.Value:
        """The LLVM value bound to ``var``."""
        try:
            return self.vars[var]
        except KeyError:
            fname = self.fs.name if self.fs else "?"
            raise CodegenError(f"in function {fname!r}: variable {var.name_hint!r} is used "
                               "outside the scope that defines it") from None

    def bind(self, var: Var, value: ir.Value) -> "_Binding":
        """Bind ``var`` to ``value`` for the duration of a ``with`` block."""
        return _Binding(self, var, value)

    @contextmanager
    def function(self, state: FunctionState, bindings: dict[Var, ir.Value]) -> Iterator[None]:
        """Emit into another function (used for parallel closures) and come back afterwards."""
        saved = (self.fs, self.vars, self.alignment, self.builder)
        self.fs, self.vars, self.alignment = state, dict(bindings), dict(self.alignment)
        self.builder = state.builder
        try:
            yield
            for finish in state.finishers:
                finish()
        finally:
            self.fs, self.vars, self.alignment, self.builder = saved

    def alloca(self, ty: ir.Type, count: int | ir.Value = 1, align: int = 0,
               name: str = "") -> ir.Value:
        """A stack slot in the function's entry block, so loops do not grow the stack."""
        assert self.fs is not None
        entry_builder = type(self.fs.builder)(self.fs.entry)  # the function's kind of builder
        first = self.fs.entry.instructions[0] if self.fs.entry.instructions else None
        if first is not None:
            entry_builder.position_before(first)
        size = ir.Constant(I32, count) if isinstance(count, int) else count
        slot = entry_builder.alloca(ty, size=None if count == 1 else size, name=name)
        if align:
            slot.align = align
        slot.type = PTR  # opaque pointer (llvmlite's IR layer defaults to typed ones)
        return slot

    # ----------------------------------------------------------------------------- module helpers
    def declare(self, name: str, ret: ir.Type, args: list[ir.Type],
                var_arg: bool = False) -> ir.Function:
        """Declare (once) an external function ``name``; a clash of signatures is an error."""
        # the same call site asks again and again with the same type objects: found by
        # identity (the key's types stay alive in the value, so their ids are not reused)
        key = (name, id(ret), tuple(map(id, args)), var_arg)
        hit = self.module.declared.get(key)
        if hit is not None:
            return hit[0]
        fnty = ir.FunctionType(ret, args, var_arg=var_arg)
        existing = self.module.globals.get(name)
        if existing is not None:
            if existing.function_type != fnty:
                raise CodegenError(f"function {name!r} is called with signature {fnty} but was "
                                   f"declared as {existing.function_type}")
            fn = existing
        else:
            fn = ir.Function(self.module, fnty, name=name)
        self.module.declared[key] = (fn, ret, args)
        return fn

    def string_constant(self, text: str) -> ir.Value:
        """A pointer to a private NUL-terminated string constant."""
        gvar = self._strings.get(text)
        if gvar is None:
            gvar = StringGlobal(self.module, self.fresh_name(".str"),
                                text.encode("utf-8") + b"\0")
            self._strings[text] = gvar
        return gvar

    def set_error(self, message: str | ir.Value) -> None:
        """Call ``TVMAPISetLastError(message)``."""
        fn = self._set_last_error
        if fn is None:  # declared once per module (every assertion calls it)
            fn = self._set_last_error = self.declare("TVMAPISetLastError", VOID, _PTR_ARG)
        msg = self.string_constant(message) if isinstance(message, str) else message
        self.builder.call(fn, [msg])

    def return_error(self) -> None:
        """Leave the function reporting failure: ``ret -1`` (TVM's packed convention); inside a
        parallel closure, raise the shared error flag and return."""
        fs = self.fs
        assert fs is not None
        if fs.error_flag is not None:
            self.builder.store(ir.Constant(I32, 1), fs.error_flag)
            self.builder.ret_void()
        elif fs.ret_dtype is None:
            self.builder.ret_void()
        elif fs.ret_dtype.is_int() or fs.ret_dtype.is_uint():
            self.builder.ret(ir_const(fs.func.function_type.return_type, -1))
        else:
            raise CodegenError(f"function {fs.name!r} returns {fs.ret_dtype}: an assertion "
                               "failure cannot be reported (use an int32 return type)")
