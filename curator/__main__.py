"""`python -m curator` runs the command line."""

from curator import heap
from curator.cli import main

status = main()
heap.before_exit()
raise SystemExit(status)
