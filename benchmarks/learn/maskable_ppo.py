"""Does a standard reinforcement-learning library learn on sweeplab's Gymnasium environment? sb3-contrib's
MaskablePPO trains on ``sweeplab/Minesweeper-v0`` (beginner 9x9x10, safe first click, by default) under a CPU-time
budget on one thread, then plays ``--games`` evaluation games; ``random`` and ``single-point`` play the same layouts
(game ``i`` is the layout ``sweeplab bench`` deals as game ``i`` of root seed ``--eval-seed``). Writes
results/learn/maskable_ppo.json with the command line that made it.

Needs the ``rl`` extra (pip install 'sweeplab[rl]', which pins sb3-contrib and stable-baselines3) besides ``learn``.

The policy sees the board one-hot (ten planes: covered, 0..8) through three 3x3 convolutions (``--policy conv``, the
default; ``mlp`` is SB3's dense network), acts on a cell and is masked to covered cells
(``MinesweeperEnv.action_masks``). The reward is the environment's ``progress`` reward (cells opened over the safe
cells; -1 for a mine) unless ``--reward`` says otherwise.

Run: python benchmarks/learn/maskable_ppo.py [--minutes 10] [--games 1000]
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path("results/learn/maskable_ppo.json")
PLANES = 10  # covered, then the numbers 0..8


def one_hot(view: np.ndarray) -> np.ndarray:
    """The (height, width) view as ``PLANES`` float planes, flattened: plane 0 covered, plane k+1 the number k.

    >>> one_hot(np.array([[-1, 2]], dtype=np.int8)).reshape(PLANES, 2)[[0, 3]].tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    flat = view.reshape(-1).astype(np.int64) + 1
    out = np.zeros((PLANES, flat.size), dtype=np.float32)
    out[flat, np.arange(flat.size)] = 1.0
    return out.reshape(-1)


def make_env(board: str, rule: str, reward: str) -> Any:
    """The registered environment with a one-hot observation (the mask method stays reachable through the wrapper)."""
    import gymnasium

    import sweeplab.learn  # noqa: F401  (registers the id)
    from sweeplab.learn import ENV_ID

    env = gymnasium.make(ENV_ID, board=board, rule=rule, reward=reward)
    rules = env.unwrapped.rules
    space = gymnasium.spaces.Box(0.0, 1.0, shape=(PLANES * rules.width * rules.height,), dtype=np.float32)
    return gymnasium.wrappers.TransformObservation(env, one_hot, space)


def baseline(name: str, board: str, rule: str, games: int, root: int) -> dict[str, Any]:
    """Wins of the project's player ``name`` on games 0..games-1 of ``root``, as ``sweeplab bench`` deals them."""
    from sweeplab.bench.runner import deal, game_seeds
    from sweeplab.core.game import GameState
    from sweeplab.core.rules import make_rules
    from sweeplab.strategies import make
    from sweeplab.strategies.base import play

    rules = make_rules(board, rule)
    start = time.process_time()
    won = 0
    opened = []
    for i in range(games):
        game = play(make(name, seed=game_seeds(root, i)[1]), deal(rules, root, i))
        won += game.state is GameState.WON
        opened.append(_opened(game.observation().view, rules))
    return _rate(won, games, opened) | {"cpu_seconds": round(time.process_time() - start, 2)}


def evaluate_policy(model: Any, board: str, rule: str, reward: str, games: int, root: int) -> dict[str, Any]:
    """Wins of the trained policy (deterministic, masked) on the same layouts as :func:`baseline`."""
    from sweeplab.bench.runner import game_seeds

    env = make_env(board, rule, reward)
    start = time.process_time()
    won = 0
    moves = []
    opened = []
    rules = env.unwrapped.rules
    for i in range(games):
        obs, info = env.reset(options={"game_seed": game_seeds(root, i)[0]})
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            obs, _, done, _, info = env.step(int(action))
        won += info["state"] == "won"
        moves.append(info["moves"])
        opened.append(_opened(env.unwrapped.game.observation().view, rules))
    return _rate(won, games, opened) | {
        "cpu_seconds": round(time.process_time() - start, 2),
        "mean_reveals_per_game": round(float(np.mean(moves)), 2),
    }


def _opened(view: Any, rules: Any) -> float:
    """The share of the safe cells revealed when the game ended (1 for a won game)."""
    return sum(1 for v in view if v >= 0) / (rules.width * rules.height - rules.mines)


def _rate(won: int, games: int, opened: list[float]) -> dict[str, Any]:
    from sweeplab.bench.stats import wilson

    low, high = wilson(won, games)
    return {
        "games": games,
        "won": won,
        "win_rate": round(won / games, 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "mean_safe_cells_opened": round(float(np.mean(opened)), 4),
    }


def conv_extractor(height: int, width: int, channels: int) -> Any:
    """A features extractor of three 3x3 convolutions over the one-hot planes (zero-padded: outside the board is no
    plane), so every cell is read through the same local rule wherever it lies; the policy's last layer maps the
    per-cell features to one logit per action."""
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class CellConv(BaseFeaturesExtractor):
        def __init__(self, observation_space: Any) -> None:
            super().__init__(observation_space, features_dim=channels * height * width)
            layers: list[Any] = []
            for i in range(3):
                layers += [torch.nn.Conv2d(PLANES if i == 0 else channels, channels, 3, padding=1), torch.nn.ReLU()]
            self.net = torch.nn.Sequential(*layers, torch.nn.Flatten())

        def forward(self, observations: Any) -> Any:
            return self.net(observations.view(-1, PLANES, height, width))

    return CellConv


def train(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """MaskablePPO on ``--envs`` copies of the environment until ``--timesteps`` or ``--minutes`` of CPU time."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    budget = args.minutes * 60.0
    start = time.process_time()
    curve: list[dict[str, Any]] = []

    class Budget(BaseCallback):
        """Stops training when the CPU budget is spent; records the recent episodes' win rate as it goes."""

        def __init__(self) -> None:
            super().__init__()
            self.won: list[bool] = []

        def _on_step(self) -> bool:
            for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
                if done:
                    self.won.append(info["state"] == "won")
            return time.process_time() - start < budget

        def _on_rollout_end(self) -> None:
            recent = self.won[-200:]
            curve.append(
                {
                    "timesteps": self.num_timesteps,
                    "cpu_seconds": round(time.process_time() - start, 1),
                    "episodes": len(self.won),
                    "recent_episodes": len(recent),
                    "recent_win_rate": round(float(np.mean(recent)), 4) if recent else None,
                }
            )

    venv = DummyVecEnv([lambda: make_env(args.board, args.rule, args.reward) for _ in range(args.envs)])
    venv.seed(args.seed)
    policy: dict[str, Any] = {"net_arch": [args.hidden, args.hidden]}
    if args.policy == "conv":
        rules = venv.envs[0].unwrapped.rules
        policy = {"features_extractor_class": conv_extractor(rules.height, rules.width, args.channels), "net_arch": []}
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        gamma=args.gamma,
        ent_coef=args.ent_coef,
        policy_kwargs=policy,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    callback = Budget()
    model.learn(total_timesteps=args.timesteps, callback=callback)
    return model, {
        "timesteps": int(model.num_timesteps),
        "episodes": len(callback.won),
        "cpu_seconds": round(time.process_time() - start, 1),
        "curve": curve,
    }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", default="beginner", help="preset or WxHxM (default beginner)")
    parser.add_argument("--rule", default="safe", help="first-click rule (default safe)")
    parser.add_argument("--reward", default="progress", choices=("progress", "seed003", "win"), help="environment reward")
    parser.add_argument("--minutes", type=float, default=10.0, help="CPU-time budget for training (default 10)")
    parser.add_argument(
        "--timesteps", type=int, default=10_000_000, help="step budget for training (default: the CPU budget decides)"
    )
    parser.add_argument("--games", type=int, default=1000, help="evaluation games per player (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--eval-seed", type=int, default=0, help="root seed of the evaluation layouts (default 0)")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together (default 8)")
    parser.add_argument("--n-steps", type=int, default=256, help="PPO rollout length per environment (default 256)")
    parser.add_argument("--batch-size", type=int, default=256, help="PPO minibatch (default 256)")
    parser.add_argument("--learning-rate", type=float, default=3e-4, help="Adam learning rate (default 3e-4)")
    parser.add_argument("--gamma", type=float, default=0.99, help="discount (default 0.99)")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus (default 0.01)")
    parser.add_argument(
        "--policy", default="conv", choices=("conv", "mlp"), help="conv: 3x3 convolutions (default); mlp: two dense layers"
    )
    parser.add_argument("--channels", type=int, default=32, help="conv: channels of each convolution (default 32)")
    parser.add_argument("--hidden", type=int, default=256, help="mlp: units in each of the two hidden layers (default 256)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"result file (default {OUT})")
    args = parser.parse_args(argv)
    for name in ("minutes", "timesteps", "games", "envs", "n_steps", "batch_size", "learning_rate", "hidden", "channels"):
        if getattr(args, name) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be above 0, not {getattr(args, name)}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    try:
        import sb3_contrib
        import stable_baselines3
        import torch
    except ImportError as error:
        sys.exit(f"maskable_ppo.py needs the rl extra: pip install 'sweeplab[rl]' ({error})")
    wall = time.perf_counter()
    model, training = train(args)
    print(f"trained {training['timesteps']} steps, {training['episodes']} episodes in {training['cpu_seconds']} CPU s")
    players = {"maskable-ppo": evaluate_policy(model, args.board, args.rule, args.reward, args.games, args.eval_seed)}
    for name in ("random", "single-point"):
        players[name] = baseline(name, args.board, args.rule, args.games, args.eval_seed)
    for name, result in players.items():
        print(
            f"{name}: {result['won']}/{result['games']} won ({result['win_rate']:.1%}, 95% {result['wilson95']}), "
            f"opened {result['mean_safe_cells_opened']:.1%} of the safe cells on average"
        )
    command = "python " + " ".join(
        shlex.quote(a) for a in [f"benchmarks/learn/{Path(__file__).name}", *(sys.argv[1:] if argv is None else argv)]
    )
    result = {
        "command": command,
        "board": args.board,
        "rule": args.rule,
        "reward": args.reward,
        "evaluation": {"games": args.games, "root_seed": args.eval_seed, "layouts": "sweeplab bench's games 0..games-1"},
        "parameters": {k: v for k, v in vars(args).items() if k not in ("out", "board", "rule", "reward", "games", "eval_seed")},
        "training": training,
        "players": players,
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "environment": {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "torch": torch.__version__,
            "stable_baselines3": stable_baselines3.__version__,
            "sb3_contrib": sb3_contrib.__version__,
            "threads": torch.get_num_threads(),
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
