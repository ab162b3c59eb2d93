"""The user's own spelling, where the IR allows two (``PrinterConfig.written``; tirkit's
option, used by ``tirfmt``: a formatter changes layout, never what the user wrote). No TVM
counterpart: TVM's printer has one spelling per IR.

``written(node)`` is the source text a node was parsed from (its span), or ``None``. With it, the
printer keeps:

- ``a: T.handle`` with ``A = T.match_buffer(a, ...)`` rather than ``A: T.Buffer(...)``
  (:func:`match_buffer_written`), and ``-> None`` on a ``def`` (:func:`returns_none`);
- a default dtype written out, positionally or as ``dtype=`` (:func:`dtype_written`);
- ``T.serial(n)`` / ``range(n)`` / ``T.grid(...)`` over the loops the user grouped
  (:func:`loop_spelling`);
- ``T.axis.S`` / ``T.axis.R`` / ``T.axis.spatial`` / ``T.axis.remap`` as written
  (:func:`axis_spelling`);
- ``T.evaluate(call)`` (:func:`called_as`), ``T.int32(1)`` (:func:`int_written`) and a float
  literal as written, ``T.float32(1)`` / ``1e-5`` (:func:`float_written`);
- ``with T.block():`` without the empty name (:func:`unnamed_block`), a block without
  ``T.reads`` / ``T.writes`` left so (:func:`regions_written`), a free buffer or var
  declared where the user declared it (:func:`declared_frame`), a root block written
  out (:func:`root_block_written`), ``T.cast(x, "float32")`` (:func:`called_as`);
- ``T.floordiv(a, b)`` / ``T.floormod(a, b)`` rather than ``//`` / ``%`` (:func:`called_as`),
  ``T.min_value("float32")`` / ``T.max_value(...)`` rather than the constant
  (:func:`limit_written`);
- a call's ``dtype="float32"`` keyword (``T.call_extern("f", x, dtype="float32")``, TVM's
  older spelling; :func:`dtype_keyword`);
- a keyword argument written out with its default value (``elem_offset=0``, ``align=64``,
  ``offset_factor=1``, ``scope="global"`` of a buffer declaration) or by keyword where the
  printer writes it positionally (``T.allocate(..., scope="local")``,
  ``T.handle("float32", storage_scope="shared")``; :func:`keyword_written`), and left out
  where the user left it out (``T.handle("float32")``, no ``"global"``; :func:`args_written`);
- ``return v`` rather than ``T.ret(v)`` (:func:`return_written`), ``elif c:`` rather than
  ``else:`` and a nested ``if c:`` (:func:`elif_written`);
- ``T.ceildiv(14, 4)`` of two integers, which the parser folds (:func:`folded_written`);
- ``A.access_ptr("r", extent=128)`` with literal arguments (:func:`method_written`);
- ``tx = T.launch_thread("threadIdx.x", 32)`` rather than ``T.env_thread`` and
  ``T.launch_thread(tx, 32)`` (:func:`launch_written`);
- a loop's start written out, ``T.parallel(0, n)`` (:func:`loop_start_written`);
- ``T.broadcast(x, 4)`` / ``T.ramp(b, s, 4)`` (:func:`called_as`) and a constant written
  ``A.strides[0]`` / ``A.shape[1]`` of a buffer in scope, which the parser folds
  (:func:`buffer_field_written`);
- a constant stored into a buffer of another dtype as written, ``A[i] = T.float32(0)`` into a
  float16 buffer (:func:`store_cast_written`; the parser casts it to ``T.float16(0.0)``), a
  value the parser cast to the buffer's dtype without a written cast (``A[i] = T.float32(i)``
  into a float16 buffer; :func:`store_cast_implicit`) and a cast written ``T.float32(x)``
  (:func:`called_as`);
- ``T.cast(14, "float64")`` of a literal, which the parser folds (:func:`cast_folded_written`);
- ``n = T.Var("n", dtype="int32")`` rather than ``T.int32()`` (:func:`var_call_written`);
- ``T.attr(T.iter_var(tx, T.Range(0, 256), "ThreadIndex", "threadIdx.x"), "thread_extent",
  256)`` rather than a thread launch (:func:`attr_iter_var_written`);
- a param written ``A: T.Buffer(..., axis_separators=[1])`` / ``align=64`` as that
  annotation (not ``a: T.handle`` and ``T.match_buffer``; :func:`called_as`, in
  ``func._param_buffer_written``) and ``T.LetStmt(v, var=T.handle("float32"))`` with its
  keyword (:func:`keyword_written`);
- a Relax binding's annotation ``gv: R.Tensor(...) = R.call_tir(...)``, which the printer
  leaves out when ``out_sinfo`` says it (:func:`binding_annotated`);
- ``for iters in T.grid(16, 16)`` over a tuple of loop vars, read as ``iters[0]``... and
  remapped as ``T.axis.remap("SS", iters)`` (:func:`grid_tuple_written`);
- ``x = v`` without a type annotation (:func:`let_unannotated`; ``T.int8x128`` has no
  ``T.`` name to write one with);
- a region's single element written as a slice, ``T.reads(A[i : i + 1])``
  (:func:`slices_written`);
- a loop var named as an outer var it shadows, ``for k in range(n)`` under ``k = T.int32()``
  (:func:`may_shadow`), where the loop's body does not refer to the outer one.

Each test matches the whole written text of the node, so a node that only inherited a span
from its parent (a constant inside ``T.int32(1) + 2``) keeps the printer's spelling.
"""
from __future__ import annotations

import ast
import dataclasses
import re
from types import SimpleNamespace
from typing import Any, Iterator

from tirkit.ir.dtype import dtype
from tirkit.ir.node import Node, node_fields
from tirkit.ir.structural import structural_equal
from tirkit.tir.buffer import Buffer
from tirkit.tir import stmt as S
from tirkit.tir.expr import Var

from .context import Printer, sanitize

__all__ = ["written", "match_buffer_written", "returns_none", "dtype_written", "loop_spelling",
           "axis_spelling", "called_as", "int_written", "float_written", "dtype_keyword",
           "unnamed_block", "regions_written", "declared_frame", "root_block_written",
           "limit_written",
           "keyword_written", "args_written", "return_written", "elif_written", "folded_written",
           "method_written", "launch_written", "loop_start_written", "may_shadow",
           "slices_written", "buffer_field_written", "store_cast_written",
           "store_cast_implicit", "let_unannotated",
           "cast_folded_written", "var_call_written",
           "attr_iter_var_written", "binding_annotated",
           "grid_tuple_written", "GridTuple", "grid_tuple_doc"]


def written(p: Printer, node: Any) -> str | None:
    """The source text ``node`` was parsed from, when the printer was given it."""
    source = p.cfg.written
    return None if source is None else source(node)


def _t(p: Printer) -> str:
    return re.escape(p.cfg.tir_prefix) + r"\s*\.\s*"


def called_as(p: Printer, node: Any, name: str) -> bool:
    """Whether ``node`` was written as a call ``T.name(...)``."""
    text = written(p, node)
    return text is not None and re.match(_t(p) + re.escape(name) + r"\s*\(", text) is not None \
        and text.rstrip().endswith(")")


def match_buffer_written(p: Printer, buf: Any) -> bool:
    """Whether a parameter's buffer was declared ``A = T.match_buffer(a, ...)`` (the param
    written ``a: T.handle``)."""
    return called_as(p, buf, "match_buffer")


_RETURNS_NONE = re.compile(r"\)\s*->\s*None\s*:")


def returns_none(p: Printer, func: Any) -> bool:
    """Whether the ``def`` of ``func`` was written ``-> None``."""
    text = written(p, func)
    if text is None or not text.startswith("def"):
        return False
    end = _header_end(text)
    return end is not None and _RETURNS_NONE.search(text[:end + 1]) is not None


def _header_end(text: str) -> int | None:
    """Offset of the ``:`` ending a ``def`` header (brackets and strings skipped)."""
    depth, quote, i = 0, "", 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ":" and depth == 0:
            return i
        i += 1
    return None


def dtype_written(p: Printer, buf: Any) -> str | None:
    """How a buffer declaration call spelled its dtype: ``"keyword"`` (``dtype="float32"``),
    ``"positional"`` (the string after the shape) or ``None`` (left out, or unknown). ``buf``
    is the buffer or the ``DeclBuffer`` whose text is ``B = T.decl_buffer(...)`` or
    ``with T.decl_buffer(...) as B:``."""
    text = written(p, buf)
    if text is not None and not hasattr(buf, "dtype"):
        declared = getattr(buf, "buffer", None)
        m = re.match(r"(\w+)\s*=\s*|with\s+", text)
        if declared is None or m is None or m.group(1) not in (None, declared.name):
            return None
        text, buf = text[m.end():], declared
        if m.group(1) is None:  # ``with T.decl_buffer(...) as B:`` and its body
            call = re.match(_t(p) + r"\w+\s*\(", text)
            end = _paren_end(text, call.end()) if call is not None else None
            if end is None or not re.match(r"\s*as\s+" + re.escape(declared.name) + r"\s*:",
                                           text[end + 1:]):
                return None
            text = text[:end + 1]
    if text is None or not re.match(_t(p) + r"\w+\s*\(", text) or not text.endswith(")"):
        return None
    string = r"""["']""" + re.escape(str(buf.dtype)) + r"""["']"""
    if re.search(r"\bdtype\s*=\s*" + string + r"\s*[,)]", text):
        return "keyword"
    args = _top_level_args(text[text.index("(") + 1:-1])
    shape_at = 1 if re.match(_t(p) + r"match_buffer\b", text) else 0
    if len(args) > shape_at + 1 and re.fullmatch(r"\s*" + string + r"\s*", args[shape_at + 1]):
        return "positional"
    return None


def _unquoted(text: str, start: int = 0, depth: int = 0) -> Iterator[tuple[int, str, int]]:
    """``(offset, char, bracket depth after it)`` of each character of ``text`` from ``start``
    outside string quotes."""
    quote = ""
    for i in range(start, len(text)):
        c = text[i]
        if quote:
            quote = "" if c == quote else quote
            continue
        if c in "\"'":
            quote = c
            continue
        depth += 1 if c in "([{" else -1 if c in ")]}" else 0
        yield i, c, depth


def _top_level_args(text: str) -> list[str]:
    out, start = [], 0
    for i, c, depth in _unquoted(text):
        if c == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        out.append(text[start:])
    return out


_FOR = re.compile(r"for\s+([\w\s,()]+?)\s+in\s+(?:(range)|(\w[\w.\s]*?)\s*\.\s*(serial|grid))"
                  r"\s*\(")


def loop_spelling(p: Printer, loop: Any) -> tuple[str, int] | None:
    """How a serial loop was written: ``("range", 1)``, ``("serial", 1)`` or ``("grid", k)``
    (``for i, j in T.grid(...)``: the loop and the ``k - 1`` loops under it); ``None`` when
    unknown."""
    text = written(p, loop)
    if text is None:
        return None
    m = _FOR.match(text)
    if m is None or (m.group(3) is not None and
                     re.sub(r"\s", "", m.group(3)) != p.cfg.tir_prefix):
        return None
    names = [n for n in re.split(r"[\s,()]+", m.group(1)) if n]
    kind = "range" if m.group(2) else m.group(4)
    if kind != "grid" and len(names) != 1:
        return None
    return kind, len(names)


_AXIS = re.compile(r"(\w[\w.\s]*?)\s*\.\s*axis\s*\.\s*(\w+)\s*\(")


def axis_spelling(p: Printer, var: Any) -> tuple[str, Any] | None:
    """How a block iter var was written: ``(kind, span)`` with kind ``"S"``, ``"R"``,
    ``"spatial"``, ``"reduce"``, ... or ``"remap"`` (``span``: the remap call's, shared by the
    vars it binds); ``None`` when unknown."""
    text = written(p, var)
    if text is None:
        return None
    m = _AXIS.match(text)
    if m is None or re.sub(r"\s", "", m.group(1)) != p.cfg.tir_prefix:
        return None
    return m.group(2), getattr(var, "span", None)


def int_written(p: Printer, imm: Any) -> bool:
    """Whether a constant was written ``T.int32(1)`` (its dtype's call around its value)."""
    text = written(p, imm)
    if text is None:
        return False
    m = re.fullmatch(_t(p) + re.escape(str(imm.dtype)) + r"\s*\(\s*([-+]?\s*\w+)\s*\)", text)
    if m is None:
        return False
    try:
        return int(m.group(1).replace(" ", ""), 0) == imm.value
    except ValueError:
        return False


_FLOAT_LITERAL = r"([-+]?\s*(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][-+]?\d+)?)"


def float_written(p: Printer, imm: Any) -> str | None:
    """The literal of a float constant written ``T.float32(1)`` / ``T.float32(1e-5)`` (or bare,
    ``1e-5``), when it reads back as the same value; the printer would write ``1.0`` /
    ``1.0000000000000001e-05``."""
    text = written(p, imm)
    if text is None:
        return None
    m = re.fullmatch(_t(p) + re.escape(str(imm.dtype)) + r"\s*\(\s*" + _FLOAT_LITERAL
                     + r"\s*\)", text) or re.fullmatch(_FLOAT_LITERAL, text)
    if m is None:
        return None
    literal = m.group(1).replace(" ", "")
    try:
        return literal if float(literal) == imm.value else None
    except ValueError:
        return None


def dtype_keyword(p: Printer, call: Any, exact: bool = True) -> str | None:
    """The ``dtype=`` string a call was written with (``T.call_extern("f", x,
    dtype="float32")``), when it names the call's dtype or (``exact=False``: an op whose dtype
    the printer does not spell, the parser takes it from the op or from this keyword) any
    string; else ``None``."""
    text = written(p, call)
    if text is None or not re.match(_t(p) + r"[\w.]+\s*\(", text) or not text.endswith(")"):
        return None
    for arg in _top_level_args(text[text.index("(") + 1:-1]):
        m = re.fullmatch(r"""\s*dtype\s*=\s*(["'])([\w.]*)\1\s*""", arg)
        if m is not None:
            if not exact:
                return m.group(2)
            try:
                return m.group(2) if dtype(m.group(2)) == call.dtype else None
            except (TypeError, ValueError):
                return None
    return None


def unnamed_block(p: Printer, block: Any) -> bool:
    """Whether a block named ``""`` was written ``with T.block():`` (no name at all)."""
    text = written(p, block)
    return text is not None and block.name_hint == "" and re.match(
        r"with\s+" + _t(p) + r"s?block\s*\(\s*\)", text) is not None


def regions_written(p: Printer, block: Any, kind: str) -> bool:
    """Whether the block's ``T.reads`` (``kind="reads"``) or ``T.writes`` was written out: a
    line at the block's body indentation calls it. Blocks without them get them inferred by
    the parser, and tirfmt leaves them out again (True when the printer has no source)."""
    text = written(p, block)
    if text is None:
        return True
    lines = text.splitlines()[1:]
    body = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), None)
    if body is None:
        return True
    indent = body[:len(body) - len(body.lstrip())]
    call_re = re.compile(re.escape(indent) + _t(p) + kind + r"\s*\(")
    return any(call_re.match(ln) for ln in lines)


def declared_frame(p: Printer, obj: Any, lowest: Any) -> Any:
    """The frame to define a free var or buffer in: ``lowest`` (the innermost open frame
    enclosing every use, where the printer puts it) or the outer frame whose statement the user
    declared it above (``A_flat = T.Buffer(...)`` above a loop nest stays above it): frames are
    entered from the outside while their statement starts on or before the declaration's
    line."""
    span = getattr(obj, "span", None)
    if span is None or lowest is None:
        return lowest
    chosen = None
    for frame in p.frames:
        where = getattr(frame.node, "span", None)
        if where is not None and chosen is not None and span.line < where.line:
            return chosen  # declared above this frame's statement
        chosen = frame
        if frame is lowest:
            break
    return lowest


def root_block_written(p: Printer, realize: Any) -> bool:
    """Whether the root block was written out, ``with T.block("root"):`` (not left implicit)."""
    text = written(p, realize)
    return text is not None and re.match(
        r"with\s+" + _t(p) + r"s?block\s*\(\s*([\"'])root\1\s*\)", text) is not None


def limit_written(p: Printer, imm: Any) -> str | None:
    """``"min_value"`` / ``"max_value"`` when a constant was written ``T.min_value("dtype")``
    (its dtype's least or greatest value, which the parser folds), else ``None``."""
    text = written(p, imm)
    if text is None:
        return None
    m = re.fullmatch(_t(p) + r"(min_value|max_value)\s*\(\s*([\"'])" + re.escape(str(imm.dtype))
                     + r"\2\s*\)", text)
    return None if m is None else m.group(1)


_CALL_HEAD = r"(?:with\s+|[\w\s,]*[=:]\s*)?"  # ``A = `` / ``a: `` / ``with `` before the call


def _paren_end(text: str, start: int) -> int | None:
    """The offset of the ``)`` closing the bracket opened just before ``start``."""
    for i, c, depth in _unquoted(text, start, 1):
        if depth == 0 and c in ")]}":
            return i
    return None


def args_written(p: Printer, node: Any, callees: tuple[str, ...]) -> list[str] | None:
    """The argument texts of the call ``T.<callee>(...)`` declaring ``node`` (``callee`` one of
    ``callees``; its span may start with ``A = ``, ``a: `` or ``with ``), else ``None``."""
    text = written(p, node)
    if text is None:
        return None
    m = re.match(_CALL_HEAD + _t(p) + r"(\w+)\s*\(", text)
    if m is None or m.group(1) not in callees:
        return None
    end = _paren_end(text, m.end())
    return None if end is None else _top_level_args(text[m.end():end])


def keyword_written(p: Printer, node: Any, key: str, callees: tuple[str, ...]) -> str | None:
    """The text of the argument ``key=...`` that the call ``T.<callee>(...)`` declaring
    ``node`` was written with (see :func:`args_written`), else ``None``."""
    for arg in args_written(p, node, callees) or ():
        kw = re.fullmatch(r"\s*" + re.escape(key) + r"\s*=(?!=)\s*(.*?)\s*", arg, re.S)
        if kw is not None:
            return kw.group(1)
    return None


def elif_written(p: Printer, stmt: Any) -> bool:
    """Whether the ``if`` of an ``else`` branch was written ``elif c:``."""
    text = written(p, stmt)
    return text is not None and re.match(r"elif\b", text) is not None


def return_written(p: Printer, stmt: Any) -> bool:
    """Whether ``T.evaluate(T.ret(v))`` was written ``return v``."""
    text = written(p, stmt)
    return text is not None and re.match(r"return\b", text) is not None


#: integer functions of two constants the parser folds: the value each gives
_FOLDED = {"ceildiv": lambda a, b: -(-a // b), "floordiv": lambda a, b: a // b,
           "floormod": lambda a, b: a % b}


def folded_written(p: Printer, imm: Any) -> tuple[str, int, int] | None:
    """``(name, a, b)`` when a constant was written ``T.ceildiv(a, b)`` (``a``, ``b`` integer
    literals the parser folds into it: ``T.floordiv`` and ``T.floormod`` too), else ``None``."""
    text = written(p, imm)
    if text is None:
        return None
    m = re.fullmatch(_t(p) + r"(\w+)\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)", text)
    if m is None or m.group(1) not in _FOLDED or int(m.group(3)) == 0:
        return None
    a, b = int(m.group(2)), int(m.group(3))
    return (m.group(1), a, b) if _FOLDED[m.group(1)](a, b) == imm.value else None


def method_written(p: Printer, node: Any, method: str
                   ) -> tuple[list[Any], dict[str, Any]] | None:
    """The arguments of ``X.method(...)`` that ``node`` was written as, when each is a Python
    literal (``A.access_ptr("r", extent=128)``: ``(["r"], {"extent": 128})``), else ``None``.
    The caller checks that they build ``node`` again."""
    text = written(p, node)
    if text is None:
        return None
    m = re.fullmatch(r"\w+\s*\.\s*" + re.escape(method) + r"\s*\((.*)\)", text.strip(), re.S)
    if m is None:
        return None
    try:
        tree = ast.parse(f"f({m.group(1)})", mode="eval").body
        assert isinstance(tree, ast.Call)
        args = [ast.literal_eval(a) for a in tree.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in tree.keywords if k.arg}
    except (SyntaxError, ValueError, TypeError):
        return None
    if len(kwargs) != len(tree.keywords):
        return None
    return args, kwargs


def launch_written(p: Printer, stmt: Any) -> bool:
    """Whether a thread launch was written ``tx = T.launch_thread("threadIdx.x", n)`` (or
    ``with T.launch_thread("threadIdx.x", n) as tx:``), the statement defining its var."""
    text = written(p, stmt)
    return text is not None and re.match(r"(?:with\s+|\w+\s*=\s*)" + _t(p)
                                         + r"launch_thread\s*\(\s*[\"']", text) is not None


_LOOP_CALL = re.compile(r"for\s+[\w\s,()]+?\s+in\s+(?:range|(\w[\w.\s]*?)\s*\.\s*\w+)\s*\(")


def loop_start_written(p: Printer, loop: Any) -> bool:
    """Whether a loop was written with its start, ``for i in T.parallel(0, n):`` (two
    positional arguments), so the printer keeps a start of 0."""
    text = written(p, loop)
    if text is None:
        return False
    m = _LOOP_CALL.match(text)
    if m is None or (m.group(1) is not None and
                     re.sub(r"\s", "", m.group(1)) != p.cfg.tir_prefix) or \
            re.search(r"\.\s*grid\s*\($", m.group(0)):
        return False
    end = _paren_end(text, m.end())
    if end is None:
        return False
    args = _top_level_args(text[m.end():end])
    return len([a for a in args if not re.match(r"\s*\w+\s*=(?!=)", a)]) >= 2


def may_shadow(p: Printer, var: Any, loop: Any, scope: Any) -> bool:
    """Whether the loop var ``var`` of ``loop`` (a ``For``, or the first of a ``T.grid``) may
    print under its own name though an outer definition holds that name: the user wrote it so
    (``for k in range(n)`` inside the scope of ``k = T.int32()``; the parser binds ``k`` to
    the loop var in the loop's body and to the outer var again after it, as the printer frees
    the name), and nothing printed in ``scope`` (the loop's body; a grid's innermost body: its
    extents are read before its vars are bound) refers to the outer object."""
    name = sanitize(var.name_hint)
    if name != var.name_hint or name not in p.defined_names or name in (
            p.cfg.tir_prefix, p.cfg.ir_prefix):
        return False
    text = written(p, loop)
    target = re.match(r"for\s+([\w\s,()]+?)\s+in\b", text) if text is not None else None
    if target is None or name not in re.split(r"[\s,()]+", target.group(1)):
        return False
    keys = {key for key, n in p.names.items() if n == name}  # the outer definition(s)
    owners = [o for o in p.keep if id(o) in keys]
    # a var only: a buffer's name also prints in the docs of its fields (``k.data``)
    return bool(keys) and all(isinstance(o, Var) for o in owners) \
        and not _refers(p, scope, keys)


def _refers(p: Printer, obj: Any, ids: set[int]) -> bool:
    """Whether an object of ``ids`` occurs under ``obj`` where the printer may print it: not in
    a buffer already declared (its shape printed outside) nor in the domain of a block iter
    var bound to a loop var over that same domain (it prints as ``T.axis.remap``, without the
    domain, which the parser took from the loop's header)."""
    stack, seen = [obj], set()
    loops = {}
    for f in p.frames:
        node = f.node
        while isinstance(node, S.For):  # (a T.grid's loops: the frame of the first)
            loops[id(node.loop_var)] = node
            node = node.body
    while stack:
        cur = stack.pop()
        if id(cur) in ids:
            return True
        if isinstance(cur, (list, tuple)):
            stack.extend(cur)
        elif isinstance(cur, dict):
            stack.extend(cur.keys())
            stack.extend(cur.values())
        elif isinstance(cur, Node) and id(cur) not in seen:
            seen.add(id(cur))
            if isinstance(cur, Buffer) and p.is_defined(cur):
                continue
            if isinstance(cur, S.For):
                loops[id(cur.loop_var)] = cur
            elif isinstance(cur, S.BlockRealize):
                block = cur.block
                for iv, value in zip(block.iter_vars, cur.iter_values):
                    loop = loops.get(id(value))
                    if loop is not None and iv.dom is not None and \
                            structural_equal(loop.min, iv.dom.min) and \
                            structural_equal(loop.extent, iv.dom.extent):
                        seen.add(id(iv))  # printed by T.axis.remap: its var only
                        stack.append(iv.var)
            stack.extend(getattr(cur, f.name, None) for f in node_fields(type(cur)))
    return False


def slices_written(p: Printer, region: Any) -> list[bool] | None:
    """For each dimension of a buffer region written ``A[i : i + 1, j]``, whether it was
    written as a slice (``[True, False]``; the printer writes an extent of 1 as ``A[i]``
    otherwise); ``None`` when unknown."""
    text = written(p, region)
    if text is None:
        return None
    m = re.match(r"\w+\s*\[", text)
    if m is None:
        return None
    end = _paren_end(text, m.end())
    if end is None or text[end + 1:].strip():
        return None
    items = _top_level_args(text[m.end():end])
    if len(items) != len(region.region):
        return None
    return [any(c == ":" and depth == 0 for _, c, depth in _unquoted(item)) for item in items]


_BUFFER_FIELD = re.compile(r"(\w+)\s*\.\s*(shape|strides)\s*\[\s*(\d+)\s*\]")


def buffer_field_written(p: Printer, imm: Any) -> tuple[Any, str, int] | None:
    """``(doc, field, k)`` when a constant was written ``A.strides[k]`` (or ``A.shape[k]``) of
    the buffer the printer names ``A`` here (``doc`` its doc), whose field holds that constant
    (the parser folds it), else ``None``."""
    text = written(p, imm)
    m = _BUFFER_FIELD.fullmatch(text.strip()) if text is not None else None
    if m is None:
        return None
    keys = {key for key, name in p.names.items() if name == m.group(1)}
    bufs = [o for o in p.keep if id(o) in keys and isinstance(o, Buffer)]
    if len(bufs) != 1 or len(keys) != 1:
        return None
    values = getattr(bufs[0], m.group(2))
    k = int(m.group(3))
    if k >= len(values):
        return None
    value = values[k]
    if type(value) is not type(imm) or value.dtype != imm.dtype or value.value != imm.value:
        return None
    return p.var_doc(bufs[0]), m.group(2), k


_STORE_CONST = r"[^=]*=(?!=)\s*{t}(\w+)\s*\(\s*([-+]?\s*[\w.]+)\s*\)\s*"


def store_cast_written(p: Printer, store: Any) -> tuple[str, str] | None:
    """``(dtype, literal)`` when a store's constant value was written ``T.float32(0)`` and the
    parser cast it to the buffer's dtype (the constant carries the statement's span, as a
    value built by the store), so that ``T.float32(0)`` builds it again; else ``None``."""
    # pylint: disable=import-outside-toplevel  # (the IR builders, only for this check)
    from tirkit.ir.expr import FloatImm, IntImm
    from tirkit.tir import op

    value = store.value
    if type(value) not in (IntImm, FloatImm):
        return None
    text = written(p, store)
    if text is None or written(p, value) != text:
        return None
    m = re.fullmatch(_STORE_CONST.format(t=_t(p)), text, re.S)
    if m is None or m.group(1) == str(value.dtype):
        return None
    try:
        number = ast.literal_eval(m.group(2).replace(" ", ""))
        if type(number) not in (int, float):
            return None
        again = op.cast(value.dtype, op.const(number, dtype(m.group(1))))
    except (SyntaxError, ValueError, TypeError):
        return None
    if type(again) is not type(value) or again.dtype != value.dtype:
        return None
    same = getattr(again, "value", None) == getattr(value, "value", None)
    return (m.group(1), m.group(2)) if same else None


def store_cast_implicit(p: Printer, store: Any) -> Any | None:
    """The value under the cast of a store's value that the parser added (the ``Cast`` carries
    the statement's span: ``A[i] = T.float32(i)`` into a float16 buffer), when storing that
    value casts it again the same way (``T.buffer_store``); else ``None``."""
    from tirkit.tir.expr import Cast  # pylint: disable=import-outside-toplevel

    value = store.value
    if type(value) is not Cast:
        return None
    text = written(p, store)
    if text is None or written(p, value) != text:
        return None
    inner, want = value.value.dtype, store.buffer.dtype
    if inner.is_handle() or inner.is_void() or inner.element_of() == want.element_of() or \
            value.dtype != want.element_of().with_lanes(inner.lanes):
        return None
    return value.value


def let_unannotated(p: Printer, let: Any) -> bool:
    """Whether a ``LetStmt`` was written ``x = v`` (no annotation) and its var has the type the
    parser gives it from the value (its dtype, a number type)."""
    from tirkit.ir.type import PrimType  # pylint: disable=import-outside-toplevel

    text = written(p, let)
    m = re.match(r"(\w+)\s*=(?!=)", text) if text is not None else None
    var, value = let.var, let.value
    return m is not None and m.group(1) == var.name_hint and \
        isinstance(var.type_annotation, PrimType) and var.dtype == value.dtype and \
        var.type_annotation.dtype == value.dtype and not value.dtype.is_handle()


def cast_folded_written(p: Printer, imm: Any) -> tuple[str, bool] | None:
    """``(literal, keyword)`` when a constant was written ``T.cast(14, "float64")`` (``keyword``:
    ``dtype="float64"``) and casting that literal gives it again (the parser folds the cast of a
    constant); else ``None``."""
    from tirkit.tir import op  # pylint: disable=import-outside-toplevel

    text = written(p, imm)
    m = re.fullmatch(_t(p) + r"cast\s*\(\s*([-+]?\s*[\w.]+)\s*,\s*(dtype\s*=\s*)?([\"'])"
                     + re.escape(str(imm.dtype)) + r"\3\s*,?\s*\)", text.strip()) \
        if text is not None else None
    if m is None:
        return None
    try:
        number = ast.literal_eval(m.group(1).replace(" ", ""))
        if type(number) not in (int, float):
            return None
        again = op.cast(imm.dtype, op.const(number))
    except (SyntaxError, ValueError, TypeError):
        return None
    same = type(again) is type(imm) and getattr(again, "value", None) == getattr(imm, "value", None)
    return (m.group(1), m.group(2) is not None) if same else None


def var_call_written(p: Printer, var: Any) -> bool | None:
    """Whether a var was declared ``T.Var("n", dtype="int32")`` (``True``: the dtype by keyword,
    ``False``: positional), its name and dtype written as literals; ``None`` otherwise."""
    args = args_written(p, var, ("Var",))
    if args is None or len(args) != 2:
        return None
    name = re.fullmatch(r"""\s*(["'])(\w+)\1\s*""", args[0])
    kind = re.fullmatch(r"""\s*(dtype\s*=\s*)?(["'])([\w.]+)\2\s*""", args[1])
    if name is None or kind is None or name.group(2) != var.name_hint or \
            kind.group(3) != str(var.dtype):
        return None
    return kind.group(1) is not None


def attr_iter_var_written(p: Printer, stmt: Any) -> bool:
    """Whether a thread-extent ``AttrStmt`` was written ``T.attr(T.iter_var(...), ...)``."""
    text = written(p, stmt)
    return text is not None and re.match(
        r"(?:with\s+)?" + _t(p) + r"attr\s*\(\s*" + _t(p) + r"iter_var\s*\(", text) is not None


def binding_annotated(p: Printer, binding: Any) -> bool:
    """Whether a Relax binding was written with its var's annotation, ``gv: R.Tensor(...) =
    ...`` (the var's span is its name: the rest of that line is read)."""
    span = getattr(binding.var, "span", None)
    if span is None or p.cfg.written is None:
        return False
    rest = written(p, SimpleNamespace(span=dataclasses.replace(
        span, end_line=span.line, end_column=1 << 30)))
    return rest is not None and re.match(re.escape(binding.var.name_hint) + r"\s*:(?!=)",
                                         rest) is not None


def grid_tuple_written(p: Printer, loop: Any) -> tuple[str, int] | None:
    """``(name, k)`` when a loop nest was written ``for name in T.grid(e1, ..., ek)`` (one name
    for the tuple of its ``k > 1`` loop vars), else ``None``."""
    text = written(p, loop)
    if text is None:
        return None
    m = re.match(r"for\s+(\w+)\s+in\s+" + _t(p) + r"grid\s*\(", text)
    if m is None:
        return None
    end = _paren_end(text, m.end())
    args = _top_level_args(text[m.end():end]) if end is not None else []
    return (m.group(1), len(args)) if len(args) > 1 else None


class GridTuple:  # pylint: disable=too-few-public-methods
    """What the printer defines under the name of ``for iters in T.grid(...)`` (tirfmt): the
    ``loops`` whose vars print as ``iters[k]``."""

    def __init__(self, loops: list[Any]) -> None:
        self.loops = loops


def grid_tuple_doc(p: Printer, values: list[Any]) -> Any:
    """The doc of the tuple name ``iters`` when ``values`` are all the loop vars of a
    ``for iters in T.grid(...)``, in order, and each was written ``iters`` (``T.axis.remap(
    "SS", iters)``); else ``None``."""
    text = written(p, values[0]) if values else None
    if text is None or not text.isidentifier() or any(written(p, v) != text for v in values):
        return None
    keys = {key for key, name in p.names.items() if name == text}
    for obj in p.keep:
        if id(obj) in keys and isinstance(obj, GridTuple) and \
                [lp.loop_var for lp in obj.loops] == list(values):
            return p.var_doc(obj)
    return None
