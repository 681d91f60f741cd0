"""Scores as they are printed, in sacrebleu's formats (0-100): the signature
(:func:`make_signature`: every setting that changes the number, ``key:value`` joined by
``|``, the version last), the score line (:func:`score_line`), the JSON record
(:func:`score_record`), and the base of the result objects (:class:`ScoreResult`).

>>> signature = make_signature("bleu", {"tokenize": "13a"}, nrefs=1)
>>> signature.format(short=True).rsplit("|", 1)[0]
'#:1|c:mixed|e:no|tok:13a|s:exp'
>>> score_line("BLEU", "", score_text(48.8923, 2), "85.7/66.7/40.0/25.0 (BP = 1.000 ...)")
'BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ...)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeGuard

import numpy as np

from bleusuite import backends
from bleusuite.version import VERSION

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch

__all__ = ["GIVEN_TOKENS", "SHARED_ABBREVIATIONS", "ScoreResult", "Signature", "host", "json_text",
           "make_signature", "num_refs", "num_refs_of_text", "result_line", "score_line",
           "score_record", "score_text", "version_field"]

#: ``tok:`` of the signature when the caller gives tokens (ids or token lists)
GIVEN_TOKENS = "given"

#: sacrebleu's short keys of the fields every metric's signature may hold (its
#: ``Signature._abbr``); a metric's own are its registry entry's ``abbreviations``
SHARED_ABBREVIATIONS: dict[str, str] = {
    "version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S", "origlang": "o",
    "bs": "bs", "ar": "ar", "seed": "rs"}


def version_field() -> str:
    """``bleusuite-<version>``: the last field of every signature."""
    return f"bleusuite-{VERSION}"


class Confidence(Protocol):
    """A bootstrap summary as a report prints it
    (:class:`bleusuite.significance.bootstrap.Confidence` is one)."""

    @property
    def mean(self) -> float: ...

    @property
    def half_width(self) -> float: ...

    @property
    def low(self) -> float: ...

    @property
    def high(self) -> float: ...


class Signature:
    """sacrebleu's signature: ``info`` (every setting that changes the number, in order; a
    None value is left out, the version printed last, True and False as ``yes`` and ``no``).

    >>> signature = Signature({"nrefs": 1, "version": "bleusuite-X", "case": "lc"},
    ...                       {"case": "c"})
    >>> signature.format(), signature.format(short=True)
    ('nrefs:1|case:lc|version:bleusuite-X', '#:1|c:lc|v:bleusuite-X')
    """

    def __init__(self, info: Mapping[str, Any],
                 abbreviations: Mapping[str, str] | None = None) -> None:
        self.info = dict(info)
        self.abbreviations = {**SHARED_ABBREVIATIONS, **(abbreviations or {})}

    def format(self, short: bool = False) -> str:
        """``key:value|...``; ``short`` uses sacrebleu's abbreviations."""
        keys = [key for key in self.info if key != "version"]
        if "version" in self.info:
            keys.append("version")
        parts = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(f"{self.abbreviations.get(key, key) if short else key}:{value}")
        return "|".join(parts)

    def update(self, key: str, value: Any) -> None:
        """Add a field or change one (sacrebleu's ``Signature.update``)."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


def make_signature(metric: str, settings: Any, *, nrefs: int | str | None,
                   resampling: tuple[str, int] | None = None, seed: int | str | None = None,
                   extra: Mapping[str, Any] | None = None) -> Signature:
    """The signature of a score of ``metric``: ``nrefs`` (``var``: a varying number), the
    resampling (``("bs", 1000)`` or ``("ar", n)``) and its ``seed``, the metric's fields for
    ``settings`` (its settings object, or a mapping over its defaults), ``extra`` fields
    (bleusuite's own, such as BLEU's weights) and the version.

    >>> make_signature("chrf", {}, nrefs=2).format().rsplit("|", 1)[0]
    'nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no'
    """
    from bleusuite.scores import registry

    entry = registry.get(metric)
    if isinstance(settings, Mapping):
        settings = entry.settings(**settings)
    info: dict[str, Any] = {"nrefs": nrefs}
    if resampling is not None:
        info[resampling[0]] = resampling[1]
        info["seed"] = seed
    info.update(entry.signature(settings))
    info.update(extra or {})
    info["version"] = version_field()
    return Signature(info, entry.abbreviations)


def score_text(score: float, width: int, confidence: Confidence | None = None,
               interval: bool = False) -> str:
    """A score as sacrebleu prints it, ``width`` digits after the point, with its bootstrap
    summary (``(μ = mean ± half-width)``) where sacrebleu prints one; ``interval``:
    bleusuite's ``, 95% CI [low, high]`` inside the brackets.

    >>> score_text(48.8923, 2), score_text(48.8923, 1)
    ('48.89', '48.9')
    """
    text = f"{score:.{width}f}"
    if shows_confidence(confidence):
        c = confidence
        text += f" (μ = {c.mean:.{width}f} ± {c.half_width:.{width}f}"
        if interval:
            text += f", 95% CI [{c.low:.{width}f}, {c.high:.{width}f}]"
        text += ")"
    return text


def shows_confidence(confidence: Confidence | None) -> TypeGuard[Confidence]:
    """Whether a score prints its bootstrap summary: sacrebleu's ``Score.format`` prints it
    (and its JSON keys) only where the bootstrap mean is above 0."""
    return confidence is not None and confidence.mean > 0


def score_line(name: str, signature: str, score: str, verbose: str = "") -> str:
    """sacrebleu's text line: ``NAME|signature = score verbose`` (no ``|signature`` where
    ``signature`` is empty, no verbose part where ``verbose`` is)."""
    line = f"{name}|{signature}" if signature else name
    line = f"{line} = {score}"
    return f"{line} {verbose}" if verbose else line


def score_record(name: str, score: float, width: int, signature: Signature | str,
                 verbose: str = "", confidence: Confidence | None = None,
                 interval: bool = False) -> dict[str, Any]:
    """sacrebleu's JSON record of a score: ``name``, ``score`` (rounded to ``width``
    digits), ``signature``, the bootstrap summary where sacrebleu gives one (``interval``:
    bleusuite's ``confidence_low`` and ``confidence_high`` too), ``verbose_score``, and each
    signature field as a string.

    >>> record = score_record("chrF2", 59.6123, 1, Signature({"nrefs": 1}))
    >>> record
    {'name': 'chrF2', 'score': 59.6, 'signature': 'nrefs:1', 'nrefs': '1'}
    """
    record: dict[str, Any] = {"name": name, "score": float(f"{score:.{width}f}"),
                              "signature": signature if isinstance(signature, str)
                              else signature.format()}
    if shows_confidence(confidence):
        c = confidence
        mean, half = f"{c.mean:.{width}f}", f"{c.half_width:.{width}f}"
        record.update(confidence_mean=float(mean), confidence_var=float(half),
                      confidence=f"μ = {mean} ± {half}")
        if interval:
            record.update(confidence_low=float(f"{c.low:.{width}f}"),
                          confidence_high=float(f"{c.high:.{width}f}"))
    if verbose:
        record["verbose_score"] = verbose
    for item in record["signature"].split("|") if record["signature"] else []:
        key, value = item.split(":", 1)
        record[key] = value
    return record


class ScoreResult:
    """The base of every result object (sacrebleu's ``Score``): a frozen dataclass with a
    ``score`` (0-100), a ``signature``, and a ``name`` field or the class's :attr:`title`; a
    subclass says what its line shows after the score (:meth:`verbose`)."""

    #: the name printed before the score, where the result has no ``name`` field
    title: ClassVar[str] = ""

    @property
    def shown_name(self) -> str:
        """The name the line and :meth:`to_dict` give (``BLEU``, ``chrF2++``, ...)."""
        name: str = getattr(self, "name", "") or self.title
        return name

    def verbose(self) -> str:
        """What the line shows after the score (``''``: nothing)."""
        return ""

    def format(self, width: int = 2, *, score_only: bool = False, signature: bool = True) -> str:
        """sacrebleu's line: ``NAME|signature = 59.61`` and what follows the score.

        Args:
            width: digits after the decimal point of the score.
            score_only: only the score.
            signature: include the signature after ``NAME|``.
        """
        values: Any = self
        return result_line(self.shown_name, values.score,
                           values.signature if signature else "", self.verbose(), width,
                           score_only)

    def __str__(self) -> str:
        return self.format()

    def __float__(self) -> float:
        values: Any = self
        return float(values.score)

    def to_dict(self) -> dict[str, Any]:
        """Plain Python values (``json.dumps`` takes them), as the fields hold them (tuples
        as lists), the name first."""
        out: dict[str, Any] = {"name": self.shown_name}
        for item in fields(self):  # type: ignore[arg-type]
            if item.name != "name":
                value = getattr(self, item.name)
                out[item.name] = list(value) if isinstance(value, tuple) else value
        return out


def result_line(name: str, score: float, signature: str, verbose: str, width: int,
                score_only: bool) -> str:
    """The line a result object prints: :func:`score_line` of its score (``score_only``:
    the score alone)."""
    text = score_text(score, width)
    return text if score_only else score_line(name, signature, text, verbose)


def json_text(value: Any, indent: int | None = None) -> str:
    """``value`` in JSON as sacrebleu prints it (``json`` imported here: a millisecond of the
    command's start)."""
    import json

    return json.dumps(value, indent=indent, ensure_ascii=False)


def host(a: Any) -> np.ndarray:
    """A statistics array as NumPy (statistics are a few numbers: one small transfer)."""
    if isinstance(a, np.ndarray):
        return a
    return np.asarray(backends.get_backend(a).to_numpy(a))


def num_refs(batch: Batch) -> str:
    """``nrefs:`` of a batch: its number of references per hypothesis, or ``var``."""
    counts = np.unique(host(batch.backend.sum_(batch.backend.to_int64(batch.ref_present),
                                               axis=1)))
    return str(int(counts[0])) if len(counts) == 1 else "var"


def num_refs_of_text(references: Sequence[Any]) -> str:
    """``nrefs:`` of text references given per hypothesis (a string, or a list of strings
    with ``None`` for a missing one): their number, or ``var``.

    >>> num_refs_of_text([["a", "b"], ["c", None]]), num_refs_of_text(["a", "b"])
    ('var', '1')
    """
    counts = {len([r for r in ([refs] if isinstance(refs, str) else refs) if r is not None])
              for refs in references}
    return str(counts.pop()) if len(counts) == 1 else "var"
