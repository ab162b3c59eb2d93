"""storage_align, set_scope, set_axis_separator (TVM's ``block_annotate.cc`` and
``SetAxisSeparator``): full before/after TVMScript cases written from TVM v0.20's documented
semantics, one error case per precondition (error class, block/loop named, schedule unchanged),
and the trace round trip on every case (``check`` here, the conftest for the rest)."""
import pytest

from tirkit.schedule import Schedule, errors

from sched_util import check, parse

ELEMWISE = parse("""
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


def _elemwise(alloc="B = T.alloc_buffer((128, 128))", b_attr="", name="B", a_param=None):
    a = a_param or 'A: T.Buffer((128, 128), "float32")'
    return f"""
    @T.prim_func
    def main({a}, C: T.Buffer((128, 128), "float32")):
        {alloc}
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                {b_attr or "pass"}
                {name}[vi, vj] = A[vi, vj] * T.float32(2)
        for i, j in T.grid(128, 128):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = {name}[vi, vj] + T.float32(1)
    """


# --------------------------------------------------------------------------- storage_align
@pytest.mark.parametrize("by_name", [False, True])
def test_storage_align(by_name):
    sch = Schedule(ELEMWISE)
    sch.storage_align("B" if by_name else sch.get_block("B"), 0, axis=0, factor=128, offset=127)
    check(sch, ELEMWISE, _elemwise(b_attr='T.block_attr({"buffer_dim_align": [[0, 0, 128, 127]]})'))


def test_storage_align_updates_the_entry_in_place_and_normalises_a_negative_axis():
    sch = Schedule(ELEMWISE)
    b = sch.get_block("B")
    sch.storage_align(b, 0, axis=1, factor=32, offset=1)
    sch.storage_align(b, 0, axis=0, factor=128, offset=0)
    sch.storage_align(b, 0, axis=-1, factor=16, offset=8)    # axis -1 is axis 1: updated in place
    check(sch, ELEMWISE, _elemwise(
        b_attr='T.block_attr({"buffer_dim_align": [[0, 1, 16, 8], [0, 0, 128, 0]]})'))


INVALID_ALIGN = parse(_elemwise(b_attr='T.block_attr({"buffer_dim_align": [0]})'))


def _unchanged(sch, run, error, *names):
    mod, n = sch.mod, len(sch.trace.insts)
    with pytest.raises(error) as info:
        run()
    for name in names:
        assert name in str(info.value), str(info.value)
    assert sch.mod is mod and len(sch.trace.insts) == n
    return info.value


@pytest.mark.parametrize("func,block,args,error,names", [
    (ELEMWISE, "B", (2, 0, 128, 127), errors.BufferIndexOutOfRangeError,
     ('block "B"', "write buffer index 2 is out of range")),
    (ELEMWISE, "B", (0, 0, 0, 127), errors.StorageAlignInvalidFactorError,
     ('block "B"', "must be positive, got 0")),
    (ELEMWISE, "B", (0, 0, -1, 127), errors.StorageAlignInvalidFactorError,
     ("got -1",)),
    (ELEMWISE, "B", (0, 2, 128, 127), errors.StorageAlignAxisOutOfRangeError,
     ('block "B"', "axis 2 is out of range [-2, 2)")),
    (ELEMWISE, "B", (0, -3, 128, 127), errors.StorageAlignAxisOutOfRangeError, ("axis -3",)),
    (ELEMWISE, "C", (0, 0, 128, 127), errors.NonAllocatedBufferError,
     ('block "C"', 'buffer "C" is not allocated by a block')),
    (INVALID_ALIGN, "B", (0, 0, 128, 127), errors.StorageAlignInvalidAnnotationError,
     ('block "B"', "4-integer tuples")),
])
def test_storage_align_errors(func, block, args, error, names):
    sch = Schedule(func)
    b = sch.get_block(block)
    _unchanged(sch, lambda: sch.storage_align(b, *args), error, *names)


# ------------------------------------------------------------------------------- set_scope
@pytest.mark.parametrize("block,buffer", [("B", 0), ("B", "B"), ("obj", "obj")])
def test_set_scope(block, buffer):
    sch = Schedule(ELEMWISE)
    b = sch.get_block("B") if block == "obj" else block
    if buffer == "obj":
        buffer = sch.get(b).writes[0].buffer
    sch.set_scope(b, buffer, "shared")
    after = _elemwise(alloc='B_shared = T.alloc_buffer((128, 128), scope="shared")',
                      name="B_shared")
    check(sch, ELEMWISE, after)
    assert "B_shared = T.alloc_buffer((128, 128), scope=\"shared\")" in sch.mod.script()
    assert "set_scope(block=b0, buffer_index=0, storage_scope=\"shared\")" in \
        "\n".join(sch.trace.as_python())


def test_set_scope_to_the_same_scope_is_a_no_op():
    sch = Schedule(ELEMWISE)
    sch.set_scope("B", 0, "global")
    check(sch, ELEMWISE, ELEMWISE)


def test_set_scope_twice():
    sch = Schedule(ELEMWISE)
    sch.set_scope("B", 0, "shared")
    sch.set_scope("B", 0, "local")
    check(sch, ELEMWISE, _elemwise(alloc='B = T.alloc_buffer((128, 128), scope="local")'))
    assert "B_shared_local" in sch.mod.script()


@pytest.mark.parametrize("block,index,scope,error,names", [
    ("B", 1, "shared", errors.BufferIndexOutOfRangeError, ('block "B"', "index 1")),
    ("B", -1, "shared", errors.BufferIndexOutOfRangeError, ("index -1",)),
    ("C", 0, "shared", errors.NonAllocatedBufferError, ('block "C"', 'buffer "C"')),
    ("B", 0, "test_scope", errors.InvalidScopeError, ("'test_scope'", 'block "B"')),
    ("B", "D", "shared", errors.InvalidArgumentError, ('block "B"', "'D'")),
])
def test_set_scope_errors(block, index, scope, error, names):
    sch = Schedule(ELEMWISE)
    b = sch.get_block(block)
    _unchanged(sch, lambda: sch.set_scope(b, index, scope), error, *names)


# ---------------------------------------------------------------------- set_axis_separator
@pytest.mark.parametrize("buffer", [("write", 0), "B", "obj"])
def test_set_axis_separator(buffer):
    sch = Schedule(ELEMWISE)
    b = sch.get_block("B")
    if buffer == "obj":
        buffer = sch.get(b).writes[0].buffer
    sch.set_axis_separator(b, buffer, [1])
    check(sch, ELEMWISE, _elemwise(alloc="B = T.alloc_buffer((128, 128), axis_separators=[1])"))
    assert 'set_axis_separator(block=b0, buffer=("write", 0), axis_separators=[1])' in \
        "\n".join(sch.trace.as_python())


def test_set_axis_separator_of_a_function_parameter():
    # TVM's test_set_axis_separator_input_buffer: the buffer_map entry changes
    sch = Schedule(ELEMWISE)
    sch.set_axis_separator(sch.get_block("B"), ("read", 0), [1])
    check(sch, ELEMWISE, _elemwise(
        a_param='A: T.Buffer((128, 128), "float32", axis_separators=[1])'))


def test_set_axis_separator_none_clears():
    sch = Schedule(ELEMWISE)
    sch.set_axis_separator("B", "B", [1])
    sch.set_axis_separator("B", "B", None)
    check(sch, ELEMWISE, ELEMWISE)


INDEXED = parse("""
@T.prim_func
def main():
    A = T.alloc_buffer((4, 4), "int32")
    B = T.alloc_buffer((1, 1), "int32")
    for j in range(4):
        with T.block("block"):
            A[B[0, 0], j] = 0
""")


def test_set_axis_separator_of_a_buffer_used_as_an_index():
    # TVM's TestIndexedLookup
    sch = Schedule(INDEXED)
    sch.set_axis_separator("block", "B", [1])
    check(sch, INDEXED, """
    @T.prim_func
    def main():
        A = T.alloc_buffer((4, 4), "int32")
        B = T.alloc_buffer((1, 1), "int32", axis_separators=[1])
        for j in range(4):
            with T.block("block"):
                A[B[0, 0], j] = 0
    """)


@pytest.mark.parametrize("buffer,error,names", [
    (("write", 1), errors.BufferIndexOutOfRangeError, ('block "B"', "write buffer index 1")),
    (("read", -1), errors.BufferIndexOutOfRangeError, ("read buffer index -1",)),
    (("reads", 0), errors.InvalidArgumentError, ("'reads'",)),
    ("C", errors.InvalidArgumentError, ('block "B"', "'C'")),
])
def test_set_axis_separator_errors(buffer, error, names):
    sch = Schedule(ELEMWISE)
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.set_axis_separator(b, buffer, [1]), error, *names)


@pytest.mark.parametrize("separators", [[1.5], [1.0], [True], ["1"]])
def test_set_axis_separator_of_a_non_integer_is_an_invalid_argument(separators):
    """A float, bool or string separator was silently converted with int() (1.5 -> 1) before
    the check (schedule fuzzing); now refused like every wrong kind of primitive argument."""
    sch = Schedule(ELEMWISE)
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.set_axis_separator(b, ("write", 0), separators),
               errors.InvalidArgumentError, 'block "B"',
               "set_axis_separator: axis_separators must be a list of integers or None")


@pytest.mark.parametrize("separators", [[3], [-1], [2, 1]])
def test_set_axis_separator_out_of_range_is_axis_separator_error(separators):
    """Found by a wrong-argument probe: separators outside [0, ndim] or decreasing were
    accepted, and the build failed far from the cause."""
    sch = Schedule(ELEMWISE)
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.set_axis_separator(b, ("write", 0), separators),
               errors.AxisSeparatorError, 'block "B"', f"axis_separators {separators!r}",
               'buffer "B" (rank 2)', "in [0, 2] in non-decreasing order")


SUBREGION = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
    B = T.alloc_buffer((128, 128))
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B_subregion0 = T.match_buffer(B[vi, vj], [], offset_factor=1)
            B_subregion0[()] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(128, 128):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            B_subregion1 = T.match_buffer(B[vi, vj], [], offset_factor=1)
            C[vi, vj] = B_subregion1[()] + T.float32(1)
""")


def test_a_match_buffer_view_is_an_access_of_the_viewed_region():
    # TVM's BlockReadWriteDetector maps accesses through a view to its source region
    sch = Schedule(SUBREGION)
    block = sch.get(sch.get_block("B"))
    assert [w.buffer.name for w in block.writes] == ["B"]
    assert "T.writes(B[vi, vj])" in sch.mod.script()
    assert "T.reads(B[vi, vj])" in sch.mod.script()
    assert sch.get_producers(sch.get_block("C"))  # the dependence through the views is seen


def test_set_scope_of_a_buffer_with_match_buffer_views():
    # TVM's test_set_scope_subregion: the views follow the buffer into the new scope
    sch = Schedule(SUBREGION)
    sch.set_scope(sch.get_block("B"), 0, "shared")
    check(sch, SUBREGION, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B_shared = T.alloc_buffer((128, 128), scope="shared")
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B_subregion0_shared = T.match_buffer(B_shared[vi, vj], [], scope="shared",
                                                     offset_factor=1)
                B_subregion0_shared[()] = A[vi, vj] * T.float32(2)
        for i, j in T.grid(128, 128):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                B_subregion1_shared = T.match_buffer(B_shared[vi, vj], [], scope="shared",
                                                     offset_factor=1)
                C[vi, vj] = B_subregion1_shared[()] + T.float32(1)
    """)


def test_set_axis_separator_of_a_buffer_with_match_buffer_views():
    # TVM's test_set_axis_separator_subregion: a view of another rank gets zeros
    sch = Schedule(SUBREGION)
    sch.set_axis_separator(sch.get_block("B"), ("write", 0), [1])
    check(sch, SUBREGION, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128), axis_separators=[1])
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B_subregion0 = T.match_buffer(B[vi, vj], [], offset_factor=1,
                                              axis_separators=[0])
                B_subregion0[()] = A[vi, vj] * T.float32(2)
        for i, j in T.grid(128, 128):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                B_subregion1 = T.match_buffer(B[vi, vj], [], offset_factor=1,
                                              axis_separators=[0])
                C[vi, vj] = B_subregion1[()] + T.float32(1)
    """)


VIEW_WRITER = parse("""
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    B = T.alloc_buffer((16, 16))
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            T.reads(A[vi, 0:16])
            T.writes(B[vi, 0:16])
            Bv = T.match_buffer(B[vi, 0:16], (16,))
            for j in range(16):
                with T.block("B_inner"):
                    vj = T.axis.spatial(16, j)
                    Bv[vj] = A[vi, vj]
    for i, j in T.grid(16, 16):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj]
""")


def test_set_axis_separator_through_a_view_is_buffer_is_subregion():
    sch = Schedule(VIEW_WRITER)
    inner = sch.get_block("B_inner")
    from tirkit.schedule.primitives.cache_layout_errors import BufferIsSubregionError
    _unchanged(sch, lambda: sch.set_axis_separator(inner, ("write", 0), [1]),
               BufferIsSubregionError, 'block "B_inner"', "match_buffer")
    _unchanged(sch, lambda: sch.set_scope(inner, 0, "shared"), errors.NonAllocatedBufferError,
               'block "B_inner"', 'buffer "Bv"')
    _unchanged(sch, lambda: sch.storage_align(inner, 0, 0, 16, 1),
               errors.NonAllocatedBufferError, 'block "B_inner"')
