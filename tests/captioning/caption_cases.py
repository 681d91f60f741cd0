"""Generated COCO-like corpora for the captioning parity tests: images with 1-5 reference
captions, hypotheses edited from one of them or unrelated long lines (fixed seeds)."""

from __future__ import annotations

import random

import numpy as np

WORDS = ("a an the man woman person dog cat horse bus train plate pizza table street sign "  # noqa: SIM905
         "red white black small large two three sitting standing riding holding eating on in "
         "of with next to near at top front field grass water beach kitchen room food city "
         "young old group people playing looking").split()


def sentence(rng: random.Random, low: int = 5, high: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def edited(rng: random.Random, line: str) -> str:
    words = line.split()
    for _ in range(rng.randint(0, 3)):
        action = rng.random()
        if action < 0.4 and words:
            words[rng.randrange(len(words))] = rng.choice(WORDS)
        elif action < 0.7 and words:
            del words[rng.randrange(len(words))]
        else:
            words.insert(rng.randint(0, len(words)), rng.choice(WORDS))
    return " ".join(words)


def coco_corpus(seed: int, images: int, max_refs: int = 5
                ) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """``(gts, res)`` in pycocoevalcap's form: image id -> references, -> [hypothesis]."""
    rng = random.Random(seed)
    gts: dict[int, list[str]] = {}
    res: dict[int, list[str]] = {}
    for image in range(images):
        refs = [sentence(rng) for _ in range(rng.randint(1, max_refs))]
        kind = rng.random()
        if kind < 0.6:
            hyp = edited(rng, rng.choice(refs))
        elif kind < 0.8:
            hyp = sentence(rng, 20, 40)          # an unrelated long line
        elif kind < 0.9:
            hyp = rng.choice(refs)               # a copy
        else:
            hyp = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 3)))  # short, empty
        gts[image * 7 + 3] = refs
        res[image * 7 + 3] = [hyp]
    return gts, res


def padded(rows: list[list[int]], width: int) -> np.ndarray:
    out = np.zeros((len(rows), width), dtype=np.int64)
    for b, row in enumerate(rows):
        out[b, :len(row)] = row
    return out


def id_batch(seed: int, images: int, *, max_refs: int = 5, vocabulary: int = 0,
             offset: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """A COCO-like corpus as padded token ids (pad 0): ``(B, Lh)`` and ``(B, 5, Lr)``, rows
    with fewer references padded with empty ones. ``vocabulary`` > 0: tokens drawn from that
    many ids instead of the corpus's words; ``offset``: added to every id."""
    gts, res = coco_corpus(seed, images, max_refs)
    numbers: dict[str, int] = {}
    rng = random.Random(seed)

    def ids(line: str) -> list[int]:
        if vocabulary:
            return [offset + rng.randrange(vocabulary) for _ in line.split()]
        return [numbers.setdefault(w, offset + len(numbers)) for w in line.split()]

    hyps = [ids(res[k][0]) for k in gts]
    refs = [[ids(r) for r in gts[k]] for k in gts]
    width = max(map(len, hyps), default=0) + 2
    ref_width = max((len(r) for rs in refs for r in rs), default=0) + 1
    ref_array = np.zeros((len(refs), max_refs, ref_width), dtype=np.int64)
    for b, rs in enumerate(refs):
        ref_array[b, :len(rs)] = padded(rs, ref_width)
    return padded(hyps, width), ref_array
