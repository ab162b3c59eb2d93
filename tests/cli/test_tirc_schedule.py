"""tirc --schedule / --trace / --emit scheduled, through the real command line."""
import json
import subprocess
import sys

import pytest

from tirkit.cli.tirc import main as tirc

KERNEL = '''from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
    B = T.alloc_buffer((64, 64))
    for i, j in T.grid(64, 64):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(64, 64):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
'''

GOOD = '''def schedule(sch):
    c = sch.get_block("C")
    i, j = sch.get_loops(c)
    sch.compute_at(sch.get_block("B"), i)
    sch.vectorize(sch.get_loops(c)[1])


def other(sch):
    sch.parallel(sch.get_loops("B")[0])
'''

BAD_COMPUTE_AT = '''def schedule(sch):
    b = sch.get_block("B")
    i, j = sch.get_loops(b)
    sch.compute_at(b, j)
'''

BAD_REORDER = '''def schedule(sch):
    bi, bj = sch.get_loops("B")
    ci, cj = sch.get_loops("C")
    sch.reorder(cj, bi)
'''


@pytest.fixture(name="files")
def fixture_files(tmp_path):
    kernel = tmp_path / "kernel.py"
    kernel.write_text(KERNEL)
    for name, text in (("good.py", GOOD), ("bad_ca.py", BAD_COMPUTE_AT),
                       ("bad_re.py", BAD_REORDER)):
        (tmp_path / name).write_text(text)
    return tmp_path


def test_schedule_and_emit_scheduled(files, capsys):
    code = tirc([str(files / "kernel.py"), "--schedule", str(files / "good.py"),
                 "--emit", "scheduled"])
    out = capsys.readouterr().out
    assert code == 0
    assert "for ax0 in range(64):" in out and "T.vectorized(64)" in out
    code = tirc([str(files / "kernel.py"), "--schedule", f"{files / 'good.py'}:other",
                 "--emit", "scheduled"])
    assert code == 0 and "T.parallel(64)" in capsys.readouterr().out


def test_schedule_then_compile_to_llvm(files, capsys):
    code = tirc([str(files / "kernel.py"), "--schedule", str(files / "good.py")])
    assert code == 0 and "<64 x float>" in capsys.readouterr().out


def test_illegal_compute_at_is_a_diagnostic_with_a_caret_under_the_loop(files, capsys):
    code = tirc([str(files / "kernel.py"), "--schedule", str(files / "bad_ca.py")])
    err = capsys.readouterr().err
    assert code == 1
    lines = err.splitlines()
    assert lines[0].startswith(f"{files / 'kernel.py'}:7:12: error: ScheduleError: ")
    assert 'block "B"' in lines[0] and 'loop "j"' in lines[0]
    assert lines[1] == "        for i, j in T.grid(64, 64):"
    assert lines[2] == "               ^"
    assert "bad_ca.py:4" in err and "Traceback" not in err


def test_illegal_reorder_is_a_diagnostic(files, capsys):
    code = tirc([str(files / "kernel.py"), "--schedule", str(files / "bad_re.py")])
    err = capsys.readouterr().err
    assert code == 1
    lines = err.splitlines()
    # the caret is under C's loop "j", the first loop given to reorder
    assert lines[0].startswith(f"{files / 'kernel.py'}:11:12: error: ScheduleError: ")
    assert "LoopsNotAChainError" in lines[0] and "loops are not in a chain" in lines[0]
    assert 'loop "j" and loop "i" are not nested in one another' in lines[0]
    assert lines[1] == "        for i, j in T.grid(64, 64):"
    assert lines[2] == "               ^"
    assert "bad_re.py:4" in err and "Traceback" not in err


def test_trace_json_applies_without_running_anything(files, capsys):
    from tirkit.lang import from_source
    from tirkit.schedule import Schedule

    sch = Schedule(from_source(KERNEL))
    c = sch.get_block("C")
    sch.compute_at(sch.get_block("B"), sch.get_loops(c)[0])
    trace = files / "trace.json"
    trace.write_text(json.dumps(sch.trace.as_json()))
    code = tirc([str(files / "kernel.py"), "--trace", str(trace), "--emit", "scheduled"])
    assert code == 0 and "for ax0 in range(64):" in capsys.readouterr().out
    trace.write_text("[[[\"Nope\", [], [], []]], []]")
    code = tirc([str(files / "kernel.py"), "--trace", str(trace)])
    assert code == 1 and "unknown instruction kind 'Nope'" in capsys.readouterr().err


def test_schedule_script_problems_are_reported(files, capsys):
    code = tirc([str(files / "kernel.py"), "--schedule", f"{files / 'good.py'}:missing"])
    assert code == 1 and "has no function 'missing'" in capsys.readouterr().err
    (files / "boom.py").write_text("def schedule(sch):\n    raise RuntimeError('boom')\n")
    code = tirc([str(files / "kernel.py"), "--schedule", str(files / "boom.py")])
    err = capsys.readouterr().err
    assert code == 1 and "RuntimeError: boom" in err and "boom.py:2" in err


def test_help_says_schedule_runs_user_code():
    out = subprocess.run([sys.executable, "-m", "tirkit.cli.tirc", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "--schedule" in out and "RUNS the Python file" in out and "--trace" in out


def test_trace_recorded_on_a_prim_func_applies_to_the_files_kernel(files, capsys):
    """``Schedule(prim_func)`` names the function ``main`` (as TVM does), so its trace says
    ``func_name="main"``; the file's only kernel is called ``kern``: the trace still applies and
    the result keeps the kernel's name (docs/scheduling.md does exactly this)."""
    from tirkit.lang import from_source
    from tirkit.schedule import Schedule

    renamed = KERNEL.replace("def main(", "def kern(")
    (files / "kern.py").write_text(renamed)
    sch = Schedule(from_source(renamed))
    sch.compute_at(sch.get_block("B"), sch.get_loops(sch.get_block("C"))[0])
    assert 'func_name="main"' in "\n".join(sch.trace.as_python())
    trace = files / "trace.json"
    trace.write_text(json.dumps(sch.trace.as_json()))
    code = tirc([str(files / "kern.py"), "--trace", str(trace), "--emit", "scheduled"])
    out = capsys.readouterr().out
    assert code == 0 and "def kern(" in out and "for ax0 in range(64):" in out
