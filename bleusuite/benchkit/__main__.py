"""``python -m bleusuite.benchkit``: the same as ``bleusuite bench``."""

from bleusuite.benchkit.command import main

raise SystemExit(main())
