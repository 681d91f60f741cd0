"""Sphinx configuration of the bleusuite documentation.

Build (warnings are errors) and run every example::

    sphinx-build -W --keep-going -b html docs docs/_build/html
    sphinx-build -W --keep-going -b doctest docs docs/_build/doctest
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # document the checkout, installed or not
sys.path.insert(0, str(DOCS / "_ext"))

import bleusuite  # noqa: E402

project = "bleusuite"
author = "the bleusuite authors"
copyright = "the bleusuite authors"
release = bleusuite.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "optional_automodule",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Google-style docstrings ("Args:", "Returns:", "Raises:")
napoleon_google_docstring = True
napoleon_numpy_docstring = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"


# Every example in the docs and in the docstrings runs under `-b doctest`. Docstring
# examples are written for their module's namespace (as `python -m doctest` runs them), so
# the public names of the documented modules are imported here. torch examples are skipped
# (not failed) where torch is not installed.
doctest_global_setup = """
import numpy as np
from bleusuite.environment import *
from bleusuite.scores.reports import *
from bleusuite.inputs.normalize import *
from bleusuite.inputs.batch import *
from bleusuite.text.streams import *
from bleusuite import *
from bleusuite.scores.bleu.statistics import *
from bleusuite.scores.gleu.statistics import *
from bleusuite.scores.bleu.smoothing import *
from bleusuite.backends import *
from bleusuite.checks import *
from bleusuite.cli import *
from bleusuite.bench import *
from bleusuite.significance.bootstrap import *
from bleusuite.significance.draws import *
from bleusuite.significance import *
from bleusuite.inputs import *
from bleusuite.scores.bleu.result import *
from bleusuite.scores.gleu.result import *
from bleusuite.text import *
from bleusuite.rewards import *
from bleusuite.scores.registry import *
from bleusuite.scores.rules import *
from bleusuite.scores.bleu.precisions import *
from bleusuite.scores.chrf.statistics import *
from bleusuite.counting import *
from bleusuite.counting.ragged import *
from bleusuite.threads import *
from bleusuite.significance.sums import *
from bleusuite.significance.seeding import *
from bleusuite.significance.paired import *
from bleusuite.text.tokenizers import *
from bleusuite.cli.io import *
from bleusuite.cli.statistics import *
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.parser import build_parser
from bleusuite.counting.lcs import *
from bleusuite.text.stemming import *
from bleusuite.scores.rouge.settings import *
from bleusuite.scores.rouge.statistics import *
from bleusuite.scores.rouge.counts import *
from bleusuite.scores.rouge.documents import *
from bleusuite.scores.rouge.formula import *
from bleusuite.scores.rouge.aggregate import *
from bleusuite.scores.rouge.entry import *
import os
from bleusuite.text.tercom import *
from bleusuite.scores.ter.statistics import *
from bleusuite.scores.ter.edits import *
from bleusuite.scores.ter.entry import *
from bleusuite.scores.ter.settings import *
try:
    import torch
except ImportError:
    torch = None
try:
    import jax
except ImportError:
    jax = None
try:
    from bleusuite.metrics import *
except ImportError:
    pass
try:
    from bleusuite.losses import *
except ImportError:
    pass
"""

html_theme = "alabaster"
html_title = f"bleusuite {release}"
html_theme_options = {"description": "Exact, vectorised BLEU and GLEU", "fixed_sidebar": True}
