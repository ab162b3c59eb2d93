"""``PrinterConfig(compute_sugar=True)`` (issue 16, seed 001 F3): a root-level nest that is
exactly what ``T.compute`` expands to prints back as ``T.compute`` (and ``T.reduce_axis``),
re-parses to the same IR, and everything else prints expanded."""
from tirkit import te, topi
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source
from tirkit.printer import script

SUGAR = '''from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((32, 64), "float32"), W: T.Buffer((64, 16), "float32"), C: T.Buffer((32, 16), "float32")):
    # with T.block("root"):
    B = T.compute((32, 64), lambda i, j: A[i, j] * T.float32(2.0), name="B")
    kk = T.reduce_axis((0, 64), name="kk")
    D = T.compute((32, 16), lambda i, j: T.sum(B[i, kk] * W[kk, j], axis=kk), name="D")
    for i, j in T.grid(32, 16):
        C[i, j] = D[i, j]
'''


def _round_trips(func, text):
    assert_structural_equal(from_source(text).with_attr("global_symbol", "f"),
                            func.with_attr("global_symbol", "f"))


def test_t_compute_prints_back_as_written_and_round_trips():
    func = from_source(SUGAR)
    assert script(func, compute_sugar=True).split("\n", 2)[2] == SUGAR.split("\n", 2)[2].rstrip()
    expanded = script(func)  # the default prints the block nests, as TVM does
    assert "T.compute" not in expanded and 'with T.block("D"):' in expanded
    _round_trips(func, expanded)


def test_te_functions_print_with_sugar_and_round_trip():
    A, B = te.placeholder((8, 6), name="A"), te.placeholder((6, 5), name="B")
    matmul = te.create_prim_func([A, B, topi.nn.relu(topi.matmul(A, B))])
    text = script(matmul, compute_sugar=True)
    assert "k = T.reduce_axis((0, 6), name=\"k\")" in text, text
    assert "T_matmul = T.compute((8, 5), lambda i0, i1: T.sum(A[i0, k] * B[k, i1], axis=k), " \
        'name="T_matmul")' in text, text
    assert 'with T.block("T_relu"):' in text  # the output is a parameter: not T.compute's
    _round_trips(matmul, text)
    X = te.placeholder((4, 7), name="X")
    softmax = te.create_prim_func([X, topi.nn.softmax(X)])
    text = script(softmax, compute_sugar=True)
    assert 'with T.block("T_softmax_maxelem"):' in text  # a max reduction stays expanded
    assert "T_softmax_exp = T.compute((4, 7), lambda i0, i1: T.exp(" in text, text
    _round_trips(softmax, text)


def test_nests_that_are_not_a_compute_print_expanded():
    src = SUGAR.replace('B = T.compute((32, 64), lambda i, j: A[i, j] * T.float32(2.0), name="B")',
                        '''B = T.alloc_buffer((32, 64))
    for i, j in T.grid(32, 64):
        with T.block("B"):
            v_i, v_j = T.axis.remap("SS", [i, j])
            T.where(i < 31)
            B[v_i, v_j] = A[v_i, v_j]''')
    func = from_source(src)
    text = script(func, compute_sugar=True)
    assert "T.where(i < 31)" in text and "B = T.alloc_buffer((32, 64))" in text
    # D's buffer is allocated after B's, so it still prints as T.compute
    assert "D = T.compute((32, 16)" in text
    _round_trips(func, text)
