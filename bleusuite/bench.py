"""``bleusuite bench`` under its first name: ``python -m bleusuite.bench`` runs the command,
and every name of :mod:`bleusuite.benchkit` (where the command, its peers and its plots
live) can be imported from here."""

from __future__ import annotations

from bleusuite.benchkit import *  # noqa: F403
from bleusuite.benchkit import (  # noqa: F401
    _BACKEND_UNAVAILABLE,
    EXACT,
    NLTK_SETTINGS,
    __all__,
    bleusuite_entry,
    main,
    score,
)

if __name__ == "__main__":
    raise SystemExit(main())
