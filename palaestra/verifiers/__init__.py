"""Reusable, bounded checking logic shared by environments.

Nothing here evaluates model text with ``eval``/``exec``/``sympify``: numbers and
expressions are read by whitelisting parsers with size bounds (see ``expressions``).
"""
