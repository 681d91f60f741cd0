"""The one error type of the command: a problem reported in one line, with an exit status."""

from __future__ import annotations

__all__ = ["CommandError"]


class CommandError(Exception):
    """A problem to report in one line. The exit status is sacrebleu's: 2 for a usage error
    (argparse's), 1 for anything else, 17 for a malformed tab-separated input."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status
