"""parallel, vectorize, bind, unroll, annotate, unannotate, storage_align, set_scope,
set_axis_separator, unsafe_set_dtype: before/after, error cases, trace round trip."""
import pytest

from tirkit.schedule import Schedule, errors

from sched_util import check, parse  # tests/schedule is on sys.path (rootdir-less test dir)

ELEMWISE = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
""")

REDUCE = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128,), "float32")):
    for i, k in T.grid(128, 128):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
""")

TWO_STAGE = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
    B = T.alloc_buffer((128, 128))
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(128, 128):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
""")


def _loop_kinds(expected_i, expected_j):
    return f"""
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
        for i in {expected_i}:
            for j in {expected_j}:
                with T.block("B"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    B[vi, vj] = A[vi, vj] * T.float32(2)
    """


@pytest.mark.parametrize("prim,expected", [
    ("parallel", _loop_kinds("T.parallel(128)", "range(128)")),
    ("vectorize", _loop_kinds("T.vectorized(128)", "range(128)")),
    ("unroll", _loop_kinds("T.unroll(128)", "range(128)")),
])
def test_loop_kinds(prim, expected):
    sch = Schedule(ELEMWISE)
    getattr(sch, prim)(sch.get_loops("B")[0])
    check(sch, ELEMWISE, expected)


def test_bind():
    sch = Schedule(ELEMWISE)
    i, j = sch.get_loops("B")
    sch.bind(i, "blockIdx.x")
    sch.bind(j, "threadIdx.x")
    check(sch, ELEMWISE, _loop_kinds('T.thread_binding(128, thread="blockIdx.x")',
                                     'T.thread_binding(128, thread="threadIdx.x")'))


def test_loop_kind_errors():
    sch = Schedule(REDUCE)
    _, k = sch.get_loops("B")
    with pytest.raises(errors.WrongBlockIterTypeError, match='loop "k" cannot be parallelized'):
        sch.parallel(k)
    with pytest.raises(errors.WrongBlockIterTypeError):
        sch.vectorize(k)
    with pytest.raises(errors.WrongBlockIterTypeError):
        sch.bind(k, "blockIdx.x")
    with pytest.raises(errors.ThreadAxisError, match="unknown thread axis 'warpIdx'"):
        sch.bind(k, "warpIdx")
    sch.bind(k, "threadIdx.x")      # a cross-thread reduction is allowed
    sch.unroll(sch.get_loops("B")[0])


def test_parallel_needs_compact_dataflow():
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("A"):
                vi = T.axis.spatial(16, i)
                A[vi] = A[vi] + T.float32(1)
    """)
    sch = Schedule(func)
    with pytest.raises(errors.NotCompactDataFlowError, match="reads a buffer it writes"):
        sch.parallel(sch.get_loops("A")[0])


def test_annotate_and_unannotate():
    sch = Schedule(ELEMWISE)
    i, _ = sch.get_loops("B")
    b = sch.get_block("B")
    sch.annotate(i, "pragma_auto_unroll_max_step", 16)
    sch.annotate(b, "meta_schedule.tiling_structure", "SSRSRS")
    check(sch, ELEMWISE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
        for i in T.serial(128, annotations={"pragma_auto_unroll_max_step": 16}):
            for j in range(128):
                with T.block("B"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    T.block_attr({"meta_schedule.tiling_structure": "SSRSRS"})
                    B[vi, vj] = A[vi, vj] * T.float32(2)
    """)
    sch.unannotate(i, "pragma_auto_unroll_max_step")
    sch.unannotate(b, "meta_schedule.tiling_structure")
    check(sch, ELEMWISE, ELEMWISE)


def test_storage_align_set_scope_axis_separator():
    sch = Schedule(TWO_STAGE)
    b = sch.get_block("B")
    sch.storage_align(b, 0, axis=0, factor=128, offset=1)
    sch.set_scope(b, 0, "shared")
    sch.set_axis_separator(b, ("write", 0), [1])
    text = sch.mod.script()
    assert 'T.block_attr({"buffer_dim_align": [[0, 0, 128, 1]]})' in text
    assert 'scope="shared"' in text and "axis_separators=[1]" in text
    from tirkit.schedule.testing import verify_trace_roundtrip
    verify_trace_roundtrip(sch, TWO_STAGE)


def test_unsafe_set_dtype():
    sch = Schedule(TWO_STAGE)
    sch.unsafe_set_dtype(sch.get_block("B"), 0, "float16")
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128), "float16")
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = T.Cast("float16", A[vi, vj] * T.float32(2))
        for i, j in T.grid(128, 128):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = T.Cast("float32", B[vi, vj]) + T.float32(1)
    """)


def test_buffer_primitive_errors():
    sch = Schedule(TWO_STAGE)
    b, c = sch.get_block("B"), sch.get_block("C")
    mod = sch.mod
    with pytest.raises(errors.BufferIndexOutOfRangeError):
        sch.set_scope(b, 3, "shared")
    with pytest.raises(errors.NonAllocatedBufferError):
        sch.set_scope(c, 0, "shared")
    with pytest.raises(errors.InvalidScopeError):
        sch.set_scope(b, 0, "sharde")
    with pytest.raises(errors.StorageAlignAxisOutOfRangeError):
        sch.storage_align(b, 0, axis=2, factor=8, offset=0)
    with pytest.raises(errors.StorageAlignInvalidFactorError):
        sch.storage_align(b, 0, axis=0, factor=0, offset=0)
    with pytest.raises(errors.DTypeError):
        sch.unsafe_set_dtype(b, 0, "floaty")
    assert sch.mod is mod


def test_annotate_with_a_dict_value_replays():
    """Found by a wrong-argument probe: TVM takes a dict (a Map) as ann_val, and so did annotate,
    but the trace could not be written as JSON ("cannot write dict as a trace input")."""
    from tirkit.schedule.testing import verify_trace_roundtrip
    sch = Schedule(ELEMWISE)
    sch.annotate(sch.get_block("B"), "k", {"a": 1, "b": [2, "x"], "c": {"d": 0.5}})
    assert 'T.block_attr({"k": {"a": 1, "b": [2, "x"], "c": {"d": 0.5}}})' in sch.mod.script()
    verify_trace_roundtrip(sch, ELEMWISE, text_format="json")


@pytest.mark.parametrize("key,value,text", [
    (5, 1, "the annotation key 5 has type int, not str"),
    ("k", object(), "the annotation value has type object"),
    ("k", [1, {2: 3}], r"the annotation value\[1\] has a key 2 of type int"),
    ("k", {"a": {1, 2}}, r"the annotation value\['a'\] has type set"),
])
def test_annotate_with_a_key_or_value_of_another_type_is_annotation_type_error(key, value, text):
    """Found by a wrong-argument probe: an int key was accepted and the build failed with an
    AttributeError ('int' object has no attribute 'startswith'); an object value was accepted
    and the trace failed to replay. TVM's FFI raises a TypeError: so does AnnotationTypeError."""
    sch = Schedule(ELEMWISE)
    b = sch.get_block("B")
    mod, n = sch.mod, len(sch.trace.insts)
    with pytest.raises(errors.AnnotationTypeError, match=f'block "B": {text}') as info:
        sch.annotate(b, key, value)
    assert isinstance(info.value, TypeError)
    assert sch.mod is mod and len(sch.trace.insts) == n
