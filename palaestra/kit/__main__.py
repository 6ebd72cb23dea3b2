"""``python -m palaestra.kit ID ...``: run the contract kit on the named envs (all when none)."""

from palaestra.kit import main

raise SystemExit(main())
