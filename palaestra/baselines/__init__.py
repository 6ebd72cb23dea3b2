"""Baselines: the REINFORCE trainer, its rollout engine, local policies and the evaluation harness.

Modules, lowest first (each imports only those before it): ``policy`` (the
``LMPolicy`` interface), ``decoder`` (cached transformers for sampling), ``tiny``
and ``hf`` (the two policies), ``models`` (``load_policy``), ``engine`` (the
rollout engine), ``passk``, ``policies`` (oracle and random), ``evaluate``,
``vllm_chat`` (optional vLLM), ``reinforce`` (the trainer).
"""
