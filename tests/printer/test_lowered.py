"""Lowered forms built with the Python API: their printed text (TVM's spelling) and their round
trip through tirkit's parser."""
from __future__ import annotations

from tirkit import tir
from tirkit.ir import first_mismatch, structural_equal
from tirkit.ir.type import PointerType, PrimType
from tirkit.printer import script

from printer_util import parse


def _func(body: tir.Stmt, *params: object, name: str = "f") -> tir.PrimFunc:
    return tir.PrimFunc(list(params), body, attrs={"global_symbol": name})


def _roundtrip(func: tir.PrimFunc) -> None:
    text = script(func)
    again = parse(text)
    assert structural_equal(again, func), first_mismatch(again, func)
    assert script(again) == text


def allocate_func() -> tir.PrimFunc:
    A = tir.decl_buffer((64,), "float32", name="A")
    data = tir.Var("buf", PointerType(PrimType("float32"), "global"))
    flat = tir.decl_buffer((64,), "float32", name="buf", data=data, offset_factor=0)
    i = tir.Var("i", "int32")
    loop = tir.For(i, 0, 64, tir.ForKind.SERIAL,
                   tir.BufferStore(flat, tir.BufferLoad(A, [i]) * 2.0, [i]))
    body = tir.Allocate(data, "float32", [64], True, loop)
    return _func(body, A, name="alloc")


def test_allocate_prints() -> None:
    assert script(allocate_func()) == '''\
# from tvm.script import tir as T

@T.prim_func
def alloc(A: T.Buffer((64,), "float32")):
    buf = T.allocate([64], "float32", "global")
    for i in range(64):
        buf_1 = T.Buffer((64,), data=buf)
        buf_1[i] = A[i] * T.float32(2.0)'''


def test_allocate_roundtrip() -> None:
    _roundtrip(allocate_func())


def launch_func() -> tir.PrimFunc:
    A = tir.decl_buffer((256,), "float32", name="A")
    bx = tir.IterVar(tir.Range(0, 4), tir.Var("blockIdx.x", "int32"),
                     tir.IterVarType.ThreadIndex, "blockIdx.x")
    tx = tir.IterVar(tir.Range(0, 64), tir.Var("threadIdx.x", "int32"),
                     tir.IterVarType.ThreadIndex, "threadIdx.x")
    store = tir.BufferStore(A, tir.FloatImm("float32", 1.0), [bx.var * 64 + tx.var])
    body = tir.AttrStmt(bx, "thread_extent", 4, tir.AttrStmt(tx, "thread_extent", 64, store))
    return _func(body, A, name="launch")


def test_launch_thread_prints() -> None:
    assert script(launch_func()) == '''\
# from tvm.script import tir as T

@T.prim_func
def launch(A: T.Buffer((256,), "float32")):
    blockIdx_x = T.env_thread("blockIdx.x")
    T.launch_thread(blockIdx_x, 4)
    threadIdx_x = T.env_thread("threadIdx.x")
    T.launch_thread(threadIdx_x, 64)
    A[blockIdx_x * 64 + threadIdx_x] = T.float32(1.0)'''


def test_launch_thread_roundtrip() -> None:
    _roundtrip(launch_func())


def vector_func() -> tir.PrimFunc:
    A = tir.decl_buffer((64,), "float32", name="A")
    i = tir.Var("i", "int32")
    ramp = tir.Ramp(i * 4, 1, 4)
    value = tir.BufferLoad(A, [ramp]) + tir.Broadcast(tir.FloatImm("float32", 1.0), 4)
    strided = tir.BufferStore(A, tir.Broadcast(tir.FloatImm("float32", 0.0), 4),
                              [tir.Ramp(i, 2, 4)])
    body = tir.For(i, 0, 8, tir.ForKind.SERIAL,
                   tir.SeqStmt([tir.BufferStore(A, value, [ramp]), strided]))
    return _func(body, A, name="vec")


def test_vector_store_prints_slices() -> None:
    # as TVM 0.27 prints (probe of the same IR): stores use slices, loads T.Ramp
    assert script(vector_func()).split("\n")[4:] == [
        "    for i in range(8):",
        "        A[i * 4:i * 4 + 4] = A[T.Ramp(i * 4, 1, 4)] + T.Broadcast(T.float32(1.0), 4)",
        "        A[i:i + 8:2] = T.Broadcast(T.float32(0.0), 4)",
    ]


def test_vector_store_roundtrip() -> None:
    _roundtrip(vector_func())


def let_func() -> tir.PrimFunc:
    A = tir.decl_buffer((4,), "int32", name="A")
    x = tir.Var("x", "int32")
    body = tir.BufferStore(A, tir.Let(x, tir.BufferLoad(A, [1]) + 1, x * x), [0])
    return _func(body, A, name="let")


def test_let_expression_prints() -> None:
    assert script(let_func()).split("\n")[3:] == [
        'def let(A: T.Buffer((4,), "int32")):',
        "    x = T.int32()",
        "    A[0] = T.Let(x * x, where={x: A[1] + 1})",
    ]


def test_let_expression_roundtrip() -> None:
    _roundtrip(let_func())


def test_allocate_decl_buffer_pattern_and_concise() -> None:
    text = script(parse('''
@T.prim_func
def g(A: T.Buffer((16,), "float32")):
    B = T.decl_buffer((16,), "float32", scope="shared")
    for i in range(16):
        B[i] = A[i]
    with T.LetStmt(A[0]) as v:
        A[1] = v
    A[2] = T.float32(0)
'''))
    assert 'B = T.decl_buffer((16,), scope="shared")\n    for i in range(16):' in text
    assert "with T.LetStmt(A[0]) as v:\n        A[1] = v\n    A[2] = T.float32(0.0)" in text
    again = parse(text)
    assert script(again) == text


def test_handle_params_and_typed_pointers() -> None:
    p = tir.Var("p", PointerType(PrimType("float16"), "shared"))
    h = tir.Var("h", "handle")
    n = tir.Var("n", "int64")
    v = tir.Var("v", PointerType(PrimType("int8"), "global"))
    body = tir.LetStmt(v, tir.tvm_struct_get(h, 0, 1, "handle"),
                       tir.Evaluate(tir.ret(tir.Cast("int32", n))))
    func = tir.PrimFunc([p, h, n], body, ret_type=PrimType("int32"))
    text = script(func)
    assert text.split("\n")[2:] == [
        "@T.prim_func(private=True)",
        'def main(p: T.handle("float16", "shared"), h: T.handle, n: T.int64) -> T.int32:',
        '    v: T.handle("int8", "global") = T.tvm_struct_get(h, 0, 1, "handle")',
        '    T.ret(T.Cast("int32", n))',
    ]


def test_tirx_int64_launch_prints_as_tvm_027() -> None:
    # TVM 0.27 prints `tx = T.launch_thread("threadIdx.x", T.int64(64))` for an int64 thread
    # var with an int64 extent; tirkit fell back to T.env_thread("threadIdx.x", "int64")
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel

    func = from_source('from tvm.script import tirx as T\n\n@T.prim_func\n'
                       'def f(A: T.Buffer((64,), "float32")):\n'
                       '    tx = T.launch_thread("threadIdx.x", T.int64(64))\n'
                       '    A[tx] = T.float32(1.0)\n')
    text = script(func, dialect="tirx")
    assert '    tx = T.launch_thread("threadIdx.x", T.int64(64))\n' in text
    assert "env_thread" not in text
    assert structural_equal(from_source(text), func)
