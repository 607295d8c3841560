"""arXiv's empty page: a well-formed feed with no entry, which arXiv sends under load.

It is no proof that the papers asked do not exist. A batch of one ID is asked beside CONTROL,
a paper arXiv has, so every answer that can say "not found" lists an entry for the same
batch. An empty answer is asked again in halves, down to single IDs (each asked twice);
a single ID that still gets nothing is unverified. After EMPTY_LIMIT empty answers and none
with entries, arXiv is taken to be sending only empty pages and is not asked again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from curator.core.outcomes import Outcome, Unverified

#: Empty answers, with none holding entries, after which arXiv is not asked again this run.
EMPTY_LIMIT = 3
EMPTY_ONLY = "arXiv answered with empty pages only"
#: A paper arXiv has (1706.03762, "Attention Is All You Need"), asked beside a lone ID so
#: that an answer without that ID still lists an entry, proving arXiv's index answered.
CONTROL = "1706.03762"


def with_control(batch: list[str]) -> list[str]:
    """The IDs to send for `batch`: a lone ID goes with CONTROL."""
    return [*batch, CONTROL] if len(batch) == 1 and batch[0] != CONTROL else batch


class EmptyPages:
    """The empty answers of one run, and what to ask next after each."""

    def __init__(self) -> None:
        self.proven = False
        self.count = 0
        self.retried: set[str] = set()

    def hopeless(self) -> bool:
        """True when every answer so far was empty and there were too many of them."""
        return not self.proven and self.count >= EMPTY_LIMIT

    def empty(
        self, batch: list[str], batches: deque[list[str]], asked: Mapping[str, str]
    ) -> dict[str, Outcome]:
        """Queue `batch` again, smaller; a single ID asked twice in vain is unverified."""
        self.count += 1
        if len(batch) > 1:
            half = len(batch) // 2
            batches.extendleft([batch[half:], batch[:half]])
            return {}
        if batch[0] not in self.retried:
            self.retried.add(batch[0])
            batches.appendleft(batch)
            return {}
        subject = asked[batch[0]]
        return {subject: Unverified(subject, EMPTY_ONLY)}
