"""TIR: expressions, statements, buffers, PrimFunc and op functions (mirrors ``tvm.tir``)."""
from ..ir.dtype import DataType
from ..ir.expr import FloatImm, IntImm, PrimExpr, Range
from ..ir.op import CallEffectKind, Op
from .buffer import Buffer, BufferType, decl_buffer
from .expr import (EQ, GE, GT, LE, LT, NE, Add, And, BinaryOpExpr, Broadcast, BufferLoad, Call,
                   Cast, CmpExpr, CommReducer, Div, FloorDiv, FloorMod, IterVar, IterVarType, Let,
                   Max, Min, Mod, Mul, Not, Or, ProducerLoad, Ramp, Reduce, Select, Shuffle,
                   SizeVar, StringImm, Sub, Var)
from .function import PrimFunc
from .index_map import IndexMap
from .tensor_intrin import TensorIntrin
from .op import *  # noqa: F401,F403
from .op import abs, all, any, max, min  # noqa: F401  pylint: disable=redefined-builtin
from .stmt import (Allocate, AllocateConst, AssertStmt, AttrStmt, Block, BlockRealize, Break,
                   BufferRealize, BufferRegion, BufferStore, Continue, DeclBuffer, Evaluate, For,
                   ForKind, IfThenElse, LetStmt, MatchBufferRegion, Prefetch, SeqStmt, Stmt, While)
from . import analysis, stmt_functor  # noqa: F401,E402
from .functor import ExprMutator, ExprVisitor  # noqa: E402
from .stmt_functor import (PyStmtExprMutator, PyStmtExprVisitor, StmtExprMutator,  # noqa: E402
                           StmtExprVisitor, StmtMutator, StmtVisitor, ir_transform,
                           post_order_visit, pre_order_visit, renew_defs, substitute,
                           substitute_with_dtype_cast)
# --- built-in ops (tirkit.tir.builtin) and their op functions (op_math, op_intrin)
from . import builtin  # noqa: E402,F401  (registers TVM's built-in ops)
from .op_intrin import *  # noqa: E402,F401,F403
from .op_math import *  # noqa: E402,F401,F403
from .op_math import pow, round, sum  # noqa: E402,F401  pylint: disable=redefined-builtin
from . import ir_builder  # noqa: E402,F401  (tvm.tir.ir_builder)
