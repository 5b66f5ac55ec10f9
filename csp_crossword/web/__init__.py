"""``csp-crossword serve``: the web constructor, a FastAPI app on the library API.

:mod:`.models` validates requests, :mod:`.jobs` runs solver work in a bounded pool of worker
processes (:mod:`.worker`), :mod:`.wordlists` keeps the word lists the page can use, :mod:`.app`
holds the routes and :mod:`.pages` the quick requests. FastAPI and uvicorn are imported only by
``serve`` (the ``web`` extra). See docs/web.md.
"""
