"""`curator explain` and `curator scope train|evaluate`: the scope policy from the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.core.errors import UsageError
from curator.presets import PRESET_HELP

if TYPE_CHECKING:
    from curator.config.links import LinkRules
    from curator.config.options import Options
    from curator.core.model import Entry
    from curator.core.outcomes import Outcome
    from curator.lab.crosslist import Listed
    from curator.net.cache import Cache
    from curator.run.rules import Rules
    from curator.scope.explain_list import Asked
    from curator.scope.records import Record
    from curator.scope.relevance import Relevance


def add_explain(sub: Any) -> None:
    """`curator explain ARXIV_ID [--lang en|zh] [--offline] [--rules DIR] [--scope-preset NAME]`."""
    p = sub.add_parser("explain", help="the scope decision trail for one arXiv paper")
    p.add_argument("arxiv_id", metavar="ARXIV_ID", help="e.g. 2305.10250 or an arXiv URL")
    p.add_argument("--lang", default="en", choices=["en", "zh"], help="language of the trail")
    p.add_argument("--offline", action="store_true", default=None, help="use only the cache")
    # The same two as `check`: a list set up with `curator init --scope-preset` has no
    # rules/scope.yaml, and its trail must be the one its checks follow.
    p.add_argument("--rules", metavar="DIR", help="rules folder (default: rules/)")
    p.add_argument("--scope-preset", metavar="NAME", help=PRESET_HELP)
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="add the scorer's formulas and weights (without a policy: affinity, standing, "
        "P(relevant))",
    )
    p.set_defaults(run=run_explain)


def run_explain(args: argparse.Namespace) -> int:
    """Resolve one paper (cache first), apply the list's scope policy, print the trail; a list
    without one is its own scope (`_explain_against_list`)."""
    from curator.cli.check import options_from
    from curator.console.terminal import fit, terminal_width
    from curator.core.model import Entry, Kind, Source
    from curator.core.normalize import link_for, parse_arxiv_id
    from curator.run.rules import read_rules_folder
    from curator.scope.explain import explain
    from curator.scope.stage import paper_text

    parsed = parse_arxiv_id(args.arxiv_id)
    if parsed is None:
        raise UsageError(f"{args.arxiv_id!r} is not a valid arXiv identifier")
    options = options_from(args)
    rules = read_rules_folder(options)
    if rules.scope is None:
        # No policy: the list's own papers are its scope, as `check` weighs a pull request.
        return _explain_against_list(args, options, rules, parsed.subject, parsed.base)
    # Without the official title and abstract (a note says so) the trail decides on nothing.
    outcome = _resolved(parsed.subject, parsed.base, options, rules.links, None)
    link = link_for("paper", f"https://arxiv.org/abs/{parsed.base}")
    entry = Entry(parsed.subject, Kind.PAPER, Source("<command line>", 1), links=(link,))
    paper = paper_text(entry, outcome)
    from curator.scope.recorded import recorded_decisions

    # The decisions file, the screening records and the inline markers of the list's files
    # (when the list can be read: the policy's trail does not need it otherwise).
    recorded = recorded_decisions(options, rules.scope_decisions, _list_files(options)).get(
        parsed.subject
    )
    trail = explain(
        parsed.subject,
        paper,
        rules.scope,
        lang=args.lang,
        verbose=args.verbose,
        recorded=recorded,
    )
    # The title, quotes and rule texts are not ours: inert, and fitted to the terminal.
    sys.stdout.write(fit(trail, terminal_width(sys.stdout)) + "\n")
    return 0


def _list_files(options: Options) -> tuple[str, ...]:
    """The files the list is read from, for their inline markers; none when it cannot be read."""
    from curator.checks.interface import CheckContext
    from curator.core.errors import InputError
    from curator.run.pipeline import load

    try:
        entries = load(options.paths, CheckContext(options)).entries
    except InputError:
        return ()
    # As `check` names them: the files its entries were read from, as the paths gave them.
    return tuple(dict.fromkeys(e.source.file for e in entries))


def _resolved(
    subject: str,
    base: str,
    options: Options,
    links: LinkRules | None,
    cache: Cache | None,
    note: bool = True,
) -> Outcome | None:
    """arXiv's answer for the paper (cache first), None when arXiv is skipped; with `note`, a
    note on stdout when arXiv could not be asked."""
    from curator.console.terminal import inert
    from curator.core.model import Entry, Kind, Service, Source
    from curator.core.normalize import link_for
    from curator.core.outcomes import Unverified
    from curator.run.pipeline import resolve

    if options.skips(Service.ARXIV):
        return None
    link = link_for("paper", f"https://arxiv.org/abs/{base}")
    entry = Entry(subject, Kind.PAPER, Source("<command line>", 1), links=(link,))
    outcome = resolve([entry], options, links, cache).outcomes.get(subject)
    if note and isinstance(outcome, Unverified):
        print(f"note: arXiv could not be asked ({inert(outcome.reason)}); no official metadata")
    return outcome


def _explain_against_list(
    args: argparse.Namespace, options: Options, rules: Rules, subject: str, base: str
) -> int:
    """A list without a scope policy: the paper against the list's own papers, with the model
    and verdict `check` uses in a pull request (the asked paper left out of it)."""
    from curator.console.terminal import fit, terminal_width
    from curator.run.pipeline import open_cache, screening_records
    from curator.scope.explain_list import explain_against_list
    from curator.scope.recorded import recorded_decisions

    missing = [p for p in options.paths if not Path(p).exists()]
    if missing:
        # Nothing to weigh the paper against: say why explain wanted a list at all.
        raise UsageError(
            f"no scope policy (rules/scope.yaml or scope_preset) and no list at {missing[0]} to "
            "weigh the paper against: run it in the list's repository, or give --scope-preset"
        )
    records = screening_records(options)
    cache = open_cache(options)
    try:
        asked, entries, rel, listed = _against_list(
            subject, base, options, rules.links, records, cache
        )
    finally:
        cache.close()
    files = (e.source.file for e in entries)
    recorded = recorded_decisions(options, rules.scope_decisions, files, records).get(subject)
    trail = explain_against_list(asked, rel, listed, recorded, args.lang, args.verbose)
    sys.stdout.write(fit(trail, terminal_width(sys.stdout)) + "\n")
    return 0


def _against_list(
    subject: str,
    base: str,
    options: Options,
    links: LinkRules | None,
    records: Sequence[Record] | None,
    cache: Cache,
) -> tuple[Asked, tuple[Entry, ...], Relevance | None, int]:
    """What explain knows of the paper, the list's entries (read by the pipeline's load stage,
    as `check` reads them), the model's reading of the paper (None with no title or too few
    listed papers) and how many listed papers the model was learned from."""
    from curator.checks.interface import CheckContext
    from curator.core.meta import paper_meta
    from curator.core.model import Kind
    from curator.core.outcomes import Found, Moved, NotFound
    from curator.run.pipeline import load
    from curator.scope.explain_list import Asked
    from curator.scope.relevance import Paper
    from curator.scope.relevant import learn

    entries = load(options.paths, CheckContext(options), cache).entries
    # The trail says when arXiv could not be asked, and why.
    outcome = _resolved(subject, base, options, links, cache, note=False)
    papers = [e for e in entries if e.kind is Kind.PAPER]
    held = next((e for e in papers if e.subject == subject), None)
    others = [e for e in papers if e.subject != subject]
    official = paper_meta(outcome.meta).title if isinstance(outcome, Found | Moved) else None
    # arXiv's title, else the list's (what `check` compares); '' when neither is known.
    title = str(official or (held.title if held else ""))
    absent = (outcome.reason or "not found") if isinstance(outcome, NotFound) else ""
    asked = Asked(subject, title, held, _unasked(outcome, bool(official)), absent)
    model = learn(others, records or (), cache, {subject}) if title else None
    section = held.section if held is not None else ""
    rel = model.score(Paper(subject, title, "", section)) if model is not None else None
    return asked, entries, rel, len({e.subject for e in others})


def _unasked(outcome: Outcome | None, titled: bool) -> str:
    """Why arXiv gave no title for the paper ('' when it gave one)."""
    from curator.core.outcomes import Blocked, Unverified

    if titled:
        return ""
    if isinstance(outcome, Unverified | Blocked):
        return " ".join(outcome.reason.split())
    return "arxiv is skipped in this run" if outcome is None else "no title in its answer"


def add_scope(sub: Any) -> None:
    """`curator scope train|evaluate RECORDS... [--rules FILE] ...`."""
    p = sub.add_parser("scope", help="train and evaluate the scope policy's learned scorer")
    tasks = p.add_subparsers(dest="scope_command", metavar="TASK", required=True)
    t = tasks.add_parser("train", help="train the scorer from screening records")
    t.add_argument("records", nargs="+", metavar="RECORDS", help="*-review.json files or folders")
    t.add_argument("--out", required=True, metavar="FILE", help="scorer JSON to write")
    t.add_argument("--rules", metavar="FILE", help="scope rules (default: rules/scope.yaml)")
    t.set_defaults(run=run_scope_train)
    e = tasks.add_parser(
        "evaluate", help="forward-chained and lock-box evaluation against TF-IDF + LR"
    )
    e.add_argument(
        "records",
        nargs="*",
        metavar="RECORDS",
        help="*-review.json files or folders (required unless --list)",
    )
    e.add_argument(
        "--list",
        action="append",
        metavar="FILE",
        help="measure the relevance learned from this list's own papers (repeat: each list "
        "against the others); with --out FILE, only the page's relevance section is rewritten",
    )
    e.add_argument("--rules", metavar="FILE", help="scope rules (default: rules/scope.yaml)")
    e.add_argument(
        "--out", default="-", metavar="FILE", help="Markdown to write (default: '-', stdout)"
    )
    sealed = e.add_mutually_exclusive_group()
    sealed.add_argument(
        "--lock-box", action="store_true", help="also score the sealed latest quarter, once"
    )
    sealed.add_argument(
        "--batch",
        action="append",
        metavar="FILE",
        help="score a new screening batch with the shipped scorer (trained on RECORDS) instead",
    )
    e.set_defaults(run=run_scope_evaluate)


def run_scope_evaluate(args: argparse.Namespace) -> int:
    """Evaluate the rules and scorer procedure on the records; write the Markdown report."""
    from curator.cli.check import options_from
    from curator.lab.evaluate import evaluation
    from curator.run.rules import rules_folder

    if args.list:
        return _evaluate_lists([Path(p) for p in args.list], args.out)
    if not args.records:
        raise UsageError("scope evaluate takes screening RECORDS, or --list FILE")
    options = options_from(args)
    rules = Path(args.rules or rules_folder(options) / "scope.yaml")
    records = [Path(r) for r in args.records]
    if args.batch:
        from curator.lab.batch import evaluate_batch, render_batch

        batch = evaluate_batch(rules, records, [Path(b) for b in args.batch])
        write(render_batch(batch), args.out)
        return 0
    write(evaluation(rules, records, args.lock_box), args.out)
    return 0


def _evaluate_lists(paths: list[Path], out: str) -> int:
    """The relevance evaluation of these lists: to stdout, or spliced into the page `out`."""
    from curator.lab.crosslist import evaluate, render, splice

    for path in paths:
        if not path.is_file():
            raise UsageError(f"--list {path}: no such file")
    section = render(evaluate([read_list(p) for p in paths]), paths)
    if out != "-" and Path(out).is_file():
        section = splice(Path(out).read_text(encoding="utf-8"), section)
    write(section, out)
    return 0


def write(text: str, out: str) -> None:
    """The page to `out` ('-': standard output). A page regenerated from the screening
    records keeps the relevance section `curator scope evaluate --list` wrote into it."""
    if out == "-":
        sys.stdout.write(text)
        return
    from curator.lab.crosslist import section_of, splice

    kept = section_of(Path(out).read_text(encoding="utf-8")) if Path(out).is_file() else ""
    if kept and not section_of(text):
        text = splice(text, kept)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text, encoding="utf-8")


def read_list(path: Path) -> Listed:
    """The papers of a list document or catalogue, titles as the list gives them."""
    from curator.core.model import Kind
    from curator.lab.crosslist import Listed
    from curator.run.pipeline import load
    from curator.scope.relevance import Paper

    loaded = load([str(path)])
    papers = [
        Paper(e.subject, e.title, "", e.section)
        for e in loaded.entries
        if e.kind is Kind.PAPER and e.title.strip()
    ]
    return Listed(path.name, tuple(papers))


def run_scope_train(args: argparse.Namespace) -> int:
    """Refuse records that fail the policy's checks, train, write the scorer, say what."""
    from curator.cli.check import options_from
    from curator.lab.train import train_files
    from curator.run.rules import rules_folder

    options = options_from(args)
    rules = Path(args.rules or rules_folder(options) / "scope.yaml")
    command = " ".join(["curator scope train", *args.records, "--out", args.out])
    scorer = train_files(args.records, rules, Path(args.out), command)
    about = scorer.provenance
    words = len(scorer.lexical.weights) if scorer.lexical is not None else 0
    floor = ""
    if scorer.floor is not None and scorer.recall is not None:
        floor = f", floor {scorer.floor:.3f} ({100 * scorer.recall:.0f} % of includes reach it)"
    print(
        f"{args.out}: {len(scorer.weights)} signal weights and {words} lexical terms from "
        f"{about['examples']} gate-passing records ({about['includes']} include), include "
        f"threshold {scorer.threshold:.3f}{floor}"
    )
    return 0
