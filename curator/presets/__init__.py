"""Rules curator ships: `llm-memory.yaml` is the LLM-memory scope policy, a named preset."""
