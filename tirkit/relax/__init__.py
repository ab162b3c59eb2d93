"""Graph level: a Relax-style IR staging a graph of operators (mirrors ``tvm.relax``).

``BlockBuilder`` builds functions binding by binding (``emit``, ``emit_te`` for TE/topi
operators, ``call_tir`` to PrimFuncs); ``@R.function`` TVMScript parses to the same IR;
``build(mod)`` legalizes high-level ops and compiles every PrimFunc; ``VirtualMachine`` runs it
on NumPy arrays.
"""
from __future__ import annotations

from . import op, script  # noqa: F401  (registers ops and printers)
from .block_builder import BlockBuilder, BlockBuilderError
from .expr import (BindingBlock, Call, Constant, DataflowBlock, DataflowVar, Expr, ExternFunc,
                   Function, MatchCast, PrimValue, SeqExpr, ShapeExpr, StringImm, Tuple,
                   TupleGetItem, Var, VarBinding, const)
from .op import call_dps_packed, call_tir, call_tir_dyn
from .struct_info import (FuncStructInfo, ObjectStructInfo, PrimStructInfo, ShapeStructInfo,
                          StructInfo, TensorStructInfo, TupleStructInfo)
from .te_bridge import te_tensor
from .vm import Executable, VirtualMachine, VMError, build

__all__ = ["BlockBuilder", "BlockBuilderError", "BindingBlock", "Call", "Constant",
           "DataflowBlock", "DataflowVar", "Expr", "ExternFunc", "Function", "MatchCast",
           "PrimValue", "SeqExpr", "ShapeExpr", "StringImm", "Tuple", "TupleGetItem", "Var",
           "VarBinding", "const", "call_tir", "call_tir_dyn", "call_dps_packed", "op",
           "StructInfo", "ObjectStructInfo", "PrimStructInfo", "ShapeStructInfo",
           "TensorStructInfo", "TupleStructInfo", "FuncStructInfo", "te_tensor", "build",
           "Executable", "VirtualMachine", "VMError"]
