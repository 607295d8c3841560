"""Issue 23, hole 5: `ignore.patterns` of rules/links.yaml run in time linear in the link.

A pull request controls rules/links.yaml. With Python's backtracking `re`, the pattern below
took minutes on one 44-character link, even `--offline`; RE2 matches it at once. A pattern
RE2 does not run (look-around, backreferences) is one located line and exit 2.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from curator.cli import main
from curator.config.links import load_link_rules
from curator.core.errors import InputError
from curator.scope.rules import compile_phrase, phrase_regex

EVIL = r"^https://x\.example/(a|aa)+$"


def rules_file(tmp_path: Path, *patterns: str) -> Path:
    path = tmp_path / "links.yaml"
    items = "".join(f"    - '{p}'\n" for p in patterns)
    path.write_text(f"ignore:\n  patterns:\n{items}", encoding="utf-8")
    return path


def run_bounded(
    args: list[str], cwd: Path, seconds: float = 20
) -> subprocess.CompletedProcess[str]:
    """`args` in a fresh Python, killed after `seconds`: `re` cannot be interrupted in-process."""
    try:
        return subprocess.run(
            [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=seconds
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {seconds} s: {args}")


def test_a_pathological_pattern_finishes_at_once(tmp_path: Path) -> None:
    """With Python's `re` the 44 a's below take minutes (1.6 times more per extra a)."""
    rules_file(tmp_path, EVIL)
    script = (
        "import time; from pathlib import Path; "
        "from curator.config.links import load_link_rules as load; "
        "rules = load(Path('links.yaml')); t = time.perf_counter(); "
        "hits = [rules.ignores('https://x.example/' + 'a' * n + end) "
        "        for n in (30, 44, 10_000) for end in ('!', '')]; "
        "print(hits, time.perf_counter() - t)"
    )
    done = run_bounded(["-c", script], tmp_path)
    hits, seconds = done.stdout.rsplit(" ", 1)
    assert hits == "[False, True, False, True, False, True]", done.stderr
    assert float(seconds) < 0.5


def test_a_pathological_pattern_in_an_offline_check_finishes_at_once(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    rules_file(tmp_path / "rules", EVIL)
    (tmp_path / "README.md").write_text(
        "# List\n\n- [A page](https://x.example/" + "a" * 44 + "!) a page\n", encoding="utf-8"
    )
    args = ["check", "README.md", "--offline", "--skip", "arxiv,github,scope", "--format", "json"]
    done = run_bounded(["-m", "curator", *args], tmp_path)
    assert '"link-unverified"' in done.stdout, done.stderr  # checked (offline), not ignored


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        (r"^https://a\.example/(?=x)", "look-around"),
        (r"(?<!www\.)example\.org", "look-around"),
        (r"^https://(\w+)\.example/\1", "backreference"),
        (r"(a{1000}){1000}", "too large"),
        (r"(unclosed", "missing )"),
        (r"^https://a\.example/x{,3}$", "write {0,n}"),
        (r"\.pdf\Z", "write \\z"),
    ],
)
def test_a_pattern_re2_refuses_is_one_located_line(
    tmp_path: Path, pattern: str, words: str
) -> None:
    path = rules_file(tmp_path, "^https://ok\\.example/", pattern)
    with pytest.raises(InputError) as caught:
        load_link_rules(path)
    assert (caught.value.file, caught.value.line) == (path.as_posix(), 4)
    assert caught.value.message.startswith("ignore.patterns: ")
    assert words in caught.value.message


def test_a_refused_pattern_stops_the_check_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rules").mkdir()
    rules_file(tmp_path / "rules", r"(?<=a)b")
    (tmp_path / "README.md").write_text("# List\n\n- [A](https://a.example/) a\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "README.md", "--offline", "--skip", "arxiv,github,scope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("curator: error: ") and "rules/links.yaml:3: ignore.patterns: " in err
    assert len(err.splitlines()) == 1


def test_patterns_keep_their_meaning(tmp_path: Path) -> None:
    """What lists write (anchors, classes, alternation, case flag) matches as before."""
    rules = load_link_rules(
        rules_file(tmp_path, "^https://localhost", r"(?i)\.PDF$", r"/(draft|wip)/", r"[?&]utm_")
    )
    assert rules.ignores("https://localhost:8080/x")
    assert rules.ignores("https://e.example/paper.pdf")
    assert rules.ignores("https://e.example/draft/1")
    assert rules.ignores("https://e.example/?a=1&utm_source=x")
    assert not rules.ignores("https://e.example/final/paper.html")
    assert not rules.ignores("http://notlocalhost/")


def test_many_patterns_are_one_pass(tmp_path: Path) -> None:
    patterns = [f"^https://host{i}\\.example/(a|b)+c" for i in range(2000)]
    rules = load_link_rules(rules_file(tmp_path, *patterns))
    started = time.perf_counter()
    for i in range(2000):
        assert not rules.ignores(f"https://other{i}.example/{'ab' * 100}")
    assert rules.ignores("https://host1999.example/abc")
    assert time.perf_counter() - started < 1.0


def test_scope_phrases_are_words_never_regexes() -> None:
    """scope.yaml's phrases are escaped word by word: no regex syntax reaches `re`, and the
    fixed shape around the words backtracks at most across one word or one gap."""
    assert phrase_regex("(a|aa)+$").startswith(r"(?<!\w)\(a\|aa\)\+\$")
    regex = compile_phrase("x* x* x* x* x* x* x* y")
    started = time.perf_counter()
    assert regex.search("xx " * 30_000) is None
    assert regex.search("x" * 30_000 + " c") is None
    assert time.perf_counter() - started < 1.0
