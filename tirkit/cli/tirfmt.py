"""`tirfmt` command line (placeholder until its issue lands)."""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point of `tirfmt`: not implemented yet; prints so on stderr and returns 2."""
    del argv
    print("tirfmt: not implemented yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
