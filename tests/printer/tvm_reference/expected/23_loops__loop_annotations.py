# from tvm.script import tirx as T

@T.prim_func
def loop_annotations(A: T.Buffer((128,), "float32")):
    for i in T.serial(128, annotations={"pragma_auto_unroll_max_step": 16, "pragma_unroll_explicit": 1}):
        A[i] = T.float32(0.0)
    for i in T.parallel(128, annotations={"software_pipeline_order": [0, 1], "software_pipeline_stage": [0, 1]}):
        A[i] = A[i] + T.float32(1.0)
    for i in T.unroll(4, annotations={"pragma_key": "value"}):
        A[i] = A[i] * T.float32(2.0)
