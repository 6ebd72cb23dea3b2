"""Coding environments: write a function or a program that passes hidden tests run in the sandbox.

Specifications are generated (pipelines of list and string operations, integer sequences,
dynamic programmes over grids, knapsacks and subsequences, stdin/stdout query processors,
programs with an injected bug); expected outputs come from trusted reference callables of
ours; the candidate runs only in :mod:`palaestra.sandbox` through
:mod:`palaestra.verifiers.code`. Shared helpers: :mod:`.common` and :mod:`.pipelines`.
"""
