"""NumPy backend."""

from __future__ import annotations

import numpy as np

from bleusuite.backends.numpy_like import NumpyLikeBackend

backend = NumpyLikeBackend(np, "numpy")
