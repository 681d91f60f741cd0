"""Seeded batches of token ids and text that look like the work the metrics are used for,
for the tests and the benchmarks (not part of the installed package): machine-translation-like
rows (:func:`mt_like_batch`), the shipped WMT15 sample scaled up (:func:`wmt_sample_batch`) or
edited as text (:func:`edited_wmt_text`), summarisation-like documents
(:func:`summary_documents`), and generated parallel text written as files
(:func:`make_corpus`, :func:`write_corpus`). Arrays are right-padded with :data:`PAD_ID` (a
call passes ``pad_id=0``). The independent Zipf draw of the older benchmarks is
:func:`bleusuite.bench.zipf_batch`.

>>> hyp, refs = mt_like_batch(3, 40, refs=2)
>>> hyp.shape, refs.shape
((3, 40), (3, 2, 40))
>>> import bleusuite
>>> scores = bleusuite.sentence_bleu(hyp, refs, pad_id=0, smooth="method1")
>>> bool(((scores > 0.05) & (scores < 0.95)).all())
True
>>> hyp, refs = make_corpus(5, 2, seed=1)
>>> len(hyp), len(refs), all(len(stream) == 5 for stream in refs)
(5, 2, True)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

import bleusuite

__all__ = ["PAD_ID", "SPECIAL_WORDS", "edited_wmt_text", "make_corpus", "mt_like_batch",
           "summary_documents", "wmt_sample_batch", "write_corpus"]

#: the padding id of every batch made here (no word gets it)
PAD_ID = 0

_DATA = Path(bleusuite.__file__).resolve().parent / "data"


@lru_cache(maxsize=8)
def _word_probabilities(vocab: int, exponent: float) -> np.ndarray:
    ranks = np.arange(1, vocab, dtype=np.float64)  # ids 1..vocab-1 (0 is padding)
    weights = ranks**-exponent
    cumulative = np.cumsum(weights)
    cumulative /= cumulative[-1]
    return cumulative


def _words(rng: np.random.Generator, size: int, vocab: int, exponent: float = 1.0) -> np.ndarray:
    """``size`` word ids in 1..vocab-1, rank-frequency law ``1 / rank**exponent``."""
    cumulative = _word_probabilities(vocab, exponent)
    ranks = np.searchsorted(cumulative, rng.random(size), side="right")
    return (np.minimum(ranks, vocab - 2) + 1).astype(np.int64)


def _edit(rng: np.random.Generator, tokens: np.ndarray, rate: float, vocab: int) -> np.ndarray:
    """``tokens`` with about ``rate`` of them substituted (half), deleted or followed by a
    new word (a quarter each), then spans of 2-4 reversed at ``rate / 4`` of the positions."""
    length = len(tokens)
    draw = rng.random(length)
    substitute = draw < rate / 2
    delete = (draw >= rate / 2) & (draw < 3 * rate / 4)
    insert = (draw >= 3 * rate / 4) & (draw < rate)
    edited = tokens.copy()
    edited[substitute] = _words(rng, int(substitute.sum()), vocab)
    inserted = _words(rng, int(insert.sum()), vocab)
    # each kept token, then (where insert) one new word after it
    repeat = np.where(delete, 0, 1) + insert
    out = np.repeat(edited, repeat)
    after = np.cumsum(repeat) - 1  # index in out of the last item produced by each token
    out[after[insert]] = inserted
    for start in np.flatnonzero(rng.random(len(out)) < rate / 4):
        span = int(rng.integers(2, 5))
        out[start : start + span] = out[start : start + span][::-1].copy()
    return out


def _padded(rows: list[np.ndarray], width: int) -> np.ndarray:
    out = np.full((len(rows), width), PAD_ID, dtype=np.int64)
    for row, tokens in enumerate(rows):
        tokens = tokens[:width]
        out[row, : len(tokens)] = tokens
    return out


def mt_like_batch(
    batch: int,
    length: int,
    refs: int = 1,
    vocab: int = 50_000,
    seed: int = 0,
    hyp_edit_rate: tuple[float, float] = (0.15, 0.45),
    ref_edit_rate: float = 0.15,
) -> tuple[np.ndarray, np.ndarray]:
    """Machine-translation-like hypotheses (B, length) and references (B, refs, length).

    Each row's source is ``length/2 .. length`` Zipf words; the references are the source
    (one) or it edited at ``ref_edit_rate`` (several), the hypothesis the source edited at a
    rate drawn per row from ``hyp_edit_rate``; rows are cut or padded to ``length``. With
    the defaults per-sentence BLEU (method1) spans about 15 - 60, as machine translation.

    >>> hyp, refs = mt_like_batch(2, 8, seed=1)
    >>> hyp.dtype, int(hyp.min()) >= 0, bool((refs[:, :, 0] != 0).all())
    (dtype('int64'), True, True)
    """
    if batch < 0 or length < 1 or refs < 1 or vocab < 3:
        raise ValueError(
            f"mt_like_batch needs batch >= 0, length >= 1, refs >= 1, vocab >= 3; got "
            f"batch={batch}, length={length}, refs={refs}, vocab={vocab}"
        )
    rng = np.random.default_rng(seed)
    hyps, references = [], []
    low, high = hyp_edit_rate
    for _ in range(batch):
        source = _words(rng, int(rng.integers(max(length // 2, 1), length + 1)), vocab)
        if refs == 1:
            row_refs = [source]
        else:
            row_refs = [_edit(rng, source, ref_edit_rate, vocab) for _ in range(refs)]
        hyps.append(_edit(rng, source, float(rng.uniform(low, high)), vocab))
        references.append(row_refs)
    hyp = _padded(hyps, length)
    ref = np.stack([_padded([row[r] for row in references], length) for r in range(refs)],
                   axis=1) if batch else np.zeros((0, refs, length), dtype=np.int64)
    return hyp, ref


@lru_cache(maxsize=1)
def _sample_lines() -> tuple[list[str], list[str]]:
    """The shipped WMT15 sample: the system's lines and the reference lines."""
    hyp, ref = ((_DATA / f"sample-{side}.txt").read_text(encoding="utf-8").splitlines()
                for side in ("hyp", "ref"))
    return hyp, ref


@lru_cache(maxsize=1)
def _wmt_sample() -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The shipped sample as id arrays (ids from 1, in order of first occurrence)."""
    hyp_lines, ref_lines = _sample_lines()
    vocabulary: dict[str, int] = {}

    def ids(line: str) -> np.ndarray:
        return np.array([vocabulary.setdefault(word, len(vocabulary) + 1)
                         for word in line.split()], dtype=np.int64)

    return [ids(line) for line in hyp_lines], [ids(line) for line in ref_lines]


def wmt_sample_batch(batch: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """The shipped WMT15 sample scaled up: hypotheses (B, length), references (B, 1, length).

    Row ``b`` takes consecutive sentence pairs from sentence ``b`` (cycling) while both
    sides fit in ``length`` tokens (at least one pair, cut to ``length``).

    >>> hyp, refs = wmt_sample_batch(4, 1024)
    >>> hyp.shape, refs.shape
    ((4, 1024), (4, 1, 1024))
    """
    if batch < 0 or length < 1:
        raise ValueError(f"wmt_sample_batch needs batch >= 0 and length >= 1; got "
                         f"batch={batch}, length={length}")
    hyp_sentences, ref_sentences = _wmt_sample()
    count = len(hyp_sentences)
    hyps, refs = [], []
    for row in range(batch):
        hyp_parts: list[np.ndarray] = []
        ref_parts: list[np.ndarray] = []
        hyp_size = ref_size = 0
        index = row % count
        while True:
            h, r = hyp_sentences[index], ref_sentences[index]
            if hyp_parts and (hyp_size + len(h) > length or ref_size + len(r) > length):
                break
            hyp_parts.append(h)
            ref_parts.append(r)
            hyp_size += len(h)
            ref_size += len(r)
            index = (index + 1) % count
        hyps.append(np.concatenate(hyp_parts))
        refs.append(np.concatenate(ref_parts))
    return _padded(hyps, length), _padded(refs, length)[:, None, :]


#: the function words of :func:`summary_documents` (the commonest words of English text)
_FUNCTION_WORDS = ("the", "of", "and", "to", "a", "in", "that", "is", "was", "he", "for", "it",
                   "with", "as", "his", "on", "be", "at", "by", "had", "are", "but", "from", "or",
                   "have", "an", "they", "which", "one", "you", "were", "her", "all", "she",
                   "there", "would", "their", "we", "him", "been", "has", "when", "who", "will",
                   "more", "no", "if", "out", "so", "said")
#: inflections of its content words, with weights (bare words are the most common)
_SUFFIXES = ("", "s", "ed", "ing", "er", "ers", "ly", "ation", "ations", "ness", "ment",
             "ments", "ful", "ive", "ity", "al", "ous", "ize", "ized", "izing", "ional")
_SUFFIX_WEIGHTS = (30, 12, 8, 8, 3, 2, 4, 3, 1, 2, 2, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1)


@lru_cache(maxsize=4)
def _lexicon(size: int, seed: int) -> list[str]:
    """``size`` distinct English-looking stems of one to three syllables."""
    rng = np.random.default_rng(seed)
    onsets = ("b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w",
              "bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gr", "pl", "pr", "sh", "st", "th",
              "tr")
    vowels = ("a", "e", "i", "o", "u", "a", "e", "i", "o", "ai", "ea", "ee", "oo", "ou")
    codas = ["", "", "", "n", "r", "s", "t", "l", "m", "nd", "nt", "st", "ck", "ng"]
    words: dict[str, None] = {}
    while len(words) < size:
        syllables = int(rng.choice([1, 1, 2, 2, 2, 3]))
        word = "".join(str(rng.choice(onsets)) + str(rng.choice(vowels)) + str(rng.choice(codas))
                       for _ in range(syllables))
        words.setdefault(word)
    return list(words)


def summary_documents(
    count: int, words: int = 120, refs: int = 1, vocab: int = 20_000, seed: int = 0
) -> tuple[list[str], list[list[str]]]:
    """``count`` summarisation-like hypotheses and, for each, ``refs`` references: text
    documents of about ``words`` words in sentences of 8 - 30 words, one sentence per line
    (ROUGE-Lsum's convention).

    English-looking words (function words, else ``vocab`` Zipf-distributed stems with
    inflections, for a stemmer), capitals, punctuation, numbers and quotes. A hypothesis is
    its first reference with sentences dropped or moved and words edited; further references
    are paraphrases of the first.

    >>> hyps, refs = summary_documents(2, words=40, refs=2)
    >>> len(hyps), len(refs[0]), 30 <= len(refs[0][0].split()) <= 70
    (2, 2, True)
    """
    if count < 0 or words < 1 or refs < 1 or vocab < 10:
        raise ValueError(f"summary_documents needs count >= 0, words >= 1, refs >= 1, "
                         f"vocab >= 10; got count={count}, words={words}, refs={refs}, "
                         f"vocab={vocab}")
    rng = np.random.default_rng(seed)
    lexicon = _lexicon(vocab, seed)
    weights = np.asarray(_SUFFIX_WEIGHTS, dtype=np.float64)
    weights /= weights.sum()

    def word() -> str:
        if rng.random() < 0.4:
            return str(_FUNCTION_WORDS[(int(rng.zipf(1.3)) - 1) % len(_FUNCTION_WORDS)])
        if rng.random() < 0.03:
            return str(rng.choice(["3.5", "1,000", "2024", "42", "U.S.", "e-mail", "\"quoted\""]))
        stem = lexicon[(int(rng.zipf(1.1)) - 1) % vocab]
        return stem + str(rng.choice(_SUFFIXES, p=weights))

    def sentence() -> list[str]:
        tokens = [word() for _ in range(int(rng.integers(8, 31)))]
        for k in np.flatnonzero(rng.random(len(tokens)) < 0.06):
            tokens[k] += ","
        tokens[0] = tokens[0].capitalize()
        tokens[-1] += str(rng.choice([".", ".", ".", "!", "?"]))
        return tokens

    def document() -> list[list[str]]:
        sentences: list[list[str]] = []
        while sum(map(len, sentences)) < words * 0.9:
            sentences.append(sentence())
        return sentences

    def edited(sentences: list[list[str]], rate: float) -> list[list[str]]:
        sentences = [list(s) for s in sentences]
        if len(sentences) > 1 and rng.random() < 0.3:
            sentences.pop(int(rng.integers(len(sentences))))
        if len(sentences) > 1 and rng.random() < 0.3:
            moved = sentences.pop(int(rng.integers(len(sentences))))
            sentences.insert(int(rng.integers(len(sentences) + 1)), moved)
        out = []
        for tokens in sentences:
            kept = []
            for token in tokens:
                draw = rng.random()
                if draw < rate / 3:
                    continue
                kept.append(word() if draw < 2 * rate / 3 else
                            token.upper() if draw < 0.7 * rate else token)
                if rng.random() < rate / 4:
                    kept.append(word())
            out.append(kept or tokens[:1])
        return out

    hypotheses, references = [], []
    for _ in range(count):
        first = document()
        row = [first, *(edited(first, 0.2) for _ in range(refs - 1))]
        hypothesis = edited(first, float(rng.uniform(0.2, 0.6)))
        hypotheses.append("\n".join(" ".join(s) for s in hypothesis))
        references.append(["\n".join(" ".join(s) for s in doc) for doc in row])
    return hypotheses, references


#: punctuation that :func:`edited_wmt_text` adds to or strips from words
_PUNCTUATION = ",.;:!?\"()"


def _edited_words(rng: np.random.Generator, words: list[str], vocabulary: list[str],
                  rate: float, moves: float) -> list[str]:
    """``words`` with blocks of 1-6 words moved (``moves`` per word), and about ``rate`` of
    them dropped, replaced, recased or re-punctuated."""
    words = list(words)
    for _ in range(int(rng.poisson(len(words) * moves))):
        if len(words) < 2:
            break
        length = int(rng.integers(1, min(6, len(words) - 1) + 1))
        start = int(rng.integers(0, len(words) - length + 1))
        block = words[start : start + length]
        del words[start : start + length]
        target = int(rng.integers(0, len(words) + 1))
        words[target:target] = block
    out = []
    for word in words:
        draw = rng.random()
        if draw < rate / 4:
            continue  # dropped
        if draw < rate / 2:
            word = vocabulary[int(rng.integers(len(vocabulary)))]
        elif draw < 3 * rate / 4:
            word = word.upper() if rng.random() < 0.3 else word.capitalize()
        elif draw < rate:
            stripped = word.strip(_PUNCTUATION)
            word = stripped if stripped != word and stripped else (
                word + _PUNCTUATION[int(rng.integers(len(_PUNCTUATION)))])
        out.append(word)
    return out


def edited_wmt_text(lines: int, systems: int = 1, seed: int = 0, rate: float = 0.15,
                    moves: float = 1 / 12) -> tuple[list[list[str]], list[str]]:
    """WMT-like text for TER and the command: ``systems`` lists of hypothesis lines and one
    list of reference lines, ``lines`` each.

    Line ``i`` is pair ``i % 100`` of the shipped WMT15 sample: the reference as it is, each
    system's hypothesis the real output with its own seeded edits (blocks of words moved,
    ``moves`` per word; about ``rate`` of the words dropped, replaced, recased or
    re-punctuated).

    >>> hyps, refs = edited_wmt_text(3, systems=2)
    >>> len(hyps), len(hyps[0]), len(refs)
    (2, 3, 3)
    """
    if lines < 0 or systems < 1:
        raise ValueError(f"edited_wmt_text needs lines >= 0 and systems >= 1; got "
                         f"lines={lines}, systems={systems}")
    hyp_lines, ref_lines = _sample_lines()
    vocabulary = sorted({word for line in hyp_lines + ref_lines for word in line.split()})
    rng = np.random.default_rng(seed)
    hyps = [[" ".join(_edited_words(rng, hyp_lines[i % len(hyp_lines)].split(), vocabulary,
                                    rate, moves)) for i in range(lines)]
            for _ in range(systems)]
    return hyps, [ref_lines[i % len(ref_lines)] for i in range(lines)]


# Words the tokenizers treat differently: punctuation next to letters or digits, numbers with
# separators, HTML entities (13a), Unicode punctuation and symbols (intl), CJK (zh), case
# pairs (--lowercase), final sigma, a dotted capital I whose lowercase has two characters.
SPECIAL_WORDS = [
    "Hello,", "world.", "U.S.", "3.14", "1,000", "10-20", "e-mail", "&amp;", "&quot;hi&quot;",
    "&lt;tag&gt;", "<skipped>", "don't", "(paren)", "[x]", "{y}", "x:y", "a/b", "C++", "$5",
    "50%", "end...", ",lead", ".5", "5.", "-", "--", "naïve", "Straße", "ΟΔΟΣ", "İstanbul",
    "東京", "中文。", "我们的", "«quote»", "—", "¿qué?", "＄", "™", "The", "THE", "the", "A", "a",
]


def _vocabulary(rng: np.random.Generator, size: int) -> np.ndarray:
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = {"".join(rng.choice(letters, size=int(rng.integers(1, 9)))) for _ in range(size)}
    plain = sorted(words)
    capitalised = [w.capitalize() for w in plain[: len(plain) // 8]]
    return np.array(SPECIAL_WORDS + plain + capitalised, dtype=object)


def _lines(rng: np.random.Generator, words: np.ndarray, lengths: np.ndarray) -> list[str]:
    """Join words into lines; a few lines get a tab, double spaces, trailing space or CR."""
    ends = np.cumsum(lengths)
    lines = [" ".join(words[end - n : end]) for n, end in zip(lengths, ends, strict=True)]
    odd = rng.random(len(lines))
    for i in np.flatnonzero(odd < 0.03):
        lines[i] = lines[i].replace(" ", "\t", 1)
    for i in np.flatnonzero((odd >= 0.03) & (odd < 0.06)):
        lines[i] = lines[i].replace(" ", "  \u00a0", 1) + " "
    for i in np.flatnonzero((odd >= 0.06) & (odd < 0.08)):
        lines[i] += "\r"
    return lines


def make_corpus(
    n_lines: int, n_refs: int, seed: int = 0, vocab_size: int = 3000
) -> tuple[list[str], list[list[str]]]:
    """Generated parallel text: hypothesis lines and ``n_refs`` reference streams.

    Each stream perturbs the same base sentences (Zipf-distributed words): 15% of the words
    dropped, 10% replaced. About 1% of the base sentences are empty.
    """
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng, vocab_size)
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    weights = weights[rng.permutation(len(vocab))]
    weights /= weights.sum()
    lengths = rng.integers(1, 40, size=n_lines)
    lengths[rng.random(n_lines) < 0.01] = 0
    base = rng.choice(len(vocab), size=int(lengths.sum()), p=weights)
    line_of_word = np.repeat(np.arange(n_lines), lengths)

    def perturb() -> list[str]:
        keep = rng.random(base.size) >= 0.15
        ids = np.where(rng.random(base.size) < 0.10, rng.choice(len(vocab), size=base.size), base)
        kept_lengths = np.bincount(line_of_word[keep], minlength=n_lines)
        return _lines(rng, vocab[ids[keep]], kept_lengths)

    hypotheses = perturb()
    return hypotheses, [perturb() for _ in range(n_refs)]


def write_corpus(folder: Path, hyp: list[str], refs: list[list[str]]) -> tuple[str, list[str]]:
    """Write the texts (UTF-8, ``\\n`` line ends) and return the file paths."""
    folder.mkdir(parents=True, exist_ok=True)

    def write(name: str, lines: list[str]) -> str:
        path = folder / name
        path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))
        return str(path)

    return write("hyp.txt", hyp), [write(f"ref{i}.txt", r) for i, r in enumerate(refs)]
