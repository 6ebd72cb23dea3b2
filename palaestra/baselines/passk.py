"""Unbiased pass@k: the chance that at least one of k samples is correct, estimated from n >= k samples.

The estimator of Chen et al. (2021), ``1 - C(n - c, k) / C(n, k)`` for ``c``
correct samples out of ``n``, computed as a product of terms in (0, 1] so that
no huge binomial coefficient is ever formed.

Example::

    >>> pass_at_k(n=10, c=3, k=1)
    0.3
    >>> round(pass_at_k(n=10, c=3, k=5), 4)
    0.9167
    >>> mean_pass_at_k([(10, 0), (10, 10), (2, 1)], k=5)  # the last problem has too few samples for k=5
    (0.5, 2)
"""

from __future__ import annotations

from collections.abc import Iterable


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one problem with ``c`` correct among ``n`` samples (needs ``1 <= k <= n``)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")
    if n - c < k:  # every k-subset holds a correct sample
        return 1.0
    # C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k / i)
    miss = 1.0
    for i in range(n - c + 1, n + 1):
        miss *= 1.0 - k / i
    return round(1.0 - miss, 12)  # drop float dust so exact cases print exactly


def mean_pass_at_k(counts: Iterable[tuple[int, int]], k: int) -> tuple[float, int]:
    """Mean pass@k over problems given as ``(n, c)``, and how many problems had ``n >= k`` samples to count.

    Problems with fewer than ``k`` judged samples (e.g. after infrastructure
    errors) are left out rather than guessed; the mean of none is NaN.
    """
    values = [pass_at_k(n, c, k) for n, c in counts if n >= k]
    return (sum(values) / len(values) if values else float("nan")), len(values)
