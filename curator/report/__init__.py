"""Report renderers: pure functions of one Report into text, Markdown, JSON, SARIF, GitHub."""
