"""torchmetrics' ``BLEUScore`` and ``SacreBLEUScore``, and NLTK's GLEU as a torchmetrics
metric, over summed integer statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from bleusuite import checks
from bleusuite.inputs import Batch
from bleusuite.scores import rules
from bleusuite.scores.bleu.score import score_of
from bleusuite.scores.bleu.settings import BleuSettings
from bleusuite.scores.bleu.statistics import BleuStats, bleu_statistics_of_batch
from bleusuite.scores.gleu.score import gleu_score
from bleusuite.scores.gleu.statistics import GleuStats, gleu_statistics_of_batch
from bleusuite.text import Tokenizer, load_tokenizer
from bleusuite.torchmetrics.statistics_metric import StatisticsMetric

__all__ = ["BLEUScore", "GLEUScore", "SacreBLEUScore"]


class BLEUScore(StatisticsMetric):
    """BLEU of a corpus, a drop-in replacement for ``torchmetrics.text.BLEUScore``.

    With torchmetrics' arguments, torchmetrics' number (in float64, where its own is in the
    default dtype); text is split on whitespace, as torchmetrics does.

    Args:
        n_gram: the highest n-gram order.
        smooth: torchmetrics' ``False`` (``"no_smooth"``) or ``True``
            (``"torchmetrics_smooth"``), or any name of :data:`bleusuite.SMOOTHING_NAMES`.
        weights: one weight per order (default uniform ``1 / n_gram``).
        tokenize: how text is split: ``"none"`` (on whitespace, torchmetrics' ``BLEUScore``)
            or a sacrebleu tokenizer (``"13a"``, ``"intl"``, ``"zh"``, ``"char"``, ...).
        lowercase: lowercase text first (before tokenising, as sacrebleu does).
        ref_length: the brevity penalty's reference length: ``"closest_first"``
            (torchmetrics'), ``"closest"`` (NLTK's, sacrebleu's) or ``"shortest"``.
        pad_id: with token ids, the padding id (dropped anywhere).
        eos_id: with token ids, the id that ends a sentence.
        kwargs: torchmetrics' ``Metric`` arguments (``sync_on_compute``, ...).

    Raises:
        TypeError, ValueError: a bad argument, named.

    >>> import torch
    >>> metric = BLEUScore(n_gram=2, pad_id=0)
    >>> metric.update(torch.tensor([[4, 5, 6, 7, 0]]), torch.tensor([[4, 5, 6, 8, 9]]))
    >>> metric.update(["a b c"], [["a b c d", "a b"]])     # text and ids mix: counts add up
    >>> metric.compute()
    tensor(0.6223, dtype=torch.float64)
    """

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool | str = False,
        weights: Sequence[float] | None = None,
        *,
        tokenize: str = "none",
        lowercase: bool = False,
        ref_length: str = "closest_first",
        pad_id: int | None = None,
        eos_id: int | None = None,
        **kwargs: Any,
    ) -> None:
        self.n_gram = checks.order(n_gram, "n_gram")
        if isinstance(smooth, bool):
            name = "torchmetrics_smooth" if smooth else "no_smooth"
        elif isinstance(smooth, str):
            name = smooth
        else:
            raise TypeError(f"smooth must be a bool or a smoothing name; got {smooth!r}")
        self.smooth = smooth
        self.weights = None if weights is None else list(checks.weights(weights, self.n_gram))
        self._config = BleuSettings.of(max_order=self.n_gram, weights=self.weights, smooth=name,
                                      effective_order=False)
        self.ref_length = rules.check_ref_length(ref_length)
        super().__init__(2 + 3 * self._config.stats_order, tokenize, lowercase, pad_id,
                         eos_id, **kwargs)

    def _counted(self, batch: Batch) -> Any:
        stats = bleu_statistics_of_batch(batch, self._config.stats_order, self.ref_length)
        return stats.sum().to_array()

    def compute(self) -> torch.Tensor:
        """The corpus BLEU of every sentence seen (in every process): a 0-d float64 tensor."""
        score: torch.Tensor = score_of(BleuStats.from_array(self.statistics), self._config)
        return score


class SacreBLEUScore(BLEUScore):
    """``torchmetrics.text.SacreBLEUScore``: :class:`BLEUScore` with sacrebleu's tokenizers
    (``"13a"`` by default) and torchmetrics' arithmetic; ``smooth="exp",
    ref_length="closest"`` gives sacrebleu's own ``corpus_bleu`` / 100.

    Text is read as torchmetrics reads it, not quite as sacrebleu does: the tokenizer gets
    the raw line, and ``lowercase=True`` lowercases the tokens after tokenising
    (``docs/integrations.md``).

    Args are those of :class:`BLEUScore` in torchmetrics' order (``n_gram``, ``smooth``,
    ``tokenize``, ``lowercase``, ``weights``).

    >>> metric = SacreBLEUScore()
    >>> metric(["The cat sat on the mat."], [["The cat sat on a mat."]])
    tensor(0.4889, dtype=torch.float64)
    """

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool | str = False,
        tokenize: str = "13a",
        lowercase: bool = False,
        weights: Sequence[float] | None = None,
        *,
        ref_length: str = "closest_first",
        pad_id: int | None = None,
        eos_id: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(n_gram, smooth, weights, tokenize=tokenize, lowercase=lowercase,
                         ref_length=ref_length, pad_id=pad_id, eos_id=eos_id, **kwargs)
        self._raw_lines = True
        # torchmetrics tokenizes the raw line, where bleusuite's tokenizers (as sacrebleu's
        # BLEU) read the line without its trailing whitespace: a tokenizer of whole lines
        # (intl, zh, ja-mecab, ko-mecab, SentencePiece) is given the raw line (intl splits
        # the "-" of "1,000-\n" off, not that of "1,000-"); 13a reads it as raw_13a makes
        # it; the word-local ones (none, char) split the line end away either way
        self._raw: Tokenizer | None = None
        base = load_tokenizer(self.tokenize)
        if self.lowercase:  # torchmetrics: tokenize the raw line, then lowercase the tokens
            tokenize_line = base.tokenize

            def tokenize_then_lower(line: str) -> str:
                return tokenize_line(line).lower()

            self._raw = Tokenizer(self.tokenize, tokenize_then_lower, self.tokenize,
                                  word_local=False, rstrip=False)
        elif not base.word_local:
            self._raw = Tokenizer(self.tokenize, base.tokenize, base.signature,
                                  word_local=False, rstrip=False)

    def _text_tokenizer(self) -> tuple[str | Tokenizer, bool]:
        return self.tokenize if self._raw is None else self._raw, False


class GLEUScore(StatisticsMetric):
    """Corpus GLEU (Google BLEU): NLTK's ``corpus_gleu`` (what evaluate's ``google_bleu``
    computes), as a torchmetrics metric.

    Args:
        min_len: the lowest n-gram order pooled.
        max_len: the highest n-gram order pooled.
        tokenize: how text is split (``"none"``: on whitespace; ``"13a"``: on the raw line,
            as evaluate's ``google_bleu``).
        lowercase: lowercase text first.
        pad_id: with token ids, the padding id.
        eos_id: with token ids, the id that ends a sentence.
        kwargs: torchmetrics' ``Metric`` arguments.

    >>> metric = GLEUScore()
    >>> metric.update(["a b c d"], [["a b c e"]])
    >>> metric.update(["a b"], [["a b", "b a"]])
    >>> metric.compute()                       # nltk's corpus_gleu: 0.692308
    tensor(0.6923, dtype=torch.float64)
    """

    def __init__(
        self,
        min_len: int = 1,
        max_len: int = 4,
        *,
        tokenize: str = "none",
        lowercase: bool = False,
        pad_id: int | None = None,
        eos_id: int | None = None,
        **kwargs: Any,
    ) -> None:
        self.min_len, self.max_len = checks.gleu_orders(min_len, max_len)
        super().__init__(2, tokenize, lowercase, pad_id, eos_id, **kwargs)
        self._raw_lines = True

    def _counted(self, batch: Batch) -> Any:
        return gleu_statistics_of_batch(batch, self.min_len, self.max_len).sum().to_array()

    def compute(self) -> torch.Tensor:
        """The corpus GLEU of every sentence seen: a 0-d float64 tensor."""
        score: torch.Tensor = gleu_score(GleuStats.from_array(self.statistics))
        return score
