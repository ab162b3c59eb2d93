"""Seed 001's programs (issue 16): the "IRBuilder as core" example built by running Python
(``tirkit.lang.ir_builder``, mirroring ``tvm.script.ir_builder``) gives the function the seed
says it is equivalent to, and F3's ``te_compute_sugar`` (static mode) gives
``te_compute_expanded`` written in today's block syntax. (F1: tests/lang/test_decorator_mode.py;
F2: the rank-polymorphism cases of test_metaprogramming.py; F4: test_capture.py.)"""
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source, parse_file
from tirkit.lang.ir_builder import IRBuilder, tir as T

MAIN = '''
@T.prim_func
def main(
  A: T.Buffer(shape=(128, 128, 128), dtype="float32"),
  B: T.Buffer(shape=(128, 128, 128), dtype="float32"),
) -> None:
  for i, j, k in T.grid(128, 128, 128):
      with T.block("block"):
          vi = T.axis.S(128, i)
          vj = T.axis.S(128, j)
          vk = T.axis.R(128, k)
'''


def test_irbuilder_example_builds_the_function_it_is_equivalent_to():
    with IRBuilder() as b:
        with T.prim_func():
            T.func_name("main")
            buffer_a = T.Buffer((128, 128, 128), "float32")
            buffer_b = T.Buffer((128, 128, 128), "float32")
            T.arg("A", buffer_a)
            T.arg("B", buffer_b)
            with T.grid(128, 128, 128) as (i, j, k):
                IRBuilder.name_many(["i", "j", "k"], [i, j, k])  # the seed's def_many
                with T.block(name="block"):
                    IRBuilder.name("vi", T.axis.spatial(128, i))  # the seed's def_
                    IRBuilder.name("vj", T.axis.spatial(128, j))
                    IRBuilder.name("vk", T.axis.reduce(128, k))
    func = b.get()
    assert_structural_equal(func, from_source(MAIN))
    assert func.body.block.name_hint == "root"  # completed as the parser completes


def test_irbuilder_stores_and_infers_block_regions():
    with IRBuilder() as b:
        with T.prim_func():
            T.func_name("double")
            A = T.arg("A", T.Buffer((16,), "float32"))
            with T.grid(16) as i:
                with T.block("d"):
                    vi = T.axis.spatial(16, i)
                    T.buffer_store(A, A[vi] * T.float32(2), [vi])
    func = b.get()
    block = func.body.block.body.body.block
    assert [r.buffer.name for r in block.reads] == ["A"] and \
        [w.buffer.name for w in block.writes] == ["A"]



def test_a_frame_is_not_entered_twice():
    """A frame entered while already open is refused: its exit would run its own exit callback
    (concise scoping) without end (a chained assignment of T.decl_buffer crashed tirc)."""
    import pytest

    with IRBuilder():
        with T.prim_func():
            T.func_name("f")
            frame = T.grid(4)
            with frame:
                with pytest.raises(RuntimeError, match="entered twice"):
                    frame.__enter__()

F3 = '''from tvm.script import tir as T

@T.prim_func
def te_compute_sugar(
  A: T.Buffer((128, 128)),
  B: T.Buffer((128, 128)),
) -> None:
  C = T.compute((128, 128), lambda i, j: A[i, j] + B[i, j])

@T.prim_func
def te_compute_expanded(
  A: T.Buffer((128, 128)),
  B: T.Buffer((128, 128)),
) -> None:
  C = T.alloc_buffer((128, 128))
  for i in range(128):
    for j in range(128):
      with T.block("compute"):
        vi, vj = T.axis.remap("SS", [i, j])
        C[vi, vj] = A[vi, vj] + B[vi, vj]
'''


def test_f3_te_compute_sugar_expands_to_the_seeds_loop_nest():
    units = {u.name: u for u in parse_file(F3, "f3.py")}
    assert not any(u.diagnostics for u in units.values())
    assert_structural_equal(units["te_compute_sugar"].ir.with_attr("global_symbol", "f"),
                            units["te_compute_expanded"].ir.with_attr("global_symbol", "f"))
