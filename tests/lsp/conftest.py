"""pytest-lsp set-up: a real ``python -m tirkit.lsp`` process over stdio per test module."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

DATA = Path(__file__).resolve().parent / "data"
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "tirkit.lsp"])


def _caps(pull: bool) -> types.ClientCapabilities:
    caps = client_capabilities("visual_studio_code")
    if not pull and caps.text_document is not None:
        caps.text_document.diagnostic = None
    return caps


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient):
    """A client without pull diagnostics: the server pushes them."""
    await lsp_client.initialize_session(types.InitializeParams(capabilities=_caps(False)))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=SERVER)
async def pull_client(lsp_client: LanguageClient):
    """A client that pulls diagnostics (``textDocument/diagnostic``)."""
    await lsp_client.initialize_session(types.InitializeParams(capabilities=_caps(True)))
    yield
    await lsp_client.shutdown_session()
