"""Generated COCO-like corpora for the captioning parity tests: images with 1-5 reference
captions, hypotheses edited from one of them or unrelated long lines (fixed seeds)."""

from __future__ import annotations

import random

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
