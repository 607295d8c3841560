"""Reading text: files and git revisions, JSON, located YAML."""
