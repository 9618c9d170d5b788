"""``python -m privbounds``: the command line (privbounds/cli.py)."""

import sys

from privbounds.cli import main

sys.exit(main())
