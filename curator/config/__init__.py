"""Configuration: options, where config files are read, the check context, and the rule-file
parsers (links.yaml, projects.yaml) that checks and resolvers receive parsed."""
