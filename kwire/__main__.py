"""``python -m kwire`` is the ``kwire`` command."""

from kwire.cli import main

raise SystemExit(main())
