"""The relevance model (curator/scope/relevance.py) on small made-up lists."""

from __future__ import annotations

from pathlib import Path

from curator.core.model import Entry, Kind, Source
from curator.net.cache import Cache
from curator.scope.affinity import MIN_LISTED, fit_logistic, standing, words
from curator.scope.records import Record
from curator.scope.relevance import Paper, build, digest, restore
from curator.scope.relevant import learn

AGENTS = [
    ("Tool use in language model agents", "Tools"),
    ("Planning with language model agents", "Planning"),
    ("Web navigation agents with planning", "Planning"),
    ("Agents that learn tool use from feedback", "Tools"),
    ("Benchmarks for planning agents", "Benchmarks"),
    ("A benchmark of web agents", "Benchmarks"),
    ("Multi-agent planning with language models", "Planning"),
    ("Tool learning for agents", "Tools"),
    ("Reflection improves agent planning", "Planning"),
    ("Agent benchmarks for tool use", "Benchmarks"),
]
FIELD = [
    "Protein structure prediction with diffusion",
    "Quantum error correction codes",
    "Image segmentation with transformers",
    "Speech recognition at scale",
    "Graph neural networks for molecules",
    "Optimal transport for domain adaptation",
    "Convex optimisation for sparse recovery",
    "Language model pretraining data",
    "Scaling laws of language models",
    "Video generation with diffusion",
]


def listed() -> list[Paper]:
    return [Paper(f"arxiv:1.{i}", t, "", s) for i, (t, s) in enumerate(AGENTS)]


def background() -> list[Paper]:
    return [Paper(f"arxiv:2.{i}", t) for i, t in enumerate(FIELD)]


def test_words_drop_function_words_and_fold_plurals() -> None:
    assert words("Memories of the Agents: a Study") == ["memory", "agent", "study"]
    assert words("Process loss") == ["process", "loss"]


def test_too_few_listed_papers_learn_nothing() -> None:
    assert build(listed()[: MIN_LISTED - 1], background()) is None


def test_an_off_topic_paper_is_unlike_and_an_on_topic_one_is_not() -> None:
    model = build(listed(), background())
    assert model is not None and model.logistic is not None
    off = model.score(Paper("x", "Protein folding with diffusion models"))
    on = model.score(Paper("y", "Planning agents that learn tool use"))
    assert off.unlike and not on.unlike
    assert on.probability is not None and off.probability is not None
    assert on.probability > 0.5 > off.probability
    assert on.section in {"Planning", "Tools"}
    assert on.like().startswith('most like "')
    assert f'; likeliest section "{on.section}"' in on.like()


def test_a_listed_paper_is_left_out_of_its_own_score() -> None:
    model = build(listed(), background())
    assert model is not None
    paper = listed()[0]
    scored = model.score(paper)
    assert paper.key not in {n.key for n in scored.nearest}
    # Left out, its words count as the list's only through the other papers.
    assert scored.standing < 1.0


def test_a_paper_sharing_no_word_names_nobody() -> None:
    model = build(listed(), background())
    assert model is not None
    scored = model.score(Paper("z", "Zebrafish husbandry"))
    assert scored.nearest == () and scored.unlike
    assert scored.like() == "shares no word with any listed paper"


def test_standing_is_a_mid_rank() -> None:
    own = [0.0, 1.0, 1.0, 2.0]
    assert standing(-1.0, own) == 0.0
    assert standing(1.0, own) == 0.5
    assert standing(3.0, own) == 1.0
    assert standing(0.5, []) == 1.0


def test_the_logistic_rises_with_affinity_and_needs_both_classes() -> None:
    fitted = fit_logistic([1.0 + i / 10 for i in range(10)], [-1.0 - i / 10 for i in range(10)])
    assert fitted is not None and fitted[0] > 0
    assert fit_logistic([1.0] * 10, [0.0] * (MIN_LISTED - 1)) is None


def test_a_kept_model_scores_as_the_learned_one() -> None:
    model = build(listed(), background())
    assert model is not None
    again = restore(model.as_dict(), listed(), background())
    assert again is not None
    paper = Paper("q", "Tool use benchmarks for web agents")
    assert again.score(paper) == model.score(paper)
    assert restore({"format": "other"}, listed(), background()) is None
    assert restore({"format": model.as_dict()["format"]}, listed(), background()) is None


def test_the_digest_changes_with_any_input() -> None:
    one = digest(listed(), background(), False)
    assert one == digest(listed(), background(), False)
    assert one != digest(listed(), background(), True)
    assert one != digest(listed()[1:], background(), False)
    renamed = [Paper(p.key, p.title + " x", p.abstract, p.section) for p in listed()]
    assert one != digest(renamed, background(), False)


def test_the_cache_gives_the_newest_answers_of_a_service(tmp_path: Path) -> None:
    now = [100.0]
    cache = Cache(tmp_path / "c.sqlite", clock=lambda: now[0])
    for i in range(5):
        now[0] += 1
        cache.put("arxiv", f"arxiv:{i}", {"title": f"T{i}"})
    cache.put("github", "github:o/r", {"name": "r"})
    assert list(cache.latest("arxiv", 3)) == ["arxiv:4", "arxiv:3", "arxiv:2"]
    assert cache.latest("arxiv", 0) == {} and Cache(None).latest("arxiv", 3) == {}
    cache.close()


def test_screening_records_add_their_includes_to_the_list_and_excludes_to_the_background(
    tmp_path: Path,
) -> None:
    entries = [
        Entry(p.key, Kind.PAPER, Source("README.md", i + 1), title=p.title, section=p.section)
        for i, p in enumerate(listed())
    ]
    records = [
        Record({"id": "2609.00001", "title": "Memory banks for agents", "decision": "include"},
               Source("r.json", 1)),
        Record({"id": "2609.00002", "title": "Zorblax memory devices", "decision": "exclude"},
               Source("r.json", 2)),
        Record({"id": "2609.00003", "title": "The paper under review", "decision": "include"},
               Source("r.json", 3)),
    ]  # fmt: skip
    cache = Cache(tmp_path / "c.sqlite")
    model = learn(entries, records, cache, scored={"arxiv:2609.00003"})
    assert model is not None
    keys = {p.key for p in model.listed}
    assert "arxiv:2609.00001" in keys and "arxiv:2609.00003" not in keys
    assert model.counts.background["zorblax"] == 1 and "zorblax" not in model.counts.listed
    cache.close()
