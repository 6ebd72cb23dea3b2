"""Policy-bound service agents: serve a customer's request with domain functions over generated records."""
