"""One run put together: the rules folder, the typed registries, the pipeline."""
