"""The ready word index file (the built-in lists' cache): round trip, and damaged or hostile
files refused with ValueError, never another exception and never code run."""

import marshal
import pickle

import pytest
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.ready_file import READY_MAGIC, unpack
from csp_crossword.words.ready_index import ReadyIndex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SCORES = {"CAT": 60, "COT": 40, "DOG": 55, "ICEAGE": 70, "AB": 10, "ÉTÉ": 30}


def small_file() -> bytes:
    return ReadyIndex.of(SCORES).to_bytes({"vulgar": {"DAMN": 20}, "source": "test"})


def read_everything(data: bytes) -> dict[int, tuple[list[str], list[int], list[list[int]] | None]]:
    ready, _ = ReadyIndex.from_buffer(data)
    return {n: (ready.words(n), ready.scores(n), ready.bits(n)) for n in ready.lengths}


def test_round_trip_keeps_entries_scores_bitsets_and_extra():
    ready, extra = ReadyIndex.from_buffer(small_file())
    assert extra == {"vulgar": {"DAMN": 20}, "source": "test"}
    lexicon = Lexicon(None, ready=ready)
    assert lexicon.scores == SCORES
    fresh = Lexicon(dict(SCORES))
    for n in (2, 3, 6):
        assert lexicon.index(n).words == fresh.index(n).words
        assert lexicon.index(n).bits == fresh.index(n).bits


@pytest.mark.parametrize(
    "payload",
    [
        pickle.dumps({"vulgar": {}}),
        marshal.dumps({"lengths": {}}),
        READY_MAGIC + b"\x01\x00\x00\x00\x04\x00\x00\x00" + marshal.dumps({}),  # layout 1
        b"",
    ],
)
def test_other_files_are_refused(payload):
    with pytest.raises(ValueError):
        ReadyIndex.from_buffer(payload)


def test_header_placing_a_section_outside_the_file_is_refused():
    data = small_file()
    header_size = int.from_bytes(data[len(READY_MAGIC) + 4 : len(READY_MAGIC) + 8], "little")
    header = data[len(READY_MAGIC) + 8 : len(READY_MAGIC) + 8 + header_size]
    bad = header.replace(b'"6":[1,94,6,100,', b'"6":[1,94,6,900,', 1)  # scores past the end
    assert bad != header
    with pytest.raises(ValueError):
        unpack(data.replace(header, bad))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_files_read_or_raise_value_error(data):
    original = bytearray(small_file())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(original) - 1))
        original[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(len(original) // 2, len(original)))
    try:
        read_everything(bytes(original[:cut]))
    except ValueError:
        pass
