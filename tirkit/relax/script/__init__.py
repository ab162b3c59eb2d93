"""TVMScript for Relax: the printer (registered into :mod:`tirkit.printer`) and the parser's
``relax`` dialect (``@R.function``; registered into :mod:`tirkit.lang`)."""
from __future__ import annotations

from . import parser, printer  # noqa: F401  (register the parser handlers and printers)
