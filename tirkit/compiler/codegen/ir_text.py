"""A faster ``llvmlite.ir.IRBuilder`` for the CPU code generator: the same API and the same IR
text, built with less Python per instruction.

llvmlite's builder spends about 4 us of Python per instruction of a kernel: a chain of
``__init__`` calls with checks, a name registered and de-duplicated in the function's
``NameScope`` for every value (``.7``, ``.8``...; ``store`` and ``br`` included), then, when the
module is printed, ``str.format`` through ``_to_string`` / ``descr`` / ``get_reference`` for each
one. :class:`FastBuilder` makes the instructions the code generator emits most (arithmetic,
compares, casts, ``load``/``store``/``getelementptr``/``alloca``, ``select``, ``phi``, calls,
branches, vector element ops) as light subclasses of llvmlite's own instruction classes
(``isinstance`` checks, ``align``, ``set_metadata``, ``add_incoming`` keep working; ``flags``
are given at creation, ``add(a, b, flags=("nsw",))``, and are a tuple) that:

- take their unnamed values' names (``.N``) from a per-function counter, registered in the
  function's scope, and give none to ``void`` ones (their names are never printed);
- print themselves with one f-string each, exactly as llvmlite prints the same instruction.

``if_then`` is a context-manager class making :class:`.ir_values.Block` blocks. Anything else
(rare arguments: calling conventions, fast-math flags, typed-pointer GEPs; ``shuffle_vector``,
``if_else``...) goes to llvmlite's own method, whose values are named in the same scope, so
names stay unique. tests/compiler/test_ir_text.py compares both builders' text.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from llvmlite import ir

from .ir_values import DOT_NAMES, FunctionScope, dot_name, new_block

# the light classes extend llvmlite's deep instruction hierarchy and set up their own state
# (``_setup``) and the builder's insertion point (``_insert``, IRBuilder's own helper)
# pylint: disable=too-many-ancestors,protected-access,attribute-defined-outside-init

__all__ = ["FastBuilder", "block_label"]

_CMP = {">": "gt", "<": "lt", "==": "eq", "!=": "ne", ">=": "ge", "<=": "le"}


def _fresh(scope: Any) -> str:
    """The next unused ``.N`` name of a function's scope (registered there), for a function
    with llvmlite's own ``NameScope`` (see :func:`.ir_values.fast_scope`)."""
    n = getattr(scope, "_tirkit_seq", 0)
    while True:
        n += 1
        name = f".{n}"
        try:
            scope.register(name)
            break
        except NameError:  # llvmlite's DuplicatedNameError: taken (an argument's first name)
            continue
    scope._tirkit_seq = n
    return name


def _md(inst: Any) -> str:
    """llvmlite's ``_stringify_metadata(leading_comma=True)``."""
    md = inst.metadata
    if not md:
        return ""
    return "".join([f", !{k} {v.get_reference()}" for k, v in md.items()])


class _Light:  # pylint: disable=too-many-instance-attributes
    """What the light instructions share: set-up without llvmlite's ``__init__`` chain, a name
    fixed at creation, the reference string precomputed. ``flags`` (a tuple: give them at
    creation, ``builder.add(a, b, flags=("nsw",))``) and ``metadata`` (``set_metadata``) are
    shared empty defaults until set: two allocations fewer per instruction."""

    flags: Any = ()
    metadata: Any = MappingProxyType({})

    def _setup(self, block: ir.Block, typ: ir.Type, opname: str, operands: Any,
               name: str) -> None:
        self.parent = block
        self.type = typ
        self.opname = opname
        self.operands = operands
        if name:
            name = block.scope.register(name, deduplicate=True)
            self._tk_name = name
            if '"' in name or "\\" in name:
                name = name.replace("\\", "\\5c").replace('"', "\\22")
        elif isinstance(typ, ir.VoidType):  # void values are never referred to: no name
            self._tk_name = ""
        else:
            scope = block.scope
            name = self._tk_name = scope.fresh() if isinstance(scope, FunctionScope) \
                else _fresh(scope)
        self._tk_ref = f'%"{name}"'

    @property
    def name(self) -> str:
        """The value's name (unique in its function)."""
        return self._tk_name

    def get_reference(self) -> str:
        """``%"name"``."""
        return self._tk_ref

    def set_metadata(self, name: str, node: Any) -> None:
        """Attach ``!name node`` (llvmlite's ``_HasMetadata.set_metadata``)."""
        if "metadata" not in self.__dict__:
            self.metadata = {}
        self.metadata[name] = node

    def _text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        text = self._text()
        if isinstance(self.type, ir.VoidType):
            return text.rstrip()
        return f"{self._tk_ref} = {text}".rstrip()


_VOID = ir.VoidType()


# Each class prints its whole line in one f-string (``__str__``, what ``_Light.__str__`` makes of
# its ``_text``): ``_md`` is called only when there is metadata, and the trailing space llvmlite
# leaves before an absent metadata list is not written (``_Light.__str__`` strips it).


class _Op(_Light, ir.Instruction):
    def _text(self) -> str:
        op = " ".join([self.opname, *self.flags]) if self.flags else self.opname
        a, b = self.operands
        return f"{op} {self.type} {a.get_reference()}, {b.get_reference()}{_md(self)}"

    def __str__(self) -> str:
        op = " ".join([self.opname, *self.flags]) if self.flags else self.opname
        a, b = self.operands
        return f"{self._tk_ref} = {op} {self.type} {a.get_reference()}, {b.get_reference()}" \
               f"{_md(self) if self.metadata else ''}"


class _ICmp(_Light, ir.ICMPInstr):
    def _text(self) -> str:
        a, b = self.operands
        flags = "".join([" " + f for f in self.flags])
        return f"{self.opname}{flags} {self.op} {a.type} {a.get_reference()}, " \
               f"{b.get_reference()} {_md(self)}"

    def __str__(self) -> str:
        if self.flags or self.metadata:
            return _Light.__str__(self)
        a, b = self.operands
        return f"{self._tk_ref} = {self.opname} {self.op} {a.type} {a.get_reference()}, " \
               f"{b.get_reference()}"


class _FCmp(_Light, ir.FCMPInstr):
    _text = _ICmp._text
    __str__ = _ICmp.__str__


class _Cast(_Light, ir.CastInstr):
    def _text(self) -> str:
        (v,) = self.operands
        return f"{self.opname} {v.type} {v.get_reference()} to {self.type} {_md(self)}"

    def __str__(self) -> str:
        if self.metadata:
            return _Light.__str__(self)
        (v,) = self.operands
        return f"{self._tk_ref} = {self.opname} {v.type} {v.get_reference()} to {self.type}"


class _Select(_Light, ir.SelectInstr):
    def _text(self) -> str:
        c, a, b = self.operands
        return f"select {' '.join(self.flags)} {c.type} {c.get_reference()}, {a.type} " \
               f"{a.get_reference()}, {b.type} {b.get_reference()} {_md(self)}"


class _Load(_Light, ir.LoadInstr):
    def _text(self) -> str:
        (p,) = self.operands
        align = "" if self.align is None else f", align {self.align:d}"
        return f"load {self.type}, {p.type} {p.get_reference()}{align}{_md(self)}"

    def __str__(self) -> str:
        (p,) = self.operands
        align = "" if self.align is None else f", align {self.align:d}"
        return f"{self._tk_ref} = load {self.type}, {p.type} {p.get_reference()}{align}" \
               f"{_md(self) if self.metadata else ''}"


class _Store(_Light, ir.StoreInstr):
    def _text(self) -> str:
        v, p = self.operands
        align = "" if self.align is None else f", align {self.align:d}"
        return f"store {v.type} {v.get_reference()}, {p.type} {p.get_reference()}" \
               f"{align}{_md(self)}"

    def __str__(self) -> str:
        v, p = self.operands
        align = "" if self.align is None else f", align {self.align:d}"
        return f"store {v.type} {v.get_reference()}, {p.type} {p.get_reference()}" \
               f"{align}{_md(self) if self.metadata else ''}"


class _Alloca(_Light, ir.AllocaInstr):
    def _text(self) -> str:
        size = ""
        if self.operands:
            (op,) = self.operands
            size = f", {op.type} {op.get_reference()}"
        align = "" if self.align is None else f", align {self.align}"
        return f"alloca {self.allocated_type}{size}{align}{_md(self)}"


class _GEP(_Light, ir.GEPInstr):
    def _text(self) -> str:
        p = self.pointer
        idx = ", ".join([f"{i.type} {i.get_reference()}" for i in self.indices])
        op = "getelementptr inbounds" if self.inbounds else "getelementptr"
        return f"{op} {self.source_etype}, {p.type} {p.get_reference()}, {idx} {_md(self)}"

    def __str__(self) -> str:
        if self.metadata:
            return _Light.__str__(self)
        p = self.pointer
        idx = ", ".join([f"{i.type} {i.get_reference()}" for i in self.indices])
        op = "getelementptr inbounds" if self.inbounds else "getelementptr"
        return f"{self._tk_ref} = {op} {self.source_etype}, {p.type} {p.get_reference()}, {idx}"


class _Phi(_Light, ir.PhiInstr):
    def _text(self) -> str:
        incs = ", ".join([f"[{v.get_reference()}, {b.get_reference()}]"
                          for v, b in self.incomings])
        return f"phi {' '.join(self.flags)} {self.type} {incs} {_md(self)}"


class _Call(_Light, ir.CallInstr):
    #: call-site function attributes as IR text (`` "key"="value"``), e.g. veclib.py's variants
    fn_attr_text = ""

    def _text(self) -> str:
        callee, *args = self.operands
        fnty = callee.function_type
        ty = fnty if fnty.var_arg else fnty.return_type
        text = ", ".join([f"{a.type} {a.get_reference()}" for a in args])
        return f"call {ty} {callee.get_reference()}({text}){self.fn_attr_text}{_md(self)}"

    def __str__(self) -> str:
        ops = self.operands
        callee = ops[0]
        fnty = callee.function_type
        ty = fnty if fnty.var_arg else fnty.return_type
        text = ", ".join([f"{a.type} {a.get_reference()}" for a in ops[1:]])
        line = f"call {ty} {callee.get_reference()}({text}){self.fn_attr_text}" \
               f"{_md(self) if self.metadata else ''}"
        return line if isinstance(self.type, ir.VoidType) else f"{self._tk_ref} = {line}"


class _VectorOp(_Light, ir.Instruction):
    def _text(self) -> str:
        ops = ", ".join([f"{op.type} {op.get_reference()}" for op in self.operands])
        return f"{self.opname} {ops}"


class _Branch(_Light, ir.Branch):
    def _text(self) -> str:
        ops = ", ".join([f"{op.type} {op.get_reference()}" for op in self.operands])
        return f"{self.opname} {ops}{_md(self)}"

    def __str__(self) -> str:
        (target,) = self.operands  # a block: its type prints "label"
        return f"br label {target.get_reference()}{_md(self) if self.metadata else ''}"


class _CondBranch(_Light, ir.ConditionalBranch):
    _text = _Branch._text

    def __str__(self) -> str:
        cond, then, other = self.operands  # blocks after the condition: "label"
        return f"br {cond.type} {cond.get_reference()}, label {then.get_reference()}, " \
               f"label {other.get_reference()}{_md(self) if self.metadata else ''}"

    def set_weights(self, weights: Any) -> None:
        """``!prof !{!"branch_weights", i32 w...}``, made once per module and weights."""
        mod = self.parent.parent.parent
        cache = getattr(mod, "branch_weights", None)
        if cache is None:
            super().set_weights(weights)
        else:
            self.set_metadata("prof", cache(tuple(weights)))


class _Ret(_Light, ir.Ret):
    def _text(self) -> str:
        if self.operands:
            (v,) = self.operands
            return f"{self.opname} {v.type} {v.get_reference()}{_md(self)}"
        return f"{self.opname}{_md(self)}"

    def __str__(self) -> str:
        ops = self.operands
        if self.metadata or len(ops) > 1:
            return self._text().rstrip()
        if ops:
            (v,) = ops
            return f"{self.opname} {v.type} {v.get_reference()}"
        return self.opname


def _binop(opname: str) -> Any:
    def method(self: "FastBuilder", lhs: ir.Value, rhs: ir.Value, name: str = "",
               flags: Any = ()) -> ir.Instruction:
        if lhs.type is not rhs.type and lhs.type != rhs.type:  # one type object: no __eq__
            raise ValueError(f"Operands must be the same type, got ({lhs.type}, {rhs.type})")
        inst = self._new(_Op, lhs.type, opname, (lhs, rhs), name)
        if flags:
            inst.flags = tuple(flags)
        return inst
    method.__name__ = opname
    return method


def _castop(opname: str) -> Any:
    def method(self: "FastBuilder", val: ir.Value, typ: ir.Type, name: str = "") -> ir.Value:
        if val.type is typ or val.type == typ:
            return val
        return self._new(_Cast, typ, opname, [val], name)
    method.__name__ = opname
    return method


class FastBuilder(ir.IRBuilder):
    """``llvmlite.ir.IRBuilder`` with light instructions for the common cases (see the module
    docstring); same methods, arguments, errors and printed IR, up to the numbering of
    unnamed values."""

    # pylint: disable=too-many-public-methods
    _block: Any  # (llvmlite's IRBuilder state, which it does not annotate)
    _anchor: int
    shl, lshr, ashr = _binop("shl"), _binop("lshr"), _binop("ashr")
    add, fadd, sub, fsub = _binop("add"), _binop("fadd"), _binop("sub"), _binop("fsub")
    mul, fmul = _binop("mul"), _binop("fmul")
    udiv, sdiv, fdiv = _binop("udiv"), _binop("sdiv"), _binop("fdiv")
    urem, srem, frem = _binop("urem"), _binop("srem"), _binop("frem")
    or_, and_, xor = _binop("or"), _binop("and"), _binop("xor")
    trunc, zext, sext = _castop("trunc"), _castop("zext"), _castop("sext")
    fptrunc, fpext = _castop("fptrunc"), _castop("fpext")
    bitcast, addrspacecast = _castop("bitcast"), _castop("addrspacecast")
    fptoui, uitofp = _castop("fptoui"), _castop("uitofp")
    fptosi, sitofp = _castop("fptosi"), _castop("sitofp")
    ptrtoint, inttoptr = _castop("ptrtoint"), _castop("inttoptr")

    def _new(self, cls: Any, typ: ir.Type, opname: str, operands: Any, name: str) -> Any:
        """A ``cls`` instruction set up (``_Light._setup``) and inserted at the builder's
        position (``IRBuilder._insert``); an unnamed one (most) is set up here, in line: a
        non-void one takes the next ``.N`` of its function's :class:`.ir_values.FunctionScope`
        (``fresh``)."""
        inst = cls.__new__(cls)
        block = self._block
        scope = block.scope
        if name or type(scope) is not FunctionScope:
            inst._setup(block, typ, opname, operands, name)
        else:
            inst.parent = block
            inst.type = typ
            inst.opname = opname
            inst.operands = operands
            if isinstance(typ, ir.VoidType):  # void values are never referred to: no name
                inst._tk_name, inst._tk_ref = "", '%""'
            else:
                used, n, names = scope.used, scope.seq, DOT_NAMES
                while True:
                    n += 1
                    try:
                        name, ref = names[n]
                    except IndexError:
                        name, ref = dot_name(n)
                    if name not in used:
                        break
                used.add(name)
                scope.seq = n
                inst._tk_name = name
                inst._tk_ref = ref
        if self.debug_metadata is not None:
            self._insert(inst)
            return inst
        instructions, anchor = block.instructions, self._anchor
        if anchor == len(instructions):
            instructions.append(inst)
        else:
            instructions.insert(anchor, inst)
        self._anchor = anchor + 1
        return inst

    def _terminate(self, cls: Any, typ: ir.Type, opname: str, operands: Any,
                   name: str) -> Any:
        """``IRBuilder._set_terminator`` of a new ``cls`` instruction."""
        block = self._block
        assert block.terminator is None
        inst = self._new(cls, typ, opname, operands, name)
        block.terminator = inst
        return inst

    def not_(self, value: ir.Value, name: str = "") -> ir.Value:
        """``xor value, -1`` (all ones)."""
        typ = value.type
        hit = _ONES.get(id(typ))  # by identity: llvmlite hashes every IntType alike
        if hit is None or hit[0] is not typ:
            if len(_ONES) > 4096:
                _ONES.clear()
            count = getattr(typ, "count", None)
            hit = _ONES[id(typ)] = (typ, ir.Constant(typ, -1 if count is None else (-1,) * count))
        return self.xor(value, hit[1], name=name)

    def _cmp(self, cls: Any, op: str, lhs: ir.Value, rhs: ir.Value, name: str) -> ir.Value:
        typ = _I1 if not isinstance(lhs.type, ir.VectorType) else \
            ir.VectorType(_I1, lhs.type.count)
        inst = self._new(cls, typ, cls.OPNAME, [lhs, rhs], name)
        inst.op = op
        return inst

    def icmp_signed(self, cmpop: str, lhs: ir.Value, rhs: ir.Value, name: str = "") -> ir.Value:
        """``icmp eq/ne/sgt/...``."""
        op = _CMP.get(cmpop)
        if op is None:
            raise ValueError(f"invalid comparison {cmpop!r} for icmp")
        return self._cmp(_ICmp, op if cmpop in ("==", "!=") else "s" + op, lhs, rhs, name)

    def icmp_unsigned(self, cmpop: str, lhs: ir.Value, rhs: ir.Value,
                      name: str = "") -> ir.Value:
        """``icmp eq/ne/ugt/...``."""
        op = _CMP.get(cmpop)
        if op is None:
            raise ValueError(f"invalid comparison {cmpop!r} for icmp")
        return self._cmp(_ICmp, op if cmpop in ("==", "!=") else "u" + op, lhs, rhs, name)

    def fcmp_ordered(self, cmpop: str, lhs: ir.Value, rhs: ir.Value, name: str = "",
                     flags: Any = ()) -> ir.Value:
        """``fcmp oeq/ogt/...`` (``ord``/``uno``... as given)."""
        op = "o" + _CMP[cmpop] if cmpop in _CMP else cmpop
        if flags or op not in ir.FCMPInstr.VALID_OP:
            return super().fcmp_ordered(cmpop, lhs, rhs, name=name, flags=flags)
        return self._cmp(_FCmp, op, lhs, rhs, name)

    def fcmp_unordered(self, cmpop: str, lhs: ir.Value, rhs: ir.Value, name: str = "",
                       flags: Any = ()) -> ir.Value:
        """``fcmp ueq/ugt/...`` (``ord``/``uno``... as given)."""
        op = "u" + _CMP[cmpop] if cmpop in _CMP else cmpop
        if flags or op not in ir.FCMPInstr.VALID_OP:
            return super().fcmp_unordered(cmpop, lhs, rhs, name=name, flags=flags)
        return self._cmp(_FCmp, op, lhs, rhs, name)

    def select(self, cond: ir.Value, lhs: ir.Value, rhs: ir.Value, name: str = "",
               flags: Any = ()) -> ir.Value:
        """``select cond, lhs, rhs``."""
        assert lhs.type is rhs.type or lhs.type == rhs.type
        inst = self._new(_Select, lhs.type, "select", [cond, lhs, rhs], name)
        if flags:
            inst.flags = tuple(flags)
        return inst

    def load(self, ptr: ir.Value, name: str = "", align: int | None = None,
             typ: ir.Type | None = None) -> ir.Value:
        """``load typ, ptr`` (``typ`` is required for an opaque pointer)."""
        if typ is None or not isinstance(ptr.type, ir.PointerType):
            return super().load(ptr, name=name, align=align, typ=typ)
        inst = self._new(_Load, typ, "load", [ptr], name)
        inst.align = align
        return inst

    def store(self, value: ir.Value, ptr: ir.Value, align: int | None = None) -> ir.Value:
        """``store value, ptr``."""
        if not isinstance(ptr.type, ir.PointerType) or not ptr.type.is_opaque:
            return super().store(value, ptr, align=align)
        inst = self._new(_Store, _VOID, "store", [value, ptr], "")
        inst.align = align
        return inst

    def alloca(self, typ: ir.Type, size: Any = None, name: str = "") -> ir.Value:
        """``alloca typ[, size]``; its type is the typed pointer to ``typ``, as llvmlite's."""
        if size is not None and not isinstance(size, ir.Value):
            size = ir.Constant(_I32, size)
        inst = self._new(_Alloca, typ.as_pointer(), "alloca", [size] if size else (), name)
        inst.allocated_type = typ
        inst.align = None
        return inst

    def gep(self, ptr: ir.Value, indices: Any, inbounds: bool = False, name: str = "",
            source_etype: ir.Type | None = None) -> ir.Value:
        """``getelementptr [inbounds] source_etype, ptr, indices...``."""
        if source_etype is None:
            return super().gep(ptr, indices, inbounds=inbounds, name=name)
        inst = self._new(_GEP, ptr.type, "getelementptr", [ptr, *indices], name)
        inst.source_etype = source_etype
        inst.pointer, inst.indices, inst.inbounds = ptr, indices, inbounds
        return inst

    def phi(self, typ: ir.Type, name: str = "", flags: Any = ()) -> ir.Value:
        """``phi typ`` (incomings added with ``add_incoming``)."""
        inst = self._new(_Phi, typ, "phi", (), name)
        inst.incomings = []
        if flags:
            inst.flags = tuple(flags)
        return inst

    # pylint: disable-next=too-many-arguments,too-many-positional-arguments
    def call(self, fn: ir.Value, args: Any, name: str = "", cconv: Any = None,
             tail: Any = False, fastmath: Any = (), attrs: Any = (),
             arg_attrs: Any = None) -> ir.Value:
        """``call fn(args...)``; argument types are checked as llvmlite checks them (calls with
        a calling convention, tail marker, fast-math flags or attributes go to llvmlite)."""
        options = (cconv, tail, fastmath, attrs, arg_attrs)
        if any(options) or not isinstance(fn, ir.Function) or fn.calling_convention:
            return super().call(fn, args, name, *options)
        fnty = fn.function_type
        args = list(args)
        for i, want in enumerate(fnty.args):
            have = args[i].type
            if have is not want and have != want:
                if isinstance(want, ir.MetaDataType):
                    return super().call(fn, args, name=name)
                raise TypeError(f"Type of #{1 + i} arg mismatch: {want} != {have}")
        inst = self._new(_Call, fnty.return_type, "call", [fn, *args], name)
        inst.cconv, inst.tail, inst.arg_attributes = "", "", {}
        return inst

    def extract_element(self, vector: ir.Value, idx: ir.Value, name: str = "") -> ir.Value:
        """``extractelement vector, idx``."""
        if not isinstance(vector.type, ir.VectorType) or not isinstance(idx.type, ir.IntType):
            return super().extract_element(vector, idx, name=name)
        return self._new(_VectorOp, vector.type.element, "extractelement", [vector, idx], name)

    def insert_element(self, vector: ir.Value, value: ir.Value, idx: ir.Value,
                       name: str = "") -> ir.Value:
        """``insertelement vector, value, idx``."""
        if not isinstance(vector.type, ir.VectorType) or value.type != vector.type.element \
                or not isinstance(idx.type, ir.IntType):
            return super().insert_element(vector, value, idx, name=name)
        return self._new(_VectorOp, vector.type, "insertelement", [vector, value, idx], name)

    def if_then(self, pred: ir.Value, likely: bool | None = None) -> "_IfThen":
        """``with builder.if_then(pred) as end:``: llvmlite's, as a class (a generator-based
        context manager costs more, and every assertion makes one)."""
        return _IfThen(self, pred, likely)

    def branch(self, target: ir.Block) -> ir.Value:
        """``br label target``."""
        return self._terminate(_Branch, _VOID, "br", [target], "")

    def cbranch(self, cond: ir.Value, truebr: ir.Block, falsebr: ir.Block) -> ir.Value:
        """``br i1 cond, label truebr, label falsebr``."""
        return self._terminate(_CondBranch, _VOID, "br", [cond, truebr, falsebr], "")

    def ret_void(self) -> ir.Value:
        """``ret void``."""
        return self._terminate(_Ret, _VOID, "ret void", [], "")

    def ret(self, value: ir.Value) -> ir.Value:
        """``ret type value``."""
        return self._terminate(_Ret, _VOID, "ret", [value], "")


def block_label(block: ir.Block) -> str:
    """The prefix of the blocks made after ``block`` (``<prefix>.if``, ``<prefix>.endif``): its
    name, shortened to 25 characters and ``..`` past 50 (llvmlite's ``_label_suffix``)."""
    name = block.name
    return name[:25] + ".." if len(name) > 50 else name


class _IfThen:
    """What llvmlite's ``IRBuilder.if_then`` does: blocks ``<bb>.if`` and ``<bb>.endif``, a
    conditional branch (``!prof`` weights 99:1 or 1:99 when ``likely`` is given), the body
    emitted in ``.if`` and closed by a branch to ``.endif`` unless it ended the block."""

    __slots__ = ("bld", "pred", "likely", "end")

    def __init__(self, bld: FastBuilder, pred: ir.Value, likely: bool | None) -> None:
        self.bld, self.pred, self.likely = bld, pred, likely
        self.end: Any = None  # the .endif block, made by __enter__

    def __enter__(self) -> ir.Block:
        bld = self.bld
        bb = bld._block
        fn = bb.parent
        label = block_label(bb)
        then = new_block(fn, label + ".if")
        end = self.end = new_block(fn, label + ".endif")
        br = bld.cbranch(self.pred, then, end)
        likely = self.likely
        if likely is not None:
            cache = getattr(fn.parent, "branch_weights", None)
            if cache is None:
                br.set_weights([99, 1] if likely else [1, 99])
            else:  # _CondBranch.set_weights on a new branch (no metadata yet), in line
                br.metadata = {"prof": cache(_LIKELY if likely else _UNLIKELY)}
        bld._block, bld._anchor = then, 0  # position_at_end(then): a new, empty block
        return end

    def __exit__(self, exc_type: Any, *_exc: Any) -> None:
        if exc_type is None:
            bld, end = self.bld, self.end
            if bld._block.terminator is None:
                bld.branch(end)
            bld._block, bld._anchor = end, len(end.instructions)  # position_at_end(end)


_LIKELY, _UNLIKELY = (99, 1), (1, 99)
_I1, _I32 = ir.IntType(1), ir.IntType(32)
#: id(type) -> (type, its all-ones constant); the type is kept alive, so its id stays its own
_ONES: dict[int, tuple[ir.Type, ir.Constant]] = {}
