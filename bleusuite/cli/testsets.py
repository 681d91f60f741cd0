"""sacrebleu's flags about its test sets that need no download: ``--list`` (the test sets,
or those of a language pair, ``-l``) and ``--citation`` (the citation of ``-t`` test sets),
from sacrebleu's own table of test sets; and ``--detail``'s note where no test set is given.
Downloading a test set, scoring against one and its per-domain detail stay sacrebleu's
(docs/cli.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from bleusuite.cli.errors import CommandError

__all__ = ["NO_SUBSETS", "run_test_sets"]

#: what sacrebleu's ``--detail`` prints under the scores where no test set says the
#: documents' original languages
NO_SUBSETS = "No subset information found. Consider using --origlang argument."


def run_test_sets(args: argparse.Namespace) -> str:
    """The output of ``--list`` or ``--citation``, as sacrebleu prints it.

    Raises:
        CommandError: an unknown test set, ``--citation`` without ``-t``, ``--list`` with
            ``-t`` (a test set's fields can need its files: a download).
    """
    try:
        from sacrebleu import dataset, utils
    except ImportError:
        raise CommandError("--list and --citation read sacrebleu's table of test sets: pip "
                           "install 'bleusuite[cli]'") from None
    datasets: dict[str, Any] = dataset.DATASETS
    if args.list:
        if args.test_set:
            raise CommandError("--list -t lists a test set's fields, which can need its files "
                               "(a download); bleusuite score does not download test sets")
        if args.langpair:
            lines = [f"The available test sets for {args.langpair} are:"]
            names = utils.get_available_testsets_for_langpair(args.langpair)
        else:
            lines = ["The available test sets are:"]
            names = utils.get_available_testsets()
        lines += [f"{name:<30}: {datasets[name].description.strip()}" for name in sorted(names)]
        return "\n".join(lines)
    if not args.test_set:
        raise CommandError("--citation needs a test set (-t)")
    citations = []
    for name in args.test_set.split(","):
        if name not in datasets:
            raise CommandError(f"unknown test set {name!r} (see --list)")
        citation = getattr(datasets[name], "citation", None)
        if not citation:
            raise CommandError(f"no citation found for {name}")
        citations.append(citation)
    return "\n".join(citations)
