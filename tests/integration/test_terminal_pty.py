"""`curator check` in a real pseudo-terminal: the width comes from the terminal's window (no
$COLUMNS), no line is wider, no absolute path for files under the working directory, colour
only on a terminal and never with NO_COLOR, and the summary line says what the JSON says.

Each run is a `python -m curator` subprocess whose stdout and stderr are the follower end of
a pty sized with TIOCSWINSZ. Offline runs use a sample list and a cold cache (fast); one run
asks the loopback arXiv and GitHub doubles for real findings with suggestions.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.cells import cell_len

from curator.report import json as json_report
from tests.conftest import SAMPLES
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import GithubDouble
from tests.doubles.server import LoopbackServer
from tests.report.sample import hostile_report

SAMPLE = SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md"
#: Every escape sequence a terminal would act on: CSI (colour, cursor), OSC, and lone ESCs.
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.")
SGR = re.compile(r"\x1b\[[0-9;]*m")
#: The environment a terminal user may have that would change what is tested here.
DROP = ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "CI", "GITHUB_ACTIONS", "TERM")


@dataclass
class Run:
    """What one run printed (CR LF turned into LF) and its exit status."""

    status: int
    out: str

    @property
    def lines(self) -> list[str]:
        """The lines as a reader sees them: escape sequences and carriage returns removed."""
        return [ESCAPES.sub("", line).replace("\r", "") for line in self.out.split("\n")]

    def widest(self) -> int:
        """The widest line, in terminal cells."""
        return max(cell_len(line) for line in self.lines)


def environment(tmp: Path, **extra: str) -> dict[str, str]:
    """This process's environment without what would change the layout, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if k not in DROP}
    env.update(TERM="xterm-256color", CURATOR_CACHE=str(tmp / "cache.sqlite"), **extra)
    return env


def in_pty(args: list[str], cwd: Path, columns: int, env: dict[str, str]) -> Run:
    """Run `python -m curator ARGS` with stdout and stderr on a pty `columns` wide."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1.0)
            if not ready:
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the child closed its end
                break
            if not chunk:
                break
            chunks.append(chunk)
        status = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    return Run(status, b"".join(chunks).decode("utf-8").replace("\r\n", "\n"))


def piped(args: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """Run `python -m curator ARGS` with stdout on a pipe."""
    done = subprocess.run(
        [sys.executable, "-m", "curator", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
        check=False,
    )
    return Run(done.returncode, done.stdout)


@pytest.fixture
def listed(tmp_path: Path) -> Path:
    """A list repository (the working directory of the runs) holding a real sample list."""
    root = tmp_path / "list"
    root.mkdir()
    shutil.copy(SAMPLE, root / "README.md")
    return root


def offline(root: Path) -> list[str]:
    """`check` of the list by its absolute path, from the cache only (a cold one)."""
    return ["check", str(root / "README.md"), "--offline"]


@pytest.mark.parametrize("columns", [40, 80, 200])
def test_fits_the_terminal_and_shows_paths_relative(
    listed: Path, tmp_path: Path, columns: int
) -> None:
    run = in_pty(offline(listed), listed, columns, environment(tmp_path))
    assert run.status == 1
    assert run.widest() <= columns
    assert str(listed) not in run.out  # given absolute, shown relative
    assert any(line.startswith("README.md:") for line in run.lines)
    assert "\x1b[" in run.out  # a terminal gets colour
    if columns == 200:  # a wide terminal is used, not a fixed width
        assert run.widest() > 80


@pytest.mark.slow
def test_fix_summary_fits_the_terminal_and_is_whole_when_piped(
    listed: Path, tmp_path: Path
) -> None:
    """`fix`'s summary (`Nothing to fix (202 left: 76 repo-unverified, …)`, 90 cells) is
    wrapped like check's report; piped, it is one whole line."""
    args = ["fix", "README.md", "--offline"]
    run = in_pty(args, listed, 40, environment(tmp_path))
    assert run.status == 1 and run.lines[0].startswith("Nothing to fix (")
    assert run.widest() <= 40
    pipe = piped(args, listed, environment(tmp_path))
    assert pipe.out.count("\n") == 1 and len(pipe.out) > 80


def test_no_color_on_a_terminal_prints_no_escape_code(listed: Path, tmp_path: Path) -> None:
    run = in_pty(offline(listed), listed, 80, environment(tmp_path, NO_COLOR="1"))
    assert run.status == 1 and "README.md:" in run.out
    assert "\x1b" not in run.out


@pytest.mark.slow
def test_piped_output_has_no_escape_code_and_keeps_lines_whole(
    listed: Path, tmp_path: Path
) -> None:
    """Piped (grep, a pager, a CI log), a finding stays on its line unless $COLUMNS asks."""
    run = piped(offline(listed), listed, environment(tmp_path))
    assert run.status == 1 and "README.md:" in run.out
    assert "\x1b" not in run.out
    assert run.widest() > 150
    shapes = ("README.md:", "    ", "note:", "Found")
    assert all(line.startswith(shapes) for line in run.lines if line)
    narrower = piped(offline(listed), listed, environment(tmp_path, COLUMNS="150"))
    assert 80 < narrower.widest() <= 150


def test_verbose_shows_the_evidence(listed: Path, tmp_path: Path) -> None:
    verbose = in_pty([*offline(listed), "--verbose"], listed, 80, environment(tmp_path))
    assert any(line.strip() == "evidence: offline: not in the cache" for line in verbose.lines)
    assert any(re.match(r"README\.md: \d+ entries \(", line) for line in verbose.lines)
    assert verbose.widest() <= 80


@pytest.mark.slow
def test_summary_line_counts_match_the_json_report(listed: Path, tmp_path: Path) -> None:
    env = environment(tmp_path)
    text = in_pty(offline(listed), listed, 80, env)
    saved = tmp_path / "report.json"
    piped([*offline(listed), "--format", "json", "--output", str(saved)], listed, env)
    summary = json.loads(saved.read_text(encoding="utf-8"))["summary"]
    flat = " ".join(line.strip() for line in text.lines if line.strip())
    found = re.search(r"Found ([^()]*?)(?: \(\d+ could not be verified\))? in (\d+) entr", flat)
    assert found is not None
    said = {noun: int(n) for n, noun in re.findall(r"(\d+) (error|warning|info)", found[1])}
    assert said == {
        noun: summary[noun + "s"] for noun in ("error", "warning", "info") if summary[noun + "s"]
    }
    assert int(found[2]) == summary["entries"]


HOSTILE = "\x1b]0;owned\x07\x1b[2J\x9b31m\u202etxt\r\n::error::pwned ##[warning]x 記憶🧠"


def test_a_hostile_report_reaches_the_terminal_inert(listed: Path, tmp_path: Path) -> None:
    report = hostile_report()
    data = json.loads(json_report.render(report))
    for finding in data["findings"]:
        finding["subject"] = "https://e.x/" + HOSTILE
        finding["source"]["file"] = f"{listed}/{HOSTILE}.md"
    data["notes"].append(HOSTILE)
    saved = listed / "report.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    args = ["report", str(saved), "--format", "text", "--verbose"]
    run = in_pty(args, listed, 80, environment(tmp_path))
    assert run.status == 0
    plain = SGR.sub("", run.out)  # our colour; nothing else may act on the terminal
    for raw in ("\x1b", "\x07", "\x9b", "\u202e", "\r"):
        assert raw not in plain
    assert "\\x1b]0;owned\\x07" in plain and "\\u202e" in plain
    for line in run.lines:
        assert not line.lstrip().startswith("::") and "##[" not in line
    assert run.widest() <= 80
    assert str(listed) not in run.out


@pytest.mark.slow
def test_real_findings_from_the_services_fit(
    loopback: LoopbackServer, listed: Path, tmp_path: Path
) -> None:
    data = listed / "data"
    data.mkdir()
    (data / "papers.yaml").write_text(
        "section: Methods\npapers:\n"
        '  - title: "長期記憶を備えた対話エージェント: a memory bank for assistants 🧠"\n'
        '    arxiv: "2305.10250"\n    date: "2023-05-17"\n'
        "    code: https://github.com/old/bank\n"
        '  - title: "A paper arXiv does not have"\n    arxiv: "2306.07174"\n'
        '    date: "2023-06-12"\n',
        encoding="utf-8",
    )
    arxiv = ArxivDouble()
    # What a service could send that XML can carry (no C0 controls): bidi, C1, commands.
    sent = "\u202e\x9b31m ::error::pwned ##[warning]x 記憶🧠"
    official = "MemoryBank: Enhancing Large Language Models with Long-Term Memory " + sent
    arxiv.papers["2305.10250"] = Paper("2305.10250", official)
    github = GithubDouble(loopback)
    github.add("old/bank", renamed_to="new/bank")
    env = environment(
        tmp_path,
        CURATOR_ARXIV_API_URL=arxiv.install(loopback),
        GITHUB_API_URL=github.api_url,
        GITHUB_GRAPHQL_URL=github.graphql_url,
        CURATOR_ARXIV_DELAY="0",
    )
    args = ["check", str(data), "--skip", "web,scope", "--verbose"]
    run = in_pty(args, listed, 80, env)
    text = "\n".join(run.lines)
    assert run.status == 1
    assert "data/papers.yaml:3: error arxiv-title-mismatch" in text
    assert "data/papers.yaml:7: error arxiv-not-found" in text
    assert "→ https://github.com/new/bank" in text
    flat = " ".join(line.strip() for line in run.lines)
    # Another paper's title (few words in common) is never suggested: it is the evidence.
    assert "→ MemoryBank" not in text and "arXiv: 'MemoryBank: Enhancing" in flat
    assert re.search(r"\(1 arXiv, 2 GitHub \(2 REST\) requests\)", flat)
    assert run.widest() <= 80
    assert str(listed) not in run.out
    plain = SGR.sub("", run.out.split("\x1b[?25h")[-1])  # after the progress display
    assert "\u202e" not in plain and "\x9b" not in plain and "\\u202e" in plain
    assert not any(line.lstrip().startswith("::") or "##[" in line for line in run.lines)


def test_explain_fits_the_terminal_and_shows_arxiv_text_inert(
    loopback: LoopbackServer, listed: Path, tmp_path: Path
) -> None:
    shutil.copytree(Path(__file__).resolve().parents[2] / "rules", listed / "rules")
    title = (
        "Long-Term Memory for Agents\n::error::pwned \u202e\x9b31m 長期記憶を備えた対話エージェント"
    )
    abstract = "We give agents a long-term memory they write, retrieve and update. " * 6
    arxiv = ArxivDouble({"2610.00238": Paper("2610.00238", title, abstract=abstract)})
    env = environment(tmp_path, CURATOR_ARXIV_API_URL=arxiv.install(loopback))
    run = in_pty(["explain", "2610.00238"], listed, 60, env)
    assert run.status == 0
    head = " ".join(line.strip() for line in run.lines[:3])
    assert head.startswith("arxiv:2610.00238 — Long-Term Memory for Agents :\\x3aerror:\\x3apwned")
    assert run.widest() <= 60
    plain = SGR.sub("", run.out.split("\x1b[?25h")[-1])
    assert "\u202e" not in plain and "\x9b" not in plain
    assert not any(line.lstrip().startswith("::") for line in run.lines)
