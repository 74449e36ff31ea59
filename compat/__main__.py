"""``python -m compat``: see compat/cli.py."""

import sys

from compat.cli import main

sys.exit(main())
