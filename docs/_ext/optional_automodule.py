"""``optional-automodule``: ``automodule`` for a module that may not import in this build.

bleusuite.metrics needs pytorch-ignite and bleusuite.losses needs torch; a docs build
without them documents the rest and says which module is left out, instead of failing on
an import warning.
"""

from __future__ import annotations

import importlib
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


class OptionalAutomodule(SphinxDirective):
    """``automodule`` with ``:members:`` if the module imports, else a short note.

    Use it from reStructuredText (in MyST: inside an ``{eval-rst}`` block), since its
    content is parsed as reStructuredText.
    """

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            importlib.import_module(name)
        except ImportError as error:
            note = nodes.paragraph(text=f"{name} is not documented in this build: {error}.")
            return [nodes.note("", note)]
        source, _ = self.get_source_info()
        lines = StringList([f".. automodule:: {name}", "   :members:"], source=source)
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, lines, container)
        return list(container.children)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("optional-automodule", OptionalAutomodule)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
