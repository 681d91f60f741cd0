"""pycocoevalcap's ``gts``/``res`` dictionaries as one host batch of token ids, shared by
its BLEU, ROUGE-L and CIDEr-D.

pycocoevalcap's scorers read tokenised captions (what its ``PTBTokenizer`` wrote): BLEU and
CIDEr split them with ``str.split()``, ROUGE-L with ``str.split(" ")`` (which makes an
empty caption one empty token, and two spaces an empty token between words). Both are
numbered here with one vocabulary; the ROUGE-L tokens are numbered apart only where a
caption splits differently (an empty one, or spaces other than single ones between words).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Mapping
from itertools import repeat
from typing import Any

import numpy as np

from bleusuite.inputs.batch import Batch, grouped_batch
from bleusuite.text.token_ids import numbering

__all__ = ["EncodedCaptions", "encode"]

# A caption whose split(" ") is not its split(): empty, or other whitespace than single
# spaces between words.
_IRREGULAR = re.compile(r"^$|^ | $|  |[^\S ]")
# what str.split() splits ASCII text on, besides the space
_OTHER_ASCII_WHITESPACE = b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"


class EncodedCaptions:
    """The images of a call (in ``gts``' order) as a host :class:`Batch` of
    whitespace-split tokens (``words``), and of ``split(" ")`` tokens (``spaced``: the
    same batch where no caption differs; looked for on first use, which only ROUGE-L
    makes)."""

    def __init__(self, images: list[Hashable], words: Batch, references: np.ndarray,
                 lines: tuple[list[str], np.ndarray, list[str], np.ndarray]) -> None:
        self.images = images
        self.words = words
        self.references = references        # (B,) references per image
        # the hypotheses and the references (flat), each with its numbers of words
        self._lines = lines

    @functools.cached_property
    def spaced(self) -> Batch:
        hyps, hyp_len, flat, ref_len = self._lines
        if not _any_irregular(hyps, hyp_len) and not _any_irregular(flat, ref_len):
            return self.words
        vocabulary: dict[str, int] = {}

        def spaced(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
            tokens = [line.split(" ") for line in lines]
            lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
            ids = [vocabulary.setdefault(t, len(vocabulary)) for line in tokens for t in line]
            return np.asarray(ids, dtype=np.int64), lengths

        return grouped_batch(*spaced(hyps), *spaced(flat), self.references)


def check(gts: Any, res: Any) -> list[Hashable]:
    """pycocoevalcap's assertions as errors that say what is wrong; the image ids."""
    if not isinstance(gts, Mapping) or not isinstance(res, Mapping):
        raise TypeError("gts and res must be dictionaries: image id -> list of captions; got "
                        f"{type(gts).__name__} and {type(res).__name__}")
    if gts.keys() != res.keys():
        missing = next(iter(set(gts) ^ set(res)))
        raise ValueError(f"gts and res must have the same image ids; {missing!r} is in one "
                         "only")
    # whole-call checks in C loops (map, set) first; the slow search names the bad entry
    hyps, refs = list(res.values()), list(gts.values())
    if (set(map(type, hyps)) | set(map(type, refs))) <= {list} and set(map(len, hyps)) == {1} \
            and min(map(len, refs), default=1) > 0 and set(map(type, [h[0] for h in hyps])) \
            <= {str} and set(map(type, [r for row in refs for r in row])) <= {str}:
        return list(gts.keys())
    for image, hyp in res.items():
        if not isinstance(hyp, list) or len(hyp) != 1 or not isinstance(hyp[0], str):
            raise ValueError(f"res[{image!r}] must be a list of one caption (a string); got "
                             f"{hyp!r:.80}")
    for image, refs in gts.items():
        if not isinstance(refs, list) or len(refs) == 0 or not all(
                isinstance(ref, str) for ref in refs):
            raise ValueError(f"gts[{image!r}] must be a non-empty list of captions "
                             f"(strings); got {refs!r:.80}")
    return list(gts.keys())


def encode(gts: Mapping[Hashable, list[str]], res: Mapping[Hashable, list[str]]
           ) -> EncodedCaptions:
    """The batch of ``gts`` and ``res`` (checked as pycocoevalcap asserts)."""
    images = check(gts, res)
    hyps = [res[image][0] for image in images]
    refs = [gts[image] for image in images]
    counts = np.fromiter(map(len, refs), dtype=np.int64, count=len(refs))
    flat = [ref for row in refs for ref in row]
    numbers = numbering()
    hyp_ids, hyp_len = numbers.number(hyps)
    ref_ids, ref_len = numbers.number(flat)
    words = grouped_batch(hyp_ids, hyp_len, ref_ids, ref_len, counts)
    return EncodedCaptions(images, words, counts, (hyps, hyp_len, flat, ref_len))


def _any_irregular(lines: list[str], lengths: np.ndarray) -> bool:
    """Whether a line's ``split(" ")`` is not its ``split()``: a line of k spaces splits in
    k + 1 words unless it is empty or has spaces together or at an end; other whitespace
    (found in one pass over the joined text) is looked for line by line."""
    spaces = np.fromiter(map(str.count, lines, repeat(" ")), dtype=np.int64, count=len(lines))
    if not np.array_equal(spaces + 1, lengths):
        return True
    joined = " ".join(lines)
    if joined.isascii():
        data = joined.encode()
        if len(data.translate(None, _OTHER_ASCII_WHITESPACE)) == len(data):
            return False
    return any(_IRREGULAR.search(line) for line in lines)
