"""`curator discover`: new arXiv papers for the list, screened by the scope engine."""
