"""benchmarks/learn/maskable_ppo.py: its pieces, and a tiny end-to-end run where the rl extra is installed."""

import json

import numpy as np
import pytest

from tests.bench import scripts

ppo = scripts.load("maskable_ppo")


def test_one_hot_has_one_plane_per_cell_state():
    view = np.array([[-1, 0], [3, 8]], dtype=np.int8)
    planes = ppo.one_hot(view).reshape(ppo.PLANES, 4)
    assert planes.sum(axis=0).tolist() == [1, 1, 1, 1]
    assert [int(np.argmax(planes[:, c])) for c in range(4)] == [0, 1, 4, 9]


def test_bad_budgets_are_refused():
    with pytest.raises(SystemExit) as exit_info:
        ppo.parse(["--games", "0"])
    assert exit_info.value.code == 2


def test_baselines_play_the_benchs_layouts():
    random = ppo.baseline("random", "5x5x3", "safe", 20, 0)
    again = ppo.baseline("random", "5x5x3", "safe", 20, 0)
    assert random["games"] == 20 and random["won"] == again["won"]
    assert 0 <= random["mean_safe_cells_opened"] <= 1


def test_a_tiny_run_writes_its_result_with_the_command(tmp_path):
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "ppo.json"
    args = ["--board", "4x4x2", "--minutes", "0.2", "--timesteps", "256", "--games", "5", "--envs", "2"]
    done = scripts.run("maskable_ppo", *args, "--n-steps", "64", "--batch-size", "64", "--out", str(out), timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["command"].endswith(f"--out {out}") and "maskable_ppo.py --board 4x4x2" in result["command"]
    assert set(result["players"]) == {"maskable-ppo", "random", "single-point"}
    assert all(p["games"] == 5 for p in result["players"].values())
    assert result["training"]["timesteps"] >= 256 and result["environment"]["threads"] == 1
