"""CIDEr-D of each completion against its references, with fixed document frequencies, as a
reward in TRL's calling convention (self-critical training of captioners with GRPO)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite import checks
from bleusuite.rewards.columns import (
    DEFAULT_CACHE_SIZE,
    FROM_TOKENIZER,
    Encoder,
    ReferenceReward,
)
from bleusuite.rewards.group import completion_groups
from bleusuite.scores.cider.score import CiderDocumentFrequency, sentence_cider
from bleusuite.text.ptb import tokenize_captions

if TYPE_CHECKING:
    from bleusuite.array_types import DeviceArray, Hypotheses

__all__ = ["CiderReward"]


class CiderReward(ReferenceReward):
    """CIDEr-D of each completion (pycocoevalcap's scale, 0 to about 10) against the
    references of a dataset column, with the training set's document frequencies.

    The kind of input follows ``document_frequency``: counted on text
    (:func:`bleusuite.cider_document_frequency` of the training captions, PTB-tokenised as
    pycocoevalcap does: :func:`bleusuite.text.ptb.tokenize_captions`), the decoded
    ``completions`` and the reference strings are PTB-tokenised (``ptb=False``: split on
    whitespace as they are) and scored as text; counted on token ids, ``completion_ids``
    are scored against the references encoded by ``tokenizer``, as :class:`BleuReward`.

    Args:
        document_frequency: from :func:`bleusuite.cider_document_frequency`.
        tokenizer: the policy's tokenizer (token-id document frequencies only).
        reference_column: the dataset column with each example's reference(s).
        baseline: None (the scores), or ``"mean"``: each score minus the mean of the other
            completions of its group (SCST's baseline of Luo, 2020; a completion alone in
            its group gets None, which TRL leaves out). The greedy-caption baseline needs
            a greedy decode, which TRL does not make: see
            :func:`bleusuite.scores.cider.scst.scst_cider_rewards`.
        num_generations: the group size (consecutive blocks), or None: group by prompt.
        ptb: PTB-tokenise text first (default True).
        max_order, sigma: as :func:`bleusuite.sentence_cider`.
        eos_id, pad_id, name, cache_size: as :class:`BleuReward`.

    >>> from bleusuite import cider_document_frequency
    >>> from bleusuite.text.ptb import tokenize_captions
    >>> train = [["A man rides a horse.", "A person on a horse."], ["A cat on a couch."],
    ...          ["A dog in a park."]]
    >>> frequency = cider_document_frequency([tokenize_captions(refs) for refs in train])
    >>> reward = CiderReward(frequency, baseline="mean")
    >>> rewards = reward(prompts=["p1", "p1", "p2", "p2"],
    ...                  completions=["A man on a horse.", "A horse!",
    ...                               "A cat.", "A dog on a couch."],
    ...                  reference=[train[0], train[0], train[1], train[1]])
    >>> [round(r, 3) for r in rewards]
    [0.662, -0.662, -0.313, 0.313]
    """

    def __init__(
        self,
        document_frequency: CiderDocumentFrequency,
        tokenizer: Encoder | None = None,
        reference_column: str = "reference",
        *,
        baseline: str | None = None,
        num_generations: int | None = None,
        ptb: bool = True,
        max_order: int = 4,
        sigma: float = 6.0,
        eos_id: int | str | None = FROM_TOKENIZER,
        pad_id: int | str | None = None,
        name: str = "cider_reward",
        cache_size: int | None = DEFAULT_CACHE_SIZE,
    ) -> None:
        if not isinstance(document_frequency, CiderDocumentFrequency):
            raise TypeError("document_frequency must come from cider_document_frequency; got "
                            f"{type(document_frequency).__name__}")
        if baseline not in (None, "mean"):
            raise ValueError(f"baseline must be None or 'mean'; got {baseline!r}")
        if not isinstance(ptb, bool):
            raise TypeError(f"ptb must be a bool; got {ptb!r}")
        if document_frequency.max_order < max_order:
            raise ValueError(f"document_frequency counts n-grams up to order "
                             f"{document_frequency.max_order}; max_order is {max_order}")
        text = document_frequency.text
        if text and (eos_id not in (None, FROM_TOKENIZER) or pad_id is not None):
            raise ValueError("eos_id and pad_id apply to token ids; document_frequency was "
                             "counted on text")
        super().__init__(tokenizer, reference_column, None if text else eos_id,
                         None if text else pad_id, name, cache_size,
                         "none" if text else None)
        self.document_frequency = document_frequency
        self.baseline = baseline
        self.num_generations = (None if num_generations is None else
                                checks.integer(num_generations, "num_generations", minimum=2))
        self.ptb = ptb
        self.max_order = max_order
        self.sigma = sigma
        self._ptb_cache: dict[str, str] = {}

    def _ptb_tokenized(self, lines: list[str]) -> list[str]:
        """References PTB-tokenised once each (kept up to ``cache_size``)."""
        missing = list(dict.fromkeys(line for line in lines if line not in self._ptb_cache))
        if missing:
            if self.cache_size is not None and len(self._ptb_cache) + len(missing) > \
                    self.cache_size:
                self._ptb_cache.clear()
            self._ptb_cache.update(zip(missing, tokenize_captions(missing), strict=True))
        return [self._ptb_cache[line] for line in lines]

    def score(self, hypotheses: Any, references: list[list[Any]]) -> DeviceArray:
        if self.tokenize is not None and self.ptb:
            hypotheses = tokenize_captions(list(hypotheses))
            flat = self._ptb_tokenized([ref for refs in references for ref in refs])
            at, rows = 0, []
            for refs in references:
                rows.append(flat[at:at + len(refs)])
                at += len(refs)
            references = rows
        return sentence_cider(hypotheses, references,
                              document_frequency=self.document_frequency,
                              max_order=self.max_order, sigma=self.sigma, eos_id=self.eos_id,
                              pad_id=self.pad_id)

    def __call__(  # type: ignore[override]
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        completion_ids: Hypotheses[DeviceArray] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        """One reward per completion: ``kwargs`` holds the dataset columns (TRL's call)."""
        hypotheses: Any = self.hypotheses(completions, completion_ids)
        count = int(hypotheses.shape[0]) if hasattr(hypotheses, "shape") else len(hypotheses)
        groups = (None if self.baseline is None else
                  completion_groups(prompts, count, self.num_generations, self.__name__))
        scores = self.score(hypotheses, self.references(kwargs, count))
        if hasattr(scores, "detach"):
            scores = scores.detach().cpu()
        host = np.asarray(scores, dtype=np.float64)
        if groups is None:
            return [float(value) for value in host]
        rewards: list[float | None] = [None] * count
        for group in groups:
            if len(group) > 1:
                values = host[group.start:group.stop]
                others = (values.sum() - values) / (len(group) - 1)
                rewards[group.start:group.stop] = (values - others).tolist()
        return rewards

    def _settings(self) -> str:
        return (f", baseline={self.baseline!r}, num_generations={self.num_generations}, "
                f"ptb={self.ptb}, max_order={self.max_order}, sigma={self.sigma}")
