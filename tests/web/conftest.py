"""Fixtures of the browser tests: a `csp-crossword serve` of their own and a headless Chromium
driven by selenium (see tests/browser_page.py for the page helpers and the skip rule)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    import httpx

    process = subprocess.Popen(
        [sys.executable, "-m", "csp_crossword", "serve", "--port", str(port), "--workers", "2", "-q"], cwd=REPO
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("the server did not answer within 60 s")
    yield base
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads, tmp_path_factory):
    from browser_page import CHROMEDRIVER, CHROMIUM, webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("CSP_CROSSWORD_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
