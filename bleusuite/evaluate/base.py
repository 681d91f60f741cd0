"""The class under every evaluate script here (``bleu/bleu.py``, ...), so that a script holds
only its own text and ``_compute``; abstract, so that evaluate's loader (the first
non-abstract ``EvaluationModule`` of a script) passes it over. Without ``evaluate``
(:data:`INSTALLED` false) the scripts define nothing.
"""

from __future__ import annotations

import abc
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bleusuite.evaluate import features as bleu_features

__all__ = ["INSTALLED", "ScriptMetric"]

_Metric: Any
try:
    import evaluate
except ImportError:  # the scripts then define nothing (their classes need evaluate)
    INSTALLED = False
    _Metric = object
else:
    INSTALLED = True
    _Metric = evaluate.Metric


class ScriptMetric(_Metric, metaclass=abc.ABCMeta):
    """evaluate's ``Metric`` with its ``MetricInfo`` from the class statement's keywords
    (``description``, ``citation``, ``codebase_urls``, ``features``) and the script's doc."""

    _info_fields: dict[str, Any]
    _features: Callable[[], Any]

    def __init_subclass__(cls, *, description: str, citation: str = "",
                          codebase_urls: Sequence[str] = (), reference_urls: Sequence[str] = (),
                          features: Callable[[], Any] = bleu_features, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._info_fields = {"description": description, "citation": citation,
                            "codebase_urls": list(codebase_urls),
                            "reference_urls": list(reference_urls)}
        cls._features = staticmethod(features)

    def _info(self) -> Any:
        # the script's docstring, as each script once passed its own ``__doc__``
        script = sys.modules[type(self).__module__]
        return evaluate.MetricInfo(inputs_description=script.__doc__ or "",
                                   features=self._features(), **self._info_fields)

    @abc.abstractmethod
    def _compute(self, *args: Any, **kwargs: Any) -> Any:
        """The script's number (evaluate's ``compute`` calls it)."""
