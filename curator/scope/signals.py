"""The scope signals: what the official title and abstract say about memory, each with a quote.

Pure. A paper that passed the entry gate is read once into a `Reading`: a few named signals
taken from the policy (the sense of each memory mention, whether memory is the contribution,
who owns the memory, the policy's exclusion classes), each a number in [0, 1] with the
sentence that shows it, and the exclusion a rule of the policy proves, if any. The learned
scorer (curator/scope/scorer.py) weighs the signals; nothing here is learned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from curator.core.decision import PaperText, Quote

# Re-exported: the values of a reading live with the decision (the scorer needs them, not this).
from curator.core.decision import Proof as Proof
from curator.core.decision import Reading as Reading
from curator.core.decision import Signal as Signal
from curator.scope.matching import Hit, find_hits, sentence_of, sentence_spans, text_order
from curator.scope.rules import Cue, Rule, RuleKind, ScopeRules

#: Signals computed here rather than by one rule (rule signals are named by their rule id).
MEMORY_IN_TITLE = "memory-in-title"
MEMORY_IN_CONTRIBUTION = "memory-in-contribution"
MEMORY_NAMED = "memory-named-method"
MEMORY_OPENING = "memory-in-opening"
MEMORY_SHARE = "memory-share"
MEMORY_COMPONENT = "memory-one-component"
LM_SENSE = "memory-lm-sense"
OTHER_SENSE = "memory-other-sense"
OPERATION = "memory-operation"
NO_SUBJECT = "no-subject"

#: What each computed signal means, for `explain` and the docs.
MEANING = {
    MEMORY_IN_TITLE: "the title names memory",
    MEMORY_IN_CONTRIBUTION: "the contribution sentence (we propose/introduce ...) names memory",
    MEMORY_NAMED: "the title names the method after memory (Mem...)",
    MEMORY_OPENING: "the abstract opens on memory",
    MEMORY_SHARE: "share of abstract sentences that name memory",
    MEMORY_COMPONENT: "memory is one item of a list of components in the contribution sentence, "
    "not in the title, in at most a third of the sentences",
    LM_SENSE: "a memory word is a language model's or an agent's memory",
    OTHER_SENSE: "share of memory words in another sense (hardware, physical, LSTM)",
    OPERATION: "a memory sentence names an operation on memory (write, recall, forget ...)",
    NO_SUBJECT: "no language model, agent or memory evaluation is named",
}

# A method named after memory: `Mem` or `MEM` as a name part (MemFold, CAVE-Mem, ReMem, MEMO),
# not the start of an ordinary word (Memory, Members, Memento).
_MEMORY_NAME = re.compile(r"(?<![A-Za-z])\w*(?<![a-z])(?:Mem|MEM)(?![a-z]{2})\w*|\w+Mem(?![a-z])")

# Memory named as one item of a list ("A, B, and C"; "A, B or C") is one component among
# others (the policy: "附带模块" / incidental components do not qualify). The sentence is read
# as words and separators, once, left to right.
_LIST_TOKEN = re.compile(r"[,;:()]|\b(?:and|or|as well as)\b|[A-Za-z][\w'/-]*")
#: The most words a list item has (a longer stretch is a clause, not an item).
ITEM_WORDS = 4
#: The largest share of memory sentences at which a listed memory is still one component.
COMPONENT_SHARE = 1 / 3


def rule_hits(rule: Rule, paper: PaperText) -> list[Hit]:
    """Matches of a rule outside the summary, minus those whose sentence holds an exception."""
    fields = [f for f in rule.fields if f != "summary"]
    hits = find_hits(rule.patterns, paper, fields)
    if not rule.exceptions:
        return hits
    kept = []
    for hit in hits:
        text = paper.field(hit.field)
        a, b = sentence_of(text, hit.start)
        sentence = text[a:b] if b > a else text
        if not any(p.regex.search(sentence) for p in rule.exceptions):
            kept.append(hit)
    return kept


def cue_hits(rules: ScopeRules, cue: Cue, paper: PaperText, fields: list[str]) -> list[Hit]:
    """Matches of every rule of a cue, in text order (as one group of all their patterns)."""
    # Each rule's own pattern tuple: matching caches a plan per tuple by identity, so a tuple
    # built per paper would miss that cache every time and stay held in it.
    found = [h for r in rules.cues(cue) for h in find_hits(r.patterns, paper, fields)]
    return sorted(found, key=text_order)


def blocked(rule: Rule, paper: PaperText) -> bool:
    """True when an `unless` phrase occurs in the title, abstract or another field it reads."""
    # The official title and abstract always count: a rule that reads only the category
    # must still step aside when the abstract says the paper is about language models.
    fields = dict.fromkeys(("title", "abstract", *rule.fields))
    fields.pop("summary", None)
    return bool(rule.unless) and bool(find_hits(rule.unless, paper, fields))


def quote_of(paper: PaperText, hit: Hit, rule: str) -> Quote | None:
    """The sentence of the title or abstract holding `hit` (None for other fields)."""
    if hit.field not in ("title", "abstract"):
        return None
    text = paper.field(hit.field)
    a, b = sentence_of(text, hit.start)
    return Quote(hit.field, a, b, text[a:b], rule)


def read(paper: PaperText, rules: ScopeRules, gate_hits: list[Hit]) -> Reading:
    """Every signal of a gate-passing paper, and the exclusion a rule proves (if any)."""
    gate = rules.gate.id
    # The core rules' hits serve both the sense of memory and the subjects: found once.
    core = [(rule, rule_hits(rule, paper)) for rule in rules.of_kind(RuleKind.CORE)]
    senses, lm_sense = _senses(paper, rules, gate_hits, core)
    subjects = _subjects(paper, core)
    classes = _classes(paper, rules)
    signals = [
        *_centrality(paper, rules, gate_hits),
        Signal(LM_SENSE, 1.0 if lm_sense else 0.0, gate, lm_sense),
        _other_sense(paper, senses, gate_hits, gate),
        _operation(paper, rules, gate_hits),
        *subjects,
        Signal(NO_SUBJECT, 0.0 if _owners(subjects, rules) else 1.0, gate, None),
        *classes,
    ]
    proof = None if lm_sense else _proof(paper, rules, gate_hits, senses, subjects, classes)
    named = {s.rule for s in subjects}
    track = next((r.track for r in rules.of_kind(RuleKind.CORE) if r.id in named), "")
    return Reading(tuple(signals), proof, track)


def _centrality(paper: PaperText, rules: ScopeRules, gate_hits: list[Hit]) -> list[Signal]:
    """Whether memory is the contribution: title, contribution sentence, opening, share."""
    gate = rules.gate.id
    title = paper.title or ""
    abstract = paper.abstract or ""
    in_title = [h for h in gate_hits if h.field == "title"]
    parts = sentence_spans(abstract)
    with_memory = [(a, b) for a, b in parts if any(_within(h, "abstract", a, b) for h in gate_hits)]
    stated = _contributions(paper, rules, with_memory)
    contribution = stated[0] if stated else None
    named = _MEMORY_NAME.search(title)
    whole = _whole(title, gate)
    out = [
        Signal(MEMORY_IN_TITLE, 1.0 if in_title else 0.0, gate, whole if in_title else None),
        Signal(MEMORY_IN_CONTRIBUTION, 1.0 if contribution else 0.0, gate, contribution),
        Signal(MEMORY_NAMED, 1.0 if named else 0.0, gate, whole if named else None),
    ]
    opening = parts[0] if parts else None
    if opening is not None and opening in with_memory:
        a, b = opening
        out.append(Signal(MEMORY_OPENING, 1.0, gate, Quote("abstract", a, b, abstract[a:b], gate)))
    else:
        out.append(Signal(MEMORY_OPENING, 0.0, gate, None))
    share = len(with_memory) / len(parts) if parts else 0.0
    first = with_memory[0] if with_memory else None
    quote = Quote("abstract", *first, abstract[first[0] : first[1]], gate) if first else None
    out.append(Signal(MEMORY_SHARE, round(share, 6), gate, quote))
    # One component among others: every contribution sentence lists memory as one item.
    listed = not in_title and not named and share <= COMPONENT_SHARE and bool(stated)
    component = contribution if listed and all(_listed(q, gate_hits) for q in stated) else None
    out.append(Signal(MEMORY_COMPONENT, 1.0 if component else 0.0, gate, component))
    return out


def _listed(sentence: Quote, gate_hits: list[Hit]) -> bool:
    """True when every memory word of the sentence is an item of a list of three or more."""
    inside = [
        h.start - sentence.start
        for h in gate_hits
        if _within(h, "abstract", sentence.start, sentence.end)
    ]
    items = list_items(sentence.text)
    return bool(inside) and all(any(a <= i < b for a, b in items) for i in inside)


def list_items(text: str) -> list[tuple[int, int]]:
    """Spans of the items of every list of three or more short items in `text`.

    Pieces are the runs of words between separators; a list is pieces joined by commas and a
    final `and`/`or`, its inner pieces at most ITEM_WORDS words; the first item is the end of
    the piece before the list, the last the start of the piece after the conjunction.
    """
    pieces: list[list[tuple[int, int]]] = [[]]
    joins: list[str] = []  # between piece k and k + 1: ",", "and", ",and" or "|" (no list)
    for m in _LIST_TOKEN.finditer(text):
        word = m.group()
        if word[0].isalpha() and word not in ("and", "or", "as well as"):
            pieces[-1].append(m.span())
        elif word == "," or word in ("and", "or", "as well as"):
            link = "," if word == "," else "and"
            if not pieces[-1] and joins and joins[-1] == "," and link == "and":
                joins[-1] = ",and"  # the serial comma: ", and"
            elif pieces[-1]:
                joins.append(link)
                pieces.append([])
        elif pieces[-1]:
            joins.append("|")
            pieces.append([])
    spans: list[tuple[int, int]] = []
    for t, join in enumerate(joins):
        if join not in ("and", ",and") or t + 1 >= len(pieces):
            continue
        first = t
        while first > 0 and joins[first - 1] == "," and _item(text, pieces[first]):
            first -= 1
        if t + 2 - first < 3:
            continue
        head, tail = pieces[first][-ITEM_WORDS:], pieces[t + 1][:ITEM_WORDS]
        spans.append((head[0][0], head[-1][1]))
        spans += [(p[0][0], p[-1][1]) for p in pieces[first + 1 : t + 1] if p]
        if tail:
            spans.append((tail[0][0], tail[-1][1]))
    return spans


def _item(text: str, piece: list[tuple[int, int]]) -> bool:
    """A piece that can be an inner list item: a few words, not an apposition ("X, a Y, and")."""
    if not piece or len(piece) > ITEM_WORDS:
        return False
    a, b = piece[0]
    return text[a:b].lower() not in ("a", "an")


def _whole(title: str, rule: str) -> Quote:
    return Quote("title", 0, len(title), title, rule)


def _within(hit: Hit, field: str, a: int, b: int) -> bool:
    return hit.field == field and a <= hit.start < b


def _contributions(
    paper: PaperText, rules: ScopeRules, with_memory: list[tuple[int, int]]
) -> list[Quote]:
    """Every abstract sentence that states the contribution and names memory."""
    if not rules.cues(Cue.CONTRIBUTION):
        return []
    abstract = paper.abstract or ""
    hits = cue_hits(rules, Cue.CONTRIBUTION, paper, ["abstract"])
    return [
        Quote("abstract", a, b, abstract[a:b], rules.gate.id)
        for a, b in with_memory
        if any(a <= h.start < b for h in hits)
    ]


def _senses(
    paper: PaperText,
    rules: ScopeRules,
    gate_hits: list[Hit],
    core: list[tuple[Rule, list[Hit]]],
) -> tuple[list[tuple[Rule, list[Hit]]], Quote | None]:
    """(non-LM sense rules with their spans, the first memory sentence in an LM sense);
    `core` is each core rule with its hits."""
    other = []
    for rule in rules.of_kind(RuleKind.EXCLUSION):
        if rule.memory_sense and (hits := rule_hits(rule, paper)) and not blocked(rule, paper):
            other.append((rule, hits))
    lm = [h for r in rules.cues(Cue.MEMORY_SENSE) for h in rule_hits(r, paper)]
    subjects = [h for _, hits in core for h in hits]
    covered = [h for _, hits in other for h in hits]
    for hit in gate_hits:
        if _inside(hit, covered):
            continue
        text = paper.field(hit.field)
        a, b = sentence_of(text, hit.start)
        # An LM-sense phrase around the word, or a language model or agent in its sentence.
        if _inside(hit, lm) or any(_within(s, hit.field, a, b) for s in subjects):
            return other, quote_of(paper, hit, "cue-memory-sense")
    return other, None


def _other_sense(
    paper: PaperText, senses: list[tuple[Rule, list[Hit]]], gate_hits: list[Hit], gate: str
) -> Signal:
    """The share of memory words that another sense (hardware, physical, LSTM) explains."""
    covered = [h for _, hits in senses for h in hits]
    inside = [g for g in gate_hits if _inside(g, covered)]
    if not inside or not gate_hits:
        return Signal(OTHER_SENSE, 0.0, gate, None)
    rule = next(r for r, hits in senses if any(_inside(inside[0], [h]) for h in hits))
    quote = quote_of(paper, inside[0], rule.id)
    return Signal(OTHER_SENSE, round(len(inside) / len(gate_hits), 6), rule.id, quote)


def _operation(paper: PaperText, rules: ScopeRules, gate_hits: list[Hit]) -> Signal:
    """A memory sentence that names an operation on memory."""
    hits = cue_hits(rules, Cue.OPERATION, paper, ["title", "abstract"])
    for gate in gate_hits:
        text = paper.field(gate.field)
        a, b = sentence_of(text, gate.start)
        if any(_within(h, gate.field, a, b) for h in hits):
            return Signal(OPERATION, 1.0, "cue-operation", quote_of(paper, gate, "cue-operation"))
    return Signal(OPERATION, 0.0, "cue-operation", None)


def _subjects(paper: PaperText, core: list[tuple[Rule, list[Hit]]]) -> list[Signal]:
    """Each core subject (an agent, a language model, a memory evaluation) the paper names;
    `core` is each core rule with its hits."""
    out = []
    for rule, hits in core:
        if hits and not blocked(rule, paper):
            out.append(Signal(rule.id, 1.0, rule.id, _first_quote(paper, hits, rule.id)))
    return out


def _owners(subjects: list[Signal], rules: ScopeRules) -> list[Signal]:
    """The subjects that name who owns the memory (a language model, an agent)."""
    return [s for s in subjects if (r := rules.by_id(s.rule)) is not None and r.owner]


def _classes(paper: PaperText, rules: ScopeRules) -> list[Signal]:
    """The policy's exclusion classes that fire (topic rules and the skill gate)."""
    out = []
    for rule in rules.of_kind(RuleKind.EXCLUSION):
        if rule.memory_sense:
            continue
        hits = rule_hits(rule, paper)
        if hits and not blocked(rule, paper):
            out.append(Signal(rule.id, 1.0, rule.id, _first_quote(paper, hits, rule.id)))
    for rule in rules.of_kind(RuleKind.SKILL):
        missing = skill_missing(rule, paper)
        if missing:
            hits = rule_hits(rule, paper)
            out.append(Signal(rule.id, 1.0, rule.id, _first_quote(paper, hits, rule.id)))
    return out


def skill_missing(rule: Rule, paper: PaperText) -> tuple[str, ...]:
    """The lifecycle aspects a skill paper does not show (() when the rule does not apply)."""
    if not rule_hits(rule, paper) or blocked(rule, paper):
        return ()
    fields = [f for f in rule.fields if f != "summary"]
    return tuple(a for a, pats in rule.aspects.items() if not find_hits(pats, paper, fields))


def _first_quote(paper: PaperText, hits: list[Hit], rule: str) -> Quote | None:
    return next((q for h in hits if (q := quote_of(paper, h, rule)) is not None), None)


def _inside(hit: Hit, spans: list[Hit]) -> bool:
    return any(s.field == hit.field and s.start <= hit.start and hit.end <= s.end for s in spans)


def _proof(
    paper: PaperText,
    rules: ScopeRules,
    gate_hits: list[Hit],
    senses: list[tuple[Rule, list[Hit]]],
    subjects: list[Signal],
    classes: list[Signal],
) -> Proof | None:
    """The exclusion a rule proves for a paper with no memory in a language-model sense.

    Two rules of the policy, each shown by verbatim sentences: every memory word is another
    kind of memory (hardware, physical, a generic LSTM); or the paper names no language model
    or agent at all and an exclusion class outside language models fires (physics, pure
    vision, low-level robot control, hardware systems, adjacent fields).
    """
    covered = [h for _, hits in senses for h in hits]
    if senses and all(_inside(g, covered) for g in gate_hits):
        ids = tuple(r.id for r, _ in senses)
        quotes = distinct(quote_of(paper, h, r.id) for r, hits in senses for h in hits[:1])
        reason = (
            "every memory word in the title and abstract is another kind of memory ("
            + ", ".join(ids)
            + "), never a language model's or an agent's"
        )
        return Proof(ids, reason, quotes)
    off = [s for s in classes if (r := rules.by_id(s.rule)) is not None and r.off_topic]
    if off and not _owners(subjects, rules):
        ids = tuple(s.rule for s in off)
        memory = quote_of(paper, gate_hits[0], rules.gate.id)
        quotes = distinct([s.quote for s in off] + [memory])
        reason = (
            "names no language model, agent or memory evaluation, and falls in a class the "
            f"policy excludes ({', '.join(ids)}); the memory sentence is quoted"
        )
        return Proof(ids, reason, quotes)
    return None


def distinct(quotes: Iterable[Quote | None]) -> tuple[Quote, ...]:
    """The quotes, each sentence once, in order."""
    out: list[Quote] = []
    seen: set[tuple[str, int]] = set()
    for q in quotes:
        if q is not None and (q.field, q.start) not in seen:
            seen.add((q.field, q.start))
            out.append(q)
    return tuple(out)
