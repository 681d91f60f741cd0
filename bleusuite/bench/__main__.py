"""``python -m bleusuite.bench``: the same as ``bleusuite bench``."""

from bleusuite.bench.command import main

raise SystemExit(main())
