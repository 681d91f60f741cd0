"""Generated documents for the ROUGE tests: 1-5 sentences (one per line) of words with
inflections, capitals, digits, punctuation and non-ASCII letters; references made from a
source by moving and dropping sentences and editing words; empty hypotheses and
hypotheses unrelated to their references; one or two references each. Seeded."""

from __future__ import annotations

import random

WORDS = ("the", "The", "THE", "cat", "cats", "sat", "sitting", "on", "mat", "mats", "a", "dog",
         "dogs", "running", "ran", "runs", "happily", "happy", "generalization",
         "generalizations", "connected", "connection", "3.5", "1,000", "U.S.", "it's", "don't",
         "e-mail", "(hello)", "world!", "é", "naïve", "Straße", "東京", "İstanbul", "Kelvin",
         "relational", "conditional", "hopefulness", "skies", "dying", "news", "&", "--", "42",
         "x", "ΣΑΣ", "agreed", "feed", "controlling", "ponies", "caresses", "abc*def")


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))


def document(rng: random.Random) -> list[str]:
    return [sentence(rng) for _ in range(rng.randint(1, 5))]


def edited(rng: random.Random, sentences: list[str]) -> list[str]:
    """The sentences with one moved or dropped at times, words dropped, upper-cased and
    added."""
    sentences = list(sentences)
    draw = rng.random()
    if draw < 0.25 and len(sentences) > 1:
        moved = sentences.pop(rng.randrange(len(sentences)))
        sentences.insert(rng.randrange(len(sentences) + 1), moved)
    elif draw < 0.5 and len(sentences) > 1:
        sentences.pop(rng.randrange(len(sentences)))
    out = []
    for line in sentences:
        words = [w.upper() if rng.random() < 0.1 else w for w in line.split()
                 if rng.random() > 0.15]
        if rng.random() < 0.3:
            words.append(rng.choice(WORDS))
        out.append(" ".join(words))
    return out


def rouge_cases(seed: int, count: int, max_refs: int = 2) -> tuple[list[str], list[list[str]]]:
    """``count`` hypotheses and, for each, 1..``max_refs`` references."""
    rng = random.Random(seed)
    hypotheses, references = [], []
    for _ in range(count):
        source = document(rng)
        draw = rng.random()
        hypothesis = "" if draw < 0.07 else "\n".join(document(rng)) if draw < 0.12 else \
            "\n".join(edited(rng, source))
        refs = ["\n".join(edited(rng, source)) for _ in range(rng.randint(1, max_refs))]
        hypotheses.append(hypothesis)
        references.append(refs)
    return hypotheses, references
