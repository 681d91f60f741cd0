"""``bleusuite.torchmetrics``: the metrics against torchmetrics' own (``BLEUScore``,
``SacreBLEUScore``, run in float64), NLTK's ``corpus_gleu`` and bleusuite's corpus
functions, on generated text and token ids, over several updates and ``forward`` calls; the
state, ``plot`` and the argument checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleusuite

torch = pytest.importorskip("torch")
torchmetrics = pytest.importorskip("torchmetrics")
from nltk.translate.gleu_score import corpus_gleu  # noqa: E402
from torchmetrics.text import BLEUScore as TorchmetricsBLEU  # noqa: E402
from torchmetrics.text import SacreBLEUScore as TorchmetricsSacreBLEU  # noqa: E402

from bleusuite.torchmetrics import BLEUScore, GLEUScore, SacreBLEUScore  # noqa: E402

#: torchmetrics counts and scores in the default dtype: float64 for exact numbers
pytestmark = pytest.mark.usefixtures("float64_default")


WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog,", "(hello)", "x.", "!", "é", "東京",
         "A", "The", "a-b", "'s", "1,000", "", "\t",
         # 13a's entities and <skipped>, in either case: lowercasing before or after
         # tokenising tells them apart (issue 35, item 6)
         "&QUOT;yes&quot;", "&AMP;", "&lt;b&GT;", "<SKIPPED>", "<skipped>", "HE", "said"]
#: line ends: 13a of the raw line joins "-\n" away, sacrebleu strips the end first
ENDINGS = st.sampled_from(["", "", "-\n", "\n", " ", ".-\n"])
LINE = st.tuples(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join),
                 ENDINGS).map("".join)
ARGS = st.sampled_from([dict(), dict(smooth=True), dict(n_gram=2), dict(n_gram=3, smooth=True),
                        dict(n_gram=2, weights=[0.8, 0.2]), dict(n_gram=1)])


def _batches(data: st.DataObject) -> list[tuple[list[str], list[list[str]]]]:
    batches = []
    for _ in range(data.draw(st.integers(1, 3))):
        rows = data.draw(st.integers(0, 4))
        preds = [data.draw(LINE) for _ in range(rows)]
        target = [[data.draw(LINE) for _ in range(data.draw(st.integers(1, 3)))]
                  for _ in range(rows)]
        batches.append((preds, target))
    return batches


@pytest.mark.filterwarnings("ignore::bleusuite.text.streams.ReferenceStreamsWarning")
@settings(max_examples=120, deadline=None)
@given(data=st.data(), args=ARGS)
def test_bleu_score_is_torchmetrics(data, args):
    ours, theirs = BLEUScore(**args), TorchmetricsBLEU(**args)
    for preds, target in _batches(data):
        # forward: the batch's own score, and the state updated
        assert float(ours(preds, target)) == pytest.approx(float(theirs(preds, target)),
                                                           abs=1e-12)
    assert float(ours.compute()) == pytest.approx(float(theirs.compute()), abs=1e-12)
    assert ours.compute().dtype == torch.float64


@pytest.mark.filterwarnings("ignore::bleusuite.text.streams.ReferenceStreamsWarning")
@settings(max_examples=120, deadline=None)
@given(data=st.data(), args=ARGS, tokenize=st.sampled_from(["13a", "intl", "char", "none"]),
       lowercase=st.booleans())
def test_sacrebleu_score_is_torchmetrics(data, args, tokenize, lowercase):
    ours = SacreBLEUScore(tokenize=tokenize, lowercase=lowercase, **args)
    theirs = TorchmetricsSacreBLEU(tokenize=tokenize, lowercase=lowercase, **args)
    for preds, target in _batches(data):
        ours.update(preds, target)
        theirs.update(preds, target)
    assert float(ours.compute()) == pytest.approx(float(theirs.compute()), abs=1e-12)


@pytest.mark.parametrize(("lowercase", "tokenize", "pred", "ref", "expected"), [
    (True, "13a", "he said &QUOT;yes&QUOT; today ok", "he said &quot;yes&quot; today ok", 0.0),
    (True, "13a", "<SKIPPED> he said yes today", "<skipped> he said yes today", 0.4111336169),
    (False, "13a", "the cat sat on the mat .-\n", "the cat sat on the mat .", 1.0),
    # intl splits the "-" of "1,000-\n" off (the raw line), not that of "1,000-": 8 tokens
    # in the reference, not 7, and a brevity penalty of exp(1 - 8/6)
    (False, "intl", "a cat sat on the mat", "a cat sat on the mat 1,000-\n", 0.7165313106),
    (True, "intl", "A cat sat on the mat", "a cat sat on the mat 1,000-\n", 0.7165313106),
])
def test_sacrebleu_score_reads_text_as_torchmetrics(lowercase, tokenize, pred, ref, expected):
    """Issue 35, item 6: torchmetrics tokenises the raw line, then lowercases the tokens
    (its score is float32, ours float64)."""
    ours = SacreBLEUScore(lowercase=lowercase, tokenize=tokenize)
    theirs = TorchmetricsSacreBLEU(lowercase=lowercase, tokenize=tokenize)
    assert float(theirs([pred], [[ref]])) == pytest.approx(expected, abs=1e-7)
    assert float(ours([pred], [[ref]])) == pytest.approx(expected, abs=1e-9)


def test_sacrebleu_score_can_give_sacrebleus_numbers():
    sacrebleu = pytest.importorskip("sacrebleu")
    preds = ["The cat sat on the mat.", "A dog ran", "x"]
    target = [["The cat sat on a mat.", "Cat on mat"], ["a dog ran fast", "The dog ran"],
              ["y", "x y"]]
    metric = SacreBLEUScore(smooth="exp", ref_length="closest")
    metric.update(preds, target)
    streams = [list(stream) for stream in zip(*target, strict=True)]
    expected = sacrebleu.corpus_bleu(preds, streams).score / 100
    assert float(metric.compute()) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("smooth", [False, True])
def test_token_ids_give_the_corpus_score(smooth, make_cases, to_arrays):
    """Padded id tensors (several updates, absent references, eos) and token lists: the
    summed statistics give ``corpus_bleu`` of all the sentences."""
    cases = make_cases(seed=4500 + smooth, n=240)
    name = "torchmetrics_smooth" if smooth else "no_smooth"
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    expected = float(bleusuite.corpus_bleu(hyps, refs, smooth=name, ref_length="closest_first"))
    metric = BLEUScore(smooth=smooth, pad_id=0, eos_id=1)
    for start in range(0, 200, 50):
        hyp, ref = to_arrays(cases[start : start + 50], seed=start, pad_id=0, eos_id=1)
        metric.update(torch.from_numpy(hyp), torch.from_numpy(ref))
    metric.update(hyps[200:], refs[200:])  # token lists
    assert metric.statistics.dtype == torch.int64
    assert float(metric.compute()) == pytest.approx(expected, abs=1e-12)
    metric.reset()
    assert int(metric.statistics.abs().sum()) == 0


@pytest.mark.filterwarnings("ignore::bleusuite.text.streams.ReferenceStreamsWarning")
@settings(max_examples=80, deadline=None)
@given(data=st.data(), orders=st.sampled_from([(1, 4), (1, 1), (2, 3)]))
def test_gleu_score_is_nltks_corpus_gleu(data, orders):
    metric = GLEUScore(*orders, tokenize="13a")
    sentences: list[tuple[str, list[str]]] = []
    for preds, target in _batches(data):
        metric.update(preds, target)
        sentences += zip(preds, target, strict=True)
    if not sentences:
        return

    def tokens(line: str) -> list[str]:
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        return Tokenizer13a()(line).split()

    expected = corpus_gleu([[tokens(r) for r in refs] for _, refs in sentences],
                           [tokens(p) for p, _ in sentences], *orders)
    assert float(metric.compute()) == pytest.approx(expected, abs=1e-12)


def test_smoothing_names_and_reference_rules_pass_through():
    preds, target = ["a b c d e"], [["a b c d e f", "a b c d"]]
    for smooth, ref_length in [("exp", "closest"), ("method1", "shortest"),
                               ("nmt_smooth", "shortest")]:
        metric = BLEUScore(smooth=smooth, ref_length=ref_length)
        metric.update(preds, target)
        expected = bleusuite.corpus_bleu(preds, target, tokenize="none", smooth=smooth,
                                         ref_length=ref_length)
        assert float(metric.compute()) == float(expected)


def test_plot_draws_like_torchmetrics():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    metric = BLEUScore()
    values = [metric(["the cat sat on the mat"], [[ref]])
              for ref in ("the cat sat on the mat", "the cat sat on a mat", "a cat sat on a mat")]
    figure, axes = metric.plot(values)
    assert axes.get_ylabel() == "BLEUScore"
    (line,) = axes.get_lines()
    np.testing.assert_allclose(line.get_ydata(), [float(v) for v in values], rtol=0, atol=1e-12)
    figure, _ = metric.plot()  # the value of compute()
    assert figure is not None


@pytest.mark.parametrize(("make", "argument"), [
    (lambda: BLEUScore(n_gram=0), "n_gram"),
    (lambda: BLEUScore(smooth=1), "smooth"),
    (lambda: BLEUScore(smooth="laplace"), "smooth"),
    (lambda: BLEUScore(n_gram=2, weights=[1.0]), "weights"),
    (lambda: BLEUScore(tokenize="spaces"), "tokenize"),
    (lambda: BLEUScore(lowercase="yes"), "lowercase"),
    (lambda: BLEUScore(ref_length="first"), "ref_length"),
    (lambda: BLEUScore(pad_id=1.5), "pad_id"),
    (lambda: GLEUScore(min_len=3, max_len=2), "min_len"),
])
def test_bad_arguments_are_named(make, argument):
    with pytest.raises((TypeError, ValueError), match=argument):
        make()


@pytest.mark.parametrize(("preds", "target", "argument"), [
    ("a b", [["a b"]], "preds"),
    (["a b"], "a b", "target"),
    (["a b", "c"], [["a b"]], "target"),
    (torch.tensor([[1.0, 2.0]]), torch.tensor([[1, 2]]), "preds"),
    (torch.tensor([[1, 2]]), torch.tensor([[1, 2], [3, 4]]), "target"),
])
def test_bad_inputs_are_named(preds, target, argument):
    with pytest.raises((TypeError, ValueError), match=argument):
        BLEUScore().update(preds, target)


@pytest.mark.filterwarnings("ignore:The ``compute`` method of metric")
def test_an_empty_metric_scores_zero_as_torchmetrics():
    assert float(BLEUScore().compute()) == float(TorchmetricsBLEU().compute()) == 0.0
    assert float(GLEUScore().compute()) == corpus_gleu([], []) == 0.0


def test_translation_edit_rate_is_sacrebleus_and_pins_where_torchmetrics_differs():
    """sacrebleu's corpus and sentence TER over several updates; token ids and text add up;
    on this pair torchmetrics' own TER (another tercom) gives 0.7 where sacrebleu gives
    0.8, and bleusuite gives sacrebleu's."""
    sacrebleu = pytest.importorskip("sacrebleu")
    from torchmetrics.text import TranslationEditRate as TorchmetricsTER
    from workloads import edited_wmt_text

    from bleusuite.torchmetrics import TranslationEditRate

    (hyps,), refs = edited_wmt_text(40, seed=2)
    keep = [i for i in range(40) if len(refs[i].split()) <= 25]
    hyps, refs = [hyps[i] for i in keep], [refs[i] for i in keep]
    for options, theirs in (({}, {}), ({"normalize": True, "lowercase": False},
                                       {"normalized": True, "case_sensitive": True})):
        metric = TranslationEditRate(**options, return_sentence_level_score=True)
        half = len(hyps) // 2
        metric.update(hyps[:half], [[r] for r in refs[:half]])
        metric.update(hyps[half:], refs[half:])  # torchmetrics' flat list: one per string
        corpus, sentences = metric.compute()
        expected = sacrebleu.corpus_ter(hyps, [refs], **theirs).score / 100
        assert corpus.dtype == torch.float64 and float(corpus) == pytest.approx(expected,
                                                                                abs=1e-12)
        assert sentences.tolist() == pytest.approx(
            [sacrebleu.sentence_ter(h, [r], **theirs).score / 100 for h, r in
             zip(hyps, refs, strict=True)], abs=1e-12)
    hyp = "Житель Ленинградской области осужден прохождение Фальшивых за, денег в уголовного"
    ref = "В Карелии за сбыт фальшивых денег осужден житель Ленинградской области"
    assert float(TranslationEditRate()(hyp, [ref])) == pytest.approx(0.8, abs=1e-12)
    assert sacrebleu.sentence_ter(hyp, [ref]).score == pytest.approx(80.0, abs=1e-9)
    assert float(TorchmetricsTER()(hyp, [ref])) == pytest.approx(0.7, abs=1e-6)
    ids = TranslationEditRate(pad_id=0)
    ids.update(torch.tensor([[1, 2, 3, 4, 0]]), torch.tensor([[3, 4, 1, 2, 5]]))
    ids.update(["a b"], [["a c"]])
    assert float(ids.compute()) == pytest.approx((2 + 1) / (5 + 2), abs=1e-12)
    with pytest.raises(TypeError, match="normalize"):
        TranslationEditRate(normalize=1)
    with pytest.warns(UserWarning, match="before the ``update``"):  # torchmetrics' warning
        assert float(TranslationEditRate().compute()) == 0.0
