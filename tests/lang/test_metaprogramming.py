"""TVMScript metaprogramming (issue 16; seed 001's F1-F3, seed 003's strided loops), in static
mode (parse_file: nothing of the file runs): rank polymorphism with starred targets and
arguments, strided loops, T.compute, T.macro, parse-time loops over tuples, and kernel
generators whose captured names are symbolic or information notes, never errors."""
import numpy as np

from tirkit.compiler import build
from tirkit.ir import assert_structural_equal
from tirkit.ir.diagnostics import Severity
from tirkit.lang import from_source, parse_file

HEADER = "from tvm.script import tir as T\n"


def units(src):
    return {u.name: u for u in parse_file(HEADER + src, "meta.py")}


def same(a, b):
    """Structurally equal up to the function names."""
    assert_structural_equal(a.with_attr("global_symbol", "f"), b.with_attr("global_symbol", "f"))


def only_ir(src):
    found = units(src)
    for u in found.values():
        assert not u.diagnostics, [(d.message, d.span) for d in u.diagnostics]
    return {name: u.ir for name, u in found.items()}


# ------------------------------------------------------------------ rank polymorphism (F2)
RANK = '''
SHAPE = (2, 3, 4)
BATCH = (2, 3)

@T.prim_func
def poly(a: T.handle, B: T.Buffer(SHAPE, "float32")):
    A = T.match_buffer(a, (*BATCH, 4))
    for *ax in T.grid(*A.shape):
        with T.block("add"):
            v = T.axis.remap("SSS", ax)
            B[*v] = A[*v] + T.float32(1)

@T.prim_func
def expected(A: T.Buffer((2, 3, 4), "float32"), B: T.Buffer((2, 3, 4), "float32")):
    for i, j, k in T.grid(2, 3, 4):
        with T.block("add"):
            vi, vj, vk = T.axis.remap("SSS", [i, j, k])
            B[vi, vj, vk] = A[vi, vj, vk] + T.float32(1)

@T.prim_func
def head_rest(A: T.Buffer((2, 3, 4), "float32")):
    for i, *rest in T.grid(*A.shape):
        with T.block("z"):
            vi, *vr = T.axis.remap("SSS", [i, *rest])
            A[vi, *vr] = T.float32(0)
'''


def test_starred_rank_polymorphism_equals_the_explicit_function():
    irs = only_ir(RANK)
    same(irs["poly"], irs["expected"])
    text = irs["poly"].script()
    assert "for ax_0, ax_1, ax_2 in T.grid(2, 3, 4):" in text
    assert "v_0, v_1, v_2 = T.axis.remap" in text
    assert "A[vi, vr_0, vr_1] = T.float32(0.0)" in irs["head_rest"].script()


# ----------------------------------------------------------------------- strided loops
STRIDED = '''
@T.prim_func
def strided(A: T.Buffer((32,), "float32"), n: T.int32):
    for i in T.serial(2, 32, 3):
        A[i] = A[i] + T.float32(1)
    for j in range(30, 0, -7):
        A[j] = A[j] * T.float32(2)
    for k in T.serial(0, n, 4):
        A[k] = A[k] + T.float32(10)

@T.prim_func
def unit_stride(A: T.Buffer((32,), "float32"), n: T.int32):
    for i in range(10):
        A[2 + i * 3] = A[2 + i * 3] + T.float32(1)
    for j in range(5):
        A[30 + j * -7] = A[30 + j * -7] * T.float32(2)
    for k in range(T.max((n + 3) // 4, 0)):
        A[k * 4] = A[k * 4] + T.float32(10)
'''


def test_strided_loops_lower_to_unit_stride_with_start_plus_i_times_step_and_run():
    irs = only_ir(STRIDED)
    same(irs["strided"], irs["unit_stride"])
    a = np.zeros(32, "float32")
    build(irs["strided"])(a, 13)
    ref = np.zeros(32, "float32")
    ref[2:32:3] += 1
    ref[30:0:-7] *= 2
    ref[0:13:4] += 10
    np.testing.assert_array_equal(a, ref)


def test_bad_step_is_underlined():
    bad = units('''
@T.prim_func
def f(A: T.Buffer((8,), "float32")):
    for i in T.serial(0, 8, 0):
        A[i] = T.float32(0)
''')["f"]
    (d,) = bad.diagnostics
    assert d.message == "a loop step must not be zero"
    assert (HEADER + STRIDED)  # keep the header in use
    assert d.span.column == d.span.end_column - 1  # just the `0` argument


# ---------------------------------------------------------------------- T.compute (F3)
COMPUTE = '''
@T.prim_func
def sugar(A: T.Buffer((32, 64), "float32"), W: T.Buffer((64, 16), "float32")):
    B = T.compute((32, 64), lambda i, j: A[i, j] * T.float32(2), name="B")
    k = T.reduce_axis((0, 64), name="k")
    C = T.compute((32, 16), lambda i, j: T.sum(B[i, k] * W[k, j], axis=k), name="C")

@T.prim_func
def expanded(A: T.Buffer((32, 64), "float32"), W: T.Buffer((64, 16), "float32")):
    B = T.alloc_buffer((32, 64))
    C = T.alloc_buffer((32, 16))
    for i, j in T.grid(32, 64):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j, k in T.grid(32, 16, 64):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + B[vi, vk] * W[vk, vj]
'''


def test_t_compute_expands_to_te_block_nest():
    irs = only_ir(COMPUTE)
    same(irs["sugar"], irs["expanded"])


def test_t_compute_arity_error_underlines_the_lambda():
    src = '''
@T.prim_func
def f(A: T.Buffer((4, 4), "float32")):
    B = T.compute((4, 4), lambda i: A[i, i], name="B")
'''
    (d,) = units(src)["f"].diagnostics
    assert "takes 1 index(es) but the shape has 2" in d.message
    line = (HEADER + src).splitlines()[d.span.line - 1]
    assert line[d.span.column:d.span.end_column] == "lambda i: A[i, i]"


# --------------------------------------------------------------------- T.macro (F1/F4)
MACROS = '''
x_value = 128

@T.macro
def add_one(A, i, amount=T.float32(1)):
    A[i] = A[i] + amount

@T.macro(hygienic=True)
def static_capture(A, B):
    B[()] = A[x_value]

@T.macro(hygienic=False)
def dynamic_capture(A, B):
    B[()] = A[x_value]

@T.macro
def twice(v):
    return v * 2

@T.prim_func
def use(A: T.Buffer((1024,), "int32"), B: T.Buffer((), "int32"), C: T.Buffer((8,), "float32")):
    for x_value in T.serial(10):
        static_capture(A, B)
        dynamic_capture(A, B)
    for i in range(8):
        add_one(C, i)
        add_one(C, i, amount=T.float32(3))
        C[i] = twice(C[i])

@T.prim_func
def expected(A: T.Buffer((1024,), "int32"), B: T.Buffer((), "int32"), C: T.Buffer((8,), "float32")):
    for x in T.serial(10):
        B[()] = A[128]
        B[()] = A[x]
    for i in range(8):
        C[i] = C[i] + T.float32(1)
        C[i] = C[i] + T.float32(3)
        C[i] = C[i] * T.float32(2)
'''


def test_macros_hygienic_non_hygienic_defaults_and_return_values():
    irs = only_ir(MACROS)
    same(irs["use"], irs["expected"])


def test_error_inside_a_macro_points_at_the_macro_and_the_call_site():
    src = '''
@T.macro
def bad(A):
    A[0] = undefined_thing

@T.prim_func
def f(C: T.Buffer((8,), "float32")):
    bad(C)
'''
    lines = (HEADER + src).splitlines()
    (d,) = units(src)["f"].diagnostics
    assert d.severity == Severity.ERROR and "undefined_thing" in d.message
    assert lines[d.span.line - 1].strip() == "A[0] = undefined_thing"
    (note,) = d.notes
    assert lines[note.span.line - 1].strip() == "bad(C)" and "macro 'bad'" in note.message


# ----------------------------------------------------------- parse-time loops, meta_var
UNROLL = '''
OFFSETS = (0, 2, 5)

@T.prim_func
def unrolled(A: T.Buffer((8,), "float32")):
    for off in OFFSETS:
        A[off] = T.float32(off)
    for s in T.meta_var([1, 3]):
        A[s] = A[s] + T.float32(1)

@T.prim_func
def expected(A: T.Buffer((8,), "float32")):
    A[0] = T.float32(0)
    A[2] = T.float32(2)
    A[5] = T.float32(5)
    A[1] = A[1] + T.float32(1)
    A[3] = A[3] + T.float32(1)
'''


def test_for_over_a_tuple_or_meta_var_list_is_unrolled_at_parse_time():
    irs = only_ir(UNROLL)
    same(irs["unrolled"], irs["expected"])


# ------------------------------------------------------- kernel generators (static mode)
GENERATOR = '''
import numpy as np

def make_add(n, dtype, shape: tuple, m: int = 4):
    half = n // 2

    @T.prim_func
    def add(A: T.Buffer((n,), "float32"), B: T.Buffer((n, m), "float32")):
        for i, j in T.grid(half, m):
            B[i, j] = A[i] + T.float32(1)

    @T.prim_func
    def typed(A: T.Buffer((n,), dtype)):
        for i in range(n):
            A[i] = A[i] + T.float32(1)

    @T.prim_func
    def shaped(A: T.Buffer(shape, "float32")):
        A[0] = T.float32(0)

    @T.prim_func
    def broken(A: T.Buffer((n,), dtype)):
        A[0] = not_defined_anywhere
    return add
'''


def test_generator_captures_are_symbolic_or_info_notes_never_errors():
    found = units(GENERATOR)
    add = found["add"]
    assert not add.diagnostics
    text = add.ir.script()
    assert "n = T.int32(is_size_var=True)" in text and "for i, j in T.grid(n // 2, m):" in text
    for name, what in (("typed", "dtype"), ("shaped", "shape")):
        (d,) = found[name].diagnostics
        assert d.severity == Severity.INFO and d.message.startswith(
            f"depends on the caller's `{what}`")
        assert found[name].ir is None
    errors = [d for d in found["broken"].diagnostics if d.severity == Severity.ERROR]
    assert [d.message for d in errors] == ["name 'not_defined_anywhere' is not defined"]


def test_strided_loop_from_seed003_with_module_constants_parses():
    ir = from_source(HEADER + '''
chunk_n = 3
@T.prim_func
def simple_split(a: T.handle) -> None:
    A = T.match_buffer(a, [16])
    for n in T.serial(0, 16, chunk_n):
        with T.block("block"):
            vi = T.axis.spatial(16, n)
            A[vi] = T.float32(100)
''')
    assert "for n in range(6):" in ir.script() and "T.axis.spatial(16, n * 3)" in ir.script()


def test_a_macro_calling_itself_is_a_bounded_diagnostic():
    """A macro that calls itself without end stops at the nesting limit with a diagnostic that
    lists the innermost and outermost call sites and counts the rest (it listed all ~3,000)."""
    from tirkit.lang.parser.macro import MAX_CALL_NOTES

    src = HEADER + '''
@T.macro
def rec(A):
    A[0] = A[0] + 1
    rec(A)


@T.prim_func
def f(A: T.Buffer((4,), "int32")):
    rec(A)
'''
    (unit,) = [u for u in parse_file(src, "rec.py") if u.name == "f"]
    errors = [d for d in unit.diagnostics if d.severity == Severity.ERROR]
    assert errors and all(d.code == "limit" for d in errors)
    notes = [n.message for n in errors[0].notes]
    assert len(notes) == MAX_CALL_NOTES + 1
    assert notes[MAX_CALL_NOTES // 2].startswith("... ") and "more macro calls" in notes[10]
    assert int(notes[MAX_CALL_NOTES // 2].split()[1]) > 100
    assert notes[-1] == "in macro 'rec' called at line 11" and notes[0].startswith("in macro")
