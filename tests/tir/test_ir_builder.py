"""The classic ir_builder (``tvm.tir.ir_builder``, issue 16): seed 003's programs, every scope
kind, and the errors TVM's builder raises."""
import numpy as np
import pytest

from tirkit import tir
from tirkit.compiler import build
from tirkit.printer import script
from tirkit.tir import ir_builder


def test_seed003_if_scope_and_ret_builds_and_returns():
    ib = ir_builder.create()
    a, b = tir.Var("a", "float32"), tir.Var("b", "float32")
    with ib.if_scope(True):
        ib.emit(tir.Evaluate(tir.ret(a)))
    ib.emit(tir.Evaluate(tir.ret(b)))
    stmt = ib.get()
    assert isinstance(stmt, tir.SeqStmt) and isinstance(stmt.seq[0], tir.IfThenElse)
    assert stmt.seq[0].else_case is None
    func = tir.PrimFunc([a, b], stmt, attrs={"global_symbol": "add"})
    assert build(func)(1.0, 2.0) == 1.0


def seed003_loop(A):
    ib = A._builder  # pylint: disable=protected-access
    with ib.for_range(0, tir.Var("n", "int32"), name="i") as i:
        with ib.if_scope(tir.truncmod(i, 2) == 0):
            A[i] = A[i] + 1
        with ib.else_scope():
            A[0] = A[i] + 2
    return ib.get()


def test_seed003_for_if_else_is_tvms_ir_and_runs():
    ib = ir_builder.create()
    body = seed003_loop(ib.pointer("float32", name="A"))
    assert script(body).splitlines()[-5:] == [
        "for i in range(n):",
        "    if T.truncmod(i, 2) == 0:",
        "        A[i] = A[i] + T.float32(1.0)",
        "    else:",
        "        A[0] = A[i] + T.float32(2.0)"]
    assert isinstance(body, tir.For) and body.kind == tir.ForKind.SERIAL
    # the same loop over a parameter buffer, compiled
    buf, handle = tir.decl_buffer((8,), "float32", "A"), tir.Var("A_h", "handle")
    ib = ir_builder.create()
    body = seed003_loop(ib.buffer_ptr(buf))
    n = body.extent
    func = tir.PrimFunc([handle, n], body, buffer_map={handle: buf},
                        attrs={"global_symbol": "k"})
    x = np.arange(8, dtype="float32")
    build(func)(x, 8)
    np.testing.assert_array_equal(x, [9, 1, 3, 3, 5, 5, 7, 7])


def test_scopes_let_allocate_attr_assume_and_loop_names():
    ib = ir_builder.create()
    n = tir.Var("n", "int64")
    x = ib.allocate("float32", 16, name="x", scope="local")
    cnt = ib.allocate("int32", (1,), name="cnt", scope="local")
    cnt[0] = 0
    with ib.while_loop(cnt[0] < 10):
        cnt[0] = cnt[0] + 1
    with ib.for_range(0, 4, kind="parallel") as i:
        with ib.for_range(0, n, kind="unroll") as j:
            with ib.for_range(0, 2, kind="vectorize") as k:
                with ib.new_scope():
                    t = ib.let("t", i * 2)
                    ib.assume(t >= 0)
                    x[t + k] = ib.likely(x[t])
        with ib.for_range(0, 2) as m:
            ib.scope_attr(tir.StringImm("x"), "pragma_foo", 3)
            x[m] = 1.0
    assert (i.name_hint, j.name_hint, k.name_hint, m.name_hint) == ("i", "j", "k", "i_0")
    assert j.dtype == "int64" and i.dtype == "int32"
    assert script(ib.get()).splitlines()[3:] == [
        'x = T.allocate([16], "float32", "local")',
        'cnt = T.allocate([1], "int32", "local")',
        "cnt_1[0] = 0",
        "while cnt_1[0] < 10:",
        "    cnt_1[0] = cnt_1[0] + 1",
        "for i in T.parallel(4):",
        "    for j in T.unroll(n):",
        "        for k in T.vectorized(2):",
        "            t: T.int32 = i * 2",
        "            T.assume(t >= 0)",
        "            x_1[t + k] = T.likely(x_1[t])",
        "    for i_0 in range(2):",
        '        T.attr("x", "pragma_foo", 3)',
        "        x_1[i_0] = T.float32(1.0)"]


def test_flat_index_into_2d_buffer_unravels_and_empty_builder():
    ib = ir_builder.create()
    y = ib.allocate("float32", (4, 5), name="y")
    y[7] = y[2, 3]
    store = ib.get().body
    assert [str(script(i)) for i in store.indices] == ["1", "2"]  # 7 = 1 * 5 + 2
    assert isinstance(ir_builder.create().get(), tir.Evaluate)


def test_errors():
    ib = ir_builder.create()
    with pytest.raises(RuntimeError, match="else_scope can only follow an if_scope"):
        ib.else_scope()
    with pytest.raises(ValueError, match="Unknown kind 'gpu'"):
        ib.for_range(0, 4, kind="gpu")
    x = ib.pointer("float32", name="x")
    with pytest.raises(ValueError, match="data type does not match content type int32"):
        x[0] = tir.const(1, "int32")
    with ib.for_range(0, 4):
        with pytest.raises(RuntimeError, match="cannot call get inside construction scope"):
            ib.get()
    with pytest.raises(NotImplementedError, match="float32"):
        ib.for_range(0, tir.const(1.5, "float32"))
    with pytest.raises(TypeError, match="emit expects"):
        ib.emit("x")
