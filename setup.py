"""The optional compiled part of bleusuite (``bleusuite._native``, see
``bleusuite/native.py``); everything else is declared in setup.cfg.

Where it cannot be compiled (no C compiler or no Python headers), the package installs
without it and does the same work in Python and NumPy (the same numbers, slower):
``optional=True``.
"""

import sys

from setuptools import Extension, setup

SOURCES = ["bleusuite/csrc/module.c", "bleusuite/csrc/buffers.c", "bleusuite/csrc/numbering.c",
           "bleusuite/csrc/string_table.c", "bleusuite/csrc/tokenizers.c",
           "bleusuite/csrc/gather.c", "bleusuite/csrc/counting.c", "bleusuite/csrc/libm.c",
           "bleusuite/csrc/lcs.c", "bleusuite/csrc/stem.c", "bleusuite/csrc/ter.c",
           "bleusuite/csrc/edits.c",
           "bleusuite/csrc/alignment.c", "bleusuite/csrc/caption_lcs.c",
           "bleusuite/csrc/cider_sums.c",
           "bleusuite/csrc/interrupt.c",
           "bleusuite/csrc/edit_distance.c"]

# the sums of products (CIDEr's norms and dot products, cider_sums.c) must round as
# pycocoevalcap's Python does: no fused multiply-adds (GCC fuses by default where the
# target has them, e.g. aarch64). The module exports PyInit__native alone: the functions and
# tables the C files share are hidden, so that their calls and reads are direct (no PLT or
# GOT in the hot loops, e.g. string_table.h's whitespace table)
FLAGS = ["-O2"] if sys.platform == "win32" else ["-O2", "-ffp-contract=off", "-fvisibility=hidden"]

setup(ext_modules=[Extension("bleusuite._native", SOURCES, depends=["bleusuite/csrc/native.h",
                                                          "bleusuite/csrc/caption_words.h",
                                                          "bleusuite/csrc/string_table.h",
                                                          "bleusuite/csrc/numbering.h"],
                             extra_compile_args=FLAGS, optional=True,
                             libraries=[] if sys.platform == "win32" else ["m"])])
