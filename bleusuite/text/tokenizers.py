"""sacrebleu's tokenizers: ``13a``, ``none`` and ``char`` written here, the others loaded
from sacrebleu; and rouge-score's (``rouge``), for ROUGE.

sacrebleu tokenises each line (``13a``, ``intl``, ``zh``, ``char``, ``none``, and
``ja-mecab`` / ``ko-mecab`` where their MeCab packages are installed) and splits the result
on whitespace. The three tokenizers that need nothing but Python's ``re`` are written here,
rule for rule as sacrebleu 2 writes them (its ``Tokenizer13a``, ``TokenizerRegexp``,
``NoneTokenizer`` and ``TokenizerChar``; the tests compare them with sacrebleu's on generated
text), so that the default ``13a`` needs neither sacrebleu nor the time its package takes to
import; ``intl``, ``zh`` and the MeCab ones are sacrebleu's own objects. A
:class:`Tokenizer` also says whether it acts on each whitespace-separated word on its own
(then :mod:`bleusuite.text` tokenises each distinct word of a corpus once).

>>> tok = load_tokenizer("13a")
>>> tok.tokenize("Hello, world!"), tok.word_local
('Hello , world !', True)
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["CHRF_CHARACTERS", "CHRF_CHARACTERS_WHITESPACE", "CHRF_WORDS", "PUNCTUATION",
           "SACREBLEU_TOKENIZERS", "TOKENIZERS", "Tokenizer", "Tokenizer13a", "TokenizerRouge",
           "load_tokenizer", "split_punctuation"]


class Tokenizer13a:
    """sacrebleu's ``13a`` tokenizer (mteval-v13a, the WMT standard), rule for rule.

    >>> Tokenizer13a()("It costs $3.50, or &quot;less&quot;.")
    'It costs $ 3.50 , or " less " .'
    """

    #: sacrebleu's ``TokenizerRegexp`` rules, in its order
    RULES = (
        # symbols and punctuation (assuming Western languages)
        (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
        # period and comma unless preceded by a digit
        (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
        # period and comma unless followed by a digit
        (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
        # dash when preceded by a digit
        (re.compile(r"([0-9])(-)"), r"\1 \2 "),
    )
    #: a string without any of these comes back unchanged but for its whitespace: the rules
    #: and the entities act only on ASCII punctuation and symbols
    ACTS_ON = re.compile(r"[!-/:-@\[-`{-~]")

    def __call__(self, line: str) -> str:
        if not self.ACTS_ON.search(line):
            return " ".join(line.replace("\n", " ").split())
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&")
            line = line.replace("&lt;", "<").replace("&gt;", ">")
        line = f" {line} "
        for rule, replacement in self.RULES:
            line = rule.sub(replacement, line)
        return " ".join(line.split())


class TokenizerRouge:
    """rouge-score's tokenizer (its ``tokenize.tokenize``): the line lowercased, every run of
    characters other than ``[a-z0-9]`` a separator; with ``stem``, its stemmer too (NLTK's
    Porter stemmer on the tokens of more than 3 characters, :mod:`bleusuite.text.stemming`).
    It acts on each word alone.

    >>> TokenizerRouge()("The U.S. economy's 3.5% growth!")
    'the u s economy s 3 5 growth'
    >>> TokenizerRouge(stem=True)("Relational databases")
    'relat databas'
    """

    NON_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")

    def __init__(self, stem: bool = False) -> None:
        self.stem = stem

    def __call__(self, line: str) -> str:
        tokens = self.NON_ALPHANUMERIC.sub(" ", line.lower()).split()
        if self.stem:
            from bleusuite.text.stemming import MIN_STEMMED_LENGTH, porter_stems

            long = [k for k, token in enumerate(tokens) if len(token) >= MIN_STEMMED_LENGTH]
            for k, stem in zip(long, porter_stems([tokens[k] for k in long]), strict=True):
                tokens[k] = stem
        return " ".join(tokens)


def _char(line: str) -> str:
    """sacrebleu's ``char`` tokenizer: every character, separated by spaces."""
    return " ".join(line)


def split_punctuation(line: str) -> list[str]:
    """sacrebleu's ``CHRF._remove_punctuation``: the words of chrF++ (one punctuation
    character split off the end, or else the start, of each word of two or more characters).

    >>> split_punctuation("Hello, (world) a!")
    ['Hello', ',', '(world', ')', 'a', '!']
    """
    words = []
    for word in line.split():
        if len(word) == 1:
            words.append(word)
        elif word[-1] in PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif word[0] in PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


#: the characters sacrebleu splits off the words of chrF++ (Python's string.punctuation)
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def _with_whitespace(line: str) -> str:
    """Every character of a line a token, whitespace too (chrF with ``whitespace=True``):
    a whitespace character becomes a token no character is, ``\\x00`` and its code."""
    return " ".join(f"\x00{ord(c):x}" if c.isspace() else c for c in line)


def _none(line: str) -> str:
    """sacrebleu's ``none`` tokenizer: the line as it is."""
    return line


#: name -> (where it comes from, word_local, extra). Where: a callable's factory here, or
#: ``"module:Class"`` of sacrebleu. ``word_local``: the tokenizer acts on each
#: whitespace-separated word independently of its neighbours, so tokenising every distinct
#: word once gives the same tokens as tokenising every line (see :mod:`bleusuite.text`).
#: ``extra``: the pip extra of sacrebleu that the tokenizer needs, if any. sacrebleu's
#: ``spm`` / ``flores*`` tokenizers are left out: they download their model at first use.
TOKENIZERS: dict[str, tuple[Callable[[], Callable[[str], str]] | str, bool, str | None]] = {
    "13a": (Tokenizer13a, True, None),
    "none": (lambda: _none, True, None),
    "char": (lambda: _char, True, None),
    "intl": ("sacrebleu.tokenizers.tokenizer_intl:TokenizerV14International", False, None),
    "zh": ("sacrebleu.tokenizers.tokenizer_zh:TokenizerZh", False, None),
    "ja-mecab": ("sacrebleu.tokenizers.tokenizer_ja_mecab:TokenizerJaMecab", False, "ja"),
    "ko-mecab": ("sacrebleu.tokenizers.tokenizer_ko_mecab:TokenizerKoMecab", False, "ko"),
    "rouge": (TokenizerRouge, True, None),
}
#: sacrebleu's own tokenizers (the command's ``--tokenize`` choices)
SACREBLEU_TOKENIZERS = ("13a", "none", "char", "intl", "zh", "ja-mecab", "ko-mecab")


@dataclass(frozen=True)
class Tokenizer:
    """A tokenizer: ``tokenize(line) -> str`` whose output is split on whitespace.

    Attributes:
        name: its name (``tokenize=`` / ``--tokenize``): sacrebleu's, or ``rouge``.
        tokenize: the tokenizer.
        signature: the tokenizer's own signature (``tok:`` in the signature line).
        word_local: whether it acts on each whitespace-separated word independently.
        splits_only: whether it leaves the text as it is (``none``: only the split counts).
        rules: the compiled part's own copy of its rules (``Numbering(rules=...)``), if
            any: ``"13a"``, ``"char"``, ``"punctuation"``.
        rstrip: whether a line loses its trailing whitespace before it is tokenised
            (sacrebleu's BLEU tokenises ``line.rstrip()``; chrF with whitespace keeps it).
    """

    name: str
    tokenize: Callable[[str], str]
    signature: str
    word_local: bool
    splits_only: bool = False
    rules: str | None = None
    rstrip: bool = True


#: chrF's characters (sacrebleu's ``char`` on each word: the line without its whitespace)
CHRF_CHARACTERS = Tokenizer("chrf-char", _char, "char", word_local=True, rules="char")
#: chrF's characters with whitespace (``whitespace=True``), nothing stripped
CHRF_CHARACTERS_WHITESPACE = Tokenizer("chrf-char-space", _with_whitespace, "char",
                                       word_local=False, rstrip=False)
#: chrF++'s words
CHRF_WORDS = Tokenizer("chrf-word", lambda line: " ".join(split_punctuation(line)), "word",
                       word_local=True, rules="punctuation")


def load_tokenizer(name: str) -> Tokenizer:
    """The tokenizer ``name``, sacrebleu's or ``rouge`` (made once, and kept).

    >>> load_tokenizer("char").tokenize("ab c")
    'a b   c'

    Raises:
        ValueError: ``name`` is not one of :data:`TOKENIZERS`.
        ImportError: sacrebleu (or the MeCab packages a tokenizer needs) is not installed;
            the message says what to install.
    """
    if not isinstance(name, str) or name not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZERS)}")
    return _load_tokenizer(name)


@functools.cache
def _load_tokenizer(name: str) -> Tokenizer:
    source, word_local, extra = TOKENIZERS[name]
    if not isinstance(source, str):
        return Tokenizer(name, source(), name, word_local, splits_only=name == "none",
                         rules=name if name in ("13a", "char", "rouge") else None)
    module_name, class_name = source.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ImportError(
            f"the {name!r} tokenizer is sacrebleu's ({error}); install it with "
            "pip install 'bleusuite[cli]'"
        ) from None
    try:
        instance = getattr(module, class_name)()
    except (ImportError, RuntimeError):  # sacrebleu's message for a missing MeCab
        raise ImportError(
            f"sacrebleu's {name!r} tokenizer needs extra packages: pip install "
            f"'sacrebleu[{extra}]'"
        ) from None
    return Tokenizer(name, instance, str(instance.signature()), word_local)
