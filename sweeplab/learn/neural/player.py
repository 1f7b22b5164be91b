"""The ``neural`` player: sound passes for certain moves, else the cell a convolutional network reading the whole
board (:mod:`sweeplab.learn.neural.convnet`) calls least likely to be a mine.

Not from a seed paper: sweeplab's own attempt at a network player close to the exact engine, trained on the exact
engine's probabilities (``sweeplab learn neural``). How it plays:

* Every cell the single-point pass proves safe (with the mines it proved earlier in the game) is revealed first, as
  ``exact`` does before its analysis; the network is not asked.
* Then (``certain="subset"``, the default) the trivial rules and subset reduction run to a fixed point on the
  numbers' equations (seed 000's EqnStrategy steps, :func:`sweeplab.strategies.pgms.studholme_steps.simplify`); the
  cells they prove safe are revealed and the mines they prove kept for the single-point pass. On 2,000 expert games
  of seed 1 this pass added 1.15 points and halved the time per game against ``certain="single-point"``, the
  first shipped player (``results/learn/neural/tuning/``): the network had been asked about positions where a cell
  was certain, and missed some of those cells. These are the same kind of moves the seed 003 learned players take
  from DSS before their models decide. ``certain="difference"`` adds the equation difference rule
  (:func:`sweeplab.strategies.pgms.equation.combination_moves`) when subset reduction finds nothing: on the same games it
  asked the network a fifth less often but won the same (+0.05 ± 0.05 points), so it is not the default.
* Otherwise the network predicts every covered cell's mine probability and the player reveals the lowest. Cells
  within ``tolerance`` (default 0.01) of the lowest count as equally safe, and ``exact``'s tie-break decides among
  them (a corner, then an edge, then the most covered neighbours; :func:`sweeplab.strategies.exact.preferred_cell`):
  the network's small errors otherwise decide near-ties at random. ``tolerance=0`` takes the lowest prediction.
* A covered cell that no revealed cell touches (``interior="mines"``, the default) is not given the network's own
  prediction but the mines left less those the network expects on the other covered cells, shared equally among
  such cells (:func:`interior_by_mines`): in the exact answer they all have that one probability. The network's
  predictions there vary from cell to cell and miss the board's mine count, which decides between an interior cell
  and the frontier's best. On 5,000 expert games of seed 1 and of seed 2 (paired, against ``interior="network"``,
  the network's own values) it won +0.88 ± 0.48 and +1.60 ± 0.46 points. Spreading each number's shortfall over
  its covered neighbours as well (the mines expected around a number are the number) lost 0.76 ± 0.44 points
  against this on the seed-1 games, so the frontier keeps the network's values.
* Flags are trusted, as in the analysis: a flagged cell is never revealed, and the interior rule counts it as a
  mine. The network, trained without flags, sees a flagged cell as covered and is told all the board's mines.
* Every such move is logged as a guess with the network's predicted safety, even when the cell is in fact certain
  (the player does not know which of its moves are certain); the first move is the tie-break's corner.

Options: ``model`` (a model folder written by ``sweeplab learn neural train``; empty for the shipped one),
``tolerance``, ``certain`` (``"subset"``, ``"difference"`` or ``"single-point"``), ``symmetries`` (1, 2, 4 or 8:
the network's prediction averaged over that many of the board's mirror images and transposes,
:meth:`ConvNet.probabilities <sweeplab.learn.neural.convnet.ConvNet.probabilities>`; each decision costs that many network
passes, so the default 1 keeps a decision near 2 ms on expert), ``interior`` (``"mines"`` or ``"network"``, above).
NumPy plays the network, so the player loads without PyTorch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.errors import InconsistentPositionError
from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.learn.models import ModelError, read_card, shipped
from sweeplab.learn.neural.convnet import SYMMETRY_COUNTS, ConvNet, view_grid
from sweeplab.learn.seed003.features import frontier_mask
from sweeplab.strategies.base import Explanation, Strategy, StrategyError
from sweeplab.strategies.exact import Proved, preferred_cell, tie_break
from sweeplab.strategies.pgms.equation import combination_moves
from sweeplab.strategies.pgms.studholme_steps import simplify

#: what ``neural`` loads unless told: the shipped model's folder
DEFAULT_MODEL = "neural"
#: the sound passes for certain moves the player may run before asking its network (option ``certain``)
CERTAIN_PASSES = ("single-point", "subset", "difference")
#: how the player takes the mine probability of a covered cell no number touches (option ``interior``)
INTERIOR = ("network", "mines")

Watcher = Callable[[Observation], None]


def load_convnet(folder: Path) -> tuple[ConvNet, dict]:
    """The network and card of a model folder; :class:`ModelError` names the folder when it is not such a model."""
    card = read_card(folder)
    if card.get("kind") != "neural":
        raise ModelError(f"{folder}: holds a {card.get('kind')!r} model, not a neural one")
    try:
        return ConvNet.load(Path(folder) / "model.npz"), card
    except (OSError, ValueError, KeyError) as error:
        raise ModelError(f"{folder}/model.npz: cannot be read as the network ({error})") from None


def _unflagged(observation: Observation) -> np.ndarray:
    """Per cell: whether it is covered and not flagged (the cells a move may reveal)."""
    return np.fromiter(observation.view, dtype=np.int8, count=observation.board.cells) == COVERED


def interior_by_mines(predicted: np.ndarray, grid: np.ndarray, observation: Observation) -> np.ndarray:
    """``predicted`` (a (height, width) grid of mine probabilities for ``grid``, the observation's
    :func:`~sweeplab.learn.neural.convnet.view_grid`) with every covered cell that no revealed cell touches given the mines
    left less those the network expects on the other covered cells, shared equally (clipped to 0-1): as in the exact
    answer, where such cells all have the same probability and the expected mines add up to the mines left. A
    flagged cell is a mine here, as in the analysis: the mines left leave it out, and so do the cells that share
    them."""
    covered = _unflagged(observation).reshape(grid.shape)
    near = frontier_mask(observation).reshape(grid.shape)
    interior = covered & ~near
    count = int(interior.sum())
    if not count:
        return predicted
    out = predicted.copy()
    out[interior] = min(max((observation.mines_left - float(predicted[covered & near].sum())) / count, 0.0), 1.0)
    return out


class NeuralStrategy(Strategy):
    """Certain moves of the single-point pass and of subset reduction, else the lowest mine probability a
    convolutional network predicts (see the module docstring); near-ties within ``tolerance`` go to ``exact``'s
    tie-break."""

    name = "neural"
    source = "sweeplab's own: a convolutional network trained on the exact engine's probabilities"
    summary = "single-point and subset safes, else the lowest mine probability a board-reading network predicts"
    queue_first = True

    def __init__(
        self,
        seed: int | None = None,
        *,
        model: str = "",
        tolerance: float = 0.01,
        certain: str = "subset",
        symmetries: int = 1,
        interior: str = "mines",
    ) -> None:
        super().__init__(seed)
        if interior not in INTERIOR:
            raise StrategyError(f"strategy 'neural': interior must be one of {', '.join(INTERIOR)}, not {interior!r}")
        self.interior = interior
        if symmetries not in SYMMETRY_COUNTS:
            raise StrategyError(
                f"strategy 'neural': symmetries must be one of {', '.join(map(str, SYMMETRY_COUNTS))}, not {symmetries}"
            )
        self.symmetries = symmetries
        if not 0.0 <= tolerance < 1.0:
            raise StrategyError(f"strategy 'neural': tolerance must be from 0 to below 1, not {tolerance}")
        if certain not in CERTAIN_PASSES:
            raise StrategyError(f"strategy 'neural': certain must be one of {', '.join(CERTAIN_PASSES)}, not {certain!r}")
        self.certain = certain
        self.tolerance = tolerance
        self.net, self.card = load_convnet(Path(model) if model else shipped(DEFAULT_MODEL))
        self.proved = Proved()
        self.watcher: Watcher | None = None  # called at each position the network decides (to record training data)

    def begin(self, rules: Rules) -> None:
        super().begin(rules)
        self.proved = Proved()

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        safe: Sequence[int] | None = self.proved.freed(observation)
        if not safe and self.certain != "single-point":
            safe = self._equation_safes(observation)
        if safe:
            self._queue.extend(map(Move.reveal, safe))
            return self._queue.popleft()
        if self.watcher is not None:
            self.watcher(observation)
        grid = view_grid(observation)  # a flag shows as covered, as in the network's training: all the mines lie there
        predicted = self.net.probabilities(grid, observation.mines, self.symmetries)
        if self.interior == "mines":
            predicted = interior_by_mines(predicted, grid, observation)
        predicted = predicted.ravel()
        covered = np.flatnonzero(_unflagged(observation))
        if not covered.size:
            raise InconsistentPositionError(f"nothing to reveal: all {observation.flag_count} covered cells are flagged")
        values = predicted[covered]
        lowest = float(values.min())
        ties = covered[values <= lowest + self.tolerance].tolist()
        cell = preferred_cell(observation, ties) if len(ties) > 1 else ties[0]
        safety = 1.0 - float(predicted[cell])
        kind = "first" if observation.is_start() else "educated"
        text = (
            f"neural: {observation.board.name(cell)} has the lowest predicted mine probability ({predicted[cell]:.3f}) "
            f"of {len(covered)} covered cells"
            + (
                f"; {len(ties)} were within {self.tolerance:g} of it (tie-break: {tie_break(observation, ties, cell)})"
                if len(ties) > 1
                else ""
            )
        )
        figures = {"predicted_mine_probability": round(float(predicted[cell]), 6), "near_ties": len(ties)}
        return self.guess(observation, cell, kind, safety, Explanation(text, figures))

    def _equation_safes(self, observation: Observation) -> list[int]:
        """The cells the trivial rules and subset reduction prove safe, and with ``certain="difference"`` then the
        equation difference rule (sorted); the mines they prove are kept for the single-point pass. Empty on a
        position whose numbers contradict each other (the network decides it)."""
        if observation.is_start():
            return []
        try:
            original = [(c.cells, c.mines) for c in constraints_from(observation).constraints]
            safe, mines, reduced = simplify(original)
        except InconsistentPositionError:
            return []
        if not safe and self.certain == "difference":
            safe, more = combination_moves(original + reduced)
            mines |= more
        self.proved.keep(observation, mines)
        return sorted(safe)
