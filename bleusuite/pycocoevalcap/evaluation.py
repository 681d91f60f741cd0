"""pycocoevalcap 1.2's ``PTBTokenizer`` and ``COCOEvalCap`` without Java, and
:func:`evaluate_captions` for plain dictionaries.

``PTBTokenizer().tokenize(captions_for_image)`` takes pycocoevalcap's form (image id -> list
of ``{"caption": str}``) and returns image id -> list of tokenised captions, as its Java
tokenizer and punctuation filter make them (:func:`bleusuite.text.ptb.tokenize_captions`).
The evaluators print and return BLEU-1..4, ROUGE-L and CIDEr-D; METEOR and SPICE are Java
programs (METEOR 1.5's paraphrase tables and stemmers, SPICE's Stanford CoreNLP parser and
scene graphs) that are not reproduced here: run pycocoevalcap for those.

>>> captions = {7: [{"caption": "A man's horse (brown)."}], 8: [{"caption": "Two cats!"}]}
>>> PTBTokenizer().tokenize(captions)
{7: ["a man 's horse -lrb- brown -rrb-"], 8: ['two cats']}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from itertools import accumulate, chain
from operator import itemgetter
from typing import Any

from bleusuite.pycocoevalcap.captions import encode
from bleusuite.pycocoevalcap.scorers import Bleu, Cider, Rouge
from bleusuite.text.ptb import tokenize_captions

__all__ = ["COCOEvalCap", "PTBTokenizer", "evaluate_captions"]

BLEU_NAMES = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4")
# the captions and the images' parts read by map() (C loops, not Python ones)
_CAPTION, _IMAGE, _ENTRIES = itemgetter("caption"), itemgetter(0), itemgetter(1)


class PTBTokenizer:
    """pycocoevalcap's ``PTBTokenizer``: the Stanford tokenizer (``-preserveLines
    -lowerCase``) and its punctuation filter, in Python."""

    def tokenize(self, captions_for_image: Mapping[Hashable, list[Mapping[str, Any]]]
                 ) -> dict[Hashable, list[str]]:
        if not isinstance(captions_for_image, Mapping):
            raise TypeError("captions_for_image must be a dictionary: image id -> list of "
                            f"{{'caption': str}}; got {type(captions_for_image).__name__}")
        items = list(captions_for_image.items())
        try:
            lines = list(map(_CAPTION, chain.from_iterable(map(_ENTRIES, items))))
        except (TypeError, KeyError, IndexError):
            lines = []
        if not lines or not set(map(type, lines)) <= {str}:
            lines = _captions(items)      # one by one: the error names the bad entry
        tokens = tokenize_captions(lines)
        counts = list(map(len, map(_ENTRIES, items)))
        if 0 not in counts:               # each image's captions: a slice of the tokens
            ends = list(accumulate(counts))
            slices = map(slice, [0, *ends[:-1]], ends)
            return dict(zip(map(_IMAGE, items), map(tokens.__getitem__, slices), strict=True))
        out: dict[Hashable, list[str]] = {}
        at = 0
        for (image, _), count in zip(items, counts, strict=True):
            if count:
                out[image] = tokens[at:at + count]
                at += count
        return out


def _captions(items: list[tuple[Hashable, Any]]) -> list[str]:
    lines = []
    for image, entries in items:
        for annotation in entries:
            caption = annotation.get("caption") if isinstance(annotation, Mapping) else None
            if not isinstance(caption, str):
                raise TypeError(f"captions_for_image[{image!r}] must hold dictionaries "
                                f"with a 'caption' string; got {annotation!r:.80}")
            lines.append(caption)
    return lines


def _scored(gts: Mapping[Hashable, list[str]], res: Mapping[Hashable, list[str]],
            verbose: bool) -> tuple[dict[str, float], dict[str, Any]]:
    """Every metric of tokenised ``gts``/``res``: BLEU on the captions numbered once,
    ROUGE-L and CIDEr-D by their own passes over the strings (the compiled part's, where
    built)."""
    scores: dict[str, Any] = {}
    per_image: dict[str, Any] = {}
    steps: list[tuple[Any, Any]] = [(Bleu(4), BLEU_NAMES), (Rouge(), "ROUGE_L"),
                                    (Cider(), "CIDEr")]
    for scorer, method in steps:
        if verbose:
            print(f"computing {scorer.method()} score...")
        if isinstance(scorer, Bleu):
            score, image_scores = scorer.score_encoded(encode(gts, res), verbose=int(verbose))
        else:
            score, image_scores = scorer.compute_score(gts, res)
        names = method if isinstance(method, tuple) else (method,)
        values = score if isinstance(method, tuple) else [score]
        lists = image_scores if isinstance(method, tuple) else [image_scores]
        for name, value, values_of_images in zip(names, values, lists, strict=True):
            scores[name] = value
            per_image[name] = values_of_images
            if verbose:
                print(f"{name}: {value:0.3f}")
    return scores, per_image


def evaluate_captions(gts: Mapping[Hashable, list[str]], res: Mapping[Hashable, list[str]],
                      *, tokenize: bool = True, verbose: bool = True) -> dict[str, float]:
    """BLEU-1..4, ROUGE-L and CIDEr-D of captions (image id -> list of strings; ``res``:
    one caption per image), PTB-tokenised first unless ``tokenize=False``: the numbers of
    ``COCOEvalCap.evaluate`` (without METEOR and SPICE). ``verbose``: its prints.

    >>> from bleusuite.pycocoevalcap import evaluate_captions
    >>> gts = {1: ["A man riding a horse.", "A person on a horse."], 2: ["A cat, sleeping."]}
    >>> res = {1: ["A man on a horse."], 2: ["A cat sleeping on a couch."]}
    >>> scores = evaluate_captions(gts, res, verbose=False)
    >>> [(name, round(value, 3)) for name, value in scores.items()][3:]
    [('Bleu_4', 0.0), ('ROUGE_L', 0.755), ('CIDEr', 3.696)]
    """
    if tokenize:
        if verbose:
            print("tokenization...")
        tokenizer = PTBTokenizer()
        gts = tokenizer.tokenize({k: [{"caption": c} for c in v] for k, v in gts.items()})
        res = tokenizer.tokenize({k: [{"caption": c} for c in v] for k, v in res.items()})
    if verbose:
        print("setting up scorers...")
    return {name: float(value) for name, value in _scored(gts, res, verbose)[0].items()}


class COCOEvalCap:
    """pycocoevalcap's ``COCOEvalCap(coco, cocoRes)`` (pycocotools ``COCO`` objects, or
    anything with ``getImgIds()`` and ``imgToAnns``): ``evaluate()`` fills ``eval`` (metric
    -> score), ``imgToEval`` and ``evalImgs`` as it does, without METEOR and SPICE."""

    def __init__(self, coco: Any, cocoRes: Any) -> None:
        self.evalImgs: list[dict[str, Any]] = []
        self.eval: dict[str, Any] = {}
        self.imgToEval: dict[Hashable, dict[str, Any]] = {}
        self.coco = coco
        self.cocoRes = cocoRes
        self.params = {"image_id": coco.getImgIds()}

    def evaluate(self) -> None:
        image_ids = self.params["image_id"]
        gts = {i: self.coco.imgToAnns[i] for i in image_ids}
        res = {i: self.cocoRes.imgToAnns[i] for i in image_ids}
        print("tokenization...")
        tokenizer = PTBTokenizer()
        gts_tokens = tokenizer.tokenize(gts)
        res_tokens = tokenizer.tokenize(res)
        print("setting up scorers...")
        scores, per_image = _scored(gts_tokens, res_tokens, verbose=True)
        for method, score in scores.items():
            self.eval[method] = score
            for image, value in zip(gts_tokens.keys(), per_image[method], strict=False):
                entry = self.imgToEval.setdefault(image, {"image_id": image})
                entry[method] = value
        self.evalImgs = list(self.imgToEval.values())
