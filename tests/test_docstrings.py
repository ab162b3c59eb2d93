"""Every public class and function of the foundation layer has a docstring naming what it mirrors
in TVM (or saying it has no TVM counterpart)."""
import importlib
import inspect
import pkgutil

import pytest

import tirkit

PACKAGES = ("tirkit.ir", "tirkit.tir", "tirkit.arith")


def _modules():
    for pkg_name in PACKAGES:
        pkg = importlib.import_module(pkg_name)
        yield pkg
        for info in pkgutil.iter_modules(pkg.__path__, pkg_name + "."):
            yield importlib.import_module(info.name)


def _public_objects():
    seen = set()
    for mod in _modules():
        for name, obj in vars(mod).items():
            if name.startswith("_") or id(obj) in seen:
                continue
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if getattr(obj, "__module__", None) != mod.__name__:
                continue
            seen.add(id(obj))
            yield f"{mod.__name__}.{name}", obj


OBJECTS = sorted(_public_objects(), key=lambda p: p[0])


def test_foundation_has_public_api():
    assert len(OBJECTS) > 50


@pytest.mark.parametrize("qualname,obj", OBJECTS, ids=[q for q, _ in OBJECTS])
def test_docstring_names_tvm_counterpart(qualname, obj):
    doc = inspect.getdoc(obj) or ""
    assert doc.strip(), f"{qualname} has no docstring"
    lowered = doc.lower()
    assert "tvm" in lowered, f"{qualname}: docstring does not name the TVM class/function it mirrors"
