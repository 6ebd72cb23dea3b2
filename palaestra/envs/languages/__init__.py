"""Formal languages: grammars, regular expressions, automata and rewriting, checked by parsers and matchers."""
