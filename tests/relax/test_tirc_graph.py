"""tirc on a file with Relax functions: --emit llvm compiles every PrimFunc of the graph
pipeline's output; `tirc run --entry main` runs the graph in the VM (issue 12)."""
from tirkit.cli.tirc import main

from test_script_and_vm import ADD_ONE


def test_emit_llvm_of_graph(tmp_path, capsys):
    src = tmp_path / "model.py"
    src.write_text(ADD_ONE)
    assert main([str(src), "--emit", "llvm", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert "@fused_add_one_add_one(" in out and "@add_one(" not in out


def test_run_graph(tmp_path, capsys):
    src = tmp_path / "model.py"
    src.write_text(ADD_ONE)
    assert main(["run", str(src), "--entry", "main", "--dim", "n=5", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "main (Relax)" in out and "x: float32[5, 4]" in out
    assert "ok:     deterministic, finite results" in out
