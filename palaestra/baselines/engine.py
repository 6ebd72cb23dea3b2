"""The rollout engine: fast sampling from a local policy, with continuous batching across turns.

Conversations occupy *slots* of a static key/value cache (see
:mod:`palaestra.baselines.decoder`). The engine loops over two kinds of
forward pass: a *prefill* writes the new ids of waiting conversations (a prompt,
or the env's observation after a reply) into their slots and samples the first
token of their next reply; a *decode* step extends every replying conversation
by one token. When a reply ends (stop token, ``max_new_tokens``, or a full
slot), the engine hands it to the caller, which steps the env and returns the
ids of the observation: that conversation joins the running batch at the next
prefill, without waiting for the others to finish their turns. A conversation
that is over frees its slot for the next one from the source.

On CUDA, decode steps run as CUDA graphs (one per bucket of attended
positions), weights are a bfloat16 copy of the policy's float32 master weights
(refreshed by :meth:`RolloutEngine.sync` after each update), and sampling
(Gumbel-max over the logits) stays on the GPU: one small copy to the host per
step. Each sampled token's log-probability (temperature 1, sampling weights) is
returned with it, so the trainer can measure the sampling/training mismatch.

Example::

    >>> from palaestra.baselines.engine import RolloutEngine
    >>> from palaestra.baselines.tiny import TinyPolicy
    >>> policy = TinyPolicy(seed=0, device="cpu")
    >>> engine = RolloutEngine(policy, slots=2, capacity=64)
    >>> replies = engine.complete([[5, 6, 1], [7, 1]], max_new_tokens=4, temperature=1.0, seed=0)
    >>> [len(r.ids) <= 4 and len(r.logprobs) == len(r.ids) for r in replies]
    [True, True]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from palaestra.baselines.decoder import Decoder
from palaestra.baselines.policy import LMPolicy, Message

PREFILL_TOKENS = 16_384  # tokens (rows x padded length) per prefill forward pass at most
PREFILL_WAIT = 8  # decode steps a waiting conversation waits at most for others to join its prefill
BUCKET = 64  # decode steps attend over a multiple of this many positions (a power-of-two multiple)


@dataclass
class Reply:
    """One sampled reply: its ids (stop token included when the policy wrote one) and their log-probabilities."""

    key: Hashable
    ids: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)  # log pi(id) at temperature 1, under the sampling weights
    closed: bool = False  # ended with a stop token (else cut at max_new_tokens or a full slot)


@dataclass
class EngineStats:
    """What one :meth:`RolloutEngine.play` did, for throughput figures."""

    tokens: int = 0  # sampled tokens
    decode_steps: int = 0
    prefills: int = 0
    prefill_tokens: int = 0
    replies: int = 0
    conversations: int = 0
    seconds: float = 0.0
    respond_seconds: float = 0.0  # time spent in the caller's respond (env steps)

    @property
    def tokens_per_second(self) -> float:
        return self.tokens / self.seconds if self.seconds else 0.0


@dataclass
class _Slot:
    key: Hashable = None
    length: int = 0  # ids written to the cache
    pending: list[int] = field(default_factory=list)  # ids waiting for a prefill
    waited: int = 0  # decode steps spent waiting
    reply: Reply | None = None  # the reply being sampled
    budget: int = 0  # tokens this reply may still sample


Respond = Callable[[list[Reply]], Sequence[Sequence[int] | None]]


class RolloutEngine:
    """Samples replies for many conversations at once from ``policy``.

    ``slots``: conversations in flight; ``capacity``: tokens per conversation
    (prompt, replies and observations). ``dtype``: the sampling weights' dtype
    (default bfloat16 on CUDA, the policy's own weights elsewhere).
    ``cuda_graphs``: capture decode steps (default: on CUDA when the decoder allows).
    """

    def __init__(self, policy: LMPolicy, slots: int, capacity: int, dtype: torch.dtype | None = None,
                 cuda_graphs: bool | None = None) -> None:
        self.policy = policy
        self.device = policy.device
        cuda = self.device.type == "cuda"
        if dtype is None and cuda:
            dtype = torch.bfloat16
        self.decoder: Decoder = policy.decoder(dtype)
        self.capacity = min(capacity, policy.max_length)
        self.slots = slots
        self.decoder.allocate(slots, self.capacity)
        self.stop_ids = frozenset(policy.stop_ids)
        self.cuda_graphs = (cuda and self.decoder.graphable) if cuda_graphs is None else cuda_graphs
        self._graphs: dict[int, tuple[torch.cuda.CUDAGraph, torch.Tensor]] = {}
        self._pool: Any = None
        self._tokens = torch.zeros((slots, 1), dtype=torch.long, device=self.device)
        self._positions = torch.full((slots, 1), self.capacity, dtype=torch.long, device=self.device)
        self.stats = EngineStats()

    def sync(self) -> None:
        """Refresh the sampling weights from the policy's (after an optimizer step)."""
        self.decoder.sync()

    # --- the public loops -----------------------------------------------------------------------
    def complete(self, prefixes: Sequence[Sequence[int]], max_new_tokens: int, temperature: float = 1.0,
                 seed: int = 0) -> list[Reply]:
        """One reply per prefix (no env: each conversation ends after its reply)."""
        replies: dict[Hashable, Reply] = {}

        def done(batch: list[Reply]) -> list[None]:
            replies.update((r.key, r) for r in batch)
            return [None] * len(batch)

        self.play(enumerate(prefixes), done, max_new_tokens, temperature, seed)
        return [replies[k] for k in range(len(prefixes))]

    def play(self, source: Iterable[tuple[Hashable, Sequence[int]]], respond: Respond,
             max_new_tokens: int | Callable[[Hashable], int], temperature: float = 1.0, seed: int = 0) -> EngineStats:
        """Run conversations from ``source`` (key, prompt ids) until every one is over.

        ``respond`` gets the replies that ended at the same step and returns, for
        each, the ids to append before its next reply (the observation and the
        assistant's start) or None when the conversation is over. A conversation
        must fit in ``capacity``: its ids so far, plus the new ids, plus one reply.
        ``max_new_tokens``: tokens per reply, or a function of the conversation's key.
        """
        budget_of = max_new_tokens if callable(max_new_tokens) else (lambda key: max_new_tokens)
        stats = EngineStats()
        start = time.perf_counter()
        generator = torch.Generator(device=self.device).manual_seed(seed % 2**63)
        conversations: Iterator[tuple[Hashable, Sequence[int]]] = iter(source)
        slots = [_Slot() for _ in range(self.slots)]
        free = list(range(self.slots - 1, -1, -1))
        exhausted = False

        def admit() -> None:
            nonlocal exhausted
            while free and not exhausted:
                item = next(conversations, None)
                if item is None:
                    exhausted = True
                    return
                key, prompt = item
                slot = free.pop()
                slots[slot] = _Slot(key=key, pending=list(prompt))
                self._check_room(slots[slot])
                stats.conversations += 1

        with torch.no_grad():
            admit()
            # Each pass either prefills waiting conversations or samples one token of every reply in progress;
            # a reply ends within max_new_tokens tokens and a conversation within `capacity` tokens, so this ends.
            while any(st.pending or st.reply is not None for st in slots):
                waiting = [s for s, st in enumerate(slots) if st.pending]
                replying = [s for s, st in enumerate(slots) if st.reply is not None]
                oldest = max((slots[s].waited for s in waiting), default=0)
                if waiting and (not replying or oldest >= PREFILL_WAIT or 4 * len(waiting) >= len(replying)):
                    finished = self._prefill(slots, waiting, budget_of, temperature, generator, stats)
                else:
                    for s in waiting:
                        slots[s].waited += 1
                    finished = self._decode(slots, replying, temperature, generator, stats)
                if finished:
                    self._respond(slots, finished, respond, free, stats)
                    admit()
        stats.seconds = time.perf_counter() - start
        self._accumulate(stats)
        return stats

    # --- internals ------------------------------------------------------------------------------
    def _respond(self, slots: list[_Slot], finished: list[int], respond: Respond, free: list[int],
                 stats: EngineStats) -> None:
        t0 = time.perf_counter()
        follow = respond([slots[s].reply for s in finished])  # type: ignore[misc]
        stats.respond_seconds += time.perf_counter() - t0
        stats.replies += len(finished)
        if len(follow) != len(finished):
            raise RuntimeError(f"respond returned {len(follow)} continuations for {len(finished)} replies")
        for s, ids in zip(finished, follow):
            slot = slots[s]
            reply, slot.reply = slot.reply, None
            assert reply is not None
            if ids is None:
                slots[s] = _Slot()
                free.append(s)
                continue
            # the reply's last token was sampled but never fed back: it opens the next prefill
            slot.pending, slot.waited = [reply.ids[-1], *ids], 0
            self._check_room(slot)

    def _check_room(self, slot: _Slot) -> None:
        if not slot.pending:
            raise ValueError(f"conversation {slot.key!r}: no ids to prefill")
        if slot.length + len(slot.pending) >= self.capacity:
            raise ValueError(f"conversation {slot.key!r} does not fit in {self.capacity} tokens "
                             f"({slot.length} written, {len(slot.pending)} more)")

    def _prefill(self, slots: list[_Slot], waiting: list[int], budget_of: Callable[[Hashable], int],
                 temperature: float,
                 generator: torch.Generator, stats: EngineStats) -> list[int]:
        finished: list[int] = []
        waiting = sorted(waiting, key=lambda s: len(slots[s].pending))
        chunks: list[list[int]] = [[]]
        for s in waiting:  # rows x longest row <= PREFILL_TOKENS (rows sorted by length)
            if chunks[-1] and (len(chunks[-1]) + 1) * len(slots[s].pending) > PREFILL_TOKENS:
                chunks.append([])
            chunks[-1].append(s)
        for chunk in chunks:
            width = max(len(slots[s].pending) for s in chunk)
            tokens = torch.full((len(chunk), width), self.policy.pad_id, dtype=torch.long)
            positions = torch.full((len(chunk), width), self.capacity, dtype=torch.long)
            for row, s in enumerate(chunk):
                ids = slots[s].pending
                tokens[row, : len(ids)] = torch.tensor(ids, dtype=torch.long)
                positions[row, : len(ids)] = torch.arange(slots[s].length, slots[s].length + len(ids))
            last = torch.tensor([len(slots[s].pending) - 1 for s in chunk], dtype=torch.long)
            keys = max(slots[s].length + len(slots[s].pending) for s in chunk)
            logits = self.decoder.forward(tokens.to(self.device), positions.to(self.device),
                                          torch.tensor(chunk, device=self.device), last.to(self.device), keys)
            sampled, logprobs = self._sample(logits, temperature, generator)
            stats.prefills += 1
            for row, s in enumerate(chunk):
                slot = slots[s]
                stats.prefill_tokens += len(slot.pending)
                slot.length += len(slot.pending)
                slot.pending, slot.waited = [], 0
                slot.reply = Reply(slot.key)
                wanted = budget_of(slot.key)
                if wanted < 1:
                    raise ValueError(f"conversation {slot.key!r}: max_new_tokens must be at least 1, got {wanted}")
                slot.budget = min(wanted, self.capacity - slot.length)
                if self._append(slot, sampled[row], logprobs[row]):
                    finished.append(s)
                stats.tokens += 1
        return finished

    def _decode(self, slots: list[_Slot], replying: list[int], temperature: float, generator: torch.Generator,
                stats: EngineStats) -> list[int]:
        keys = max(slots[s].length for s in replying) + 1
        if self.cuda_graphs or len(replying) == self.slots:
            rows = list(range(self.slots))  # every slot; the idle ones write to the padding sink
            tokens = [self.policy.pad_id] * self.slots
            positions = [self.capacity] * self.slots
            for s in replying:
                tokens[s], positions[s] = slots[s].reply.ids[-1], slots[s].length  # type: ignore[union-attr]
            self._tokens.copy_(torch.tensor(tokens, dtype=torch.long)[:, None], non_blocking=True)
            self._positions.copy_(torch.tensor(positions, dtype=torch.long)[:, None], non_blocking=True)
            if self.cuda_graphs:
                logits = self._graph_logits(keys)
            else:
                logits = self.decoder.forward(self._tokens, self._positions, None, None, keys)
        else:  # only the replying slots (no graph: fewer rows is cheaper)
            rows = replying
            tokens_t = torch.tensor([[slots[s].reply.ids[-1]] for s in rows], dtype=torch.long)  # type: ignore[union-attr]
            positions_t = torch.tensor([[slots[s].length] for s in rows], dtype=torch.long)
            logits = self.decoder.forward(tokens_t.to(self.device), positions_t.to(self.device),
                                          torch.tensor(rows, device=self.device), None, keys)
        sampled, logprobs = self._sample(logits, temperature, generator)
        stats.decode_steps += 1
        finished = []
        index = {s: k for k, s in enumerate(rows)}
        for s in replying:
            slot = slots[s]
            slot.length += 1  # the previous token is now in the cache
            stats.tokens += 1
            if self._append(slot, sampled[index[s]], logprobs[index[s]]):
                finished.append(s)
        return finished

    def _append(self, slot: _Slot, token: int, logprob: float) -> bool:
        """Add a sampled token to the slot's reply; True when the reply is over."""
        reply = slot.reply
        assert reply is not None
        reply.ids.append(token)
        reply.logprobs.append(logprob)
        slot.budget -= 1
        if token in self.stop_ids:
            reply.closed = True
            return True
        # the token just sampled still has to be written: the slot must keep room for it
        return slot.budget <= 0 or slot.length >= self.capacity

    def _sample(self, logits: torch.Tensor, temperature: float,
                generator: torch.Generator) -> tuple[list[int], list[float]]:
        """Gumbel-max sampling on the device; the chosen ids and their temperature-1 log-probabilities."""
        logp = torch.log_softmax(logits, dim=-1)
        if temperature > 0:
            noise = torch.empty_like(logp).exponential_(generator=generator)
            chosen = (logp / temperature - noise.log()).argmax(-1)
        else:
            chosen = logp.argmax(-1)
        picked = logp.gather(-1, chosen[:, None]).squeeze(-1)
        both = torch.stack([chosen.double(), picked.double()]).cpu()
        return [int(t) for t in both[0].tolist()], both[1].tolist()

    def _graph_logits(self, keys: int) -> torch.Tensor:
        """Replay (capturing on first use) the decode graph for the smallest bucket holding ``keys`` positions."""
        bucket = BUCKET
        while bucket < keys:
            bucket *= 2
        bucket = min(bucket, self.capacity + 1)
        if bucket not in self._graphs:
            self._graphs[bucket] = self._capture(bucket)
        graph, logits = self._graphs[bucket]
        graph.replay()
        return logits

    def _capture(self, keys: int) -> tuple[torch.cuda.CUDAGraph, torch.Tensor]:
        saved = self._tokens.clone(), self._positions.clone()
        self._positions.fill_(self.capacity)  # warm-up and capture write only to the padding sink
        stream = torch.cuda.Stream(self.device)
        stream.wait_stream(torch.cuda.current_stream(self.device))
        with torch.cuda.stream(stream):
            for _ in range(2):
                self.decoder.forward(self._tokens, self._positions, None, None, keys)
        torch.cuda.current_stream(self.device).wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        if self._pool is None:
            self._pool = torch.cuda.graph_pool_handle()
        with torch.cuda.graph(graph, pool=self._pool):
            logits = self.decoder.forward(self._tokens, self._positions, None, None, keys)
        self._tokens.copy_(saved[0])
        self._positions.copy_(saved[1])
        return graph, logits

    def _accumulate(self, stats: EngineStats) -> None:
        total = self.stats
        for name in ("tokens", "decode_steps", "prefills", "prefill_tokens", "replies", "conversations",
                     "seconds", "respond_seconds"):
            setattr(total, name, getattr(total, name) + getattr(stats, name))


def chat(policy: LMPolicy, conversations: Sequence[Sequence[Message]], max_new_tokens: int = 256,
         temperature: float = 1.0, seed: int = 0) -> list[str]:
    """One sampled reply per text conversation (the oldest context is dropped to make room for the reply).

    >>> from palaestra.baselines.tiny import TinyPolicy
    >>> replies = chat(TinyPolicy(seed=0, device="cpu"), [[{"role": "user", "content": "hi"}]], max_new_tokens=3)
    >>> len(replies), len(replies[0]) <= 3
    (1, True)
    """
    budget = policy.max_length - max_new_tokens - 1
    if budget < 1:
        raise ValueError(f"max_new_tokens={max_new_tokens} leaves no room for a prompt in {policy.max_length}")
    prefixes = [policy.conversation_ids(c)[-budget:] for c in conversations]
    engine = RolloutEngine(policy, slots=len(prefixes), capacity=max(len(p) for p in prefixes) + max_new_tokens + 1)
    return [policy.decode(r.ids) for r in engine.complete(prefixes, max_new_tokens, temperature, seed)]
