"""pytorch-ignite's ROUGE metrics, drop-in: ``Rouge``, ``RougeN`` and ``RougeL`` with the
constructors, inputs, result keys and numbers of Ignite's, counted by bleusuite (the n-gram
kernel, the bit-parallel LCS; :func:`bleusuite.scores.rouge.formula.ignite_scores`). The
state is the sums of precision, recall and F-measure and the number of documents.

>>> from bleusuite.metrics import Rouge, RougeL, RougeN
>>> candidate = "the cat is not there".split()
>>> references = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
>>> m = RougeN(ngram=2, multiref="best")
>>> m.update(([candidate], [references]))
>>> m.compute()
{'Rouge-2-P': 0.5, 'Rouge-2-R': 0.4, 'Rouge-2-F': 0.4}
>>> m = Rouge(variants=["L", 2], multiref="best")
>>> m.update(([candidate], [references]))
>>> m.compute()  # doctest: +NORMALIZE_WHITESPACE
{'Rouge-L-P': 0.6, 'Rouge-L-R': 0.5, 'Rouge-L-F': 0.5,
 'Rouge-2-P': 0.5, 'Rouge-2-R': 0.4, 'Rouge-2-F': 0.4}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import torch
from ignite.exceptions import NotComputableError
from ignite.metrics.metric import Metric, reinit__is_reduced, sync_all_reduce

from bleusuite.metrics.inputs import check_special, id_batch, identity, to_state
from bleusuite.scores.rouge.counts import counts_of_batch
from bleusuite.scores.rouge.formula import IGNITE_MULTIREF, ignite_scores

__all__ = ["Rouge", "RougeL", "RougeN"]

#: Ignite's variants where none are given
DEFAULT_VARIANTS: tuple[int | str, ...] = (1, 2, 4, "L")


def _variant(value: Any) -> tuple[str, str]:
    """A variant (``"L"`` or an order ``n >= 1``) as (bleusuite's ROUGE type, Ignite's key
    prefix)."""
    if isinstance(value, str) and value == "L":
        return "rougeL", "Rouge-L"
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise ValueError(f"ngram order must be greater than zero (got : {value})")
        return f"rouge{value}", f"Rouge-{value}"
    raise ValueError("variant must be 'L' or integer greater to zero")


class Rouge(Metric):
    """Ignite's ``Rouge``: ROUGE-N and ROUGE-L of several variants at once, from one count
    of each batch.

    ``update`` takes ``(y_pred, y)`` as :class:`~bleusuite.metrics.Bleu` does, without text:
    token sequences, or token ids (B, L) and (B, L) or (B, R, L), or lists of 1-D tensors.
    Per document, each reference's precision and recall, then ``multiref="best"`` (the
    reference with the highest recall) or ``"average"`` (the counts of all references
    added), and the F-measure ``P * R / ((1 - alpha) * P + alpha * R)``; the result is the
    mean of each over the documents.

    Args:
        variants: the ROUGE-N orders (integers >= 1) and ``"L"`` (default ``[1, 2, 4,
            "L"]``).
        multiref: ``"average"`` (default) or ``"best"``.
        alpha: in [0, 1]; 0 makes the F-measure the recall, 1 the precision.
        output_transform: turns the Engine's ``process_function`` output into
            ``(y_pred, y)``.
        device: where the state is accumulated. By default, CPU.
        pad_id, eos_id: token ids: padding (dropped anywhere; a reference of padding only
            is absent) and end of sentence (it and what follows are dropped).

    Raises:
        ValueError: a bad variant, ``multiref`` or ``alpha`` (Ignite's messages).
    """

    _state_dict_all_req_keys = ("_precision", "_recall", "_fmeasure", "_num_examples")

    def __init__(
        self,
        variants: Sequence[str | int] | None = None,
        multiref: str = "average",
        alpha: float = 0,
        output_transform: Callable[..., Any] = identity,
        device: str | torch.device = "cpu",
        *,
        pad_id: int | str | None = None,
        eos_id: int | str | None = None,
    ) -> None:
        if variants is None or len(variants) == 0:
            variants = DEFAULT_VARIANTS
        named = [_variant(value) for value in variants]
        self._prefixes = [prefix for _, prefix in named]
        self._types = tuple(dict.fromkeys(rouge_type for rouge_type, _ in named))
        self._columns = [self._types.index(rouge_type) for rouge_type, _ in named]
        if not 0 <= alpha <= 1:
            raise ValueError(f"alpha must be in interval [0, 1] (got : {alpha})")
        if multiref not in IGNITE_MULTIREF:
            raise ValueError(f"multiref : valid values are {list(IGNITE_MULTIREF)} (got : "
                             f"{multiref})")
        self._alpha = alpha
        self._multiref = multiref
        self.pad_id = check_special(pad_id, "pad_id")
        self.eos_id = check_special(eos_id, "eos_id")
        super().__init__(output_transform=output_transform, device=device)

    @reinit__is_reduced
    def reset(self) -> None:
        """Forget every document seen."""
        self._precision, self._recall, self._fmeasure = (
            torch.zeros(len(self._types), dtype=self._double_dtype, device=self._device)
            for _ in range(3))
        self._num_examples = torch.tensor(0, dtype=torch.int64, device=self._device)

    @reinit__is_reduced
    def update(self, output: Sequence[Any]) -> None:
        """Add one batch ``(y_pred, y)`` (see the class)."""
        batch = id_batch(output, self.pad_id, self.eos_id)
        scores = ignite_scores(counts_of_batch(batch, self._types), self._multiref,
                               self._alpha)
        be = batch.backend
        for state, values in zip((self._precision, self._recall, self._fmeasure), scores,
                                 strict=True):
            state += to_state(be.sum_(values, axis=0), self._double_dtype, self._device)
        self._num_examples += batch.size

    @sync_all_reduce("_precision", "_recall", "_fmeasure", "_num_examples")
    def compute(self) -> Mapping[str, float]:
        """``{"Rouge-<variant>-P": ..., "-R": ..., "-F": ...}`` for each variant, in order:
        the mean precision, recall and F-measure of every document seen since the last
        :meth:`reset`, in all processes.

        Raises:
            NotComputableError: before the first document.
        """
        count = int(self._num_examples)
        if count == 0:
            raise NotComputableError("Rouge metric must have at least one example before "
                                     "being computed")
        states = {"P": self._precision, "R": self._recall, "F": self._fmeasure}
        return {f"{prefix}-{key}": float(state[column]) / count
                for prefix, column in zip(self._prefixes, self._columns, strict=True)
                for key, state in states.items()}


class RougeN(Rouge):
    """Ignite's ``RougeN``: ROUGE-N of order ``ngram`` (default 4); result keys
    ``Rouge-<n>-P``, ``-R``, ``-F``. Other arguments as :class:`Rouge`.

    >>> m = RougeN(ngram=1, multiref="average", alpha=0.5)
    >>> m.update(([["a", "b", "c"]], [[["a", "b"], ["a", "c", "d"]]]))
    >>> round(m.compute()["Rouge-1-F"], 4)      # ignite.metrics.RougeN gives the same
    0.7273
    """

    def __init__(
        self,
        ngram: int = 4,
        multiref: str = "average",
        alpha: float = 0,
        output_transform: Callable[..., Any] = identity,
        device: str | torch.device = "cpu",
        *,
        pad_id: int | str | None = None,
        eos_id: int | str | None = None,
    ) -> None:
        if not isinstance(ngram, int) or isinstance(ngram, bool) or ngram < 1:
            raise ValueError(f"ngram order must be greater than zero (got : {ngram})")
        super().__init__([ngram], multiref, alpha, output_transform, device, pad_id=pad_id,
                         eos_id=eos_id)


class RougeL(Rouge):
    """Ignite's ``RougeL``: ROUGE-L (the longest common subsequence); result keys
    ``Rouge-L-P``, ``-R``, ``-F``. Arguments as :class:`Rouge`.

    >>> import torch
    >>> m = RougeL(pad_id=0)
    >>> m.update((torch.tensor([[5, 6, 7, 8]]), torch.tensor([[5, 7, 6, 0]])))
    >>> m.compute()["Rouge-L-R"]
    0.6666666666666666
    """

    def __init__(
        self,
        multiref: str = "average",
        alpha: float = 0,
        output_transform: Callable[..., Any] = identity,
        device: str | torch.device = "cpu",
        *,
        pad_id: int | str | None = None,
        eos_id: int | str | None = None,
    ) -> None:
        super().__init__(["L"], multiref, alpha, output_transform, device, pad_id=pad_id,
                         eos_id=eos_id)
