import os
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sweeplab.core.game import Game
from sweeplab.learn.env import ENV_ID, MinesweeperEnv


@pytest.mark.parametrize(
    ("board", "rule"), [("beginner", "safe"), ("4x3x2", "zero"), ("expert", "safe"), ("1x6x1", "unsafe"), ("8x8x10", "xp")]
)
def test_check_env_passes(board, rule):
    env = gymnasium.make(ENV_ID, board=board, rule=rule)
    check_env(env.unwrapped)
    assert env.observation_space.shape == (env.unwrapped.rules.height, env.unwrapped.rules.width)


def _play(env, seed, pick):
    obs, info = env.reset(seed=seed)
    trace = [obs.copy()]
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, truncated, info = env.step(int(legal[pick % len(legal)]))
        trace.append(obs.copy())
        total += reward
        assert not truncated
    return trace, total, info


def test_reset_seed_reproduces_the_game():
    env = MinesweeperEnv(board="beginner")
    a, ra, _ = _play(env, 7, pick=3)
    b, rb, _ = _play(env, 7, pick=3)
    assert len(a) == len(b) and all((x == y).all() for x, y in zip(a, b, strict=True)) and ra == rb
    c, _, _ = _play(env, 8, pick=3)
    assert len(a) != len(c) or any((x != y).any() for x, y in zip(a, c, strict=False))


def test_action_mask_marks_covered_cells_and_illegal_moves_change_nothing():
    env = MinesweeperEnv(board="9x9x1", illegal=-0.5)
    obs, info = env.reset(seed=1)
    assert info["action_mask"].tolist() == [1] * 81
    obs, _, done, _, info = env.step(40)
    assert not done or info["state"] == "won"
    if not done:
        revealed = int(np.flatnonzero(info["action_mask"] == 0)[0])
        again, reward, done2, _, info2 = env.step(revealed)
        assert reward == -0.5 and not done2 and (again == obs).all()
        assert (info2["action_mask"] == (obs.reshape(-1) == -1)).all()


def test_progress_reward_adds_to_one_on_a_won_game_and_loss_is_penalised():
    env = MinesweeperEnv(board="5x5x1", reward="progress", loss=-2.0)
    for seed in range(20):
        _, info = env.reset(seed=seed)
        total = 0.0
        done = False
        while not done:
            _, r, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            total += r
        if info["state"] == "won":
            assert total == pytest.approx(1.0)
        else:
            assert r == -2.0


def _with_layout(env, mines):
    env.reset(seed=0)
    env.game = Game(env.rules, layout=mines)
    return env


def test_seed003_reward_counts_opened_cells_and_cells_dss_proves_safe():
    env = _with_layout(MinesweeperEnv(board="5x1x1", rule="unsafe", reward="seed003", scale=5), [2])
    _, r, done, _, _ = env.step(1)  # shows 1: {0, 2} hold the mine, nothing certain
    assert r == pytest.approx(1 / 5) and not done
    _, r, done, _, _ = env.step(0)  # shows 0: 2 is the mine; 3 and 4 still unknown
    assert r == pytest.approx(1 / 5) and not done
    _, r, done, _, info = env.step(3)  # shows 1: {2, 4} hold one mine and 2 is it, so DSS proves 4 safe
    assert r == pytest.approx(2 / 5) and not done
    _, r, done, _, info = env.step(4)
    assert done and info["state"] == "won" and r == pytest.approx(1 / 5)
    _, r, done, _, info = _with_layout(env, [2]).step(2)
    assert done and info["state"] == "lost" and r == -1.0


def test_win_reward():
    env = _with_layout(MinesweeperEnv(board="3x1x1", rule="unsafe", reward="win"), [2])
    _, r, done, _, info = env.step(0)  # 0 shows 0 and opens 1: won
    assert r == 1.0 and done and info["state"] == "won"


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown reward"):
        MinesweeperEnv(reward="nope")
    env = MinesweeperEnv(board="beginner")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not a cell"):
        env.step(81)


def _python(code):
    """Run ``code`` in a fresh interpreter (so no earlier import of the environment module helps it)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=root, timeout=120)


def test_importing_the_package_registers_the_id_without_loading_the_environment_module():
    done = _python(
        "import sys, gymnasium, sweeplab.learn\n"
        "assert 'sweeplab.learn.env' not in sys.modules, 'registration loaded the environment eagerly'\n"
        "assert 'torch' not in sys.modules and 'xgboost' not in sys.modules\n"
        "env = gymnasium.make('sweeplab/Minesweeper-v0', board='8x8x10')\n"
        "print(env.observation_space.shape, env.unwrapped.rules.mines)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(8, 8) 10"


def test_the_package_imports_without_gymnasium():
    done = _python(
        "import sys\n"
        "sys.modules['gymnasium'] = None  # as if it were not installed\n"
        "import sweeplab.learn\n"
        "print(sweeplab.learn.register_env())\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_check_env_passes_on_the_made_environment():
    check_env(gymnasium.make(ENV_ID).unwrapped)
    check_env(gymnasium.make(ENV_ID, board="5x4x3", reward="progress").unwrapped)


def test_action_masks_method_matches_the_info_mask():
    env = MinesweeperEnv(board="beginner")
    with pytest.raises(RuntimeError, match="reset"):
        env.action_masks()
    _, info = env.reset(seed=3)
    for _ in range(3):
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (81,)
        assert (mask == info["action_mask"].astype(bool)).all()
        _, _, done, _, info = env.step(int(np.flatnonzero(mask)[0]))
        if done:
            break


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_environment_steps_with_masked_random_actions(mode):
    envs = gymnasium.make_vec(ENV_ID, num_envs=4, vectorization_mode=mode, board="8x8x10", reward="progress")
    try:
        obs, infos = envs.reset(seed=11)
        assert obs.shape == (4, 8, 8) and obs.dtype == np.int8
        rng = np.random.default_rng(0)
        finished = 0
        for _ in range(60):
            masks = np.stack(envs.call("action_masks"))
            assert masks.shape == (4, 64)
            assert (masks == infos["action_mask"].astype(bool)).all()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            assert rewards.shape == (4,) and not truncated.any()
            finished += int(terminated.sum())
            if terminated.any():  # next-step autoreset: the finished sub-environments reset on the next step
                obs, _, _, _, infos = envs.step(actions)
        assert finished > 0
    finally:
        envs.close()


def test_reset_with_a_game_seed_deals_the_benchs_layout():
    from sweeplab.bench.runner import deal, game_seeds

    env = MinesweeperEnv(board="beginner", rule="unsafe")
    for index in range(3):
        env.reset(options={"game_seed": game_seeds(0, index)[0]})
        assert env.game.seed == deal(env.rules, 0, index).seed
        env.step(0)
        bench = deal(env.rules, 0, index)
        bench.reveal(0)
        assert env.game.observation().view == bench.observation().view
    with pytest.raises(ValueError, match="game_seed"):
        env.reset(options={"game_seed": -1})
