"""ASR-like cases for the edit-distance measures (fixed seeds): WMT lines (English and
Russian) with substitutions, deletions, insertions, split and merged words, case changes,
runs of spaces; tiny vocabularies where many alignments cost the same; empty sides."""

from __future__ import annotations

import random
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / ".." / ".." / "shared" / "data" / "wmt15-enru-100"
_FALLBACK = ["the cat sat on the mat", "Новый премьер-министр Индии встретится в Токио",
             "a b c d e f g", "hello world"]


def wmt_lines() -> list[str]:
    """The WMT15 en-ru lines (English sources, Russian references and outputs)."""
    for folder in (DATA, Path("/work/shared/data/wmt15-enru-100")):
        if folder.is_dir():
            lines = []
            for name in ("src.en", "ref.ru", "google.ru"):
                lines += (folder / name).read_text(encoding="utf-8").splitlines()
            return [line for line in lines if line.strip()]
    return _FALLBACK


def corrupt(line: str, rng: random.Random, vocabulary: list[str]) -> str:
    """An ASR-like hypothesis of a reference line."""
    words = line.split()
    for _ in range(rng.randint(0, max(1, len(words) // 3))):
        op = rng.randrange(7)
        k = rng.randrange(len(words)) if words else 0
        if op == 0 and words:
            words[k] = rng.choice(vocabulary)
        elif op == 1 and words:
            del words[k]
        elif op == 2:
            words.insert(k, rng.choice(vocabulary))
        elif op == 3 and words and len(words[k]) > 1:  # a split word
            cut = rng.randrange(1, len(words[k]))
            words[k: k + 1] = [words[k][:cut], words[k][cut:]]
        elif op == 4 and k + 1 < len(words):  # merged words
            words[k: k + 2] = [words[k] + words[k + 1]]
        elif op == 5 and words:
            words[k] = words[k].upper() if rng.random() < 0.5 else words[k].capitalize()
        elif op == 6 and words:
            words[k] = words[k][::-1]
    glue = [rng.choice([" ", " ", " ", "  ", "\t ", " \n", "\t"]) for _ in words]
    text = "".join(w + g for w, g in zip(words, glue, strict=True))
    return rng.choice(["", " ", "  "]) + text


def tiny(rng: random.Random, alphabet: str, most: int) -> str:
    """A line of up to ``most`` one-letter words from a tiny vocabulary."""
    return " ".join(rng.choice(alphabet) for _ in range(rng.randint(0, most)))


def asr_pairs(count: int, seed: int = 0) -> list[tuple[str, str]]:
    """``count`` (reference, hypothesis) pairs of every kind above."""
    rng = random.Random(seed)
    lines = wmt_lines()
    vocabulary = [*sorted({w for line in lines for w in line.split()})[:400], "a", "the", "uh"]
    pairs = []
    for k in range(count):
        kind = k % 5
        if kind <= 1:
            ref = rng.choice(lines)
            pairs.append((ref, corrupt(ref, rng, vocabulary)))
        elif kind == 2:
            pairs.append((tiny(rng, "ab", 8), tiny(rng, "abc", 8)))
        elif kind == 3:
            ref = tiny(rng, "abcde", 20)
            pairs.append((ref, corrupt(ref, rng, list("abcdef"))))
        else:
            ref = rng.choice(lines)
            hyp = rng.choice(["", " ", ref, ref.lower(), rng.choice(lines)])
            pairs.append((ref, hyp) if rng.random() < 0.8 else (hyp, ref))
    return pairs
