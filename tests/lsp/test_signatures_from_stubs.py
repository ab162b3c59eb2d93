"""Completion and signature help come from the same signatures as the typed stubs (issue 7)."""
from tirkit.lsp import tnames
from tirkit.stubgen import signatures


def test_signature_help_uses_the_stub_overloads():
    stubs = signatures("tir")
    info = tnames.lookup("tir", "T", ("grid",))
    assert info.overloads == tuple("T." + label for label in stubs["grid"].labels())
    remap = tnames.lookup("tir", "T", ("axis", "remap"))
    assert remap.signature == "T.axis." + stubs["axis.remap"].labels()[0]
    help_ = tnames.signature_help(remap, 1)
    assert len(help_.signatures) == len(stubs["axis.remap"].overloads)


def test_completion_items_carry_stub_signatures():
    items = {i.name: i for i in tnames.members("tir", "T")}
    assert items["T.int32"].signature == "T." + signatures("tir")["int32"].labels()[0]
