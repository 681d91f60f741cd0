"""torchmetrics metrics: drop-in replacements for ``torchmetrics.text.BLEUScore`` and
``SacreBLEUScore``, NLTK's GLEU as a torchmetrics metric, and ``TranslationEditRate`` with
sacrebleu's TER.

Each metric keeps one state, the summed integer statistics of every sentence seen
(``add_state(..., dist_reduce_fx="sum")``): the corpus score is a function of that sum, so it
is exact whatever the batches, processes and ``forward`` calls (Lightning logs it as it is),
and the sum is exact too (int64, where torchmetrics' own BLEU sums its counts in float32).
``update`` takes text (a list of strings, and per string a reference string or a list of
them) or token ids (a (B, L) tensor and (B, L) or (B, R, L) references, on any device, with
``pad_id`` / ``eos_id``; or token lists), and runs bleusuite's vectorised counting.

With torchmetrics' arguments the numbers are torchmetrics' own (its ``smooth=True`` is
bleusuite's ``"torchmetrics_smooth"``, its ``smooth=False`` ``"no_smooth"``, and it takes the
first of equally close references: ``ref_length="closest_first"``), in float64.

This module needs torch and torchmetrics (``pip install "bleusuite[torchmetrics]"``);
``import bleusuite`` does not import it.

>>> from bleusuite.torchmetrics import BLEUScore
>>> preds = ["the cat is on the mat"]
>>> target = [["there is a cat on the mat", "a cat is on the mat"]]
>>> bleu = BLEUScore()
>>> bleu(preds, target)                     # torchmetrics' BLEUScore gives tensor(0.7598)
tensor(0.7598, dtype=torch.float64)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    import torch
    from torchmetrics import Metric
    from torchmetrics.utilities import dim_zero_cat
except ImportError as _error:
    raise ImportError(
        f"bleusuite.torchmetrics needs torch and torchmetrics ({_error}); install them with "
        "pip install 'bleusuite[torchmetrics]'"
    ) from _error

from bleusuite import checks
from bleusuite.inputs import Batch, normalize_batch, text_batch
from bleusuite.inputs.checks import check_tokenizer_name, is_text
from bleusuite.scores import rules
from bleusuite.scores.bleu.score import score_of
from bleusuite.scores.bleu.settings import BleuSettings
from bleusuite.scores.bleu.statistics import BleuStats, bleu_statistics_of_batch
from bleusuite.scores.gleu.score import gleu_score
from bleusuite.scores.gleu.statistics import GleuStats, gleu_statistics_of_batch
from bleusuite.text import Tokenizer, load_tokenizer

__all__ = ["BLEUScore", "GLEUScore", "ROUGEScore", "SacreBLEUScore", "TranslationEditRate"]

#: the names of the two inputs, in every error message
_ARGNAMES = ("preds", "target")


def _is_text(preds: object) -> bool:
    """A non-empty list of strings (text), rather than token ids or token lists."""
    if isinstance(preds, str):
        raise TypeError("preds must be a list of strings (one per sentence): wrap a single "
                        "sentence in a list")
    return is_text(preds, argname="preds")


def _raw_13a(lines: Sequence[str]) -> Sequence[str]:
    """Lines that bleusuite's 13a (which strips each line's end, as sacrebleu's BLEU) reads
    as 13a reads the raw lines (:func:`bleusuite.evaluate.as_evaluate_13a`); the list itself
    where no line holds a line break."""
    if not any("\n" in line for line in lines):
        return lines
    from bleusuite.evaluate import as_evaluate_13a

    return [as_evaluate_13a(line) for line in lines]


def _raw_13a_target(target: Any) -> Any:
    """:func:`_raw_13a` of each hypothesis' references (left as they are where malformed:
    the checks name the fault)."""
    if not isinstance(target, Sequence) or isinstance(target, str):
        return target
    out: list[Any] = []
    for refs in target:
        if isinstance(refs, str):
            out.append(_raw_13a([refs])[0])
        elif isinstance(refs, Sequence) and all(isinstance(r, str) for r in refs):
            out.append(_raw_13a(refs))
        else:
            out.append(refs)
    return out


class _StatisticsMetric(Metric):
    """One state, the summed statistics (int64 ``(F,)``); subclasses count and score."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    statistics: torch.Tensor

    def __init__(self, width: int, tokenize: str, lowercase: bool, pad_id: int | None,
                 eos_id: int | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        name = check_tokenizer_name(tokenize)
        assert name is not None  # None is refused without allow_none
        self.tokenize: str = name
        self.lowercase = checks.boolean(lowercase, "lowercase")
        self.pad_id = None if pad_id is None else checks.token_id(pad_id, "pad_id")
        self.eos_id = None if eos_id is None else checks.token_id(eos_id, "eos_id")
        self.add_state("statistics", torch.zeros(width, dtype=torch.int64),
                       dist_reduce_fx="sum")

    #: whether a tokenizer reads the raw line, as torchmetrics' ``SacreBLEUScore`` does
    #: (sacrebleu's BLEU strips the end of each line first; it matters to 13a's ``"-\n"``)
    _raw_lines = False

    def _counted(self, batch: Batch) -> Any:
        """The summed statistics of one batch, as one int64 array of its backend."""
        raise NotImplementedError

    def _text_tokenizer(self) -> tuple[str | Tokenizer, bool]:
        """The tokenizer of text and whether to lowercase each line before it."""
        return self.tokenize, self.lowercase

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch.

        Args:
            preds: a list of hypothesis strings (tokenised by ``tokenize``), or token ids: a
                (B, L) tensor or array (any device), a list of 1-D tensors, or token lists.
            target: per hypothesis, a reference string or a list of them (``None``: no such
                reference); with token ids, (B, L) or (B, R, L) ids (a row of ``pad_id`` is
                an absent reference), 1-D tensors or token lists.

        Raises:
            TypeError, ValueError: malformed input; the message names ``preds`` or
                ``target``.
        """
        if _is_text(preds):
            tokenize, lowercase = self._text_tokenizer()
            if tokenize == "13a" and self._raw_lines:
                preds, target = _raw_13a(preds), _raw_13a_target(target)
            batch = text_batch(preds, target, tokenize=tokenize, lowercase=lowercase,
                               argnames=_ARGNAMES)[0]
        else:
            batch = normalize_batch(preds, target, pad_id=self.pad_id, eos_id=self.eos_id,
                                    argnames=_ARGNAMES)
        if batch.size == 0:
            return
        counted = batch.to_caller(self._counted(batch))
        if not isinstance(counted, torch.Tensor):  # NumPy statistics (lists, text)
            counted = torch.from_numpy(np.asarray(counted))
        self.statistics += counted.to(device=self.statistics.device, dtype=torch.int64)

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one value or a list of them (``metric.compute()`` by default):
        a matplotlib ``(figure, axes)``; needs matplotlib."""
        return self._plot(val, ax)


class BLEUScore(_StatisticsMetric):
    """BLEU of a corpus, a drop-in replacement for ``torchmetrics.text.BLEUScore``.

    With torchmetrics' arguments, the number of torchmetrics' ``BLEUScore`` (float64: its
    own counts and score are in the default dtype, float32 unless changed); text is split
    on whitespace, as torchmetrics does.

    Args:
        n_gram: the highest n-gram order.
        smooth: torchmetrics' ``False`` (``"no_smooth"``) or ``True``
            (``"torchmetrics_smooth"``: add one to the counts of every order but the first),
            or any name of :data:`bleusuite.SMOOTHING_NAMES` (``"exp"``: sacrebleu's).
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
    (``tokenize="13a"`` by default) and torchmetrics' arithmetic (first closest reference,
    ``smooth=True`` adding one from the second order on); for sacrebleu's own numbers pass
    ``smooth="exp", ref_length="closest"`` (sacrebleu's ``corpus_bleu`` / 100).

    Text is read as torchmetrics reads it, which differs from sacrebleu in two ways: the
    tokenizer gets the raw line (sacrebleu's BLEU strips its end first: ``"mat .-\\n"``
    ends in ``"."`` here and in ``"-"`` there), and ``lowercase=True`` lowercases the tokens
    after tokenising (sacrebleu lowercases first, so that ``"&QUOT;"`` and ``"<SKIPPED>"``
    are 13a's ``"&quot;"`` and ``"<skipped>"``; here, as in torchmetrics, they are not).

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
        # the "-" of "1,000-\n" off, not that of "1,000-"); 13a reads it as _raw_13a makes
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
        if self._raw is not None:
            return self._raw, False
        return self.tokenize, False


class GLEUScore(_StatisticsMetric):
    """Corpus GLEU (Google BLEU): NLTK's ``corpus_gleu`` (what evaluate's ``google_bleu``
    computes), as a torchmetrics metric.

    Args:
        min_len: the lowest n-gram order pooled.
        max_len: the highest n-gram order pooled.
        tokenize: how text is split (``"none"``: on whitespace; ``"13a"``: as evaluate's
            ``google_bleu`` does, on the raw line: ``"-\\n"`` at its end joined away).
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



class ROUGEScore(Metric):
    """ROUGE, a drop-in replacement for ``torchmetrics.text.rouge.ROUGEScore``: its arguments,
    inputs, keys and numbers (float32, as torchmetrics' own), counted by bleusuite.

    Each document's precision, recall and F-measure for each key (rouge-score's arithmetic,
    torchmetrics' tokenizer: lowercase, everything outside ``[a-z0-9]`` a separator, NLTK's
    Porter stemmer with ``use_stemmer``; ``rougeLsum``'s sentences by
    ``nltk.sent_tokenize``), several references reduced as ``accumulate`` says
    (:func:`bleusuite.scores.rouge.formula.torchmetrics_scores`); the result is their mean.
    The state is their sums and the number of documents (``dist_reduce_fx="sum"``).

    Args:
        use_stemmer: NLTK's Porter stemmer on the tokens of more than 3 characters.
        normalizer: a function str -> str used instead of the lowercasing and the removal
            of everything outside ``[a-z0-9]``.
        tokenizer: a function str -> list of str used instead of the split on whitespace.
        accumulate: ``"best"`` (the reference with the best F-measure) or ``"avg"`` (the
            mean over the references).
        rouge_keys: the keys: ``rouge1``..``rouge9``, ``rougeL``, ``rougeLsum``.
        kwargs: torchmetrics' ``Metric`` arguments.

    Raises:
        ValueError: an unknown key or ``accumulate`` (torchmetrics' messages).
        ImportError: ``rougeLsum`` without NLTK.

    >>> from bleusuite.torchmetrics import ROUGEScore
    >>> rouge = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    >>> scores = rouge("My name is John", "Is your name John")
    >>> scores["rouge1_fmeasure"], scores["rougeL_fmeasure"]     # torchmetrics' numbers
    (tensor(0.7500), tensor(0.5000))
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    documents: torch.Tensor

    def __init__(
        self,
        use_stemmer: bool = False,
        normalizer: Any = None,
        tokenizer: Any = None,
        accumulate: str = "best",
        rouge_keys: str | tuple[str, ...] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        **kwargs: Any,
    ) -> None:
        from bleusuite.scores.rouge.formula import TORCHMETRICS_ACCUMULATE
        from bleusuite.scores.rouge.settings import ROUGE_TYPES

        super().__init__(**kwargs)
        if not isinstance(rouge_keys, tuple):
            rouge_keys = (rouge_keys,)
        for key in rouge_keys:
            if key not in ROUGE_TYPES:
                raise ValueError(f"Got unknown rouge key {key}. Expected to be one of "
                                 f"{list(ROUGE_TYPES)}")
        if accumulate not in TORCHMETRICS_ACCUMULATE:
            raise ValueError(f"Got unknown accumulate value {accumulate}. Expected to be one "
                             f"of {TORCHMETRICS_ACCUMULATE}")
        if not isinstance(use_stemmer, bool):
            raise TypeError(f"use_stemmer must be a bool; got {use_stemmer!r}")
        if "rougeLsum" in rouge_keys:
            try:
                import nltk  # noqa: F401  (rougeLsum's sentences are nltk.sent_tokenize's)
            except ImportError:
                raise ImportError("ROUGEScore's rougeLsum splits sentences with "
                                  "nltk.sent_tokenize: pip install nltk") from None
        self.rouge_keys = rouge_keys
        self.use_stemmer = use_stemmer
        self.normalizer = normalizer
        self.tokenizer = tokenizer
        self.accumulate = accumulate
        self._types = tuple(dict.fromkeys(rouge_keys))
        for key in self._types:
            for measure in ("fmeasure", "precision", "recall"):
                self.add_state(f"{key}_{measure}", torch.tensor(0.0, dtype=torch.float64),
                               dist_reduce_fx="sum")
        self.add_state("documents", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")

    def _tokens(self, text: str) -> list[str]:
        """torchmetrics' ``_normalize_and_tokenize_text`` without its stemmer (applied
        afterwards to each distinct token), for a custom normalizer or tokenizer."""
        import re

        if callable(self.normalizer):
            text = self.normalizer(text)
        else:
            text = re.sub(r"[^a-z0-9]+", " ", text.lower())
        tokens = self.tokenizer(text) if callable(self.tokenizer) else re.split(r"\s+", text)
        return [token for token in tokens if isinstance(token, str) and len(token) > 0]

    def update(self, preds: str | Sequence[str],
               target: str | Sequence[str] | Sequence[Sequence[str]]) -> None:
        """Add documents: ``preds`` a string or a list of them, ``target`` per document a
        reference string or a list of them (torchmetrics' forms).

        Raises:
            TypeError, ValueError: malformed input; the message names ``preds`` or
                ``target``.
        """
        from bleusuite.inputs.checks import check_texts
        from bleusuite.scores.rouge.counts import counts_of_documents
        from bleusuite.scores.rouge.documents import encode_documents
        from bleusuite.scores.rouge.formula import torchmetrics_scores

        if isinstance(target, list) and all(isinstance(tgt, str) for tgt in target):
            target = [target] if isinstance(preds, str) else [[tgt] for tgt in target]
        if isinstance(preds, str):
            preds = [preds]
        if isinstance(target, str):
            target = [[target]]
        rows = check_texts(preds, target, names=("preds", "target"))
        for row, refs in enumerate(rows):
            if not refs:
                raise ValueError(f"target: prediction {row} has no reference")
        custom = callable(self.normalizer) or callable(self.tokenizer)
        documents = encode_documents(
            list(preds), rows, tokenize=self._tokens if custom else "rouge",
            use_stemmer=self.use_stemmer,
            sentences=_sentences if "rougeLsum" in self._types else None,
            with_sentences="rougeLsum" in self._types)
        counts = counts_of_documents(documents, self._types)
        scores = torchmetrics_scores(counts, self.accumulate)
        for t, key in enumerate(self._types):
            for measure, values in zip(("precision", "recall", "fmeasure"), scores,
                                       strict=True):
                state = getattr(self, f"{key}_{measure}")
                state += torch.as_tensor(float(np.sum(values[:, t])), dtype=torch.float64,
                                         device=state.device)
        self.documents += len(rows)

    def compute(self) -> dict[str, torch.Tensor]:
        """``{"<key>_fmeasure": ..., "<key>_precision": ..., "<key>_recall": ...}`` for each
        key: the mean over every document seen, 0-d float32 tensors (NaN before the first
        document, as torchmetrics)."""
        count = self.documents.to(torch.float64)
        return {f"{key}_{measure}": (getattr(self, f"{key}_{measure}") / count)
                .to(torch.float32)
                for key in self.rouge_keys for measure in ("fmeasure", "precision", "recall")}


def _sentences(text: str) -> list[str]:
    """torchmetrics' sentences of ``rougeLsum``: ``nltk.sent_tokenize``."""
    import nltk

    try:
        sentences: list[str] = nltk.sent_tokenize(text)
    except LookupError:
        raise LookupError("rougeLsum: torchmetrics splits sentences with nltk.sent_tokenize, "
                          "which needs NLTK's punkt_tab data: python -m nltk.downloader "
                          "punkt_tab") from None
    return sentences
class TranslationEditRate(Metric):
    """TER of a corpus, ``torchmetrics.text.TranslationEditRate``'s arguments with
    sacrebleu's numbers: ``sacrebleu.corpus_ter(...).score / 100`` (its tercom tokenizer,
    shift heuristics and beam, counted by :mod:`bleusuite.scores.ter.edits`).

    torchmetrics' own TER is another implementation of tercom: it gives other numbers on
    many lines (a different beam and shift search; 65.93 against sacrebleu's 66.04 on 1,000
    WMT lines), and sums its statistics in float32. Here the state is the summed integer
    statistics (edits, and the references' average lengths in exact units; see
    :class:`bleusuite.TerStats`), exact across batches and processes, and the score is
    float64.

    Args:
        normalize: tercom's normalisation (sacrebleu's ``normalized``).
        no_punctuation: remove punctuation (``no_punct``).
        lowercase: lowercase first (``not case_sensitive``).
        asian_support: the CJK rules of ``normalize`` and ``no_punctuation``.
        return_sentence_level_score: ``compute`` returns ``(corpus TER, every sentence's
            TER)``.
        pad_id: with token ids, the padding id.
        eos_id: with token ids, the id that ends a sentence.
        kwargs: torchmetrics' ``Metric`` arguments.

    >>> metric = TranslationEditRate()
    >>> metric(["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]])
    tensor(0.1538, dtype=torch.float64)
    """

    is_differentiable = False
    higher_is_better = False
    full_state_update = False
    plot_lower_bound = 0.0

    statistics: torch.Tensor
    sentence_ter: list[torch.Tensor] | None

    def __init__(
        self,
        normalize: bool = False,
        no_punctuation: bool = False,
        lowercase: bool = True,
        asian_support: bool = False,
        return_sentence_level_score: bool = False,
        *,
        pad_id: int | None = None,
        eos_id: int | None = None,
        **kwargs: Any,
    ) -> None:
        from bleusuite.scores.ter.metric import TerSettings

        super().__init__(**kwargs)
        for name, value in (("normalize", normalize), ("no_punctuation", no_punctuation),
                            ("lowercase", lowercase), ("asian_support", asian_support),
                            ("return_sentence_level_score", return_sentence_level_score)):
            if not isinstance(value, bool):
                raise TypeError(f"{name} must be a bool; got {value!r}")
        self._settings = TerSettings(normalized=normalize, no_punct=no_punctuation,
                                     asian_support=asian_support, case_sensitive=not lowercase)
        self.return_sentence_level_score = return_sentence_level_score
        self.pad_id = None if pad_id is None else checks.token_id(pad_id, "pad_id")
        self.eos_id = None if eos_id is None else checks.token_id(eos_id, "eos_id")
        self.add_state("statistics", torch.zeros(2, dtype=torch.int64), dist_reduce_fx="sum")
        if return_sentence_level_score:
            self.add_state("sentence_ter", [], dist_reduce_fx="cat")
        else:
            self.sentence_ter = None

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch: text as torchmetrics takes it (a string or a list of them, and per
        string a reference string or a list of them), or token ids as
        :func:`bleusuite.sentence_ter` takes them.

        Raises:
            TypeError, ValueError: malformed input; the message names what is wrong.
        """
        from bleusuite.scores.ter.formula import ter_scores
        from bleusuite.scores.ter.score import statistics_and_batch

        if isinstance(preds, str):
            preds = [preds]
        text = isinstance(preds, Sequence) and all(isinstance(p, str) for p in preds)
        if text and isinstance(target, Sequence) and not isinstance(target, str) and all(
                isinstance(t, str) for t in target):
            # torchmetrics' reading of a flat list of strings
            target = [list(target)] if len(preds) == 1 else [[t] for t in target]
        if text and not preds:
            return
        stats, _ = statistics_and_batch(preds, target, self._settings,
                                        None if text else self.pad_id,
                                        None if text else self.eos_id)
        if len(stats) == 0:
            return
        summed = torch.from_numpy(np.asarray(stats.sum().to_array(), dtype=np.int64))
        self.statistics += summed.to(self.statistics.device)
        if self.sentence_ter is not None:
            scores = torch.from_numpy(ter_scores(stats) / 100.0)
            self.sentence_ter.append(scores.to(self.statistics.device))

    def compute(self) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
        """The corpus TER of every sentence seen (in every process): a 0-d float64 tensor;
        with ``return_sentence_level_score``, with every sentence's TER."""
        from bleusuite.scores.ter.formula import ter_scores

        stats = self.statistics.detach().cpu().numpy()
        corpus = torch.tensor(float(ter_scores(stats)[()]) / 100.0, dtype=torch.float64,
                              device=self.statistics.device)
        if self.sentence_ter is None:
            return corpus
        sentences = (dim_zero_cat(self.sentence_ter) if self.sentence_ter else
                     torch.zeros(0, dtype=torch.float64, device=self.statistics.device))
        return corpus, sentences

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one value or a list of them (``metric.compute()`` by default):
        a matplotlib ``(figure, axes)``; needs matplotlib."""
        return self._plot(val, ax)
