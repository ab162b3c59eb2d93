"""The generated stubs (tirkit.stubgen): up to date, complete, valid, and the signature API the
language server reads."""
import ast
import inspect
from pathlib import Path

from tirkit import stubgen
from tirkit.lang import ir, tir

REPO = Path(__file__).resolve().parents[2]


def test_generated_stubs_are_up_to_date():
    stale = stubgen.stale(REPO)
    assert not stale, f"stale generated stubs {stale}: run `{stubgen.COMMAND}`"


def test_generated_files_carry_the_header_and_parse():
    for rel, text in stubgen.outputs().items():
        if rel.endswith(".pyi"):
            assert text.startswith(stubgen.HEADER), rel
            assert "do not edit" in text and stubgen.COMMAND in text
            ast.parse(text)


def test_check_mode_reports_a_stale_file(tmp_path):
    stubgen.write(tmp_path)
    assert stubgen.main(["--check", "--root", str(tmp_path)]) == 0
    target = tmp_path / "tirkit" / "lang" / "tir.pyi"
    target.write_text(target.read_text() + "\nx: int\n")
    assert stubgen.main(["--check", "--root", str(tmp_path)]) == 1


def test_every_public_t_name_has_a_stub_signature():
    sigs = stubgen.signatures()
    missing = [n for n in stubgen.public_names(tir) if n not in sigs]
    assert not missing
    assert len(sigs) > 250


def test_tirx_leaves_out_the_removed_names():
    sigs = stubgen.signatures("tirx")
    assert "sblock" in sigs and "block" not in sigs and "allocate" not in sigs


def test_main_signatures():
    sigs = stubgen.signatures()
    grid = sigs["grid"]
    assert [len(s.parameters) for s in grid.overloads[:3]] == [1, 2, 3]
    assert str(grid.overloads[1].return_annotation) == "ForFrame[tuple[Var, Var]]"
    remap = sigs["axis.remap"].overloads
    assert str(remap[2].return_annotation) == "tuple[Var, Var, Var]"
    assert "'SSR'" in str(remap[2].parameters["kinds"].annotation)
    assert sigs["axis"].kind == "namespace"
    buffer = sigs["Buffer"]
    assert buffer.kind == "class"
    assert list(buffer.overloads[0].parameters)[:2] == ["shape", "dtype"]
    assert buffer.overloads[0].parameters["dtype"].default == "float32"
    assert [str(s.return_annotation) for s in sigs["int32"].overloads] == ["Var", "PrimExpr"]
    assert "int32" in sigs["int32"].doc
    stack = sigs["tvm_stack_alloca"].overloads[0]
    assert list(stack.parameters) == ["dtype_str", "num", "span", "dtype"]
    assert stack.parameters["num"].kind is inspect.Parameter.POSITIONAL_ONLY
    assert sigs["exp"].doc.startswith("``exp(x)``")
    assert sigs["exp"].labels() == ["exp(x: Any, span: Any = None, *, dtype: DTypeLike | None = None) -> PrimExpr"]
    assert sigs["axis.S"].overloads and sigs["axis.R"].overloads


def test_ir_signatures():
    sigs = stubgen.signatures("ir")
    assert set(stubgen.public_names(ir)) <= set(sigs)
    assert str(sigs["ir_module"].overloads[0].return_annotation) == "IRModule"


def test_intrinsics_keep_their_parameters_and_docs():
    sigs = stubgen.signatures()
    for name in ("call_extern", "if_then_else", "exp", "tvm_struct_get", "reinterpret"):
        runtime = inspect.signature(getattr(tir, name))
        stub = sigs[name].overloads[0]
        assert list(stub.parameters) == list(runtime.parameters), name
        assert sigs[name].doc == inspect.getdoc(getattr(tir, name)), name
