"""Sources read entries: the YAML catalogue (`data/`) or an awesome-list document."""
