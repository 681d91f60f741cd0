"""pytorch-ignite metrics: :class:`Bleu`, a drop-in replacement for ``ignite.metrics.Bleu``
(that also takes token ids and text), and :class:`Gleu`, NLTK's GLEU. The state is a few
tensors on the metric's ``device`` (macro: a float64 sum of sentence scores and a count;
micro: the summed integer statistics), reduced across processes by Ignite's
``sync_all_reduce``, so the result does not depend on the number of processes.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

import torch
from ignite.exceptions import NotComputableError
from ignite.metrics.metric import Metric, reinit__is_reduced, sync_all_reduce

from bleusuite import checks
from bleusuite.inputs import Batch, text_batch
from bleusuite.inputs.checks import check_tokenizer_name
from bleusuite.inputs.normalize import check_text_options
from bleusuite.metrics.inputs import (
    ARGNAMES,
    check_output,
    check_special,
    id_batch,
    identity,
    to_state,
)
from bleusuite.scores import rules
from bleusuite.scores.bleu.score import score_of
from bleusuite.scores.bleu.settings import BleuSettings
from bleusuite.scores.bleu.statistics import BleuStats, bleu_statistics_of_batch
from bleusuite.scores.gleu.score import gleu_score
from bleusuite.scores.gleu.statistics import GleuStats, gleu_statistics_of_batch
from bleusuite.scores.statistics import map_arrays

__all__ = ["Bleu", "Gleu"]

class _StatisticsMetric(Metric):
    """Summable per-sentence statistics, macro or micro averaged: subclasses count and score."""

    _width: int
    #: the statistics class, whose ``from_array`` reads the summed state
    _stats: type[BleuStats] | type[GleuStats]

    def __init__(
        self,
        output_transform: Callable[..., Any],
        device: str | torch.device,
        average: str,
        pad_id: Any,
        eos_id: Any,
        tokenize: str | None,
        lowercase: bool,
    ) -> None:
        if not isinstance(average, str) or average not in ("macro", "micro"):
            raise ValueError(f"average must be 'macro' or 'micro'; got {average!r}")
        self.average = average
        self.pad_id = check_special(pad_id, "pad_id")
        self.eos_id = check_special(eos_id, "eos_id")
        check_text_options(tokenize, lowercase, pad_id, eos_id)  # the functions' tokenize= rules
        self.tokenize = None if tokenize is None else check_tokenizer_name(tokenize)  # loaded now
        self.lowercase = lowercase
        self._state_dict_all_req_keys = (
            "_sum_of_scores" if average == "macro" else "_statistics", "_num_sentences")
        super().__init__(output_transform=output_transform, device=device)

    @abstractmethod
    def _batch_statistics(self, batch: Batch) -> BleuStats | GleuStats:
        """Per-sentence statistics of one batch."""

    @abstractmethod
    def _sentence_scores(self, stats: Any) -> Any:
        """Per-sentence scores (float64, the statistics' backend); of summed statistics,
        the corpus score."""

    @reinit__is_reduced
    def reset(self) -> None:
        """Forget every sentence seen (called at the start of each epoch by an Engine)."""
        self._num_sentences = torch.tensor(0, dtype=torch.int64, device=self._device)
        if self.average == "macro":
            self._sum_of_scores = torch.tensor(0.0, dtype=self._double_dtype, device=self._device)
        else:
            self._statistics = torch.zeros(self._width, dtype=torch.int64, device=self._device)

    @reinit__is_reduced
    def update(self, output: Sequence[Any]) -> None:
        """Add one batch ``(y_pred, y)``.

        Args:
            output: ``(y_pred, y)``. ``y_pred``: token lists, (B, L) token ids (a tensor or
                a NumPy array) or a list of 1-D tensors. ``y``: per hypothesis a list of
                references (token lists or 1-D tensors), a list of 1-D tensors (one
                reference each), or (B, L) or (B, R, L) token ids (a row of ``pad_id`` is
                an absent reference). With ``tokenize``: ``y_pred`` strings, ``y`` per
                hypothesis a reference string or a list of them.

        Raises:
            TypeError, ValueError: for malformed input; the message names ``output``,
                ``y_pred`` or ``y``.
        """
        if self.tokenize is None:
            batch = id_batch(output, self.pad_id, self.eos_id)
        else:
            y_pred, y = check_output(output)
            batch = text_batch(y_pred, y, tokenize=self.tokenize, lowercase=self.lowercase,
                               argnames=ARGNAMES)[0]
        stats = map_arrays(self._batch_statistics(batch), batch.to_caller)
        if self.average == "macro":
            total = self._sentence_scores(stats).sum()
            self._sum_of_scores += to_state(total, self._double_dtype, self._device)
        else:
            self._statistics += to_state(stats.sum().to_array(), torch.int64, self._device)
        self._num_sentences += len(stats)

    def _check_computable(self) -> None:
        if int(self._num_sentences) == 0:
            raise NotComputableError(
                f"{type(self).__name__} must have at least one example before it can be computed."
            )

    @sync_all_reduce("_sum_of_scores", "_num_sentences")
    def _compute_macro(self) -> torch.Tensor:
        self._check_computable()
        result: torch.Tensor = self._sum_of_scores / self._num_sentences
        return result

    @sync_all_reduce("_statistics", "_num_sentences")
    def _compute_micro(self) -> float:
        self._check_computable()
        summed = self._stats.from_array(self._statistics.detach().cpu().numpy())
        return float(self._sentence_scores(summed))

    def compute(self) -> torch.Tensor | float:
        """The score of every sentence seen since the last :meth:`reset`, in all processes.

        Returns:
            ``average="macro"``: the mean sentence score, a 0-d float64 tensor on ``device``;
            ``average="micro"``: the corpus score, a Python float (as ``ignite.metrics.Bleu``).

        Raises:
            NotComputableError: before the first sentence.
        """
        result: torch.Tensor | float = (self._compute_macro() if self.average == "macro" else
                                        self._compute_micro())
        return result


class Bleu(_StatisticsMetric):
    r"""BLEU, a drop-in replacement for ``ignite.metrics.Bleu`` that also takes token ids.

    With the arguments of ``ignite.metrics.Bleu`` and its inputs (lists of token lists) the
    results are Ignite's: ``average="macro"`` is the mean of the sentence BLEU scores (a 0-d
    float64 tensor), ``average="micro"`` the corpus BLEU of the summed statistics (a float).
    Ignite's own ``no_smooth`` sentence scores are computed with float32 precisions; these
    are float64 (the two agree to about 1e-7).

    ``update`` takes ``(y_pred, y)`` or ``{'y_pred': y_pred, 'y': y}``: token lists, token
    ids (torch tensors on any device, NumPy arrays, ragged lists of 1-D tensors) or, with
    ``tokenize``, text (see :meth:`update`).

    Args:
        ngram: order of n-grams (uniform weights ``1 / ngram``).
        smooth: Ignite's ``"no_smooth"`` (default), ``"smooth1"``, ``"nltk_smooth2"``,
            ``"smooth2"``, or any other name of :data:`bleusuite.SMOOTHING_NAMES`: NLTK's
            ``"method0"``..``"method7"``, sacrebleu's ``"none"``, ``"floor"``, ``"add-k"``,
            ``"exp"`` (scores on the 0-1 scale).
        output_transform: turns the Engine's ``process_function`` output into
            ``(y_pred, y)``.
        device: where the state is accumulated. By default, CPU.
        average: ``"macro"`` (mean of sentence scores) or ``"micro"`` (corpus score).
        pad_id: token id (or, for lists of str tokens, the token) that is not part of any
            sentence; a reference made only of padding is absent.
        eos_id: token id (or token) that ends a sentence; it and everything after it are
            ignored.
        smooth_value: sacrebleu's value for ``"floor"`` / ``"add-k"``, or NLTK's epsilon for
            ``"method1"``.
        effective_order: sacrebleu's ``effective_order`` (only with sacrebleu's names).
        tokenize: score text: the name of a sacrebleu tokenizer (``"13a"``, ``"intl"``,
            ``"zh"``, ``"char"``, ``"none"``, ``"ja-mecab"``, ``"ko-mecab"``), as
            :func:`bleusuite.sentence_bleu` takes it (needs sacrebleu). Each update's
            strings are tokenised, split on whitespace and numbered; the scores are those
            of the token lists (Ignite's ``Bleu`` on ``tokenizer(line).split()``). Not with
            ``pad_id`` / ``eos_id``.
        lowercase: with ``tokenize``, lowercase everything first (sacrebleu's ``-lc``).
        ref_length: the reference length of the brevity penalty: ``"closest"`` (Ignite's:
            the shorter of equally close references), ``"closest_first"`` (the first of
            them) or ``"shortest"``, as :func:`bleusuite.sentence_bleu` takes it.

    Raises:
        TypeError, ValueError: for a bad argument; the message names it.
        ImportError: ``tokenize`` without sacrebleu installed.

    Examples:
        The example of ``ignite.metrics.Bleu``, with its result:

        >>> from bleusuite.metrics import Bleu
        >>> m = Bleu(ngram=4, smooth="smooth1")
        >>> y_pred = "the the the the the the the"
        >>> y = ["the cat is on the mat", "there is a cat on the mat"]
        >>> m.update(([y_pred.split()], [[_y.split() for _y in y]]))
        >>> m.compute()
        tensor(0.0393, dtype=torch.float64)

        Token ids, padded, two references each (a row of padding is an absent reference):

        >>> import torch
        >>> m = Bleu(ngram=2, average="micro", pad_id=0)
        >>> y_pred = torch.tensor([[4, 5, 6, 7], [4, 5, 0, 0]])
        >>> y = torch.tensor([[[4, 5, 6, 8], [4, 5, 6, 7]], [[4, 5, 6, 0], [0, 0, 0, 0]]])
        >>> m.update((y_pred, y))
        >>> round(m.compute(), 6)
        0.846482

        Text, tokenised by sacrebleu's 13a tokenizer (sacrebleu's corpus BLEU / 100 with
        ``smooth="exp"``):

        >>> m = Bleu(smooth="exp", average="micro", tokenize="13a", lowercase=True)
        >>> m.update((["The cat sat on the mat."], [["the cat sat on a mat.", "A cat sat."]]))
        >>> round(m.compute(), 6)
        0.488923
    """

    _stats = BleuStats

    def __init__(
        self,
        ngram: int = 4,
        smooth: str = "no_smooth",
        output_transform: Callable[..., Any] = identity,
        device: str | torch.device = "cpu",
        average: str = "macro",
        *,
        pad_id: int | str | None = None,
        eos_id: int | str | None = None,
        smooth_value: float | None = None,
        effective_order: bool = False,
        tokenize: str | None = None,
        lowercase: bool = False,
        ref_length: str = "closest",
    ) -> None:
        self.ngrams_order = checks.order(ngram, "ngram")
        self.ref_length = rules.check_ref_length(ref_length)
        self.weights = [1 / self.ngrams_order] * self.ngrams_order
        self._config = BleuSettings.of(max_order=self.ngrams_order, smooth=smooth,
                                       smooth_value=smooth_value, effective_order=effective_order)
        self.smooth = smooth
        self.smooth_value = smooth_value
        self.effective_order = effective_order
        self._width = 2 + 3 * self._config.stats_order
        super().__init__(output_transform, device, average, pad_id, eos_id, tokenize,
                         lowercase)

    def _batch_statistics(self, batch: Batch) -> BleuStats:
        return bleu_statistics_of_batch(batch, self._config.stats_order, self.ref_length)

    def _sentence_scores(self, stats: BleuStats) -> Any:
        return score_of(stats, self._config)


class Gleu(_StatisticsMetric):
    """GLEU (Google BLEU, NLTK's ``gleu_score``) as an Ignite metric.

    ``average="macro"`` is the mean of the sentence GLEU scores (NLTK's ``sentence_gleu``),
    a 0-d float64 tensor; ``average="micro"`` is the corpus GLEU (NLTK's ``corpus_gleu``),
    a float. Inputs are those of :class:`Bleu`.

    Args:
        min_len: lowest n-gram order pooled.
        max_len: highest n-gram order pooled.
        output_transform: turns the Engine's ``process_function`` output into
            ``(y_pred, y)``.
        device: where the state is accumulated. By default, CPU.
        average: ``"macro"`` (mean of sentence scores) or ``"micro"`` (corpus score).
        pad_id, eos_id, tokenize, lowercase: as in :class:`Bleu`.

    Raises:
        TypeError, ValueError: for a bad argument (``min_len > max_len`` included).
        ImportError: ``tokenize`` without sacrebleu installed.

    >>> from bleusuite.metrics import Gleu
    >>> m = Gleu(average="micro")
    >>> m.update(([["a", "b", "c", "d"]], [[["a", "b", "c", "e"]]]))
    >>> m.update(([["a", "b"]], [[["a", "b"], ["b", "a"]]]))
    >>> round(m.compute(), 6)
    0.692308
    """

    _stats, _width = GleuStats, 2

    def __init__(
        self,
        min_len: int = 1,
        max_len: int = 4,
        output_transform: Callable[..., Any] = identity,
        device: str | torch.device = "cpu",
        average: str = "macro",
        *,
        pad_id: int | str | None = None,
        eos_id: int | str | None = None,
        tokenize: str | None = None,
        lowercase: bool = False,
    ) -> None:
        self.min_len, self.max_len = checks.gleu_orders(min_len, max_len)
        super().__init__(output_transform, device, average, pad_id, eos_id, tokenize,
                         lowercase)

    def _batch_statistics(self, batch: Batch) -> GleuStats:
        return gleu_statistics_of_batch(batch, self.min_len, self.max_len)

    def _sentence_scores(self, stats: Any) -> Any:
        return gleu_score(stats)
