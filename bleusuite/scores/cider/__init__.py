"""CIDEr-D (pycocoevalcap 1.2's ``Cider``): :mod:`~bleusuite.scores.cider.formula` (the
vectorised arithmetic), :mod:`~bleusuite.scores.cider.score` (the public functions)."""

from bleusuite.scores.cider.score import (
    CiderDocumentFrequency,
    cider_document_frequency,
    corpus_cider,
    sentence_cider,
)

__all__ = ["CiderDocumentFrequency", "cider_document_frequency", "corpus_cider",
           "sentence_cider"]
