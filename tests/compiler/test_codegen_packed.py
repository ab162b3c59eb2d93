"""TVM's packed calling convention in the LLVM code generator: ``tvm_struct_get/set`` on
DLTensors and TVMValue arrays, ``tvm_stack_alloca``, assertions reported through
``TVMAPISetLastError``, workspace and stack allocations (CodeGenCPU's packed-API support).

The packed functions are written as MakePackedAPI would produce them and called through
``abi.PACKED_FUNC_TYPE`` with DLTensors built by hand.
"""
import ctypes
import re

import numpy as np
import pytest

from test_codegen import HOST, compile_c, run  # noqa: E402  (tests/compiler is on sys.path)
from tirkit.compiler.codegen import CodegenError, emit_llvm
from tirkit.compiler.runtime import abi
from tirkit.compiler.runtime.jit import get_last_error
from tirkit.lang import from_source

PACKED = '''
@T.prim_func
def add_one(args: T.handle, arg_type_ids: T.handle("int32"), num_args: T.int32,
            out_ret_value: T.handle("void"), out_ret_tcode: T.handle("int32"),
            resource_handle: T.handle) -> T.int32:
    T.func_attr({"calling_conv": 1, "global_symbol": "add_one", "tir.is_entry_func": True})
    assert num_args == 2, "add_one: num_args should be 2"
    type_ids = T.decl_buffer((2,), "int32", data=arg_type_ids)
    assert type_ids[0] == 7, "add_one: Expect arg[0] to be pointer"
    A_handle: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
    delta: T.float64 = T.tvm_struct_get(args, 1, 12, "float64")
    assert not T.isnullptr(A_handle), "add_one.A is expected to be a DLTensor, got NULL"
    assert T.tvm_struct_get(A_handle, 0, 4, "int32") == 1, "add_one.A.ndim is expected to equal 1"
    assert T.tvm_struct_get(A_handle, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(A_handle, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(A_handle, 0, 7, "uint16") == T.uint16(1), "add_one.A.dtype is expected to be float32"
    assert T.tvm_struct_get(A_handle, 0, 10, "int32") == 1, "add_one.A.device_type is expected to be 1"
    A_shape: T.handle("int64") = T.tvm_struct_get(A_handle, 0, 2, "handle")
    shape = T.decl_buffer((1,), "int64", data=A_shape)
    A_data: T.handle("float32") = T.tvm_struct_get(A_handle, 0, 1, "handle")
    offset: T.uint64 = T.tvm_struct_get(A_handle, 0, 8, "uint64")
    A = T.decl_buffer((shape[0],), "float32", data=A_data, elem_offset=T.Cast("int64", offset) // T.int64(4))
    for i in range(shape[0]):
        A[i] = A[i] + T.Cast("float32", delta)
    T.tvm_struct_set(out_ret_value, 0, 12, shape[0] * T.int64(2))
    ret_code = T.decl_buffer((1,), "int32", data=out_ret_tcode)
    ret_code[0] = 0
    return 0
'''


def _dltensor(arr):
    shape = (ctypes.c_int64 * arr.ndim)(*arr.shape)
    code = {"f": 2, "i": 0, "u": 1}[arr.dtype.kind]
    t = abi.DLTensor(arr.ctypes.data, abi.DLDevice(1, 0), arr.ndim,
                     abi.DLDataType(code, arr.dtype.itemsize * 8, 1), shape, None, 0)
    return t, shape


def _call_packed(fn, values, codes):
    n = len(values)
    vals = (abi.TVMValue * n)(*values)
    tcodes = (ctypes.c_int32 * n)(*codes)
    ret, ret_code = abi.TVMValue(), ctypes.c_int32(-1)
    rc = fn(vals, tcodes, n, ctypes.byref(ret), ctypes.byref(ret_code), None)
    return rc, ret, ret_code.value


@pytest.fixture(scope="module")
def add_one():
    jit, text = compile_c(PACKED)
    return jit, abi.PACKED_FUNC_TYPE(jit.get_function_address("add_one")), text


def test_packed_function_reads_dltensor_fields_and_sets_return(add_one):
    _, fn, text = add_one
    assert re.search(r"define [^@]*i32 @add_one\(ptr", text.replace('"', ""))
    a = np.arange(6, dtype="float32")
    tensor, _shape = _dltensor(a)
    values = [abi.TVMValue(v_handle=ctypes.addressof(tensor)), abi.TVMValue(v_float64=0.5)]
    rc, ret, code = _call_packed(fn, values, [abi.TypeCode.kTVMDLTensorHandle,
                                             abi.TypeCode.kDLFloat])
    assert rc == 0, get_last_error()
    np.testing.assert_array_equal(a, np.arange(6) + 0.5)
    assert ret.v_int64 == 12 and code == 0


def test_packed_function_byte_offset(add_one):
    _, fn, _ = add_one
    a = np.zeros(8, dtype="float32")
    tensor, _shape = _dltensor(a[:6])
    tensor.byte_offset = 8  # view a[2:8]
    values = [abi.TVMValue(v_handle=ctypes.addressof(tensor)), abi.TVMValue(v_float64=1.0)]
    rc, _, _ = _call_packed(fn, values, [7, 2])
    assert rc == 0, get_last_error()
    np.testing.assert_array_equal(a, [0, 0, 1, 1, 1, 1, 1, 1])


@pytest.mark.parametrize("case,message", [
    ("num_args", "add_one: num_args should be 2"),
    ("type", "Expect arg[0] to be pointer"),
    ("null", "got NULL"),
    ("ndim", "add_one.A.ndim is expected to equal 1"),
    ("dtype", "add_one.A.dtype is expected to be float32"),
])
def test_packed_assertions_set_last_error_and_return_minus_one(add_one, case, message):
    _, fn, _ = add_one
    a = np.zeros((2, 3), "float32") if case == "ndim" else np.zeros(3, "int32" if case == "dtype"
                                                                   else "float32")
    tensor, _shape = _dltensor(a)
    handle = None if case == "null" else ctypes.addressof(tensor)
    values = [abi.TVMValue(v_handle=handle), abi.TVMValue(v_float64=1.0)]
    codes = [1 if case == "type" else 7, 2]
    if case == "num_args":
        values, codes = values[:1], codes[:1]
    rc, _, _ = _call_packed(fn, values, codes)
    assert rc == -1
    err = get_last_error()
    assert message in err and err.startswith("Assert fail: ")
    assert get_last_error() == ""  # reading clears it


def test_assertions_share_one_failure_exit(add_one):
    """Every argument check branches to one exit block (a phi of the messages, one
    TVMAPISetLastError call, ``ret -1``) instead of a call and a return each; the messages of
    the parametrized failures above come through it."""
    del add_one  # the same kernel, before LLVM's passes (which may merge calls themselves)
    text = emit_llvm(from_source(PACKED), HOST)
    wrapper = re.search(r"define [^@]*i32 @\"?add_one\"?\(.*?\n}", text, re.S).group(0)
    assert wrapper.count("@\"TVMAPISetLastError\"") == 1
    assert wrapper.count("ret i32 -1") == 1
    assert wrapper.count('label %"assert_fail"') >= 5


def test_failure_exit_phi_carries_offsets_into_one_message_table(add_one):
    """The exit's phi takes each message's offset in one string constant of the function (a
    small integer), not a pointer to a string constant per message: in the JIT's large code
    model LLVM's fast instruction selector cannot materialise a global's address, and every
    check block of the optnone packed wrapper fell back to the SelectionDAG. A message with
    values is formatted into one buffer allocated in the entry block (phi value -1)."""
    del add_one
    text = emit_llvm(from_source(PACKED), HOST)
    wrapper = re.search(r"define [^@]*i32 @\"?add_one\"?\(.*?\n}", text, re.S).group(0)
    phi = re.search(r'%"assert_msg" = phi\s+(\w+) (.*)', wrapper)
    assert phi.group(1) == "i64" and "@" not in phi.group(2)
    offsets = [int(v) for v in re.findall(r"\[(-?\d+), ", phi.group(2))]
    assert -1 in offsets and 0 in offsets and len(set(offsets)) >= 5  # formatted: num_args
    table = re.search(r'@"\.msgs" = private unnamed_addr constant \[(\d+) x i8\] c"(.*)"', text)
    data = re.sub(rb"\\([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  table.group(2).encode())
    assert len(data) == int(table.group(1)) and data.endswith(b"\0")
    for off in (o for o in offsets if o >= 0):  # every offset starts a message
        assert off == 0 or data[off - 1] == 0
        assert data[off:].startswith(b"Assert fail: ")
    assert b"add_one.A.ndim is expected to equal 1" in data
    entry = wrapper.split("\nbody:")[0]
    assert entry.count("alloca [1024 x i8]") == 1 and wrapper.count("alloca [1024 x i8]") == 1


@pytest.mark.parametrize("kind", ["constant", "formatted", "both"])
def test_failure_exit_with_only_one_kind_of_message(kind):
    """A function whose assertions all have constant messages gets no buffer, one whose
    messages all hold values no message table; both report the right message."""
    checks = {
        "constant": '    assert not T.isnullptr(p), "p is NULL"\n',
        "formatted": "    assert x < 10, \"x too big\"\n",
    }
    body = "".join(checks.values()) if kind == "both" else checks[kind]
    src = f"""
@T.prim_func
def f(p: T.handle, x: T.int32) -> T.int32:
    T.func_attr({{"global_symbol": "f"}})
{body}    return x + 1
"""
    jit, text = compile_c(src, "f", opt_level=0)
    assert ("@\".msgs\"" in text) == (kind != "formatted")
    assert ("alloca [1024 x i8]" in text) == (kind != "constant")
    fn = jit.get_cfunc("f", ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32)
    assert fn(1, 3) == 4 and get_last_error() == ""
    if kind != "formatted":
        assert fn(None, 3) == -1 and "p is NULL" in get_last_error()
    if kind != "constant":
        assert fn(1, 12) == -1 and "x < 10 with x = 12, x too big" in get_last_error()


def test_stack_alloca_struct_set_get_round_trip():
    src = '''
@T.prim_func
def f(out: T.handle("int64")) -> T.int32:
    O = T.Buffer((5,), "int64", data=out)
    values: T.handle = T.tvm_stack_alloca("arg_value", 2)
    T.tvm_struct_set(values, 1, 12, T.int64(42))
    T.tvm_struct_set(values, 0, 12, T.float64(2.5))
    arr: T.handle = T.tvm_stack_alloca("array", 2)
    T.tvm_struct_set(arr, 1, 4, 3)
    T.tvm_struct_set(arr, 1, 6, T.uint8(16))
    T.tvm_struct_set(arr, 1, 8, T.uint64(24))
    shape: T.handle = T.tvm_stack_alloca("shape", 3)
    T.tvm_struct_set(shape, 2, 12, T.int64(-7))
    O[0] = T.tvm_struct_get(values, 1, 12, "int64")
    O[1] = T.Cast("int64", T.tvm_struct_get(values, 0, 12, "float64") * T.float64(2))
    O[2] = T.Cast("int64", T.tvm_struct_get(arr, 1, 4, "int32")) * T.int64(100) + T.Cast("int64", T.tvm_struct_get(arr, 1, 6, "uint8"))
    O[3] = T.Cast("int64", T.tvm_struct_get(arr, 1, 8, "uint64"))
    O[4] = T.tvm_struct_get(shape, 2, 12, "int64")
    return 0
'''
    out = np.zeros(5, "int64")
    assert run(src, "f", out, restype=ctypes.c_int32) == 0
    np.testing.assert_array_equal(out, [42, 5, 316, 24, -7])


def test_dltensor_field_offsets_match_abi():
    """The LLVM struct used for DLTensor GEPs has the C layout of abi.DLTensor."""
    import llvmlite.binding as llvm

    from tirkit.compiler.codegen.types import DLTENSOR
    td = llvm.create_target_data(HOST.target_machine().target_data.__str__())
    ty = llvm.parse_assembly(f"%t = type {DLTENSOR}\n@g = external global %t").get_global_variable(
        "g").global_value_type
    offsets = [td.get_element_offset(ty, i) for i in range(7)]
    names = ["data", "device", "ndim", "dtype", "shape", "strides", "byte_offset"]
    assert offsets == [abi.DLTENSOR_OFFSETS[n] for n in names]
    assert td.get_abi_size(ty) == abi.DLTENSOR_SIZE


ALLOC = '''
@T.prim_func
def f(a: T.handle("float32"), b: T.handle("float32"), n: T.int32):
    A = T.Buffer((n,), "float32", data=a)
    B = T.Buffer((n,), "float32", data=b)
    tmp = T.allocate([{size}], "float32", "global")
    Tmp = T.Buffer(({size},), "float32", data=tmp)
    for i in range(n):
        Tmp[i] = A[i] * T.float32(2)
    for i in range(n):
        B[i] = Tmp[n - 1 - i]
'''


@pytest.mark.parametrize("size,kind", [("64", "alloca"), ("n", "TVMBackendAllocWorkspace")])
def test_allocate_on_stack_or_workspace(size, kind):
    src = ALLOC.format(size=size)
    text = emit_llvm(from_source(src), HOST)
    assert kind in text
    a = np.arange(10, dtype="float32")
    b = np.zeros(10, "float32")
    run(src, "f", a, b, 10)
    np.testing.assert_array_equal(b, (a * 2)[::-1])


def test_call_workspace_builtins_directly():
    src = '''
@T.prim_func
def f(a: T.handle("int32"), n: T.int32) -> T.int32:
    A = T.Buffer((n,), "int32", data=a)
    ws: T.handle("int32") = T.TVMBackendAllocWorkspace(1, 0, T.Cast("uint64", n * 4), 0, 32)
    if T.isnullptr(ws):
        return -1
    W = T.decl_buffer((n,), "int32", data=ws)
    for i in range(n):
        W[i] = i * 3
    for i in range(n):
        A[i] = W[i] + 1
    T.evaluate(T.TVMBackendFreeWorkspace(1, 0, ws))
    return 0
'''
    a = np.zeros(100, "int32")
    assert run(src, "f", a, 100, restype=ctypes.c_int32) == 0
    np.testing.assert_array_equal(a, np.arange(100) * 3 + 1)


def test_unlowered_ir_gives_clear_errors():
    src = '''
@T.prim_func
def f(a: T.handle("float32")):
    A = T.Buffer((4, 4), "float32", data=a)
    A[1, 2] = T.float32(0)
'''
    with pytest.raises(CodegenError, match="flat buffers"):
        emit_llvm(from_source(src), HOST)
    blocky = '''
@T.prim_func
def g(A: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("b"):
            A[i] = T.float32(0)
'''
    with pytest.raises(CodegenError, match="BlockRealize"):
        emit_llvm(from_source(blocky), HOST)


def test_large_constant_allocation_uses_the_workspace():
    src = ALLOC.format(size="100000")
    text = emit_llvm(from_source(src), HOST)
    assert "TVMBackendAllocWorkspace" in text and "alloca float, i32 100000" not in text
    a = np.arange(50, dtype="float32")
    b = np.zeros(50, "float32")
    run(src, "f", a, b, 50)
    np.testing.assert_array_equal(b, (a * 2)[::-1])


def test_address_of_buffer_element():
    src = '''
@T.prim_func
def f(a: T.handle("float32")):
    A = T.Buffer((8,), "float32", data=a)
    p: T.handle("float32") = T.address_of(A[3])
    V = T.decl_buffer((2,), "float32", data=p)
    V[0] = T.float32(5)
    V[1] = V[0] + T.float32(1)
'''
    a = np.zeros(8, "float32")
    run(src, "f", a)
    np.testing.assert_array_equal(a, [0, 0, 0, 5, 6, 0, 0, 0])


def test_call_between_functions_of_one_module():
    """An exported function calls an internal one (no global_symbol -> internal linkage)."""
    import ctypes as C

    from tirkit import tir
    from tirkit.ir.expr import GlobalVar
    from tirkit.ir.module import IRModule
    from tirkit.compiler.runtime.jit import JITModule

    x = tir.Var("x", "int32")
    helper = tir.PrimFunc([x], tir.Evaluate(tir.Call("int32", "tir.ret", [x * x + 1])),
                          ret_type="int32")
    gv = GlobalVar("square_plus_one")
    y = tir.Var("y", "int32")
    body = tir.Evaluate(tir.Call("int32", "tir.ret", [tir.Call("int32", gv, [y]) * 2]))
    main = tir.PrimFunc([y], body, ret_type="int32", attrs={"global_symbol": "main"})
    text = emit_llvm(IRModule({gv: helper, "main": main}), HOST)
    assert "define internal i32 @" in text.replace('"', "")
    fn = JITModule(text, HOST).get_cfunc("main", C.c_int32, C.c_int32)
    assert fn(7) == 100


def test_assert_text_matches_the_printer_on_every_example_check():
    """The direct renderer of assert conditions (codegen/assert_text.py) writes what the
    TVMScript printer writes, for every check MakePackedAPI makes on the examples."""
    from references import KERNELS  # pylint: disable=import-outside-toplevel

    from tirkit.compiler import lower  # pylint: disable=import-outside-toplevel
    from tirkit.compiler.codegen.assert_text import condition_text  # pylint: disable=import-outside-toplevel
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel
    from tirkit.tir import AssertStmt  # pylint: disable=import-outside-toplevel
    from tirkit.tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel

    conditions = []
    for kernel in KERNELS[:3]:
        mod = lower(from_source(kernel.path.read_text()))
        for func in mod.functions.values():
            post_order_visit(func.body, lambda n: conditions.append(n.condition)
                             if isinstance(n, AssertStmt) else None)
    assert len(conditions) > 20
    for cond in conditions:
        assert condition_text(cond) == script(cond)
