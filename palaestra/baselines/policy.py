"""The policy interface: what the trainer, the rollout engine and the evaluator need of a language model.

Two implementations ship: the tiny character-level transformer
(:mod:`palaestra.baselines.tiny`) and a Hugging Face causal LM from a local path
(:mod:`palaestra.baselines.hf`); :func:`palaestra.baselines.models.load_policy`
builds either from a spec. This module imports neither: the layers are
``decoder`` <- ``policy`` <- ``tiny``, ``hf`` <- ``models`` <- ``engine``, ``reinforce``, ``evaluate``
(``left_pad``, which the decoders need too, lives in :mod:`palaestra.baselines.decoder` and is re-exported here).

Example::

    >>> import torch
    >>> ids, mask, positions = left_pad([[5, 6, 7], [8]], pad_id=0, device=torch.device("cpu"))
    >>> ids.tolist(), positions.tolist()
    ([[5, 6, 7], [0, 0, 8]], [[0, 1, 2], [0, 0, 0]])
"""

from __future__ import annotations

import abc
import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from palaestra.baselines.decoder import Decoder, left_pad  # noqa: F401  (left_pad: re-exported for callers)

Message = dict[str, str]  # {"role": "user" | "assistant", "content": text}


class LMPolicy(abc.ABC):
    """A token-level language-model policy.

    Conversations are built incrementally from token ids, so that training sees
    exactly the tokens that were sampled: :meth:`encode_user` gives the ids of the
    newest user message (the prompt, or an env observation) up to the point where
    the assistant starts; the rollout engine (:mod:`palaestra.baselines.engine`)
    samples the assistant's ids with the policy's :meth:`decoder`; :meth:`logits`
    scores whole conversations for the update.
    """

    model: torch.nn.Module
    device: torch.device
    max_length: int  # the longest token sequence the model takes
    pad_id: int
    stop_ids: frozenset[int]  # the tokens that end an assistant turn
    answer_format: str | None = None  # the answer format it was trained with, if any
    reply_tokens: int = 512  # a default budget for one reply (checkpoints keep the one they trained with)

    @abc.abstractmethod
    def encode_user(self, messages: Sequence[Message], closed: bool) -> list[int]:
        """Ids to append for ``messages[-1]`` (a user message) and the assistant's start.

        ``closed`` says whether the previous assistant turn ended with a stop token
        (ignored for the first message); if not, the ids close it first.
        """

    @abc.abstractmethod
    def encode_assistant(self, text: str) -> list[int]:
        """Ids of an assistant message given as text, stop token included (for replaying a conversation)."""

    @abc.abstractmethod
    def decode(self, ids: Sequence[int]) -> str:
        """The text of response ids, without stop tokens."""

    @abc.abstractmethod
    def logits(self, ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
               model: torch.nn.Module | None = None) -> torch.Tensor:
        """Next-token logits ``(batch, length, vocab)`` of left-padded ``ids`` under ``model`` (default: its own)."""

    @abc.abstractmethod
    def decoder(self, dtype: torch.dtype | None = None) -> Decoder:
        """A :class:`~palaestra.baselines.decoder.Decoder` over this policy's weights, for fast sampling.

        ``dtype`` None: the weights themselves (updates are seen at once); another
        dtype: a copy, refreshed by ``Decoder.sync()`` after each update.
        """

    @abc.abstractmethod
    def save(self, path: Path, metadata: dict[str, Any]) -> Path:
        """Write a checkpoint that :func:`~palaestra.baselines.models.load_policy` reads back; returns its path."""

    @property
    @abc.abstractmethod
    def name(self) -> str:
        """A short description for logs and tables."""

    def is_stop(self, token_id: int) -> bool:
        """Whether ``token_id`` ends an assistant turn."""
        return token_id in self.stop_ids

    def logit_mask(self) -> torch.Tensor | None:
        """A boolean ``(vocab,)`` mask of tokens the policy never writes (None: it may write any)."""
        return None

    def frozen_copy(self) -> torch.nn.Module:
        """A frozen copy of the model, the reference for the KL penalty."""
        ref = copy.deepcopy(self.model).eval()
        for p in ref.parameters():
            p.requires_grad_(False)
        return ref

    def conversation_ids(self, messages: Sequence[Message]) -> list[int]:
        """Ids of a whole text conversation ending with a user message, ready for generation."""
        ids: list[int] = []
        for k, message in enumerate(messages):
            if message["role"] == "assistant":
                ids += self.encode_assistant(message["content"])
            else:
                ids += self.encode_user(messages[: k + 1], closed=True)
        return ids


def default_device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")
