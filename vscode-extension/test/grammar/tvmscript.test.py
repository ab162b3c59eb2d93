# SYNTAX TEST "source.python" "TVMScript injection: T. and I. constructs inside Python"
# Checked by `npm run test:grammar`: vscode-tmgrammar-test with the Python grammar from the
# tm-grammars package and the injection grammar that package.json declares (injectTo source.python).
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
# <- punctuation.definition.decorator.tvmscript
#^ entity.name.namespace.tvmscript
# ^ punctuation.separator.period.tvmscript
#  ^^^^^^^^^ entity.name.function.decorator.tvmscript
class Module:
    @T.prim_func
#   ^ meta.function.decorator.python
#    ^ entity.name.namespace.tvmscript
#     ^ punctuation.separator.period.tvmscript
#      ^^^^^^^^^ entity.name.function.decorator.tvmscript
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128,), "float32"), n: T.int32):
#               ^ entity.name.namespace.tvmscript
#                ^ punctuation.separator.period.tvmscript
#                 ^^^^^^ storage.type.tvmscript
#                                     ^^^^^^^ string.quoted.single.python - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
#                                                     ^^^^^^ storage.type.tvmscript
#                                                                                     ^^^^^ storage.type.tvmscript
        for i, j in T.grid(128, 128):
#       ^^^ keyword.control.flow.python
#                   ^ entity.name.namespace.tvmscript
#                     ^^^^ keyword.control.tvmscript
            with T.block("update"):
#           ^^^^ keyword.control.flow.python
#                ^ entity.name.namespace.tvmscript
#                  ^^^^^ keyword.control.tvmscript
#                         ^^^^^^ string.quoted.single.python - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
                vi, vj = T.axis.remap("SR", [i, j])
#                        ^ entity.name.namespace.tvmscript
#                         ^ punctuation.separator.period.tvmscript
#                          ^^^^ keyword.control.tvmscript
#                               ^^^^^ meta.function-call.generic.python - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
                T.reads(A[vi, vj])
#                 ^^^^^ keyword.control.tvmscript
                T.writes(B[vi])
#                 ^^^^^^ keyword.control.tvmscript
                with T.init():
#                      ^^^^ keyword.control.tvmscript
                    B[vi] = T.float32(0)
#                           ^ entity.name.namespace.tvmscript
#                             ^^^^^^^ storage.type.tvmscript
                B[vi] = B[vi] + T.exp(A[vi, vj]) + T.float16x4(1)
#                               ^ entity.name.namespace.tvmscript
#                                 ^^^ support.function.tvmscript
#                                                    ^^^^^^^^^ storage.type.tvmscript
        for k in T.serial(n):
#                  ^^^^^^ keyword.control.tvmscript
            T.evaluate(T.call_extern("int32", "f", k))
#           ^ entity.name.namespace.tvmscript
#             ^^^^^^^^ support.function.tvmscript
#                        ^^^^^^^^^^^ support.function.tvmscript
#                                     ^^^^^ string.quoted.single.python - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript


# Ordinary Python is left to the Python grammar.
def helper(x, Tx):
# <--- storage.type.function.python
#   ^^^^^^ entity.name.function.python
    s = "T.grid(4)"  # T.block in a comment
#        ^^^^^^^^^ string.quoted.single.python - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
#                      ^^^^^^^^^^^^^^^^^^^^ comment.line.number-sign.python - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
    Tx.block(1)
#   ^^ - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
#      ^^^^^ meta.function-call.generic.python - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
    y = x.grid + x.T + T
#         ^^^^ meta.attribute.python - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
#                  ^ - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
#                      ^ - entity.name.namespace.tvmscript keyword.control.tvmscript storage.type.tvmscript support.function.tvmscript
    return s, y
#   ^^^^^^ keyword.control.flow.python
