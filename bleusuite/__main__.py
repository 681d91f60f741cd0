"""``python -m bleusuite``: the same as the ``bleusuite`` command."""

from bleusuite.cli import command

command()
