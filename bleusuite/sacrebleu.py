"""sacrebleu's Python API on bleusuite's counting: ``BLEU``, ``CHRF`` and ``TER`` with
sacrebleu's constructor arguments, ``corpus_score(hypotheses, reference_streams)`` and
``sentence_score(hypothesis, references)`` in sacrebleu's layout, and score objects with
sacrebleu's fields, ``format()`` and ``str()``; the numbers are sacrebleu's to the last bit
(scored by the registry entries' arithmetic, as ``bleusuite score``). Its differences from
sacrebleu are listed in ``docs/integrations.md``.

>>> from bleusuite.sacrebleu import BLEU
>>> bleu = BLEU()
>>> hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
>>> refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
...         ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]
>>> print(bleu.corpus_score(hyps, refs))              # sacrebleu's README example
BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)
>>> bleu.get_signature().format(short=True).rsplit("|", 1)[0]
'#:2|c:mixed|e:no|tok:13a|s:exp'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bleusuite import backends, checks
from bleusuite.inputs import text_batch
from bleusuite.scores import reports
from bleusuite.scores.bleu import smoothing
from bleusuite.scores.bleu.entry import METRIC as BLEU_METRIC
from bleusuite.scores.bleu.entry import tokens_field, verbose_line
from bleusuite.scores.bleu.sacrebleu_formula import METHODS, exact_bleu
from bleusuite.scores.bleu.settings import BleuSettings
from bleusuite.scores.bleu.statistics import bleu_table_of_batch
from bleusuite.scores.chrf.entry import METRIC as CHRF_METRIC
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.chrf.text_statistics import chrf_counts, statistics_from_counts
from bleusuite.scores.reports import Signature
from bleusuite.scores.ter.entry import METRIC as TER_METRIC
from bleusuite.scores.ter.settings import TerSettings
from bleusuite.scores.ter.statistics import TerStats, ter_statistics_of_texts
from bleusuite.significance.bootstrap import Confidence, bootstrap_scores
from bleusuite.significance.seeding import seed_from_environment
from bleusuite.text import TOKENIZERS
from bleusuite.text.tokenizers import TOKENIZER_OF_LANGUAGE

__all__ = ["BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "Score", "Signature", "TERScore"]

class Score:
    """sacrebleu's ``Score``: a name, a score (0-100) and what ``format`` prints."""

    #: what follows the score in its line (sacrebleu's ``_verbose``)
    _verbose = ""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False) -> str:
        """sacrebleu's ``Score.format``: ``NAME|signature = score (μ = m ± ci) verbose``, or
        the score alone, or sacrebleu's JSON (:mod:`bleusuite.scores.reports`)."""
        confidence = (Confidence(self._mean, self._ci, self._mean, self._mean, 0)
                      if self._mean > 0 else None)
        text = reports.score_text(self.score, width, confidence)
        if score_only:
            return text
        if is_json:
            record = reports.score_record(self.name, self.score, width, signature,
                                          self._verbose, confidence)
            return reports.json_text(record, indent=1)
        return reports.score_line(self.name, signature, text, self._verbose)

    def estimate_ci(self, scores: np.ndarray) -> None:
        """Keep the mean and half the 95% interval of resampled scores (sacrebleu's)."""
        confidence = Confidence.of(np.asarray(scores))
        self._mean, self._ci = confidence.mean, confidence.half_width

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


class BLEUScore(Score):
    """sacrebleu's ``BLEUScore``: ``score`` (0-100), ``counts``, ``totals``, ``precisions``
    (0-100), ``bp``, ``sys_len``, ``ref_len``, ``ratio``, ``prec_str``. As sacrebleu,
    ``add-k`` reports its counts and totals with k added to the orders above 1."""

    def __init__(self, score: float, counts: list[Any], totals: list[Any],
                 precisions: list[float], bp: float, sys_len: int, ref_len: int) -> None:
        super().__init__("BLEU", score)
        self.bp, self.counts, self.totals = bp, counts, totals
        self.sys_len, self.ref_len, self.precisions = sys_len, ref_len, precisions
        self.ratio = sys_len / ref_len if ref_len else 0

    @property
    def prec_str(self) -> str:
        """The precisions as sacrebleu prints them (``60.2/35.1/...``)."""
        return "/".join(f"{p:.1f}" for p in self.precisions)

    @property
    def _verbose(self) -> str:  # type: ignore[override]  # written when printed
        return verbose_line(self.precisions, self.bp, self.sys_len, self.ref_len)


class CHRFScore(Score):
    """sacrebleu's ``CHRFScore``: ``score`` (0-100), ``char_order``, ``word_order``,
    ``beta``; named ``chrF2`` / ``chrF2++``."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: float) -> None:
        self.beta, self.char_order, self.word_order = beta, char_order, word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class _Metric:
    """What BLEU, CHRF and TER share: the arguments, reference streams, bootstrap,
    signature."""

    #: the metric's name in :mod:`bleusuite.scores.registry`, its entry and its settings
    _metric: str
    _entry: Any
    _settings: Any

    def __init__(self, references: Sequence[Sequence[str | None]] | None) -> None:
        self.num_refs: int | None = None
        self.n_bootstrap: int | None = None
        self.seed: int | None = None
        self._references = None if references is None else self._streams(references)

    @staticmethod
    def _streams(references: Any) -> Sequence[Sequence[str | None]]:
        """The reference streams, checked as containers (their lines are checked where they
        are read, in the compiled part)."""
        if isinstance(references, str) or not isinstance(references, Sequence) or not all(
                isinstance(s, Sequence) and not isinstance(s, str) for s in references):
            raise TypeError("references must be a list of reference streams, each a list with "
                            "one reference string (or None) per hypothesis")
        if not references:
            raise ValueError("references: give at least one reference stream")
        return references

    def _corpus(self, hypotheses: Any, references: Any) -> tuple[Sequence[str], list[Any]]:
        """The hypotheses and, per hypothesis, its references (the streams zipped)."""
        if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
            raise TypeError("hypotheses must be a list of strings (None is no line)")
        if not hypotheses:
            raise ValueError("hypotheses: a corpus score needs at least one line")
        if references is None and self._references is None:
            raise ValueError("references: none given, and none cached (BLEU(references=))")
        streams = self._references if references is None else self._streams(references)
        assert streams is not None  # given, or cached
        for j, stream in enumerate(streams):
            if len(stream) != len(hypotheses):
                raise ValueError(f"references[{j}] has {checks.counted(len(stream), 'line')} "
                                 f"for {checks.counted(len(hypotheses), 'hypothesis')} (a "
                                 "stream holds one reference per hypothesis)")
        return hypotheses, list(zip(*streams, strict=True))

    def _sentence(self, hypothesis: Any, references: Any) -> tuple[Sequence[str], list[Any]]:
        if not isinstance(hypothesis, str):
            raise TypeError(f"hypothesis must be a string; got {type(hypothesis).__name__}")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError("references must be a list of reference strings")
        refs = [ref for ref in references if ref is not None]
        if not refs:
            raise ValueError("references: line 0 has no reference (every stream holds None "
                             "there); 1 such line(s)")
        return [hypothesis], [refs]

    def _count_references(self, present: np.ndarray) -> None:
        """``nrefs`` of the signature from which references each line has; a line without
        any is refused."""
        if len(present) == 1 and present.all():  # a sentence with all its references
            self.num_refs = int(present.shape[1])
            return
        counts = present.sum(axis=1)
        low, high = int(counts.min()), int(counts.max())
        if low == 0:
            missing = np.flatnonzero(counts == 0)
            raise ValueError(f"references: line {int(missing[0])} has no reference (every "
                             f"stream holds None there); {len(missing)} such line(s)")
        self.num_refs = low if low == high else -1

    @staticmethod
    def _text_error(hypotheses: Sequence[Any], rows: list[Any]) -> TypeError:
        """The message of a line that is not a string, in the streams' terms."""
        for i, line in enumerate(hypotheses):
            if not isinstance(line, str):
                return TypeError(f"hypotheses[{i}] must be a string; got {type(line).__name__}")
        for i, refs in enumerate(rows):
            for j, line in enumerate(refs):
                if line is not None and not isinstance(line, str):
                    return TypeError(f"references[{j}] must hold strings (or None); line {i} "
                                     f"is a {type(line).__name__}")
        return TypeError("hypotheses and references must hold strings")

    def _table(self, hypotheses: Sequence[str], rows: list[Any]) -> np.ndarray:
        """Per-line statistics ``(B, F)`` of the hypotheses against their references."""
        raise NotImplementedError

    def _score(self, summed: np.ndarray) -> Score:
        raise NotImplementedError

    def _resampled(self, table: np.ndarray) -> np.ndarray:
        return self._entry.scores(table, self._settings, resampled=True)

    def corpus_score(self, hypotheses: Sequence[str],
                     references: Sequence[Sequence[str | None]] | None,
                     n_bootstrap: int = 1) -> Any:
        """The corpus score of ``hypotheses`` against reference ``references`` streams
        (``references[j][i]``: the ``j``-th reference of line ``i``; None: none; None for
        the streams given to the constructor); ``n_bootstrap > 1`` adds sacrebleu's 95%
        bootstrap interval.

        Raises:
            TypeError, ValueError: malformed input, streams and hypotheses of different
                lengths, an empty corpus; the message names the argument.
        """
        n_bootstrap = checks.integer(n_bootstrap, "n_bootstrap", minimum=1)
        table = self._table(*self._corpus(hypotheses, references))
        result = self._score(table.sum(axis=0))
        if n_bootstrap > 1:
            self.n_bootstrap, self.seed = n_bootstrap, seed_from_environment()
            result.estimate_ci(bootstrap_scores(table, self._resampled, n_bootstrap,
                                                self.seed))
        return result

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> Any:
        """The score of one hypothesis against its references (a list of strings)."""
        return self._score(self._table(*self._sentence(hypothesis, references))[0])

    def get_signature(self) -> Signature:
        """sacrebleu's signature of the metric (``nrefs`` known after the first score):
        :func:`bleusuite.scores.reports.make_signature`."""
        if self.num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return reports.make_signature(
            self._metric, self._settings, nrefs="var" if self.num_refs == -1 else self.num_refs,
            resampling=None if self.n_bootstrap is None else ("bs", self.n_bootstrap),
            seed=self.seed)


class BLEU(_Metric):
    """sacrebleu's ``BLEU`` (same arguments and defaults), counted by bleusuite.

    >>> bleu = BLEU(effective_order=True)
    >>> score = bleu.sentence_score("The cat sat on the mat.", ["The cat sat on a mat."])
    >>> round(score.score, 4), score.counts, score.totals
    (48.8923, [6, 4, 2, 1], [7, 6, 5, 4])
    """

    _metric, _entry = "bleu", BLEU_METRIC

    def __init__(self, lowercase: bool = False, force: bool = False,
                 tokenize: str | None = None, smooth_method: str = "exp",
                 smooth_value: float | None = None, max_ngram_order: int = 4,
                 effective_order: bool = False, trg_lang: str = "",
                 references: Sequence[Sequence[str | None]] | None = None) -> None:
        self.lowercase = checks.boolean(lowercase, "lowercase")
        self.force = checks.boolean(force, "force")
        self.effective_order = checks.boolean(effective_order, "effective_order")
        if smooth_method not in METHODS:
            raise ValueError(f"smooth_method must be one of {', '.join(METHODS)}; got "
                             f"{smooth_method!r}")
        self.smooth_method = smooth_method
        # sacrebleu ignores a value its method takes none of (exp, none): so does this
        self.smooth_value = None if smooth_value is None else checks.number(
            smooth_value, "smooth_value", minimum=0)
        self.max_ngram_order = checks.order(max_ngram_order, "max_ngram_order")
        if not isinstance(trg_lang, str):
            raise TypeError(f"trg_lang must be a str; got {trg_lang!r}")
        self.trg_lang = trg_lang
        name = TOKENIZER_OF_LANGUAGE.get(trg_lang, "13a") if tokenize is None else tokenize
        if name not in TOKENIZERS:
            raise ValueError(f"tokenize must be one of {', '.join(TOKENIZERS)}; got {name!r}")
        self.tokenize = name
        self.tokenizer_signature = tokens_field(name)
        takes_value = smooth_method in smoothing.SMOOTH_VALUE_DEFAULTS
        self._settings = BleuSettings(tokenize=name, lowercase=lowercase, smooth=smooth_method,
                                      smooth_value=self.smooth_value if takes_value else None,
                                      effective_order=effective_order,
                                      max_order=self.max_ngram_order)
        super().__init__(references)

    def _table(self, hypotheses: Sequence[str], rows: list[Any]) -> np.ndarray:
        try:
            batch = text_batch(hypotheses, rows, tokenize=self.tokenize,
                               lowercase=self.lowercase, require_references=False)[0]
        except TypeError:
            raise self._text_error(hypotheses, rows) from None
        self._count_references(batch.ref_present)
        return bleu_table_of_batch(batch, self.max_ngram_order)

    def _score(self, summed: np.ndarray) -> BLEUScore:
        n = self.max_ngram_order
        exact = exact_bleu(summed, self.smooth_method, self.smooth_value,
                           self.effective_order, max_order=n)
        counts: list[Any] = summed[2 : 2 + n].tolist()
        totals: list[Any] = summed[2 + n : 2 + 2 * n].tolist()
        if self.smooth_method == "add-k" and any(counts):  # sacrebleu adds k in place
            k = smoothing.smooth_value_of("add-k", self.smooth_value)
            k_added: Any = int(k) if k == int(k) else k
            counts = counts[:1] + [c + k_added for c in counts[1:]]
            totals = totals[:1] + [t + k_added for t in totals[1:]]
        return BLEUScore(float(exact.scores[0]), counts, totals, exact.precisions[0].tolist(),
                         float(exact.brevity_penalty[0]), int(summed[0]), int(summed[1]))


class CHRF(_Metric):
    """sacrebleu's ``CHRF`` (same arguments and defaults; ``word_order=2`` is chrF++).

    >>> chrf = CHRF(word_order=2)
    >>> round(chrf.corpus_score(["The cat sat on the mat."], [["The cat sat on a mat."]]).score, 4)
    72.6591
    """

    _metric, _entry = "chrf", CHRF_METRIC

    def __init__(self, char_order: int = 6, word_order: int = 0, beta: float = 2,
                 lowercase: bool = False, whitespace: bool = False,
                 eps_smoothing: bool = False,
                 references: Sequence[Sequence[str | None]] | None = None) -> None:
        self.char_order = checks.integer(char_order, "char_order", minimum=0)
        self.word_order = checks.integer(word_order, "word_order", minimum=0)
        if self.char_order + self.word_order == 0:
            raise ValueError("char_order and word_order: at least one must be positive")
        self.beta = checks.beta(beta)
        self.lowercase = checks.boolean(lowercase, "lowercase")
        self.whitespace = checks.boolean(whitespace, "whitespace")
        self.eps_smoothing = checks.boolean(eps_smoothing, "eps_smoothing")
        self._settings = ChrfSettings(char_order=self.char_order, word_order=self.word_order,
                                      beta=self.beta, lowercase=lowercase,
                                      whitespace=whitespace, eps_smoothing=eps_smoothing)
        super().__init__(references)

    def _table(self, hypotheses: Sequence[str], rows: list[Any]) -> np.ndarray:
        try:
            # (its own check below names a line of the reference streams)
            counts = chrf_counts(hypotheses, rows, self._settings, require_references=False)
        except TypeError:
            raise self._text_error(hypotheses, rows) from None
        self._count_references(counts[0])
        stats = statistics_from_counts(backends.get_backend(), *counts, self._settings)
        table: np.ndarray = stats.to_array()
        return table

    def _score(self, summed: np.ndarray) -> CHRFScore:
        score = float(self._entry.scores(summed[None, :], self._settings)[0])
        return CHRFScore(score, self.char_order, self.word_order, self.beta)


class TERScore(Score):
    """sacrebleu's ``TERScore``: ``score`` (0-100), ``num_edits`` (summed edits),
    ``ref_length`` (summed average reference lengths)."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TER(_Metric):
    """sacrebleu's ``TER`` (same arguments and defaults: the options of its ``tercom``
    tokenizer), its edits counted by bleusuite (:mod:`bleusuite.scores.ter.edits`).

    >>> ter = TER()
    >>> print(ter.corpus_score(["the cat sat on the mat"], [["on the mat the cat sat"]]))
    TER = 16.67
    >>> ter.get_signature().format(short=True).rsplit("|", 1)[0]
    '#:1|c:lc|t:tercom|nr:no|pn:yes|as:no'
    """

    _metric, _entry = "ter", TER_METRIC

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False,
                 references: Sequence[Sequence[str | None]] | None = None) -> None:
        self._settings = TerSettings(normalized=normalized, no_punct=no_punct,
                                     asian_support=asian_support, case_sensitive=case_sensitive)
        self.normalized, self.no_punct = normalized, no_punct
        self.asian_support, self.case_sensitive = asian_support, case_sensitive
        self.tokenizer_signature = "tercom"
        super().__init__(references)

    def _table(self, hypotheses: Sequence[str], rows: list[Any]) -> np.ndarray:
        try:
            stats = ter_statistics_of_texts(list(hypotheses), [list(refs) for refs in rows],
                                            self._settings)
        except TypeError:
            raise self._text_error(hypotheses, rows) from None
        self._count_references(np.array([[ref is not None for ref in refs] for refs in rows],
                                        dtype=bool))
        table: np.ndarray = stats.to_array()
        return table

    def _score(self, summed: np.ndarray) -> TERScore:
        score = float(self._entry.scores(summed[None, :], self._settings)[0])
        stats = TerStats.from_array(summed)
        return TERScore(score, int(stats.edits), float(stats.ref_length))
