"""bleusuite's version (its own module: the signatures name it, and nothing here imports
the package's face)."""

VERSION = "0.1.0"
