"""Visitors, mutators, substitute / ir_transform / renew_defs and the analyses built on them."""
from collections import Counter

import pytest

from tirkit.ir import IRModule, Span
from tirkit.tir import (Add, Allocate, AttrStmt, Block, BlockRealize, BufferLoad, BufferRegion,
                        BufferStore, Cast, CommReducer, Evaluate, FloatImm, For, ForKind, IntImm,
                        IterVar, IterVarType, Let, LetStmt, Mul, PrimFunc, Range, SeqStmt,
                        SizeVar, Sub, Var, decl_buffer)
from tirkit.tir import stmt as S
from tirkit.tir.analysis import (describe, expr_deep_equal, undefined_vars, verify_ssa,
                                 verify_well_formed)
from tirkit.tir.functor import ExprMutator, ExprVisitor, method_name
from tirkit.tir.stmt_functor import (StmtExprMutator, StmtExprVisitor, StmtMutator, StmtVisitor,
                                     ir_transform, post_order_visit, pre_order_visit, renew_defs,
                                     substitute, substitute_with_dtype_cast)

SPAN = Span("k.py", 3, 5, 3, 20)


def _matmul():
    """C[i, j] += A[i, k] * B[k, j] over 16^3 with a reduction block (init included)."""
    A, B, C = (decl_buffer((16, 16), "float32", n) for n in "ABC")
    i, j, k = Var("i", "int32"), Var("j", "int32"), Var("k", "int32")
    vi, vj = (IterVar(Range(0, 16), Var(n, "int32"), IterVarType.DataPar) for n in ("vi", "vj"))
    vk = IterVar(Range(0, 16), Var("vk", "int32"), IterVarType.CommReduce)
    x, y, r = vi.var, vj.var, vk.var
    store = BufferStore(C, C[x, y] + A[x, r] * B[r, y], [x, y])
    init = BufferStore(C, FloatImm("float32", 0.0), [x, y])
    block = Block([vi, vj, vk], [BufferRegion.from_point(A, [x, r]),
                                 BufferRegion.from_point(B, [r, y])],
                  [BufferRegion.from_point(C, [x, y])], "C", store, init)
    realize = BlockRealize([i, j, k], True, block, span=SPAN)
    body = For(i, 0, 16, ForKind.SERIAL,
               For(j, 0, 16, ForKind.SERIAL, For(k, 0, 16, ForKind.SERIAL, realize)), span=SPAN)
    func = PrimFunc([A, B, C], body)
    return func, dict(A=A, B=B, C=C, i=i, j=j, k=k, vi=x, vj=y, vk=r, store=store, init=init,
                      block=block, realize=realize)


class _Counter(StmtExprVisitor):
    def __init__(self):
        self.kinds = Counter()

    def visit_stmt(self, stmt):
        self.kinds[type(stmt).__name__] += 1
        super().visit_stmt(stmt)

    def visit_expr(self, expr):
        self.kinds[type(expr).__name__] += 1
        super().visit_expr(expr)


# ------------------------------------------------------------------------------------ visitors
def test_stmt_expr_visitor_counts_node_kinds_of_matmul():
    func, _ = _matmul()
    counter = _Counter()
    counter(func.body)
    kinds = counter.kinds
    assert kinds["For"] == 3 and kinds["BlockRealize"] == 1 and kinds["Block"] == 1
    assert kinds["BufferStore"] == 2  # body and init
    assert kinds["BufferLoad"] == 3 and kinds["Mul"] == 1 and kinds["Add"] == 1
    # iter_values 3 + store indices 2 + load indices 6 + init indices 2 + read/write regions 6
    assert kinds["Var"] == 19
    assert kinds["FloatImm"] == 1


def test_stmt_visitor_does_not_enter_expressions():
    func, _ = _matmul()
    seen = []

    class V(StmtVisitor):
        def visit_buffer_load_(self, op):
            seen.append(op)

        def visit_var_(self, op):
            seen.append(op)

        def visit_for_(self, op):
            seen.append(op.loop_var.name_hint)
            super().visit_for_(op)

    V()(func.body)
    assert seen == ["i", "j", "k"]


def test_expr_visitor_and_size_var_falls_back_to_visit_var():
    n, x = SizeVar("n", "int32"), Var("x", "int32")
    names = []

    class V(ExprVisitor):
        def visit_var_(self, op):
            names.append(op.name_hint)

    V().visit_expr((x + n) * x)
    assert names == ["x", "n", "x"]


def test_visitor_does_not_descend_into_buffer_shapes():
    n = Var("n", "int32")
    A = decl_buffer((n,), "float32", "A")
    i = Var("i", "int32")
    names = []

    class V(StmtExprVisitor):
        def visit_var_(self, op):
            names.append(op.name_hint)

    V()(BufferStore(A, A[i] + 1.0, [i]))
    assert names == ["i", "i"]


def test_method_names_follow_tvm_python_spelling():
    assert method_name(S.BlockRealize) == "visit_block_realize_"
    assert method_name(S.LetStmt) == "visit_let_stmt_"
    assert method_name(S.SeqStmt) == "visit_seq_stmt_"
    from tirkit.tir import EQ, FloorDiv
    assert method_name(EQ) == "visit_eq_" and method_name(FloorDiv) == "visit_floor_div_"
    for name in ("visit_add_", "visit_var_", "visit_buffer_load_", "visit_int_imm_"):
        assert callable(getattr(ExprVisitor, name))
    for name in ("visit_for_", "visit_block_", "visit_buffer_store_", "visit_if_then_else_"):
        assert callable(getattr(StmtMutator, name))


def test_dispatch_falls_back_along_the_node_mro_and_reports_unknown_nodes():
    from tirkit.ir.node import node

    @node
    class MyFor(For):
        pass

    @node
    class Mystery(S.Stmt):
        pass

    i = Var("i", "int32")
    loops = []

    class V(StmtVisitor):
        def visit_for_(self, op):
            loops.append(type(op).__name__)

    V()(MyFor(i, 0, 4, ForKind.SERIAL, Evaluate(0)))
    assert loops == ["MyFor"]
    with pytest.raises(TypeError, match="no visit method for Mystery"):
        StmtVisitor()(Mystery())


# ------------------------------------------------------------------------------------ mutators
@pytest.mark.parametrize("mutator", [StmtMutator, StmtExprMutator])
def test_mutator_that_changes_nothing_returns_the_same_object(mutator):
    func, _ = _matmul()
    assert mutator()(func.body) is func.body


def test_expr_mutator_identity():
    x, y = Var("x", "int32"), Var("y", "int32")
    e = (x + 1) * y - x // 2
    assert ExprMutator().visit_expr(e) is e


class _ShiftVar(StmtExprMutator):
    def __init__(self, var):
        self.var = var

    def visit_var_(self, op):
        return op + 1 if op is self.var else op


def test_mutator_rebuilds_only_the_path_to_the_change():
    func, n = _matmul()
    new = _ShiftVar(n["i"])(func.body)
    assert new is not func.body
    assert new.loop_var is n["i"]  # definition point untouched
    assert new.span is SPAN
    realize = new.body.body.body
    assert isinstance(realize, BlockRealize) and realize is not n["realize"]
    assert realize.span is SPAN
    assert realize.block is n["block"]
    assert realize.iter_values[1] is n["j"] and realize.iter_values[2] is n["k"]
    assert realize.predicate is n["realize"].predicate
    assert isinstance(realize.iter_values[0], Add) and realize.iter_values[0].a is n["i"]
    assert new.min is func.body.min and new.extent is func.body.extent


def test_mutated_buffer_load_keeps_buffer_and_rederives_dtype():
    func, n = _matmul()
    new_store = _ShiftVar(n["vk"])(n["store"])
    assert new_store.buffer is n["C"]
    c_load, a_load = new_store.value.a, new_store.value.b.a
    assert c_load is n["store"].value.a  # C[vi, vj] does not use vk
    assert a_load.buffer is n["A"] and a_load.dtype == "float32"
    assert a_load.indices[0] is n["vi"] and isinstance(a_load.indices[1], Add)
    assert all(a is b for a, b in zip(new_store.indices, n["store"].indices))


def test_mutator_rebuilds_block_regions_and_iter_var_domains():
    func, n = _matmul()
    m = Var("m", "int32")

    class Grow(StmtExprMutator):
        def visit_int_imm_(self, op):
            return m if op.value == 16 else op

    block = Grow()(n["block"])
    assert block.iter_vars[0].dom.extent is m and block.iter_vars[0].var is n["vi"]
    assert block.reads is n["block"].reads  # regions use extents 1, unchanged
    assert block.body is n["store"]


def test_seq_stmt_mutation_flattens_nested_sequences():
    x = Var("x", "int32")
    e1, e2, e3 = Evaluate(x), Evaluate(x + 1), Evaluate(x + 2)
    seq = SeqStmt([e1, e2])

    class Split(StmtMutator):
        def visit_evaluate_(self, op):
            return SeqStmt([op, e3]) if op is e1 else op

    new = Split()(seq)
    assert isinstance(new, SeqStmt) and new.seq == (e1, e3, e2)
    assert all(isinstance(s, Evaluate) for s in new.seq)

    class Wrap(StmtMutator):
        def visit_evaluate_(self, op):
            return SeqStmt([op]) if op is e2 else op

    assert Wrap()(SeqStmt([e2])) is e2  # a one-statement result is unwrapped


# ---------------------------------------------------------------------------- order visits
def test_post_order_visit_order():
    x, y = Var("x", "int32"), Var("y", "int32")
    e = Mul(Add(x, IntImm("int32", 1)), y)
    order = []
    post_order_visit(e, order.append)
    assert [type(o).__name__ for o in order] == ["Var", "IntImm", "Add", "Var", "Mul"]
    assert order[0] is x and order[-1] is e


def test_post_order_visit_statement_and_shared_nodes_once():
    x = Var("x", "int32")
    shared = x + 1
    s = SeqStmt([Evaluate(shared), Evaluate(shared)])
    order = []
    post_order_visit(s, lambda n: order.append(type(n).__name__))
    assert order == ["Var", "IntImm", "Add", "Evaluate", "Evaluate", "SeqStmt"]


def test_pre_order_visit_stops_descent_on_false():
    x, y = Var("x", "int32"), Var("y", "int32")
    e = Mul(Add(x, IntImm("int32", 1)), y)
    order = []

    def f(n):
        order.append(type(n).__name__)
        return not isinstance(n, Add)

    pre_order_visit(e, f)
    assert order == ["Mul", "Add", "Var"]


# -------------------------------------------------------------------------------- substitute
def test_substitute_expression_dict_and_callable():
    x, y, z = Var("x", "int32"), Var("y", "int32"), Var("z", "int32")
    e = x * y + x
    r = substitute(e, {x: z})
    assert r.a.a is z and r.a.b is y and r.b is z
    r2 = substitute(e, lambda v: IntImm("int32", 3) if v is y else None)
    assert r2.a.b.value == 3 and r2.b is x
    assert substitute(e, {z: x}) is e
    r3 = substitute(e, {y: 2})
    assert isinstance(r3.a.b, IntImm) and r3.a.b.value == 2


def test_substitute_rejects_dtype_change_and_cast_variant_casts():
    x = Var("x", "int32")
    w = Var("w", "int64")
    with pytest.raises(TypeError, match="'x' of dtype int32"):
        substitute(x + 1, {x: w})
    r = substitute_with_dtype_cast(x + 1, {x: w})
    assert isinstance(r.a, Cast) and r.a.dtype == "int32" and r.a.value is w


def test_substitute_statement_keeps_definition_points():
    func, n = _matmul()
    t = Var("t", "int32")
    new = substitute(func.body, {n["i"]: t})
    assert new.loop_var is n["i"]
    assert new.body.body.body.iter_values[0] is t
    # block iter var: uses replaced, the IterVar definition kept
    blk = substitute(n["block"], {n["vi"]: t})
    assert blk.iter_vars[0].var is n["vi"]
    assert blk.body.indices[0] is t and blk.reads[0].region[0].min is t


def test_substitute_let_and_for_loop_var_not_replaced_at_definition():
    i, m = Var("i", "int32"), Var("m", "int32")
    A = decl_buffer((16,), "int32", "A")
    loop = For(i, 0, m, ForKind.SERIAL, BufferStore(A, i, [i]))
    new = substitute(loop, {i: IntImm("int32", 0), m: IntImm("int32", 8)})
    assert new.loop_var is i and new.extent.value == 8
    assert new.body.value.value == 0
    let = LetStmt(i, 5, Evaluate(i))
    assert substitute(let, {i: m}).var is i


def test_substitute_remaps_buffer_data_var():
    A = decl_buffer((4,), "float32", "A")
    new_data = Var("A2", A.data.type_annotation)
    i = Var("i", "int32")
    s = BufferStore(A, A[i], [i])
    new = substitute(s, {A.data: new_data})
    assert new.buffer.data is new_data and new.value.buffer is new.buffer
    assert new.buffer.shape[0] is A.shape[0] and new.buffer.name == "A"


def test_comm_reducer_call_substitutes():
    x, y = Var("x", "float32"), Var("y", "float32")
    red = CommReducer([x], [y], [x + y], [FloatImm("float32", 0.0)])
    a, b = Var("a", "float32"), Var("b", "float32")
    (res,) = red([a], [b])
    assert isinstance(res, Add) and res.a is a and res.b is b


# ------------------------------------------------------------------------------ ir_transform
def test_ir_transform_postorder_and_only_enable():
    func, _ = _matmul()

    def unroll(node):
        return node.with_changes(kind=ForKind.UNROLLED)

    new = ir_transform(func.body, None, unroll, ["tir.For"])
    loops = []
    post_order_visit(new, lambda n: loops.append(n.kind) if isinstance(n, For) else None)
    assert loops == [ForKind.UNROLLED] * 3


def test_ir_transform_preorder_stops_and_expressions_are_transformed():
    x = Var("x", "int32")
    s = SeqStmt([Evaluate(x + 1), Evaluate(x * 2)])
    new = ir_transform(s, None, lambda n: Sub(n.a, n.b) if isinstance(n, Add) else None)
    assert isinstance(new.seq[0].value, Sub) and new.seq[1] is s.seq[1]
    calls = []

    def pre(n):
        calls.append(type(n).__name__)
        return Evaluate(0) if isinstance(n, Evaluate) else None

    out = ir_transform(s, pre, None)
    assert calls == ["SeqStmt", "Evaluate", "Evaluate"]  # children of replaced nodes not visited
    assert all(isinstance(e.value, IntImm) for e in out.seq)
    assert ir_transform(s, None, None, [Add]) is s


# -------------------------------------------------------------------------------- renew_defs
def test_renew_defs_makes_fresh_definitions():
    from tirkit.ir.structural import structural_equal

    func, n = _matmul()
    new = renew_defs(func)
    assert all(p is not q for p, q in zip(new.params, func.params))
    old_buffers = list(func.buffer_map.values())
    for b, old in zip(new.buffer_map.values(), old_buffers):
        assert b is not old and b.data is not old.data and b.name == old.name
    assert new.body.loop_var is not n["i"]
    block = new.body.body.body.body.block
    assert block.iter_vars[0].var is not n["vi"]
    assert block.body.buffer is new.buffer_map[new.params[2]]
    assert verify_well_formed(new)
    assert structural_equal(new, func)
    seen = set()
    post_order_visit(func, lambda v: seen.add(id(v)) if isinstance(v, Var) else None)
    post_order_visit(new, lambda v: seen.discard(id(v)) if isinstance(v, Var) else None)
    assert len(seen) == 6  # i, j, k, vi, vj, vk all renewed; nothing shared


# ------------------------------------------------------------------------------- analyses
def test_undefined_vars_in_first_use_order():
    x, y, z = Var("x", "int32"), Var("y", "int32"), Var("z", "int32")
    assert undefined_vars(y * x + x + z) == [y, x, z]
    assert undefined_vars(Let(x, y, x + z)) == [y, z]
    assert undefined_vars(y + x, defs=[y]) == [x]


def test_undefined_vars_of_statements():
    func, n = _matmul()
    m = Var("m", "int32")
    loop = For(n["i"], 0, m, ForKind.SERIAL, Evaluate(n["i"] + n["j"]))
    assert undefined_vars(loop) == [m, n["j"]]
    # buffer accesses use the buffers' data vars (TVM's HandleUse(Buffer))
    assert undefined_vars(func.body) == [n["C"].data, n["A"].data, n["B"].data]
    assert undefined_vars(func.body, defs=[b.data for b in func.buffer_map.values()]) == []


def test_verify_well_formed_accepts_matmul_and_module():
    func, _ = _matmul()
    assert verify_well_formed(func)
    assert verify_well_formed(IRModule({"main": func}))
    assert verify_ssa(func)


def test_verify_well_formed_reports_undefined_var_with_path():
    A = decl_buffer((16,), "float32", "A")
    i, k = Var("i", "int32"), Var("k", "int32")
    func = PrimFunc([A], For(i, 0, 16, ForKind.SERIAL, BufferStore(A, A[k], [i])))
    with pytest.raises(ValueError) as err:
        verify_well_formed(func)
    msg = str(err.value)
    assert "variable 'k' is used but not defined" in msg
    assert "For(i) > BufferStore(A)" in msg
    assert verify_well_formed(func, assert_mode=False) is False


def test_verify_well_formed_block_iter_var_outside_its_block():
    func, n = _matmul()
    body = SeqStmt([func.body, Evaluate(n["vi"] + 1)])
    bad = func.with_body(body)
    with pytest.raises(ValueError, match="block iter var 'vi' of block 'C' is used outside"):
        verify_well_formed(bad)


def test_verify_well_formed_and_ssa_catch_double_definition():
    i = Var("i", "int32")
    A = decl_buffer((4,), "int32", "A")
    loop = For(i, 0, 4, ForKind.SERIAL, BufferStore(A, i, [i]))
    func = PrimFunc([A], SeqStmt([loop, loop.with_changes(extent=2)]))
    assert verify_ssa(func) is False
    with pytest.raises(ValueError, match="'i' is defined more than once"):
        verify_well_formed(func)
    nested = PrimFunc([A], For(i, 0, 4, ForKind.SERIAL, loop))
    with pytest.raises(ValueError, match="defined again inside its own scope"):
        verify_well_formed(nested)


def test_verify_well_formed_buffer_and_thread_scopes():
    n = Var("n", "int32")
    A = decl_buffer((n,), "float32", "A")
    i = Var("i", "int32")
    ok = PrimFunc([A], For(i, 0, n, ForKind.SERIAL, BufferStore(A, 1.0, [i])))
    assert verify_well_formed(ok)  # n is bound by buffer_map
    data = Var("B", A.data.type_annotation)
    B = decl_buffer((4,), "float32", "B", data=data)
    alloc = Allocate(data, "float32", [4], True, BufferStore(B, 0.0, [0]))
    assert verify_well_formed(PrimFunc([A], alloc))
    with pytest.raises(ValueError, match="buffer 'B' is used but neither declared"):
        verify_well_formed(PrimFunc([A], BufferStore(B, 0.0, [0])))
    tx = IterVar(None, Var("threadIdx.x", "int32"), IterVarType.ThreadIndex, "threadIdx.x")
    launch = AttrStmt(tx, "thread_extent", 4, BufferStore(A, 0.0, [tx.var]))
    assert verify_well_formed(PrimFunc([A], SeqStmt([launch, launch])))


def test_describe_labels():
    func, n = _matmul()
    assert describe(func.body) == "For(i)"
    assert describe(n["block"]) == "Block(C)" and describe(Evaluate(0)) == "Evaluate"


def test_expr_deep_equal():
    x, y = Var("x", "int32"), Var("y", "int32")
    assert expr_deep_equal(x + 1, x + 1)
    assert not expr_deep_equal(x + 1, y + 1)
    assert not expr_deep_equal(x + 1, x + 2)
    assert not expr_deep_equal(IntImm("int32", 1), IntImm("int64", 1))
    assert not expr_deep_equal(Var("x", "int32"), x)  # no var mapping
    A = decl_buffer((4,), "float32", "A")
    assert expr_deep_equal(A[x], A[x]) and not expr_deep_equal(A[x], A[y])


def _seed_kernels():
    import api_kernels  # examples/, on sys.path through tests/conftest.py

    return [api_kernels.matmul, api_kernels.softmax, api_kernels.conv2d_nchw]


@pytest.mark.parametrize("build", _seed_kernels(), ids=lambda f: f.__name__)
def test_seed_kernels_are_well_formed_and_survive_identity_and_renewal(build):
    from tirkit.ir.structural import structural_equal

    func = build()
    assert verify_well_formed(func) and verify_ssa(func)
    assert StmtExprMutator()(func.body) is func.body
    renewed = renew_defs(func)
    assert verify_well_formed(renewed) and structural_equal(renewed, func)
    assert undefined_vars(func.body, defs=[b.data for b in func.buffer_map.values()]) == []


_VIEWS = '''from tvm.script import tir as T


@T.prim_func
def bind_view(A: T.Buffer((256, 256), "int32")):
    for tile_i, tile_j in T.grid(16, 16):
        elem_offset = T.int32()
        B = T.Buffer([16, 16], "int32", elem_offset=elem_offset)
        BEFORE
        T.attr([B, A], "buffer_bind_scope", T.tvm_tuple(tile_i * 16, 16, tile_j * 16, 16,
                                                        dtype="handle"))
        for i, j in T.grid(16, 16):
            B[i, j] = elem_offset


@T.prim_func
def realize_fresh():
    A = T.Buffer(256, "int32")
    T.realize(A[0:16], "global")
    for i in range(16):
        A[i] = 1
'''


def test_verify_well_formed_buffer_bind_scope_and_realize_define_buffers():
    """As TVM's TIRVisitorWithPath (units of TVM v0.20's test_tir_analysis_verify_well_formed.py
    that tirkit refused): ``T.attr([view, A], "buffer_bind_scope", ...)`` defines the view, its
    data var and its symbolic ``elem_offset`` for the attribute's body, and ``T.realize`` of a
    buffer whose data var is not yet defined allocates it. Outside the attribute the view is
    undefined (before it)."""
    from tirkit.ir.structural import structural_equal
    from tirkit.lang import from_source, parse_file
    from tirkit.printer import script

    units = parse_file(_VIEWS.replace("        BEFORE\n", ""), "views.py")
    assert [u.diagnostics for u in units] == [[], []]
    for u in units:
        assert verify_well_formed(u.ir)
        assert structural_equal(from_source(script(u.ir)), u.ir)
    (bad, _) = parse_file(_VIEWS.replace("BEFORE", "B[0, 0] = 1"), "views.py")
    assert [d.code for d in bad.diagnostics] == ["well-formed"]
    assert "buffer 'B' is used but neither declared" in bad.diagnostics[0].message
