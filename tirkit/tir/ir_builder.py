"""The classic statement builder (mirrors ``tvm.tir.ir_builder``): build a TIR ``Stmt`` with
Python ``with`` scopes instead of nesting constructors.

    ib = ir_builder.create()
    n = tir.SizeVar("n", "int32")
    A = ib.pointer("float32", name="A")
    with ib.for_range(0, n, name="i") as i:
        with ib.if_scope(tir.truncmod(i, 2) == 0):
            A[i] = A[i] + 1.0
        with ib.else_scope():
            A[0] = A[i] + 2.0
    body = ib.get()

Statements are emitted into the innermost open scope; a scope (``for_range``, ``if_scope``,
``while_loop``, ``new_scope``) wraps what was emitted inside it when its ``with`` ends.
``let``/``allocate``/``scope_attr`` wrap the *rest* of the enclosing scope (a callable on the
sequence, as TVM's builder does). ``get()`` returns the whole statement: a single statement,
a ``SeqStmt``, or ``Evaluate(0)`` when nothing was emitted.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from . import expr as _expr
from . import op as _op
from . import stmt as _stmt
from .buffer import Buffer, decl_buffer
from .op_intrin import assume as _assume_call

__all__ = ["IRBuilder", "BufferVar", "WithScope", "create"]

_KINDS = {"serial": _stmt.ForKind.SERIAL, "parallel": _stmt.ForKind.PARALLEL,
          "vectorize": _stmt.ForKind.VECTORIZED, "unroll": _stmt.ForKind.UNROLLED}


class WithScope:
    """What a scope method returns: ``with`` gives ``enter_value``; leaving runs ``exit_cb``
    (``tvm.tir.ir_builder.WithScope``)."""

    def __init__(self, enter_value: Any, exit_cb: Callable[[], None]) -> None:
        self._enter_value, self._exit_cb = enter_value, exit_cb

    def __enter__(self) -> Any:
        return self._enter_value

    def __exit__(self, ptype: Any, value: Any, trace: Any) -> None:
        if ptype is None:  # an exception inside the scope propagates untouched
            self._exit_cb()


class BufferVar:
    """A buffer seen through the builder (``tvm.tir.ir_builder.BufferVar``): ``x[i]`` is a
    ``BufferLoad``; ``x[i] = v`` emits a ``BufferStore``. One flat index into a
    multi-dimensional buffer is unravelled row-major, as TVM does.

    Raises:
        ValueError: on a store whose value dtype differs from the content type.
    """

    def __init__(self, builder: "IRBuilder", buffer: Buffer, content_type: str) -> None:
        self._builder, self._buffer, self._content_type = builder, buffer, str(content_type)

    def asobject(self) -> Buffer:
        """The underlying ``Buffer``."""
        return self._buffer

    @property
    def buffer(self) -> Buffer:
        """The underlying ``Buffer``."""
        return self._buffer

    @property
    def dtype(self) -> str:
        """The content dtype."""
        return self._content_type

    def _normalize_index(self, index: Any) -> list[Any]:
        index = list(index) if isinstance(index, (list, tuple)) else [index]
        index = [x.var if isinstance(x, _expr.IterVar) else x for x in index]
        if len(index) == 1 and len(self._buffer.shape) != 1:
            index = _unravel_index(index[0], self._buffer.shape)
        return [_op.convert(i) if isinstance(i, int) else i for i in index]

    def __iter__(self) -> Any:
        """Not iterable (``p[i]`` indexes): without this Python would iterate ``p[0], p[1], ...``
        through ``__getitem__`` without end."""
        raise TypeError("a buffer view of the IR builder is not iterable")

    def __getitem__(self, index: Any) -> _expr.BufferLoad:
        return _expr.BufferLoad(self._buffer, self._normalize_index(index))

    def __setitem__(self, index: Any, value: Any) -> None:
        idx = self._normalize_index(index)
        if isinstance(value, (bool, int, float)):
            value = _op.const(value, self._content_type) if not isinstance(value, bool) \
                else _op.const(value, "bool")
        value_element = str(value.dtype).split("x", maxsplit=1)[0]
        content_element = self._content_type.split("x", maxsplit=1)[0]
        if value_element != content_element:
            raise ValueError(f"data type does not match content type {value.dtype} vs "
                             f"{self._content_type}")
        self._builder.emit(_stmt.BufferStore(self._buffer, value, idx))


def _unravel_index(index: Any, shape: Sequence[Any]) -> list[Any]:
    out = []
    for dim in reversed(shape):
        out.append(_op.truncmod(index, dim))
        index = _op.truncdiv(index, dim)
    return list(reversed(out))


def _is_zero(value: Any) -> bool:
    if isinstance(value, int):
        return value == 0
    return isinstance(value, _expr.IntImm) and value.value == 0


class IRBuilder:
    """Builds a ``Stmt`` scope by scope (``tvm.tir.ir_builder.IRBuilder``)."""

    def __init__(self) -> None:
        self._seq_stack: list[list[Any]] = [[]]
        self.nidx = 0

    def _pop_seq(self) -> _stmt.Stmt:
        seq = self._seq_stack.pop()
        if not seq or callable(seq[-1]):
            seq.append(_stmt.Evaluate(_op.const(0, "int32")))

        def wrap(x: list[Any]) -> _stmt.Stmt:
            return x[0] if len(x) == 1 else _stmt.SeqStmt(list(reversed(x)))

        ret_seq = [seq[-1]]
        for s in reversed(seq[:-1]):
            if callable(s):
                ret_seq = [s(wrap(ret_seq))]
            else:
                ret_seq.append(s)
        return wrap(ret_seq)

    def emit(self, stmt: Any) -> None:
        """Append ``stmt`` to the current scope (a ``Call`` becomes ``Evaluate``; a callable
        ``body -> Stmt`` wraps the rest of the scope).

        Raises:
            TypeError: for anything else.
        """
        if isinstance(stmt, _expr.PrimExpr):
            stmt = _stmt.Evaluate(stmt)
        if not (isinstance(stmt, _stmt.Stmt) or callable(stmt)):
            raise TypeError(f"emit expects a Stmt, a PrimExpr or a callable, got "
                            f"{type(stmt).__name__}")
        self._seq_stack[-1].append(stmt)

    def scope_attr(self, node: Any, attr_key: str, value: Any) -> None:
        """An ``AttrStmt`` over the rest of the scope (``thread_extent`` values become
        ``max(1, value)``, as in TVM)."""
        if isinstance(node, str):
            node = _expr.StringImm(node)
        if isinstance(value, str):
            value = _expr.StringImm(value)
        if attr_key == "thread_extent":
            value = _op.max(_op.const(1, _op.convert(value).dtype), value)
        self.emit(lambda x: _stmt.AttrStmt(node, attr_key, value, x))

    def for_range(self, begin: Any, end: Any, name: str = "i", dtype: str | None = None,
                  kind: str = "serial") -> WithScope:
        """A ``For`` over ``[begin, end)``; ``with`` gives the loop var. Unnamed loops are
        ``i``, ``j``, ``k``, then ``i_0``, ``i_1``... ``kind``: ``serial``, ``parallel``,
        ``vectorize``, ``unroll``. The var is int64 when a bound is.

        Raises:
            ValueError: for an unknown ``kind``; NotImplementedError for non-integer bounds.
        """
        if kind not in _KINDS:
            raise ValueError(f"Unknown kind {kind!r}: expected one of {', '.join(_KINDS)}")
        if name == "i":
            name = chr(ord(name) + self.nidx) if self.nidx < 3 else f"{name}_{self.nidx - 3}"
            self.nidx += 1
        if dtype is None:
            dtype = "int64" if "int64" in (_bound_dtype(begin), _bound_dtype(end)) else "int32"
        self._seq_stack.append([])
        loop_var = _expr.Var(name, dtype)
        extent = end if _is_zero(begin) else end - begin

        def exit_cb() -> None:
            self.emit(_stmt.For(loop_var, begin, extent, _KINDS[kind], self._pop_seq()))
        return WithScope(loop_var, exit_cb)

    def while_loop(self, condition: Any) -> WithScope:
        """A ``While`` loop scope."""
        self._seq_stack.append([])

        def exit_cb() -> None:
            self.emit(_stmt.While(condition, self._pop_seq()))
        return WithScope(None, exit_cb)

    def if_scope(self, cond: Any) -> WithScope:
        """An ``IfThenElse`` scope (the then branch)."""
        self._seq_stack.append([])

        def exit_cb() -> None:
            self.emit(_stmt.IfThenElse(_op.convert(cond), self._pop_seq(), None))
        return WithScope(None, exit_cb)

    def else_scope(self) -> WithScope:
        """The else branch of the ``if_scope`` just closed.

        Raises:
            RuntimeError: when the previous statement is not an if without else.
        """
        seq = self._seq_stack[-1]
        prev = seq[-1] if seq else None
        if not isinstance(prev, _stmt.IfThenElse) or prev.else_case is not None:
            raise RuntimeError("else_scope can only follow an if_scope")
        seq.pop()
        self._seq_stack.append([])

        def exit_cb() -> None:
            self.emit(_stmt.IfThenElse(prev.condition, prev.then_case, self._pop_seq()))
        return WithScope(None, exit_cb)

    def new_scope(self) -> WithScope:
        """A scope that bounds ``let``/``allocate``/``scope_attr`` emitted inside it."""
        self._seq_stack.append([])

        def exit_cb() -> None:
            self.emit(self._pop_seq())
        return WithScope(None, exit_cb)

    def let(self, var_name: str, value: Any) -> _expr.Var:
        """A ``LetStmt`` binding a new var over the rest of the scope; returns the var."""
        value = _op.convert(value)
        var = _expr.Var(var_name, value.dtype)
        self.emit(lambda x: _stmt.LetStmt(var, value, x))
        return var

    def allocate(self, dtype: str, shape: Any, name: str = "buf", axis_separators: Any = None,
                 scope: str = "") -> BufferVar:
        """An ``Allocate`` over the rest of the scope; returns its :class:`BufferVar`."""
        if not isinstance(shape, (list, tuple)):
            shape = [shape]
        buffer = decl_buffer(shape, dtype, name, scope=scope, axis_separators=axis_separators)
        data = buffer.data
        self.emit(lambda x: _stmt.Allocate(data, dtype, list(buffer.shape),
                                           _op.const(1, "bool"), x))
        return BufferVar(self, buffer, dtype)

    def pointer(self, content_type: str, name: str = "ptr", scope: str = "") -> BufferVar:
        """A pointer of ``content_type`` (a 1-element buffer declaration, indexed freely)."""
        buffer = decl_buffer([1], content_type, name, scope=scope)
        return BufferVar(self, buffer, content_type)

    def buffer_ptr(self, buf: Buffer) -> BufferVar:
        """``buf`` seen as a :class:`BufferVar`."""
        return BufferVar(self, buf, str(buf.dtype))

    def likely(self, expr: Any) -> _expr.PrimExpr:
        """``tir.likely(expr)``."""
        expr = _op.convert(expr)
        return _expr.Call(expr.dtype, "tir.likely", [expr])

    def assume(self, cond: Any) -> None:
        """Emit ``T.assume(cond)`` (``T.evaluate(T.assume(cond))``)."""
        self.emit(_stmt.Evaluate(_assume_call(cond)))

    def get(self) -> _stmt.Stmt:
        """The built statement.

        Raises:
            RuntimeError: when called inside an open scope.
        """
        if len(self._seq_stack) != 1:
            raise RuntimeError("cannot call get inside construction scope")
        seq = self._pop_seq()
        self._seq_stack.append([])
        return seq


def _bound_dtype(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, _expr.PrimExpr)):
        raise NotImplementedError(f"Infer loop_var dtype failed: unsupported loop bound "
                                  f"{value!r}")
    if isinstance(value, int):
        return "int32"
    if not str(value.dtype).startswith("int"):
        raise NotImplementedError(f"Infer loop_var dtype failed: unsupported dtype in loop "
                                  f"begin or end {value.dtype}")
    return str(value.dtype)


def create() -> IRBuilder:
    """A new :class:`IRBuilder` (``tvm.tir.ir_builder.create``)."""
    return IRBuilder()
