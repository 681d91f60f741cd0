"""sacrebleu's SentencePiece tokenizers (``spm``, ``flores101``, ``flores200``,
``spBLEU-1K``): a tiny model trained here with sentencepiece and placed where sacrebleu looks
for its models (``$SACREBLEU/models``, the variable set for the test only), then BLEU and
the command compared with sacrebleu's on that same model; the error for a missing model, the
import of sentencepiece only when used, each distinct line encoded once.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

import bleusuite
from bleusuite.text import tokenizers
from bleusuite.text.tokenizers import SPM_MODELS, load_tokenizer, spm_model_path

sentencepiece = pytest.importorskip("sentencepiece")
sacrebleu = pytest.importorskip("sacrebleu")

DATA = resources.files("bleusuite") / "data"
HYPS = (DATA / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()[:40]
REFS = (DATA / "sample-ref.txt").read_text(encoding="utf-8").splitlines()[:40]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def model_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sacrebleu folder with a 300-piece model of the WMT sample under each tokenizer's
    file name."""
    folder = tmp_path_factory.mktemp("sacrebleu")
    model = io.BytesIO()
    lines = [*(DATA / "sample-ref.txt").read_text(encoding="utf-8").splitlines(),
             *(DATA / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()]
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=model, vocab_size=300,
        model_type="unigram", character_coverage=1.0, minloglevel=2)
    (folder / "models").mkdir()
    for file, _ in SPM_MODELS.values():
        (folder / "models" / file).write_bytes(model.getvalue())
    return folder


@pytest.fixture
def sacrebleu_folder(model_folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``SACREBLEU`` set to the model folder for this test (bleusuite reads it when it loads
    a tokenizer; sacrebleu read it at its import, so its module's copy is set too)."""
    from sacrebleu.tokenizers import tokenizer_spm

    monkeypatch.setenv("SACREBLEU", str(model_folder))
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(model_folder))
    return model_folder


@pytest.mark.filterwarnings("ignore:The 'warn' method is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", list(SPM_MODELS))
def test_bleu_with_a_sentencepiece_tokenizer_is_sacrebleus(sacrebleu_folder, name):
    from sacrebleu.metrics import BLEU as SacreBLEU

    from bleusuite.sacrebleu import BLEU

    theirs = SacreBLEU(tokenize=name)
    assert load_tokenizer(name).tokenize(HYPS[3]) == theirs.tokenizer(HYPS[3])
    expected = theirs.corpus_score(HYPS, [REFS])
    metric = BLEU(tokenize=name)
    ours = metric.corpus_score(HYPS, [REFS])
    assert str(ours) == str(expected) and ours.counts == expected.counts
    assert metric.get_signature().format().split("|")[3] == f"tok:{SPM_MODELS[name][1]}"
    assert float(bleusuite.corpus_bleu(HYPS, REFS, tokenize=name, smooth="exp")) == \
        pytest.approx(expected.score / 100, abs=1e-12)
    sentence = SacreBLEU(tokenize=name, effective_order=True)
    scores = bleusuite.sentence_bleu(HYPS[:8], REFS[:8], tokenize=name, smooth="exp",
                                     effective_order=True)
    assert scores.tolist() == pytest.approx(
        [sentence.sentence_score(h, [r]).score / 100 for h, r in zip(HYPS[:8], REFS[:8],
                                                                     strict=True)], abs=1e-12)


def _command(module: list[str], args: list[str], folder: Path) -> subprocess.CompletedProcess[
        bytes]:
    environ = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_SEED",
                                                                "SACREBLEU_FORMAT")}
    environ.update(SACREBLEU=str(folder),
                   PYTHONPATH=os.pathsep.join([str(ROOT), environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", *module, *args], capture_output=True,
                          timeout=300, env=environ)


def test_the_command_is_sacrebleus_and_names_a_missing_model(model_folder, tmp_path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(f"{line}\n" for line in HYPS), encoding="utf-8")
    ref.write_text("".join(f"{line}\n" for line in REFS), encoding="utf-8")
    args = [str(ref), "-i", str(hyp), "-tok", "flores200", "-m", "bleu", "chrf", "-f", "text",
            "-w", "4"]
    theirs = _command(["sacrebleu"], args, model_folder)
    ours = _command(["bleusuite", "score"], args, model_folder)
    assert theirs.returncode == ours.returncode == 0, ours.stderr
    assert ours.stdout.decode().replace(f"bleusuite-{bleusuite.__version__}", "2.6.0") == \
        theirs.stdout.decode()
    missing = _command(["bleusuite", "score"], args, tmp_path / "nowhere")
    assert missing.returncode == 1
    message = missing.stderr.decode()
    assert message.count("\n") == 1 and "'flores200sacrebleuspm'" in message
    assert str(tmp_path / "nowhere" / "models") in message


def test_a_missing_model_or_package_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"'spbleu-1k_tokenizer_spm\.model' in "):
        load_tokenizer("spBLEU-1K")
    with pytest.raises(FileNotFoundError, match="run sacrebleu once with -tok flores101"):
        bleusuite.sentence_bleu(["a"], ["a"], tokenize="flores101")
    monkeypatch.delenv("SACREBLEU")
    assert spm_model_path("spm") == os.path.join(
        os.path.expanduser("~"), ".sacrebleu", "models", "sacrebleu_tokenizer_spm.model")
    monkeypatch.setitem(sys.modules, "sentencepiece", None)  # as if not installed
    with pytest.raises(ImportError, match="bleusuite\\[spm\\]"):
        tokenizers.SentencePieceTokenizer(str(tmp_path / "m.model"), "flores200")


def test_each_distinct_line_is_encoded_once(sacrebleu_folder):
    tokenizer = tokenizers.SentencePieceTokenizer(spm_model_path("flores200"), "flores200")
    calls = []
    encode = tokenizer.processor.EncodeAsPieces
    tokenizer.processor = type("Counted", (), {"EncodeAsPieces": staticmethod(
        lambda line: calls.append(line) or encode(line))})()
    lines = HYPS[:5] * 3 + REFS[:5]
    assert [tokenizer(line) for line in lines][:5] == [tokenizer(line) for line in HYPS[:5]]
    assert sorted(calls) == sorted(set(lines))


def test_sentencepiece_is_imported_only_when_used(model_folder):
    script = ("import sys, bleusuite\n"
              "bleusuite.sentence_bleu(['a b'], ['a b'], tokenize='13a')\n"
              "assert 'sentencepiece' not in sys.modules\n"
              "bleusuite.sentence_bleu(['a b'], ['a b'], tokenize='flores200')\n"
              "assert 'sentencepiece' in sys.modules\n")
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=120,
        env={**os.environ, "SACREBLEU": str(model_folder),
             "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
    assert done.returncode == 0, done.stderr.decode()


def test_a_change_of_folder_loads_the_other_model(model_folder, tmp_path, monkeypatch):
    other = tmp_path / "models"
    other.mkdir()
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(REFS), model_writer=model, vocab_size=120, minloglevel=2)
    (other / "flores200sacrebleuspm").write_bytes(model.getvalue())
    monkeypatch.setenv("SACREBLEU", str(model_folder))
    first = load_tokenizer("flores200").tokenize(HYPS[0])
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    assert load_tokenizer("flores200").tokenize(HYPS[0]) != first
