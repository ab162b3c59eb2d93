"""Relax operators' struct-info inference and the BlockBuilder (issue 12)."""
import pytest

from tirkit import relax, tir
from tirkit.ir import structural_equal
from tirkit.relax import op
from tirkit.relax.op import RelaxOpError


def _t(shape, dtype="float32"):
    return relax.TensorStructInfo(shape, dtype)


def _var(name, shape, dtype="float32"):
    return relax.Var(name, _t(shape, dtype))


def _dims(sinfo):
    return [d.value if isinstance(d, tir.IntImm) else d for d in sinfo.shape]


n = tir.Var("n", "int64")


def test_broadcast_with_symbolic_dim():
    x, b = _var("x", (n, 1, 4)), _var("b", (3, 1))
    assert _dims(op.add(x, b).struct_info) == [n, 3, 4]


def test_broadcast_mismatch_names_shapes():
    with pytest.raises(RelaxOpError, match=r"do not broadcast.*dimension -1: .*4.*5"):
        op.add(_var("x", (2, 4)), _var("y", (2, 5)))


def test_dtype_mismatch():
    with pytest.raises(RelaxOpError, match="dtypes differ: float32 and int32"):
        op.multiply(_var("x", (2,)), _var("y", (2,), "int32"))


def test_matmul_batch_and_reduction_check():
    a, b = _var("a", (7, n, 16)), _var("b", (16, 8))
    assert _dims(op.matmul(a, b).struct_info) == [7, n, 8]
    with pytest.raises(RelaxOpError, match="reduction dims differ"):
        op.matmul(a, _var("c", (15, 8)))


def test_conv2d_pool_shapes():
    d, w = _var("d", (n, 3, 32, 32)), _var("w", (8, 3, 3, 3))
    c = op.nn.conv2d(d, w, strides=1, padding=1)
    assert _dims(c.struct_info) == [n, 8, 32, 32]
    p = op.nn.max_pool2d(c, pool_size=2, strides=2)
    assert _dims(p.struct_info) == [n, 8, 16, 16]
    s = op.nn.conv2d(d, w, strides=2)
    assert _dims(s.struct_info) == [n, 8, 15, 15]


def test_reshape_permute_concat_reduce():
    x = _var("x", (2, 3, 4))
    assert _dims(op.reshape(x, (6, -1)).struct_info) == [6, 4]
    with pytest.raises(RelaxOpError, match="cannot reshape"):
        op.reshape(x, (5, 5))
    assert _dims(op.permute_dims(x).struct_info) == [4, 3, 2]
    assert _dims(op.permute_dims(x, [0, 2, 1]).struct_info) == [2, 4, 3]
    with pytest.raises(RelaxOpError, match="not a permutation"):
        op.permute_dims(x, [0, 0, 1])
    y = _var("y", (2, 5, 4))
    assert _dims(op.concat([x, y], axis=1).struct_info) == [2, 8, 4]
    assert _dims(op.sum(x, axis=1).struct_info) == [2, 4]
    assert _dims(op.mean(x, axis=[0, 2], keepdims=True).struct_info) == [1, 3, 1]
    with pytest.raises(RelaxOpError, match="axis 3 is out of range"):
        op.sum(x, axis=3)


def test_block_builder_anf_and_dataflow_vars():
    x = _var("x", (n, 4))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit(op.nn.relu(op.add(x, x)))  # the nested add is bound first
            gv = bb.emit_output(y)
        bb.emit_func_output(gv)
    func = bb.get()["main"]
    (block,) = func.body.blocks
    assert isinstance(block, relax.DataflowBlock)
    kinds = [type(b.var).__name__ for b in block.bindings]
    assert kinds == ["DataflowVar", "DataflowVar", "Var"]
    assert block.bindings[1].value.args[0] is block.bindings[0].var
    assert structural_equal(func.ret_struct_info, _t((n, 4)))


def test_block_builder_misuse():
    bb = relax.BlockBuilder()
    with pytest.raises(relax.BlockBuilderError, match="inside `with bb.function"):
        bb.emit(op.add(_var("x", (1,)), _var("y", (1,))))
    x = _var("x", (2,))
    with pytest.raises(relax.BlockBuilderError, match="only valid inside a dataflow block"):
        with bb.function("f", [x]):
            bb.emit_output(x)


def test_structural_equality_maps_symbolic_dims():
    def build(name):
        m = tir.Var(name, "int64")
        x = relax.Var("x", _t((m, 4)))
        bb = relax.BlockBuilder()
        with bb.function("main", [x]):
            out = bb.emit(op.exp(x))
            bb.emit_func_output(out)
        return bb.get()

    assert structural_equal(build("n"), build("m"))


def test_a_relax_expr_is_not_iterable():
    """``x[i]`` makes a TupleGetItem; iterating ``x`` (``a, b = x``) raised no error and never
    ended before ``Expr.__iter__`` refused it."""
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    with pytest.raises(TypeError, match="not iterable"):
        a, b = x  # noqa: F841  # pylint: disable=unbalanced-tuple-unpacking


@pytest.mark.parametrize("make,words", [
    (lambda x, xi: op.add(x, None), "an operand must be a Relax expression or a Python number"),
    (lambda x, xi: op.sum(x, axis=1.5), "relax.sum: axis must be an integer, got 1.5"),
    (lambda x, xi: op.mean(x, axis=[0, -2]), r"axis \(0, -2\) names an axis more than once"),
    (lambda x, xi: op.exp(xi), "relax.exp requires the input tensor to have float dtype"),
    (lambda x, xi: op.sigmoid(xi), "relax.sigmoid requires the input tensor to have float"),
    (lambda x, xi: op.call_tir("f", [x], _t((4, 8))), "callee must be the GlobalVar"),
    (lambda x, xi: op.call_tir(None, [x], _t((4, 8))), "callee must be the GlobalVar"),
])
def test_wrong_operands_are_relax_op_errors(make, words):
    """Found by probing the operators with wrong arguments: add(x, None) made a constant of
    None, a float axis was accepted and reduced nothing, duplicate axes were accepted (TVM
    refuses them), exp of an int32 tensor was accepted (TVM's require_float_dtype), and
    call_tir took a string or None as its callee."""
    x, xi = _var("x", (4, 8)), _var("xi", (4, 8), "int32")
    with pytest.raises(RelaxOpError, match=words):
        make(x, xi)
    assert op.negative(xi).struct_info.dtype == "int32"  # not every unary op needs floats


def test_tensor_struct_info_from_a_shape_struct_info_of_known_rank_only():
    """``TensorStructInfo(ShapeStructInfo(ndim=2), dtype)``: a tensor of rank 2, dims unknown
    (it iterated the shape's ``values``, None there: a TypeError; found by mypy)."""
    from tirkit.relax.struct_info import ShapeStructInfo, TensorStructInfo

    sinfo = TensorStructInfo(ShapeStructInfo(ndim=2), "float32")
    assert sinfo.shape is None and sinfo.ndim == 2 and str(sinfo.dtype) == "float32"
    known = TensorStructInfo(ShapeStructInfo([2, 3]), "float32")
    assert known.ndim == 2 and [int(d.value) for d in known.shape] == [2, 3]
    with pytest.raises(ValueError, match="ndim=3 but the shape has 2 dimensions"):
        TensorStructInfo(ShapeStructInfo(ndim=2), "float32", ndim=3)
