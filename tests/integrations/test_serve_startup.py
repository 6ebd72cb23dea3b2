"""``palaestra serve`` says it is ready only once it answers, and starts without openenv-core's Gradio UI."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("openenv.core")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_ready_line_comes_when_the_server_answers() -> None:
    port = _free_port()
    command = [sys.executable, "-c", "from palaestra.cli import main; raise SystemExit(main())", "serve"]
    server = subprocess.Popen([*command, "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # the first line the server prints
        assert "ready on ws://127.0.0.1" in line, line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as response:  # at once
            assert response.status == 200
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_the_server_module_does_not_load_gradio_and_leaves_it_importable() -> None:
    probe = ("import sys, importlib.util; import palaestra.integrations.openenv_server; "
             "print('gradio' in sys.modules, importlib.util.find_spec('gradio') is not None)")
    loaded, installed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                       check=True, timeout=120).stdout.split()
    assert loaded == "False"
    if installed == "True":  # openenv-core's dependency: still importable by anyone who wants its UI
        subprocess.run([sys.executable, "-c", "import palaestra.integrations.openenv_server; import gradio"],
                       check=True, timeout=120, capture_output=True)
