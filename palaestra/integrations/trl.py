"""TRL: datasets, a reward function, environments and tools for ``GRPOTrainer`` (tested with trl 1.16).

- :func:`build_dataset`: a ``datasets.Dataset`` of env ids x levels x seeds, or, with a
  :class:`~palaestra.wrappers.curriculum.Curriculum` (or ``streaming=True``), an
  ``IterableDataset`` that makes each next problem at the curriculum's current level for
  its env. Columns: ``prompt`` (chat messages, or plain text), ``env_id``, ``level``,
  ``seed``, ``problem`` (the serialised problem).
- :class:`RewardFunction`: TRL's reward signature ``(prompts, completions, **columns)``;
  judges each completion with :func:`palaestra.score`, returns ``None`` for a completion
  that could not be judged (TRL then leaves it out of that reward), logs accuracy, parse
  rate and error rate per env id through TRL's ``log_metric`` hook, and feeds the curriculum.
- :func:`environment_factory`: multi-turn games and tool use through TRL's
  ``environment_factory``: each rollout gets an environment whose ``submit`` tool plays a
  move (or gives a final answer) and whose other tools are palaestra's (python, calculator,
  search, sql), bound to that rollout's problem. TRL masks the tools' and the env's replies
  out of the loss (its ``tool_mask``).
- :func:`tool_functions`: stateless palaestra tools as plain TRL ``tools=[...]`` functions.
- :class:`CurriculumCallback`: logs each env's level, and saves/restores the curriculum
  with the trainer's checkpoints.

Example::

    from trl import GRPOConfig, GRPOTrainer
    from palaestra.integrations import trl as palaestra_trl

    dataset = palaestra_trl.build_dataset(["arithmetic/expression", "deduction/propositional"], levels=[0, 1], seeds=500)
    trainer = GRPOTrainer(model="Qwen/Qwen2.5-0.5B-Instruct", reward_funcs=palaestra_trl.RewardFunction(),
                          train_dataset=dataset, args=GRPOConfig(output_dir="runs/grpo"))
    trainer.train()
"""

from __future__ import annotations

import inspect
import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from palaestra.core.problem import Problem, Verdict
from palaestra.core.scoring import score
from palaestra.integrations.common import Episode, completion_text, problem_set, sample
from palaestra.integrations.export import hf_row
from palaestra.tools import TOOLS, make_tools
from palaestra.tools.base import Tool
from palaestra.wrappers.curriculum import Curriculum

MAX_STREAM = 2**31 - 1  # problems a streaming dataset yields at most (a trainer stops it with max_steps)
CURRICULUM_FILE = "palaestra_curriculum.json"
_JSON_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict}


# --- datasets -------------------------------------------------------------------------------------------


def build_dataset(env_ids: str | Sequence[str], levels: int | Sequence[int] = (0,), seeds: int | Sequence[int] = 100,
                  *, weights: Sequence[float] | None = None, conversational: bool = True,
                  system_prompt: str | None = None, answer_format: str | None = None,
                  curriculum: Curriculum | None = None, streaming: bool = False, seed: int = 0,
                  num_problems: int = MAX_STREAM, environment: str | Mapping[str, str] | None = None) -> Any:
    """A TRL training dataset of palaestra problems (see the module docstring).

    Without a curriculum and without ``streaming``: a ``datasets.Dataset`` holding every
    problem of env ids x levels x seeds. Otherwise an ``IterableDataset`` yielding up to
    ``num_problems`` problems: each picks an env id (in proportion to ``weights``), a level
    (the curriculum's current one for that env, else one of ``levels``) and a fresh seed,
    all from a private generator seeded by ``seed``; set TRL's ``max_steps``.
    ``environment`` adds TRL's ``environment`` column (one name, or a name per env id) for
    a dict ``environment_factory``.

    >>> dataset = build_dataset(["arithmetic/addition", "deduction/propositional"], levels=[0], seeds=3)
    >>> len(dataset), dataset[0]["env_id"], dataset[0]["prompt"][0]["role"]
    (6, 'arithmetic/addition', 'user')
    """
    import datasets

    ids = [env_ids] if isinstance(env_ids, str) else list(env_ids)

    def row(problem: Problem) -> dict[str, Any]:
        fields = hf_row(problem, conversational, system_prompt)
        if environment is not None:
            fields["environment"] = environment if isinstance(environment, str) else environment[problem.env_id]
        return fields

    if curriculum is None and not streaming:
        return datasets.Dataset.from_list([row(p) for p in problem_set(ids, levels, seeds, answer_format)])
    level_list = [levels] if isinstance(levels, int) else list(levels)
    if curriculum is not None:
        for env_id in ids:  # every env of the mixture is logged from the first step, moved or not
            curriculum.levels.setdefault(env_id, curriculum.level(env_id))
    share = list(weights) if weights is not None else [1.0] * len(ids)
    if len(share) != len(ids) or sum(share) <= 0:
        raise ValueError("weights must be one non-negative number per env id, not all zero")

    def generate() -> Iterator[dict[str, Any]]:
        rng = random.Random(f"palaestra-trl-{seed}")
        for _ in range(num_problems):
            env_id = rng.choices(ids, weights=share)[0]
            level = curriculum.level(env_id) if curriculum is not None else rng.choice(level_list)
            yield row(sample(env_id, level, rng.randrange(2**31), answer_format))

    return datasets.IterableDataset.from_generator(generate)


# --- rewards --------------------------------------------------------------------------------------------


class RewardFunction:
    """TRL reward function: ``reward(prompts, completions, problem, **columns) -> list[float | None]``.

    ``problem`` is the dataset's column of serialised problems. With ``environments`` (TRL
    passes them when training with :func:`environment_factory`), a rollout that submitted
    through the env is judged by its episode; otherwise its final assistant message is
    scored. ``None`` marks a completion that could not be judged (``Verdict.error``).
    Metrics logged per env id, through TRL's ``log_metric``: ``palaestra/<env>/accuracy``,
    ``parse_rate``, ``error_rate``. With a ``curriculum``, every judged completion is
    recorded for its env id and ``palaestra/<env>/level`` is logged for every env the
    curriculum knows (the mean level over the logging window), so levels reach the
    trainer's ``log_history`` and every reporter (TensorBoard, W&B) like any other metric.
    """

    def __init__(self, curriculum: Curriculum | None = None, log_metrics: bool = True) -> None:
        self.curriculum = curriculum
        self.log_metrics = log_metrics
        self.__name__ = "palaestra"  # TRL names a reward's metrics after its function's name

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], problem: Sequence[str] | None = None,
                 environments: Sequence[Any] | None = None, log_metric: Callable[[str, float], None] | None = None,
                 **columns: Any) -> list[float | None]:
        if problem is None:
            raise ValueError("the dataset needs a 'problem' column: build it with palaestra's build_dataset")
        verdicts = [self.judge(problem[i], completions[i], environments[i] if environments else None)
                    for i in range(len(completions))]
        env_ids = [_env_id(p) for p in problem]
        if self.curriculum is not None:
            for env_id, verdict in zip(env_ids, verdicts):
                self.curriculum.record(env_id, verdict.correct, verdict.error is not None)
        if self.log_metrics and log_metric is not None:
            for name, value in episode_metrics(env_ids, verdicts).items():
                log_metric(name, value)
            if self.curriculum is not None:
                for name, value in curriculum_levels(self.curriculum).items():
                    log_metric(name, value)
        return [None if v.error is not None else float(v.reward) for v in verdicts]

    @staticmethod
    def judge(problem: str, completion: Any, environment: Any = None) -> Verdict:
        if isinstance(environment, PalaestraEnvironment):
            environment._finish(completion_text(completion))
            verdict = environment.verdict
            if verdict is not None:
                return verdict
            if environment.episode is not None and environment.episode.multi_turn:
                return Verdict.unparsed("no move was submitted")
        return score(problem, completion_text(completion))


def curriculum_levels(curriculum: Curriculum) -> dict[str, float]:
    """``palaestra/<env>/level`` for every env id the curriculum knows, moved or not."""
    return {f"palaestra/{env_id}/level": float(curriculum.level(env_id)) for env_id in sorted(curriculum.levels)}


def episode_metrics(env_ids: Sequence[str], verdicts: Sequence[Verdict]) -> dict[str, float]:
    """Accuracy, parse rate and error rate per env id (accuracy and parse rate over judged episodes)."""
    groups: dict[str, list[Verdict]] = defaultdict(list)
    for env_id, verdict in zip(env_ids, verdicts):
        groups[env_id].append(verdict)
    metrics = {}
    for env_id, group in sorted(groups.items()):
        judged = [v for v in group if v.error is None]
        metrics[f"palaestra/{env_id}/error_rate"] = 1 - len(judged) / len(group)
        if judged:
            metrics[f"palaestra/{env_id}/accuracy"] = sum(v.correct for v in judged) / len(judged)
            metrics[f"palaestra/{env_id}/parse_rate"] = sum(v.parsed for v in judged) / len(judged)
    return metrics


def _env_id(problem: str) -> str:
    try:
        return str(json.loads(problem)["env_id"])
    except (ValueError, KeyError, TypeError):
        return "unknown"


# --- environments and tools -----------------------------------------------------------------------------


DEFAULT_TOOL_CALLS = 8  # tool calls per rollout when neither the caller nor the env sets a budget


class PalaestraEnvironment:
    """One rollout's environment for TRL's ``environment_factory`` (build it with :func:`environment_factory`).

    TRL calls ``reset(**row)`` before each rollout and exposes the public methods as tools:
    ``submit`` (a game move, or a final answer) and the palaestra tools chosen. The
    episode's verdict is what :class:`RewardFunction` rewards.
    """

    tool_names: tuple[str, ...] = ()
    max_tool_calls: int | None = None  # None: the env's own budget (``problem.data["budget"]``), else 8

    def __init__(self) -> None:
        self.episode: Episode | None = None
        self._tools: dict[str, Tool] = {t.name: t for t in make_tools(self.tool_names)}
        self._calls = 0
        self._budget = DEFAULT_TOOL_CALLS

    def reset(self, **row: Any) -> str | None:
        """Start the rollout of ``row`` (a dataset row with a ``problem`` column); the instruction TRL appends."""
        problem = Problem.from_json(row["problem"])
        self.episode = Episode(problem)
        self._calls = 0
        own = problem.data.get("budget") if isinstance(problem.data.get("budget"), int) else None
        self._budget = self.max_tool_calls if self.max_tool_calls is not None else own or DEFAULT_TOOL_CALLS
        for tool in self._tools.values():
            tool.close()
            tool.reset()
            tool.bind(problem)
        if self.episode.multi_turn:
            return "\n\nPlay by calling the `submit` function with one move at a time; it answers with the result."
        return None

    def submit(self, answer: str) -> str:
        """Submit your next move in a game, or your final answer to a question.

        Args:
            answer: The move or the answer, written as the task asks.

        Returns:
            The environment's reply: the result of the move, or whether the answer is right.
        """
        if self.episode is None:
            return "error: no episode is running"
        return self.episode.submit(answer)

    @property
    def verdict(self) -> Verdict | None:
        """The episode's verdict (None while nothing was submitted); a property, so TRL offers it as no tool."""
        return self.episode.verdict() if self.episode is not None else None

    def _finish(self, final_text: str) -> None:  # private: TRL offers public methods as tools
        """The rollout's last message, as the env's own protocol reads it: a move or the final answer.

        A model that answers in text, as the env's prompt asks (``<answer>...</answer>``), has made
        its move even without calling ``submit``; the episode judges it unless it is already over.
        """
        episode = self.episode
        if episode is not None and not episode.done and final_text.strip():
            episode.submit(final_text)

    def _call_tool(self, name: str, arguments: dict[str, Any]) -> str:
        if self.episode is None or self.episode.done:
            return "error: the episode is over"
        if self._calls >= self._budget:
            return f"error: tool call limit reached ({self._budget} per episode); give your final answer now"
        self._calls += 1
        tool = self._tools[name]
        output = tool.call(arguments)
        if tool.infrastructure_error:
            self.episode.fail(tool.infrastructure_error)
        return output


def environment_factory(tools: Sequence[str] = (), max_tool_calls: int | None = None
                        ) -> Callable[[], PalaestraEnvironment]:
    """A TRL ``environment_factory``: rollouts play palaestra problems, with ``tools`` bound to each problem.

    Tool calls per rollout: ``max_tool_calls`` when given, else the env's own budget (the ``tools/*`` envs
    state theirs in the prompt), else 8. The rollout's final text message counts as a move or the final
    answer, as the env's prompt says; ``submit`` is there for models that prefer a tool.

    >>> factory = environment_factory(tools=["calculator"])
    >>> env = factory()
    >>> sorted(name for name in dir(env) if not name.startswith("_") and callable(getattr(env, name)))
    ['calculator', 'reset', 'submit']
    """
    unknown = [t for t in tools if t not in TOOLS]
    if unknown:
        raise ValueError(f"unknown tools {unknown}; choose from {sorted(TOOLS)}")
    methods: dict[str, Any] = {"tool_names": tuple(tools), "max_tool_calls": max_tool_calls}
    for tool in make_tools(tools):
        methods[tool.name] = _tool_method(tool)
    suffix = "".join(part.title() for part in tools)
    return type(f"PalaestraEnvironment{suffix}", (PalaestraEnvironment,), methods)


def _tool_method(tool: Tool) -> Callable[..., str]:
    name = tool.name

    def method(self: PalaestraEnvironment, **arguments: Any) -> str:
        return self._call_tool(name, arguments)

    return _with_signature(method, tool, bound=True)


def tool_functions(names: Sequence[str]) -> list[Callable[..., str]]:
    """Palaestra tools that need no episode state (``calculator``) as TRL ``tools=[...]`` functions.

    Each call runs on a fresh tool instance. Tools that bind to the episode's problem
    (search, sql) or keep a session (python) need :func:`environment_factory` instead.

    >>> [calculator] = tool_functions(["calculator"])
    >>> calculator(expression="6 * 7")
    '42'
    """
    functions = []
    for tool in make_tools(names):
        if type(tool).bind is not Tool.bind or type(tool).reset is not Tool.reset:
            raise ValueError(f"the {tool.name} tool keeps per-episode state: use environment_factory(tools=[...])")
        functions.append(_with_signature(_fresh_call(type(tool)), tool, bound=False))
    return functions


def _fresh_call(cls: type[Tool]) -> Callable[..., str]:
    def call(**arguments: Any) -> str:
        tool = cls()
        try:
            return tool.call(arguments)
        finally:
            tool.close()

    return call


def _with_signature(function: Callable[..., str], tool: Tool, bound: bool) -> Callable[..., str]:
    """Give ``function`` the name, typed signature and Google-style docstring TRL builds a tool schema from."""
    schema = tool.parameters
    required = set(schema.get("required", []))
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] if bound else []
    annotations: dict[str, Any] = {}
    lines = []
    for arg, spec in schema.get("properties", {}).items():
        kind = spec.get("type", "string")
        annotation = _JSON_TYPES.get(kind[0] if isinstance(kind, list) else kind, str)
        default = inspect.Parameter.empty if arg in required else None
        params.append(inspect.Parameter(arg, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation))
        annotations[arg] = annotation if arg in required else annotation | None
        lines.append(f"    {arg}: {' '.join(str(spec.get('description', arg)).split())}")
    function.__name__ = function.__qualname__ = tool.name
    function.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    function.__annotations__ = {**annotations, "return": str}
    args = "\n\nArgs:\n" + "\n".join(lines) if lines else ""
    function.__doc__ = f"{' '.join(tool.description.split())}{args}\n\nReturns:\n    The tool's output."
    return function


# --- curriculum -----------------------------------------------------------------------------------------


class CurriculumCallback(TrainerCallback):
    """Logs each env's curriculum level and keeps the curriculum in the trainer's checkpoints.

    On save it writes ``palaestra_curriculum.json`` into the checkpoint folder; when training
    resumes from a checkpoint it restores the curriculum from there (in place, so the
    dataset and the reward function keep sharing it).
    """

    def __init__(self, curriculum: Curriculum) -> None:
        self.curriculum = curriculum

    def on_save(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        folder = Path(args.output_dir) / f"checkpoint-{state.global_step}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / CURRICULUM_FILE).write_text(json.dumps(self.curriculum.state()))

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        saved = Path(args.output_dir) / f"checkpoint-{state.global_step}" / CURRICULUM_FILE
        if state.global_step > 0 and saved.is_file():
            restore_curriculum(self.curriculum, json.loads(saved.read_text()))

    def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        # GRPO trainers log the levels through the reward function's metrics; for any other trainer, fill them in
        # here, in the logs and in the log_history record the trainer just appended (reporters that run before
        # this callback cannot see them then: use the reward function's metrics for those).
        if logs is None:
            return
        levels = curriculum_levels(self.curriculum)
        for name, value in levels.items():
            logs.setdefault(name, value)
        last = state.log_history[-1] if state.log_history else None
        if isinstance(last, dict) and last.get("step") == state.global_step:
            for name, value in levels.items():
                last.setdefault(name, value)


def restore_curriculum(curriculum: Curriculum, state: Mapping[str, Any]) -> None:
    """Load a saved state into an existing curriculum object (everything holding it sees the change)."""
    restored = Curriculum.from_state(state)
    for name, value in vars(restored).items():
        setattr(curriculum, name, value)
