"""palaestra as an OpenEnv environment package (deploy/openenv), and its server over plain HTTP.

OpenEnv's AutoEnv finds an installed ``openenv-<name>`` package by its module's ``openenv.yaml`` and its
client's conventional names; a stateless HTTP ``/step`` carries the episode (problem and earlier replies);
a tool-use env's reset lists its tools.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openenv.core")

from openenv.auto._discovery import _create_env_info_from_package  # noqa: E402
from openenv.cli._cli_utils import validate_env_structure  # noqa: E402

from palaestra.core.extract import wrap  # noqa: E402
from palaestra.integrations.common import sample  # noqa: E402
from palaestra.integrations.openenv_server import BackgroundServer, ServeConfig, create_app  # noqa: E402

PACKAGE = Path(__file__).resolve().parents[2] / "deploy" / "openenv"


@pytest.fixture(scope="module")
def server() -> Any:
    with BackgroundServer(create_app(ServeConfig(tools=("calculator",)))) as running:
        yield running


def post(server: BackgroundServer, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_package_has_openenvs_layout() -> None:
    assert validate_env_structure(PACKAGE) is not None  # raises on a missing required file
    manifest = (PACKAGE / "openenv.yaml").read_text()
    assert "spec_version: 1" in manifest and "name: palaestra_env" in manifest and "app: server.app:app" in manifest


def test_autoenv_discovery_resolves_the_client_by_convention(tmp_path: Path, server: BackgroundServer) -> None:
    (tmp_path / "palaestra_env").symlink_to(PACKAGE, target_is_directory=True)
    sys.path.insert(0, str(tmp_path))
    try:
        info = _create_env_info_from_package("openenv-palaestra_env", "palaestra_env", "0.3.0")
        assert info is not None and info.env_key == "palaestra" and info.spec_version == 1
        client_class = getattr(importlib.import_module(info.client_module_path), info.client_class_name)
        models = importlib.import_module("palaestra_env.models")
        action_class = getattr(models, info.action_class_name)
        assert getattr(models, info.observation_class_name).__name__ == "PalaestraObservation"
        problem = sample("arithmetic/expression", 1, 2)
        with client_class(base_url=server.url).sync() as env:
            env.reset(env_id="arithmetic/expression", level=1, seed=2)
            result = env.step(action_class(text=wrap(problem.answer)))
        assert result.done and result.reward == 1.0
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "palaestra_env" or m.startswith("palaestra_env.")]:
            del sys.modules[name]


def test_a_stateless_http_step_replays_the_episode_it_carries(server: BackgroundServer) -> None:
    status, first = post(server, "/reset", {"env_id": "games/guess_number", "level": 0, "seed": 4})
    assert status == 200
    problem_json = first["observation"]["problem"]
    problem = sample("games/guess_number", 0, 4)
    low, high, secret = problem.data["low"], problem.data["high"], int(problem.answer)
    history: list[str] = []
    for _ in range(problem.data["turns"]):
        guess = (low + high) // 2
        status, result = post(server, "/step", {"action": {"text": wrap(str(guess)), "problem": problem_json,
                                                           "history": history}})
        assert status == 200, result
        if result["done"]:
            break
        history.append(wrap(str(guess)))
        low, high = (guess + 1, high) if guess < secret else (low, guess - 1)
    assert result["done"] and result["reward"] == 1.0


def test_a_stateless_http_step_without_its_episode_or_with_an_edited_problem_is_a_400(server: BackgroundServer) -> None:
    status, body = post(server, "/step", {"action": {"text": wrap("5")}})
    assert status == 400 and "action.problem" in body["detail"]
    _, first = post(server, "/reset", {"env_id": "arithmetic/expression", "seed": 1})
    edited = {**json.loads(first["observation"]["problem"]), "answer": "0"}
    status, body = post(server, "/step", {"action": {"text": wrap("0"), "problem": json.dumps(edited)}})
    assert status == 400 and "not the problem" in body["detail"]
    for not_a_problem in ("{not json", "[]", "{}", "null", '"arithmetic/expression"'):
        status, body = post(server, "/step", {"action": {"text": wrap("0"), "problem": not_a_problem}})
        assert status == 400 and "not a palaestra problem" in body["detail"], (not_a_problem, body)


@pytest.mark.parametrize(("env_id", "tools"), [("tools/sql_qa", ["sql"]), ("terminal/find_files", ["shell"]),
                                               ("service/retail_returns", ["find_customer", "get_order",
                                                                           "return_items", "cancel_order"])])
def test_a_tool_use_envs_reset_lists_the_tools_it_carries(server: BackgroundServer, env_id: str,
                                                          tools: list[str]) -> None:
    status, first = post(server, "/reset", {"env_id": env_id, "seed": 0})
    assert status == 200 and [t["function"]["name"] for t in first["observation"]["tools"]] == tools


def test_openenvs_runtime_validator_passes(server: BackgroundServer) -> None:
    validator = Path(sys.executable).with_name("openenv")
    if not validator.exists():
        pytest.skip("the openenv command is not installed next to this Python")
    run = subprocess.run([str(validator), "validate", "--url", server.url], capture_output=True, text=True, timeout=120)
    report = json.loads(run.stdout)
    assert run.returncode == 0 and report["passed"], report
