"""bleusuite: exact, vectorised BLEU and GLEU on batches of token ids.

The same definitions run on NumPy, PyTorch (CPU or CUDA) and CuPy arrays, chosen by the
type of the input. Each smoothing name reproduces one reference library's numbers exactly
(NLTK, pytorch-ignite or sacrebleu).

>>> import numpy as np
>>> import bleusuite
>>> hyp = np.array([[5, 6, 7, 8, 9]])
>>> ref = np.array([[5, 6, 7, 8, 10]])
>>> bleusuite.sentence_bleu(hyp, ref).round(4)
array([0.6687])

The public names are imported on first access (PEP 562), so that ``import bleusuite`` and
the ``bleusuite`` command import NumPy only where they use it (a small ``bleusuite score``
run does not).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bleusuite.bleu import bleu_score, corpus_bleu, sentence_bleu
    from bleusuite.gleu import corpus_gleu, gleu_score, sentence_gleu
    from bleusuite.result import (
        BleuResult,
        GleuResult,
        corpus_bleu_result,
        corpus_gleu_result,
    )
    from bleusuite.smoothing import SMOOTHING_NAMES
    from bleusuite.stats import BleuStats, GleuStats, bleu_statistics, gleu_statistics

__version__ = "0.1.0"

__all__ = [
    "SMOOTHING_NAMES",
    "BleuResult",
    "BleuStats",
    "GleuResult",
    "GleuStats",
    "__version__",
    "bleu_score",
    "bleu_statistics",
    "corpus_bleu",
    "corpus_bleu_result",
    "corpus_gleu",
    "corpus_gleu_result",
    "gleu_score",
    "gleu_statistics",
    "sentence_bleu",
    "sentence_gleu",
]

#: the module of each public name, imported on first access
_LAZY: dict[str, str] = {
    **dict.fromkeys(("bleu_score", "corpus_bleu", "sentence_bleu"), "bleusuite.bleu"),
    **dict.fromkeys(("corpus_gleu", "gleu_score", "sentence_gleu"), "bleusuite.gleu"),
    **dict.fromkeys(("BleuResult", "GleuResult", "corpus_bleu_result", "corpus_gleu_result"),
                    "bleusuite.result"),
    "SMOOTHING_NAMES": "bleusuite.smoothing",
    **dict.fromkeys(("BleuStats", "GleuStats", "bleu_statistics", "gleu_statistics"),
                    "bleusuite.stats"),
}


def _lazy_attribute(namespace: dict[str, Any], table: dict[str, str], name: str) -> Any:
    """PEP 562's ``__getattr__`` of a package whose names ``table`` maps to the modules
    that define them: imports the module, keeps the name in ``namespace``."""
    module = table.get(name)
    if module is None:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value


def __getattr__(name: str) -> Any:
    return _lazy_attribute(globals(), _LAZY, name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
