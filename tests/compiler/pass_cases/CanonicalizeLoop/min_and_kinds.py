# A loop that only starts elsewhere than 0 is rewritten too (as in TVM 0.27); a step that does not
# divide the extent rounds the trip count up; kind and annotations stay; an inner loop whose
# bounds use an outer stepped var sees the rewritten var (TVM 0.27 leaves the old var there).
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    for i in T.parallel(3, 10):
        B[i] = A[i]
    for j in T.unroll(0, 16, step=5, annotations={"pragma_key": 1}):
        B[j] = A[j] * T.float32(2.0)
    for a in range(2, 8, 3):
        for c in T.serial(a, 16, step=4):
            B[a * 4 + c] = T.float32(0.0)


# output
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    for i in T.parallel(0, 7):
        B[i + 3] = A[i + 3]
    for j in T.unroll(0, 4, annotations={"pragma_key": 1}):
        B[j * 5] = A[j * 5] * T.float32(2.0)
    for a in T.serial(0, 2):
        for c in range((1 - a * 3) // 4 + 4):
            B[(a * 3 + 2) * 4 + (c * 4 + (a * 3 + 2))] = T.float32(0.0)
