"""curator: verification bot for curated awesome-lists of LLM-memory research."""

__version__ = "0.1.0"
