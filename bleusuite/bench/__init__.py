"""The benchmark kit: ``bleusuite bench`` (or ``python -m bleusuite.bench``), a quick
side-by-side of bleusuite and the BLEU / GLEU libraries installed here on one batch of
random token ids, each given the sentences in the form it takes (converted beforehand),
each run ``--repeat`` times (the best time kept) and its scores checked against
bleusuite's: to 1e-12 where the definitions match, to 1e-6 for torchmetrics (float32). A
peer that is not installed is listed as skipped. The exit status is 0 when every score
agrees, 1 when one does not, 2 for a usage error. Examples and options:
``docs/benchmarks.md``.

The same entries (:func:`entries`) drive the pytest-benchmark suite in ``benchmarks/``;
the library never imports this package.
"""

from bleusuite.bench.command import add_arguments, main, run
from bleusuite.bench.measure import Measurement, format_table, measure
from bleusuite.bench.peers import BACKEND_UNAVAILABLE, bleusuite_entry, entries
from bleusuite.bench.plot import save_plot
from bleusuite.bench.tasks import (
    BACKENDS,
    EXACT,
    NLTK_SETTINGS,
    PEERS,
    TASKS,
    Entry,
    Inputs,
    Task,
    score,
    zipf_batch,
)

__all__ = [
    "BACKENDS",
    "PEERS",
    "TASKS",
    "Entry",
    "Inputs",
    "Measurement",
    "Task",
    "add_arguments",
    "entries",
    "format_table",
    "main",
    "measure",
    "run",
    "save_plot",
    "zipf_batch",
]

#: also re-exported, for the code written against the single-module ``bleusuite.bench``
_REEXPORTED = (BACKEND_UNAVAILABLE, EXACT, NLTK_SETTINGS, bleusuite_entry, score)
