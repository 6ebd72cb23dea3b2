"""Bridges to other tools: trainers, dataset files, environment servers, OpenAI-compatible model servers, suites.

- :mod:`~palaestra.integrations.trl`: TRL datasets, reward function, environments and tools, curriculum callback;
- :mod:`~palaestra.integrations.verl` and :mod:`~palaestra.integrations.verl_agent`: verl's reward function and
  agent loop;
- :mod:`~palaestra.integrations.openrlhf` and :mod:`~palaestra.integrations.openrlhf_agent`: OpenRLHF's reward
  function, ``/get_reward`` server and agent function;
- :mod:`~palaestra.integrations.verifiers_env`: any env as a verifiers (Prime Intellect) environment, plugin id
  ``palaestra_verifiers``;
- :mod:`~palaestra.integrations.openenv_server`: every env over the OpenEnv protocol (``palaestra serve``);
- :mod:`~palaestra.integrations.export`: Hugging Face, verl and OpenRLHF dataset files (``palaestra export``);
- :mod:`~palaestra.integrations.suites`: named, versioned evaluation suites, re-verification, reports;
- :mod:`~palaestra.integrations.openai_client`: an OpenAI-compatible chat client for evaluation.

Each module imports its trainer's package only when used (``pip install "palaestra[trl]"`` and so on).
"""
