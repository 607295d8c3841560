"""Pure GitHub parsing on the real recordings of tests/fixtures/shared/api-samples/github."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from curator.core.outcomes import Found, Moved, NotFound, Unverified
from curator.net.http import is_rate_limited
from curator.resolvers.github_parse import (
    graphql_outcomes,
    graphql_query,
    meta_from_rest,
    outcome_from_meta,
    split_subject,
)
from tests.doubles.github import RATE_LIMITED, SAMPLES


def sample(name: str) -> Any:
    return json.loads((SAMPLES / name).read_text())


def test_meta_from_recorded_repository() -> None:
    meta = meta_from_rest(sample("rest_repo_get_200_unauth_2026.json"))
    assert meta.to_cache() == {
        "name_with_owner": "PyGithub/PyGithub", "url": "https://github.com/PyGithub/PyGithub",
        "stars": 7701, "forks": 1874, "license": "LGPL-3.0", "archived": False,
        "disabled": False, "fork": False, "pushed_at": "2026-04-14T07:25:38Z",
        "default_branch": "main", "homepage": "https://pygithub.readthedocs.io/",
        "description": "Typed interactions with the GitHub API v3",
    }  # fmt: skip
    assert outcome_from_meta("github:pygithub/pygithub", meta) == Found(
        "github:pygithub/pygithub", meta
    )


def test_recorded_null_licence_and_fork() -> None:
    assert (
        meta_from_rest(sample("rest_repo_get_200_license_null_octokit_fixtures_2022.json")).license
        is None
    )
    assert meta_from_rest(sample("rest_repo_get_200_fork_2026.json")).fork is True


def test_recorded_rename_target_is_moved() -> None:
    meta = meta_from_rest(sample("rest_repositories_id_get_200_after_301_2023.json"))
    outcome = outcome_from_meta("github:enricomi/test-rename", meta)
    assert outcome == Moved(
        "github:enricomi/test-rename", "https://github.com/EnricoMi/test-renamed", meta
    )


def test_malformed_rest_body_is_refused() -> None:
    for body in (None, [], {"name": "x"}, {"full_name": 3}):
        try:
            meta_from_rest(body)
        except ValueError:
            continue
        raise AssertionError(f"accepted {body!r}")


def test_query_uses_variables_for_names() -> None:
    body = graphql_query([("a", "b"), ('o"}', "n")])
    assert body["variables"] == {"o0": "a", "n0": "b", "o1": 'o"}', "n1": "n"}
    assert '"' not in body["query"]
    assert re.findall(r"(r\d+): repository", body["query"]) == ["r0", "r1"]


def test_not_found_shape_by_analogy_with_the_recording() -> None:
    recorded = sample("graphql_node_not_found_200_2024.json")
    error = {**recorded["errors"][0], "path": ["r1"]}
    body = {"data": {"r0": None, "r1": None}, "errors": [error]}
    out = graphql_outcomes({"r0": "github:a/b", "r1": "github:c/d"}, body)
    assert isinstance(out["github:c/d"], NotFound)
    assert isinstance(out["github:a/b"], Unverified)


def test_recorded_partial_error_type_is_unverified() -> None:
    recorded = sample("graphql_mutation_partial_error_unprocessable_2023.json")
    error = {**recorded["errors"][0], "path": ["r0"]}
    out = graphql_outcomes({"r0": "github:a/b"}, {"data": {"r0": None}, "errors": [error]})
    assert isinstance(out["github:a/b"], Unverified)
    assert "UNPROCESSABLE" in out["github:a/b"].reason  # type: ignore[union-attr]


def test_rate_limited_body() -> None:
    assert is_rate_limited(RATE_LIMITED)
    assert not is_rate_limited(sample("graphql_node_not_found_200_2024.json"))
    out = graphql_outcomes({"r0": "github:a/b"}, RATE_LIMITED)
    assert isinstance(out["github:a/b"], Unverified)


def test_split_subject() -> None:
    assert split_subject("github:a/b") == ("a", "b")
    assert split_subject("github:a") is None
    assert split_subject("github:a/b/c") is None
    assert split_subject("arxiv:1234.5678") is None


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(_json)
def test_any_body_gives_every_subject_a_non_raising_outcome(body: Any) -> None:
    aliases = {"r0": "github:a/b", "r1": "github:c/d"}
    out = graphql_outcomes(aliases, body)
    assert set(out) == set(aliases.values())


@given(st.dictionaries(st.sampled_from(["r0", "r1"]), _json, max_size=2))
def test_any_data_never_turns_into_not_found_without_an_error(data: Any) -> None:
    out = graphql_outcomes({"r0": "github:a/b", "r1": "github:c/d"}, {"data": data})
    assert not any(isinstance(o, NotFound) and not o.meta for o in out.values())
