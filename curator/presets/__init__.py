"""Rules curator ships: `llm-memory.yaml` is the LLM-memory scope policy, a named preset,
with its learned scorer `scope-scorer.json` (copies of this repository's rules/ files)."""
