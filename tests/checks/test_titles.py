"""Title normalisation: look-alikes match, real word differences do not (with properties)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.checks.titles import (
    _fold,
    _fold_unicode,
    compact,
    normalize_title,
    same_paper,
    titles_match,
)
from curator.core.model import Kind
from curator.sources.document import DocumentSource
from tests.conftest import SAMPLES

TITLE = "MemoryBank: Enhancing Large Language Models with Long-Term Memory"

LOOKALIKES = [
    ("MemGPT: Towards LLMs as Operating Systems", "memgpt: towards llms as operating systems"),
    ("MemGPT: Towards LLMs as Operating Systems", "MemGPT  Towards\nLLMs as Operating Systems."),
    ("H$_2$O: Heavy-Hitter Oracle", "H₂O: Heavy Hitter Oracle"),
    ("MemGPT$^2$", "MemGPT²"),
    ("Memory \\& Reasoning in LLMs", "Memory & Reasoning in LLMs"),
    ("Memory \\& Reasoning in LLMs", "Memory and reasoning in LLMs"),
    ("{MemoryBank}: Enhancing {LLMs}", "MemoryBank: Enhancing LLMs"),
    ("``Quoted'' Memory", "“Quoted” Memory"),
    ("It's Memory", "It’s memory"),
    ("Long-Term Memory — a Survey", "Long Term Memory - a Survey"),
    ("Long-Term Memory", "Longterm Memory"),
    ("Schr\\\"odinger's Memory", "Schrödinger’s Memory"),
    ("Schrödinger's Memory", "Schrodinger's Memory"),
    ("\\textbf{Reflexion}: Language Agents", "Reflexion: Language Agents"),
    ("$\\alpha$-Memory", "α-Memory"),
    ("ＦＵＬＬＷＩＤＴＨ Memory", "Fullwidth memory"),
    ("Think-in-Memory.", "Think in Memory"),
]
DIFFERENT = [
    ("MemGPT: Towards LLMs as Operating Systems", "MemGPT: Towards LLMs as Databases"),
    ("Generative Agents", "Generative Agents: Interactive Simulacra of Human Behavior"),
    ("Memory for LLMs", "Memory for VLMs"),
    ("Long-Term Memory", "Short-Term Memory"),
    ("Scaling to 1M tokens", "Scaling to 2M tokens"),
]


@pytest.mark.parametrize(("a", "b"), LOOKALIKES)
def test_lookalikes_match(a: str, b: str) -> None:
    assert titles_match(a, b)
    assert titles_match(b, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_word_differences_do_not_match(a: str, b: str) -> None:
    assert not titles_match(a, b)


def test_normal_form_is_lower_words_single_spaced() -> None:
    assert normalize_title("  The \\emph{RAG}–Memory  Trade-off!  ") == "the rag memory trade off"
    assert normalize_title("") == ""
    assert normalize_title("$^{}$ {} --") == ""


@pytest.mark.slow
@given(st.text())
def test_normalise_never_crashes_and_is_idempotent(text: str) -> None:
    once = normalize_title(text)
    assert normalize_title(once) == once
    assert once == once.strip()
    assert "  " not in once


@given(st.text())
def test_a_title_matches_itself(text: str) -> None:
    assert titles_match(text, text)


WORDS = st.lists(
    st.text(
        alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        min_size=1,
        max_size=10,
    ),
    min_size=1,
    max_size=8,
)
SEPARATORS = st.sampled_from([" ", "  ", "\n", " - ", "—", ": ", ", ", "/", "~", "\\,", "\t"])


@given(WORDS, st.data())
def test_case_spacing_punctuation_and_tex_variants_match(
    words: list[str], data: st.DataObject
) -> None:
    title = " ".join(words)
    variant_words = []
    for word in words:
        style = data.draw(st.sampled_from(["upper", "lower", "title", "brace", "quote", "same"]))
        variant_words.append(
            {
                "upper": word.upper(),
                "lower": word.lower(),
                "title": word.title(),
                "brace": "{" + word + "}",
                "quote": "“" + word + "”",
                "same": word,
            }[style]
        )
    seps = [data.draw(SEPARATORS) for _ in variant_words]
    variant = "".join(w + s for w, s in zip(variant_words, seps, strict=True))
    assert titles_match(title, variant + data.draw(st.sampled_from(["", ".", "?", "!"])))


@given(WORDS, st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8))
def test_an_extra_word_is_a_mismatch(words: list[str], extra: str) -> None:
    title = " ".join(words)
    assert not titles_match(title, f"{title} {extra}")


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_titles_fold_as_any_text_does(text: str) -> None:
    """The ASCII shortcut gives what the general folding gives."""
    assert _fold(text) == _fold_unicode(text)


@pytest.mark.parametrize(
    ("listed", "official"),
    [
        ("MemGPT: Towards LLMs as Operating System", "MemGPT: Towards LLMs as Operating Systems"),
        (
            "Lost in the Midle: How Language Models Use Long Contexts",
            "Lost in the Middle: How Language Models Use Long Contexts",
        ),
        (
            "Augmenting Language Models with Long-Term Memory",
            "Augmenting Large Language Models with Long-Term Memory",
        ),
        (
            "A Survey on the Memory Mechanism of LLM based Agents",
            "A Survey on the Memory Mechanism of Large Language Model based Agents",
        ),
        (
            "Think-in-Memory: Recalling and Post-thinking Enable LLMs with Long-Term Memory",
            "Think-in-Memory: Recalling and Post-thinking Enable Large Language Models with "
            "Long-Term Memory",
        ),
    ],
)
def test_a_retitled_paper_is_the_same_paper(listed: str, official: str) -> None:
    assert same_paper(listed, official)


@pytest.mark.parametrize(
    ("listed", "official"),
    [
        # A sequel or variant: a number or numeral tells them apart.
        (
            "Speed Always Wins: A Survey on Efficient Architectures for Large Language Models",
            "Speed Always Wins II: A Survey on Efficient Architectures for Large Language Models",
        ),
        ("Qwen2.5 Technical Report", "Qwen2.5-1M Technical Report"),
        # Another name before the colon.
        (
            "LazyLLM: Dynamic Token Pruning for Efficient Long Context LLM Inference",
            "SlimInfer: Dynamic Token Pruning for Efficient Long Context LLM Inference",
        ),
        # The field's words in another order, or a new subtitle.
        (
            "A Survey on Efficient Inference for Large Language Models",
            "Efficient Inference for Large Reasoning Models: A Survey",
        ),
        (
            "Reflexion: an autonomous agent with dynamic memory and self-reflection",
            "Reflexion: Language Agents with Verbal Reinforcement Learning",
        ),
        ("MemoryBank: Long-Term Memory for Chatbots", TITLE),
        ("Short name", "Short game"),
    ],
)
def test_another_paper_is_not_the_same_paper(listed: str, official: str) -> None:
    assert not same_paper(listed, official)


@pytest.mark.slow
def test_no_two_papers_of_the_sample_lists_pass_for_one() -> None:
    """The measurement behind `same_paper`: every pair of distinct titles of the five sample
    lists (one field, 1.7 million pairs) is told apart. Pairs sharing too few words to pass
    are left out first, so the test costs seconds."""
    titles: dict[str, str] = {}
    for path in sorted(SAMPLES.glob("*.README*.md")):
        for entry in DocumentSource().load(path).entries:
            if entry.kind is Kind.PAPER and not entry.short_title:
                titles.setdefault(compact(entry.title), entry.title)
    listed = list(titles.values())
    assert len(listed) > 1800
    words = [set(normalize_title(t).split()) for t in listed]
    passed = [
        (listed[i], listed[j])
        for i, j in itertools.combinations(range(len(listed)), 2)
        if 2 * len(words[i] & words[j]) >= 0.6 * (len(words[i]) + len(words[j]))
        and same_paper(listed[i], listed[j])
    ]
    assert passed == []
