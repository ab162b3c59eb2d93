"""Schedules as editor actions (issue 13): the TensorIR primitives offered as code actions on the
loop or block under the cursor, applied through :class:`tirkit.schedule.Schedule` and printed
back with the printer (comments kept, the rest of the file byte-identical), each step appended
to a replayable schedule script beside the file.

:func:`offered` lists the actions for one file position as plain data (``title``,
``primitive``, ``unit``, ``line``, ``args``, ``ask``: the argument the editor must ask for,
e.g. ``"factors"`` for split). :func:`apply_action` re-parses the current text, finds the
loop/block again by its line, runs the primitive and returns the new text and the trace lines;
an illegal step raises :class:`ActionError` carrying the ScheduleError's message, and nothing
is edited. No TVM counterpart (TVM has no editor); the primitives are TVM's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable, cast

from tirkit import tir
from tirkit.ir import IRModule
from tirkit.ir.span import Span

__all__ = ["ActionError", "Applied", "offered", "apply_action", "side_file_text",
           "PRIMITIVES"]


class ActionError(Exception):
    """The action cannot be applied (an illegal schedule step, a stale position, bad input)."""


@dataclass
class Applied:
    """A successful action: the file's new text and the trace lines (Python) of the step."""

    text: str
    trace: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ finding loops and blocks
def _walk(stmt: Any, out: list[Any], loops: tuple = ()) -> None:
    """Every For and Block under ``stmt`` with the loops around it, in source order."""
    if isinstance(stmt, tir.For):
        out.append((stmt, loops))
        _walk(stmt.body, out, loops + (stmt,))
    elif isinstance(stmt, tir.BlockRealize):
        _walk(stmt.block, out, loops)
    elif isinstance(stmt, tir.Block):
        out.append((stmt, loops))
        if stmt.init is not None:
            _walk(stmt.init, out, loops)
        _walk(stmt.body, out, loops)
    elif isinstance(stmt, tir.SeqStmt):
        for s in stmt.seq:
            _walk(s, out, loops)
    elif getattr(stmt, "body", None) is not None and isinstance(stmt.body, tir.Stmt):
        _walk(stmt.body, out, loops)


def _nodes(func: tir.PrimFunc) -> list[tuple[Any, tuple]]:
    out: list[tuple[Any, tuple]] = []
    _walk(func.body, out)
    return [(n, ls) for n, ls in out if n.span is not None and
            not (isinstance(n, tir.Block) and n.name_hint == "root")]


def _at_line(func: tir.PrimFunc, line: int) -> list[Any]:
    """The Fors and Blocks whose statements start on file ``line`` (1-based): several loops
    when the line is a ``T.grid``."""
    return [n for n, _ in _nodes(func) if n.span.line == line]


def _loop_at(func: tir.PrimFunc, line: int, name: str) -> tir.For:
    loop = next((n for n in _at_line(func, line) if isinstance(n, tir.For) and
                 n.loop_var.name == name), None)
    if loop is None:
        raise ActionError(f"no loop {name!r} on line {line} any more")
    return loop


def _name(node: Any) -> str:
    return node.loop_var.name if isinstance(node, tir.For) else node.name_hint


def _blocks(func: tir.PrimFunc) -> list[tir.Block]:
    return [n for n, _ in _nodes(func) if isinstance(n, tir.Block)]


# ------------------------------------------------------------------ what is offered
def _loop_actions(func: tir.PrimFunc, loop: tir.For) -> list[dict[str, Any]]:
    name = loop.loop_var.name
    out = [{"title": f"Schedule: split loop {name}\u2026", "primitive": "split",
            "ask": "factors"}]
    inner = loop.body if isinstance(loop.body, tir.For) else None
    if inner is not None:
        out.append({"title": f"Schedule: reorder (move {name} inside {inner.loop_var.name})",
                    "primitive": "reorder"})
        out.append({"title": f"Schedule: fuse {name} and {inner.loop_var.name}",
                    "primitive": "fuse"})
    for prim in ("parallel", "vectorize", "unroll"):
        out.append({"title": f"Schedule: {prim} loop {name}", "primitive": prim})
    return out


def _block_actions(func: tir.PrimFunc, block: tir.Block, loops: tuple,
                   stepped: bool = False) -> list[dict[str, Any]]:
    name = block.name_hint
    out: list[dict[str, Any]] = []
    if block.init is not None:
        for lp in loops:
            out.append({"title": f"Schedule: decompose_reduction of {name} at loop "
                        f"{lp.loop_var.name}", "primitive": "decompose_reduction",
                        "args": {"loop_line": lp.span.line, "loop": lp.loop_var.name}})
    for i, region in enumerate(block.reads):
        out.append({"title": f"Schedule: cache_read {region.buffer.name} of {name}",
                    "primitive": "cache_read", "args": {"index": i}})
    for i, region in enumerate(block.writes):
        out.append({"title": f"Schedule: cache_write {region.buffer.name} of {name}",
                    "primitive": "cache_write", "args": {"index": i}})
    mine = set(id(lp) for lp in loops)
    for other, other_loops in _nodes(func):
        if not isinstance(other, tir.Block) or other is block:
            continue
        for lp in (lp for n, lp in enumerate(other_loops) if id(lp) not in mine and
                   not (stepped and _near_a_step(lp, other_loops[:n]))):
            for prim in ("compute_at", "reverse_compute_at"):
                out.append({"title": f"Schedule: {prim} {name} to loop {lp.loop_var.name} "
                            f"(of block {other.name_hint})", "primitive": prim,
                            "args": {"loop_line": lp.span.line,
                                     "loop": lp.loop_var.name}})
    return out


def _near_a_step(node: Any, loops: tuple) -> bool:
    """Whether ``node`` is, is inside or encloses a loop whose step is not 1 (TVM 0.27
    ``For.step``), which schedule primitives refuse."""
    found: list[Any] = [lp for lp in loops if not lp.has_trivial_step()]
    tir.stmt_functor.post_order_visit(node, lambda n: found.append(n) if isinstance(
        n, tir.For) and not n.has_trivial_step() else None)
    return bool(found)


def offered(func: tir.PrimFunc, unit: str, line: int) -> list[dict[str, Any]]:
    """The schedule actions for the loop or block starting on file ``line`` of ``func`` (the
    unit's IR, spans in file lines); empty when no loop or block starts there, and for a
    function without a root block (loops and statements only: nothing to schedule, and
    ``Schedule`` refuses it)."""
    if not isinstance(func.body, tir.BlockRealize):
        return []
    out = []
    stepped = _near_a_step(func.body, ())
    for node in _at_line(func, line):
        loops = next(ls for n, ls in _nodes(func) if n is node)
        if stepped and _near_a_step(node, loops):
            continue  # no primitive applies (LoopStepError): none is offered
        if isinstance(node, tir.For):
            actions = _loop_actions(func, node)
        else:
            actions = _block_actions(func, node, loops, stepped)
        for a in actions:
            a.update(unit=unit, line=line, target=_name(node))
            a.setdefault("args", {})
            a.setdefault("ask", None)
        out += actions
    return out


# ------------------------------------------------------------------ applying
def _loop_rv(sch: Any, func: tir.PrimFunc, line: int, name: str) -> Any:
    """The LoopRV of loop ``name`` starting on ``line`` (found through a block under it)."""
    _loop_at(func, line, name)
    for block in _blocks(func):
        for rv in sch.get_loops(sch.get_block(block.name_hint)):
            loop = sch.get(rv)
            if loop.span is not None and loop.span.line == line and \
                    loop.loop_var.name == name:
                return rv
    raise ActionError(f"no block under loop {name!r} (line {line})")


def _inner(sch: Any, func: tir.PrimFunc, a: dict[str, Any]) -> tuple[Any, Any]:
    loop = _loop_at(func, a["line"], a["target"])
    if not isinstance(loop.body, tir.For):
        raise ActionError(f"loop {a['target']!r} has no loop directly inside it")
    inner = loop.body
    return (_loop_rv(sch, func, a["line"], a["target"]),
            _loop_rv(sch, func, cast(Span, inner.span).line, inner.loop_var.name))


def _here(sch: Any, func: tir.PrimFunc, a: dict[str, Any]) -> Any:
    return _loop_rv(sch, func, a["line"], a["target"])


def _there(sch: Any, func: tir.PrimFunc, a: dict[str, Any]) -> Any:
    return _loop_rv(sch, func, a["loop_line"], a["loop"])


def _factors(args: dict[str, Any]) -> list[Any]:
    raw = args.get("factors")
    if isinstance(raw, str):
        raw = [p.strip() for p in raw.replace("[", "").replace("]", "").split(",")]
    if not raw:
        raise ActionError("split needs factors, e.g. [None, 8]")
    out: list[int | None] = []
    for part in raw:
        if part is None or str(part).strip() in ("None", "none", "-1", "_", ""):
            out.append(None)
        elif str(part).strip().lstrip("-").isdigit():
            out.append(int(part))
        else:
            raise ActionError(f"split factor {part!r} is not an integer or None")
    return out


Prim = Callable[[Any, tir.PrimFunc, dict], Any]
PRIMITIVES: dict[str, Prim] = {
    "split": lambda s, f, a: s.split(_here(s, f, a), _factors(a)),
    "reorder": lambda s, f, a: s.reorder(*reversed(_inner(s, f, a))),
    "fuse": lambda s, f, a: s.fuse(*_inner(s, f, a)),
    "parallel": lambda s, f, a: s.parallel(_here(s, f, a)),
    "vectorize": lambda s, f, a: s.vectorize(_here(s, f, a)),
    "unroll": lambda s, f, a: s.unroll(_here(s, f, a)),
    "decompose_reduction": lambda s, f, a: s.decompose_reduction(
        s.get_block(a["target"]), _there(s, f, a)),
    "compute_at": lambda s, f, a: s.compute_at(s.get_block(a["target"]), _there(s, f, a)),
    "reverse_compute_at": lambda s, f, a: s.reverse_compute_at(
        s.get_block(a["target"]), _there(s, f, a)),
    "cache_read": lambda s, f, a: s.cache_read(s.get_block(a["target"]), int(a["index"]),
                                               a.get("scope", "global")),
    "cache_write": lambda s, f, a: s.cache_write(s.get_block(a["target"]), int(a["index"]),
                                                 a.get("scope", "global")),
}


def _unit(text: str, path: str, name: str) -> tuple[Any, Any, Any]:
    """(host file, host unit, parsed unit) of the unit called ``name``."""
    from tirkit.lang.entry import parse_file  # pylint: disable=import-outside-toplevel
    from tirkit.lang.host import HostFile  # pylint: disable=import-outside-toplevel

    host = HostFile.parse(text, path)
    parsed = {u.span: u for u in parse_file(text, path) if u.kind != "file"}
    for unit in host.units:
        p = parsed.get(unit.span)
        if p is not None and p.name == name:
            if not isinstance(p.ir, tir.PrimFunc):
                raise ActionError(f"{name} has errors or is not a @T.prim_func; fix it first")
            return host, unit, p
    raise ActionError(f"no @T.prim_func {name!r} in the file any more")


def _lost_comments(before: str, after: str) -> list[str]:
    import re  # pylint: disable=import-outside-toplevel

    def comments(t: str) -> list[str]:
        return [c.strip() for c in re.findall(r"#[^\n]*", t)]
    have = comments(after)
    return [c for c in comments(before) if c not in have]


def apply_action(text: str, path: str, action: dict[str, Any]) -> Applied:
    """Apply one offered action (with its asked argument filled in ``action["args"]``).

    Raises:
        ActionError: the step is illegal (the ScheduleError's message), the loop/block is no
            longer where it was, or an argument is bad; nothing is changed then.
    """
    from tirkit.cli.tirfmt_format import Mode, format_unit  # pylint: disable=C0415
    from tirkit.schedule import Schedule, ScheduleError  # pylint: disable=C0415

    prim = PRIMITIVES.get(action.get("primitive", ""))
    if prim is None:
        raise ActionError(f"unknown schedule primitive {action.get('primitive')!r}")
    host, unit, parsed = _unit(text, path, action["unit"])
    func = parsed.ir
    symbol = str(func.attrs.get("global_symbol", parsed.name)) if func.attrs else parsed.name
    try:
        sch = Schedule(IRModule({symbol: func}))
    except TypeError as err:  # no root block (an action offered for an older text)
        raise ActionError(str(err)) from None
    args = {**action.get("args", {}), "line": action["line"], "target": action["target"]}
    try:
        prim(sch, func, args)
    except ScheduleError as err:
        raise ActionError(str(err)) from None
    except (TypeError, ValueError, KeyError) as err:
        raise ActionError(f"{action['primitive']}: {err}") from None
    shim = SimpleNamespace(ir=sch.mod[symbol], comments=parsed.comments,
                           comments_with=parsed.comments_with)
    new_unit = format_unit(host, unit, cast(Any, shim), Mode())  # (the fields it reads)
    lost = _lost_comments(unit.text, new_unit)
    if lost:
        raise ActionError(f"{action['primitive']} would drop the comment(s) {lost}; "
                          "not applied")
    return Applied(host.replace_units({unit: new_unit}), list(sch.trace.as_python()))


def side_file_text(existing: str | None, source_name: str, action: dict[str, Any],
                   trace: list[str]) -> str:
    """What to append to the schedule script beside the file (the whole header when
    ``existing`` is None): a ``schedule(sch)`` function that replays every applied action on
    the kernels as they were before the first one (``tirc ORIGINAL --schedule THIS``)."""
    head = "" if existing is not None else (
        f'"""Schedule steps applied to {source_name} by editor code actions (tirls), in order.\n\n'
        f"Replay them on the kernels as they were before the first step:\n"
        f"    tirc {source_name} --schedule THIS_FILE --emit scheduled\n"
        '"""\n\n\ndef schedule(sch):\n')
    body = [f"    # {action['title'].removeprefix('Schedule: ').rstrip(chr(0x2026))}"]
    body += ["    " + ln for ln in trace]
    sep = "" if existing is None or existing.endswith("\n") else "\n"
    return sep + head + "\n".join(body) + "\n"
