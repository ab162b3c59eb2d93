"""tirkit: a Python toolchain for TVMScript (TVM's tensor IR), without TVM.

Layers (see DESIGN.md): ``tirkit.ir``/``tirkit.tir``/``tirkit.arith`` (the IR and arithmetic),
``tirkit.lang`` (front end), ``tirkit.printer``, ``tirkit.te``, ``tirkit.schedule``,
``tirkit.compiler``, and the ``tirfmt``/``tirc``/``tirls`` command lines.
"""

__version__ = "0.1.0"
