"""evaluate modules shipped with bleusuite: ``sacrebleu``, ``bleu``, ``google_bleu`` and
``ter`` with the inputs, keys, scales and numbers of evaluate's own modules of those names,
loaded from the package (no hub, no network):
``evaluate.load(bleusuite.evaluate.module_path(name))``.

* ``sacrebleu``: sacrebleu's ``corpus_bleu`` (:class:`bleusuite.sacrebleu.BLEU`): ``score``
  (0-100), ``counts``, ``totals``, ``precisions``, ``bp``, ``sys_len``, ``ref_len``;
* ``bleu``: the tensorflow/nmt script's BLEU that evaluate's ``bleu`` runs (13a tokens,
  the shortest reference length, ``smooth=True``: ``smooth="nmt_smooth"``): ``bleu``
  (0-1), ``precisions``, ``brevity_penalty``, ``length_ratio``, ``translation_length``,
  ``reference_length``;
* ``google_bleu``: NLTK's ``corpus_gleu`` on 13a tokens: ``google_bleu`` (0-1);
* ``ter``: sacrebleu's ``TER`` (:class:`bleusuite.sacrebleu.TER`): ``score`` (0-100),
  ``num_edits``, ``ref_length``.

Each module is a directory here with its script (``bleu/bleu.py``, ...); the scripts need
``evaluate`` (``pip install "bleusuite[evaluate]"``), this function does not.

>>> import os
>>> path = module_path("bleu")
>>> os.path.basename(path), os.path.isfile(os.path.join(path, "bleu.py"))
('bleu', True)
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["MODULES", "features", "module_path", "per_prediction"]

#: the modules shipped, by evaluate's names
MODULES = ("sacrebleu", "bleu", "google_bleu", "ter")


def module_path(name: str) -> str:
    """The directory of the module ``name`` (one of :data:`MODULES`), for ``evaluate.load``.

    Raises:
        ValueError: ``name`` is not one of :data:`MODULES`.
    """
    if name not in MODULES:
        raise ValueError(f"name must be one of {', '.join(MODULES)}; got {name!r}")
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)


def features() -> list[Any]:
    """evaluate's input features of its BLEU modules: a prediction string with a list of
    reference strings, or with one reference string (needs ``datasets``)."""
    import datasets

    return [
        datasets.Features({
            "predictions": datasets.Value("string", id="sequence"),
            "references": datasets.Sequence(datasets.Value("string", id="sequence"),
                                            id="references"),
        }),
        datasets.Features({
            "predictions": datasets.Value("string", id="sequence"),
            "references": datasets.Value("string", id="sequence"),
        }),
    ]


def per_prediction(references: list[Any]) -> list[list[str]]:
    """evaluate's references as lists (one string per prediction becomes a list of one),
    as its modules read them (``isinstance(references[0], str)``).

    >>> per_prediction(["a", "b"]), per_prediction([["a", "c"], ["b"]])
    ([['a'], ['b']], [['a', 'c'], ['b']])
    """
    if references and isinstance(references[0], str):
        return [[reference] for reference in references]
    return [list(refs) for refs in references]
