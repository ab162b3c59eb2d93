"""Generate the expected tirx texts of tests/printer/test_tvm027_corpus.py with Apache TVM 0.27.

Run once by hand (never by the test suite; tirkit never imports tvm):

    .venv/bin/python tests/printer/tvm_reference/generate.py --tvm-python /work/tvm-venv/bin/python

For every unit of tests/lang/cases, tirkit prints the unit's IR in the classic dialect (a
self-contained program that parses back to the same IR); that classic text is spelled in tirx
the way a user would port it (``from tvm.script import tirx as T``, ``T.block`` ->
``T.sblock``, ``T.block_attr`` -> ``T.sblock_attr``, ``T.alloc_buffer`` -> ``T.sblock_alloc_buffer``
(a block's buffer; tirx's ``T.alloc_buffer`` is an allocation statement),
``@T.prim_func(..., s_tir=True)`` on each function that has blocks), parsed by TVM 0.27 and printed by TVM 0.27 (``script()``). That text, without
the ``# from tvm.tirx.layout import Axis`` line TVM 0.27 adds, is written to
``expected/<case>__<unit>.py``. Units TVM 0.27 cannot parse in that spelling (lowered forms that
tirx removed, such as ``T.allocate``) are listed in ``expected/SKIPPED.txt`` with TVM's message.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE.parents[1] / "lang" / "cases"
OUT = HERE / "expected"
AXIS_LINE = "# from tvm.tirx.layout import Axis"

TVM_SIDE = r'''
import json, sys
import tvm
out = []
for item in json.load(sys.stdin):
    try:
        obj = tvm.script.from_source(item["text"])
        out.append({"out": obj.script()})
    except Exception as err:  # noqa: BLE001
        lines = [l for l in str(err).strip().splitlines() if l.strip()]
        said = [l for l in lines if "error" in l.lower()] or lines[-1:]
        out.append({"error": f"{type(err).__name__}: {said[0].strip() if said else ''}"[:300]})
json.dump(out, sys.stdout)
'''


def to_tirx(classic: str) -> str:
    """A classic program spelled in tirx as a user porting it would (see module doc)."""
    body = [ln for ln in classic.split("\n") if not ln.startswith("# from tvm.script import")]
    text = "\n".join(body)
    has_block = "T.block(" in text
    text = text.replace("T.block(", "T.sblock(").replace("T.block_attr(", "T.sblock_attr(")
    # a classic T.alloc_buffer is a block's buffer; tirx's T.alloc_buffer is a statement
    text = text.replace("T.alloc_buffer(", "T.sblock_alloc_buffer(")
    text = text.replace('# with T.block("root")', '# with T.sblock("root")')
    if has_block:  # s_tir=True on each function whose own body has a block
        parts = re.split(r"(?m)^([ \t]*@T\.prim_func(?:\(.*\))?[ \t]*)$", text)
        for i in range(1, len(parts), 2):
            if "T.sblock(" in parts[i + 1]:
                deco = parts[i].rstrip()
                parts[i] = deco[:-1] + ", s_tir=True)" if deco.endswith(")") \
                    else deco + "(s_tir=True)"
        text = "".join(parts)
    return "# from tvm.script import ir as I\n# from tvm.script import tirx as T\n" + text


#: units whose IR TVM 0.27's parser would change: the ported text spells the construct so that
#: TVM 0.27 reads the IR tirkit holds, and its print of that IR is the expected text.
#: T.tvm_storage_sync(scope) gets TVM 0.27's optional arguments ("shared", T.bool(False), -1)
#: filled in by its parser; T.call_intrin of the same op keeps the one argument.
SAME_IR: dict[str, list[tuple[str, str]]] = {
    "15_gpu_reduction__tree_reduce": [
        ('T.tvm_storage_sync("shared")',
         'T.call_intrin("int32", "tirx.tvm_storage_sync", "shared")')],
    "33_attr_evaluate__thread_extent_attr": [
        ('T.tvm_storage_sync("global")',
         'T.call_intrin("int32", "tirx.tvm_storage_sync", "global")')],
}


def same_ir(name: str, text: str) -> str:
    """``text`` with the replacements of ``SAME_IR[name]`` (each must occur)."""
    for old, new in SAME_IR.get(name, []):
        if old not in text:
            raise ValueError(f"{name}: {old!r} not in the ported text")
        text = text.replace(old, new)
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tvm-python", default="/work/tvm-venv/bin/python")
    args = ap.parse_args()
    from tirkit.lang import parse_file  # pylint: disable=import-outside-toplevel
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    items = []
    for path in sorted(CASES.glob("*.py")):
        for unit in parse_file(path.read_text(encoding="utf-8"), str(path)):
            if unit.ir is not None and unit.kind != "file":
                name = f"{path.stem}__{unit.name}"
                items.append((name, same_ir(name, to_tirx(script(unit.ir)))))
    res = subprocess.run([args.tvm_python, "-c", TVM_SIDE], input=json.dumps(
        [{"text": t} for _, t in items]), capture_output=True, text=True, check=True)
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.py"):
        old.unlink()
    skipped = []
    for (name, _), result in zip(items, json.loads(res.stdout)):
        if "error" in result:
            skipped.append(f"{name}: {result['error']}")
            continue
        lines = [ln for ln in result["out"].split("\n") if ln != AXIS_LINE]
        (OUT / f"{name}.py").write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    (OUT / "SKIPPED.txt").write_text("\n".join(skipped) + "\n", encoding="utf-8")
    print(f"{len(items) - len(skipped)} expected files, {len(skipped)} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
