"""bleusuite: exact, vectorised BLEU, GLEU, chrF, TER and ROUGE on batches of token ids and
text.

The same definitions run on NumPy, PyTorch (CPU or CUDA) and CuPy arrays, chosen by the
type of the input. Each smoothing name reproduces one reference library's numbers exactly
(NLTK, pytorch-ignite or sacrebleu).

>>> import numpy as np
>>> import bleusuite
>>> hyp = np.array([[5, 6, 7, 8, 9]])
>>> ref = np.array([[5, 6, 7, 8, 10]])
>>> bleusuite.sentence_bleu(hyp, ref).round(4)
array([0.6687])

The public names are imported on first access (PEP 562): ``import bleusuite`` costs
nothing until a name is used, and the command imports only what it runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bleusuite.inputs.checks import PaddingWarning
    from bleusuite.scores.bleu.pairwise import pairwise_sentence_bleu, self_bleu
    from bleusuite.scores.bleu.prefix import prefix_sentence_bleu
    from bleusuite.scores.bleu.result import BleuResult, corpus_bleu_result
    from bleusuite.scores.bleu.score import bleu_score, corpus_bleu, sentence_bleu
    from bleusuite.scores.bleu.smoothing import SMOOTHING_NAMES
    from bleusuite.scores.bleu.statistics import BleuStats, bleu_statistics
    from bleusuite.scores.chrf.result import ChrfResult, corpus_chrf_result
    from bleusuite.scores.chrf.score import chrf_score, corpus_chrf, sentence_chrf
    from bleusuite.scores.chrf.statistics import ChrfStats
    from bleusuite.scores.cider.score import (
        CiderDocumentFrequency,
        cider_document_frequency,
        corpus_cider,
        sentence_cider,
    )
    from bleusuite.scores.gleu.result import GleuResult, corpus_gleu_result
    from bleusuite.scores.gleu.score import corpus_gleu, gleu_score, sentence_gleu
    from bleusuite.scores.gleu.statistics import GleuStats, gleu_statistics
    from bleusuite.scores.rouge.result import RougeResult, corpus_rouge_result
    from bleusuite.scores.rouge.score import (
        corpus_rouge,
        rouge_score,
        rouge_scores,
        sentence_rouge,
    )
    from bleusuite.scores.rouge.statistics import RougeStats
    from bleusuite.scores.ter.result import TerResult, corpus_ter_result
    from bleusuite.scores.ter.score import corpus_ter, sentence_ter, ter_score, ter_statistics
    from bleusuite.scores.ter.statistics import TerStats
    from bleusuite.scores.wer.score import (
        EditResult,
        corpus_cer,
        corpus_wer,
        sentence_cer,
        sentence_wer,
        wer_statistics,
    )
    from bleusuite.scores.wer.statistics import WerStats

from bleusuite.version import VERSION as __version__

__all__ = [
    "SMOOTHING_NAMES",
    "BleuResult",
    "BleuStats",
    "ChrfResult",
    "ChrfStats",
    "CiderDocumentFrequency",
    "EditResult",
    "GleuResult",
    "GleuStats",
    "PaddingWarning",
    "RougeResult",
    "RougeStats",
    "TerResult",
    "TerStats",
    "WerStats",
    "__version__",
    "bleu_score",
    "bleu_statistics",
    "chrf_score",
    "cider_document_frequency",
    "corpus_bleu",
    "corpus_bleu_result",
    "corpus_cer",
    "corpus_chrf",
    "corpus_chrf_result",
    "corpus_cider",
    "corpus_gleu",
    "corpus_gleu_result",
    "corpus_rouge",
    "corpus_rouge_result",
    "corpus_ter",
    "corpus_ter_result",
    "corpus_wer",
    "gleu_score",
    "gleu_statistics",
    "pairwise_sentence_bleu",
    "prefix_sentence_bleu",
    "rouge_score",
    "rouge_scores",
    "self_bleu",
    "sentence_bleu",
    "sentence_cer",
    "sentence_chrf",
    "sentence_cider",
    "sentence_gleu",
    "sentence_rouge",
    "sentence_ter",
    "sentence_wer",
    "ter_score",
    "ter_statistics",
    "wer_statistics",
]

#: the module of each public name, imported on first access
_HOMES: dict[str, str] = {
    **dict.fromkeys(("bleu_score", "corpus_bleu", "sentence_bleu"), "bleusuite.scores.bleu.score"),
    **dict.fromkeys(("BleuResult", "corpus_bleu_result"), "bleusuite.scores.bleu.result"),
    **dict.fromkeys(("BleuStats", "bleu_statistics"), "bleusuite.scores.bleu.statistics"),
    "SMOOTHING_NAMES": "bleusuite.scores.bleu.smoothing",
    "PaddingWarning": "bleusuite.inputs.checks",
    **dict.fromkeys(("pairwise_sentence_bleu", "self_bleu"), "bleusuite.scores.bleu.pairwise"),
    "prefix_sentence_bleu": "bleusuite.scores.bleu.prefix",
    **dict.fromkeys(("chrf_score", "corpus_chrf", "sentence_chrf"), "bleusuite.scores.chrf.score"),
    **dict.fromkeys(("ChrfResult", "corpus_chrf_result"), "bleusuite.scores.chrf.result"),
    "ChrfStats": "bleusuite.scores.chrf.statistics",
    **dict.fromkeys(("CiderDocumentFrequency", "cider_document_frequency", "corpus_cider",
                     "sentence_cider"), "bleusuite.scores.cider.score"),
    **dict.fromkeys(("corpus_gleu", "gleu_score", "sentence_gleu"), "bleusuite.scores.gleu.score"),
    **dict.fromkeys(("GleuResult", "corpus_gleu_result"), "bleusuite.scores.gleu.result"),
    **dict.fromkeys(("GleuStats", "gleu_statistics"), "bleusuite.scores.gleu.statistics"),
    **dict.fromkeys(("corpus_rouge", "rouge_score", "rouge_scores", "sentence_rouge"),
                    "bleusuite.scores.rouge.score"),
    **dict.fromkeys(("RougeResult", "corpus_rouge_result"), "bleusuite.scores.rouge.result"),
    "RougeStats": "bleusuite.scores.rouge.statistics",
    **dict.fromkeys(("corpus_ter", "sentence_ter", "ter_score", "ter_statistics"),
                    "bleusuite.scores.ter.score"),
    **dict.fromkeys(("TerResult", "corpus_ter_result"), "bleusuite.scores.ter.result"),
    "TerStats": "bleusuite.scores.ter.statistics",
    **dict.fromkeys(("EditResult", "corpus_cer", "corpus_wer", "sentence_cer", "sentence_wer",
                     "wer_statistics"), "bleusuite.scores.wer.score"),
    "WerStats": "bleusuite.scores.wer.statistics",
}


def __getattr__(name: str) -> Any:
    """PEP 562: a public name is imported from its module on first access."""
    module = _HOMES.get(name)
    if module is None:
        raise AttributeError(f"module 'bleusuite' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
