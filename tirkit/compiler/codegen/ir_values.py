"""llvmlite values the code generator makes many of, made and printed in one step each (the
companions of :mod:`.ir_text`'s light instructions; the same printed IR as llvmlite's own):

- :class:`Block`: a basic block without llvmlite's ``NamedValue.__init__`` chain (one or two
  per assertion), its reference and label computed once;
- :class:`StringGlobal`: ``@"name" = private unnamed_addr constant [N x i8] c"..."``, the
  string constant of an assertion message (llvmlite's GlobalVariable costs ~20 us to make and
  print, a function has dozens);
- :class:`ByteString` / :func:`escape_bytes`: a ``c"..."`` constant escaped with ``str.replace``
  or ``str.translate`` instead of llvmlite's Python loop over the bytes.
"""
from __future__ import annotations

import re
from typing import Any

from llvmlite import ir

# subclasses of llvmlite's own value classes that set up their state themselves
# pylint: disable=too-many-ancestors,attribute-defined-outside-init

__all__ = ["Block", "new_block", "ByteString", "StringGlobal", "MDString", "escape_bytes",
           "FunctionScope", "fast_scope", "DOT_NAMES", "dot_name"]


class DuplicatedNameError(NameError):
    """A name registered twice without de-duplication (llvmlite's error of the same name)."""


class FunctionScope:
    """The names of one function's local values, blocks and arguments: what llvmlite's
    ``NameScope`` does (``register`` / ``deduplicate`` / ``is_used``, names ``base.N`` for
    repeats), plus :meth:`fresh`, the next unused ``.N`` for an unnamed value in one call
    (llvmlite spends three calls and a format on it; every instruction has one)."""

    def __init__(self) -> None:
        self.used: set[str] = {""}
        self.bases: dict[str, int] = {}
        self.seq = 0

    def is_used(self, name: str) -> bool:
        """Whether ``name`` is taken."""
        return name in self.used

    def register(self, name: str, deduplicate: bool = False) -> str:
        """Take ``name`` (made unique first with ``deduplicate``) and return it.

        Raises:
            DuplicatedNameError: for a taken name without ``deduplicate``.
        """
        if deduplicate:
            name = self.deduplicate(name)
        elif name in self.used:
            raise DuplicatedNameError(name)
        self.used.add(name)
        return name

    def deduplicate(self, name: str) -> str:
        """``name``, or ``name.N`` with the next N of that base when it is taken."""
        base = name
        while name in self.used:
            ident = self.bases.get(base, 0) + 1
            self.bases[base] = ident
            name = f"{base}.{ident}"
        return name

    def fresh(self) -> str:
        """Take and return the next unused ``.N``."""
        used, n = self.used, self.seq
        while True:
            n += 1
            name = dot_name(n)[0]
            if name not in used:
                break
        used.add(name)
        self.seq = n
        return name


#: ``(".N", '%".N"')`` at index N: the name and reference of the N-th unnamed value of a
#: function (every instruction has one; made once per N, not once per instruction)
DOT_NAMES: list[tuple[str, str]] = [("", "")]


def dot_name(n: int) -> tuple[str, str]:
    """``(".N", '%".N"')`` (:data:`DOT_NAMES`, grown to hold ``n``)."""
    names = DOT_NAMES
    while len(names) <= n:
        i = len(names)
        names.append((f".{i}", f'%".{i}"'))
    return names[n]


def fast_scope(fn: ir.Function) -> ir.Function:
    """Give ``fn`` (just made, before any block or instruction) a :class:`FunctionScope`
    holding its arguments' names; returns ``fn``."""
    scope = FunctionScope()
    for arg in fn.args:
        scope.register(arg.name)
    fn.scope = scope
    return fn


class Block(ir.Block):  # pylint: disable=too-many-instance-attributes
    """A basic block made without llvmlite's ``NamedValue.__init__`` chain (the code generator
    makes one or two per assertion); named and printed as llvmlite's."""

    def __init__(self, parent: ir.Function, name: str = "") -> None:
        # pylint: disable=super-init-not-called
        self.parent = parent
        self.type = _LABEL
        self.scope = scope = parent.scope
        if type(scope) is FunctionScope:  # scope.register(name, deduplicate=True), in line
            if name in scope.used:
                name = scope.deduplicate(name)
            scope.used.add(name)
        else:
            name = scope.register(name, deduplicate=True)
        self._tk_name = name
        label = name
        if '"' in name or "\\" in name:
            name = name.replace("\\", "\\5c").replace('"', "\\22")
        self._tk_ref = f'%"{name}"'
        simple = _SIMPLE_LABELS.get(label)
        if simple is None:
            if len(_SIMPLE_LABELS) > 4096:
                _SIMPLE_LABELS.clear()
            simple = _SIMPLE_LABELS[label] = _SIMPLE_LABEL.match(label) is not None
        self._tk_label = label if simple else f'"{name}"'
        self.instructions: list[Any] = []
        self.terminator = None

    @property
    def name(self) -> str:
        """The block's label (unique in its function)."""
        return self._tk_name

    def get_reference(self) -> str:
        """``%"label"``."""
        return self._tk_ref

    def descr(self, buf: list[str]) -> None:
        """``label:`` and the instructions, indented (llvmlite's ``Block.descr``)."""
        insts = self.instructions
        if insts:  # one string per block: the same text as a line per instruction
            buf.append(f"{self._tk_label}:\n  " + "\n  ".join(map(str, insts)) + "\n")
        else:
            buf.append(f"{self._tk_label}:\n")


#: labels printed without quotes (llvmlite's _SIMPLE_IDENTIFIER_RE, LLVM's identifier rule)
_SIMPLE_LABEL = re.compile(r"[-a-zA-Z$._][-a-zA-Z$._0-9]*$")
#: label -> whether it matches _SIMPLE_LABEL (the if/endif labels of nested assertions are long
#: and recur from function to function: one dict lookup instead of a regex scan)
_SIMPLE_LABELS: dict[str, bool] = {}


def new_block(fn: ir.Function, name: str) -> ir.Block:
    """``fn.append_basic_block(name)`` with a :class:`Block`."""
    blk = Block(fn, name)
    fn.blocks.append(blk)
    return blk


_LABEL = ir.LabelType()


class ByteString(ir.Constant):
    """A ``[N x i8]`` constant of bytes, printed ``c"..."`` as llvmlite prints one, with one
    ``str.translate`` instead of a Python loop over the bytes."""

    def get_reference(self) -> str:
        """``c"text\\00"``: letters, digits, space and ``!#$%&'()*+,-./:;<=>?@[]^_`{|}~`` as
        themselves, any other byte as ``\\XX``."""
        ref = self.__dict__.get("_tk_ref")
        if ref is None:
            ref = self._tk_ref = f'c"{escape_bytes(self.constant)}"'
        return ref

    def __str__(self) -> str:
        return f"{self.type} {self.get_reference()}"


_PLAIN = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 "
                   b"!#$%&'()*+,-./:;<=>?@[]^_`{|}~")
#: latin-1 character -> llvmlite's spelling of that byte in a ``c"..."`` constant
_ESCAPES = {ch: f"\\{ch:02x}" for ch in range(256) if ch not in _PLAIN}


def escape_bytes(data: bytes | bytearray) -> str:
    """``data`` as the inside of an LLVM ``c"..."`` constant, as llvmlite spells it."""
    data = bytes(data)
    tail = ""
    if data.endswith(b"\0"):  # the NUL of a C string
        data, tail = data[:-1], "\\00"
    if data.isascii():
        text = data.decode("ascii")
        if text.isprintable():  # printable ASCII (0x20-0x7e): only " and \ are escaped
            if '"' in text or "\\" in text:
                text = text.replace("\\", "\\5c").replace('"', "\\22")
            return text + tail
    return data.decode("latin-1").translate(_ESCAPES) + tail


class MDString(ir.MetaDataString):
    """``!"text"``: llvmlite's ``MetaDataString`` (equal, hashed and printed as it), its text
    escaped by :func:`escape_bytes` (one ``str.translate``) instead of llvmlite's Python loop
    over the bytes, which costs more than printing a dozen instructions per string."""

    def _get_reference(self) -> str:
        text = self.string
        return f'!"{escape_bytes(text.encode() if isinstance(text, str) else text)}"'

    _to_string = _get_reference


class StringGlobal(ir.GlobalVariable):  # pylint: disable=too-many-instance-attributes
    """``@"name" = private unnamed_addr constant [N x i8] c"text\\00"``: the NUL-terminated
    string constant of an assertion message, made and printed in one step each (llvmlite's
    GlobalVariable costs ~20 us to make and print; a function has dozens of messages). Its
    ``type`` is the opaque ``ptr``."""

    def __init__(self, module: ir.Module, name: str, data: bytes) -> None:
        # pylint: disable=super-init-not-called
        ty = _BYTES.get(len(data))
        if ty is None:
            ty = _BYTES[len(data)] = ir.ArrayType(_I8, len(data))
        self.parent = module
        self.type = _PTR
        self._tk_name = module.scope.register(name)
        self.value_type = ty
        # ByteString(ty, bytearray(data)) without Constant.__init__'s checks and the import
        # statement in ArrayType.wrap_constant_value (which keeps a bytearray as it is)
        init = self.initializer = ByteString.__new__(ByteString)
        init.type, init.constant = ty, bytearray(data)
        self.linkage, self.storage_class, self.section = "private", "", ""
        self.metadata: dict[str, Any] = {}
        self.unnamed_addr = self.global_constant = True
        self.addrspace, self.align = 0, None
        self._tk_text = f'constant {ty} c"{escape_bytes(data)}"'
        module.add_global(self)

    @property
    def name(self) -> str:
        """The symbol (unique in the module)."""
        return self._tk_name

    def __str__(self) -> str:
        as_made = (self.linkage, self.unnamed_addr, self.global_constant, self.align,
                   self.section, self.metadata, self.storage_class)
        if as_made != _AS_MADE:
            return super().__str__()  # changed after creation: llvmlite's own printing
        return f"{self.get_reference()} = private unnamed_addr {self._tk_text}"


_AS_MADE: tuple[Any, ...] = ("private", True, True, None, "", {}, "")


_BYTES: dict[int, ir.ArrayType] = {}


_I8 = ir.IntType(8)
_PTR = ir.PointerType()
