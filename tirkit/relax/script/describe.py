"""Hover text for Relax objects (the language server shows it; no TVM counterpart): a var's
struct info and how it is bound, a function's signature."""
from __future__ import annotations

from typing import Any

from .. import expr as rx


def _script(node: Any, **config: Any) -> str:
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    try:
        return script(node, **config)
    except Exception:  # pylint: disable=broad-except
        return repr(node)


def var_markdown(var: rx.Var) -> str:
    """``x: R.Tensor((n, 4), dtype="float32")`` and what kind of var it is."""
    sinfo = _script(var.struct_info_, int_dtype="int64") if var.struct_info_ is not None else "R.Object"
    kind = "dataflow var (local to its `R.dataflow()` block)" \
        if isinstance(var, rx.DataflowVar) else "Relax var"
    lines = [f"```python\n{var.name_hint}: {sinfo}\n```", "", f"- {kind}"]
    shape = getattr(var.struct_info_, "shape", None)
    if shape is not None:
        lines.append(f"- rank {len(shape)}, dtype `{getattr(var.struct_info_, 'dtype')}`")
    return "\n".join(lines)


def function_markdown(name: str, func: Any) -> str:
    """The signature of a module function (a PrimFunc a ``call_tir`` targets, or a Relax
    function): its ``def`` line and, for a PrimFunc, its buffers."""
    text = _script(func, binding_name=name)
    header = [ln.strip() for ln in text.split("\n") if ln.strip().startswith("def ")]
    lines = [f"```python\n{header[0] if header else name}\n```", ""]
    buffer_map = getattr(func, "buffer_map", None)
    if buffer_map:
        lines.append(f"- PrimFunc `{name}` (destination-passing: outputs are its last buffers)")
        for buf in buffer_map.values():
            shape = ", ".join(_script(d) for d in buf.shape)
            lines.append(f"- `{buf.name}`: `{buf.dtype}[{shape}]`")
    elif isinstance(func, rx.Function):
        ret = _script(func.ret_struct_info, int_dtype="int64")
        lines.append(f"- Relax function `{name}` returning `{ret}`")
    return "\n".join(lines)


def markdown(value: Any) -> str | None:
    """Hover text of a Relax object, or ``None``."""
    if isinstance(value, rx.Var):
        return var_markdown(value)
    return None
