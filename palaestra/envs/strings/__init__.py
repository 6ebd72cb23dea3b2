"""Strings: exact string manipulation and composition of string functions."""
