"""A local Hugging Face model run by vLLM in this process, for ``palaestra eval --engine vllm``.

Optional: vLLM is imported only here, and only when asked for (it needs a CUDA
machine and ``pip install vllm``). The built-in rollout engine
(:mod:`palaestra.baselines.engine`) needs neither and is the default. vLLM gets
each turn of a suite's unfinished episodes as one batch of chat requests (its own
scheduler batches them continuously); per-request seeds keep samples distinct and
reproducible. Training with vLLM (colocated generation with weights synced after
each update) is not implemented: ``palaestra train`` uses the built-in engine.

Example::

    from palaestra.baselines.evaluate import Suite, run_suite
    from palaestra.baselines.vllm_chat import VLLMChat

    model = VLLMChat("/models/Qwen2.5-0.5B-Instruct", max_new_tokens=512)
    result = run_suite(model, Suite(("arithmetic/expression",)), samples=4, ks=(1, 4))
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from palaestra.baselines.policy import Message

VLLM_INSTALL_HINT = "--engine vllm needs vLLM on a CUDA machine: pip install vllm (the default engine needs neither)"


class VLLMChat:
    """A :class:`~palaestra.baselines.evaluate.ChatModel` backed by ``vllm.LLM`` over a local model directory."""

    def __init__(self, path: str | Path, max_new_tokens: int = 512, temperature: float = 1.0,
                 max_context: int = 4096, **llm_kwargs: Any) -> None:
        if importlib.util.find_spec("vllm") is None:
            raise ValueError(VLLM_INSTALL_HINT)
        import vllm

        self.path = Path(path)
        if not self.path.is_dir():
            raise ValueError(f"no model directory at {self.path} (vLLM reads a local directory; nothing is downloaded)")
        self.name = f"vllm:{self.path.name}"
        self.max_new_tokens, self.temperature = max_new_tokens, temperature
        self._sampling = vllm.SamplingParams
        self.llm = vllm.LLM(model=str(self.path), max_model_len=max_context, seed=0, **llm_kwargs)

    def complete(self, conversations: Sequence[Sequence[Message]], seeds: Sequence[int]) -> list[str]:
        params = [self._sampling(temperature=self.temperature, max_tokens=self.max_new_tokens, seed=seed)
                  for seed in seeds]
        outputs = self.llm.chat([list(c) for c in conversations], params, use_tqdm=False)
        return [output.outputs[0].text for output in outputs]
