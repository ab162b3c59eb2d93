"""Error cases for the preconditions the per-primitive files do not reach: every case checks the
TVM error class, that the message names the block/loop, and that the schedule is unchanged
(same module object, same trace)."""
import pytest

from tirkit.schedule import Schedule, errors

from sched_util import parse

TWO_STAGE = parse("""
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    B = T.alloc_buffer((16, 16))
    for i, j in T.grid(16, 16):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(16, 16):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
""")

TRIANGLE = parse("""
@T.prim_func
def main(A: T.Buffer((16, 16), "float32")):
    for i in range(16):
        for j in range(i + 1):
            with T.block("A"):
                vi = T.axis.spatial(16, i)
                vj = T.axis.spatial(16, j)
                A[vi, vj] = T.float32(1)
""")

NESTED_SCOPE = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi]
    with T.block("outer"):
        T.reads(B[0:16])
        T.writes(C[0:16])
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                C[vi] = B[vi] + T.float32(1)
""")

TWO_PRODUCERS = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    for i in range(8):
        with T.block("B0"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi]
    for i in range(8):
        with T.block("B1"):
            vi = T.axis.spatial(16, i + 8)
            B[vi] = A[vi] * T.float32(2)
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            C[vi] = B[vi] + T.float32(1)
""")

OPAQUE_USE = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi]
    with T.block("C"):
        T.reads(B[0:16])
        T.writes(C[0:16])
        Bv = T.match_buffer(B[0:16], (16,))
        for i in range(16):
            C[i] = Bv[i] + T.float32(1)
""")

NOT_COMPLETE_OR_REDUCTION = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi]
            B[vi] = B[vi] + A[vi]
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            C[vi] = B[vi]
""")


def _unchanged(sch, run, error, *names):
    mod, n = sch.mod, len(sch.trace.insts)
    with pytest.raises(error) as info:
        run()
    for name in names:
        assert name in str(info.value)
    assert sch.mod is mod and len(sch.trace.insts) == n
    return info.value


def test_compute_inline_keeps_the_other_blocks_rvs():
    # the sref of the inlined block used to be handed to the block after it
    sch = Schedule(TWO_STAGE)
    b, c = sch.get_block("B"), sch.get_block("C")
    sch.compute_inline(b)
    assert sch.get(c).name_hint == "C"
    assert len(sch.get_loops(c)) == 2


def test_reorder_loop_depending_on_another_is_dependent_loop_error():
    sch = Schedule(TRIANGLE)
    i, j = sch.get_loops("A")
    _unchanged(sch, lambda: sch.reorder(j, i), errors.DependentLoopError, 'loop "j"')


def test_merge_loops_of_different_scopes_is_loop_not_in_same_scope():
    sch = Schedule(NESTED_SCOPE)
    (bi,) = sch.get_loops("B")
    (ci,) = sch.get_loops("C")
    _unchanged(sch, lambda: sch.merge(bi, ci), errors.LoopNotInSameScopeError, 'loop "i"')


def test_reverse_compute_at_out_of_its_scope_is_not_in_same_scope():
    sch = Schedule(NESTED_SCOPE)
    (bi,) = sch.get_loops("B")
    c = sch.get_block("C")
    e = _unchanged(sch, lambda: sch.reverse_compute_at(c, bi), errors.NotInSameScopeError,
                   'block "C"', 'loop "i"')
    assert e.locations[0] is sch.get(c)


def test_compute_at_of_a_block_neither_complete_nor_reduction():
    sch = Schedule(NOT_COMPLETE_OR_REDUCTION)
    (ci,) = sch.get_loops("C")
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.compute_at(b, ci), errors.NotCompleteOrReductionBlockError, 'block "B"')


def test_reverse_compute_inline_with_two_producers_is_non_single_producer():
    sch = Schedule(TWO_PRODUCERS)
    c = sch.get_block("C")
    _unchanged(sch, lambda: sch.reverse_compute_inline(c),
               errors.NonSingleProducerError, 'block "C"', "2 producer blocks")


def test_compute_inline_of_a_buffer_matched_by_a_consumer_is_opaque_access():
    sch = Schedule(OPAQUE_USE)
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.compute_inline(b),
               errors.OpaqueAccessError, 'block "B"', 'block "C"')


def test_expired_and_foreign_random_variables():
    sch = Schedule(TWO_STAGE)
    b = sch.get_block("B")
    sch.compute_inline(b)
    _unchanged(sch, lambda: sch.get(b), errors.RVExpiredError, "no longer exists")
    other = Schedule(TWO_STAGE)
    foreign = other.get_block("C")
    _unchanged(sch, lambda: sch.get_loops(foreign), errors.RVExpiredError, "not defined")


def test_expr_rv_of_another_schedule_is_not_const():
    sch = Schedule(TWO_STAGE)
    other = Schedule(TWO_STAGE)
    factor = other.sample_categorical([4], [1.0])
    i, _ = sch.get_loops("C")
    _unchanged(sch, lambda: sch.split(i, [None, factor]), errors.ExprRVNotConstError,
               "not an ExprRV of this schedule")


REDUCE_THEN_SCALE = parse("""
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), D: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    C = T.alloc_buffer((16,))
    for i in range(16):
        with T.block("init_C"):
            vi = T.axis.spatial(16, i)
            C[vi] = A[vi, 0]
    for i, k in T.grid(16, 16):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + C[vi] * A[vi, vk]
    for i in range(16):
        with T.block("D"):
            vi = T.axis.spatial(16, i)
            D[vi] = B[vi] * T.float32(2)
""")


def test_compute_inline_of_a_reduction_block_is_has_init_block():
    sch = Schedule(REDUCE_THEN_SCALE)
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.compute_inline(b), errors.HasInitBlock, 'block "B"',
               "init statement")


def test_reverse_compute_inline_of_a_reduction_block_is_has_init_block():
    sch = Schedule(REDUCE_THEN_SCALE)
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.reverse_compute_inline(b), errors.HasInitBlock, 'block "B"',
               "reverse_compute_inline cannot inline a reduction block")


def test_a_block_rv_where_a_loop_is_expected_is_not_loop_error():
    sch = Schedule(TWO_STAGE)
    b = sch.get_block("B")
    e = _unchanged(sch, lambda: sch.split(b, [4, 4]), errors.NotLoopError, 'block "B"',
                   "where a loop is expected")
    assert isinstance(e, errors.InvalidArgumentError)
    i, _ = sch.get_loops("B")
    _unchanged(sch, lambda: sch.compute_inline(i), errors.NotBlockError, 'loop "i"',
               "where a block is expected")


def test_get_block_of_an_unknown_name_is_block_not_found():
    sch = Schedule(TWO_STAGE)
    e = _unchanged(sch, lambda: sch.get_block("X"), errors.BlockNotFoundError,
                   'Cannot find a block with the name "X" in function "main"')
    assert isinstance(e, errors.NotSingleResult)
    # a block name given to a primitive goes through get_block: same error, nothing recorded
    _unchanged(sch, lambda: sch.compute_inline("X"), errors.BlockNotFoundError, '"X"')


def test_get_block_of_a_duplicated_name_is_not_single_result():
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("A"):
                vi = T.axis.spatial(16, i)
                A[vi] = T.float32(1)
        for i in range(16):
            with T.block("A"):
                vi = T.axis.spatial(16, i)
                A[vi] = T.float32(2)
    """)
    sch = Schedule(func)
    e = _unchanged(sch, lambda: sch.get_block("A"), errors.NotSingleResult, "Found 2 blocks")
    assert not isinstance(e, errors.BlockNotFoundError) and len(e.locations) == 2


def test_unannotate_of_a_missing_key_is_index_error():
    # TVM's Unannotate: "IndexError: Cannot find annotation key"
    sch = Schedule(TWO_STAGE)
    i, _ = sch.get_loops("B")
    sch.annotate(i, "pragma_unroll", 1)
    e = _unchanged(sch, lambda: sch.unannotate(i, "pragma_vectorize"), errors.IndexError_,
                   'loop "i"', "'pragma_vectorize'", "pragma_unroll")
    assert isinstance(e, IndexError)
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.unannotate(b, "x"), IndexError, 'block "B"', "no annotations")


@pytest.mark.parametrize("call", [
    lambda s, root, loop: s.transform_block_layout(root, lambda: ()),
    lambda s, root, loop: s.pad_einsum(root, []),
    lambda s, root, loop: s.decompose_padding(root, loop),
    lambda s, root, loop: s.cache_index(root, "global"),
])
def test_a_primitive_on_the_root_block_is_root_block_error(call):
    """Found by a wrong-argument probe: these four raised the ValueError "block 'root' is not a
    child block of the function"; TVM's GetScopeRoot raises RootBlockError."""
    sch = Schedule(TWO_STAGE)
    root, loop = sch.get_block("root"), sch.get_loops("B")[0]
    _unchanged(sch, lambda: call(sch, root, loop), errors.RootBlockError, 'block "root"',
               "does not operate on the root block")


@pytest.mark.parametrize("call,error,names", [
    (lambda s, b, c, i, j: s.loop_partition(i, 4), errors.InvalidArgumentError,
     ('loop "i"', "factors must be a list, got 4")),
    (lambda s, b, c, i, j: s.reorder_block_iter_var(b, 1), errors.InvalidArgumentError,
     ('block "B"', "new_order must be a list of integers, got 1")),
    (lambda s, b, c, i, j: s.reorder_block_iter_var(b, [1.0, 0]), errors.InvalidArgumentError,
     ('block "B"', "new_order must be a list of integers")),
    (lambda s, b, c, i, j: s.cache_read(b, 0, 5), errors.InvalidScopeError,
     ("the storage scope 5 is not a str",)),
    (lambda s, b, c, i, j: s.set_scope(b, 0, None), errors.InvalidScopeError,
     ('block "B"', "invalid storage scope None")),
    (lambda s, b, c, i, j: s.compute_at(b, j, index=None), errors.InvalidArgumentError,
     ('block "B"', "index must be an integer, got None")),
    (lambda s, b, c, i, j: s.reverse_compute_at(c, i, index=0.5), errors.InvalidArgumentError,
     ('block "C"', "index must be an integer, got 0.5")),
    (lambda s, b, c, i, j: s.unsafe_set_dtype(b, 0, "float32x4"), errors.DTypeError,
     ('block "B"', "'float32x4'", "needs a scalar numeric dtype")),
    (lambda s, b, c, i, j: s.unsafe_set_dtype(b, 0, "handle"), errors.DTypeError,
     ('block "B"', "'handle'")),
    (lambda s, b, c, i, j: s.blockize([b]), errors.NotChildError,
     ('block "B"', "needs two or more sibling blocks")),
])
def test_arguments_of_the_wrong_kind_are_schedule_errors(call, error, names):
    """Found by a wrong-argument probe: each raised a TypeError or AttributeError out of the
    primitive ('int' object is not iterable, 'int' object has no attribute 'split', '<=' not
    supported between 'int' and 'NoneType', a Cast lane mismatch), or for blockize of one block
    the message claimed the blocks were nested."""
    sch = Schedule(TWO_STAGE)
    b, c = sch.get_block("B"), sch.get_block("C")
    i, _ = sch.get_loops("B")
    _, j = sch.get_loops("C")
    _unchanged(sch, lambda: call(sch, b, c, i, j), error, *names)


REDUCE = parse("""
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    for i, k in T.grid(16, 16):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
""")


@pytest.mark.parametrize("axis", [0.5, None])
def test_rfactor_with_a_factor_axis_that_is_not_an_integer(axis):
    sch = Schedule(REDUCE)
    _, k = sch.get_loops("B")
    _unchanged(sch, lambda: sch.rfactor(k, axis), errors.FactorAxisOutOfRangeError, 'block "B"',
               f"factor_axis must be an integer, got {axis}")


OUTPUT_PRODUCER = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"),
         C: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi] * T.float32(2)
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            C[vi] = B[vi] + T.float32(1)
""")

TWO_CONSUMERS = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), D: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    C = T.alloc_buffer((16,))
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi] * T.float32(2)
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            C[vi] = B[vi] + T.float32(1)
    for i in range(16):
        with T.block("D"):
            vi = T.axis.spatial(16, i)
            D[vi] = B[vi] * C[vi]
""")


def test_reverse_compute_inline_into_a_producer_of_an_output_is_not_output_block():
    """Found by a wrong-argument probe: accepted, and output B was never written (the producer
    now stores C instead). TVM 0.27: "The block ... is an output block"."""
    sch = Schedule(OUTPUT_PRODUCER)
    c = sch.get_block("C")
    _unchanged(sch, lambda: sch.reverse_compute_inline(c), errors.NotOutputBlockError,
               'block "B"', 'the buffer "B" it writes is a function parameter')


def test_reverse_compute_inline_into_a_producer_with_another_consumer_is_non_single_producer():
    """Found by the wide fuzzer on fuzz_kernels.py's two_consumers (SCHED_FUZZ=1500
    --hypothesis-seed=4, the debug check turned into a failure): the producer's store of B was
    replaced by C's while block D still read B, so the IR was ill-formed; the debug check then
    raised a bare ScheduleError ("produced ill-formed IR"). TVM 0.27 refuses it."""
    sch = Schedule(TWO_CONSUMERS)
    c = sch.get_block("C")
    _unchanged(sch, lambda: sch.reverse_compute_inline(c), errors.NonSingleProducerError,
               'block "C"', 'its producer block "B" also feeds block "D"')
    sch = Schedule(TWO_CONSUMERS, debug_mask="none")  # the IR check is not what refuses it
    c = sch.get_block("C")
    _unchanged(sch, lambda: sch.reverse_compute_inline(c), errors.NonSingleProducerError)


def _two_functions():
    from tirkit.lang import from_source
    one = """
    @T.prim_func
    def {name}(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((16,))
        for i in range(16):
            with T.block("B"):
                vi = T.axis.spatial(16, i)
                B[vi] = A[vi] * T.float32(2)
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                C[vi] = B[vi] + T.float32(1)
"""
    return from_source("from tvm.script import ir as I\nfrom tvm.script import tir as T\n\n"
                       "@I.ir_module\nclass Module:" + one.format(name="f")
                       + one.format(name="g"), "two.py")


@pytest.mark.parametrize("call,text", [
    (lambda s, f, g: s.cache_read(f("C"), 0, "global", consumer_blocks=[g("C")]),
     'the consumer block is in function "g", not in "f"'),
    (lambda s, f, g: s.cache_write(f("B"), 0, "global", consumer_blocks=[g("C")]),
     'the consumer block is in function "g", not in "f"'),
    (lambda s, f, g: s.blockize([f("B"), g("C")]),
     'block "B" and block "C" are in different functions'),
])
def test_blocks_of_another_function_are_invalid_argument(call, text):
    """Found by a wrong-argument probe on a module of two functions: cache_read failed with
    "internal error: block 'B_global' was not placed in the IR", cache_write ignored the
    consumer, blockize raised the ValueError "srefs are in different functions"."""
    mod = _two_functions()
    sch = Schedule(mod)
    blocks = {(fn, n): sch.get_block(n, func_name=fn) for fn in "fg" for n in "BC"}
    _unchanged(sch, lambda: call(sch, lambda n: blocks["f", n], lambda n: blocks["g", n]),
               errors.InvalidArgumentError, text)


@pytest.mark.parametrize("k", [0, 1])
def test_merge_of_a_loop_with_itself_is_loop_multi_appearance(k):
    """Found by the wide fuzzer (topi_fast_softmax, SCHED_FUZZ_BOUNDS=1 --hypothesis-seed=6):
    merge(l, l) of an inner loop copied its body twice (the block defined twice: ill-formed IR,
    reported as a bare "produced ill-formed IR"); of an outer loop it said the loop was not in
    its own scope. fuse and reorder already raised LoopMultiAppearanceError."""
    sch = Schedule(TWO_STAGE)
    loop = sch.get_loops("B")[k]
    _unchanged(sch, lambda: sch.merge(loop, loop), errors.LoopMultiAppearanceError,
               f'loop "{"ij"[k]}" appears more than once')


def test_rfactor_of_a_loop_not_starting_at_zero_is_loop_not_start_with_zero():
    """Found by the wide fuzzer with bound checkers (bmm_bias_relu: loop_partition of the
    reduction loop by [1, None], then rfactor of the second part's loop k1 in range(1, 5);
    SCHED_FUZZ_BOUNDS=1 --hypothesis-seed=7): the rf buffer (extent 4) was indexed by k1 up to
    4, out of bounds, and the write-back's T.init fired at k1 == 1, dropping the first part's
    sum. TVM 0.27 builds the same."""
    sch = Schedule(REDUCE)
    _, k = sch.get_loops("B")
    sch.loop_partition(k, [1, None])
    k1 = sch.get_loops("B_k1")[-1]
    _unchanged(sch, lambda: sch.rfactor(k1, 0), errors.LoopNotStartWithZeroError,
               'loop "k1" does not start with 0')


PAD_BATCH1 = parse("""
@T.prim_func
def main(A: T.Buffer((1, 6), "float32"), C: T.Buffer((1, 6), "float32")):
    P = T.alloc_buffer((1, 8))
    for n, h in T.grid(1, 8):
        with T.block("P"):
            vn, vh = T.axis.remap("SS", [n, h])
            P[vn, vh] = T.if_then_else(1 <= vh and vh < 7, A[vn, vh - 1], T.float32(0))
    for n, h in T.grid(1, 6):
        with T.block("C"):
            vn, vh = T.axis.remap("SS", [n, h])
            C[vn, vh] = P[vn, vh] + P[vn, vh + 2]
""")


def test_compute_inline_of_a_value_over_a_unit_iter_not_in_the_indices():
    """Found by the wide fuzzer (conv2d_nchw.py: reindex of the pad block's write, which drops
    the unit batch iter from the store's indices but not from the value, then compute_inline;
    --hypothesis-seed=10): the consumers got the value with vn undefined (ill-formed IR). A
    unit iter takes its one value now."""
    import numpy as np
    from tirkit.compiler import build
    from tirkit.schedule.testing import verify_trace_roundtrip
    sch = Schedule(PAD_BATCH1)
    sch.reindex("P", ("write", 0))
    sch.compute_inline("P")
    verify_trace_roundtrip(sch, PAD_BATCH1)
    a = np.arange(1, 7, dtype="float32").reshape(1, 6)
    c = np.zeros((1, 6), "float32")
    build(sch.mod)["main"](a, c)
    padded = np.pad(a, ((0, 0), (1, 1)))
    np.testing.assert_allclose(c, padded[:, :6] + padded[:, 2:])


@pytest.mark.parametrize("move", ["compute_at", "reverse_compute_at"])
def test_moving_a_block_under_a_loop_inside_it_is_loop_position_error(move):
    """Found by the wide fuzzer (conv1d_strided: blockize, then reverse_compute_at of the outer
    block at its own inner loop; --hypothesis-seed=10): the new tree had a hole and the IR check
    raised a TypeError out of the schedule."""
    sch = Schedule(TWO_STAGE)
    sch.blockize(sch.get_loops("C")[1])
    outer, inner = sch.get_block("C_o"), sch.get_loops("C")[0]
    _unchanged(sch, lambda: getattr(sch, move)(outer, inner), errors.LoopPositionError,
               'block "C_o"', "the loop is inside the block")
