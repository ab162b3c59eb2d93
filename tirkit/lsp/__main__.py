"""``python -m tirkit.lsp``: the same as ``tirls``."""
import sys

from tirkit.cli.tirls import main

sys.exit(main())
