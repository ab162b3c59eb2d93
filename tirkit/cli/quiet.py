"""Python's own compile-time warnings about the user's file stay out of the tools' output.

The front end reads a file with Python's ``ast.parse``, which warns about the text it compiles
(``1if x else y``: "invalid decimal literal", ``"\\d"``: "invalid escape sequence") on standard
error, as ``<unknown>:LINE: SyntaxWarning: ...`` -- no file name, and not a TVMScript
diagnostic. ``tirc``, ``tirfmt`` and ``tirls`` run with those warnings off; the library
(``tirkit.lang.from_source``) leaves Python's warning filters as the caller set them.
"""
from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, TypeVar

__all__ = ["without_python_warnings"]

F = TypeVar("F", bound=Callable[..., Any])


def without_python_warnings(main: F) -> F:
    """``main`` run with ``SyntaxWarning`` and ``DeprecationWarning`` ignored (restored after)."""
    @functools.wraps(main)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            return main(*args, **kwargs)
    return wrapped  # type: ignore[return-value]
