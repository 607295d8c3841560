"""Resolvers turn subjects into outcomes by asking arXiv, GitHub and the web (batched, cached)."""
