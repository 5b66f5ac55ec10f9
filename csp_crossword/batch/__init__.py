"""Batches: many fills, generated puzzles and freeform boards from one spec, on many workers.

``spec`` reads a TOML/JSON spec into jobs; ``worker`` runs one job in a worker process;
``engines`` run tasks on a local process pool or a Ray cluster behind one interface; ``runner``
drives a batch into an output folder (atomic result files, a JSON-lines ``manifest``, resume);
``checks`` re-reads every result file and verifies it independently. See docs/batch.md.
"""

from .runner import BatchProgress, BatchReport, run_batch
from .spec import BatchJob, BatchSpec, read_spec

__all__ = ["BatchJob", "BatchProgress", "BatchReport", "BatchSpec", "read_spec", "run_batch"]
