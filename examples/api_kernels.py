"""Seed kernels in TensorIR form, built through the Python API only (no parser).

Each builder returns a fresh ``PrimFunc`` shaped as TVMScript would produce it: a ``root`` block
realize around the loop nests (holding temporaries in ``alloc_buffers``), ``T.Buffer``-style
parameters in ``buffer_map`` (``elem_offset`` 0, ``offset_factor`` 1), ``T.axis.remap``-style
block iter vars with explicit ``reads``/``writes``. Every call makes new vars and buffers, so two
calls with the same arguments are alpha-renamed copies; the keyword arguments build variants
(loop/iter var names, loop order, dtype, buffer shapes, block names).
"""
from __future__ import annotations

from typing import Any, Sequence

from tirkit.ir.op import CallEffectKind, register_op
from tirkit.tir import (Block, BlockRealize, BufferRegion, BufferStore, Call, FloatImm,
                        For, ForKind, IntImm, IterVar, IterVarType, Max, PrimFunc, Range, Select,
                        SeqStmt, Var, decl_buffer)
import tirkit.tir as tir

_KINDS = {"S": IterVarType.DataPar, "R": IterVarType.CommReduce}


def buffer(shape: Sequence[int], dtype: str, name: str) -> Any:
    """A buffer as ``T.Buffer(shape, dtype)`` / ``T.alloc_buffer`` declares it."""
    return decl_buffer(tuple(shape), dtype, name, offset_factor=0)


def remap(kinds: str, names: Sequence[str], extents: Sequence[int]) -> list[IterVar]:
    """Block iter vars as ``T.axis.remap(kinds, loops)`` makes them (domain ``[0, extent)``)."""
    return [IterVar(Range(0, ext), Var(name, "int32"), _KINDS[k])
            for k, name, ext in zip(kinds, names, extents)]


def point(buf: Any, *indices: Any) -> BufferRegion:
    """The region ``buf[indices]`` as ``T.reads``/``T.writes`` record it."""
    return BufferRegion.from_point(buf, indices)


def block_realize(name: str, iter_vars: list[IterVar], values: Sequence[Any], body: Any, *,
                  reads: Sequence[BufferRegion] = (), writes: Sequence[BufferRegion] = (),
                  init: Any = None, annotations: dict | None = None) -> BlockRealize:
    """``with T.block(name): ...`` bound to ``values``."""
    blk = Block(iter_vars, list(reads), list(writes), name, body, init,
                annotations=annotations or {})
    return BlockRealize(list(values), True, blk)


def loop_nest(loop_vars: dict[str, Var], extents: dict[str, int], order: str, body: Any) -> Any:
    """Serial loops over ``loop_vars`` nested in ``order`` (outermost first) around ``body``."""
    for key in reversed(order):
        body = For(loop_vars[key], 0, extents[key], ForKind.SERIAL, body)
    return body


def root_func(params: Sequence[Any], body: Any, allocs: Sequence[Any] = (),
              name: str = "main") -> PrimFunc:
    """A PrimFunc whose body is the implicit ``root`` block (TVMScript's form)."""
    root = Block([], [], [], "root", body, None, alloc_buffers=list(allocs))
    return PrimFunc(list(params), BlockRealize([], True, root), attrs={"global_symbol": name})


def _shape(shapes: dict[str, Sequence[int]] | None, name: str, default: Sequence[int]) -> tuple:
    return tuple((shapes or {}).get(name, default))


def _zero(dtype: str) -> Any:
    return FloatImm(dtype, 0.0) if "float" in dtype else IntImm(dtype, 0)


# ------------------------------------------------------------------------------------ matmul
def matmul(m: int = 128, n: int = 128, k: int = 128, *, dtype: str = "float32",
           block_name: str = "C", loop_names: Sequence[str] = ("i", "j", "k"),
           iter_names: Sequence[str] = ("vi", "vj", "vk"), loop_order: str = "ijk",
           shapes: dict[str, Sequence[int]] | None = None, name: str = "main") -> PrimFunc:
    """``C[i, j] += A[i, k] * B[k, j]`` with a reduction block ``block_name`` (seed 002).

    ``loop_order`` permutes the loops (``"ikj"``); ``shapes`` overrides a buffer's shape by
    name (``{"A": (128, 64)}``) without changing the loops.
    """
    a = buffer(_shape(shapes, "A", (m, k)), dtype, "A")
    b = buffer(_shape(shapes, "B", (k, n)), dtype, "B")
    c = buffer(_shape(shapes, "C", (m, n)), dtype, "C")
    loops = {key: Var(nm, "int32") for key, nm in zip("ijk", loop_names)}
    ivs = remap("SSR", iter_names, (m, n, k))
    i, j, kk = (iv.var for iv in ivs)
    update = BufferStore(c, c[i, j] + a[i, kk] * b[kk, j], [i, j])
    realize = block_realize(
        block_name, ivs, [loops["i"], loops["j"], loops["k"]], update,
        reads=[point(a, i, kk), point(b, kk, j)], writes=[point(c, i, j)],
        init=BufferStore(c, _zero(dtype), [i, j]))
    body = loop_nest(loops, {"i": m, "j": n, "k": k}, loop_order, realize)
    return root_func([a, b, c], body, name=name)


# ----------------------------------------------------------------------------------- softmax
def _exp(x: Any) -> Any:
    exp = getattr(tir, "exp", None)
    if exp is not None:
        return exp(x)
    return Call(x.dtype, register_op("tir.exp", 1, CallEffectKind.PURE), [x])


def softmax(rows: int = 64, cols: int = 128, *, dtype: str = "float32",
            block_names: Sequence[str] = ("T_softmax_maxelem", "T_softmax_exp",
                                          "T_softmax_expsum", "T_softmax_norm"),
            loop_names: Sequence[str] = ("i0", "i1"), iter_names: Sequence[str] = ("v_i0", "v_i1"),
            shapes: dict[str, Sequence[int]] | None = None, name: str = "main") -> PrimFunc:
    """Row softmax of a ``rows x cols`` input in four blocks (max-reduce, exp, sum-reduce,
    normalize), temporaries allocated in the root block, as TE's ``topi.nn.softmax`` gives."""
    a = buffer(_shape(shapes, "A", (rows, cols)), dtype, "A")
    out = buffer(_shape(shapes, "T_softmax_norm", (rows, cols)), dtype, "T_softmax_norm")
    maxelem = buffer((rows,), dtype, "T_softmax_maxelem")
    expbuf = buffer((rows, cols), dtype, "T_softmax_exp")
    expsum = buffer((rows,), dtype, "T_softmax_expsum")

    def nest(kinds: str, make: Any) -> Any:
        loops = {"i": Var(loop_names[0], "int32"), "j": Var(loop_names[1], "int32")}
        ivs = remap(kinds, iter_names, (rows, cols))
        realize = make(ivs, ivs[0].var, ivs[1].var, [loops["i"], loops["j"]])
        return loop_nest(loops, {"i": rows, "j": cols}, "ij", realize)

    def max_block(ivs: Any, r: Var, k: Var, vals: Any) -> Any:
        return block_realize(
            block_names[0], ivs, vals, BufferStore(maxelem, Max(maxelem[r], a[r, k]), [r]),
            reads=[point(a, r, k)], writes=[point(maxelem, r)],
            init=BufferStore(maxelem, FloatImm(dtype, -3.4028234663852886e38), [r]))

    def exp_block(ivs: Any, r: Var, c: Var, vals: Any) -> Any:
        return block_realize(
            block_names[1], ivs, vals, BufferStore(expbuf, _exp(a[r, c] - maxelem[r]), [r, c]),
            reads=[point(a, r, c), point(maxelem, r)], writes=[point(expbuf, r, c)])

    def sum_block(ivs: Any, r: Var, k: Var, vals: Any) -> Any:
        return block_realize(
            block_names[2], ivs, vals, BufferStore(expsum, expsum[r] + expbuf[r, k], [r]),
            reads=[point(expbuf, r, k)], writes=[point(expsum, r)],
            init=BufferStore(expsum, _zero(dtype), [r]))

    def norm_block(ivs: Any, r: Var, c: Var, vals: Any) -> Any:
        return block_realize(
            block_names[3], ivs, vals, BufferStore(out, expbuf[r, c] / expsum[r], [r, c]),
            reads=[point(expbuf, r, c), point(expsum, r)], writes=[point(out, r, c)],
            annotations={"axis": 1})

    body = SeqStmt([nest("SR", max_block), nest("SS", exp_block), nest("SR", sum_block),
                    nest("SS", norm_block)])
    return root_func([a, out], body, allocs=[maxelem, expbuf, expsum], name=name)


# ------------------------------------------------------------------------------------ conv2d
def _if_then_else(cond: Any, then: Any, other: Any) -> Any:
    fn = getattr(tir, "if_then_else", None)
    return fn(cond, then, other) if fn is not None else Select(cond, then, other)


def conv2d_nchw(n: int = 1, c: int = 3, h: int = 16, w: int = 16, k: int = 8, r: int = 3,
                s: int = 3, pad: int = 1, *, dtype: str = "float32",
                block_names: Sequence[str] = ("pad_temp", "conv2d_nchw"),
                shapes: dict[str, Sequence[int]] | None = None,
                reduce_order: str = "cyx", name: str = "main") -> PrimFunc:
    """NCHW conv2d, stride 1: a ``pad_temp`` block (zero padding with ``if_then_else``) and a
    ``conv2d_nchw`` reduction block over ``(rc, ry, rx)``; ``reduce_order`` permutes the
    reduction loops (``"cyx"`` = rc, ry, rx outermost first)."""
    ph, pw = h + 2 * pad, w + 2 * pad
    oh, ow = ph - r + 1, pw - s + 1
    data = buffer(_shape(shapes, "data", (n, c, h, w)), dtype, "data")
    weight = buffer(_shape(shapes, "weight", (k, c, r, s)), dtype, "weight")
    out = buffer(_shape(shapes, "conv2d_nchw", (n, k, oh, ow)), dtype, "conv2d_nchw")
    padded = buffer((n, c, ph, pw), dtype, "pad_temp")

    loops = {key: Var(nm, "int32") for key, nm in zip("nchw", ("i0", "i1", "i2", "i3"))}
    ivs = remap("SSSS", ("v_i0", "v_i1", "v_i2", "v_i3"), (n, c, ph, pw))
    vn, vc, vh, vw = (iv.var for iv in ivs)
    inside = tir.all(pad <= vh, vh < h + pad, pad <= vw, vw < w + pad)
    src = data[vn, vc, vh - pad, vw - pad]
    pad_block = block_realize(
        block_names[0], ivs, list(loops.values()),
        BufferStore(padded, _if_then_else(inside, src, _zero(dtype)), [vn, vc, vh, vw]),
        reads=[point(data, vn, vc, vh - pad, vw - pad)], writes=[point(padded, vn, vc, vh, vw)])
    pad_nest = loop_nest(loops, {"n": n, "c": c, "h": ph, "w": pw}, "nchw", pad_block)

    cl = {key: Var(nm, "int32") for key, nm in zip("nkhwcyx", ("nn", "ff", "yy", "xx", "rc",
                                                                "ry", "rx"))}
    civs = remap("SSSSRRR", ("v_nn", "v_ff", "v_yy", "v_xx", "v_rc", "v_ry", "v_rx"),
                 (n, k, oh, ow, c, r, s))
    bn, bf, by, bx, brc, bry, brx = (iv.var for iv in civs)
    acc = out[bn, bf, by, bx] + padded[bn, brc, by + bry, bx + brx] * weight[bf, brc, bry, brx]
    conv_block = block_realize(
        block_names[1], civs, [cl[key] for key in "nkhwcyx"],
        BufferStore(out, acc, [bn, bf, by, bx]),
        reads=[point(padded, bn, brc, by + bry, bx + brx), point(weight, bf, brc, bry, brx)],
        writes=[point(out, bn, bf, by, bx)], init=BufferStore(out, _zero(dtype), [bn, bf, by, bx]))
    extents = {"n": n, "k": k, "h": oh, "w": ow, "c": c, "y": r, "x": s}
    conv_nest = loop_nest(cl, extents, "nkhw" + reduce_order, conv_block)
    return root_func([data, weight, out], SeqStmt([pad_nest, conv_nest]), allocs=[padded],
                     name=name)
