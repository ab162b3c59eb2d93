"""Generic IR: nodes, spans, dtypes, types, Range, GlobalVar, Op registry, IRModule, structural
equality and hashing (mirrors ``tvm.ir``)."""
from .dtype import DataType, TypeCode
from .expr import BaseExpr, FloatImm, GlobalVar, IntImm, PrimExpr, Range
from .module import BaseFunc, IRModule
from .node import Node, node
from .op import CallEffectKind, Op, list_ops, register_op
from .span import Span
from .structural import (assert_structural_equal, first_mismatch, structural_equal,
                         structural_hash)
from .target import TargetConfig
from .type import PointerType, PrimType, TupleType, Type

__all__ = [
    "DataType", "TypeCode", "BaseExpr", "FloatImm", "GlobalVar", "IntImm", "PrimExpr", "Range",
    "BaseFunc", "IRModule", "Node", "node", "CallEffectKind", "Op", "list_ops", "register_op",
    "Span", "PointerType", "PrimType", "TupleType", "Type", "assert_structural_equal",
    "first_mismatch", "structural_equal", "structural_hash", "TargetConfig",
]
