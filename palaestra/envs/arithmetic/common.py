"""Number theory the arithmetic envs share: primality and the primes below a bound (each written once).

>>> is_prime(97), is_prime(1_000_001), primes_below(12)
(True, False, (2, 3, 5, 7, 11))
"""

from __future__ import annotations

import functools
import math

WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # Miller-Rabin bases: exact below 3.3 * 10^24


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin, exact for every n below 3.3 * 10^24."""
    if n < 2:
        return False
    for p in WITNESSES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:  # at most log2(n) halvings
        d, s = d // 2, s + 1
    for a in WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.cache
def primes_below(limit: int) -> tuple[int, ...]:
    """The primes below ``limit``, by a sieve."""
    if limit < 3:
        return ()
    sieve = bytearray([1]) * limit
    sieve[:2] = b"\x00\x00"
    for p in range(2, math.isqrt(limit - 1) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytearray(len(range(p * p, limit, p)))
    return tuple(i for i in range(limit) if sieve[i])
