"""pylint plugin for TVMScript files (no TVM counterpart): ``load-plugins=tirkit.pylint_plugin``.

pylint reads source, not ``.pyi``; it would infer what ``T.grid(...)`` returns at *runtime* (an
IRBuilder frame), not what the TVMScript parser binds. The plugin:

- makes pylint read the generated stubs for the TVMScript namespaces: ``tirkit.lang.tir``/``ir``
  and ``tvm``, ``tvm.script``, ``tvm.script.tir``/``tirx``/``ir`` (from the installed
  ``tvm-stubs`` when present, else from tirkit's own copy), so calls are checked against the
  real signatures and no runtime frame type leaks into the analysis;
- knows that inside an ``@I.ir_module`` class the ``@T.prim_func`` functions are not methods
  (no ``self``; the class is a module, not a class with public methods);
- knows that in a ``@T.prim_func`` a parameter may be used in another parameter's annotation
  (``n: T.int32, A: T.Buffer((n,), "float32")``) and that the packed-API parameters a lowered
  function does not read are part of its ABI.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import astroid
from astroid import nodes
from astroid.builder import AstroidBuilder
from astroid.manager import AstroidManager

_LANG = Path(__file__).resolve().parent / "lang"
#: module name -> stub file in tirkit (used when tvm-stubs is not installed)
_OWN = {"tirkit.lang.tir": _LANG / "tir.pyi", "tirkit.lang.ir": _LANG / "ir.pyi",
        "tirkit.lang._types": _LANG / "_types.pyi"}
#: module name -> path inside the tvm-stubs distribution
_TVM = {"tvm": "__init__.pyi", "tvm.script": "script/__init__.pyi",
        "tvm.script._types": "script/_types.pyi", "tvm.script.tir": "script/tir/__init__.pyi",
        "tvm.script.tirx": "script/tirx/__init__.pyi", "tvm.script.ir": "script/ir/__init__.pyi"}
_DECORATORS = frozenset({"prim_func", "ir_module"})


def _tvm_stubs() -> Path | None:
    for entry in sys.path:
        candidate = Path(entry or ".") / "tvm-stubs"
        if (candidate / "script" / "tir" / "__init__.pyi").is_file():
            return candidate
    return None


def stub_files() -> dict[str, Path]:
    """Module name -> the ``.pyi`` pylint should read for it."""
    files = dict(_OWN)
    root = _tvm_stubs()
    if root is None:  # tvm-stubs not installed: tirkit's own stubs stand in
        root = Path(__file__).resolve().parent.parent / "stubs" / "tvm-stubs"
    for name, rel in _TVM.items():
        if (root / rel).is_file():
            files[name] = root / rel
    return files


def _load_stubs(manager: AstroidManager) -> None:
    """Put the stub modules in astroid's cache (modules only stubs provide: ``tvm.script.*``,
    ``tirkit.lang._types``)."""
    for name, path in stub_files().items():
        if path.is_file() and name not in _SOURCE_BACKED:
            manager.astroid_cache[name] = manager.ast_from_file(str(path), name, source=True)


#: modules with a ``.py`` next to their stub: astroid builds them from source (relative imports
#: bypass the cache), so a transform swaps in the stub's body
_SOURCE_BACKED = frozenset({"tirkit.lang.tir", "tirkit.lang.ir"})


def _is_source_backed(node: nodes.Module) -> bool:
    return node.name in _SOURCE_BACKED and str(node.file or "").endswith(".py")


def _use_stub(node: nodes.Module) -> nodes.Module:
    stub = AstroidBuilder(astroid.MANAGER).file_build(str(_OWN[node.name]), node.name)
    node.body = stub.body
    node.locals = stub.locals
    node.file = stub.file  # a stub module: pylint reads ``...`` bodies as declarations
    for child in node.body:
        child.parent = node
    return node


def _decorator_names(node: nodes.FunctionDef | nodes.ClassDef) -> set[str]:
    names = set()
    for dec in node.decorators.nodes if node.decorators else ():
        target = dec.func if isinstance(dec, nodes.Call) else dec
        if isinstance(target, nodes.Attribute):
            names.add(target.attrname)
        elif isinstance(target, nodes.Name):
            names.add(target.name)
    return names


def is_prim_func(node: Any) -> bool:
    """Whether ``node`` is a function decorated with ``@T.prim_func`` (any alias)."""
    return isinstance(node, nodes.FunctionDef) and "prim_func" in _decorator_names(node)


def _as_static(node: nodes.FunctionDef) -> nodes.FunctionDef:
    """A ``@T.prim_func`` in a class body is a function of the module, not a method."""
    if is_prim_func(node) and isinstance(node.parent, nodes.ClassDef):
        node.type = "staticmethod"  # what pylint's method checks read
    return node


def _function(node: Any) -> Any:
    while node is not None and not isinstance(node, nodes.FunctionDef):
        node = node.parent
    return node


def _in_prim_func(node: Any) -> bool:
    fn = _function(node)
    while fn is not None:
        if is_prim_func(fn):
            return True
        fn = _function(fn.parent)
    return False


def _param_in_annotation(node: Any) -> bool:
    """``n`` in ``def f(n: T.int32, A: T.Buffer((n,), "float32"))``: TVMScript binds the
    parameter before reading the next annotation."""
    fn = _function(node)
    if not (is_prim_func(fn) and isinstance(node, nodes.Name)):
        return False
    return node.name in fn.argnames() and any(
        node is n for ann in fn.args.annotations if ann is not None
        for n in ann.nodes_of_class(nodes.Name))


def _ir_module_class(node: Any) -> bool:
    return isinstance(node, nodes.ClassDef) and "ir_module" in _decorator_names(node)


def _reducer_lambda(node: Any) -> bool:
    """``T.comm_reducer(lambda x, y: T.max(x, y), ...)``: the parser reads the lambda's
    parameter names, so the lambda is not a needless wrapper."""
    call = node.parent
    return isinstance(node, nodes.Lambda) and isinstance(call, nodes.Call) and \
        getattr(call.func, "attrname", getattr(call.func, "name", "")) == "comm_reducer"


#: message -> when it is a false positive in TVMScript (the reasons are in docs/stubs.md)
SUPPRESS = {
    "undefined-variable": _param_in_annotation,
    "unused-argument": _in_prim_func,   # a PrimFunc's parameters are its ABI
    "unused-variable": _in_prim_func,   # every binding in a prim_func builds IR
    "using-constant-test": _in_prim_func,  # an `if` condition is IR, not Python control flow
    "too-few-public-methods": _ir_module_class,  # an IRModule, not a class
    "unnecessary-lambda": _reducer_lambda,
    # refactorings TVMScript cannot take: no `in` on expressions; the chained form is another IR
    "consider-using-in": _in_prim_func,
    "chained-comparison": _in_prim_func,
}


def _filtered(add_message: Any) -> Any:
    def add(msgid: str, *args: Any, **kwargs: Any) -> None:
        rule = SUPPRESS.get(msgid)
        node = kwargs.get("node", args[1] if len(args) > 1 else None)
        if rule is not None and node is not None and rule(node):
            return
        add_message(msgid, *args, **kwargs)
    return add


def register(linter: Any) -> None:
    """pylint's entry point: load the stubs, the TVMScript transforms and message rules."""
    manager = astroid.MANAGER
    _load_stubs(manager)
    manager.register_transform(nodes.FunctionDef, _as_static, is_prim_func)
    manager.register_transform(nodes.Module, _use_stub, _is_source_backed)
    linter.add_message = _filtered(linter.add_message)
