"""bleusuite on Ray Data: corpus scores of a ``Dataset`` over any number of workers, and
per-row scores as a column (``pip install 'bleusuite[ray]'``).

- :func:`corpus_scores`: BLEU, GLEU, chrF, TER, ROUGE, WER and CER of one or several
  hypothesis columns, the single process's result objects to the last digit (the
  statistics are integer sums), and the paired tests;
- :class:`SentenceScorer`: a ``map_batches`` callable that adds each row's score, for
  filtering (``ds.filter``) or analysis.

bleusuite starts no process of its own here: Ray schedules the tasks, retries them and
moves the data. See ``docs/scale.md``.
"""

from __future__ import annotations

try:
    import ray.data  # noqa: F401  (the extra: Ray Data, with its pyarrow)
except ImportError as error:  # the extra is not installed
    raise ImportError(
        "bleusuite.ray needs Ray Data, which is not installed here: "
        "pip install 'bleusuite[ray]'"
    ) from error

from bleusuite.ray.corpus import DEFAULT_BATCH_ROWS, corpus_scores
from bleusuite.ray.results import CorpusScores, Result
from bleusuite.ray.sentences import SentenceScorer

__all__ = ["DEFAULT_BATCH_ROWS", "CorpusScores", "Result", "SentenceScorer", "corpus_scores"]
