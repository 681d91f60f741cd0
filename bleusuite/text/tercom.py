"""TER's text: sacrebleu's ``tercom`` tokenizer (its ``TercomTokenizer``, a copy of
tercom's ``Normalizer.java``), rule for rule, and the token ids of lines tokenised by it.

:func:`tercom_ids` tokenises each distinct word once (by
:class:`~bleusuite.text.encoder.TextEncoder`, of the tokenizers of :func:`tercom_encoders`):
the rules act on each word alone, but for the possessive rule (``'s`` followed by a space),
so a normalised line where ``'s`` is followed by other whitespace is tokenised whole, as
sacrebleu does. sacrebleu tokenises references twice; so does :func:`tercom_ids`.

>>> TercomTokenizer(normalized=True)("He said: &quot;It's John's car.&quot;")
'he said : " it \\'s john \\'s car . "'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import numpy as np

from bleusuite.text.encoder import TextEncoder, number_sides
from bleusuite.text.tokenizers import Tokenizer, Tokenizer13a

__all__ = ["TercomTokenizer", "tercom_encoders", "tercom_ids"]

_GENERAL_RULES = (
    (re.compile(r"\n-"), ""),  # end-of-line hyphenation
    (re.compile(r"\n"), " "),  # lines joined
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
)
_WESTERN_RULES = (  # 13a's rules, with tercom's possessives after the punctuation
    Tokenizer13a.RULES[0],
    (re.compile(r"'s "), r" 's "),
    (re.compile(r"'s$"), r" 's"),
    *Tokenizer13a.RULES[1:],
)
_ASIAN_PUNCTUATION = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCTUATION = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
_ASIAN_RULES = (  # asian_support: the Western rules, then these
    *_WESTERN_RULES,
    # CJK ideographs (unified, extension A), strokes, radicals, compatibility forms and
    # ideographs, enclosed letters and months: one word each
    (re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),
    (re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),
    (re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),
    (re.compile(r"([\u3200-\u3f22])"), r" \1 "),
    # (sacrebleu's hiragana and katakana rules are anchored at ``^``, which the line's
    # padding space always precedes: they never apply, and are left out)
    (re.compile(_ASIAN_PUNCTUATION), r" \1 "),
    (re.compile(_FULL_WIDTH_PUNCTUATION), r" \1 "),
)
_REMOVED = (re.compile(r"[\.,\?:;!\"\(\)]"),)  # what no_punct removes
_ASIAN_REMOVED = (*_REMOVED, re.compile(_ASIAN_PUNCTUATION), re.compile(_FULL_WIDTH_PUNCTUATION))
#: a possessive followed by whitespace other than a space: tercom's rule sees the character
#: after the word there, so such a line is tokenised whole
_POSSESSIVE_BEFORE_ODD_SPACE = re.compile(r"'s[^\S ]")


class TercomTokenizer:
    """sacrebleu's ``TercomTokenizer`` (its signature is ``tercom``), rule for rule.

    >>> TercomTokenizer(no_punct=True)("Hello, World!")
    'hello world'
    >>> TercomTokenizer(normalized=True, asian_support=True)("東京タワー。")
    '東 京 タワー 。'
    """

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive

    def __call__(self, line: str) -> str:
        if not line:
            return ""
        if not self.case_sensitive:
            line = line.lower()
        if self.normalized:
            for rule, replacement in _GENERAL_RULES:
                line = rule.sub(replacement, line)
            line = f" {line} "
            for rule, replacement in _ASIAN_RULES if self.asian_support else _WESTERN_RULES:
                line = rule.sub(replacement, line)
        if self.no_punct:
            for rule in _ASIAN_REMOVED if self.asian_support else _REMOVED:
                line = rule.sub("", line)
        return " ".join(line.split())

    def signature(self) -> str:
        return "tercom"


def tercom_ids(hypotheses: Sequence[str], references: Sequence[str] = (), *,
               normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
               case_sensitive: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The token ids of hypothesis and reference lines tokenised as sacrebleu's ``TER``
    tokenises them: ``(ids, lengths)``, int64, the ids of every hypothesis then every
    reference line, and the number of tokens of each line; equal tokens get equal ids. A
    reference is tokenised twice, as sacrebleu does (with ``normalized``, ``John's.`` is
    split further on the second pass).

    >>> ids, lengths = tercom_ids(["a, b", "A b"], no_punct=True)
    >>> ids.tolist(), lengths.tolist()
    ([0, 1, 0, 1], [2, 2])
    >>> ids, lengths = tercom_ids(["John's."], ["John's."], normalized=True)
    >>> ids.tolist(), lengths.tolist()
    ([0, 1, 2, 3, 1], [2, 3])
    """
    hyp_encoder, ref_encoder = tercom_encoders(normalized, no_punct, asian_support,
                                               case_sensitive)
    return number_sides(hyp_encoder, list(hypotheses), ref_encoder, list(references))


@functools.cache
def tercom_encoders(normalized: bool = False, no_punct: bool = False,
                    asian_support: bool = False, case_sensitive: bool = False) -> tuple[
                        TextEncoder, TextEncoder]:
    """The text encoders of TER's hypotheses and references (one encoder where both are
    tokenised alike; the rules applied twice to a reference where ``normalized``).

    >>> hyps, refs = tercom_encoders()
    >>> hyps is refs, hyps.lowercase, hyps.tokenizer.splits_only
    (True, True, True)
    """
    tokenizer = TercomTokenizer(normalized, no_punct, asian_support, case_sensitive=True)
    lowercase = not case_sensitive
    if not normalized:  # removing punctuation twice removes nothing more; without it, the
        # lowercased words are the tokens
        words = Tokenizer("tercom", tokenizer, "tercom", word_local=True,
                          splits_only=not no_punct)
        encoder = TextEncoder(words, lowercase)
        return encoder, encoder
    whole = _POSSESSIVE_BEFORE_ODD_SPACE.search
    once = Tokenizer("tercom", tokenizer, "tercom", word_local=True, whole_line=whole)
    twice = Tokenizer("tercom", lambda unit: tokenizer(tokenizer(unit)), "tercom",
                      word_local=True, whole_line=whole)
    return TextEncoder(once, lowercase), TextEncoder(twice, lowercase)
