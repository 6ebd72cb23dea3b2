"""The web playground, driven in a real headless Chromium (Debian's ``chromium`` + ``chromium-driver``, through
selenium): load the catalogue, filter it, play a single-turn and a multi-turn episode to a verdict, replay one.
Screenshots go to ``$PALAESTRA_SCREENSHOTS`` when it is set. The JSON API is tested without a browser too."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from palaestra.core.registry import make_source, registry
from palaestra.ui import Playground, make_server
from tests.ui.ui_support import serving


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with serving(make_server("127.0.0.1", 0, Playground())) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}"


def _get(url: str) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _post(url: str, body: object) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_the_api_lists_plays_and_replays(base_url: str) -> None:
    status, envs = _get(f"{base_url}/api/envs")
    assert status == 200 and len(envs) == len(registry.ids())
    status, problem = _get(f"{base_url}/api/problem?id=arithmetic/expression&level=1&seed=4")
    assert "answer" not in problem and problem["prompt"] == make_source("arithmetic/expression").sample(1, 4).prompt
    answer = _get(f"{base_url}/api/answer?id=arithmetic/expression&level=1&seed=4")[1]["answer"]
    session = _post(f"{base_url}/api/reset", {"id": "arithmetic/expression", "level": 1, "seed": 4})[1]["session"]
    step = _post(f"{base_url}/api/step", {"session": session, "text": answer})[1]
    assert step["verdict"]["correct"] and step["done"] and step["reward"] == 1.0
    replay = _post(f"{base_url}/api/replay", {"session": session})[1]
    assert replay["correct"] and replay["matches"]
    assert _post(f"{base_url}/api/step", {"session": session, "text": answer})[0] == 400  # the episode ended
    assert _post(f"{base_url}/api/reset", {"id": "no/such_env"})[0] == 400
    assert _get(f"{base_url}/api/problem?id=arithmetic/expression&level=-1")[0] == 400
    assert _post(f"{base_url}/api/step", {"session": "nope", "text": "1"})[0] == 400
    stats = _get(f"{base_url}/api/stats?id=games/guess_number")[1]
    assert [row["level"] for row in stats] == [0, 1, 2, 3, 4]
    assert all(row["oracle"] == 1.0 and 0 <= row["random"] < 1 for row in stats)
    assert stats[-1]["difficulty"] > stats[0]["difficulty"]


@pytest.fixture
def chromium_tmp() -> Iterator[Path]:
    """A short-named temporary folder for Chromium, removed afterwards: Chromium leaves its singleton socket's folder
    (``org.chromium.Chromium.*``) in the temporary directory after it quits, one in the host's /tmp per run. Not
    pytest's ``tmp_path``: under xdist its path is too long for the socket's address (108 bytes), and Chromium
    does not start."""
    folder = Path(tempfile.mkdtemp(prefix="chromium-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _chrome(scratch: Path):  # type: ignore[no-untyped-def]
    """A headless Chromium whose temporary files go to ``scratch``."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (the test extra) is not installed")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if browser is None or driver_path is None:
        pytest.skip("no chromium + chromedriver (Debian: apt-get install chromium chromium-driver; "
                    ".ci/setup_toolchains.sh installs them)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver_path, env={**os.environ, "TMPDIR": str(scratch)}), options=options)


def _shot(driver, name: str) -> None:  # type: ignore[no-untyped-def]
    folder = os.environ.get("PALAESTRA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


def test_the_playground_in_a_real_browser(base_url: str, chromium_tmp: Path) -> None:
    driver = _chrome(chromium_tmp)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import Select, WebDriverWait

    wait = WebDriverWait(driver, 120)
    try:
        driver.get(base_url + "/")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#envs li")) == len(registry.ids()))
        assert "environments in" in driver.find_element(By.ID, "summary").text
        _shot(driver, "1-catalogue")

        # filters: a family, then multi-turn only, then a text search
        def shown() -> list[str]:
            return [li.get_attribute("data-id") for li in driver.find_elements(By.CSS_SELECTOR, "#envs li")]

        Select(driver.find_element(By.ID, "family")).select_by_value("graphs")
        wait.until(lambda d: sorted(shown()) == sorted(s.id for s in registry.specs(family="graphs")))
        _shot(driver, "1b-filtered")
        Select(driver.find_element(By.ID, "family")).select_by_value("")
        Select(driver.find_element(By.ID, "turns")).select_by_value("multi")
        wait.until(lambda d: sorted(shown()) == sorted(s.id for s in registry.specs(turns="multi")))
        Select(driver.find_element(By.ID, "turns")).select_by_value("")
        driver.find_element(By.ID, "q").send_keys("guess_number")
        wait.until(lambda d: [li.get_attribute("data-id") for li in d.find_elements(By.CSS_SELECTOR, "#envs li")]
                   == ["games/guess_number"])
        driver.find_element(By.ID, "q").clear()
        driver.find_element(By.ID, "q").send_keys("arithmetic/expression")

        # a single-turn episode: reveal the reference, type it, get the verdict, replay it
        wait.until(ready.element_to_be_clickable((By.CSS_SELECTOR, '#envs li[data-id="arithmetic/expression"]'))).click()
        wait.until(ready.text_to_be_present_in_element((By.ID, "env-title"), "arithmetic/expression"))
        driver.find_element(By.ID, "new").click()
        wait.until(ready.element_to_be_clickable((By.ID, "reveal"))).click()
        reference = wait.until(ready.visibility_of_element_located((By.ID, "reference"))).text
        answer = reference.removeprefix("reference answer: ")
        assert answer == make_source("arithmetic/expression").sample(0, 0).answer
        driver.find_element(By.ID, "answer").send_keys(answer)
        driver.find_element(By.ID, "send").click()
        assert wait.until(ready.visibility_of_element_located((By.ID, "final"))).text == "correct"
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#charts svg"))  # difficulty and baseline charts
        _shot(driver, "2-single-turn")
        driver.find_element(By.ID, "replay").click()
        assert "same as played" in wait.until(ready.visibility_of_element_located((By.ID, "replayed"))).text

        # a multi-turn episode to the end, one move per turn (the hint button fills in the oracle's move)
        driver.find_element(By.ID, "q").clear()
        driver.find_element(By.ID, "q").send_keys("guess_number")
        wait.until(ready.element_to_be_clickable((By.CSS_SELECTOR, '#envs li[data-id="games/guess_number"]'))).click()
        wait.until(ready.text_to_be_present_in_element((By.ID, "env-title"), "games/guess_number"))
        driver.find_element(By.ID, "level").clear()
        driver.find_element(By.ID, "level").send_keys("2")
        driver.find_element(By.ID, "new").click()
        wait.until(ready.element_to_be_clickable((By.ID, "hint")))
        for _ in range(40):
            if driver.find_elements(By.ID, "final"):
                break
            driver.find_element(By.ID, "hint").click()
            wait.until(lambda d: d.find_element(By.ID, "answer").get_attribute("value"))
            turns = len(driver.find_elements(By.CSS_SELECTOR, ".turn"))
            driver.find_element(By.ID, "send").click()
            wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".turn")) > turns)
        assert driver.find_element(By.ID, "final").text == "correct"
        assert len(driver.find_elements(By.CSS_SELECTOR, ".turn")) >= 2  # several turns, each with its feedback
        _shot(driver, "3-multi-turn")
        driver.find_element(By.ID, "replay").click()
        assert "same as played" in wait.until(ready.visibility_of_element_located((By.ID, "replayed"))).text
    finally:
        driver.quit()
