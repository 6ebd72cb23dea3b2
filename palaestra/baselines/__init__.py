"""Baseline policies and the evaluation harness."""
