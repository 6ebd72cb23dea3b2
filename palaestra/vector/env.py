"""A Gymnasium vector env over palaestra text envs, possibly of different ids.

Example::

    >>> import palaestra
    >>> envs = palaestra.make_vec(["arithmetic/expression", "games/mastermind"], num_envs=4)
    >>> prompts, infos = envs.reset(seed=0)
    >>> len(prompts), infos["env_id"][1]
    (4, 'games/mastermind')
    >>> obs, rewards, terminated, truncated, infos = envs.step({0: "<answer>1</answer>"})  # step env 0 only
    >>> infos["stepped"].tolist()
    [True, False, False, False]
    >>> envs.close()

Observations are tuples of strings (the batched form of a ``Text`` space);
rewards, terminated and truncated are numpy arrays; infos follow Gymnasium's
vector convention (one array per key plus a ``_key`` mask). ``step`` takes a
sequence with one text per env, or a dict ``{index: text}`` that steps only
those envs (the others keep waiting, e.g. on generation).

**Autoreset** defaults to ``SAME_STEP``: when an episode ends, the same ``step``
returns the next problem's prompt, and the final observation and info are in
``infos["final_obs"]`` / ``infos["final_info"]``. For an LLM trainer this means
no generation is ever spent on an action that would be ignored (as under
Gymnasium's ``NEXT_STEP``, which is also supported, as is ``DISABLED``).

**Seeding**: ``reset(seed=s)`` gives env ``i`` problem seed ``s + i``; later
episodes of env ``i`` use seeds derived from ``(s, i, episode number)``. The
vector env, not the workers, chooses every problem seed, so the same ``s``
gives the same problems in every mode and with any number of workers.

**Failures**: an env that raises, a worker that crashes or exceeds its time
budget ends only the affected episode, with ``truncated=True`` and the reason in
``infos["error"]`` — an infrastructure error is never a wrong answer (reward 0
with ``error`` set means "not judged").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Tuple
from gymnasium.vector import AutoresetMode, VectorEnv

from palaestra.core.problem import Verdict
from palaestra.core.spaces import FreeText
from palaestra.vector.runners import Runner
from palaestra.vector.shard import SEED_RANGE, describe, reset_options

SMALL_BATCH = 16  # up to this many slots, info arrays are filled item by item
_LOCAL_COLUMNS = ("env_id", "level", "seed", "turn")  # info keys the fast path fills for every env


def _array(values: list[Any], n: int, slots: Any) -> np.ndarray:
    """One info key as an array of ``n`` slots, laid out as Gymnasium's ``VectorEnv._add_info`` does.

    A numeric dtype (zeros elsewhere) when the first value is a bool/int/float and all of
    them make a numeric array, objects (``None`` elsewhere) otherwise. ``slots``: ``None``
    when ``values`` fill all ``n`` slots in order, else where each value goes (see ``_place``).
    """
    if type(values[0]) in (bool, int, float):
        try:
            numeric = np.array(values)
        except ValueError:  # a sequence among the numbers: keep objects
            numeric = np.empty(0, dtype=object)
        if numeric.dtype.kind in "bif":
            return numeric if slots is None else _place(np.zeros(n, dtype=numeric.dtype), slots, numeric)
    # fromiter keeps each value whole (np.array would split tuples and lists into dimensions)
    objects = np.fromiter(values, dtype=object, count=len(values))
    return objects if slots is None else _place(np.empty(n, dtype=object), slots, objects)


def _place(array: np.ndarray, slots: list[int] | np.ndarray, values: Any) -> np.ndarray:
    """``array`` with ``values[k]`` at ``slots[k]``.

    ``slots`` is a list for a few slots (item by item is then cheaper) and an index array
    otherwise (built once per batch and reused by every key that covers the same envs).
    """
    if isinstance(slots, list):
        for i, value in zip(slots, values):
            array[i] = value
    else:
        array[slots] = values
    return array


def _slots(indices: list[int]) -> list[int] | np.ndarray:
    """``indices`` as ``_place`` takes them: a list for a few, an index array for more."""
    return indices if len(indices) <= SMALL_BATCH else np.array(indices, dtype=np.intp)


def _mask(n: int, indices: list[int]) -> np.ndarray:
    mask = np.zeros(n, dtype=bool)
    if len(indices) == n:
        mask[:] = True
    elif len(indices) <= SMALL_BATCH:
        for i in indices:
            mask[i] = True
    else:
        mask[indices] = True
    return mask


class TextVectorEnv(VectorEnv):
    def __init__(self, env_ids: Sequence[str], runner: Runner,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP) -> None:
        self.env_ids = list(env_ids)
        self.num_envs = len(self.env_ids)
        self.runner = runner
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode}
        self.single_observation_space = FreeText()
        self.single_action_space = FreeText()
        self.observation_space = Tuple([FreeText() for _ in range(self.num_envs)])
        self.action_space = Tuple([FreeText() for _ in range(self.num_envs)])
        self._observations = [""] * self.num_envs
        self._base_seed: int | None = None
        self._episodes = [0] * self.num_envs  # episodes begun per env: the next reset's seed
        self._levels: list[Any] = [None] * self.num_envs
        self._needs_reset = [False] * self.num_envs
        # The in-process fast path (see ``_step_local``): the sub-envs themselves, which slots hold a
        # multi-turn env, and each env's episode identity as arrays (rebuilt after a reset by another path).
        self._local_envs = runner.local_envs()
        self._multi_turn = [hasattr(env, "turn") for env in self._local_envs or ()]
        self._identity: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def set_levels(self, levels: Mapping[int, int]) -> None:
        """The level each listed sub-env uses from its next reset on (curricula move these)."""
        for i, level in levels.items():
            self._levels[i] = level

    # --- seeding ---------------------------------------------------------------
    def _reset_command(self, i: int) -> tuple[Any, ...]:
        assert self._base_seed is not None
        command = ("reset", None, reset_options(self._base_seed, i, self._episodes[i], self._levels[i]))
        self._episodes[i] += 1
        return command

    # --- Gymnasium API ---------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[tuple[str, ...], dict[str, Any]]:
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        indices = range(self.num_envs) if mask is None else np.flatnonzero(np.asarray(mask, dtype=bool)).tolist()
        if seed is not None or self._base_seed is None:
            super().reset(seed=seed)
            self._base_seed = seed if seed is not None else int(self.np_random.integers(SEED_RANGE))
            self._episodes = [0] * self.num_envs
        if "level" in options:
            levels = options.pop("level")
            levels = levels if isinstance(levels, Sequence) else [levels] * self.num_envs
            for i in indices:
                self._levels[i] = levels[i]
        if options:
            raise ValueError(f"unsupported reset options {sorted(options)} (use 'level' and 'reset_mask')")
        self._identity = None
        outcomes = self.runner.execute({i: self._reset_command(i) for i in indices})
        env_infos = {i: self._take_reset(i, *outcomes[i]) for i in indices}
        return tuple(self._observations), self._batch_infos(env_infos)

    def step(self, actions: Sequence[str] | Mapping[int, str]) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if (self._local_envs is not None and self.autoreset_mode is AutoresetMode.SAME_STEP
                and isinstance(actions, (list, tuple)) and len(actions) == self.num_envs
                and all(type(a) is str for a in actions) and True not in self._needs_reset
                and self._base_seed is not None):
            return self._step_local(actions)
        self._identity = None  # this path resets envs without updating the fast path's arrays
        chosen = self._as_mapping(actions)
        n = self.num_envs
        # Python lists while filling (a NumPy item assignment costs several times a list's), arrays at the end
        rewards, terminated, truncated = [0.0] * n, [False] * n, [False] * n

        commands: dict[int, tuple[Any, ...]] = {}
        needs_reset, autoreset = self._needs_reset, self.autoreset_mode is AutoresetMode.SAME_STEP
        base_seed, episodes, levels = self._base_seed, self._episodes, self._levels
        in_worker = autoreset and self.runner.resets_in_worker  # one round trip per step, not two
        for i, action in chosen.items():
            if not needs_reset[i]:
                commands[i] = ("step", action, (base_seed, i, episodes[i], levels[i])) if in_worker else ("step", action)
            elif self.autoreset_mode is AutoresetMode.NEXT_STEP:
                commands[i] = self._reset_command(i)  # this action is ignored, as in Gymnasium
            else:
                raise RuntimeError(f"env {i} has ended; reset it with options={{'reset_mask': ...}}")
        outcomes = self.runner.execute(commands)

        env_infos: dict[int, dict[str, Any]] = {}
        reset_by_worker: list[int] = []
        unreset: list[int] = []  # ended without a reset by the worker: reset in a second round
        observations = self._observations
        for i, command in commands.items():
            outcome = outcomes[i]
            if command[0] == "reset":
                env_infos[i] = self._take_reset(i, *outcome)
                continue
            if outcome[0] == "ok":
                observations[i], rewards[i], ended, cut, env_infos[i] = outcome[1]
                terminated[i], truncated[i] = ended, cut
            else:  # never judged: end the episode as truncated and say why
                ended, cut = False, True
                truncated[i], env_infos[i] = True, {"error": outcome[1], "verdict": Verdict.failed(outcome[1])}
            if ended or cut:
                needs_reset[i] = True
                (reset_by_worker if len(outcome) > 2 else unreset).append(i)

        final: dict[int, dict[str, Any]] = {}
        if autoreset:
            for i in reset_by_worker:
                final[i] = {"final_obs": observations[i], "final_info": env_infos[i]}
                episodes[i] += 1
                env_infos[i] = self._take_reset(i, *outcomes[i][2])
            if unreset:
                outcomes = self.runner.execute({i: self._reset_command(i) for i in unreset})
                for i in unreset:
                    final[i] = {"final_obs": observations[i], "final_info": env_infos[i]}
                    env_infos[i] = self._take_reset(i, *outcomes[i])
        infos = self._batch_infos(env_infos)
        if final:
            infos.update(self._batch_infos(final))
        if len(chosen) == n:
            infos["stepped"] = np.ones(n, dtype=bool)
        else:
            infos["stepped"] = np.zeros(n, dtype=bool)
            infos["stepped"][list(chosen)] = True
        return (tuple(observations), np.array(rewards, dtype=np.float64), np.array(terminated, dtype=bool),
                np.array(truncated, dtype=bool), infos)

    def _step_local(self, actions: Sequence[str]) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``step`` of every env, in-process, under SAME_STEP autoreset: the same episodes, observations,
        rewards and infos as the general path, at a fraction of its cost on cheap games.

        The general path sends each env a command, gets back its info dict and batches the dicts key by
        key; here each env plays its turn directly (:meth:`~palaestra.core.env.TextEnv.play_turn`, which
        skips the info dict) and the info arrays of the envs whose episodes go on are built from their
        verdicts. Info dicts are built only for the episodes that ended (``final_info``) and the resets.
        """
        n = self.num_envs
        envs, observations = self._local_envs, self._observations
        assert envs is not None
        rewards, terminated, truncated = [0.0] * n, [False] * n, [False] * n
        verdicts: list[Any] = [None] * n  # of the episodes that go on
        ended: dict[int, tuple[str, dict[str, Any]]] = {}  # index -> (final observation, final info)
        for i, action in enumerate(actions):
            env = envs[i]
            try:
                observation, rewards[i], done, cut, verdict = env.play_turn(action)
            except Exception as exc:  # never judged: end the episode as truncated and say why (as a worker does)
                error = describe(exc)
                truncated[i] = True
                ended[i] = (observations[i], {"error": error, "verdict": Verdict.failed(error)})
                continue
            if done or cut:
                terminated[i], truncated[i] = done, cut
                ended[i] = (observation, env.step_info(verdict))
            else:
                observations[i] = observation
                verdicts[i] = verdict

        reset_infos: dict[int, dict[str, Any]] = {}
        for i in ended:
            self._needs_reset[i] = True
            options = reset_options(self._base_seed, i, self._episodes[i], self._levels[i])  # type: ignore[arg-type]
            self._episodes[i] += 1
            try:
                observations[i], reset_infos[i] = envs[i].reset(options=options)
            except Exception as exc:
                raise RuntimeError(f"env {i} ({self.env_ids[i]}) failed to reset: {describe(exc)}") from exc
            self._needs_reset[i] = False
        infos = self._local_infos(verdicts, reset_infos)
        if ended:
            slots = list(ended)
            infos["final_obs"] = _array([ended[i][0] for i in slots], n, _slots(slots))
            infos["_final_obs"] = _mask(n, slots)
            infos["final_info"] = self._batch_infos({i: ended[i][1] for i in slots})
            infos["_final_info"] = _mask(n, slots)
        infos["stepped"] = np.ones(n, dtype=bool)
        return (tuple(observations), np.array(rewards, dtype=np.float64), np.array(terminated, dtype=bool),
                np.array(truncated, dtype=bool), infos)

    def _local_infos(self, verdicts: list[Any], reset_infos: dict[int, dict[str, Any]]) -> dict[str, Any]:
        """The batched infos of a ``_step_local`` step (what ``_batch_infos`` makes of the envs' info dicts).

        Every env's info holds its episode's identity (``env_id``, ``level``, ``seed``) and, for a
        multi-turn env, ``turn``; an env whose episode goes on holds its verdict (``verdict``,
        ``correct``, ``parsed``: no ``error``, which ends the episode); one that was reset holds the
        rest of its reset info (``problem``, ``tools``).
        """
        n = self.num_envs
        envs = self._local_envs
        assert envs is not None
        identity = self._identity
        if identity is None:
            columns = [[env._identity[key] for env in envs] for key in ("env_id", "level", "seed")]
            identity = self._identity = (np.fromiter(columns[0], dtype=object, count=n), np.array(columns[1]),
                                         np.array(columns[2]))
        else:
            for i in reset_infos:
                known = envs[i]._identity
                identity[0][i], identity[1][i], identity[2][i] = known["env_id"], known["level"], known["seed"]
        every = np.ones(n, dtype=bool)
        infos: dict[str, Any] = {"env_id": identity[0].copy(), "_env_id": every, "level": identity[1].copy(),
                                 "_level": every.copy(), "seed": identity[2].copy(), "_seed": every.copy()}
        multi = self._multi_turn
        if all(multi):
            infos["turn"], infos["_turn"] = np.array([env.turn for env in envs]), every.copy()
        elif any(multi):
            slots = [i for i in range(n) if multi[i]]
            infos["turn"] = _place(np.zeros(n, dtype=int), slots, [envs[i].turn for i in slots])
            infos["_turn"] = _mask(n, slots)
        if not reset_infos:
            infos["verdict"] = np.fromiter(verdicts, dtype=object, count=n)
            infos["_verdict"] = every.copy()
            infos["correct"], infos["_correct"] = np.array([v.correct for v in verdicts]), every.copy()
            infos["parsed"], infos["_parsed"] = np.array([v.parsed for v in verdicts]), every.copy()
            return infos
        going_on = np.array([v is not None for v in verdicts])
        if going_on.any():
            infos["verdict"], infos["_verdict"] = np.fromiter(verdicts, dtype=object, count=n), going_on
            infos["correct"] = np.array([v is not None and v.correct for v in verdicts])
            infos["_correct"] = going_on.copy()
            infos["parsed"] = np.array([v is not None and v.parsed for v in verdicts])
            infos["_parsed"] = going_on.copy()
        by_key: dict[str, list[int]] = {}  # the other keys of the reset infos -> the envs holding them
        for i, info in reset_infos.items():
            for key in info:
                if key not in _LOCAL_COLUMNS:
                    by_key.setdefault(key, []).append(i)
        for key, slots in by_key.items():
            values = [reset_infos[i][key] for i in slots]
            infos[key] = (self._batch_infos(dict(zip(slots, values))) if isinstance(values[0], dict)
                          else _array(values, n, _slots(slots)))
            infos[f"_{key}"] = _mask(n, slots)
        return infos

    def _batch_infos(self, env_infos: dict[int, dict[str, Any]]) -> dict[str, Any]:
        """Gymnasium's vector info layout (an array per key plus a ``_key`` mask), built key by key.

        Equivalent to calling ``VectorEnv._add_info`` once per env, but envs whose infos have
        the same keys (usually all of them, or all but those that just reset) are gathered
        together: one list comprehension per (group, key) and one index array per set of
        envs, instead of one dict operation per (env, key). This matters at tens of
        thousands of steps per second.
        """
        groups: dict[tuple[str, ...], list[int]] = {}  # key tuple -> env indices, in increasing order
        for i in sorted(env_infos):
            keys = tuple(env_infos[i])
            group = groups.get(keys)
            if group is None:
                groups[keys] = [i]
            else:
                group.append(i)
        group_indices = list(groups.values())
        members = [[env_infos[i] for i in indices] for indices in group_indices]
        appears_in: dict[str, list[int]] = {}  # key -> the groups that have it
        for g, keys in enumerate(groups):
            for key in keys:
                appears_in.setdefault(key, []).append(g)

        n = self.num_envs
        layouts: dict[tuple[int, ...], tuple[list[int], Any, np.ndarray]] = {}  # groups -> indices, slots, mask
        infos: dict[str, Any] = {}
        for key, in_groups in appears_in.items():
            signature = tuple(in_groups)
            layout = layouts.get(signature)
            if layout is None:
                indices = [i for g in in_groups for i in group_indices[g]]
                if len(indices) == n and len(in_groups) == 1:
                    slots: Any = None  # every env, in order
                elif len(indices) <= SMALL_BATCH:
                    slots = indices
                else:
                    slots = np.array(indices, dtype=np.intp)
                layout = layouts[signature] = (indices, slots, _mask(n, indices))
            indices, slots, mask = layout
            # groups come in the order of their lowest index, so values[0] is the lowest env's, as in Gymnasium
            values = [info[key] for g in in_groups for info in members[g]]
            if isinstance(values[0], dict):
                infos[key] = self._batch_infos(dict(zip(indices, values)))
            else:
                infos[key] = _array(values, n, slots)
            infos[f"_{key}"] = mask.copy()
        return infos

    def _take_reset(self, i: int, status: str, result: Any) -> dict[str, Any]:
        if status != "ok":
            raise RuntimeError(f"env {i} ({self.env_ids[i]}) failed to reset: {result}")
        self._observations[i], info = result
        self._needs_reset[i] = False
        return info

    def _as_mapping(self, actions: Sequence[str] | Mapping[int, str]) -> dict[int, str]:
        if isinstance(actions, Mapping):
            bad = [i for i in actions if not (isinstance(i, (int, np.integer)) and 0 <= i < self.num_envs)]
            if bad:
                raise ValueError(f"action indices {bad} out of range 0..{self.num_envs - 1}")
            chosen = {int(i): a for i, a in actions.items()}
        elif isinstance(actions, str) or len(actions) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions (or a dict of index -> action)")
        else:
            chosen = dict(enumerate(actions))
        if not all(type(a) is str for a in chosen.values()):  # the common case costs one pass
            wrong = [i for i, a in chosen.items() if not isinstance(a, str)]
            if wrong:
                raise TypeError(f"actions must be str (the model's text); envs {wrong[:5]} got "
                                f"{type(chosen[wrong[0]]).__name__}")
        return chosen

    def close_extras(self, **kwargs: Any) -> None:
        self.runner.close()
