"""The TIR passes, one module each, with TVM's names (mirrors ``tvm.tir.transform``).

Importing this package registers every pass constructor with
:func:`tirkit.compiler.transform.register_pass`. Each module defines a function named like the
TVM pass (``LowerOpaqueBlock()``) that returns a :class:`~tirkit.compiler.transform.Pass`.
"""
import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
