"""Every metric as one unit (:class:`Metric`: its statistics type, formulas, title,
signature fields, and how its statistics come from text), found by its name: the front ends
look it up here, so a new metric is its own files plus one line of :data:`METRICS`.

>>> [get(name).title(get(name).settings()) for name in names()]
['BLEU', 'chrF2', 'CIDEr-D', 'GLEU', 'ROUGE-L', 'TER', 'WER']
"""

from __future__ import annotations

import abc
import dataclasses
import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

__all__ = [
    "COMMAND_METRICS",
    "METRICS",
    "Metric",
    "TextCountedMetric",
    "WordCountedMetric",
    "WordCounting",
    "get",
    "names",
    "of_statistics",
    "reference_rows",
    "result",
    "text_counted",
    "word_counted",
]

#: name -> the module that holds the metric's entry (``METRIC``), imported on first use
METRICS = {
    "bleu": "bleusuite.scores.bleu.entry",
    "chrf": "bleusuite.scores.chrf.entry",
    "cider": "bleusuite.scores.cider.entry",
    "gleu": "bleusuite.scores.gleu.entry",
    "rouge": "bleusuite.scores.rouge.entry",
    "ter": "bleusuite.scores.ter.entry",
    "wer": "bleusuite.scores.wer.entry",
}


#: the metrics of the command (sacrebleu's, and GLEU: it has no ROUGE)
COMMAND_METRICS = ("bleu", "chrf", "gleu", "ter")


@dataclass(frozen=True)
class WordCounting:
    """What a metric of tokenised words needs counted (metrics that agree on the tokens share
    one counting pass): orders 1..``orders``, and with ``per_reference`` the matches against
    each reference besides the clipped ones."""

    tokenize: str
    lowercase: bool
    orders: int
    per_reference: bool


class Metric(abc.ABC):
    """One metric, the base of both kinds of entry (:class:`WordCountedMetric`,
    :class:`TextCountedMetric`). ``settings`` are the metric's own dataclass of settings;
    ``table`` is statistics in their ``to_array`` form, ``(rows, fields)`` int64."""

    name: ClassVar[str]
    #: the metric's name in messages (``BLEU``, ``TER``)
    label: ClassVar[str]
    statistics: ClassVar[Any]  # the statistics type: to_array, from_array, sum
    #: the short keys of its signature fields (sacrebleu's, ``--short``); the shared ones
    #: (``nrefs``, ``version``, ...) are :data:`bleusuite.scores.reports.SHARED_ABBREVIATIONS`
    abbreviations: ClassVar[Mapping[str, str]]

    #: the metric's settings dataclass, and the values :meth:`settings` takes where they are
    #: not given and differ from the dataclass's defaults
    settings_type: ClassVar[Any]
    default_settings: ClassVar[Mapping[str, Any]] = {}

    def settings(self, **values: Any) -> Any:
        """The metric's settings, its defaults where not given."""
        return self.settings_type(**{**self.default_settings, **values})

    def title(self, settings: Any) -> str:
        """The name printed before a score (``BLEU``, ``chrF2++``)."""
        return self.label

    @abc.abstractmethod
    def signature(self, settings: Any) -> dict[str, Any]:
        """The metric's own signature fields, in sacrebleu's order (between ``nrefs`` and
        the resampling fields and ``version``)."""

    @abc.abstractmethod
    def scores(self, table: np.ndarray, settings: Any, resampled: bool = False) -> np.ndarray:
        """The score (0-100) of each row of summed statistics, with the digits of the
        library the settings reproduce (``resampled``: the arithmetic that library uses on
        bootstrap resamples)."""

    @abc.abstractmethod
    def verbose(self, table: np.ndarray, settings: Any) -> list[str]:
        """What follows each row's score in a report (``''``: nothing)."""

    #: its settings from ``bleusuite score``'s flags: setting name -> the command's option
    #: (an attribute of :class:`bleusuite.cli.options.ScoreOptions`, or the ``dest`` of a
    #: flag of its own, such as ``chrf_beta``), and the settings the command fixes
    command_flags: ClassVar[Mapping[str, str]]
    command_fixed: ClassVar[Mapping[str, Any]]

    #: whether ``bleusuite score`` warns, as sacrebleu does, where a system's lines look
    #: tokenised already (its tokenizer would split them again: BLEU)
    warns_tokenised: ClassVar[bool] = False

    #: whether the paired tests (``--paired-bs``, ``--paired-ar``) apply: its statistics
    #: are integer counts that resamples sum
    paired_tests: ClassVar[bool]

    #: the module of its result object, with ``result_of_table(total, settings, nrefs,
    #: given_tokens)`` (imported by :func:`result`, by name as the entries are: the result
    #: object builds on the entry); by default the unit's ``result.py``
    result_module: ClassVar[str | None] = None

    def sentence_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """The setting values of sentence-level scores where ``values`` were given (BLEU of
        sacrebleu's smoothings takes the effective order unless told otherwise)."""
        return values

    @abc.abstractmethod
    def token_id_settings(self, settings: Any, given: Mapping[str, Any]) -> Any:
        """The settings that score token-id columns as ``settings`` score text (``given``:
        the values the caller set, of which they are made).

        Raises:
            ValueError: why token ids cannot be scored so (the metric needs text, or a
                setting applies to text only).
        """

    @abc.abstractmethod
    def token_id_statistics(self, batch: Any, settings: Any) -> Any:
        """The statistics (its statistics type) of a normalised token-id batch
        (:class:`bleusuite.inputs.Batch`) with the settings of :meth:`token_id_settings`."""


class WordCountedMetric(Metric):
    """The base of an entry whose statistics come from the shared word counting (BLEU,
    GLEU)."""

    @abc.abstractmethod
    def word_counting(self, settings: Any) -> WordCounting:
        """What the metric needs counted on tokenised words."""

    @abc.abstractmethod
    def word_statistics(self, clipped: np.ndarray, per_reference: np.ndarray | None,
                        lengths: np.ndarray, settings: Any) -> np.ndarray:
        """Statistics ``(B, F)`` of one system from its word counts: ``clipped`` ``(B, N)``,
        ``per_reference`` ``(B, R, N)`` and the lengths ``(1 + R, B)`` of its lines and
        the reference lines."""

    def token_id_settings(self, settings: Any, given: Mapping[str, Any]) -> Any:
        """The ids are the words: nothing given may tokenise or lowercase them."""
        if given.get("tokenize") is not None:
            raise ValueError(f"tokenize={given['tokenize']!r} applies to text columns; token "
                             "ids are counted as given (drop tokenize)")
        if given.get("lowercase"):
            raise ValueError("lowercase=True applies to text columns; token ids are counted "
                             "as given (drop lowercase)")
        return dataclasses.replace(settings, tokenize=None)


class TextCountedMetric(Metric):
    """The base of an entry whose statistics come from the text (chrF, TER, ROUGE, WER,
    CIDEr-D): no verbose part, and by default no token ids."""

    command_flags: ClassVar[dict[str, str]] = {}
    command_fixed: ClassVar[dict[str, Any]] = {}

    @abc.abstractmethod
    def text_statistics(self, hypotheses: list[str], references: Sequence[list[str]],
                        settings: Any) -> np.ndarray:
        """Statistics ``(B, F)`` of hypothesis lines against reference streams."""

    def token_id_settings(self, settings: Any, given: Mapping[str, Any]) -> Any:
        raise ValueError(f"{self.name} needs text columns")

    def token_id_statistics(self, batch: Any, settings: Any) -> Any:
        raise ValueError(f"metrics: {self.name} is not counted on token ids; give text columns")

    def verbose(self, table: np.ndarray, settings: Any) -> list[str]:
        return [""] * len(np.atleast_2d(table))


def word_counted(name: str) -> WordCountedMetric | None:
    """The entry of metric ``name`` where its statistics come from the shared word counting
    (:class:`WordCountedMetric`), else None (it counts the text itself)."""
    metric = get(name)
    return metric if isinstance(metric, WordCountedMetric) else None


def text_counted(name: str) -> TextCountedMetric | None:
    """The entry of metric ``name`` where its statistics come from the text
    (:class:`TextCountedMetric`), else None.

    >>> [name for name in names() if text_counted(name) is None]
    ['bleu', 'gleu']
    """
    metric = get(name)
    return metric if isinstance(metric, TextCountedMetric) else None


def reference_rows(hypotheses: Sequence[str],
                   references: Sequence[list[str]]) -> list[list[Any]]:
    """The references of each hypothesis from reference streams (one list per stream, None
    where a line has no reference).

    >>> reference_rows(["a", "b"], [["ra", "rb"], ["sa", "sb"]]), reference_rows(["a"], [])
    ([['ra', 'sa'], ['rb', 'sb']], [[]])
    """
    if not references:
        return [[] for _ in hypotheses]
    return [list(refs) for refs in zip(*references, strict=True)]


def result(name: str, total: np.ndarray, settings: Any, nrefs: str,
           given_tokens: bool = False) -> Any:
    """The result object of metric ``name`` (``BleuResult``, ...) of summed statistics
    ``total`` (``(F,)``, the ``to_array`` form); ``given_tokens``: of token ids."""
    module = importlib.import_module(get(name).result_module or f"bleusuite.scores.{name}.result")
    return module.result_of_table(total, settings, nrefs, given_tokens)


def names() -> list[str]:
    """The metric names, sorted (sacrebleu's order of reports)."""
    return sorted(METRICS)


def get(name: str) -> Metric:
    """The metric called ``name``.

    Raises:
        ValueError: no metric has that name.
    """
    if name not in METRICS:
        raise ValueError(f"unknown metric {name!r}; choose one of {', '.join(names())}")
    metric: Metric = importlib.import_module(METRICS[name]).METRIC
    return metric


def of_statistics(stats: Any) -> Metric:
    """The metric whose statistics ``stats`` are (an instance of its statistics type).

    Raises:
        TypeError: ``stats`` are no metric's statistics.
    """
    for name in names():
        metric = get(name)
        if isinstance(stats, metric.statistics):
            return metric
    raise TypeError(f"stats must be the statistics of a metric ({', '.join(names())}); "
                    f"got {type(stats).__name__}")
