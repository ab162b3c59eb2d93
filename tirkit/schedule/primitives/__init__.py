"""Schedule primitives, one module per group; importing a module registers its primitives as
Schedule methods and instruction kinds (see ``tirkit/schedule/README.md``)."""
