"""The command line of ``bleusuite``: the plain command's options and ``score``'s
(sacrebleu's flags); ``bench`` adds its own from :mod:`bleusuite.bench.command`."""

from __future__ import annotations

import argparse
import importlib
from typing import Any, NoReturn

from bleusuite.cli.errors import CommandError
from bleusuite.scores import registry
from bleusuite.scores.bleu.smoothing import SMOOTHING_NAMES
from bleusuite.significance.seeding import DEFAULT_SEED
from bleusuite.text.tokenizers import SACREBLEU_TOKENIZERS
from bleusuite.version import VERSION

__all__ = ["UNSUPPORTED", "build_parser", "load_bench_module"]

#: sacrebleu's flags that ``bleusuite score`` does not have, and what each is for: given,
#: they are a usage error that says so (never read as another flag)
UNSUPPORTED = {
    ("--origlang", "-ol"): "downloading test sets",
    ("--subset",): "downloading test sets",
    ("--download",): "downloading test sets",
    ("--echo",): "printing test sets",
}


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one-line :class:`CommandError`, and
    which never takes a prefix of a flag for the flag (``-l`` is not ``-lc``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see '{self.prog} --help')", status=2)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """As argparse's, with the subcommand's help named for arguments left over."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = getattr(parsed, "command", None)
            prog = f"{self.prog} {command}" if command else self.prog
            raise CommandError(f"unrecognized arguments: {' '.join(extras)} (see '{prog} "
                               "--help')", status=2)
        return parsed


class _Unsupported(argparse.Action):
    """A sacrebleu flag that ``bleusuite score`` does not have: a usage error naming it."""

    def __init__(self, option_strings: list[str], dest: str, purpose: str = "",
                 **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs="*", default=argparse.SUPPRESS,
                         help=argparse.SUPPRESS)
        self.purpose = purpose

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        raise CommandError(
            f"{option_string} is sacrebleu's option for {self.purpose}, which bleusuite score "
            f"does not support (see '{parser.prog} --help')", status=2)


# ------------------------------------------------------------------------------ parser


def build_parser(with_bench: bool = True) -> argparse.ArgumentParser:
    """The parser of the whole command, ``score`` included (``bench`` too unless
    ``with_bench`` is false: ``bleusuite score`` does not import the bench module)."""
    parser = _Parser(
        prog="bleusuite",
        description="Exact BLEU and GLEU of whitespace-tokenised text files. With no files, "
        "scores the sample corpus shipped with bleusuite. 'bleusuite score --help' describes "
        "the sacrebleu-compatible command.",
    )
    parser.add_argument("--hyp", metavar="FILE", help="system output, one sentence per line")
    parser.add_argument(
        "--ref", metavar="FILE", action="append", default=[],
        help="reference file, line-aligned with --hyp (repeat for several references)",
    )
    parser.add_argument("--max-order", type=int, default=4, help="highest n-gram order (4)")
    parser.add_argument(
        "--smooth", default="exp", choices=SMOOTHING_NAMES, metavar="NAME",
        help="smoothing (default: exp, sacrebleu's, as in 'bleusuite score'; see the docs "
        "for the full list)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--version", action="version", version=f"bleusuite {VERSION}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_score_arguments(commands.add_parser(
        "score", help="sacrebleu-compatible scoring: bleusuite score REF [REF ...] -i HYP",
        description="BLEU, chrF/chrF++ (-m chrf), TER and GLEU with sacrebleu's flags, "
        "tokenizers and output formats. Reads the hypotheses from -i HYP, or from standard input.",
    ))
    bench = load_bench_module() if with_bench else None
    if bench is not None:
        bench.add_arguments(commands.add_parser(
            "bench", help="time bleusuite against the BLEU/GLEU libraries installed here",
            description="Time bleusuite against the BLEU/GLEU libraries installed here on one "
            "batch of random token ids, check that the scores agree, and print a table.",
        ))
    return parser


def load_bench_module() -> Any:
    """``bleusuite.bench.command`` (the ``bench`` command), or None where it is not
    shipped."""
    try:
        return importlib.import_module("bleusuite.bench.command")
    except ImportError:
        return None


def _add_score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("refs", nargs="*", metavar="REF",
                        help="reference files, line-aligned with the hypotheses")
    parser.add_argument("--input", "-i", metavar="HYP", nargs="*", default=None,
                        help="hypothesis file(s); several files: several systems scored on the "
                        "same references (absent: standard input, one system per "
                        "tab-separated column)")
    parser.add_argument("--num-refs", "-nr", type=int, default=1, metavar="N",
                        help="split the one reference file on tabs into N references")
    parser.add_argument("--encoding", "-e", default="utf-8",
                        help="encoding of the input files (default: utf-8)")
    # -m: the registry's COMMAND_METRICS (sacrebleu's, and GLEU), read when the parser is built
    parser.add_argument("--metrics", "-m", nargs="+", choices=registry.COMMAND_METRICS,
                        default=["bleu"],
                        help="metrics to compute (default: bleu)")
    parser.add_argument("--sentence-level", "-sl", action="store_true",
                        help="one line of scores per input line")
    parser.add_argument("--tokenize", "-tok", choices=SACREBLEU_TOKENIZERS, default=None,
                        help="sacrebleu tokenizer (default: zh, ja-mecab or ko-mecab for that "
                        "target language of -l, else 13a)")
    parser.add_argument("--language-pair", "-l", dest="langpair", default=None,
                        metavar="SRC-TRG",
                        help="the language pair: its target language picks BLEU's tokenizer "
                        "(as sacrebleu); with --list, the test sets of that pair")
    parser.add_argument("--test-set", "-t", dest="test_set", default=None, metavar="NAMES",
                        help="with --citation: the test sets (comma-separated) to cite; "
                        "scoring against a test set (a download) is sacrebleu's")
    parser.add_argument("--list", action="store_true",
                        help="print sacrebleu's test sets (of the pair of -l) and quit")
    parser.add_argument("--citation", "--cite", action="store_true",
                        help="print the citation of the -t test sets and quit")
    parser.add_argument("--detail", "-d", action="store_true",
                        help="as sacrebleu without a test set: text output, and its note that "
                        "no subset information is found")
    parser.add_argument("--lowercase", "-lc", action="store_true",
                        help="case-insensitive scores (lowercase every line first)")
    parser.add_argument("--force", action="store_true",
                        help="no warning on hypotheses that look tokenised")
    parser.add_argument(
        "--smooth-method", "-s", choices=SMOOTHING_NAMES, default="exp", metavar="NAME",
        help="BLEU smoothing (default: exp, sacrebleu's). sacrebleu: none, floor, add-k, "
        "exp; NLTK: method0..method7; pytorch-ignite: no_smooth, smooth1, nltk_smooth2, "
        "smooth2",
    )
    parser.add_argument("--smooth-value", "-sv", type=float, default=None, metavar="VALUE",
                        help="value of floor (0.1), add-k (1) or NLTK's method1 epsilon (0.1); "
                        "ignored by sacrebleu's none and exp, as in sacrebleu")
    chrf = parser.add_argument_group("chrF (-m chrf)")
    chrf.add_argument("--chrf-char-order", "-cc", type=int, default=6, metavar="N",
                      help="character n-gram order (default: 6)")
    chrf.add_argument("--chrf-word-order", "-cw", type=int, default=0, metavar="N",
                      help="word n-gram order (default: 0; 2 is chrF++)")
    chrf.add_argument("--chrf-beta", type=int, default=2, metavar="B",
                      help="recall weighs B times precision (default: 2; 0: precision "
                      "alone)")
    chrf.add_argument("--chrf-whitespace", action="store_true",
                      help="keep whitespace in the character n-grams")
    chrf.add_argument("--chrf-lowercase", action="store_true", help="case-insensitive chrF")
    chrf.add_argument("--chrf-eps-smoothing", action="store_true",
                      help="chrF++.py's averaging (an order without n-grams counts 1e-16)")
    ter = parser.add_argument_group("TER (-m ter)")
    ter.add_argument("--ter-case-sensitive", action="store_true",
                     help="case-sensitive TER (default: lowercase first)")
    ter.add_argument("--ter-asian-support", action="store_true",
                     help="CJK characters and punctuation in --ter-normalized and "
                     "--ter-no-punct")
    ter.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    ter.add_argument("--ter-normalized", action="store_true",
                     help="tercom's normalisation (XML entities, punctuation split off)")
    parser.add_argument("--format", "-f", dest="output_format",
                        choices=("json", "text", "latex"), default=None,
                        help="output format (default: json, or text with --sentence-level, as "
                        "sacrebleu; latex: a table of several systems). The SACREBLEU_FORMAT "
                        "environment variable overrides it, as in sacrebleu")
    parser.add_argument("--width", "-w", type=int, default=1,
                        help="digits after the decimal point (default: 1)")
    parser.add_argument("--score-only", "-b", action="store_true",
                        help="print only the scores")
    parser.add_argument("--short", "-sh", action="store_true",
                        help="abbreviated signature (text format)")
    parser.add_argument("--no-color", "-nc", action="store_true",
                        help="no colours in the tables of several systems")
    parser.add_argument("--confidence", "-ci", action="store_true",
                        help="95%% bootstrap confidence interval of the corpus scores")
    parser.add_argument("--confidence-n", "-cin", type=int, default=1000, metavar="N",
                        help="bootstrap resamples (default: 1000)")
    paired = parser.add_mutually_exclusive_group()
    paired.add_argument("--paired-ar", "-par", action="store_true",
                        help="paired approximate randomization test of every system against "
                        "the first (the baseline)")
    paired.add_argument("--paired-bs", "-pbs", action="store_true",
                        help="paired bootstrap resampling test of every system against the "
                        "first (the baseline)")
    parser.add_argument("--paired-ar-n", "-parn", type=int, default=10000, metavar="N",
                        help="approximate randomization trials (default: 10000)")
    parser.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000, metavar="N",
                        help="paired bootstrap resamples (default: 1000)")
    parser.add_argument("--paired-jobs", "-j", type=int, default=1, metavar="N",
                        help="accepted for sacrebleu compatibility: the tests are vectorised "
                        "over systems and resamples in one process")
    parser.add_argument("--seed", default=None,
                        help=f"resampling seed, or 'none' (default: $SACREBLEU_SEED, else "
                        f"{DEFAULT_SEED}, as sacrebleu: the same seed draws the same "
                        "resamples as sacrebleu)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    parser.add_argument("--version", "-V", action="version",
                        version=f"bleusuite {VERSION}")
    for flags, purpose in UNSUPPORTED.items():
        parser.add_argument(*flags, action=_Unsupported, purpose=purpose)
