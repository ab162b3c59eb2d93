"""codegen.ir_text.FastBuilder prints what llvmlite's IRBuilder prints for the same calls (up to
the numbering of unnamed values), and LLVM accepts it; codegen.ir_values' blocks, string
constants and globals print as llvmlite's."""
import re

import llvmlite.binding as llvm
import pytest
from llvmlite import ir

from tirkit.compiler.codegen.ir_text import FastBuilder
from tirkit.compiler.codegen.ir_values import ByteString, StringGlobal, fast_scope, new_block
from tirkit.compiler.codegen.types import Module
from tirkit.compiler.target import initialize_llvm

I1, I8, I32, I64, F32 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64), \
    ir.FloatType()
PTR = ir.PointerType()
V4F = ir.VectorType(F32, 4)


def _emit(builder_class):
    """One function using every instruction kind FastBuilder makes itself."""
    mod = Module(name="t")
    fnty = ir.FunctionType(I32, [I32, I32, PTR, F32, V4F])
    fn = ir.Function(mod, fnty, name="f")
    for arg, name in zip(fn.args, ("a", "b", "p", "x", "v")):
        arg.name = name
    a, b, p, x, v = fn.args
    ext = ir.Function(mod, ir.FunctionType(I32, [PTR, I64], var_arg=True), name="ext")
    sink = ir.Function(mod, ir.FunctionType(ir.VoidType(), [I32]), name="sink")
    entry = fn.append_basic_block("entry")
    bld = builder_class(entry)
    slot = bld.alloca(I32, size=4, name="slot")
    slot.align = 16
    buf = bld.alloca(ir.ArrayType(I8, 8))
    loop, done = fn.append_basic_block("loop"), fn.append_basic_block("done")
    bld.branch(loop)
    bld.position_at_end(loop)
    i = bld.phi(I32, name="i")
    i.add_incoming(ir.Constant(I32, 0), entry)
    s = bld.add(a, b, flags=("nsw",))
    vals = [s, bld.sub(s, b), bld.mul(a, b), bld.sdiv(a, b), bld.srem(a, b), bld.udiv(a, b),
            bld.urem(a, b), bld.shl(a, b), bld.lshr(a, b), bld.ashr(a, b), bld.and_(a, b),
            bld.or_(a, b), bld.xor(a, b)]
    f = bld.fdiv(bld.fmul(bld.fsub(bld.fadd(x, x), x), x), x)
    vals.append(bld.fptosi(bld.frem(f, x), I32))
    cmps = [bld.icmp_signed("<", a, b), bld.icmp_unsigned(">=", a, b),
            bld.icmp_signed("==", a, b), bld.fcmp_ordered("<", x, x),
            bld.fcmp_unordered("!=", x, x), bld.fcmp_unordered("uno", x, x), bld.not_(I1(1))]
    for c in cmps:
        vals.append(bld.zext(c, I32))
    gep = bld.gep(p, [bld.sext(a, I64)], inbounds=True, source_etype=F32)
    ld = bld.load(gep, typ=F32, align=4)
    ld.set_metadata("tirkit.note", mod.add_metadata([ir.MetaDataString(mod, "root")]))
    bld.store(bld.fptrunc(bld.fpext(ld, ir.DoubleType()), F32), gep, align=4)
    bld.store(a, bld.gep(slot, [ir.Constant(I32, 1)], source_etype=I32))
    vals.append(bld.load(slot, typ=I32))
    vals.append(bld.ptrtoint(bld.inttoptr(bld.sext(b, I64), PTR), I32))
    vals.append(bld.bitcast(bld.sitofp(a, F32), I32))
    vals.append(bld.fptoui(bld.uitofp(b, F32), I32))
    el = bld.extract_element(bld.insert_element(v, x, ir.Constant(I32, 2)), ir.Constant(I32, 1))
    vals.append(bld.fptosi(el, I32))
    vals.append(bld.call(ext, [buf, ir.Constant(I64, 8), a]))
    bld.call(sink, [a])
    acc = vals[0]
    for val in vals[1:]:
        acc = bld.select(bld.icmp_signed(">", acc, val), acc, val)
    nxt = bld.add(i, ir.Constant(I32, 1))
    with bld.if_then(bld.icmp_signed("<", nxt, acc), likely=False):
        bld.store(nxt, slot)
    i.add_incoming(nxt, bld.block)
    bld.cbranch(bld.icmp_signed("<", nxt, ir.Constant(I32, 10)), loop, done)
    bld.position_at_end(done)
    bld.ret(acc)
    return str(mod)


def _renumbered(text):
    seen = {}
    return re.sub(r'%"\.(\d+)"', lambda m: f'%"v{seen.setdefault(m.group(1), len(seen))}"',
                  text)


def test_fast_builder_prints_what_llvmlite_prints():
    slow, fast = _emit(ir.IRBuilder), _emit(FastBuilder)
    assert _renumbered(fast) == _renumbered(slow)
    initialize_llvm()
    llvm.parse_assembly(fast).verify()


def test_fast_builder_keeps_llvmlite_errors():
    mod = Module(name="t")
    fn = ir.Function(mod, ir.FunctionType(ir.VoidType(), [I32, I64]), name="f")
    callee = ir.Function(mod, ir.FunctionType(ir.VoidType(), [I32]), name="g")
    bld = FastBuilder(fn.append_basic_block("entry"))
    with pytest.raises(ValueError, match="same type"):
        bld.add(fn.args[0], fn.args[1])
    with pytest.raises(TypeError, match="arg mismatch"):
        bld.call(callee, [fn.args[1]])
    with pytest.raises(ValueError, match="invalid comparison"):
        bld.icmp_signed("<>", fn.args[0], fn.args[0])
    with pytest.raises(AttributeError):  # flags are given at creation, not appended later
        bld.add(fn.args[0], fn.args[0]).flags.append("nsw")
    assert not Module(name="u").metadata  # the shared empty metadata stays empty
    tagged = bld.add(fn.args[0], fn.args[0])
    tagged.set_metadata("note", mod.add_metadata([ir.MetaDataString(mod, "x")]))
    assert not bld.add(fn.args[0], fn.args[0]).metadata and tagged.metadata


def test_byte_string_prints_what_llvmlite_prints():
    data = bytearray(range(256)) + "Assert fail: \"n\" ≥ 3\\".encode() + b"\0"
    ty = ir.ArrayType(I8, len(data))
    assert str(ByteString(ty, data)) == str(ir.Constant(ty, data))
    assert ByteString(ty, data).get_reference() == ir.Constant(ty, data).get_reference()
    for text in (b"", b"\0", b'plain "quoted" \\ back\0', b"tab\there\n\0", b"\0\0", b"~ \x7f"):
        ty = ir.ArrayType(I8, len(text))
        assert ByteString(ty, bytearray(text)).get_reference() == \
            ir.Constant(ty, bytearray(text)).get_reference()


def test_string_global_prints_what_llvmlite_prints():
    data = 'Assert fail: "n" ≥ 3\n\\'.encode() + b"\0"
    light, slow = Module(name="a"), Module(name="a")
    StringGlobal(light, ".str", data)
    ty = ir.ArrayType(I8, len(data))
    gvar = ir.GlobalVariable(slow, ty, name=".str")
    gvar.linkage, gvar.global_constant, gvar.unnamed_addr = "private", True, True
    gvar.initializer = ir.Constant(ty, bytearray(data))
    gvar.type = PTR
    assert str(light) == str(slow)
    changed = StringGlobal(light, ".str_1", data)
    changed.align = 8  # printed by llvmlite's own code then
    assert str(changed).endswith(", align 8")


@pytest.mark.parametrize("label", ["entry", "for_body.endif.1", 'odd "label" \\ here', "9lives"])
def test_block_prints_what_llvmlite_prints(label):
    texts = []
    for light in (False, True):
        mod = Module(name="t")
        fn = ir.Function(mod, ir.FunctionType(ir.VoidType(), []), name="f")
        blk = new_block(fn, label) if light else fn.append_basic_block(label)
        FastBuilder(blk).branch(blk)
        texts.append(str(mod))
    assert texts[0] == texts[1]


def test_function_scope_names_as_llvmlite():
    names = ["x", "x", "x.1", "x", "body.if", "body.if", "body.if.1"]
    made = []
    for fast in (False, True):
        mod = Module(name="t")
        fn = ir.Function(mod, ir.FunctionType(ir.VoidType(), [I32]), name="f")
        if fast:
            fast_scope(fn)
        fn.args[0].name = "x"
        made.append([new_block(fn, n).name for n in names])
    assert made[0] == made[1]
    scope = fast_scope(ir.Function(Module(name="u"), ir.FunctionType(I32, [I32]), name="g")).scope
    taken = [scope.register("", deduplicate=True) for _ in range(3)] + \
        [scope.fresh() for _ in range(3)]
    assert len(set(taken)) == 6 and ".1" not in taken  # .1: the argument's name
    with pytest.raises(NameError):
        scope.register(taken[-1])
