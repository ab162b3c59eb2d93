"""Legalizations of the Relax operators through ``tirkit.topi`` (TVM's
``relax/transform/legalize_ops/*.py``)."""
from __future__ import annotations
