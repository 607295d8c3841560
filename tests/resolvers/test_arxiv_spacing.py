"""arXiv's spacing holds across runs that share a cache file (arXiv counts all our machines)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from curator.config.options import Options
from curator.core.outcomes import Counter, Found
from curator.net.cache import Cache
from curator.resolvers.arxiv import LAST_REQUEST, ArxivResolver
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

DELAY = 0.4


def _run(options: Options, cache_file: Path, base: str) -> None:
    # A new Cache and resolver per run: only the file is shared, as between two processes.
    cache = Cache(cache_file)
    out = ArxivResolver(options, cache, Counter()).resolve([f"arxiv:{base}"])
    assert isinstance(out[f"arxiv:{base}"], Found)
    cache.close()


def test_second_run_waits_out_the_first_runs_spacing(
    loopback: LoopbackServer, tmp_path: Path
) -> None:
    double = ArxivDouble({b: Paper(b, f"Paper {b}") for b in ("2301.00001", "2301.00002")})
    options = replace(Options(), arxiv_api_url=double.install(loopback), arxiv_delay=DELAY)
    cache_file = tmp_path / "cache.sqlite"
    _run(options, cache_file, "2301.00001")
    assert Cache(cache_file).stamp(LAST_REQUEST) is not None
    _run(options, cache_file, "2301.00002")
    assert len(double.requests()) == 2
    assert double.gaps()[0] >= DELAY * 0.95


def test_no_cache_means_no_cross_run_stamp(loopback: LoopbackServer) -> None:
    double = ArxivDouble({"2301.00001": Paper("2301.00001", "P")})
    options = replace(Options(), arxiv_api_url=double.install(loopback), arxiv_delay=DELAY)
    out = ArxivResolver(options, Cache(None), Counter()).resolve(["arxiv:2301.00001"])
    assert isinstance(out["arxiv:2301.00001"], Found)
