"""NumPy backend."""

from __future__ import annotations

import numpy as np

from bleusuite.backends.numpy_like import NumpyLikeBackend

backend = NumpyLikeBackend(np, "numpy")
# about a megabyte per int64 temporary: reused by the allocator and cache-friendly
backend.block_entries = 1 << 17
