"""Printer options (mirrors ``tvm.script.printer.PrinterConfig``)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, Collection, Mapping, Sequence

from tirkit.ir.dtype import dtype as _dtype


@dataclass
class Comments:
    """Comments attached to one IR node: ``leading`` lines printed before its statement,
    ``trailing`` text printed after its (header) line as ``  # text``, and ``after`` lines
    printed after the whole statement (its body included) at its indentation."""

    leading: list[str] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)


@dataclass
class PrinterConfig:
    """Options of :func:`tirkit.printer.script` (mirrors TVM's ``PrinterConfig``).

    - ``tir_prefix`` / ``ir_prefix``: names of the ``tir`` / ``ir`` namespaces (``"T"``/``"I"``).
    - ``indent_spaces``: spaces per indentation level.
    - ``buffer_dtype``: dtype left implicit in ``T.alloc_buffer``/``T.match_buffer`` (float32).
    - ``int_dtype``: integer constants of this dtype print as plain literals (int32).
    - ``float_dtype``: float constants of this dtype print plainly (``"void"``: never).
    - ``syntax_sugar``: ``T.grid``, ``T.axis.remap``, ``T.Buffer`` parameters, concise scoping.
    - ``print_line_numbers``: prefix each line with its number.
    - ``obj_to_underline`` / ``path_to_underline``: IR objects (or paths of field names and
      indices from the printed root, e.g. ``("body", "seq", 0)``) whose text is underlined with
      ``^`` on the next line.
    - ``show_meta``: print the ``metadata`` section holding objects that have no TVMScript form.
    - ``dialect``: ``"tir"`` (classic, TVM v0.20) or ``"tirx"`` (TVM 0.27: ``T.sblock``...).
    - ``line_length``: lines longer than this wrap inside their brackets; ``None`` (default)
      never wraps, printing exactly as TVM does.
    - ``comments``: ``{node or Span: Comments | list[str]}``: comments printed with the
      statement of that node (looked up by node identity, then by the node's span).
    - ``compute_sugar``: print a root-level loop nest that is exactly what ``T.compute``
      expands to as ``B = T.compute(shape, lambda i, j: ..., name="B")`` (tirkit's option; see
      :mod:`tirkit.printer.compute_sugar`). Off by default, as TVM prints.
    - ``strided_loops``: print a unit-stride loop whose body only sees ``start + i * step`` as
      the strided loop it was parsed from, ``for i in range(start, stop, step)`` (tirkit's
      option, see :mod:`tirkit.printer.strided_loop`). Off by default, as TVM prints.
    - ``module_alias``: how calls to functions of the module are spelled (``"cls"``; TVM 0.27
      spells the class name, ``"Module"``, which tirx dialect uses by default).
    - ``keep_global_symbol``: function names whose ``global_symbol`` attribute is printed in
      ``T.func_attr`` even when it equals the name (TVM leaves it out; ``tirfmt`` keeps what the
      user wrote).
    - ``written``: ``node -> str | None``, the source text a node was parsed from: where the IR
      allows two spellings the user's is printed (``tirfmt``; see
      :mod:`tirkit.printer.written`). ``None`` (default): TVM's spelling.
    """

    tir_prefix: str = "T"
    ir_prefix: str = "I"
    indent_spaces: int = 4
    buffer_dtype: Any = "float32"
    int_dtype: Any = "int32"
    float_dtype: Any = "void"
    syntax_sugar: bool = True
    print_line_numbers: bool = False
    obj_to_underline: Sequence[Any] = ()
    path_to_underline: Sequence[Sequence[Any]] = ()
    show_meta: bool = False
    dialect: str = "tir"
    line_length: int | None = None
    comments: Mapping[Any, Any] = field(default_factory=dict)
    module_alias: str | None = None
    compute_sugar: bool = False
    strided_loops: bool = False
    binding_name: str | None = None
    keep_global_symbol: Collection[str] = ()
    written: Callable[[Any], str | None] | None = None

    def __post_init__(self) -> None:
        if self.dialect not in ("tir", "tirx"):
            raise ValueError(f"dialect must be 'tir' or 'tirx', got {self.dialect!r}")
        self.buffer_dtype = _dtype(self.buffer_dtype)
        self.int_dtype = _dtype(self.int_dtype)
        self.float_dtype = _dtype(self.float_dtype)
        if isinstance(self.path_to_underline, (str, int)) or (
                self.path_to_underline and not isinstance(self.path_to_underline[0],
                                                          (list, tuple))):
            self.path_to_underline = [self.path_to_underline]
        if not isinstance(self.obj_to_underline, (list, tuple, set, frozenset)):
            self.obj_to_underline = [self.obj_to_underline]

    @staticmethod
    def make(**config: Any) -> "PrinterConfig":
        """A config from keyword options.

        Raises:
            TypeError: naming an unknown option and listing the known ones.
        """
        if not config:  # the common call: every option at its default
            return PrinterConfig()
        known = {f.name for f in fields(PrinterConfig)}
        unknown = sorted(set(config) - known)
        if unknown:
            raise TypeError(f"unknown printer option(s) {', '.join(unknown)}; known options: "
                            f"{', '.join(sorted(known))}")
        return PrinterConfig(**config)
