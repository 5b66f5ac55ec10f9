"""``serve`` takes its port before anything else: a port in use (or an address not of this
machine) is one line and exit 2 at once, before the word lists load or the workers warm up."""

from __future__ import annotations

import socket

import pytest
from csp_crossword.cli import main, serve
from csp_crossword.core.errors import ExitCode

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")


@pytest.fixture
def port_in_use():
    """A port another socket listens on."""
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    yield taken.getsockname()[1]
    taken.close()


def test_a_port_in_use_is_exit_2_with_one_line_before_any_warm_up(port_in_use, capsys, monkeypatch):
    def no_warm_up(*args, **kwargs):
        raise AssertionError("the server was set up although its port is taken")

    monkeypatch.setattr(serve, "_serve", no_warm_up)
    code = main(["serve", "--port", str(port_in_use)])
    err = capsys.readouterr().err
    assert code == ExitCode.BAD_INPUT == 2
    assert err == f"csp-crossword: error: port {port_in_use} is in use: pick another with --port\n"


def test_a_host_that_is_not_this_machine_is_exit_2(capsys):
    code = main(["serve", "--host", "192.0.2.1", "--port", "8000"])  # TEST-NET-1: never ours
    assert code == 2 and "--host 192.0.2.1: not an address of this machine" in capsys.readouterr().err


def test_a_free_port_is_bound_for_the_server_to_listen_on():
    listener = serve.bound_socket("127.0.0.1", 0)
    try:
        port = listener.getsockname()[1]
        listener.listen()
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    finally:
        listener.close()
