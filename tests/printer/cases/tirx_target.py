# flags: dialect=tirx
# T.target values print as TVM 0.27 prints a Target, T.target(...), which it reads back as one
# (tirkit's dict printed as a dict was a plain Map there: 90 units of tools/tvm027_roundtrip.py
# --suite tirx); a kind alone prints as the string (with host=), else the config dict
@T.prim_func
def targets(A: T.Buffer((4,), "float32")):
    T.func_attr({"target": T.target("llvm", host="llvm"), "gpu": T.target("cuda"), "tag": T.target("nvidia/nvidia-a100"), "tag_host": T.target("nvidia/nvidia-a100", host="llvm"), "cfg": T.target({"kind": "cuda", "arch": "sm_80", "host": {"kind": "llvm"}})})
    with T.attr(T.target("cuda"), "target", 0):
        A[0] = T.float32(1)
# output
# from tvm.script import tirx as T

@T.prim_func
def targets(A: T.Buffer((4,), "float32")):
    T.func_attr({"cfg": T.target({"arch": "sm_80", "host": {"kind": "llvm"}, "kind": "cuda"}), "gpu": T.target("cuda"), "tag": T.target("nvidia/nvidia-a100"), "tag_host": T.target("nvidia/nvidia-a100", host="llvm"), "target": T.target("llvm", host="llvm")})
    T.attr(T.target("cuda"), "target", 0)
    A[0] = T.float32(1.0)
