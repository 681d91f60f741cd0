"""The text preprocessing of EED (torchmetrics' ``ExtendedEditDistance``, after the
authors' ``util.py``), by language:

* ``"en"``: trailing whitespace removed; a space put before each ``.``, ``!``, ``?`` and
  ``,``; runs of whitespace made one space; then ``digit . digit`` and ``digit , digit``
  joined again, ``Mr`` (or Dr, Jr, Prof, Rev, Gen, Mt, Mrs, Ms), a space and any character
  made ``Mr.``, and ``e . g .``, ``i . e .`` and ``U . S .`` joined again; a space added at
  both ends.
* ``"ja"``: trailing whitespace removed; NFKC normalisation (characters that look the same
  are the same).

The rules are the reference's, quirks included (the numbers depend on them): they are
written for tokenised text, so ``3.5`` becomes ``3 .5`` and ``e.g.`` ``e .g .``, and the
pattern's ``.`` is any character, so ``Mr Jones`` becomes ``Mr.ones``.

>>> preprocess("Hello, world.  It is 3 . 5 m.", "en")
' Hello , world . It is 3.5 m . '
>>> preprocess("Mr Jones, e.g. 3.5", "en")
' Mr.ones , e .g . 3 .5 '
>>> preprocess("ｶﾀｶﾅ ", "ja")
'カタカナ'
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

__all__ = ["LANGUAGES", "preprocess"]

LANGUAGES = ("en", "ja")

_SPACED_PUNCTUATION = (".", "!", "?", ",")
_REWRITES = (
    (re.compile(r"\s+"), " "),
    (re.compile(r"(\d) ([.,]) (\d)"), r"\1\2\3"),
    (re.compile(r"(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) ."), r"\1."),
)
_ABBREVIATIONS = (("e . g .", "e.g."), ("i . e .", "i.e."), ("U . S .", "U.S."))


def preprocess(sentence: str, language: Literal["en", "ja"]) -> str:
    """``sentence`` as EED scores it in ``language`` (see the module docstring).

    Raises:
        ValueError: ``sentence`` is not a str (torchmetrics' check and type).
    """
    if not isinstance(sentence, str):
        raise ValueError(
            f"Only strings allowed during preprocessing step, found {type(sentence)} instead")
    sentence = sentence.rstrip()
    if language == "ja":
        return unicodedata.normalize("NFKC", sentence)
    for mark in _SPACED_PUNCTUATION:
        sentence = sentence.replace(mark, " " + mark)
    for pattern, replacement in _REWRITES:
        sentence = pattern.sub(replacement, sentence)
    for spaced, joined in _ABBREVIATIONS:
        sentence = sentence.replace(spaced, joined)
    return f" {sentence} "
