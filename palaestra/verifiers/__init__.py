"""Reusable, bounded checking logic shared by environments.

Nothing here evaluates model text with ``eval``/``exec``/``sympify`` in this process: numbers and
expressions are read by whitelisting parsers with size bounds (``numeric``, ``expressions``,
``symbolic``), answers by the shared readers (``normalize``, ``sets``, ``assignments``, ``choices``,
``blocks``, ``moves``, ``chess_moves``). The one exception is ``code_harness``, a program that runs
model code, and it only ever runs inside the sandbox (see ``code``).
"""
