"""Shared fixtures: the reference data next to the checkout, and small word lists."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ROOT / "grids"
SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))
#: Crossword files written by other programs (../shared/data/realfiles/README.md).
REALFILES = SHARED / "realfiles"
#: Fixtures kept in the checkout (provenance and licence in tests/data/README.md).
DATA = Path(__file__).resolve().parent / "data"


#: Size of the benchmark dictionary words.txt (Anbulagan & Botea), and of its stand-in.
BENCHMARK_WORDS = 45_371
#: The stand-in: a frozen list of the benchmark's shape, made from the built-in English list.
STAND_IN = DATA / "words-stand-in.txt"


def _shared_missing() -> str | None:
    """Why the tests marked ``shared`` cannot run here, or None when ../shared/data is present."""
    if (SHARED / "dict").is_dir():
        return None
    return f"needs the benchmark data in ../shared/data (or CSP_CROSSWORD_SHARED); {SHARED / 'dict'} not present"


def pytest_collection_modifyitems(config, items):
    """A test that asks for ``shared_dict`` is a ``shared`` test (``-m shared`` selects it);
    every ``shared`` test is skipped, with the reason, when ../shared/data is absent."""
    reason = _shared_missing()
    for item in items:
        if "shared_dict" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.shared)
        if reason and item.get_closest_marker("shared"):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session", autouse=True)
def private_data_home(tmp_path_factory):
    """$XDG_DATA_HOME in a folder of this run (of this worker, under pytest-xdist), for the tests and
    the commands and servers they start: the default clue database and word-list overrides live
    there, so no test reads or writes the user's, and parallel workers never share one. The cache
    of ready indexes stays shared: it is written atomically, and rebuilding it per worker is slow."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
        yield


@pytest.fixture(scope="session")
def shared_dict():
    """Path of a dictionary in ../shared/data/dict (the test is skipped when it is absent).
    Only tests that need the published data itself use this; the others use benchmark_words."""

    def find(name: str) -> Path:
        path = SHARED / "dict" / name
        if not path.exists():
            pytest.skip(f"needs the benchmark data: {path} not present")
        return path

    return find


@pytest.fixture(scope="session")
def benchmark_words() -> Path:
    """A plain word list of the Herald benchmark's shape: ../shared's words.txt when present,
    otherwise tests/data/words-stand-in.txt, a frozen list of the same size and form made from
    the package's built-in English list (its BENCHMARK_WORDS most frequent all-letter words of
    2 to 21 letters, lowercase, one per line, unscored), so a clean clone runs the same tests."""
    path = SHARED / "dict" / "words.txt"
    return path if path.exists() else STAND_IN


@pytest.fixture(scope="session")
def words_lexicon(benchmark_words):
    from csp_crossword.words.wordlists import load_word_list

    lexicon, _ = load_word_list(benchmark_words)
    return lexicon


@pytest.fixture
def write(tmp_path):
    """Write a file under tmp_path and return its path."""

    def _write(name: str, content: str | bytes) -> str:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return str(path)

    return _write


@pytest.fixture(scope="session")
def quarter_lexicon(benchmark_words):
    """Every fourth word of the benchmark list (11,343 entries): small enough for every backend."""
    from csp_crossword.words.lexicon import Lexicon

    words = benchmark_words.read_text().split()
    return Lexicon.from_words(words[::4], name="words/4")


@pytest.fixture(scope="session")
def sparse_lexicon():
    """Every twelfth word of the stand-in (3,781 entries), whichever data is present: few enough
    words that the 4x4 puzzle03 still fills but only after failures (restarts and no-goods)."""
    from csp_crossword.words.lexicon import Lexicon

    words = STAND_IN.read_text().split()
    return Lexicon.from_words(words[::12], name="stand-in/12")


# ---- The browser tests' server and Chromium (tests/web/*browser*.py; page helpers in browser_page.py)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(*options: str):
    """``csp-crossword serve`` on a free port with ``options``, until the block ends; its address."""
    import httpx

    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "csp_crossword", "serve", "--port", str(port), "-q", *options], cwd=ROOT
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                if process.poll() is not None:  # e.g. the port was taken after _free_port let it go
                    pytest.fail(f"the server exited with code {process.returncode} before it answered")
                time.sleep(0.2)
        else:
            pytest.fail("the server did not answer within 60 s")
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def server():
    """One ``csp-crossword serve`` for every browser test of the run (of the worker, under xdist)."""
    with running_server("--workers", "2") as base:
        yield base


@pytest.fixture(scope="session")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


#: Chromium's window for every browser test (a test that resizes it puts it back; each module starts so).
WINDOW_SIZE = (1280, 900)


@pytest.fixture(scope="session")
def chromium(downloads, tmp_path_factory):
    """One headless Chromium for the run (of the worker): starting one takes seconds, so modules
    share it (``browser`` resets it for each)."""
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
        "--window-size={},{}".format(*WINDOW_SIZE),
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


@pytest.fixture(scope="module")
def browser(chromium, server, downloads):
    """The shared Chromium as a fresh profile would be for each module: one tab at the usual size,
    no downloaded files, and nothing kept by the shared server's page (drafts live in localStorage).
    Within a module the state carries over from test to test, as it does for a user."""
    first, *others = chromium.window_handles
    for handle in others:
        chromium.switch_to.window(handle)
        chromium.close()
    chromium.switch_to.window(first)
    chromium.set_window_size(*WINDOW_SIZE)
    chromium.get(f"{server}/api/health")
    chromium.execute_script("localStorage.clear(); sessionStorage.clear();")
    chromium.delete_all_cookies()
    for old in downloads.iterdir():
        old.unlink()
    return chromium


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("CSP_CROSSWORD_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
