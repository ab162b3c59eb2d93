"""``tirls``, the TVMScript language server (DESIGN.md §2, L3): pygls handlers in
:mod:`tirkit.lsp.server` over pure, separately tested functions (analysis cache, diagnostics,
hover, navigation, editing, lowering previews). Run it with ``tirls`` or ``python -m tirkit.lsp``.
"""
