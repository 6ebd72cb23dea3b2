"""Data and tables: questions over generated CSV, JSON, spreadsheets, diffs and logs, answered by hand."""
