"""Bounded retries for generators: draw candidates until one passes, or fail loudly.

Generators often draw a random instance and reject it (no unique solution, a trivial
answer, a degenerate graph). An unbounded ``while True:`` turns a generator bug into a
hang inside a training run; :func:`retry` turns it into a clear error after ``attempts``.

Example::

    >>> import random
    >>> rng = random.Random(0)
    >>> retry(lambda: rng.randrange(100), accept=lambda n: n % 7 == 0, what="a multiple of 7")
    49
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

DEFAULT_ATTEMPTS = 1_000


class GenerationError(RuntimeError):
    """A generator found no acceptable candidate within its attempt budget (a bug or an impossible config)."""


def retry(draw: Callable[[], T | None], accept: Callable[[T], bool] | None = None, *,
          attempts: int = DEFAULT_ATTEMPTS, what: str = "a valid problem") -> T:
    """The first candidate from ``draw()`` that is not None and passes ``accept``.

    ``draw`` may return None to reject a candidate itself. Raises :class:`GenerationError`
    naming ``what`` after ``attempts`` rejected candidates.
    """
    for _ in range(attempts):
        candidate = draw()
        if candidate is not None and (accept is None or accept(candidate)):
            return candidate
    raise GenerationError(f"could not find {what} in {attempts} attempts; the config may be impossible")
