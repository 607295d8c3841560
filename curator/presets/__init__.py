"""Rules curator ships: named scope presets, each one list's own screening policy.

`iaar-ai-memory.yaml` is the screening policy of IAAR-Shanghai/Awesome-AI-Memory (policy
version 2026-10-09: its hard memory-word gate and the classes its maintainers judge), with its
learned scorer `scope-scorer.json` (copies of this repository's rules/ files). A preset is
another list's editorial policy: a list adopts it knowingly, never by default. The old name
`llm-memory` stays an alias.
"""

#: Scope presets shipped with curator (curator/presets/NAME.yaml).
SCOPE_PRESETS = ("iaar-ai-memory",)
#: Earlier names of a preset, still accepted.
ALIASES = {"llm-memory": "iaar-ai-memory"}
#: The help text of `--scope-preset` wherever a command takes it.
PRESET_HELP = (
    "a shipped scope policy: iaar-ai-memory (IAAR-Shanghai/Awesome-AI-Memory's screening "
    "policy of 2026-10-09, with a hard memory-word gate; alias llm-memory). Without a "
    "policy of its own, a list gets no hard gate and no scope errors"
)
