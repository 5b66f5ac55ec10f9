from csp_crossword.words import builtin
from csp_crossword.words.builtin import _normalize, builtin_lexicon, zipf_to_score


def test_zipf_mapping_is_monotone_and_clamped():
    values = [zipf_to_score(z / 10) for z in range(0, 90)]
    assert values == sorted(values)
    assert values[0] == 1 and values[-1] == 100


def test_normalisation_per_script():
    assert _normalize("hello", "en") == "HELLO"
    assert _normalize("don't", "en") is None
    assert _normalize("x2", "en") is None
    assert _normalize("مُحَمَّد", "ar") == "محمد"
    assert _normalize("abc", "ar") is None
    assert _normalize("বাংলা", "bn") == "বাংলা"
    assert _normalize("১২৩", "bn") is None


def test_builtin_english_is_cached_in_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cold = builtin_lexicon("en")
    assert len(cold) > 200_000
    cached = list(tmp_path.joinpath("csp-crossword").iterdir())
    assert len(cached) == 1 and cached[0].name.startswith("builtin-en-")

    def rebuilt(*args, **kwargs):
        raise AssertionError("the cached list was built again instead of read")

    monkeypatch.setattr(builtin, "derive_scores", rebuilt)
    warm = builtin_lexicon("en")  # read from the cache: nothing is derived again
    assert warm.scores == cold.scores
    assert "THE" in warm and 50 <= warm.scores["THE"] <= 100
    assert all(2 <= len(w) <= 25 and w.isalpha() and w.isascii() for w in warm.scores)
    assert not set(builtin._blocklist("en")) & set(warm.scores)


def test_web_frequency_list_stays_available_as_en_web(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    web = builtin_lexicon("en-web")
    assert len(web) > 200_000
    assert web.scores["THE"] == 100  # Zipf 7.7: the top of the frequency scale
    assert "SHIT" not in web and not set(builtin._blocklist("en")) & set(web.scores)
    assert {path.name.split("-v")[0] for path in tmp_path.joinpath("csp-crossword").iterdir()} == {"builtin-en-web"}


def test_corrupt_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = builtin.cache_path("bn")
    tmp_path.joinpath("csp-crossword").mkdir()
    with open(path, "wb") as handle:
        handle.write(b"not a pickle")
    lexicon = builtin_lexicon("bn")
    assert len(lexicon) > 1000
    assert all(_normalize(w, "bn") == w for w in list(lexicon.scores)[:500])


def test_builtin_english_leaves_out_offensive_words():
    # Vulgar words (better-profanity's list) only when allowed; slurs (our blocklist) never;
    # words that merely share letters with a listed phrase stay.
    from importlib import resources

    slurs = {
        line.strip().upper()
        for line in resources.files("csp_crossword.words").joinpath("data/blocklist-en.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    clean = builtin_lexicon("en")
    allowed = builtin_lexicon("en", allow_offensive=True)
    for word in ("SHIT", "FUCK", "BITCH", "ASSHOLE"):
        assert word not in clean and word in allowed, word
    for word in sorted(slurs):
        assert word not in clean and word not in allowed, word
    for word in ("CUP", "GIRLS", "AUTO", "OKRA", "ONYX"):
        assert word in clean, word
    assert len(allowed) > len(clean)


def test_cache_of_another_source_is_rebuilt(tmp_path, monkeypatch):
    # A cache file at the right name that says it was built from something else (a stale or
    # planted file) is not used: the list is rebuilt from its source (English's, the quickest to build).
    from csp_crossword.words.ready_index import ReadyIndex

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = builtin.cache_path("en")
    tmp_path.joinpath("csp-crossword").mkdir()
    planted = ReadyIndex.of({"QXPLANTED": 99}).to_bytes({"vulgar": {}, "source": "something else"})
    with open(path, "wb") as handle:
        handle.write(planted)
    lexicon = builtin_lexicon("en")
    assert "QXPLANTED" not in lexicon and len(lexicon) > 1000
    _, extra = ReadyIndex.load(path)
    assert extra["source"] == builtin.source_stamp("en")


def test_no_slur_nor_its_plural_is_offered_by_default():
    from csp_crossword.words.builtin import _blocklist_bytes, builtin_lexicon

    lexicon = builtin_lexicon("en")
    slurs = {
        line.strip().upper()
        for line in _blocklist_bytes("en").decode().splitlines()
        if line.strip() and not line.startswith("#")
    }
    for form in sorted(builtin.with_inflections(slurs)):
        assert form not in lexicon, form
    assert {"YIDS", "WOPS", "DAGOS", "DAGOES", "WOGS"}.isdisjoint(lexicon.scores)
    assert {"SPICES", "SPACES", "TACOS", "TOMES"} <= set(lexicon.scores)  # other words that merely look alike
