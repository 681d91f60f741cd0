"""What a Ray job computes (:class:`Plan`, built by :func:`make_plan`): the metrics, the
settings of each (the registry's dataclasses, ``bleusuite score``'s defaults) for text
columns and for token-id columns, and how token ids are read.

>>> plan = make_plan({"bleu": {"smooth": "floor"}, "chrf": {"word_order": 2}},
...                  {"lowercase": True})
>>> plan.settings("text", "bleu").smooth, plan.settings("text", "chrf").lowercase
('floor', True)
>>> plan.refusals["ids"]
'lowercase=True applies to text columns; token ids are counted as given (drop lowercase)'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bleusuite import checks
from bleusuite.scores import registry

__all__ = ["Kind", "MetricsArgument", "Plan", "make_plan"]

#: the metrics of a job: a name, names, or names with settings of their own
MetricsArgument = str | Sequence[str] | Mapping[str, Mapping[str, Any]]
#: what a batch's columns hold
Kind = Literal["text", "ids"]


@dataclass(frozen=True)
class Plan:
    """The metrics of a job (in the order given), each one's settings for text and for
    token-id columns (``ids`` empty where ``refusals`` says why they cannot be scored),
    and how token ids are read: ``pad_id`` dropped anywhere, a sentence ended before its
    first ``eos_id``, counted on ``device`` (a torch device; None: the CPU, with NumPy)."""

    metrics: tuple[str, ...]
    text: Mapping[str, Any]
    ids: Mapping[str, Any]
    pad_id: int | None = None
    eos_id: int | None = None
    device: str | None = None
    refusals: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def settings(self, kind: Kind, metric: str) -> Any:
        """The settings of ``metric`` for columns of ``kind``."""
        return (self.text if kind == "text" else self.ids)[metric]


def _named_metrics(metrics: MetricsArgument) -> dict[str, dict[str, Any]]:
    """Each metric's name and its own settings, checked against the registry."""
    if isinstance(metrics, str):
        named: dict[str, dict[str, Any]] = {metrics: {}}
    elif isinstance(metrics, Mapping):
        named = {}
        for name, values in metrics.items():
            if not isinstance(values, Mapping):
                raise TypeError(f"metrics[{name!r}] must be a mapping of settings; got "
                                f"{type(values).__name__}")
            named[name] = dict(values)
    elif isinstance(metrics, Sequence):
        named = {name: {} for name in metrics}
        if len(named) != len(metrics):
            raise ValueError(f"metrics: each metric once; got {list(metrics)}")
    else:
        raise TypeError(f"metrics must be a metric name, a list of them or a mapping of names "
                        f"to settings; got {type(metrics).__name__}")
    if not named:
        raise ValueError(f"metrics: give at least one of {', '.join(registry.names())}")
    for name in named:
        if not isinstance(name, str):
            raise TypeError(f"metrics: a metric name is a str; got {name!r}")
        try:
            registry.get(name)
        except ValueError as error:
            raise ValueError(f"metrics: {error}") from None
    return named


def _fields(metric: str) -> list[str]:
    return [field.name for field in dataclasses.fields(registry.get(metric).settings())]


def make_plan(
    metrics: MetricsArgument,
    options: Mapping[str, Any],
    *,
    pad_id: Any = None,
    eos_id: Any = None,
    device: str | None = None,
    sentence_level: bool = False,
) -> Plan:
    """The plan of a job: ``options`` (setting name -> value) for every metric that has such
    a setting, then the metric's own settings where ``metrics`` is a mapping (TypeError: a
    setting no metric has; ValueError: an unknown metric, or none). ``sentence_level``: BLEU
    of sacrebleu's smoothings takes the effective order unless told otherwise (``-sl``)."""
    named = _named_metrics(metrics)
    known = {field for name in named for field in _fields(name)}
    for key in options:
        if key not in known:
            raise TypeError(f"unknown option {key!r}: no setting of {', '.join(named)} has that "
                            f"name (their settings: {', '.join(sorted(known))})")
    if device is not None and not isinstance(device, str):
        raise TypeError(f"device must be a torch device name such as 'cuda' or None; got "
                        f"{device!r}")
    pad, eos = checks.token_id(pad_id, "pad_id"), checks.token_id(eos_id, "eos_id")
    text: dict[str, Any] = {}
    ids: dict[str, Any] = {}
    refusals: dict[str, str] = {}
    if pad is not None or eos is not None:
        refusals["text"] = "pad_id and eos_id apply to token-id columns; text columns are " \
                           "tokenised (drop pad_id and eos_id)"
    for name, own in named.items():
        entry, fields = registry.get(name), _fields(name)
        for key in own:
            if key not in fields:
                raise TypeError(f"metrics[{name!r}]: {name} has no setting {key!r} (its "
                                f"settings: {', '.join(fields)})")
        values = {key: value for key, value in options.items() if key in fields} | own
        if sentence_level:
            values = entry.sentence_settings(values)
        text[name] = entry.settings(**values)
        try:
            ids[name] = entry.token_id_settings(text[name], values)
        except ValueError as refusal:
            refusals.setdefault("ids", str(refusal))
    return Plan(tuple(named), text, ids if "ids" not in refusals else {}, pad, eos, device,
                refusals)
