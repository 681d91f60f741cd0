"""Types of the compiled word numbering (``bleusuite/_words.c``)."""

class WordIndex:
    """Numbers the whitespace-separated words of lines by first appearance."""

    def __init__(self) -> None: ...
    def number(self, lines: list[str], /) -> tuple[bytes, bytes]:
        """(ids, counts) as native int64 bytes: every word's id, line after line, and the
        number of words of each line."""
    @property
    def words(self) -> list[str]:
        """The word of each id."""
