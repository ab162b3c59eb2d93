"""The printing context: dispatch table, frames, variable naming (mirrors TVM's ``IRDocsifier``).

One registration table maps IR node types to printing functions (``@register(tir.For)``); the
functions live in small modules (:mod:`.expr`, :mod:`.stmt`, :mod:`.block`, :mod:`.buffer`,
:mod:`.func`, :mod:`.module`). Expression printers return :class:`E` (a doc and its Python
precedence); statement printers return a list of statement docs.

Names follow TVM: a definition takes the object's name hint, sanitized to an identifier and made
unique among the names currently defined (``i``, ``i_1``, ``i_2``...); leaving a frame frees the
names defined in it, so sibling loops reuse ``i``.
"""
from __future__ import annotations

import keyword
from dataclasses import dataclass, field
from typing import Any, Callable

from tirkit.ir.node import Node, node_fields
from tirkit.tir import stmt as S
from tirkit.tir.buffer import Buffer
from tirkit.ir.expr import FloatImm, IntImm
from tirkit.tir.expr import StringImm, Var

from .config import Comments, PrinterConfig
from .doc import Doc, Mark, Text
from .frame_path import ROOT, FramePath
from .stmt_doc import LineDoc, SDoc

# Python precedences (higher binds tighter)
P_TUPLE, P_IF, P_OR, P_AND, P_NOT, P_CMP = 0, 1, 2, 3, 4, 5
P_BOR, P_BXOR, P_BAND, P_SHIFT, P_ADD, P_MUL, P_UNARY, P_POW, P_ATOM = 6, 7, 8, 9, 10, 11, 12, 13, 14


@dataclass(slots=True, unsafe_hash=True)  # not frozen: made per printed expression, and a
class E:  # frozen dataclass's __init__ costs twice as much
    """An expression doc with its precedence (``P_ATOM`` for names, calls, literals)."""

    doc: Doc
    prec: int = P_ATOM


PrintFn = Callable[["Printer", Any], Any]
_TABLE: dict[type, PrintFn] = {}


_RESOLVED: dict[type, PrintFn | None] = {}  # type -> lookup's answer (cleared by register)


def register(*types: type) -> Callable[[PrintFn], PrintFn]:
    """Register the printing function of node ``types`` (TVM's ``set_dispatch``)."""
    def deco(fn: PrintFn) -> PrintFn:
        for t in types:
            _TABLE[t] = fn
        _RESOLVED.clear()
        return fn
    return deco


def lookup(obj: Any) -> PrintFn | None:
    """The printing function of ``obj``'s type (nearest registered base class)."""
    cls = type(obj)
    try:
        return _RESOLVED[cls]
    except KeyError:
        pass
    found = next((_TABLE[t] for t in cls.__mro__ if t in _TABLE), None)
    _RESOLVED[cls] = found
    return found


@dataclass
class Frame:
    """A scope of the output (TVM ``TIRFrame``): ``node`` is the IR node that opened it (None for
    the root), ``stmts`` the docs printed into it, ``defined`` the objects defined in it."""

    node: Any
    stmts: list[SDoc] = field(default_factory=list)
    defined: list[int] = field(default_factory=list)
    allow_concise: bool = False
    #: the statement being printed is the frame's whole body, not an item of a SeqStmt
    sole: bool = False


_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | {"range", "metadata"}
# statement bodies: fields whose contents print inside the node's own frame
BODY_FIELDS = {"body", "then_case", "else_case", "init"}
# the bodies printed in a frame of their own, keyed by the body statement (TVM: the if's
# ``With<TIRFrame> f(d, stmt->then_case)``, a block's init frame): the finder puts the body
# statement itself on the path of what it holds, as TVM's stack does
OWN_FRAME_FIELDS = {"then_case", "else_case", "init"}


def sanitize(name: str) -> str:
    """``name`` as a Python identifier (TVM's ``GenerateUniqueName`` rules, empty → ``v``)."""
    if name.isascii() and name.isidentifier():  # the usual name: nothing to replace
        return name
    out = "".join(c if c == "_" or c.isalnum() else "_" for c in name)
    if not out:
        return "v"
    return "_" + out if out[0].isdigit() else out



class _FrameScope:
    """The context manager :meth:`Printer.frame` returns (a class, not a ``@contextmanager``
    generator: every statement with a body opens one, and a generator costs three times as
    much per use)."""

    __slots__ = ("printer", "frame")

    def __init__(self, printer: "Printer", frame: Frame) -> None:
        self.printer, self.frame = printer, frame

    def __enter__(self) -> Frame:
        self.printer.frames.append(self.frame)
        return self.frame

    def __exit__(self, *exc: object) -> None:
        p = self.printer
        p.frames.pop()
        for key in self.frame.defined:
            p._undefine(key)  # pylint: disable=protected-access

class Printer:
    """Turns IR into docs (TVM ``IRDocsifier``); see :func:`tirkit.printer.script`."""

    def __init__(self, cfg: PrinterConfig) -> None:
        self.cfg = cfg
        self.frames: list[Frame] = []
        self.docs: dict[int, Doc] = {}
        self.names: dict[int, str] = {}
        self.defined_names: set[str] = {cfg.tir_prefix, cfg.ir_prefix} | _RESERVED
        if cfg.written is not None:  # tirfmt: the user's `for _ in ...` stays `_`, and a
            # buffer named `metadata` keeps its name (a unit that needs TVM's metadata section
            # cannot be formatted anyway: the file does not define it, so it would not parse)
            self.defined_names -= {"_", "metadata"}
        self.keep: list[Any] = []
        #: ids of the objects defined under a name an outer definition holds (tirfmt: a loop
        #: var shadowing an outer one, :func:`.written.may_shadow`): leaving their frame keeps
        #: the name, which is the outer object's again
        self.shadows: set[int] = set()
        self.common_prefix: dict[int, FramePath] = {}
        #: Var id -> how often set_common_prefix met it, for the vars it was asked to count
        #: (at least once per place it occurs; occurrences inside a Buffer met again under the
        #: same frames are not recounted)
        self.var_visits: dict[int, int] = {}
        self.root: Any = None  # the node set_common_prefix walked
        self.ir_usage: set[str] = set()
        self.metadata: dict[str, list[Any]] = {}
        self.underline: set[int] = {id(o) for o in cfg.obj_to_underline}
        self.module: Any = None
        self.module_name = "Module"  # the class name of the module being printed
        self.gvar_docs: dict[int, Doc] = {}
        self.gvar_alias = "cls"  # how the function being printed calls the module's functions
        self._comment_index: dict[tuple[str, Any], Any] | None = None
        self._comment_lines: dict[tuple[Any, int], list[Any]] = {}  # (file, line) -> spans
        self._comments_used: set[tuple[str, Any]] = set()
        self._t_docs: dict[str, Doc] = {}  # name -> the doc of T.name (shared, docs are immutable)
        #: whether docs may break lines (``line_length`` set); else brackets are built flat
        self.wrap = bool(cfg.line_length)
        self.define_free = True  # define free vars/buffers where used (False: expression root)
        self.data_owner: dict[int, Any] = {}  # data var id -> the buffer it prints as X.data of
        # tirx, in a function without blocks: a shape-(1,) buffer's element 0 prints as the
        # buffer's name (``out = v``, ``A + 1``), as TVM 0.27 prints it (see buffer.is_scalar)
        self.scalar_buffers = False
        self.scalar_cells: set[int] = set()  # tirx: ids of the cells printed x: T.int32 = v
        self.type_vars: list[str] = []  # tirx: module-level ``n = TypeVar("n")`` lines to print
        self.type_var_ids: set[int] = set()

    # ------------------------------------------------------------------------- prefixes
    def T(self, name: str) -> Doc:  # pylint: disable=invalid-name
        """``T.name`` (records that the tir namespace is used)."""
        self.ir_usage.add("tir")
        doc = self._t_docs.get(name)
        if doc is None:
            doc = self._t_docs[name] = Text(f"{self.cfg.tir_prefix}.{name}")
        return doc

    def I(self, name: str) -> Doc:  # pylint: disable=invalid-name
        """``I.name``."""
        self.ir_usage.add("ir")
        return Text(f"{self.cfg.ir_prefix}.{name}")

    @property
    def tirx(self) -> bool:
        """Whether the tirx (TVM 0.27) spelling is printed."""
        return self.cfg.dialect == "tirx"

    # --------------------------------------------------------------------------- frames
    def frame(self, node: Any) -> "_FrameScope":
        """Open a frame for ``node`` (``with p.frame(node) as f``); names defined in it are
        freed on exit."""
        return _FrameScope(self, Frame(node))

    def _undefine(self, key: int) -> None:
        self.docs.pop(key, None)
        name = self.names.pop(key, None)
        if key in self.shadows:
            self.shadows.discard(key)
        elif name is not None:
            self.defined_names.discard(name)

    def allow_concise(self, node: Any = None) -> bool:
        """Whether the statement being printed may use concise scoping (TVM
        ``AllowConciseScoping``): it is the last of its frame and not underlined; with the
        ``written`` option (tirfmt), not when the user wrote ``node`` as a ``with`` scope."""
        if not (self.frames and self.frames[-1].allow_concise and self.cfg.syntax_sugar):
            return False
        text = self.cfg.written(node) if self.cfg.written is not None and node is not None \
            else None
        return text is None or not (text.startswith("with") and text[4:5].isspace())

    # ----------------------------------------------------------------------- definitions
    def unique_name(self, hint: str) -> str:
        """A fresh name from ``hint`` (``i``, ``i_1``, ``i_2``...)."""
        base = sanitize(hint)
        name, i = base, 1
        while name in self.defined_names:
            name, i = f"{base}_{i}", i + 1
        return name

    def define(self, obj: Any, frame: Frame, hint: str, shadow: bool = False) -> Doc:
        """Define ``obj`` in ``frame`` under a fresh name derived from ``hint``; its doc.
        ``shadow``: under ``hint`` itself even when an outer definition holds it (the caller
        checked that nothing in ``frame`` refers to that one, :func:`.written.may_shadow`)."""
        name = sanitize(hint) if shadow else self.unique_name(hint)
        if name in self.defined_names:
            self.shadows.add(id(obj))
        self.defined_names.add(name)
        self.names[id(obj)] = name
        doc = Text(name)
        self.docs[id(obj)] = doc
        self.keep.append(obj)
        frame.defined.append(id(obj))
        return doc

    def define_as(self, obj: Any, frame: Frame, doc: Doc) -> None:
        """Define ``obj`` as an expression (``A.data``, ``A.elem_offset``) without a name."""
        self.docs[id(obj)] = doc
        self.keep.append(obj)
        frame.defined.append(id(obj))

    def is_defined(self, obj: Any) -> bool:
        """Whether ``obj`` has a doc in the current scopes."""
        return id(obj) in self.docs

    def var_doc(self, obj: Any) -> Doc | None:
        """The doc of a defined var/buffer, or None."""
        return self.docs.get(id(obj))

    def lowest_def_frame(self, obj: Any) -> Frame | None:
        """The innermost open frame enclosing every use of ``obj`` (TVM ``FindLowestVarDef``);
        the root frame when ``obj`` was not seen by :meth:`set_common_prefix`."""
        path = self.common_prefix.get(id(obj))
        if path is not None:
            by_node = {id(f.node): f for f in self.frames if f.node is not None}
            for key in path.keys_inward():
                if key in by_node:
                    return by_node[key]
        return self.frames[0] if self.frames else None

    def set_common_prefix(self, root: Any, count: Any = ()) -> None:
        """Record for each Var/Buffer the chain of frame-opening nodes enclosing all its uses
        (TVM ``IRDocsifier::SetCommonPrefix``), and in :attr:`var_visits` how often each var of
        ``count`` was met."""
        finder = _PrefixFinder(self.common_prefix, self.var_visits, {id(v) for v in count})
        finder.visit(root, ROOT)
        self.root = root

    # --------------------------------------------------------------------------- dispatch
    def expr(self, obj: Any) -> E:
        """Print ``obj`` as an expression (TVM ``AsDoc<ExprDoc>``)."""
        fn = _RESOLVED.get(type(obj)) or lookup(obj)
        result: Any  # an E, or a Doc to wrap in one
        if fn is None:
            result = self.meta_ref(obj)
        else:
            result = fn(self, obj)
        if type(result) is not E:
            result = E(result)
        if self.underline and id(obj) in self.underline and isinstance(obj, Node):
            return E(Mark(id(obj), result.doc), result.prec)
        return result

    def stmts(self, obj: Any, fn: PrintFn | None = None) -> list[SDoc]:
        """Print a statement (or a function, module) as statement docs (TVM ``AsDoc``); ``fn``:
        a printing function to use instead of the registered one (TVM: a printer calling
        another's doc function, e.g. ``DeclBufferDoc`` with another ``BufferVarDefinition``)."""
        fn = fn or lookup(obj)
        if fn is None:
            return [LineDoc(self.expr(obj).doc)]
        result = fn(self, obj)
        docs = result if isinstance(result, list) else [result]
        if isinstance(result, E):
            docs = [LineDoc(result.doc)]
        self._attach(obj, docs)
        return docs

    def _attach(self, obj: Any, docs: list[SDoc], enclosing: bool = False) -> None:
        if not docs or not isinstance(obj, Node):
            return
        if id(obj) in self.underline:
            docs[0].keys = [*docs[0].keys, id(obj)]
        com = self.comments_of(obj, enclosing)
        if com is not None:
            docs[0].leading = [*com.leading, *docs[0].leading]
            docs[0].trailing = [*docs[0].trailing, *com.trailing]
            docs[-1].after = [*docs[-1].after, *com.after]

    def with_comments(self, obj: Any, doc: SDoc) -> SDoc:
        """``doc``, the line printed for ``obj`` (a node that is no statement: a buffer's
        ``A = T.match_buffer(...)`` / ``T.alloc_buffer`` line), with the comments of the
        statement that declared it (the table's span that encloses ``obj``'s, on its line)."""
        self._attach(obj, [doc], enclosing=True)
        return doc

    def comments_of(self, obj: Any, enclosing: bool = False) -> Comments | None:
        """Comments configured for ``obj`` (by node identity, then by span, then, with
        ``enclosing``, by a statement span on its line that contains its span); each entry of
        the table is printed once, with the first statement it matches."""
        if not self.cfg.comments:
            return None
        if self._comment_index is None:
            self._comment_index, self._comment_lines = {}, {}
            for key, value in self.cfg.comments.items():
                k = ("id", id(key)) if isinstance(key, Node) else ("span", _span_key(key))
                self._comment_index[k] = value
                if getattr(key, "start_offset", None) is not None and not isinstance(key, Node):
                    self._comment_lines.setdefault((key.source_name, key.line), []).append(key)
        span = obj.span
        keys = [("id", id(obj)), ("span", _span_key(span))]
        if enclosing and getattr(span, "start_offset", None) is not None:
            keys += [("span", _span_key(key))
                     for key in self._comment_lines.get((span.source_name, span.line), ())
                     if key.start_offset <= span.start_offset <= span.end_offset <= key.end_offset]
        found = None
        for k in keys:
            if k in self._comment_index and k not in self._comments_used and k[1] is not None:
                found = self._comment_index[k]
                self._comments_used.add(k)
                break
        if found is None:
            return None
        if isinstance(found, Comments):
            return found
        return Comments([found]) if isinstance(found, str) else Comments(list(found))

    def body(self, stmt: Any, frame: Frame) -> None:
        """Print a statement body into ``frame`` (TVM ``AsDocBody``): a SeqStmt's items one by
        one, the last one allowed concise scoping."""
        items = stmt.seq if isinstance(stmt, S.SeqStmt) else (stmt,)
        frame.sole = not isinstance(stmt, S.SeqStmt)
        last = len(items) - 1
        for i, s in enumerate(items):
            frame.allow_concise = i == last
            docs = self.stmts(s)
            if i == last and not frame.stmts:  # the sole statement: its docs are the frame's
                frame.stmts = docs  # (no copy per link of a chain of scopes)
            else:
                frame.stmts.extend(docs)

    def meta_ref(self, obj: Any) -> Doc:
        """``metadata["Kind"][i]`` for an object with no TVMScript form (TVM's metadata)."""
        kind = type(obj).__name__
        items = self.metadata.setdefault(kind, [])
        for i, o in enumerate(items):
            if o is obj:
                return Text(f'metadata["{kind}"][{i}]')
        items.append(obj)
        return Text(f'metadata["{kind}"][{len(items) - 1}]')


def _span_key(span: Any) -> Any:
    if span is None:
        return None
    try:
        hash(span)
        return span
    except TypeError:
        return repr(span)


def count_uses(obj: Any, target: Any) -> int:
    """How many times ``target`` (a Var) occurs under ``obj``, fields of every node walked."""
    stack, count = [obj], 0
    while stack:
        cur = stack.pop()
        if cur is target:
            count += 1
        elif isinstance(cur, (list, tuple)):
            stack.extend(cur)
        elif isinstance(cur, dict):
            stack.extend(cur.keys())
            stack.extend(cur.values())
        elif isinstance(cur, Node):
            cls: type = type(cur)  # (a type[Node] is unhashable to mypy 2.4: lru_cache)
            stack.extend(getattr(cur, f.name, None) for f in node_fields(cls))
    return count


#: field value classes that hold no Var or Buffer (skipped without a call); grows with the
#: non-node classes met (dtypes, enums...)
_LEAVES: set[type] = {str, int, float, bool, IntImm, FloatImm, StringImm}


class _PrefixFinder:
    """Computes :attr:`Printer.common_prefix` over the frame-opening nodes."""

    #: node class -> (records, stops, opens, [(field, inner)]): what :meth:`visit` does with a
    #: node of that class (read once per class instead of per node)
    #: the field entries are (name, where): 0 under the enclosing path, 1 under the node's,
    #: 2 under the node's extended by the field's statement (OWN_FRAME_FIELDS)
    _PLANS: dict[type, tuple[bool, bool, bool, tuple[tuple[str, int], ...]]] = {}

    def __init__(self, out: dict[int, FramePath], var_visits: dict[int, int],
                 count: set[int]) -> None:
        self.out = out
        self.var_visits = var_visits
        self.count = count
        # (buffer id, path) pairs walked: walking a node again under the same path records
        # nothing new (the common prefix of a path with itself is the path)
        self.seen_at: set[tuple[int, FramePath]] = set()

    @classmethod
    def _plan(cls, node_cls: type) -> tuple[bool, bool, bool, tuple[tuple[str, int], ...]]:
        plan = cls._PLANS.get(node_cls)
        if plan is None:
            is_func = node_cls.__name__ == "PrimFunc"
            opens = issubclass(node_cls, S.Stmt) or is_func
            whole = issubclass(node_cls, S.Block) or is_func
            plan = (issubclass(node_cls, (Var, Buffer)), issubclass(node_cls, Var), opens,
                    tuple((f.name, 0 if not opens else 2 if f.name in OWN_FRAME_FIELDS
                           else int(whole or f.name in BODY_FIELDS))
                          for f in node_fields(node_cls)))
            cls._PLANS[node_cls] = plan
        return plan

    def visit(self, obj: Any, path: FramePath) -> None:
        """Record the frame path of every Var/Buffer under ``obj`` (``path``: the frame-opening
        nodes enclosing it)."""
        cls = type(obj)
        plan = self._PLANS.get(cls)  # node classes only
        if plan is None:
            if cls is list or cls is tuple or isinstance(obj, (list, tuple)):
                self._items(obj, path)
                return
            if isinstance(obj, dict):
                self._items(obj.keys(), path)
                self._items(obj.values(), path)
                return
            if not isinstance(obj, Node):
                _LEAVES.add(cls)
                return
            plan = self._plan(cls)
        records, stops, opens, fields = plan
        if records:
            if stops:  # a Var
                self._var(obj, path)
                return
            # a Buffer, met at every access: its fields once per path suffice
            key = (id(obj), path)
            if key in self.seen_at:
                return
            self.seen_at.add(key)
            self._record(obj, path)
        inner = FramePath(path, id(obj)) if opens else path
        for name, where in fields:
            value = getattr(obj, name, None)
            vcls = type(value)
            if value is None or vcls in _LEAVES:
                continue
            at = path if not where else inner if where == 1 else inner.child(id(value))
            if vcls is Var:
                self._var(value, at)
            elif vcls is tuple or vcls is list:
                self._items(value, at)
            else:
                self.visit(value, at)

    def _items(self, items: Any, path: FramePath) -> None:
        """Visit the items of a list/tuple/dict view (Vars and leaves without a call: they are
        most of the items, e.g. a shape's dims or a block's iter values)."""
        for x in items:
            cls = type(x)
            if cls in _LEAVES:
                continue
            if cls is Var:
                self._var(x, path)
            else:
                self.visit(x, path)

    def _var(self, var: Any, path: FramePath) -> None:
        key = id(var)
        if key in self.count:
            self.var_visits[key] = self.var_visits.get(key, 0) + 1
        old = self.out.get(key)
        if old is None:
            self.out[key] = path
        elif old is not path and not path.starts_with(old):  # else: a use under the recorded frames
            self._record(var, path)

    def _record(self, obj: Any, path: FramePath) -> None:
        key = id(obj)
        old = self.out.get(key)
        if old is None:
            self.out[key] = path
            return
        if path.starts_with(old):  # the usual case: a use under the recorded frames
            return
        self.out[key] = old.common(path)
