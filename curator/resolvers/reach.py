"""What a run's answers say about the network, and what that makes of transport failures.

A DNS "no such host" or a TLS failure looks the same whether the link is dead or the machine
has no network at all. It is proof of a broken link only when the network demonstrably works
in the same run: another web host answered, or an API service answered and this was the only
link that failed so. Otherwise the links are unverified, with one note, and exit 0 follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from curator.core.model import Service
from curator.core.outcomes import NotFound, Outcome, Unverified

UNREACHABLE = "network unreachable"


@dataclass(frozen=True)
class Settled:
    """Outcomes after the network question, and the notes it adds to the report."""

    outcomes: dict[str, Outcome]
    notes: list[str]
    #: No web host answered, so the links that could not be reached are unverified.
    unreachable: bool = False


def network_proven(heard: Iterable[str], transport_failures: int) -> bool:
    """True when the run's answers show the network works for these failures to be real."""
    who = set(heard)
    if any(name.startswith("web:") for name in who):
        return True
    # An API answered, but every web lookup failed: one failure may be a dead host; many
    # failures and no web answer at all mean the web resolver itself fails.
    return bool(who) and transport_failures <= 1


def settle(outcomes: Mapping[str, Outcome], heard: Iterable[str]) -> Settled:
    """Turn transport NotFounds into Unverified when the network is not shown to work."""
    failed = {s: o.reason for s, o in outcomes.items() if isinstance(o, NotFound) and o.transport}
    out = dict(outcomes)
    if not failed or network_proven(heard, len(failed)):
        return Settled(out, [])
    for subject, reason in failed.items():
        out[subject] = Unverified(subject, f"{UNREACHABLE} ({reason})")
    note = (
        f"{UNREACHABLE}: no web host answered in this run, so {len(failed)} links whose "
        "host could not be reached (DNS, TLS) are unverified, not broken"
    )
    return Settled(out, [note], unreachable=True)


def unasked_notes(asked: Mapping[str, Iterable[str]], outcomes: Mapping[str, Outcome]) -> list[str]:
    """One note per service none of whose subjects could be verified in this run."""
    notes: list[str] = []
    for service, subjects in asked.items():
        got = [outcomes[s] for s in subjects if s in outcomes]
        reasons = [o.reason for o in got if isinstance(o, Unverified)]
        if got and len(reasons) == len(got):
            count = f"{len(got)} subjects unverified ({reasons[0]})"
            notes.append(f"{service} could not be asked: {count}")
    return notes


def settle_run(
    outcomes: Mapping[str, Outcome], heard: Iterable[str], asked: Mapping[Service, Iterable[str]]
) -> Settled:
    """`settle`, plus a note for each service none of whose subjects was verified."""
    settled = settle(outcomes, heard)
    notes = unasked_notes({service.value: v for service, v in asked.items()}, settled.outcomes)
    return Settled(settled.outcomes, settled.notes + notes, settled.unreachable)


#: Services whose unverified subject says the service itself failed (a failed batch, a rate
#: limit, a give-up); a web link's says only that its own host did not answer.
WHOLE_SERVICE = frozenset({Service.ARXIV, Service.GITHUB})


def outages(
    asked: Mapping[Service, Iterable[str]], settled: Settled, spent: Iterable[Service]
) -> tuple[Service, ...]:
    """The services that could not be asked as a whole in this run: arXiv or GitHub leaving
    any subject unverified, a service whose budget ran out (`spent`), the web when no host
    answered, and any service none of whose subjects was verified."""
    down = set(spent) | ({Service.WEB} if settled.unreachable else set())
    for service, subjects in asked.items():
        got = [settled.outcomes.get(s) for s in subjects]
        unverified = [o for o in got if isinstance(o, Unverified)]
        if unverified and (service in WHOLE_SERVICE or len(unverified) == len(got)):
            down.add(service)
    return tuple(s for s in Service if s in down)
