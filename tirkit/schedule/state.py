"""The schedule state: the IRModule being scheduled and the sref tree over its blocks and loops
(mirrors ``tvm.tir.ScheduleState`` and ``tvm.tir.schedule.StmtSRef``; C++ ``state.cc``).

IR nodes are immutable, so a primitive builds the new statement for one block/loop and calls
:meth:`ScheduleState.replace`, which copies the path from that statement up to the function's
root block (copy-on-write, as TVM's ``Replace``) and re-indexes the function. An sref is a
stable handle: its ``stmt`` follows the block/loop through replacements (a loop keeps its sref
while its loop var is kept, a block while it is the same object or listed in
``block_sref_reuse``); srefs of removed statements are invalidated (``stmt`` becomes ``None``).
"""
from __future__ import annotations

from typing import Any, Iterator, cast

from ..ir.module import IRModule
from ..ir.node import map_fields
from ..tir.function import PrimFunc
from ..tir.stmt import Block, BlockRealize, For, SeqStmt, Stmt
from .block_scope import BlockScope

#: Filled by ``analysis`` when it is imported (it imports this module, not the other way round):
#: ``get_child_blocks(state, sref)`` and ``compute_block_info(state, block_sref)``.
ANALYSES: dict[str, Any] = {}


class StmtSRef:
    """A stable reference to a block or loop of the scheduled IR (mirrors
    ``tvm.tir.schedule.StmtSRef``): ``stmt`` (the current Block/For, ``None`` once removed),
    ``parent`` (the sref of the enclosing block/loop, ``None`` at a function's root block) and
    ``seq_index`` (its position in the parent's ``SeqStmt``, ``-1`` otherwise)."""

    __slots__ = ("stmt", "parent", "seq_index", "__weakref__")

    def __init__(self) -> None:
        self.stmt: Any = None
        self.parent: StmtSRef | None = None
        self.seq_index = -1

    def __repr__(self) -> str:
        s = self.stmt
        if isinstance(s, Block):
            return f"StmtSRef(block {s.name_hint!r})"
        if isinstance(s, For):
            return f"StmtSRef(loop {s.loop_var.name_hint!r})"
        return "StmtSRef(<expired>)"

    @property
    def is_block(self) -> bool:
        """Whether the sref points at a Block."""
        return isinstance(self.stmt, Block)

    @property
    def is_loop(self) -> bool:
        """Whether the sref points at a For."""
        return isinstance(self.stmt, For)

    def ancestors(self) -> Iterator["StmtSRef"]:
        """The enclosing srefs, innermost first."""
        p = self.parent
        while p is not None:
            yield p
            p = p.parent


def _swap(stmt: Any, old: Any, new: Any) -> Any:
    """``stmt`` with the child ``old`` (found by identity, without entering other blocks/loops)
    replaced by ``new`` (``None`` removes it from a sequence)."""
    if stmt is old:
        return new
    if isinstance(stmt, BlockRealize):
        return stmt.with_changes(block=new) if stmt.block is old else stmt
    if isinstance(stmt, (For, Block)):
        return stmt
    if isinstance(stmt, SeqStmt):
        items = [_swap(s, old, new) for s in stmt.seq]
        if all(a is b for a, b in zip(items, stmt.seq)):
            return stmt
        return SeqStmt.flatten(*[s for s in items if s is not None])
    return map_fields(stmt, lambda v: _swap(v, old, new) if isinstance(v, Stmt) else v)


def replace_child(parent: Any, old: Stmt, new: Stmt | None) -> Stmt:
    """``parent`` (a For or Block) with its descendant ``old`` replaced by ``new`` (no TVM
    counterpart; part of ``ScheduleState::Replace``)."""
    return parent.with_changes(body=_swap(parent.body, old, new))


def _stmt_children(stmt: Any) -> Iterator[Any]:
    from ..tir.stmt_functor import STMT_CHILDREN  # pylint: disable=import-outside-toplevel

    for name, kind in STMT_CHILDREN.get(type(stmt), ()):
        value = getattr(stmt, name)
        if kind == "stmt" and value is not None:
            yield value
        elif kind == "stmts":
            yield from value


class ScheduleState:
    """The module being scheduled and its sref tree (mirrors ``tvm.tir.ScheduleState``).

    ``mod`` is the current IRModule; :meth:`get_sref` finds the sref of a Block/For;
    :meth:`get_block_scope` gives a scope block's :class:`BlockScope`; the cached flags
    ``affine_binding``, ``region_cover`` and ``stage_pipeline`` of a block come from
    :meth:`block_info`.

    Raises:
        TypeError: when a PrimFunc's body is not a BlockRealize of a root block.
    """

    def __init__(self, mod: IRModule, debug_mask: int = 0) -> None:
        self.mod = mod
        self.debug_mask = debug_mask
        self._refs: dict[str, dict[int, StmtSRef]] = {}      # func -> id(stmt) -> sref
        self._loopvars: dict[str, dict[int, StmtSRef]] = {}  # func -> id(loop var) -> sref
        self.roots: dict[str, StmtSRef] = {}
        self._cache: dict[Any, Any] = {}
        for gv, func in mod.functions.items():
            if isinstance(func, PrimFunc):
                if not isinstance(func.body, BlockRealize):
                    raise TypeError(f"PrimFunc {gv.name_hint!r}: the body is not a root block "
                                    "(parse it from TVMScript or wrap it in T.block(\"root\"))")
                self._index(gv.name_hint, {}, {})

    # -- queries --------------------------------------------------------------------------
    def get_sref(self, stmt: Any) -> StmtSRef | None:
        """The sref of a Block or For of the current module, or ``None``
        (``ScheduleState.get_sref``)."""
        for refs in self._refs.values():
            sref = refs.get(id(stmt))
            if sref is not None and sref.stmt is stmt:
                return sref
        return None

    def stepped_loops(self) -> list[StmtSRef]:
        """The srefs of the loops whose step is not 1 (TVM 0.27 ``!HasTrivialStep()``), which
        no primitive works on (no TVM counterpart)."""
        return [sref for refs in self._refs.values() for sref in refs.values()
                if isinstance(sref.stmt, For) and not sref.stmt.has_trivial_step()]

    def func_of(self, sref: StmtSRef) -> str:
        """Name of the function holding ``sref``."""
        root = sref
        while root.parent is not None:
            root = root.parent
        for name, r in self.roots.items():
            if r is root:
                return name
        raise ValueError(f"{sref!r} is not in the scheduled module")

    def srefs(self, func_name: str) -> list[StmtSRef]:
        """Every live sref of a function."""
        return list(self._refs.get(func_name, {}).values())

    def get_block_scope(self, scope_root: StmtSRef) -> BlockScope:
        """The dependencies among the child blocks of ``scope_root``
        (``ScheduleState.get_block_scope``)."""
        key = ("scope", scope_root)
        if key not in self._cache:
            self._cache[key] = BlockScope(ANALYSES["get_child_blocks"](self, scope_root))
        return self._cache[key]

    def block_info(self, block_sref: StmtSRef) -> dict[str, bool]:
        """The cached flags of a block: ``affine_binding``, ``region_cover``, ``stage_pipeline``
        (TVM's ``BlockInfo``)."""
        key = ("info", block_sref)
        if key not in self._cache:
            self._cache[key] = ANALYSES["compute_block_info"](self, block_sref)
        return self._cache[key]

    def is_affine_block_binding(self, block_sref: StmtSRef) -> bool:
        """``ScheduleState._is_affine_block_binding``."""
        return self.block_info(block_sref)["affine_binding"]

    # -- replacement ----------------------------------------------------------------------
    def replace(self, src_sref: StmtSRef, tgt_stmt: Stmt | None,
                block_sref_reuse: dict[Block, Block] | None = None) -> None:
        """Replace the statement of ``src_sref`` by ``tgt_stmt`` and re-index
        (``ScheduleState.replace``). ``block_sref_reuse`` maps old blocks to the new blocks that
        keep their srefs; a replaced block always keeps its own sref when ``tgt_stmt`` is a
        Block."""
        reuse: dict[int, StmtSRef] = {}
        keep: list[Any] = []
        for old_block, new_block in (block_sref_reuse or {}).items():
            sref = self.get_sref(old_block)
            if sref is not None:
                reuse[id(new_block)] = sref
                keep.append(new_block)
        if isinstance(src_sref.stmt, Block) and isinstance(tgt_stmt, Block):
            reuse[id(tgt_stmt)] = src_sref
        carry: dict[int, StmtSRef] = {}
        old: Any = src_sref.stmt
        new: Any = tgt_stmt
        node = src_sref.parent
        while node is not None:
            parent_new = replace_child(node.stmt, old, new)
            carry[id(parent_new)] = node
            keep.append(parent_new)
            old, new = node.stmt, parent_new
            node = node.parent
        name = self.func_of(src_sref)
        func = cast(PrimFunc, self.mod[name])  # (a schedule's functions are PrimFuncs)
        new_func = func.with_body(func.body.with_changes(block=new))
        old_mod = self.mod
        self.mod = old_mod.with_function(name, new_func)
        self._index(name, carry, reuse)
        del old_mod, keep

    def _index(self, name: str, carry: dict[int, StmtSRef], reuse: dict[int, StmtSRef]) -> None:
        old_refs = self._refs.get(name, {})
        old_vars = self._loopvars.get(name, {})
        refs: dict[int, StmtSRef] = {}
        loopvars: dict[int, StmtSRef] = {}
        used: set[int] = set()

        def pick(stmt: Any) -> StmtSRef:
            sref = carry.get(id(stmt)) or reuse.get(id(stmt))
            if sref is None:
                cand = old_refs.get(id(stmt))
                if cand is not None and cand.stmt is stmt:
                    sref = cand
            if sref is None and isinstance(stmt, For):
                sref = old_vars.get(id(stmt.loop_var))
            if sref is None or id(sref) in used:
                sref = StmtSRef()
            used.add(id(sref))
            return sref

        def visit(stmt: Any, parent: StmtSRef | None, seq_index: int) -> None:
            if isinstance(stmt, BlockRealize):
                visit(stmt.block, parent, seq_index)
                return
            if isinstance(stmt, (For, Block)):
                sref = pick(stmt)
                refs[id(stmt)] = sref
                if isinstance(stmt, For):
                    loopvars[id(stmt.loop_var)] = sref
                new_nodes.append((sref, stmt, parent, seq_index))
                visit(stmt.body, sref, -1)
                return
            if isinstance(stmt, SeqStmt):
                for i, s in enumerate(stmt.seq):
                    visit(s, parent, i)
                return
            for child in _stmt_children(stmt):
                visit(child, parent, -1)

        new_nodes: list[tuple[StmtSRef, Any, Any, int]] = []
        visit(cast(PrimFunc, self.mod[name]).body, None, -1)
        for sref, stmt, parent, seq_index in new_nodes:
            sref.stmt, sref.parent, sref.seq_index = stmt, parent, seq_index
        live = {id(s) for s in refs.values()}
        for sref in old_refs.values():
            if id(sref) not in live:
                sref.stmt, sref.parent, sref.seq_index = None, None, -1
        self._refs[name], self._loopvars[name] = refs, loopvars
        self.roots[name] = new_nodes[0][0]
        self._cache.clear()

    # -- snapshots (no half-applied primitive) ---------------------------------------------
    def snapshot(self) -> Any:
        """Everything :meth:`restore` needs to undo the primitives applied after this call."""
        fields = {}
        for refs in self._refs.values():
            for s in refs.values():
                fields[s] = (s.stmt, s.parent, s.seq_index)
        return (self.mod, dict(self._refs), dict(self._loopvars), dict(self.roots), fields)

    def restore(self, snap: Any) -> None:
        """Go back to the state :meth:`snapshot` saw."""
        self.mod, self._refs, self._loopvars, self.roots, fields = snap
        for sref, (stmt, parent, seq_index) in fields.items():
            sref.stmt, sref.parent, sref.seq_index = stmt, parent, seq_index
        self._cache.clear()
