"""Batches: many fills, generated puzzles and freeform boards from one spec, on many workers.

``spec`` reads a TOML/JSON spec into jobs; ``worker`` runs one job in a worker process (on an
engine of :mod:`csp_crossword.engines`: a local process pool or a Ray cluster); ``runner`` drives
a batch into an output folder (atomic result files, a JSON-lines ``manifest``, resume);
``checks`` re-reads every result file and verifies it independently. See docs/batch.md.
"""

from .runner import BatchProgress, BatchReport, run_batch
from .spec import BatchJob, BatchSpec, read_spec

__all__ = ["BatchJob", "BatchProgress", "BatchReport", "BatchSpec", "read_spec", "run_batch"]
