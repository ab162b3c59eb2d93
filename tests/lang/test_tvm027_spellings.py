"""TVM 0.27 spellings (its own tests, tests/python/tirx-*) that tirkit reads into the IR TVM v0.20
spells differently; each checked against the v0.20 spelling and read back after printing."""
from __future__ import annotations

import pytest

from tirkit import tir
from tirkit.ir import structural_equal
from tirkit.lang import from_source, parse_file
from tirkit.printer import script
from tirkit.lang import tir as tir_ns

HEAD = "from tvm.script import tir as T\n\n\n"


def _parse(body: str):
    (unit,) = parse_file(HEAD + body, "t.py")
    assert not unit.diagnostics, [d.message for d in unit.diagnostics]
    assert structural_equal(from_source(script(unit.ir)), unit.ir)
    return unit.ir


def test_decl_buffer_data_may_be_a_pointer_expression():
    """TVM 0.27 (tests/python/tirx-base/test_tir_specialize.py): ``T.decl_buffer(16, data=
    T.address_of(A[16]))``; tirkit crashed on it (AttributeError: 'Call' object has no attribute
    'name_hint'). The pointer is bound to a var first, TVM v0.20's spelling of the same."""
    new = _parse('''@T.prim_func(private=True)
def f(A_data: T.handle("float32")):
    A_buf = T.decl_buffer(32, "float32", data=A_data)
    B_buf = T.decl_buffer(16, "float32", data=T.address_of(A_buf[16]))
    for i in range(16):
        B_buf[i] = A_buf[i] * 2.0
''')
    old = _parse('''@T.prim_func(private=True)
def f(A_data: T.handle("float32")):
    A_buf = T.decl_buffer(32, "float32", data=A_data)
    B_data: T.handle("float32") = T.address_of(A_buf[16])
    B_buf = T.decl_buffer(16, "float32", data=B_data)
    for i in range(16):
        B_buf[i] = A_buf[i] * 2.0
''')
    assert structural_equal(new, old)
    assert "B_buf_data: T.handle" in script(new) and "B_buf = T.decl_buffer((16,), " \
        "data=B_buf_data)" in script(new)


@pytest.mark.parametrize("data", ["T.float32(1.0)", "A_buf[0]"])
def test_decl_buffer_data_that_is_not_a_pointer_is_one_diagnostic(data):
    (unit,) = parse_file(HEAD + f'''@T.prim_func
def f(A_buf: T.Buffer((32,), "float32")):
    B = T.decl_buffer(16, "float32", data={data})
    B[0] = 1.0
''', "t.py")
    assert [d.code for d in unit.diagnostics] == ["bad-argument"]
    assert "data must be a pointer" in unit.diagnostics[0].message


TIRX = "from tvm.script import tirx as T\n\n\n"


def _tirx(body: str):
    """Parse a tirx unit; its tirx and classic prints read back to the same IR."""
    (unit,) = parse_file(TIRX + body, "t.py")
    assert not unit.diagnostics, [d.message for d in unit.diagnostics]
    tirx_text = script(unit.ir, dialect="tirx").replace("# from tvm", "from tvm")
    assert structural_equal(from_source(tirx_text), unit.ir), tirx_text
    assert structural_equal(from_source(script(unit.ir)), unit.ir)
    return unit.ir, tirx_text


def test_bind_is_a_let_over_the_rest_of_the_scope():
    """tirx ``x = T.bind(value)`` (31 units of TVM 0.27's tests, e.g. s_tir's
    test_s_tir_transform_thread_sync.py): the let ``x: T.let[T.float32] = value`` (classic
    ``x: T.float32 = value``); with a type, a pointer var."""
    func, text = _tirx('''@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    x = T.bind(A[0] + A[1])
    A[2] = x
    p = T.bind(T.address_of(A[1]), T.handle("float32"))
    T.evaluate(T.call_extern("int32", "use", p))
''')
    classic, _ = _tirx('''@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    x: T.let[T.float32] = A[0] + A[1]
    A[2] = x
    p: T.let[T.handle("float32")] = T.address_of(A[1])
    T.evaluate(T.call_extern("int32", "use", p))
''')
    assert structural_equal(func, classic)


def test_bare_let_annotation_takes_the_value_type():
    """``x7: T.let = T.call_extern("get", dtype="")`` (test_s_tir_transform_compact_buffer_region
    .py): tirkit called T.let as a type constructor and failed."""
    func, _ = _tirx('''@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    x: T.let = T.call_extern("get", dtype="float32")
    A[0] = x
''')
    assert str(func.body.var.dtype) == "float32"


def test_alloc_buffer_annotations_go_on_the_allocation():
    """tirx ``T.alloc_buffer((4,), annotations={"tirx.volatile": True})`` (TVM 0.27's
    test_target_codegen_llvm.py): the classic Allocate's annotations, printed back in tirx as
    TVM 0.27 prints them."""
    func, text = _tirx('''@T.prim_func
def f(B: T.Buffer((4,), "float32")):
    A = T.alloc_buffer((4,), annotations={"tirx.volatile": True})
    A_alias = T.decl_buffer((4,), data=A.data)
    B[0:4] = A_alias[0:4]
''')
    assert func.body.annotations.keys() == {"tirx.volatile"}
    assert 'A = T.alloc_buffer((4,), annotations={"tirx.volatile": T.bool(True)})' in text


def test_ptx_legacy_namespace_is_the_classic_ptx_intrinsics():
    """tirx ``T.ptx_legacy.ldmatrix/mma`` (26 GPU units of TVM 0.27's s_tir tests) are the calls
    classic ``T.ptx_ldmatrix/ptx_mma`` make; tirx prints them in the namespace."""
    func, text = _tirx('''@T.prim_func
def f(A: T.Buffer((64,), "float16"), B: T.Buffer((64,), "float16"), C: T.Buffer((64,), "float32")):
    T.ptx_legacy.ldmatrix("float16", T.bool(False), 4, ".b16", A.data, 0, B.data, 0)
    T.ptx_legacy.mma("float32", "m16n8k16", "row", "col", "fp16", "fp16", "fp32", A.data, 0,
                     B.data, 0, C.data, 0, False)
''')
    assert [s.value.op.name for s in func.body.seq] == ["tir.ptx_ldmatrix", "tir.ptx_mma"]
    assert 'T.ptx_legacy.ldmatrix("float16", ' in text and 'T.ptx_legacy.mma("float32", ' in text


def test_attr_on_a_target_dict_is_not_the_dict_sugar():
    """``T.attr(T.target("cuda"), "target", 0)`` (test_tir_transform_split_host_device.py):
    tirkit's T.target is a dict, which tirx's ``T.attr({key: value})`` sugar took for its own."""
    func, _ = _tirx('''@T.prim_func(s_tir=True)
def f(n: T.int32):
    T.attr(T.target("cuda"), "target", 0)
    T.evaluate(n)
''')
    assert func.body.attr_key == "target" and func.body.node == {"kind": "cuda"}


def test_s_tir_on_a_function_without_blocks_is_kept():
    """TVM 0.27 keeps ``@T.prim_func(s_tir=True)`` as the function attribute ``s_tir``; tirkit
    dropped it where the function has no block (the tirx printer adds the flag only for blocks),
    so TVM 0.27 read tirkit's text of e.g. test_codegen_assert.py's units as a different IR."""
    func, text = _tirx('''@T.prim_func(s_tir=True)
def f(x: T.int32):
    assert x > 0, "positive"
''')
    assert func.attrs["s_tir"] is True and "@T.prim_func(s_tir=True)" in text
    assert 'T.func_attr({"s_tir": True})' in script(func)  # classic: an attribute like others
    plain, text = _tirx('''@T.prim_func
def f(x: T.int32):
    assert x > 0, "positive"
''')
    assert "s_tir" not in plain.attrs and "s_tir" not in text


def test_a_call_of_a_module_function_as_a_statement_prints_in_tirx():
    """``Module.subroutine(A.data)`` as a statement (TVM 0.27's test_target_codegen_c_host.py):
    the tirx printer crashed (AttributeError: 'GlobalVar' object has no attribute 'name'), and a
    shape-(1,) buffer of an s_tir=True function printed as a bare scalar (``A = 42.0``), which
    reads back as another IR."""
    (unit,) = parse_file('''from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(1, dtype="float32")):
        Module.subroutine(A.data)

    @T.prim_func(private=True, s_tir=True)
    def subroutine(A_data: T.handle("float32")):
        A = T.decl_buffer(1, dtype="float32", data=A_data)
        A[0] = 42.0
''', "m.py")
    assert not unit.diagnostics
    text = script(unit.ir, dialect="tirx")
    assert "Module.subroutine(A.data)" in text and "A[0] = T.float32(42.0)" in text
    assert structural_equal(from_source(text.replace("# from", "from")), unit.ir)


def test_annotated_assignment_is_a_local_cell_and_t_let_a_bind():
    """TVM 0.27 tirx: ``j: T.int32 = i`` is a local scalar cell (AllocBuffer + BufferStore; its
    name reads and writes element 0), also under s_tir=True; ``j: T.let[T.int32] = i`` and
    ``T.bind`` are a Bind (the LetStmt). tirkit read both as a LetStmt unless the name was
    assigned again, and printed every LetStmt as ``j: T.int32 = ...``, which TVM 0.27 reads as
    a cell (tools/tvm027_roundtrip.py --suite tirx)."""
    from tirkit import tir

    cell, text = _tirx('''@T.prim_func(s_tir=True)
def f(i: T.int32, A: T.Buffer((4,), "int32")):
    j: T.int32 = i
    A[j] = j + 1
''')
    assert isinstance(cell.body, tir.Allocate) and cell.body.body.buffer.scope() == "local"
    assert "j: T.int32 = i" in text and "A[j] = j + 1" in text
    let, text = _tirx('''@T.prim_func(s_tir=True)
def f(i: T.int32, A: T.Buffer((4,), "int32")):
    j: T.let[T.int32] = i
    A[j] = j + 1
''')
    assert isinstance(let.body, tir.LetStmt) and "j: T.let[T.int32] = i" in text
    classic = from_source(HEAD + '''@T.prim_func
def f(i: T.int32, A: T.Buffer((4,), "int32")):
    j: T.int32 = i
    A[j] = j + 1
''')
    assert structural_equal(classic.body, let.body, map_free_vars=True)  # classic: the let


def test_assert_keeps_the_error_kind_and_the_message_parts():
    """tirx ``assert cond, ("ValueError", ["Expected shape ", "4", ...])`` (TVM 0.27's
    test_codegen_assert.py, test_tvmscript_roundtrip.py): TVM 0.27's AssertStmt holds the error
    kind and the parts; tirkit folded them into one RuntimeError message ("ValueError: Expected
    shape 4 but got 8"), which TVM 0.27 read back as another IR. Kept now, printed back as
    written in both dialects (classic text has no other spelling for them); a plain message
    is the one-part RuntimeError, as in TVM 0.27."""
    func, text = _tirx('''@T.prim_func
def f(x: T.int32):
    assert x > 0, ("ValueError", ["Expected shape ", "4", " but got ", "8"])
''')
    stmt = func.body
    assert stmt.error_kind == "ValueError"
    assert stmt.message_parts == ("Expected shape ", "4", " but got ", "8")
    assert stmt.message.value == "Expected shape 4 but got 8"
    assert stmt.error_message == "ValueError: Expected shape 4 but got 8"
    assert 'assert x > 0, ("ValueError", ["Expected shape ", "4", " but got ", "8"])' in text
    assert 'assert x > 0, ("ValueError", ["Expected shape ", "4", " but got ", "8"])' in \
        script(func)
    plain, text = _tirx('''@T.prim_func
def f(x: T.int32):
    assert x > 0, "x must be positive"
''')
    one_part, _ = _tirx('''@T.prim_func
def f(x: T.int32):
    assert x > 0, ("RuntimeError", ["x must be positive"])
''')
    assert structural_equal(plain, one_part) and not plain.body.message_parts
    assert 'assert x > 0, ("RuntimeError", ["x must be positive"])' in text
    assert 'assert x > 0, "x must be positive"' in script(plain)  # classic: as before
    kind_only, _ = _tirx('''@T.prim_func
def f(x: T.int32):
    assert x > 0, ("TypeError", ["x must be positive"])
''')
    assert not structural_equal(plain, kind_only)


@pytest.mark.parametrize("value, dtype", [("A[0] + 1", "int32"), ("n", "int32"), ("4", "int32"),
                                          ("1.5", "float32"), ("A[0] > 0", "bool")])
def test_plain_assignment_is_a_local_scalar_cell(value, dtype):
    """TVM 0.27 tirx ``x = expr`` (its bind_assign_value, checked with TVM 0.27's parser: 20
    units of tools/tvm027_roundtrip.py --suite tirx, e.g. test_tvmscript_syntax_sugar.py,
    test_tir_transform_remove_no_op.py): a PrimExpr, a var already defined or a Python number
    is a local scalar cell of the value's dtype, as ``x: T.int32 = expr`` is (tirkit made a
    LetStmt, or kept a Python number). Printed as TVM 0.27 prints the cell; ``x = x + 2``
    writes it; classic files keep the LetStmt."""
    func, text = _tirx(f'''@T.prim_func
def f(A: T.Buffer((4,), "int32"), n: T.int32):
    x = {value}
    x = x + x
    A[1] = T.Cast("int32", x)
''')
    alloc, decl = func.body, func.body.body  # the Allocate + DeclBuffer of TVM's AllocBuffer
    assert isinstance(alloc, tir.Allocate) and isinstance(decl, tir.DeclBuffer)
    assert decl.buffer.scope() == "local"
    assert str(decl.buffer.dtype) == dtype and tuple(int(s) for s in decl.buffer.shape) == (1,)
    assert f"x: T.{dtype} = " in text and "x = x + x" in text
    annotated, _ = _tirx(f'''@T.prim_func
def f(A: T.Buffer((4,), "int32"), n: T.int32):
    x: T.{dtype} = {value}
    x = x + x
    A[1] = T.Cast("int32", x)
''')
    assert structural_equal(func, annotated)
    classic = from_source(HEAD + '''@T.prim_func
def f(A: T.Buffer((4,), "int32")):
    x = A[0] + 1
    A[1] = x
''')
    assert isinstance(classic.body, tir.LetStmt)


def test_plain_assignment_of_a_pointer_is_still_a_bind():
    """TVM 0.27 binds a pointer (``p = T.address_of(...)``) and a string with T.Bind, not a
    cell."""
    func, _ = _tirx('''@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    p = T.address_of(A[1])
    T.evaluate(T.call_extern("int32", "use", p))
''')
    assert isinstance(func.body, tir.LetStmt)


def test_decl_buffer_over_a_pointer_expression_prints_as_one_decl_buffer():
    """TVM 0.27 keeps ``T.decl_buffer(..., data=T.address_of(A[i, 0]))`` as one DeclBuffer
    holding the expression (test_tir_inline_private_functions.py, test_tir_specialize.py);
    tirkit's IR binds the pointer to a var first, and its tirx print wrote that let out, which
    TVM 0.27 read back as a Bind and another DeclBuffer. The tirx printer folds the let back
    when nothing else uses the var; the classic print keeps v0.20's spelling."""
    func, text = _tirx('''@T.prim_func
def f(A: T.Buffer((80, 16), "float32"), B: T.Buffer((64, 16), "float32")):
    for i in range(64):
        Aview = T.decl_buffer([16, 16], "float32", data=T.address_of(A[i, 0]))
        for j in range(16):
            B[i, j] = Aview[j, 0]
''')
    assert "Aview = T.decl_buffer((16, 16), data=T.address_of(A[i, 0]))" in text
    assert "T.let" not in text and "Aview_data: T.handle" in script(func)
    used, text = _tirx('''@T.prim_func
def f(A: T.Buffer((80, 16), "float32"), B: T.Buffer((64, 16), "float32")):
    p = T.address_of(A[1, 0])
    Aview = T.decl_buffer([16, 16], "float32", data=p)
    B[0, 0] = Aview[0, 0]
    T.evaluate(T.call_extern("int32", "use", p))
''')
    assert "T.let[" in text and "data=T.address_of" not in text  # the var is used again


def test_block_attr_calls_merge_as_tvm_027_merges_them():
    """TVM 0.27's MergeAnnotations (test_tvmscript_parser_tir.py func1): a second
    ``T.sblock_attr`` merges dict values recursively (tirkit replaced ``{"key": {...}}`` by the
    second dict); a key given two different values is an error, as in TVM 0.27."""
    func, _ = _tirx('''@T.prim_func(s_tir=True)
def f():
    with T.sblock("b"):
        T.sblock_attr({"key": {"key1": "block1"}, "k": 1})
        T.sblock_attr({"key": {"key2": "block2"}, "k": 1})
        T.evaluate(0)
''')
    block = func.body.block
    assert dict(block.annotations["key"]) == {"key1": "block1", "key2": "block2"}
    (unit,) = parse_file(TIRX + '''@T.prim_func(s_tir=True)
def f():
    with T.sblock("b"):
        T.sblock_attr({"k": 1})
        T.sblock_attr({"k": 2})
        T.evaluate(0)
''', "t.py")
    assert [d.code for d in unit.diagnostics] == ["bad-argument"]
    assert "different values for key `k`" in unit.diagnostics[0].message


def test_a_bind_the_source_wrote_before_a_decl_buffer_stays_a_bind():
    """TVM 0.27 keeps ``A_data_1 = T.bind(T.address_of(A[0, 0]), ...)`` then
    ``T.decl_buffer(16, data=A_data_1)`` as a Bind and a DeclBuffer over the var
    (test_tir_inline_private_functions.py, test_tir_transform_simplify.py): only the var the
    parser binds for ``data=<expr>`` (named ``<buffer>_data``) folds back."""
    _, text = _tirx('''@T.prim_func
def f(A: T.Buffer((80, 16), "float32"), A_ptr: T.handle("float32")):
    A_data_1 = T.bind(T.address_of(A[0, 0]), T.handle("float32"))
    A_1 = T.decl_buffer(16, "float32", data=A_data_1)
    A_ptr_redef: T.let[T.handle("float32")] = A_ptr
    B = T.decl_buffer(1, "float32", data=A_ptr_redef)
    B[0] = A_1[0]
''')
    assert "A_data_1: T.let[" in text and "data=A_data_1" in text
    assert "A_ptr_redef: T.let[" in text and "data=A_ptr_redef" in text


def test_tirx_prints_a_zero_elem_offset_of_another_dtype_than_the_index_dtype():
    """TVM 0.27's buffer printer writes ``elem_offset=T.int64(0)`` of a buffer whose index dtype
    (``Buffer::DefaultIndexType``: shape[0]'s) is int32, so it reads back as int64. TVM 0.27's
    own print of this unit (s_tir rfactor's rowsum_zero_dim_rfactor) was compared by hand. The
    classic dialect prints it too: v0.20 printed only a non-zero offset, which read back as
    another IR (DESIGN.md contract 2: the printed text parses back to an equal IR)."""
    src = '''from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def f(A: T.Buffer((T.int64(128),), "float32")):
    B = T.sblock_alloc_buffer((T.int64(128),))
    C = T.sblock_alloc_buffer((128,), elem_offset=T.int64(0))
    D = T.sblock_alloc_buffer(())
    for i in range(128):
        A[i] = B[i] + C[i] + D[()]
'''
    func = from_source(src)
    text = script(func, dialect="tirx")
    assert "C = T.sblock_alloc_buffer((128,), elem_offset=T.int64(0))" in text
    assert "B = T.sblock_alloc_buffer((T.int64(128),))" in text
    assert structural_equal(from_source(text), func)
    classic = script(func)
    assert "C = T.alloc_buffer((128,), elem_offset=T.int64(0))" in classic
    assert classic.count("elem_offset") == 1
    assert structural_equal(from_source(classic), func)


def test_loop_step_is_kept_in_the_for_as_tvm_027_has_it():
    """TVM 0.27's For has an optional ``step`` (tests/python/s_tir/transform/
    test_s_tir_transform_canonicalize_loop.py): tirx ``range(1, 128, 5)`` and ``T.serial(0, 127,
    step=-3)`` keep min 1 / extent 127 / step 5 and min 0 / extent 127 / step -3 and print back
    as TVM 0.27 prints them; tirkit lowered them at parse time (about 5 units of
    tools/tvm027_roundtrip.py --suite tirx read back another IR)."""
    (unit,) = parse_file(TIRX + '''@T.prim_func
def f(A: T.Buffer((128,), "float32"), n: T.int32):
    for i in range(1, 128, 5):
        A[i] = T.float32(0.0)
    for j in T.serial(0, 127, step=-3):
        A[j] = T.float32(1.0)
    for k in T.parallel(2, n, step=n // 2):
        A[k] = T.float32(2.0)
''', "t.py")
    assert not unit.diagnostics
    loops = unit.ir.body.seq
    assert [(lp.min.value, lp.extent.value, lp.step.value) for lp in loops[:2]] == \
        [(1, 127, 5), (0, 127, -3)]
    text = script(unit.ir, dialect="tirx")
    assert "for i in range(1, 128, 5):" in text and "for j in range(0, 127, -3):" in text
    assert "for k in T.parallel(2, 2 + (n - 2), step=n // 2):" in text  # as TVM 0.27
    assert structural_equal(from_source(text.replace("# from tvm", "from tvm")), unit.ir)


def test_classic_loop_step_is_lowered_at_parse_time():
    """TVM v0.20's For has no step (its ``T.serial`` takes none, so ``range(a, b, s)`` is an
    error there): the classic dialect keeps tirkit's unit-stride loop whose body sees
    ``start + i * step``; an explicit step of 1 is kept by tirx (TVM 0.27 does) and dropped by
    the classic dialect."""
    (unit,) = parse_file(HEAD + '''@T.prim_func
def f(A: T.Buffer((128,), "float32")):
    for i in range(1, 128, 5):
        A[i] = T.float32(0.0)
    for j in range(0, 8, 1):
        A[j] = T.float32(1.0)
''', "t.py")
    first, second = unit.ir.body.seq
    assert (first.min.value, first.extent.value, first.step) == (0, 26, None)
    assert second.step is None
    (tirx,) = parse_file(TIRX + '''@T.prim_func
def f(A: T.Buffer((128,), "float32")):
    for j in range(0, 8, 1):
        A[j] = T.float32(1.0)
''', "t.py")
    assert tirx.ir.body.step.value == 1 and tirx.ir.body.has_trivial_step()
    assert "for j in range(8):" in script(tirx.ir, dialect="tirx")  # as TVM 0.27 prints it


# TVM 0.27.0's own print of this unit (apache-tvm 0.27 in a scratch venv: the unit in a file,
# imported, ``f.script()``; its ``# from tvm.tirx.layout import Axis`` line left out)
TIRX_LOOP_KEYWORDS = '''from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def f(A: T.Buffer((16, 16), "float32"), n: T.int64):
    for i in T.serial(T.int64(16)):
        for j in T.serial(n, dtype="int32"):
            A[i, j] = T.float32(1)
    for i in T.serial(0, 16, unroll=False):
        for j in T.vectorized(4, dtype="uint32"):
            A[i, j] = T.float32(3)
    for i, j in T.grid((1, 3), (n, 4), dtype="int32"):
        A[i, j] = T.float32(2)
    for i in T.serial(2, 8, annotations={"x": 1}, unroll=2):
        A[i, 0] = T.float32(3)
    for i in T.serial(0, 16, step=2, unroll=True):
        A[i, 1] = T.float32(4)
'''
TVM_027_PRINTS = '''# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def f(A: T.Buffer((16, 16), "float32"), n: T.int64):
    for i, j in T.grid(T.int64(16), T.Cast("int32", n)):
        A[i, j] = T.float32(1.0)
    for i in T.serial(16, unroll=False):
        for j in T.vectorized(T.uint32(4)):
            A[i, j] = T.float32(3.0)
    for i in range(1, 4):
        for j in range(T.Cast("int32", n), T.Cast("int32", n) + 4):
            A[i, j] = T.float32(2.0)
    for i in T.serial(2, 8, annotations={"pragma_unroll": 2, "x": 1}):
        A[i, 0] = T.float32(3.0)
    for i in T.serial(0, 16, unroll=True, step=2):
        A[i, 1] = T.float32(4.0)'''


def test_tirx_loop_keywords_unroll_dtype_and_grid_pairs():
    """TVM 0.27's tirx loops take ``unroll=`` (``T.serial``: the ``pragma_unroll`` /
    ``disable_unroll`` annotation), ``dtype=`` (the loop var's dtype, int32 or uint32; bounds of
    another dtype cast) and ``T.grid`` extents as ``(start, extent)`` pairs
    (tests/python/tirx/test_parser_printer.py); tirkit rejected all three ("unexpected keyword
    argument"). Read as TVM 0.27 reads them, printed as it prints them, read back the same."""
    (unit,) = parse_file(TIRX_LOOP_KEYWORDS, "t.py")
    assert not unit.diagnostics, [d.message for d in unit.diagnostics]
    text = script(unit.ir, dialect="tirx")
    assert text == TVM_027_PRINTS
    assert structural_equal(from_source(text.replace("# from tvm", "from tvm")), unit.ir)
    first = unit.ir.body.seq[0]
    assert str(first.loop_var.dtype) == "int64" and str(first.body.loop_var.dtype) == "int32"


@pytest.mark.parametrize("call,message", [
    ("T.serial(4, unroll=0)", "unroll must be a positive integer"),
    ("T.serial(4, unroll=1.5)", "unroll must be a bool, a positive integer, or None"),
    ("T.serial(4, dtype=\"int64\")", 'dtype of a loop var must be "int32" or "uint32", got int64'),
    ("T.grid((0, 2, 3))", "a T.grid extent is a value or a (start, extent) pair, got 3 values"),
    ("T.parallel(4, unroll=True)", "unexpected keyword argument 'unroll'"),
    ("T.serial(0, 8, 2)", "positional argument"),
])
def test_tirx_loop_keyword_errors(call, message):
    """What TVM 0.27 refuses is one diagnostic on the call (``step`` is keyword-only there,
    ``unroll`` is ``T.serial``'s alone)."""
    (unit,) = parse_file(TIRX + f'''@T.prim_func
def f(A: T.Buffer((16,), "float32")):
    for i in {call}:
        A[0] = T.float32(0)
''', "t.py")
    assert [d.message for d in unit.diagnostics if message in d.message], \
        [d.message for d in unit.diagnostics]
    assert len(unit.diagnostics) == 1 and unit.diagnostics[0].span.line == 6


def test_classic_loops_keep_tvm_v020_signatures():
    """TVM v0.20's ``T.serial`` / ``T.grid`` take no ``unroll`` / ``dtype`` and no pairs."""
    (unit,) = parse_file(HEAD + '''@T.prim_func
def f(A: T.Buffer((16,), "float32")):
    for i in T.serial(4, unroll=True):
        A[i] = T.float32(0)
''', "t.py")
    assert any("unexpected keyword argument 'unroll'" in d.message for d in unit.diagnostics)


def test_tirx_return_statement_is_return():
    """TVM 0.27 tirx ``T.Return(v)`` is the statement ``return v`` spells
    (tests/python/tvmscript/test_tvmscript_syntax_sugar.py::test_return_statement); tirkit
    rejected the name. Both read to one IR, printed ``return v`` as TVM 0.27 prints it."""
    explicit = from_source(TIRX + '''@T.prim_func(s_tir=True)
def f(n: T.int32) -> T.int32:
    if n > 0:
        T.Return(n)
    T.Return(T.int32(5))
''')
    implicit = from_source(TIRX + '''@T.prim_func(s_tir=True)
def f(n: T.int32) -> T.int32:
    if n > 0:
        return n
    return 5
''')
    assert structural_equal(explicit, implicit)
    assert "    return 5" in script(explicit, dialect="tirx")


def test_tirx_var_takes_ty():
    """TVM 0.27 tirx ``T.Var(name, ty)``: the dtype argument is named ``ty``
    (tests/python/tirx-transform/test_tir_transform_vectorize.py: ``T.Var("n", ty="int32")``);
    tirkit rejected the keyword. A ``T.handle(...)`` var is not a type there: TVM's message."""
    (unit,) = parse_file(TIRX + '''@T.prim_func(check_well_formed=False)
def f(A: T.Buffer((25,), "int32")):
    n = T.Var("n", ty="int32")
    m = T.Var("m", "int64")
    for j in range(n):
        A[j] = T.Cast("int32", m)
''', "t.py")
    assert not unit.diagnostics
    loop = unit.ir.body
    assert loop.extent.name == "n" and str(loop.extent.dtype) == "int32"
    assert str(loop.body.value.value.dtype) == "int64"
    (bad,) = parse_file(TIRX + '''@T.prim_func(check_well_formed=False)
def f(A: T.Buffer((25,), "int32")):
    p = T.Var("p", T.handle("float32"))
    A[0] = 0
''', "t.py")
    assert [d.message for d in bad.diagnostics] == ["ty must be a Type or primitive dtype string"]


def test_tirx_evaluate_of_a_loop_jump_is_the_jump():
    """TVM 0.27 ``T.evaluate(T.continue_loop())`` / ``T.evaluate(T.break_loop())`` are what
    ``continue`` / ``break`` spell (tests/python/tvmscript/test_tvmscript_syntax_sugar.py::
    test_loop_jump_statement); tirkit said "cannot convert NoneType None to a PrimExpr"."""
    explicit = from_source(TIRX + '''@T.prim_func(s_tir=True)
def f():
    for i in range(16):
        if i % 2 == 0:
            T.evaluate(T.continue_loop())
        if i < 15:
            T.evaluate(T.break_loop())
''')
    implicit = from_source(TIRX + '''@T.prim_func(s_tir=True)
def f():
    for i in range(16):
        if i % 2 == 0:
            continue
        if i < 15:
            break
''')
    assert structural_equal(explicit, implicit)
    text = script(explicit, dialect="tirx")
    assert "            T.continue_loop()\n" in text and "            T.break_loop()" in text


def test_tirx_alloc_buffer_annotations_may_hold_lists():
    """TVM 0.27 tirx ``T.alloc_buffer(..., annotations={"buffer_allocated_addr": [], ...})``
    (tests/python/s_tir/transform/test_s_tir_transform_lower_opaque_block.py, 4 units): tirkit
    said "cannot convert list [] to a PrimExpr". Lists stay lists; printed as TVM 0.27 prints
    them and read back the same."""
    func = from_source(TIRX + '''@T.prim_func(s_tir=True)
def f(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    for i in range(16):
        B = T.alloc_buffer([1, 16], "float32", annotations={"buffer_allocated_addr": [],
                                                            "buffer_data_alignment": 64})
        for j in range(16):
            B[0, j] = A[i, j]
        for j in range(16):
            C[i, j] = B[0, j]
''')
    text = script(func, dialect="tirx")
    assert 'B = T.alloc_buffer((1, 16), annotations={"buffer_allocated_addr": [], ' \
        '"buffer_data_alignment": 64})' in text
    assert structural_equal(from_source(text.replace("# from tvm", "from tvm")), func)


def test_two_lane_dtype_constructors():
    """TVM 0.27 has ``T.int32x2``, ``T.float16x2`` ... (two lanes of every int, uint and float
    width; tests/python/tirx-transform); tirkit's T namespace started at four lanes."""
    func = from_source(HEAD + '''@T.prim_func
def f(A: T.Buffer((2,), "int32"), B: T.Buffer((1,), "int32x2")):
    v: T.int32x2 = A[0:2]
    B[0] = v + T.int32x2(1)
''')
    assert str(func.body.var.dtype) == "int32x2"
    for name in ("int8x2", "uint64x2", "float16x2", "float64x2"):
        assert str(getattr(tir_ns, name)().dtype) == name


@pytest.mark.parametrize("body, printed", [
    # tests/python/s_tir/transform/test_s_tir_transform_rewrite_unsafe_select.py
    ('''def main(value: T.uint32, condition: T.bool):
    T.evaluate(T.Select(condition, T.isnullptr(T.address_of(value)), T.bool(False)))
''', "    T.evaluate(T.Select(condition, T.isnullptr(T.address_of(value)), T.bool(False)))\n"),
    # tests/python/codegen/test_target_codegen_llvm.py::test_llvm_intrin
    ('''def main(A: T.handle("float32")):
    A_buf = T.decl_buffer((4,), "float32", data=A)
    T.evaluate(T.Call("tirx.prefetch", [T.address_of(A_buf[0]), 0, 3, 1], ret_ty="void"))
''', "    T.prefetch(T.address_of(A_buf[0]), 0, 3, 1)\n"),
    # tests/python/codegen/test_target_codegen_cuda.py::test_invalid_reinterpret
    ('''def main(A: T.Buffer((4,), "uint32"), B: T.Buffer((4,), "float32")):
    for tx in T.thread_binding(4, "threadIdx.x"):
        B[tx] = T.call_intrin("float32", "tirx.reinterpret", A[tx])
''', '        B[tx] = T.reinterpret("float32", A[tx])\n'),
])
def test_tirx_calls_address_of_a_scalar_and_tirx_op_names(body, printed):
    """TVM 0.27 tirx: ``T.address_of(v)`` of a scalar var, ``T.Call(op, args, ret_ty=...)``
    (op first) and op names ``tirx.*``; tirkit refused all three. Printed as TVM 0.27 prints
    them (its print of these units), and read back."""
    (unit,) = parse_file(TIRX + "@T.prim_func(s_tir=True)\n" + body, "t.py")
    assert not unit.diagnostics, [d.message for d in unit.diagnostics]
    text = script(unit.ir, dialect="tirx")
    assert printed in text + "\n"
    assert structural_equal(from_source(text.replace("# from", "from", 1)), unit.ir)


def test_address_of_a_pointer_var_is_tvm_027s_error():
    (unit,) = parse_file(TIRX + '''@T.prim_func(s_tir=True)
def main(p: T.handle("float32")):
    T.evaluate(T.isnullptr(T.address_of(p)))
''', "t.py")
    assert "address_of expects a scalar or TensorMap Var" in unit.diagnostics[0].message
