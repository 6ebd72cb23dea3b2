"""What the playground's tests share: a server answering on a thread for the length of a test."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def serving(server: Any) -> Iterator[Any]:
    """``server`` (from :func:`palaestra.ui.make_server`) serving on a daemon thread; shut and closed after."""
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
