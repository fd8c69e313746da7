"""``python -m kernel COMMAND …`` is ``sprint-kernel COMMAND …``."""

from kernel.cli.main import main

raise SystemExit(main())
