"""The legacy hybrid dialect of seed 000 (issue 10): its listings parse with no diagnostic into
the IR the current syntax gives, round trip through the printer, and ``tirfmt --upgrade``
rewrites them (and a file mixing legacy, classic and tirx units) to one dialect with comments and
every other byte kept and the IR unchanged."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tirkit.cli.tirfmt_format import Mode, format_source
from tirkit.ir import first_mismatch, structural_equal
from tirkit.lang import parse_file
from tirkit.printer import script

HERE = Path(__file__).parent
SEED_000 = [HERE / "seeds" / f"000_{n}.py" for n in ("after_normalize", "after_lower",
                                                      "host_module")]
CONSTRUCTS = HERE / "legacy" / "constructs.py"
IMPORTS = "from tvm.script import tir as T\nfrom tvm.script import ir as I\n"


def _units(text: str, path: str = "<t>") -> list:
    return [u for u in parse_file(text, path) if u.kind != "file"]


def _only(text: str):
    units = _units(text)
    assert len(units) == 1, [(u.name, [d.message for d in u.diagnostics]) for u in units]
    assert units[0].ir is not None, [d.message for d in units[0].diagnostics]
    return units[0].ir


@pytest.mark.parametrize("path", SEED_000 + [CONSTRUCTS], ids=lambda p: p.stem)
def test_listing_parses_without_diagnostics_and_round_trips(path):
    units = _units(path.read_text(encoding="utf-8"), str(path))
    assert [u.kind for u in units] == ["ir_module"]
    unit = units[0]
    assert not unit.diagnostics, [d.message for d in unit.diagnostics]
    # the tirx round trip of lowered forms tirx dropped (T.allocate) is not there yet
    for dialect in ("tir", "tirx") if path != CONSTRUCTS else ("tir",):
        text = script(unit.ir, dialect=dialect)
        header = IMPORTS.replace("tir as T", "tirx as T") if dialect == "tirx" else IMPORTS
        back = _only(header + text)
        assert structural_equal(back, unit.ir), first_mismatch(back, unit.ir)


AFTER_NORMALIZE_CLASSIC = '''
@I.ir_module
class Module:
    @T.prim_func
    def mmult(A: T.handle, B: T.handle, C: T.handle) -> None:
        T.func_attr({"global_symbol": "mmult", "tir.noalias": True})
        A_1 = T.match_buffer(A, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        B_1 = T.match_buffer(B, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        C_1 = T.match_buffer(C, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        with T.realize(C_1[0:1024, 0:1024], ""):
            for x in T.serial(0, 1024):
                for y in T.serial(0, 1024):
                    C_1[x, y] = T.float32(0)
                    for k in T.serial(0, 1024):
                        C_1[x, y] = C_1[x, y] + A_1[x, k] * B_1[k, y]
'''

AFTER_LOWER_CLASSIC = '''
@I.ir_module
class Module:
    @T.prim_func
    def mmult(A: T.handle, B: T.handle, C: T.handle) -> None:
        T.func_attr({"global_symbol": "mmult", "tir.noalias": True})
        A_1 = T.match_buffer(A, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        B_1 = T.match_buffer(B, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        C_1 = T.match_buffer(C, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        A_f = T.Buffer((1048576,), data=A_1.data)
        B_f = T.Buffer((1048576,), data=B_1.data)
        C_f = T.Buffer((1048576,), data=C_1.data)
        for x in T.serial(0, 1024):
            for y in T.serial(0, 1024):
                C_f[x * 1024 + y] = T.float32(0)
                for k in T.serial(0, 1024):
                    C_f[x * 1024 + y] = C_f[x * 1024 + y] + A_f[x * 1024 + k] * B_f[k * 1024 + y]
'''


@pytest.mark.parametrize("path,classic", [(SEED_000[0], AFTER_NORMALIZE_CLASSIC),
                                          (SEED_000[1], AFTER_LOWER_CLASSIC)],
                         ids=["after_normalize", "after_lower"])
def test_legacy_gives_the_ir_of_the_current_syntax(path, classic):
    legacy = _units(path.read_text(encoding="utf-8"), str(path))[0].ir
    current = _only(IMPORTS + classic)
    assert structural_equal(legacy, current), first_mismatch(legacy, current)


def test_pointer_stores_loads_and_predicates_are_flat_buffer_accesses():
    legacy = _units(CONSTRUCTS.read_text(encoding="utf-8"))[0].ir
    func = next(f for g, f in legacy.items() if g.name_hint == "stores_and_loads")
    text = script(func)
    assert "A_1_flat[i] = A_1_flat[i] + T.float32(1.0)" in text
    assert 'B_1_flat = T.Buffer((16,), "int32", data=B_1.data)' in text
    assert "B_1_flat.vstore([T.Ramp(0, 1, 4)], T.Broadcast(1, 4), predicate=" in text
    host = next(f for g, f in legacy.items() if g.name_hint == "host_style")
    assert host.attrs["target"] == {"kind": "llvm"}
    assert 'T.call_llvm_pure_intrin("float32", T.uint32(97), T.uint32(1)' in script(host)


@pytest.mark.parametrize("path", SEED_000, ids=lambda p: p.stem)
@pytest.mark.parametrize("dialect", ["tir", "tirx"])
def test_upgrade_rewrites_the_listing_keeping_comments_and_ir(path, dialect):
    old = path.read_text(encoding="utf-8")
    result = format_source(old, str(path), Mode(dialect=dialect, upgrade=True))
    assert not result.errors and result.changed
    new = result.text
    assert "ty." not in new and "tir.range" not in new
    assert new.startswith(old[:old.index("class Module")])  # leading comments, byte for byte
    for comment in ("# function attr dict", "# body"):
        assert comment in new
    import_line = f"from tvm.script import {dialect} as T"
    assert import_line in new and "@I.ir_module" in new
    before, after = _units(old)[0], _units(new)[0]
    assert after.kind == "ir_module" and not after.diagnostics
    assert structural_equal(before.ir, after.ir), first_mismatch(before.ir, after.ir)
    again = format_source(new, str(path), Mode(dialect=dialect, upgrade=True))
    assert not again.errors and again.text == new


def test_without_upgrade_legacy_units_are_left_alone():
    old = SEED_000[0].read_text(encoding="utf-8")
    assert format_source(old, "seed.py", Mode()).text == old


MIXED = '''"""Three spellings in one file."""
import numpy as np
from tvm.script import tir as T

SIZE = 16  # a module constant


# a legacy unit
class Module:
    def legacy_add(A: ty.handle) -> None:
        A_1 = tir.buffer_bind(A, [16])
        for i in tir.range(0, 16):
            A_1[i] = (A_1[i] + tir.float32(1))  # add one


# a classic unit
@T.prim_func
def classic_scale(A: T.Buffer((SIZE,), "float32")):
    for i in range(SIZE):
        # scale
        A[i] = A[i] * T.float32(2)


def helper():
    return np.zeros(3)
'''

TIRX_UNIT = '''

# a tirx unit
@Tx.prim_func(s_tir=True)
def tirx_copy(A: Tx.Buffer((8,), "float32"), B: Tx.Buffer((8,), "float32")):
    for i in range(8):
        with Tx.sblock("copy"):
            vi = Tx.axis.spatial(8, i)
            B[vi] = A[vi]  # copy
'''


@pytest.mark.parametrize("dialect", ["tir", "tirx"])
def test_a_file_mixing_three_spellings_formats_to_one_dialect(dialect):
    old = MIXED.replace("from tvm.script import tir as T\n",
                        "from tvm.script import tir as T\nfrom tvm.script import tirx as Tx\n")
    old += TIRX_UNIT
    result = format_source(old, "mixed.py", Mode(dialect=dialect, upgrade=True))
    assert not result.errors, result.errors
    new = result.text
    for kept in ('"""Three spellings in one file."""', "import numpy as np",
                 "SIZE = 16  # a module constant", "def helper():\n    return np.zeros(3)\n",
                 "# a legacy unit", "# add one", "# scale", "# a tirx unit", "# copy"):
        assert kept in new, kept
    assert "ty.handle" not in new and "tir.buffer_bind" not in new
    if dialect == "tir":
        assert "T.sblock" not in new and "Tx.sblock" not in new and "s_tir" not in new
    else:
        assert "T.block(" not in new and "Tx.block(" not in new
    before = sorted(_units(old), key=lambda u: u.span.start_offset)
    after = sorted(_units(new), key=lambda u: u.span.start_offset)
    assert [u.name for u in before] == [u.name for u in after]
    for a, b in zip(before, after):
        assert not b.diagnostics, [d.message for d in b.diagnostics]
        assert structural_equal(a.ir, b.ir), first_mismatch(a.ir, b.ir)


def test_tirfmt_upgrade_diff_is_a_dry_run(tmp_path):
    path = tmp_path / "opt_gemm.py"
    path.write_text(SEED_000[0].read_text(encoding="utf-8"), encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "tirkit.cli.tirfmt", "--upgrade", "--diff",
                          str(path)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    assert "+@I.ir_module" in res.stdout and "-class Module:" not in res.stdout
    assert "-        tir.func_attr(" in res.stdout
    assert path.read_text(encoding="utf-8") == before
    res = subprocess.run([sys.executable, "-m", "tirkit.cli.tirfmt", "--upgrade", str(path)],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    assert "@T.prim_func" in path.read_text(encoding="utf-8")
