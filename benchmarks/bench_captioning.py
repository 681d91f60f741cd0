"""The COCO caption evaluation (issue 45): pycocoevalcap 1.2 against
``bleusuite.pycocoevalcap``, side by side in one run, numbers checked equal.

The workload is COCO-like: 5,000 images x 5 references (:func:`coco_like`: each image a
scene of a few objects, an action and attributes from Zipf-distributed lexicons, each
reference one of several sentence shapes over it, capitalised, most with a final period,
some with commas; the hypothesis one of the references, lowercased, with 0-3 words
replaced, dropped or inserted, as a captioner writes). Groups:

- ``PTBTokenizer().tokenize`` of the 25,000 references (pycocoevalcap's runs the Stanford
  tokenizer in a new JVM per call: its start is part of what its users pay), target >= 20x;
- ``Bleu(4)``, ``Rouge()`` and ``Cider()`` ``compute_score`` on the tokenised captions,
  targets >= 30x, >= 100x and >= 100x.

Run with ``pytest benchmarks/bench_captioning.py -p no:randomly`` (``tox -e bench`` runs
it with the others); the ratios are printed at the end of the run. pycocoevalcap's
tokenizer needs ``java`` on the PATH (its group is skipped without it).
"""

from __future__ import annotations

import shutil
from typing import Any

import numpy as np
import pytest

from bleusuite import pycocoevalcap as ours

bleu_module = pytest.importorskip("pycocoevalcap.bleu.bleu")
rouge_module = pytest.importorskip("pycocoevalcap.rouge.rouge")
cider_module = pytest.importorskip("pycocoevalcap.cider.cider")
tokenizer_module = pytest.importorskip("pycocoevalcap.tokenizer.ptbtokenizer")

IMAGES, REFERENCES = 5000, 5


def _lexicon(rng: np.random.Generator, size: int, suffix: str = "") -> list[str]:
    syllables = ["ba", "co", "di", "fe", "ga", "ho", "ki", "lu", "ma", "ne", "po", "ra", "si",
                 "ta", "vo", "we", "zu", "bri", "cla", "dro", "fla", "gre", "pla", "sto", "tri"]
    words: dict[str, None] = {}
    while len(words) < size:
        words.setdefault("".join(rng.choice(syllables, size=int(rng.integers(1, 4)))) + suffix)
    return list(words)


def _zipf(rng: np.random.Generator, words: list[str]) -> str:
    return words[(int(rng.zipf(1.3)) - 1) % len(words)]


def coco_like(images: int, references: int, seed: int = 45
              ) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """``(gts, res)`` of raw captions, pycocoevalcap's dictionaries (image id -> captions)."""
    rng = np.random.default_rng(seed)
    nouns = ["man", "woman", "dog", "cat", "table", "street", "plate", "bus", "field",
             *_lexicon(rng, 3000)]
    verbs = ["sitting", "standing", "riding", "holding", "eating", *_lexicon(rng, 400, "ing")]
    adjectives = ["white", "red", "small", "large", "young", *_lexicon(rng, 600, "y")]
    where = ["on", "in", "near", "next to", "in front of", "on top of", "with", "at", "by"]
    count = ["two", "three", "several", "a group of", "many"]
    shapes = ["{a} {adj} {n1} {verb} {prep} {the} {n2}",
              "{a} {n1} {verb} {prep} {the} {adj} {n2} {prep2} {the} {n3}",
              "{count} {n1}s {verb} {prep} {a} {n2}",
              "{a} {n1} that is {verb} {prep} {a} {n2}, {prep2} {the} {n3}",
              "there is {a} {adj} {n1} {prep} {the} {n2}",
              "{a} {adj} {n2} with {a} {n1} {verb} {prep} it"]
    gts: dict[int, list[str]] = {}
    res: dict[int, list[str]] = {}
    for image in range(images):
        scene = {"n": [_zipf(rng, nouns) for _ in range(3)], "verb": _zipf(rng, verbs),
                 "adj": [_zipf(rng, adjectives) for _ in range(2)]}
        captions = []
        for _ in range(references):
            n1, n2, n3 = rng.permutation(scene["n"]).tolist()
            text = str(rng.choice(shapes)).format(
                a="a", the=str(rng.choice(["the", "a"])), n1=n1, n2=n2, n3=n3,
                verb=scene["verb"] if rng.random() < 0.7 else _zipf(rng, verbs),
                adj=str(rng.choice(scene["adj"])), prep=str(rng.choice(where)),
                prep2=str(rng.choice(where)), count=str(rng.choice(count)))
            text = text[0].upper() + text[1:]
            captions.append(text + "." if rng.random() < 0.8 else text)
        words = captions[int(rng.integers(references))].lower().rstrip(".").replace(",", "")
        hypothesis = words.split()
        for _ in range(int(rng.integers(0, 4))):
            action, at = rng.random(), int(rng.integers(len(hypothesis)))
            if action < 0.4:
                hypothesis[at] = _zipf(rng, nouns if rng.random() < 0.5 else adjectives)
            elif action < 0.7 and len(hypothesis) > 3:
                del hypothesis[at]
            else:
                hypothesis.insert(at, _zipf(rng, adjectives))
        gts[image] = captions
        res[image] = [" ".join(hypothesis)]
    return gts, res


GTS_RAW, RES_RAW = coco_like(IMAGES, REFERENCES)
TOKENIZER_INPUT = {k: [{"caption": c} for c in v] for k, v in GTS_RAW.items()}
GTS = ours.PTBTokenizer().tokenize(TOKENIZER_INPUT)
RES = ours.PTBTokenizer().tokenize({k: [{"caption": c} for c in v]
                                    for k, v in RES_RAW.items()})
WORKLOAD = f"{IMAGES:,} images x {REFERENCES} references, COCO-like"
_EXPECTED: dict[str, Any] = {}

SCORERS = {"Bleu(4)": (lambda: bleu_module.Bleu(4), lambda: ours.Bleu(4)),
           "Rouge()": (rouge_module.Rouge, ours.Rouge),
           "Cider()": (cider_module.Cider, ours.Cider)}


def _score(make: Any) -> Any:
    scorer = make()
    if isinstance(scorer, (bleu_module.Bleu, ours.Bleu)):
        return scorer.compute_score(GTS, RES, verbose=0)
    return scorer.compute_score(GTS, RES)


@pytest.mark.parametrize("tool", ["pycocoevalcap", "bleusuite.pycocoevalcap"])
@pytest.mark.parametrize("name", list(SCORERS))
def test_scorer(timed: Any, name: str, tool: str) -> None:
    baseline = tool == "pycocoevalcap"
    make = SCORERS[name][0 if baseline else 1]
    got = timed(f"{name}.compute_score, {WORKLOAD}", f"{tool} {name}",
                lambda: _score(make), rounds=1 if baseline else 10, baseline=baseline,
                warmup=0 if baseline else 1)
    if name not in _EXPECTED:
        _EXPECTED[name] = got if baseline else _score(SCORERS[name][0])
    want = _EXPECTED[name]
    np.testing.assert_allclose(np.asarray(got[0], dtype=np.float64),
                               np.asarray(want[0], dtype=np.float64), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.asarray(got[1], dtype=np.float64),
                               np.asarray(want[1], dtype=np.float64), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("tool", ["pycocoevalcap (java)", "bleusuite.pycocoevalcap"])
def test_tokenizer(timed: Any, tool: str) -> None:
    baseline = tool.startswith("pycocoevalcap")
    if baseline and shutil.which("java") is None:
        pytest.skip("pycocoevalcap's tokenizer runs java, which is not on the PATH")
    tokenizer = tokenizer_module.PTBTokenizer() if baseline else ours.PTBTokenizer()
    got = timed(f"PTBTokenizer().tokenize, {IMAGES * REFERENCES:,} COCO-like captions",
                tool, lambda: tokenizer.tokenize(TOKENIZER_INPUT), rounds=2 if baseline else 5,
                baseline=baseline, warmup=0 if baseline else 1)
    assert got == GTS
