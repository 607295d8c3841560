"""`python -m curator` runs the command line."""

from curator.cli import main

raise SystemExit(main())
