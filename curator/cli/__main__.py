"""`python -m curator.cli`: the same command line as `curator`."""

from curator.cli.app import main

raise SystemExit(main())
