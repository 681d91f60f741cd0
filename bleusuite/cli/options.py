"""The validated settings of ``bleusuite score`` (:class:`ScoreOptions`), from its parsed
arguments and sacrebleu's environment variables."""

from __future__ import annotations

import argparse
import codecs
import io
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from bleusuite import environment
from bleusuite.cli.errors import CommandError
from bleusuite.scores import registry
from bleusuite.scores.bleu import smoothing
from bleusuite.significance.seeding import seed_from_environment
from bleusuite.text.tokenizers import TOKENIZER_OF_LANGUAGE

__all__ = ["OUTPUT_FORMATS", "PAIRED_DEFAULTS", "WIDTH_MAX", "ScoreOptions", "check_encoding"]

#: sacrebleu's output formats (``-f`` and ``SACREBLEU_FORMAT``)
OUTPUT_FORMATS = ("json", "text", "latex")
#: the most digits ``--width`` prints after the point: sacrebleu prints as many as asked,
#: and no float64 has more than 1074 that are not 0 (a bound that keeps a mistyped width
#: from writing gigabytes)
WIDTH_MAX = 100_000
#: sacrebleu's defaults when ``--paired-bs-n`` / ``--paired-ar-n`` is 0 or less
PAIRED_DEFAULTS = {"bs": 1000, "ar": 10000}


@dataclass(frozen=True)
class ScoreOptions:
    """Validated settings of ``bleusuite score``.

    ``hyps`` is None for standard input, else the hypothesis files (one per system).
    ``paired`` is ``'bs'``, ``'ar'`` or None; ``paired_n`` its resamples or trials, and
    ``paired_n_shown`` the number as given (sacrebleu prints that one in its note).
    """

    refs: tuple[str, ...]
    hyps: tuple[str, ...] | None
    metrics: tuple[str, ...]
    tokenize: str
    lowercase: bool
    smooth: str
    smooth_value: float | None
    sentence_level: bool
    output_format: str
    width: int
    score_only: bool
    short: bool
    confidence: bool
    confidence_n: int
    seed: int | None
    quiet: bool
    num_refs: int = 1
    encoding: str = "utf-8"
    paired: str | None = None
    paired_n: int = 0
    paired_n_shown: int = 0
    force: bool = False
    color: bool = False
    #: the values of the flags of a metric's own (``--chrf-*``, ``--ter-*``) by their
    #: ``dest`` (``chrf_beta``): what the registry entries' ``command_flags`` name
    metric_flags: Mapping[str, Any] = field(default_factory=dict)
    #: ``--detail`` without a test set: sacrebleu's note under the scores of one system
    detail: bool = False

    @property
    def effective_order(self) -> bool:
        """sacrebleu's sentence-level scores use the effective order (its own families)."""
        return self.sentence_level and smoothing.family_of(self.smooth) == "sacrebleu"

    def settings(self, metric: str) -> Any:
        """The settings of ``metric`` (:mod:`bleusuite.scores.registry`) that the flags give:
        the options its entry names (``command_flags``: BLEU's ``-tok -lc -s -sv`` and
        sacrebleu's effective order at sentence level, GLEU's ``-tok -lc``, chrF's
        ``--chrf-*``, TER's ``--ter-*``) and those the command fixes (``command_fixed``)."""
        entry = registry.get(metric)
        values = {name: self.metric_flags[option] if option in self.metric_flags
                  else getattr(self, option) for name, option in entry.command_flags.items()}
        return entry.settings(**values, **entry.command_fixed)

    @classmethod
    def from_args(cls, args: argparse.Namespace,
                  environ: dict[str, str] | None = None) -> ScoreOptions:
        environ = dict(os.environ) if environ is None else environ
        if args.hyp is not None or args.ref:
            raise CommandError("--hyp/--ref are options of the plain command; write "
                               "'bleusuite score REF [REF ...] -i HYP'")
        if args.test_set is not None:
            raise CommandError("-t is sacrebleu's option for downloading test sets, which "
                               "bleusuite score does not support (see 'bleusuite score --help')",
                               status=2)
        if not args.refs:
            raise CommandError("no reference files: give them before -i/--input "
                               "(bleusuite score REF [REF ...] -i HYP); test-set downloads "
                               "(-t) are not supported")
        tokenize = args.tokenize
        if args.langpair is not None:
            pair = args.langpair.split("-")
            if len(pair) < 2 or not all(pair):
                raise CommandError(f"--language-pair must be two language codes, SRC-TRG; "
                                   f"got {args.langpair!r}")
            if tokenize is None:
                tokenize = TOKENIZER_OF_LANGUAGE.get(pair[1], "13a")
        smooth_value = args.smooth_value
        if args.smooth_method in ("exp", "none"):
            smooth_value = None  # sacrebleu ignores the value of a method without one
        try:
            smoothing.check_smooth_value(args.smooth_method, smooth_value)
        except ValueError as error:
            raise CommandError(str(error).replace("smooth_value", "--smooth-value")) from None
        if args.sentence_level and args.confidence:
            raise CommandError("--confidence needs corpus scores: drop --sentence-level")
        if args.confidence_n < 1:
            raise CommandError(f"--confidence-n must be at least 1; got {args.confidence_n}")
        if not 0 <= args.width <= WIDTH_MAX:
            raise CommandError(f"--width must be between 0 and {WIDTH_MAX:,}; got {args.width}")
        if args.num_refs < 1:
            raise CommandError(f"--num-refs must be at least 1; got {args.num_refs}")
        if args.num_refs != 1 and len(args.refs) > 1:
            raise CommandError("--num-refs reads several tab-separated references from one "
                               f"file; got {len(args.refs)} reference files")
        encoding = check_encoding(args.encoding)
        output_format = args.output_format or ("text" if args.sentence_level else "json")
        shown_format = environ.get("SACREBLEU_FORMAT", "").lower()
        if shown_format in OUTPUT_FORMATS and not args.sentence_level:
            # sacrebleu's sentence-level output is always text, whatever the variable says
            # (bleusuite's -sl -f json, an extension, needs the flag)
            output_format = shown_format
        if args.detail and output_format == "json" and not args.sentence_level:
            output_format = "text"  # sacrebleu's --detail: its note would not be JSON
        paired = "bs" if args.paired_bs else "ar" if args.paired_ar else None
        paired_n_shown = args.paired_bs_n if paired == "bs" else args.paired_ar_n
        paired_n = paired_n_shown if paired_n_shown > 0 else PAIRED_DEFAULTS.get(paired or "", 0)
        # their ValueErrors are the command's errors (status 1, bleusuite.cli.main)
        environment.read(environ)  # the library's counting reads them too: checked up front
        resampled = args.confidence or paired is not None
        # SACREBLEU_SEED is read where the run resamples, as sacrebleu reads it
        seed = (seed_from_environment(environ if resampled else {}) if args.seed is None
                else _parse_seed(args.seed))
        if args.chrf_char_order < 0 or args.chrf_word_order < 0 or (
                args.chrf_char_order + args.chrf_word_order == 0):
            raise CommandError("--chrf-char-order and --chrf-word-order must not be negative, "
                               "and one of them positive; got "
                               f"{args.chrf_char_order} and {args.chrf_word_order}")
        if args.chrf_beta < 0:  # 0, precision alone, is sacrebleu's too
            raise CommandError(f"--chrf-beta must not be negative; got {args.chrf_beta}")
        own = {item.name for item in fields(cls)} | {
            name for name, value in vars(cls).items() if isinstance(value, property)}
        metric_flags = {option: getattr(args, option) for name in dict.fromkeys(args.metrics)
                        for option in registry.get(name).command_flags.values()
                        if option not in own}
        hyps = None if args.input is None else tuple(args.input)
        color = (not args.no_color and not environ.get("NO_COLOR")
                 and sys.stdout.isatty())
        return cls(
            tuple(args.refs), hyps, tuple(dict.fromkeys(args.metrics)), tokenize or "13a",
            args.lowercase, args.smooth_method, smooth_value, args.sentence_level,
            output_format, args.width, args.score_only, args.short, args.confidence,
            args.confidence_n, seed, args.quiet, args.num_refs, encoding,
            paired, paired_n, paired_n_shown, args.force, color, metric_flags, args.detail,
        )


def _parse_seed(value: str) -> int | None:
    if value.lower() == "none":
        return None
    try:
        seed = int(value)
    except ValueError:
        raise CommandError(f"--seed must be an integer or 'none'; got {value!r}") from None
    if seed < 0:
        raise CommandError(f"--seed must be non-negative; got {seed}")
    return seed


def check_encoding(name: str) -> str:
    """The canonical name of a text encoding, as ``open(..., encoding=name)`` accepts it.

    >>> check_encoding("UTF8"), check_encoding("latin-1")
    ('utf-8', 'iso8859-1')

    Raises:
        CommandError: ``name`` is unknown, or a codec that is not a text encoding (rot13,
            hex, base64, zlib, ...).
    """
    try:
        codec = codecs.lookup(name)
    except LookupError:
        raise CommandError(f"--encoding: unknown encoding {name!r}") from None
    try:
        io.TextIOWrapper(io.BytesIO(), encoding=codec.name)  # refuses codecs of bytes
    except LookupError:
        raise CommandError(f"--encoding: {name!r} is not a text encoding") from None
    return codec.name
