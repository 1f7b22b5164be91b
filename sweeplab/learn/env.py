"""The Gymnasium environment ``sweeplab/Minesweeper-v0``: the player's view as a fixed-shape array, a cell to reveal
as the action, and a choice of rewards including seed 003's.

``import sweeplab.learn`` registers the id (see :mod:`sweeplab.learn`), so ``gymnasium.make("sweeplab/Minesweeper-v0",
board="expert", rule="zero")`` and ``gymnasium.make_vec("sweeplab/Minesweeper-v0", num_envs=8)`` work after it.
Needs the ``learn`` extra (gymnasium).

* Observation: ``int8`` array of shape (height, width): -1 covered, 0-8 a revealed number. (The environment only
  reveals, so no cell is ever flagged.)
* Action: ``Discrete(width * height)``, the cell ``y * width + x`` to reveal. ``info["action_mask"]`` (``int8``, 1
  for a covered cell) lists the legal ones, and so does the method ``action_masks()`` (booleans), which
  sb3-contrib's ``MaskablePPO`` calls; on a vector environment, ``envs.call("action_masks")`` or the stacked
  ``infos["action_mask"]``. An illegal action (a revealed cell) leaves the game unchanged and is
  rewarded ``illegal`` (default -1); it does not end the episode.
* Rewards (``reward=``):
  ``"seed003"`` (seed 003 section 2.2 / equation (11) as :mod:`sweeplab.learn.seed003.dqn` reconstructs it): on a safe
  reveal, the cells uncovered with certainty after the action (the cells it opened, plus the covered cells DSS
  (:func:`sweeplab.strategies.dss.matrix.dss`) then proves safe) over ``scale`` (25, a 5x5 sub-state), capped at 1; a mine
  gives ``loss`` (default -1);
  ``"progress"``: the cells opened over the board's safe cells, ``loss`` for a mine;
  ``"win"``: 1 for a won game, ``loss`` for a lost one, 0 otherwise.
* ``reset(seed=...)`` seeds Gymnasium's generator, which draws the game's seed, so a seed fixes the layout;
  ``reset(options={"game_seed": n})`` deals the game ``Game(rules, n)`` itself, the layout that ``sweeplab bench``
  plays as game ``i`` when ``n`` is :func:`sweeplab.bench.runner.game_seeds` (root, i)[0], so a policy can be
  compared with the project's players on the same layouts.
* ``render_mode="ansi"`` returns sweeplab's text rendering.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError:  # pragma: no cover - depends on the install
    raise ImportError("sweeplab's Gymnasium environment needs gymnasium: pip install 'sweeplab[learn]'") from None

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.game import Game, GameState
from sweeplab.core.observation import COVERED
from sweeplab.core.rules import Rules, make_rules
from sweeplab.formats.render import render_game
from sweeplab.learn import ENV_ID
from sweeplab.strategies.dss.matrix import bits, dss, matrix_from

REWARDS = ("seed003", "progress", "win")


def certain_safe(game_view: tuple[int, ...], rules: Rules) -> int:
    """How many covered cells DSS proves safe in a view (the view of a game still being played)."""
    from sweeplab.core.observation import Observation

    observation = Observation(rules.board, rules.mines, game_view)
    problem = constraints_from(observation)
    _, rows = matrix_from(problem)
    reduction = dss(rows)
    if reduction is None:
        return 0
    return sum(1 for _ in bits(reduction.zeros))


class MinesweeperEnv(gymnasium.Env):
    """One game per episode on ``board`` (a preset or ``WxHxM``) under first-click ``rule`` (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  (Gymnasium declares it so)

    def __init__(
        self,
        board: str = "beginner",
        rule: str = "safe",
        reward: str = "seed003",
        loss: float = -1.0,
        illegal: float = -1.0,
        scale: float = 25.0,
        render_mode: str | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}: choose one of {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r}: choose 'ansi' or None")
        if scale <= 0:
            raise ValueError(f"scale must be positive, not {scale}")
        self.rules = make_rules(board, rule)
        self.reward_kind = reward
        self.loss = float(loss)
        self.illegal = float(illegal)
        self.scale = float(scale)
        self.render_mode = render_mode
        h, w = self.rules.height, self.rules.width
        self.observation_space = spaces.Box(low=-1, high=8, shape=(h, w), dtype=np.int8)
        self.action_space = spaces.Discrete(w * h)
        self.game: Game | None = None

    def _observe(self) -> np.ndarray:
        assert self.game is not None
        view = np.asarray(self.game.observation().view, dtype=np.int8)
        return view.reshape(self.rules.height, self.rules.width)

    def action_masks(self) -> np.ndarray:
        """The legal actions (covered cells) as booleans, shape (width * height,): what ``MaskablePPO`` asks for."""
        if self.game is None:
            raise RuntimeError("call reset() before action_masks()")
        return np.array([v == COVERED for v in self.game.observation().view], dtype=bool)

    def _info(self) -> dict[str, Any]:
        assert self.game is not None
        return {
            "action_mask": self.action_masks().astype(np.int8),
            "state": self.game.state.value,
            "moves": self.game.moves,
        }

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        if options and "game_seed" in options:
            game_seed = options["game_seed"]
            if not isinstance(game_seed, int) or isinstance(game_seed, bool) or game_seed < 0:
                raise ValueError(f"options['game_seed'] must be an integer of at least 0, not {game_seed!r}")
        self.game = Game(self.rules, game_seed)
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self.game.over:
            raise RuntimeError("the episode is over; call reset()")
        cell = int(action)
        if not 0 <= cell < self.rules.width * self.rules.height:
            raise ValueError(f"action {action!r} is not a cell of the {self.rules.width}x{self.rules.height} board")
        if self.game.observation().view[cell] != COVERED:
            return self._observe(), self.illegal, False, False, self._info()
        opened = self.game.reveal(cell)
        state = self.game.state
        if state is GameState.LOST:
            value = self.loss
        elif self.reward_kind == "win":
            value = 1.0 if state is GameState.WON else 0.0
        elif self.reward_kind == "progress":
            value = len(opened) / (self.rules.width * self.rules.height - self.rules.mines)
        else:
            certain = 0 if state is GameState.WON else certain_safe(self.game.observation().view, self.rules)
            value = min(1.0, (len(opened) + certain) / self.scale)
        return self._observe(), float(value), state is not GameState.PLAYING, False, self._info()

    def render(self) -> str | None:  # type: ignore[override]
        if self.render_mode == "ansi" and self.game is not None:
            return render_game(self.game)
        return None


__all__ = ["ENV_ID", "REWARDS", "MinesweeperEnv", "certain_safe"]
