"""Types of bleusuite's compiled part (``bleusuite/_native.c``; see ``bleusuite.native``)."""

from typing import Any

class WordIndex:
    """Numbers the whitespace-separated words of lines by first appearance."""

    def __init__(self) -> None: ...
    def number(self, lines: list[str], /) -> tuple[bytes, bytes]:
        """(ids, counts) as native int64 bytes: every word's id, line after line, and the
        number of words of each line."""
    @property
    def words(self) -> list[str]:
        """The word of each id."""

def clipped_matches(ids: Any, starts: Any, lengths: Any, max_order: int, /) -> bytes:
    """(B, S, max_order) native int64 bytes: the clipped matches of systems 0..S-1 against
    the reference (the last stream) on each line."""
