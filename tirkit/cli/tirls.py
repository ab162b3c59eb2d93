"""``tirls``: the TVMScript language server's command line (DESIGN.md §5).

Speaks LSP over stdin/stdout by default; ``--tcp [--host H] [--port P]`` listens on a socket
for debugging. Exit status 0 after a normal shutdown, 2 on usage errors.
"""
from __future__ import annotations

import argparse
import logging
import sys

from .quiet import without_python_warnings


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tirls``."""
    parser = argparse.ArgumentParser(prog="tirls", description="TVMScript language server.")
    parser.add_argument("--stdio", action="store_true", help="use stdin/stdout (default)")
    parser.add_argument("--tcp", action="store_true", help="listen on TCP (for debugging)")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (default 2087)")
    parser.add_argument("--log-file", help="write the server log to this file")
    parser.add_argument("--log-level", default="WARNING",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    return parser


@without_python_warnings
def main(argv: list[str] | None = None) -> int:
    """Entry point of ``tirls``."""
    args = build_parser().parse_args(argv)
    if args.version:
        from tirkit import __version__  # pylint: disable=import-outside-toplevel

        print(f"tirls {__version__}")
        return 0
    if args.log_file:
        logging.basicConfig(filename=args.log_file, level=getattr(logging, args.log_level))
    else:
        logging.basicConfig(stream=sys.stderr, level=getattr(logging, args.log_level))
    from tirkit.lsp.server import server  # pylint: disable=import-outside-toplevel

    if args.tcp:
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    return 0


if __name__ == "__main__":
    sys.exit(main())
