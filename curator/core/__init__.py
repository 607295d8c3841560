"""The values every layer passes on (entries, findings, decisions, outcomes), the finding codes,
the two exceptions, subjects, and helpers that import nothing of curator."""
