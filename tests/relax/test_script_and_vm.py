"""Relax TVMScript (print -> parse round trip) and the VM: values, struct-info checks at entry
(issue 12)."""
import numpy as np
import pytest

from tirkit import relax
from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source, parse_file

ADD_ONE = '''
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, 4))
        B = T.match_buffer(b, (n, 4))
        for i, j in T.grid(n, 4):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def main(x: R.Tensor((n, 4), "float32")) -> R.Tensor((n, 4), "float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((n, 4), "float32"))
            gv = R.call_tir(cls.add_one, (lv,), out_sinfo=R.Tensor((n, 4), "float32"))
            R.output(gv)
        return gv
'''


@pytest.fixture(scope="module")
def add_one():
    return from_source(ADD_ONE)


def test_parse_gives_relax_function(add_one):
    main = add_one["main"]
    assert isinstance(main, relax.Function)
    (block,) = main.body.blocks
    assert isinstance(block, relax.DataflowBlock)
    assert [type(b.var).__name__ for b in block.bindings] == ["DataflowVar", "Var"]
    n = main.params[0].struct_info.shape[0]
    assert n.dtype == "int64" and n.name_hint == "n"


def test_round_trip(add_one):
    text = add_one.script()
    assert "@R.function" in text and "R.call_tir(cls.add_one" in text
    again = from_source(text)
    assert_structural_equal(again, add_one)
    assert again.script() == text


@pytest.mark.parametrize("rows", [1, 7])
def test_vm_runs_for_two_sizes(add_one, rows):
    vm = relax.VirtualMachine(relax.build(add_one))
    x = np.random.default_rng(rows).random((rows, 4), dtype="float32")
    np.testing.assert_allclose(vm["main"](x), x + 2, rtol=1e-6)


@pytest.mark.parametrize("arg, message", [
    (np.zeros((2, 4, 1), "float32"), "parameter 'x': expected rank 2, got an array of rank 3"),
    (np.zeros((2, 4), "float64"), "parameter 'x': expected dtype float32, got float64"),
    (np.zeros((2, 5), "float32"), "parameter 'x': dimension 1 is 5, expected 4"),
    ([[1.0]], "parameter 'x': expected a tensor"),
])
def test_vm_struct_info_errors(add_one, arg, message):
    vm = relax.VirtualMachine(relax.build(add_one))
    with pytest.raises(relax.VMError, match=message.replace("(", r"\(").replace(")", r"\)")):
        vm["main"](arg)


def test_symbolic_dim_bound_twice():
    src = ADD_ONE.replace('def main(x: R.Tensor((n, 4), "float32"))',
                          'def main(x: R.Tensor((n, 4), "float32"), y: R.Tensor((n, 4), "float32"))')
    vm = relax.VirtualMachine(relax.build(from_source(src)))
    with pytest.raises(relax.VMError, match="parameter 'y': dimension 0 is 3, but symbolic dim "
                                            "'n' is already bound to 2"):
        vm["main"](np.zeros((2, 4), "float32"), np.zeros((3, 4), "float32"))


def test_diagnostics_in_relax_function():
    bad = ADD_ONE.replace("gv = R.call_tir(cls.add_one, (lv,)", "gv = R.call_tir(cls.add_on, (lv,)")
    (unit,) = [u for u in parse_file(bad) if u.name == "Module"]
    assert unit.ir is None
    (diag,) = unit.diagnostics
    assert "add_on" in diag.message and "did you mean 'add_one'" in diag.message
    assert diag.span.line == 24


def test_match_cast_binds_new_dim():
    src = ADD_ONE.replace('''        cls = Module
        with R.dataflow():''', '''        cls = Module
        m = T.int64()
        y = R.match_cast(x, R.Tensor((m, 4), "float32"))
        with R.dataflow():''').replace("(x,), out_sinfo", "(y,), out_sinfo")
    mod = from_source(src)
    assert_structural_equal(from_source(mod.script()), mod)
    vm = relax.VirtualMachine(relax.build(mod))
    x = np.ones((3, 4), "float32")
    np.testing.assert_allclose(vm["main"](x), x + 2)
