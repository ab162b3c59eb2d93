from tvm.script import tir as T

N = 0x80 + 0o17 + 0b1010 + 1_000
F = 1.5e-3 + 2. + .5 + 1E3 + 3j + 1.5J
S = "a" 'b' """c""" r"\d" u"z", b"x" Rb"\y" BR'\n', f"{N}" "tail", u"ü\u00fc\n", '''multi
line'''


@T.prim_func
def tour(A: T.Buffer[(128,), "float32"], B: T.Buffer((128, 128), "float32"), *args, scale: T.float32 = 1.0, **kwargs) -> None:
    """Docstring of the unit."""
    x: T.int32
    y: T.int32 = 0
    y += 1; y -= 1
    y *= 2
    y //= 2
    y <<= 1
    a = b = T.int32(3)
    (c, d), [e, f] = (1, 2), [3, 4]
    first, *rest = 1, 2, 3
    t = 1,
    empty = ()
    sl = B[0:64, 1], B[::2, :], B[1:, :-1], B[:, 0:128:4], A[*args]
    cmp = 0 <= a < 128 != b and a is not None or not b in [1] and a not in (2, 3)
    bits = ~a | b ^ c & d << 1 >> 2
    arith = -a ** 2 + +b * c / d // e % f @ a - (a + b)
    cond = a if b else c if d else e
    comps = [i * 2 for i in range(4) if i > 1 if i < 3], {i for i in range(3)}, {i: j for i, j in zip(a, b)}
    gen = sum(i for i in range(10)), tuple((i, j) for i in range(2) for j in range(i))
    dct = {"a": 1, **kwargs, "b": [2, 3]}
    st = {1, 2, *args}
    call = T.call_extern("float32", *args, dtype="float32", **kwargs)
    lam = T.comm_reducer(lambda x, y: x + y, [T.float32(0)])
    lam2 = lambda *a, k=1, **kw: (a, k, kw)
    lam3 = lambda: None
    ell = ...
    truth = True, False, None
    if (w := a + 1) > 2:
        pass
    with T.block("a") as blk, T.allocate([16], "float32") as (p, q):
        with T.block("b") as [vi, vj]:
            T.evaluate(0)
    assert a > 0, "message"
    assert a
    del x, y
    del (a)
    for i in range(2):
        pass
    else:
        pass
    while False:
        break
    else:
        pass
    if a:
        pass
    elif b:
        pass
    elif c:
        pass
    else:
        pass
    long = T.call_extern(  # comment inside brackets
        "int32",
        "f",
    )
    cont = 1 + \
        2
    return


def outer():
    global N
    v = 0

    def inner(x):
        nonlocal v
        v = x

    return inner
