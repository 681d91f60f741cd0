"""The optional C part of bleusuite (``bleusuite._words``); the rest is in setup.cfg.

Where it cannot be compiled (no C compiler), the package installs without it and numbers
words in plain Python (the same ids, slower): ``optional=True``.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("bleusuite._words", ["bleusuite/_words.c"], optional=True)])
