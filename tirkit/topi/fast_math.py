"""Fast-math element-wise operators (mirror ``tvm.topi.fast_exp``, ``fast_tanh``, ``fast_erf``,
TVM's ``include/tvm/topi/elemwise.h`` and ``tirx::fast_erf_float_expr``).

Each is plain TIR arithmetic -- a clamp, polynomials, a division and, for ``fast_exp``, an
integer shift and a bit cast for ``2**n`` -- with no ``tir.exp``/``tir.tanh``/``tir.erf`` call,
so a vectorized loop over it stays vector code (``llvm.exp.vNf32`` is broken into N scalar
``expf`` calls by the x86 backend). Constants and formulas are TVM's, each constant rounded to
float32 as TVM's ``FloatImm(Float(32), ...f)`` is.

Accuracy (float32, measured against NumPy in float64 over a 0.01 grid; TVM's
``test_topi_math.py`` asserts ``rtol = atol = 1e-5`` on the same ranges; for a generic x86-64
CPU the outputs are bit-identical to TVM's compiled ops, for a host CPU with FMA within 4 ulp):

- ``fast_exp`` on [-88, 88]: relative error below 5e-6 where the result is a normal float;
- ``fast_tanh`` on [-10, 10]: absolute error below 1e-6;
- ``fast_erf`` on [-10, 10]: absolute error below 1e-6 (float16: below 5e-2; TVM asserts 1e-1).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from tirkit import te, tir
from tirkit.ir.dtype import DataType

__all__ = ["fast_exp", "fast_tanh", "fast_erf"]

# fast_exp_float32: Cephes' expf, exp(x) = 2**n * exp(f), n = floor(x*log2(e) + 1/2)
_EXP_HI, _EXP_LO = 88.3762626647950, -88.3762626647949
_LOG2E, _LN2 = 1.44269504088896341, 0.6931471805599453
_EXP_P = (1.9875691500E-4, 1.3981999507E-3, 8.3334519073E-3, 4.1665795894E-2,
          1.6666665459E-1, 5.0000001201E-1)
# fast_tanh_float (Eigen): odd numerator, even denominator, input clamped to [-9, 9]
_TANH_ALPHA = (-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
               5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04,
               4.89352455891786e-03)  # alpha_13 ... alpha_1
_TANH_BETA = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03,
              4.89352518554385e-03)  # beta_6 ... beta_0
# fast_erf_float_expr (Eigen): input clamped to [-4, 4]
_ERF_ALPHA = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
              -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
              -1.60960333262415e-02)  # alpha_13 ... alpha_1
_ERF_BETA = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
             -7.37332916720468e-03, -1.42647390514189e-02)  # beta_8 ... beta_0


def _c(value: float, dtype: str = "float32") -> Any:
    """A constant of ``dtype`` holding ``value`` rounded to that precision (TVM's ``...f``)."""
    return tir.const(float(np.dtype(dtype).type(value)), dtype)


def _horner(x: Any, coeffs: Sequence[float], dtype: str) -> Any:
    """``((c0 * x + c1) * x + c2) ...`` in the order TVM's code writes it."""
    acc = x * _c(coeffs[0], dtype) + _c(coeffs[1], dtype)
    for c in coeffs[2:]:
        acc = x * acc + _c(c, dtype)
    return acc


def _fast_exp_expr(v: Any) -> Any:
    x = tir.max(tir.min(v, _c(_EXP_HI)), _c(_EXP_LO))  # clamp: 2**n stays a normal float
    n = tir.floor(x * _c(_LOG2E) + _c(0.5))
    f = x - n * _c(_LN2)
    y = _c(_EXP_P[0]) * f + _c(_EXP_P[1])
    for c in _EXP_P[2:]:
        y = y * f + _c(c)
    y = y * f * f + f + _c(1.0)
    bits = tir.shift_left((n + _c(127.0)).astype("int32"), tir.const(23, "int32"))
    two_n = tir.reinterpret("float32", bits)
    return tir.max(two_n * y, v)  # as TVM: max(.., x) keeps +inf and large inputs growing


def _rational(v: Any, clamp: float, alpha: Sequence[float], beta: Sequence[float],
              dtype: str) -> Any:
    x = tir.max(tir.min(v, _c(clamp, dtype)), _c(-clamp, dtype))
    x2 = x * x
    return x * _horner(x2, alpha, dtype) / _horner(x2, beta, dtype)


def _elemwise(x: te.Tensor, name: str, fn: Callable[[Any], Any]) -> te.Tensor:
    return te.compute(x.shape, lambda *i: fn(x[i]), name=name, tag="elemwise")


def _float32_input(x: te.Tensor) -> te.Tensor:
    """TVM's ``_is_integer_tensor(x)``: an integer tensor is cast to float32 first."""
    if DataType.parse(x.dtype).is_integer():
        return te.compute(x.shape, lambda *i: x[i].astype("float32"), name="T_cast",
                          tag="elemwise")
    return x


def _check_float(x: te.Tensor, op: str) -> None:
    t = DataType.parse(x.dtype)
    if not t.is_float() or t.is_vector():
        raise TypeError(f"{op}: expects a float tensor (fast path for float32"
                        f"{' and float16' if op == 'fast_erf' else ''}), got dtype {x.dtype}")


def fast_exp(x: te.Tensor) -> te.Tensor:
    """``exp(x)`` element-wise by range reduction and a polynomial (mirrors
    ``tvm.topi.fast_exp``; block ``T_fast_exp``, tag ``elemwise``).

    ``x`` of any shape. float32: the input is clamped to [-88.376, 88.376], split as
    ``n = floor(x*log2(e) + 1/2)``, ``f = x - n*ln2``, ``exp(f)`` by Cephes' degree-7 polynomial
    and ``2**n`` made by shifting ``n + 127`` into the exponent bits (``tir.shift_left`` and
    ``tir.reinterpret``); the result is ``max(2**n * exp(f), x)``. Inputs above 88.37 give
    +inf, inputs below about -87.7 (and -inf) give 0, NaN stays NaN. Relative error below 5e-6
    on [-88, 88] where exp(x) is a normal float (at large ``|x|`` most of it is the float32
    rounding of ``n*ln2``; TVM's test asserts 1e-5). An integer tensor is cast to float32
    first (as TVM); float16/float64 fall back to the exact ``tir.exp``, as TVM's does.

    Raises:
        TypeError: for a bool or vector-element dtype (no exponential of it).
    """
    x = _float32_input(x)
    _check_float(x, "fast_exp")
    if str(x.dtype) != "float32":
        return _elemwise(x, "T_fast_exp", tir.exp)
    return _elemwise(x, "T_fast_exp", _fast_exp_expr)


def fast_tanh(x: te.Tensor) -> te.Tensor:
    """``tanh(x)`` element-wise by Eigen's rational approximation (mirrors
    ``tvm.topi.fast_tanh``; block ``T_fast_tanh``, tag ``elemwise``).

    ``x`` of any shape. float32: ``x`` clamped to [-9, 9] (beyond it tanh is +-1 in float32),
    then an odd degree-13 over an even degree-6 polynomial. Absolute error below 1e-6 on
    [-10, 10] (TVM's test asserts 1e-5). An integer tensor is cast to float32 first;
    float16/float64 fall back to the exact ``tir.tanh``, as in TVM.

    Raises:
        TypeError: for a bool or vector-element dtype.
    """
    x = _float32_input(x)
    _check_float(x, "fast_tanh")
    if str(x.dtype) != "float32":
        return _elemwise(x, "T_fast_tanh", tir.tanh)
    return _elemwise(x, "T_fast_tanh",
                     lambda v: _rational(v, 9.0, _TANH_ALPHA, _TANH_BETA, "float32"))


def fast_erf(x: te.Tensor) -> te.Tensor:
    """The Gauss error function element-wise by Eigen's rational approximation (mirrors
    ``tvm.topi.fast_erf``; block ``T_fast_erf``, tag ``elemwise``).

    ``x`` of any shape, float32 or float16: ``x`` clamped to [-4, 4], then an odd degree-13
    over an even degree-8 polynomial, in ``x``'s dtype. Absolute error below 1e-6 on [-10, 10]
    in float32, below 5e-2 in float16 (TVM's test asserts 1e-5 and 1e-1). float64 falls back
    to the exact ``topi.erf`` (block ``T_erf``), as in TVM.

    Raises:
        TypeError: for an integer, bool or vector-element dtype (TVM would emit an ``erf`` of
            integers that no backend compiles).
    """
    _check_float(x, "fast_erf")
    dtype = str(x.dtype)
    if dtype not in ("float32", "float16"):
        return _elemwise(x, "T_erf", tir.erf)
    return _elemwise(x, "T_fast_erf",
                     lambda v: _rational(v, 4.0, _ERF_ALPHA, _ERF_BETA, dtype))
