"""The ready index cache of list files: the first load writes it, later loads of the same bytes map
it (parsing nothing) and give the same list and the same report; a changed file, a damaged cache
or an unwritable cache directory never give a wrong list."""

from __future__ import annotations

import os

import pytest
from csp_crossword.words import list_cache, wordlists
from csp_crossword.words.wordlists import load_word_list

LIST = "cat;60\nDog;70\nice age;64\nemu 20\nowl\t55\nAT&T;40\ncat;30\n" + "X" * 300 + "\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The cache folder, with every list cached whatever its size."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(list_cache, "MIN_CACHED_BYTES", 0)
    return tmp_path / "cache" / "csp-crossword"


def _cached(cache) -> list[str]:
    return sorted(path.name for path in cache.iterdir()) if cache.exists() else []


def _parsing_fails(monkeypatch):
    def parse(*args, **kwargs):
        raise AssertionError("the list was parsed")

    for reader in ("_load_plain", "load_csv", "load_json"):
        monkeypatch.setattr(wordlists, reader, parse)


def _view(lexicon, report):
    return (
        list(lexicon.scores.items()),
        dict(lexicon.display),
        dict(lexicon.clues),
        lexicon.word_uses(),
        lexicon.name,
        report.warning(),
    )


def test_the_second_load_maps_the_cache_and_gives_the_same_list(cache, write, monkeypatch):
    path = write("my.dict", LIST)
    first = load_word_list(path)
    assert len(_cached(cache)) == 1 and list_cache.CACHE_NAME.fullmatch(_cached(cache)[0])
    _parsing_fails(monkeypatch)
    second = load_word_list(path)
    assert _view(*second) == _view(*first)
    lexicon, report = second
    assert list(lexicon.scores) == ["CAT", "DOG", "ICEAGE", "EMU", "OWL"]  # the file's order
    assert lexicon.scores["CAT"] == 60 and lexicon.display_form("ICEAGE") == "ice age"
    assert lexicon.display_form("DOG") == "Dog" and lexicon.display_form("CAT") == "cat"
    assert lexicon.word_uses()["CAT"] == 2 and lexicon.index(3).words == ("DOG", "CAT", "OWL", "EMU")
    assert report.counts == {"characters": 1, "long": 1} and report.repeats == 1


def test_a_cached_list_keeps_clues_and_names_the_file_it_was_loaded_from(cache, write, monkeypatch):
    text = 'word,score,clue\ncat,60,"A pet, often"\nhot dog,65,Frank\nowl,,Night bird\n'
    first = load_word_list(write("a.csv", text))
    _parsing_fails(monkeypatch)
    lexicon, report = load_word_list(write("b.csv", text))  # the same bytes under another name
    assert len(_cached(cache)) == 1
    assert lexicon.clue("CAT") == "A pet, often" and lexicon.clue("OWL") == "Night bird"
    assert lexicon.display_form("HOTDOG") == "hot dog" and lexicon.scores["OWL"] == 50
    assert lexicon.name == "b.csv" and report.path.endswith("b.csv")
    assert dict(lexicon.clues) == dict(first[0].clues)


def test_changed_content_makes_a_new_cache(cache, write):
    path = write("my.dict", "cat;60\ndog;70\n")
    load_word_list(path)
    write("my.dict", "cat;60\ndog;75\n")
    lexicon, _ = load_word_list(path)
    assert lexicon.scores == {"CAT": 60, "DOG": 75} and len(_cached(cache)) == 2


def test_a_damaged_cache_is_rebuilt(cache, write):
    path = write("my.dict", LIST)
    expected = _view(*load_word_list(path))
    (name,) = _cached(cache)
    data = (cache / name).read_bytes()
    for damaged in (b"", b"not an index", data[: len(data) // 2], data.replace(b'"order"', b'"ordeR"')):
        (cache / name).write_bytes(damaged)
        assert _view(*load_word_list(path)) == expected
        assert (cache / name).read_bytes() == data  # written again


def test_a_cache_of_other_bytes_is_not_used(cache, write):
    load_word_list(write("a.dict", "cat;60\n"))
    (theirs,) = _cached(cache)
    key = list_cache.cache_key(b"dog;70\n", "text")
    os.replace(cache / theirs, cache / f"list-{key}.index")
    lexicon, _ = load_word_list(write("b.dict", "dog;70\n"))
    assert lexicon.scores == {"DOG": 70}


def test_an_unwritable_cache_directory_only_costs_the_rebuild(tmp_path, write, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setattr(list_cache, "MIN_CACHED_BYTES", 0)
    path = write("my.dict", LIST)
    first, second = load_word_list(path), load_word_list(path)
    assert _view(*first) == _view(*second) and first[0].scores["DOG"] == 70


def test_the_least_recently_used_caches_are_removed(cache, write, monkeypatch):
    monkeypatch.setattr(list_cache, "MAX_LIST_CACHES", 2)
    a, b = write("a.dict", "cat;1\n"), write("b.dict", "dog;2\n")
    load_word_list(a)
    load_word_list(b)
    for path, when in ((a, 1000), (b, 2000)):  # a used long ago, b later
        with open(path, "rb") as handle:
            key = list_cache.cache_key(handle.read(), "text")
        os.utime(list_cache.cache_path(key), (when, when))
    load_word_list(a)  # a is used again: now b is the least recently used
    load_word_list(write("c.dict", "emu;3\n"))
    kept = _cached(cache)
    assert (
        len(kept) == 2 and os.path.basename(list_cache.cache_path(list_cache.cache_key(b"dog;2\n", "text"))) not in kept
    )


def test_small_lists_and_override_files_are_read_every_time(tmp_path, write, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    load_word_list(write("small.dict", LIST))
    monkeypatch.setattr(list_cache, "MIN_CACHED_BYTES", 0)
    load_word_list(write("o.txt", "cat;60\n"), strict=True)
    assert not (tmp_path / "cache").exists()


def test_the_key_holds_the_reader_settings(monkeypatch):
    key = list_cache.cache_key(b"cat;60\n", "text")
    assert list_cache.cache_key(b"cat;60\n", "csv") != key
    monkeypatch.setattr(list_cache, "LIST_CACHE_FORMAT", list_cache.LIST_CACHE_FORMAT + 1)
    assert list_cache.cache_key(b"cat;60\n", "text") != key


def test_each_spelling_has_its_own_cache(cache, write):
    path = write("my.dict", "colour;60\ncolor;60\n")
    us, any_ = load_word_list(path, spelling="us"), load_word_list(path)
    assert set(us[0].scores) == {"COLOR"} and set(any_[0].scores) == {"COLOUR", "COLOR"}
    assert len(_cached(cache)) == 2
    assert set(load_word_list(path, spelling="us")[0].scores) == {"COLOR"}
    assert load_word_list(path, spelling="us")[1].counts == {"spelling": 1}


def test_cached_lists_combine_as_read_ones(cache, write):
    from csp_crossword.words.wordlists import load_word_lists

    paths = [write("a.dict", "cat;60\ndog\ndog\n"), write("b.dict", "cat;70\nemu\n")]
    lexicon, reports = load_word_lists(paths)
    assert lexicon.scores == {"CAT": 70, "DOG": 50, "EMU": 50}
    assert lexicon.word_uses() == {"CAT": 2, "DOG": 2, "EMU": 1}  # each listing counts (--exact)
    assert [report.repeats for report in reports] == [1, 0]
