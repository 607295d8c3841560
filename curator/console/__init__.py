"""The terminal: escaping untrusted text, colours, live progress."""
