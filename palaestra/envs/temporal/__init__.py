"""Temporal reasoning: clocks, calendars and durations."""
