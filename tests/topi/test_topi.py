"""tirkit.topi operators built with create_prim_func + build, checked against NumPy (issue 16):
exact for ints, 1e-5 for float32."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tirkit import te, topi
from tirkit.compiler import build

RNG = np.random.default_rng(0)


def run(inputs, outs, arrays):
    """Build a PrimFunc of ``inputs`` + ``outs`` and run it on ``arrays``; the outputs."""
    outs = outs if isinstance(outs, list) else [outs]
    func = te.create_prim_func(list(inputs) + outs)
    results = [np.empty([int(d) for d in o.shape], o.dtype) for o in outs]
    build(func)(*arrays, *results)
    return results[0] if len(results) == 1 else results


def rand(*shape, dtype="float32"):
    if dtype.startswith("int"):
        return RNG.integers(-20, 20, shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
          "maximum": np.maximum, "minimum": np.minimum}
shapes = st.sampled_from([((3, 4), (3, 4)), ((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((5,), (1,))])


@settings(max_examples=6, deadline=None)
@given(name=st.sampled_from(sorted(BINARY)), pair=shapes,
       dtype=st.sampled_from(["float32", "int32"]))
def test_broadcast_binary(name, pair, dtype):
    sa, sb = pair
    A, B = te.placeholder(sa, dtype, "A"), te.placeholder(sb, dtype, "B")
    a, b = rand(*sa, dtype=dtype), rand(*sb, dtype=dtype)
    close(run([A, B], getattr(topi, name)(A, B), [a, b]), BINARY[name](a, b))


@pytest.mark.parametrize("name, ref", [
    ("exp", np.exp), ("tanh", np.tanh), ("sigmoid", lambda x: 1 / (1 + np.exp(-x))),
    ("negative", np.negative), ("abs", np.abs)])
def test_unary(name, ref):
    A = te.placeholder((4, 5), name="A")
    a = rand(4, 5)
    close(run([A], getattr(topi, name)(A), [a]), ref(a))


def test_relu_clip_cast_broadcast_to():
    A = te.placeholder((3, 4), name="A")
    a = rand(3, 4)
    close(run([A], topi.nn.relu(A), [a]), np.maximum(a, 0))
    close(run([A], topi.clip(A, -0.5, 0.5), [a]), np.clip(a, -0.5, 0.5))
    np.testing.assert_array_equal(run([A], topi.cast(A, "int32"), [a]), a.astype("int32"))
    B = te.placeholder((1, 4), name="B")
    b = rand(1, 4)
    close(run([B], topi.broadcast_to(B, (3, 4)), [b]), np.broadcast_to(b, (3, 4)))


@settings(max_examples=6, deadline=None)
@given(axis=st.sampled_from([None, 0, 1, -1, (0, 2)]), keep=st.booleans(),
       name=st.sampled_from(["sum", "max", "min", "mean"]))
def test_reductions(axis, keep, name):
    A = te.placeholder((2, 3, 4), name="A")
    a = rand(2, 3, 4)
    ref = getattr(np, name)(a, axis=axis, keepdims=keep)
    close(run([A], getattr(topi, name)(A, axis, keep), [a]), ref)


def test_int_sum_exact():
    A = te.placeholder((5, 7), "int32", "A")
    a = rand(5, 7, dtype="int32")
    np.testing.assert_array_equal(run([A], topi.sum(A, 1), [a]), a.sum(axis=1))


def test_matmul_dense_batch_matmul():
    A, B = te.placeholder((4, 6), name="A"), te.placeholder((6, 5), name="B")
    a, b = rand(4, 6), rand(6, 5)
    close(run([A, B], topi.matmul(A, B), [a, b]), a @ b)
    BT = te.placeholder((5, 6), name="BT")
    bt = rand(5, 6)
    close(run([A, BT], topi.matmul(A, BT, transp_b=True), [a, bt]), a @ bt.T)
    bias = te.placeholder((5,), name="bias")
    c = rand(5)
    close(run([A, BT, bias], topi.nn.dense(A, BT, bias), [a, bt, c]), a @ bt.T + c)
    X, Y = te.placeholder((2, 3, 6), name="X"), te.placeholder((1, 4, 6), name="Y")
    x, y = rand(2, 3, 6), rand(1, 4, 6)
    close(run([X, Y], topi.nn.batch_matmul(X, Y), [x, y]), x @ np.swapaxes(y, 1, 2))


def conv_ref(x, w, stride, pad, dil, groups=1):
    n, c, h, wd = x.shape
    o, ci, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dil * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dil * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, o, oh, ow), "float32")
    per = o // groups
    for f in range(o):
        g = f // per
        for y in range(oh):
            for z in range(ow):
                patch = xp[:, g * ci:(g + 1) * ci, y * stride:y * stride + dil * (kh - 1) + 1:dil,
                           z * stride:z * stride + dil * (kw - 1) + 1:dil]
                out[:, f, y, z] = (patch * w[f]).sum(axis=(1, 2, 3))
    return out


@pytest.mark.parametrize("stride, pad, dil, groups", [(1, 1, 1, 1), (2, 0, 1, 1), (1, 2, 2, 1),
                                                      (1, 1, 1, 2)])
def test_conv2d_nchw(stride, pad, dil, groups):
    X = te.placeholder((1, 4, 7, 7), name="X")
    W = te.placeholder((4, 4 // groups, 3, 3), name="W")
    x, w = rand(1, 4, 7, 7), rand(4, 4 // groups, 3, 3)
    out = topi.nn.group_conv2d_nchw(X, W, stride, pad, dil, groups) if groups > 1 else \
        topi.nn.conv2d_nchw(X, W, stride, pad, dil)
    close(run([X, W], out, [x, w]), conv_ref(x, w, stride, pad, dil, groups))


def test_conv2d_nhwc_and_depthwise():
    X = te.placeholder((1, 6, 6, 3), name="X")
    W = te.placeholder((3, 3, 3, 2), name="W")
    x, w = rand(1, 6, 6, 3), rand(3, 3, 3, 2)
    ref = conv_ref(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), 1, 1, 1).transpose(0, 2, 3, 1)
    close(run([X, W], topi.nn.conv2d_nhwc(X, W, 1, 1, 1), [x, w]), ref)
    D = te.placeholder((1, 3, 5, 5), name="D")
    K = te.placeholder((3, 1, 3, 3), name="K")
    d, k = rand(1, 3, 5, 5), rand(3, 1, 3, 3)
    close(run([D, K], topi.nn.depthwise_conv2d_nchw(D, K, 1, 1, 1), [d, k]),
          conv_ref(d, k, 1, 1, 1, groups=3))


@settings(max_examples=5, deadline=None)
@given(kind=st.sampled_from(["max", "avg"]), k=st.sampled_from([2, 3]),
       stride=st.sampled_from([1, 2]), pad=st.sampled_from([0, 1]))
def test_pool2d(kind, k, stride, pad):
    if pad * 2 >= k + 1:
        pad = 0
    X = te.placeholder((1, 2, 6, 6), name="X")
    x = rand(1, 2, 6, 6)
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=fill)
    oh = (6 + 2 * pad - k) // stride + 1
    ref = np.zeros((1, 2, oh, oh), "float32")
    for y in range(oh):
        for z in range(oh):
            win = xp[:, :, y * stride:y * stride + k, z * stride:z * stride + k]
            ref[:, :, y, z] = win.max(axis=(2, 3)) if kind == "max" else win.sum(axis=(2, 3)) / (k * k)
    close(run([X], topi.nn.pool2d(X, k, stride, 1, pad, kind), [x]), ref)


def test_global_pool_softmax_layer_norm():
    X = te.placeholder((2, 3, 4, 5), name="X")
    x = rand(2, 3, 4, 5)
    close(run([X], topi.nn.global_pool(X, "avg"), [x]), x.mean(axis=(2, 3), keepdims=True))
    close(run([X], topi.nn.global_pool(X, "max"), [x]), x.max(axis=(2, 3), keepdims=True))
    S = te.placeholder((4, 7), name="S")
    s = rand(4, 7)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    close(run([S], topi.nn.softmax(S), [s]), e / e.sum(axis=1, keepdims=True))
    close(run([S], topi.nn.log_softmax(S), [s]), np.log(e / e.sum(axis=1, keepdims=True)))
    G, B = te.placeholder((7,), name="G"), te.placeholder((7,), name="Bt")
    g, b = rand(7), rand(7)
    mu, var = s.mean(axis=1, keepdims=True), s.var(axis=1, keepdims=True)
    close(run([S, G, B], topi.nn.layer_norm(S, G, B, axis=[1]), [s, g, b]),
          (s - mu) / np.sqrt(var + 1e-5) * g + b)


def test_transpose_reshape_concat_pad_take():
    A = te.placeholder((2, 3, 4), name="A")
    a = rand(2, 3, 4)
    close(run([A], topi.transpose(A, (1, 2, 0)), [a]), a.transpose(1, 2, 0))
    close(run([A], topi.reshape(A, (6, -1)), [a]), a.reshape(6, 4))
    B = te.placeholder((2, 5, 4), name="B")
    b = rand(2, 5, 4)
    close(run([A, B], topi.concatenate([A, B], axis=1), [a, b]), np.concatenate([a, b], axis=1))
    close(run([A], topi.nn.pad(A, [0, 1, 2], [1, 0, 1]), [a]),
          np.pad(a, ((0, 1), (1, 0), (2, 1))))
    I = te.placeholder((3,), "int32", "I")
    idx = np.array([2, 0, 1], "int32")
    close(run([A, I], topi.take(A, I, axis=1), [a, idx]), np.take(a, idx, axis=1))


TOPI_MATMUL = '''
@T.prim_func
def matmul(A: T.Buffer((32, 64), "float32"), B: T.Buffer((64, 16), "float32"),
           C: T.Buffer((32, 16), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for i, j, k in T.grid(32, 16, 64):
        with T.block("T_matmul"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
'''


def test_topi_matmul_equals_hand_written_tvmscript():
    from tirkit.ir import assert_structural_equal
    from tirkit.lang import from_source

    A, B = te.placeholder((32, 64), name="A"), te.placeholder((64, 16), name="B")
    assert_structural_equal(te.create_prim_func([A, B, topi.matmul(A, B)]),
                            from_source(TOPI_MATMUL))


UNARY = {"exp": np.exp, "tanh": np.tanh, "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
         "negative": np.negative, "abs": np.abs, "relu": lambda x: np.maximum(x, 0)}


@settings(max_examples=8, deadline=None)
@given(name=st.sampled_from(sorted(UNARY)), shape=st.sampled_from([(7,), (2, 3), (2, 1, 4)]))
def test_unary_over_shapes(name, shape):
    A = te.placeholder(shape, name="A")
    a = rand(*shape)
    op = topi.nn.relu if name == "relu" else getattr(topi, name)
    close(run([A], op(A), [a]), UNARY[name](a).astype("float32"))


@settings(max_examples=6, deadline=None)
@given(shape=st.sampled_from([(5,), (3, 4)]), dtype=st.sampled_from(["int32", "float32"]),
       bounds=st.sampled_from([(-3, 3), (0, 10)]))
def test_clip_and_cast_over_shapes_exact(shape, dtype, bounds):
    A = te.placeholder(shape, dtype, "A")
    a = rand(*shape, dtype=dtype)
    got = run([A], topi.clip(A, *bounds), [a])
    np.testing.assert_array_equal(got, np.clip(a, *bounds))
    to = "float32" if dtype == "int32" else "int32"
    np.testing.assert_array_equal(run([A], topi.cast(A, to), [a]), a.astype(to))


@pytest.mark.parametrize("ta, tb", [(True, False), (True, True), (False, True)])
def test_matmul_transposes(ta, tb):
    a = rand(6, 4) if ta else rand(4, 6)
    b = rand(5, 6) if tb else rand(6, 5)
    A, B = te.placeholder(a.shape, name="A"), te.placeholder(b.shape, name="B")
    expected = (a.T if ta else a) @ (b.T if tb else b)
    close(run([A, B], topi.matmul(A, B, transp_a=ta, transp_b=tb), [a, b]), expected)


@pytest.mark.parametrize("ta, tb", [(False, False), (True, False), (True, True)])
def test_batch_matmul_transposes(ta, tb):
    x = rand(2, 6, 3) if ta else rand(2, 3, 6)
    y = rand(1, 4, 6) if tb else rand(1, 6, 4)
    X, Y = te.placeholder(x.shape, name="X"), te.placeholder(y.shape, name="Y")
    expected = (np.swapaxes(x, 1, 2) if ta else x) @ (np.swapaxes(y, 1, 2) if tb else y)
    close(run([X, Y], topi.nn.batch_matmul(X, Y, transpose_a=ta, transpose_b=tb), [x, y]),
          expected)


@pytest.mark.parametrize("shape", [(1, 9), (3, 5), (2, 3, 4)])
def test_softmax_log_softmax_layer_norm_over_shapes(shape):
    S = te.placeholder(shape, name="S")
    s = rand(*shape)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    soft = e / e.sum(axis=-1, keepdims=True)
    close(run([S], topi.nn.softmax(S), [s]), soft)
    close(run([S], topi.nn.log_softmax(S), [s]), np.log(soft))
    G, B = te.placeholder(shape[-1:], name="G"), te.placeholder(shape[-1:], name="Bt")
    g, b = rand(shape[-1]), rand(shape[-1])
    mu, var = s.mean(axis=-1, keepdims=True), s.var(axis=-1, keepdims=True)
    close(run([S, G, B], topi.nn.layer_norm(S, G, B, axis=[len(shape) - 1]), [s, g, b]),
          (s - mu) / np.sqrt(var + 1e-5) * g + b)


def test_divide_power_and_floor_divide():
    A, B = te.placeholder((3, 4), name="A"), te.placeholder((4,), name="B")
    a, b = rand(3, 4), RNG.uniform(0.5, 2.0, 4).astype("float32")
    close(run([A, B], topi.divide(A, B), [a, b]), a / b)
    close(run([B, B], topi.power(B, B), [b, b]), np.power(b, b))
    I, J = te.placeholder((3, 4), "int32", "I"), te.placeholder((3, 4), "int32", "J")
    i = rand(3, 4, dtype="int32")
    j = rand(3, 4, dtype="int32")
    j[j == 0] = 3  # an integer division by zero traps (SIGFPE), as in TVM
    np.testing.assert_array_equal(run([I, J], topi.floor_divide(I, J), [i, j]), i // j)


def test_log_sqrt_erf():
    import math
    A = te.placeholder((2, 5), name="A")
    a = RNG.uniform(0.1, 3.0, (2, 5)).astype("float32")
    close(run([A], topi.log(A), [a]), np.log(a))
    close(run([A], topi.sqrt(A), [a]), np.sqrt(a))
    close(run([A], topi.erf(A), [a]), np.vectorize(math.erf)(a).astype("float32"))


@settings(max_examples=5, deadline=None)
@given(axis=st.sampled_from([None, 0, 1, (0, 1)]), keep=st.booleans(),
       dtype=st.sampled_from(["float32", "int32"]))
def test_prod_exact_for_ints(axis, keep, dtype):
    A = te.placeholder((3, 4), dtype, "A")
    a = RNG.integers(-3, 4, (3, 4)).astype(dtype)
    np.testing.assert_array_equal(run([A], topi.prod(A, axis, keep), [a]),
                                  np.prod(a, axis=axis, keepdims=keep))


def test_broadcast_shape_of_plain_int_shapes():
    assert [int(d) for d in topi.broadcast_shape((3, 1, 5), (4, 1))] == [3, 4, 5]
    assert [int(d) for d in topi.broadcast_shape((4, 1), (3, 1, 5))] == [3, 4, 5]
    with pytest.raises(ValueError, match="do not broadcast"):
        topi.broadcast_shape((2, 3), (4,))


@pytest.mark.parametrize("stride, pad, dil", [(2, 0, 1), (1, 2, 2), (2, 1, 1)])
def test_conv2d_nhwc_strides_padding_dilation(stride, pad, dil):
    X, W = te.placeholder((1, 7, 7, 3), name="X"), te.placeholder((3, 3, 3, 4), name="W")
    x, w = rand(1, 7, 7, 3), rand(3, 3, 3, 4)
    ref = conv_ref(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), stride, pad,
                   dil).transpose(0, 2, 3, 1)
    close(run([X, W], topi.nn.conv2d_nhwc(X, W, stride, pad, dil), [x, w]), ref)
