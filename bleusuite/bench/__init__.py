"""The benchmark kit: ``bleusuite bench``, a quick side-by-side of bleusuite and the BLEU /
GLEU libraries installed here, on one batch of random token ids, with every score checked.

::

    bleusuite bench                                  # 64 x 512 ids, 1 reference, NumPy
    bleusuite bench --batch 256 --length 1024 --backend numpy --backend torch
    bleusuite bench --refs 4 --metric bleu --scope corpus --plot bench.png
    python -m bleusuite.bench --help              # the same command

Every implementation of a task (per-sentence or corpus BLEU or GLEU) gets the same
sentences, converted beforehand to the form it takes: token-id arrays for bleusuite, lists
of ints for NLTK and pytorch-ignite, space-joined ids for sacrebleu (``tokenize="none"``)
and torchmetrics. Each one is run ``--repeat`` times and the best time is kept (bleusuite
gets one more untimed call first, which loads its backend). Its scores are then compared
with bleusuite's for the same definition of the score: to 1e-12 where the definitions
match exactly (NLTK, sacrebleu, pytorch-ignite), to 1e-6 for torchmetrics (float32
arithmetic, by design). A peer that is not installed is listed as skipped, never an error.

The exit status is 0 when every score agrees, 1 when one does not, 2 for a usage error
(including a ``--backend`` that cannot run here).

The same entries (:func:`entries`) drive the pytest-benchmark suite in ``benchmarks/``
(``docs/benchmarks.md``); the library never imports this package.
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
