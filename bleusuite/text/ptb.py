"""pycocoevalcap's tokenizer without Java: the Stanford PTB tokenizer (CoreNLP 3.4.1, run
with ``-preserveLines -lowerCase``), then pycocoevalcap's punctuation filter.

pycocoevalcap 1.2's ``PTBTokenizer.tokenize`` writes every caption (its ``\\n`` made a
space) to one file, one caption a line, runs the jar on it, and drops the tokens of its
:data:`PUNCTUATIONS` from each output line. Here:

1. The captions are joined by ``\\n``, as in that file (the lexer looks past a line's end:
   ``I.`` before ``He ...`` is ``I`` and ``.``, before ``he`` it is ``I.``).
2. Lines of only ASCII letters, digits, spaces and ``. , ! ?`` each followed by a space or
   the line's end (most captions) take the fast path: no rule of the lexer can then make
   more than the space-separated words minus that punctuation, unless a word is
   ``cannot``-like, an abbreviation or a letter before ``.``, or two numbers follow each
   other (a phone number): :data:`_NOT_PLAIN` finds those lines for the lexer.
3. The other lines go through :func:`bleusuite.text.ptb_lexer.lex`, the lexer's rules
   written out (``don't`` -> ``do n't``, ``(`` -> ``-lrb-``, ``"`` -> `````/``''``, URLs,
   numbers, abbreviations, ...), with the rest of the text as its look-ahead.
4. Lowercase, drop the punctuation tokens, join with single spaces.

Characters that Java's lexer takes for a line end but Python's ``\\n`` split does not
(``\\r``, U+2028, U+2029, U+0085, vertical tab, form feed) make pycocoevalcap's output lines
shift against its captions; here they are spaces.

>>> from bleusuite.text.ptb import tokenize_captions
>>> tokenize_captions(["A man's dog (a puppy) doesn't bark.", "Two cats, sleeping!"])
["a man 's dog -lrb- a puppy -rrb- does n't bark", 'two cats sleeping']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from bleusuite.text.ptb_lexer import lex

__all__ = ["PUNCTUATIONS", "tokenize_captions"]

#: pycocoevalcap's list of the tokens it removes (compared after lowercasing, so its
#: ``-LRB-`` never matches: brackets stay as ``-lrb-`` / ``-rrb-``).
PUNCTUATIONS = frozenset(["''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?",
                          "!", ",", ":", "-", "--", "...", ";"])

_LINE_ENDS = re.compile("[\r\u2028\u2029\x85\x0b\x0c]")
# Abbreviations that keep their period in some context (PTBLexer's ABBREV1..4, ca./fig./
# no. before numbers, pty./co.), caseless here, which only sends more lines to the lexer.
_ABBREVIATIONS = (  # noqa: SIM905 (a list of 170 words, as the flex file lists them)
    "adj adm adv al ala alex apr ariz ark art assn assoc asst atty attys aug ave az bancorp bhd"
    " bldg blvd brig bros ca calif capt cf cie co col colo comdr conn corp cos cpl ct dak dec del"
    " dept det dr drs elec ens esq est etc ext feb fig figs fla fri ft ga gen gov govs hon ill"
    " inc ind insp intl invt jan jos jr jul jun kan kans ky la lieut lt ltd maj mar mass md mdr"
    " messrs mfg mgg mich minn miss mlle mme mo mon mont mr mrs ms msgr mt mtg natl neb nev no"
    " nos nov oct okla op ore pa penn pfc ph plc pp pres prof profs prop pt pte ptes pts pty"
    " ptys ppte pptes ppty pptys pvt rd rep reps rev rt sen sens sep sept seq sfc sgt spc sq sr"
    " st ste supt supts sys tel tenn tex thu thurs treas tue tues univ va vs vt wash wed wis"
    " wisc wm wyo").split()
_BY_LENGTH: dict[int, list[str]] = {}
for _word in _ABBREVIATIONS:
    _BY_LENGTH.setdefault(len(_word), []).append(_word)
# A period after one letter or an abbreviation (a fixed-width look-behind per length, so
# that the scan is a search for "."; the text scanned starts with "\n").
_ABBREVIATED = re.compile(r"\.(?:(?<=[ \n][a-z]\.)|" + "|".join(
    f"(?<=[ \\n](?:{'|'.join(words)})\\.)" for words in _BY_LENGTH.values()) + ")")
# What else makes a line not plain (see the module's docstring); each pattern is searched
# on its own, which is several times faster than one alternation of them all.
_OTHER_CHARACTER = re.compile(r"[^a-z0-9 .,!?\n]")
_PUNCTUATION_INSIDE = re.compile(r"[.,!?](?![ \n]|\Z)")
_ASSIMILATED = ("cannot", "gonna", "gotta", "lemme", "gimme", "wanna")   # "can not", "gon na"
_ASSIMILATION = re.compile("|".join(_ASSIMILATED))
_NUMBER_PAIR = re.compile("[0-9] +[0-9]")                            # phone numbers, fractions
_NOT_PLAIN = re.compile(                       # all of them, for text that is not ASCII
    r"[^A-Za-z0-9 .,!?\n]|[.,!?](?![ \n]|\Z)|\b(?:cannot|gonna|gotta|lemme|gimme|wanna)\b"
    rf"|(?<![A-Za-z0-9])(?:[a-z]|{'|'.join(_ABBREVIATIONS)})\.|\b[0-9]+ +[0-9]", re.IGNORECASE)
_IS_PUNCTUATION = np.zeros(256, dtype=bool)
_IS_PUNCTUATION[list(b".,!?")] = True
_PLAIN_BYTES = b"abcdefghijklmnopqrstuvwxyz0123456789 .,!?\n"       # _OTHER_CHARACTER's set
_PUNCTUATION_TO_SPACES = str.maketrans(".,!?", "    ")
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
# each byte's class for _ascii_suspects: letters 0, space 1, line end 2, .,!? 3, digits 4,
# anything else (outside _PLAIN_BYTES) 5
_LETTER, _SPACE, _LINE_END, _MARK, _DIGIT, _OTHER = range(6)
_DIGIT_BYTE, _OTHER_BYTE = bytes([_DIGIT]), bytes([_OTHER])
_CLASSES = bytes(_LETTER if chr(b) in "abcdefghijklmnopqrstuvwxyz" else _SPACE if b == 32
                 else _LINE_END if b == 10 else _MARK if chr(b) in ".,!?" else _DIGIT
                 if chr(b).isdigit() and b < 128 else _OTHER for b in range(256))
# _ABBREVIATIONS by length, each word's bytes packed in an int (the first the lowest), sorted
# (a binary search per candidate word)
_PACKED_ABBREVIATIONS = {
    length: np.sort(np.array([int.from_bytes(word.encode(), "little") for word in words],
                             dtype=np.uint64)) for length, words in _BY_LENGTH.items()}
_LONGEST_ABBREVIATION = max(_BY_LENGTH)
_NO_WORDS = np.zeros(0, dtype=np.uint64)
# _ASSIMILATED's words have their doubled letter (nn, tt, mm) at offset 2: their first five
# bytes, to compare with the five bytes from two before each doubled n, t or m
_ASSIMILATED_HEADS = np.array([int.from_bytes(word[:5].encode(), "little")
                               for word in _ASSIMILATED], dtype=np.uint64)
# the last two bytes before a period that may end an abbreviation (or a separator and a
# letter before it), packed as in _abbreviated (the byte before the period the higher)
_LAST_TWO = np.zeros(1 << 16, dtype=bool)
for _word in _ABBREVIATIONS:
    _LAST_TWO[int.from_bytes(_word[-2:].encode(), "little")] = True
for _letter in b"abcdefghijklmnopqrstuvwxyz":
    _LAST_TWO[32 | _letter << 8] = _LAST_TWO[10 | _letter << 8] = True


def tokenize_captions(captions: Sequence[str]) -> list[str]:
    """Each caption as pycocoevalcap's ``PTBTokenizer`` makes it: lowercased PTB tokens
    without its punctuation, joined by single spaces (a caption of only punctuation: "").

    >>> from bleusuite.text.ptb import tokenize_captions
    >>> tokenize_captions(['He said "I cannot" -- U.S. rules, 3.5% off.'])
    ['he said i can not u.s. rules 3.5 % off']
    """
    if isinstance(captions, str) or not isinstance(captions, Sequence):
        raise TypeError(f"captions must be a sequence of strings, got {type(captions).__name__}")
    if not set(map(type, captions)) <= {str} and not all(
            isinstance(caption, str) for caption in captions):
        bad = next(type(caption).__name__ for caption in captions if not isinstance(caption, str))
        raise TypeError(f"captions must be strings, got a {bad}")
    if not captions:
        return []
    text = "\n".join(captions)
    if text.count("\n") != len(captions) - 1:      # a caption's own line breaks: spaces
        text = "\n".join(caption.replace("\n", " ") for caption in captions)
    if not text.isascii() or "\r" in text or "\x0b" in text or "\x0c" in text:
        text = _LINE_ENDS.sub(" ", text)
    lowered = text.lower()
    ascii_text = text.isascii()
    if ascii_text:
        encoded = lowered.encode()
        out = _single_spaced(encoded.translate(None, b".,!?"))
        suspects = _ascii_suspects("\n" + lowered)
    else:   # every line with a non-ASCII character is a suspect: only ASCII lines are plain
        plain = lowered.translate(_PUNCTUATION_TO_SPACES).split("\n")
        out = [" ".join(line.split()) for line in plain]
        suspects = [match.start() for match in _NOT_PLAIN.finditer(text)]
    if suspects:
        # where each line ends in the text (its line break, or the text's end): ASCII text's
        # line breaks found in its bytes, the others' from the captions' lengths
        if ascii_text:
            breaks = np.flatnonzero(np.frombuffer(encoded, dtype=np.uint8) == ord("\n"))
            ends = np.append(breaks, len(text))
        else:
            lengths = np.fromiter(map(len, captions), dtype=np.int64, count=len(captions))
            ends = np.cumsum(lengths + 1) - 1
        for index in np.unique(np.searchsorted(ends, suspects)).tolist():
            start = int(ends[index - 1]) + 1 if index else 0
            out[index] = " ".join(token for token in lex(text, start, int(ends[index]))
                                  if token not in PUNCTUATIONS)
    return out


def _single_spaced(data: bytes) -> list[str]:
    """The lines of ASCII ``data`` (without the punctuation: on a plain line it follows a
    word or a space, and a space or the line's end follows it) with their spaces collapsed
    and stripped, as ``" ".join(line.split())`` (the other lines are lexed again), by
    whole-text replacements where needed instead of a split and a join per line."""
    codes = np.frombuffer(data, dtype=np.uint8)
    space = codes == 32
    if (space[1:] & space[:-1]).any():   # faster than b"  " in data
        while b"  " in data:
            data = data.replace(b"  ", b" ")
        codes = np.frombuffer(data, dtype=np.uint8)
        space = codes == 32
    line_end = codes == 10               # and than b" \n" in data, b"\n " in data
    if (space[:-1] & line_end[1:]).any():
        data = data.replace(b" \n", b"\n")
    if (line_end[:-1] & space[1:]).any():
        data = data.replace(b"\n ", b"\n")
    return data.strip(b" ").decode().split("\n")


def _bytes_from(data: bytes, at: np.ndarray) -> np.ndarray:
    """The eight bytes of ``data`` from each position of ``at`` read as one little-endian
    int (``at`` + 8 <= ``len(data)``), by one gather of a strided view: no copy of the
    text."""
    return np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))[at]


def _bytes_before(data: bytes, at: np.ndarray) -> np.ndarray:
    """The eight bytes of ``data`` before each position of ``at`` as one little-endian int,
    line ends (``\\n``) standing for the bytes before the text's start."""
    if len(data) < 16:
        return _bytes_from(b"\n" * 8 + data, at)
    before = _bytes_from(data, np.maximum(at - 8, 0))
    early = np.flatnonzero(at < 8)
    if early.shape[0]:
        before[early] = _bytes_from(b"\n" * 8 + data[:16], at[early])
    return before


def _may_assimilate(data: bytes, codes: np.ndarray) -> bool:
    """Whether ASCII ``data`` (its bytes ``codes``) may hold one of :data:`_ASSIMILATED` (a
    superset test: the five bytes around each doubled n, t or m, which are few, against
    the words', each five bytes packed in an int); the same answer as ``any(word in text
    for word in _ASSIMILATED)`` where it is False, several times faster than those
    substring searches."""
    doubled = np.flatnonzero(codes[1:] == codes[:-1])
    letters = codes[doubled]
    doubled = doubled[(letters == ord("n")) | (letters == ord("t")) | (letters == ord("m"))]
    starts = doubled[(doubled >= 2) & (doubled + 2 < codes.shape[0])] - 2
    if starts.shape[0] == 0:
        return False
    if (starts[-1] + 8 > len(data)):  # a window near the end: read with the text padded
        data = data + b"\0" * 8
    windows = _bytes_from(data, starts) & np.uint64(0xFF_FFFF_FFFF)
    return bool(np.isin(windows, _ASSIMILATED_HEADS).any())


def _abbreviated(data: bytes, periods: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Where :data:`_ABBREVIATED` matches in lowercased ASCII text (``data``, the positions
    of its periods, its bytes' :data:`_CLASSES`; the text starts with ``"\\n"``): each
    period after a space or a line end and one letter or a word of
    :data:`_ABBREVIATIONS`. The eight bytes before each period are read as one
    little-endian int (the last byte the highest): its last two bytes must end a word of
    the list or be a separator and a letter (a table of 65,536 flags: few periods pass),
    then the top ``length`` bytes are the word and the byte below them its separator, and
    the words are compared packed, length by length (the regex tries its look-behinds at
    every period: several times slower)."""
    before = _bytes_before(data, periods)
    passed = np.flatnonzero(_LAST_TWO[(before >> np.uint64(48)).astype(np.intp)])
    periods, before = periods[passed], before[passed]
    found = []
    for length in range(1, _LONGEST_ABBREVIATION + 1):
        separator = (before >> np.uint64(8 * (7 - length))) & np.uint64(0xFF)
        candidates = (separator == 32) | (separator == 10)
        if length == 1:
            found.append(periods[candidates & (classes[periods - 1] == _LETTER)])
            continue
        packed = _PACKED_ABBREVIATIONS.get(length, _NO_WORDS)
        if packed.shape[0] == 0:
            continue
        at = np.flatnonzero(candidates)
        words = before[at] >> np.uint64(8 * (8 - length))
        # a binary search of the few sorted words (np.isin would sort the candidates too)
        nearest = packed[np.minimum(np.searchsorted(packed, words), packed.shape[0] - 1)]
        found.append(periods[at[nearest == words]])
    return np.concatenate(found)


def _ascii_suspects(scan: str) -> list[int]:
    """Where lines of lowercased ASCII ``scan`` (``"\\n"`` + the text) may not be plain:
    positions in the text. Each pattern's scan runs only where a cheaper whole-text test
    (on the bytes' classes, one translation of the text) says it can match: most captions
    have none."""
    data = scan.encode()
    codes = np.frombuffer(data, dtype=np.uint8)
    class_bytes = data.translate(_CLASSES)
    classes = np.frombuffer(class_bytes, dtype=np.uint8)
    patterns = []
    if _OTHER_BYTE in class_bytes:  # a byte search: no whole-text array
        patterns.append(_OTHER_CHARACTER)
    # punctuation followed by neither a space nor a line end (classes 1, 2: the uint8
    # difference wraps the others above 1)
    marks = np.flatnonzero(classes[:-1] == _MARK)
    follows = classes[marks + 1]
    if ((follows != _SPACE) & (follows != _LINE_END)).any():
        patterns.append(_PUNCTUATION_INSIDE)
    positions = [match.start() - 1 for pattern in patterns for match in pattern.finditer(scan)]
    periods = marks[codes[marks] == ord(".")]
    if data.endswith(b"."):  # (marks leave out the last byte)
        periods = np.append(periods, len(data) - 1)
    positions.extend((_abbreviated(data, periods, classes) - 1).tolist())
    if _may_assimilate(data, codes):
        for match in _ASSIMILATION.finditer(scan):
            after = scan[match.end():match.end() + 1]
            if scan[match.start() - 1] not in _ALNUM and after not in _ALNUM:
                positions.append(match.start() - 1)
    if _DIGIT_BYTE in class_bytes:
        for match in _NUMBER_PAIR.finditer(scan):
            start = match.start()
            while scan[start - 1] in _ALNUM:
                start -= 1
            if scan[start].isdigit() and start > 0:
                positions.append(match.start() - 1)
    return positions
