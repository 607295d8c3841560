"""`curator fix`: the findings that have one safe answer, turned into edits of the list's files."""
