"""The neural player: single-point and subset safes first, then the network's lowest probability with exact's tie-break."""

import json

import pytest
import torch
from click.testing import CliRunner

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.cli import main
from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules
from sweeplab.learn.models import ModelError, read_card, shipped, write_card
from sweeplab.learn.neural.player import NeuralStrategy, interior_by_mines
from sweeplab.learn.neural.train import save_convnet, to_numpy, torch_convnet
from sweeplab.strategies import make
from sweeplab.strategies.base import StrategyError, play
from sweeplab.strategies.pgms.equation import combination_moves
from sweeplab.strategies.pgms.studholme_steps import simplify


@pytest.fixture(scope="module")
def untrained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("untrained")
    torch.manual_seed(0)
    save_convnet(to_numpy(torch_convnet(4, 1)), {"note": "untrained"}, folder)
    return folder


def test_plays_whole_games_and_logs_its_guesses(untrained):
    for seed in range(5):
        strategy = make("neural", seed=seed, model=str(untrained))
        game = play(strategy, Game(Rules(9, 9, 10, "safe"), seed))
        assert game.state in (GameState.WON, GameState.LOST)


def test_opens_in_a_corner_when_every_cell_looks_alike(untrained):
    strategy = NeuralStrategy(0, model=str(untrained), tolerance=0.5)  # every cell within the tolerance
    game = Game(Rules(9, 9, 10, "safe"), 3)
    move = strategy.choose(game.observation())
    assert move.cell in (0, 8, 72, 80)
    assert strategy.pending_guess.kind == "first" and "lowest predicted" in strategy.pending_guess.explanation.text


def _equation_safes(observation, difference=False):
    problem = constraints_from(observation)
    original = [(c.cells, c.mines) for c in problem.constraints]
    safe, _, reduced = simplify(original)
    return safe or (combination_moves(original + reduced)[0] if difference else set())


def test_the_passes_leave_the_network_only_positions_they_cannot_settle(untrained):
    """With a pass no position the network is asked about has a cell that pass proves safe; with the weaker pass
    before it some do (the positions the stronger pass takes from the network)."""
    asked = {"single-point": [], "subset": [], "difference": []}
    for certain, seen in asked.items():
        for seed in range(40):
            strategy = NeuralStrategy(seed, model=str(untrained), certain=certain)
            strategy.watcher = lambda observation, seen=seen: seen.append(
                (bool(_equation_safes(observation)), bool(_equation_safes(observation, difference=True)))
            )
            play(strategy, Game(Rules(16, 16, 40, "safe"), seed))
    assert asked["subset"] and not any(subset for subset, _ in asked["subset"])
    assert asked["difference"] and not any(difference for _, difference in asked["difference"])
    assert sum(subset for subset, _ in asked["single-point"]) >= 5
    assert sum(difference for _, difference in asked["subset"]) >= 2


def test_bad_options_and_models(untrained, tmp_path):
    with pytest.raises(StrategyError, match="tolerance"):
        NeuralStrategy(0, model=str(untrained), tolerance=1.5)
    with pytest.raises(StrategyError, match="certain must be one of single-point, subset, difference"):
        NeuralStrategy(0, model=str(untrained), certain="mio")
    with pytest.raises(StrategyError, match="symmetries must be one of 1, 2, 4, 8, not 3"):
        NeuralStrategy(0, model=str(untrained), symmetries=3)
    with pytest.raises(StrategyError, match="interior must be one of network, mines, not 'all'"):
        NeuralStrategy(0, model=str(untrained), interior="all")
    with pytest.raises(ModelError, match="not a model folder"):
        NeuralStrategy(0, model=str(tmp_path))
    write_card(tmp_path, {"kind": "nn"})
    with pytest.raises(ModelError, match="not a neural one"):
        NeuralStrategy(0, model=str(tmp_path))
    other = tmp_path / "broken"
    write_card(other, {"kind": "neural"})
    (other / "model.npz").write_text("not a zip")
    with pytest.raises(ModelError, match="cannot be read"):
        NeuralStrategy(0, model=str(other))


def test_cli_data_then_train_then_play(tmp_path):
    runner = CliRunner()
    data = tmp_path / "positions"
    result = runner.invoke(main, ["learn", "neural", "data", "-n", "20", "-o", str(data), "-b", "beginner", "-j", "1"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((data / "data.json").read_text())
    assert manifest["rows"] == "positions" and manifest["games"] == 20 and manifest["positions"] > 20
    assert manifest["player"] == "exact" and manifest["boards"] == ["9x9x10"]
    again = runner.invoke(main, ["learn", "neural", "data", "-n", "20", "-o", str(data), "-b", "beginner", "--resume"])
    assert again.exit_code == 0 and "is complete" in again.output
    model = tmp_path / "model"
    args = ["learn", "neural", "train", "-d", str(data), "-o", str(model), "--channels", "4", "--blocks", "1", "--epochs", "1"]
    result = runner.invoke(main, [*args, "--eval-games", "6", "--eval-board", "beginner", "-j", "1"])
    assert result.exit_code == 0, result.output
    card = json.loads((model / "card.json").read_text())
    assert card["kind"] == "neural" and card["command"].startswith("sweeplab learn neural train")
    assert [p["epoch"] for p in card["curve"]] == [0, 1] and card["curve"][1]["win_rate"]["games"] == 6
    assert card["evaluation"]["reference"]["player"] == "exact" and (model / "curve.png").stat().st_size > 0
    played = runner.invoke(main, ["play", "-s", f"neural[model={model}]", "-b", "beginner", "--seed", "2"])
    assert played.exit_code == 0, played.output
    # a round on the network's own games, then training on from the model
    own = tmp_path / "own"
    result = runner.invoke(main, ["learn", "neural", "data", "-n", "4", "-o", str(own), "-b", "beginner", "--model", str(model)])
    assert result.exit_code == 0, result.output
    assert json.loads((own / "data.json").read_text())["player"] == f"neural[model={model},certain=subset]"
    more = tmp_path / "more"
    args = ["learn", "neural", "train", "-d", str(own), "-o", str(more), "--init", str(model), "--eval-games", "0"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    assert json.loads((more / "card.json").read_text())["init"]["folder"] == str(model)


def test_cli_bad_input_exits_2(tmp_path):
    runner = CliRunner()
    features = tmp_path / "features"
    assert runner.invoke(main, ["learn", "data", "-n", "2", "-o", str(features), "-b", "beginner"]).exit_code == 0
    result = runner.invoke(main, ["learn", "neural", "train", "-d", str(features), "-o", str(tmp_path / "m")])
    assert result.exit_code == 2 and "not positions" in result.output
    result = runner.invoke(main, ["learn", "neural", "data", "-n", "2", "-o", str(tmp_path / "p"), "--model", str(features)])
    assert result.exit_code == 2 and "not a model folder" in result.output
    result = runner.invoke(main, ["learn", "neural", "data", "-n", "2", "-o", str(tmp_path / "p"), "-b", "nope"])
    assert result.exit_code == 2 and "--board" in result.output
    result = runner.invoke(main, ["learn", "neural", "data", "-n", "2", "-o", str(tmp_path / "p"), "--certain", "single-point"])
    assert result.exit_code == 2 and "give it with --model" in result.output
    if not torch.cuda.is_available():
        args = ["learn", "neural", "train", "-d", str(features), "-o", str(tmp_path / "m"), "--device", "cuda"]
        result = runner.invoke(main, args)
        assert result.exit_code == 2 and "no CUDA device" in result.output


def test_the_shipped_model_reads_the_board():
    """On the same 100 beginner layouts the shipped network wins far more than the single-point pass it adds to,
    and its card records a training that learned (held-out error falls, most positions' lowest prediction safest)."""

    def wins(name: str) -> int:
        return sum(play(make(name, seed=s), Game(Rules(9, 9, 10, "safe"), s)).state is GameState.WON for s in range(100))

    assert wins("neural") >= wins("single-point") + 8
    card = read_card(shipped("neural"))
    assert card["kind"] == "neural" and (shipped("neural") / "model.npz").stat().st_size < 5_000_000
    first, last = card["curve"][0]["validation"], card["curve"][-1]["validation"]
    assert last["mae"] < first["mae"] and last["picks_safest"] > 0.9


@pytest.mark.parametrize("seed", range(4))
def test_the_interior_from_the_mines_left_is_exact_when_the_frontier_is(seed):
    """Given the exact probabilities on the frontier and nonsense inside, ``interior_by_mines`` puts the exact
    probability on every covered cell no number touches; the frontier and the revealed cells are left alone."""
    import numpy as np

    from sweeplab.analysis.analyzer import analyze
    from sweeplab.learn.neural.convnet import view_grid

    game = Game(Rules(16, 16, 40, "safe"), seed)
    game.reveal(0)
    observation = game.observation()
    grid = view_grid(observation)
    exact = analyze(observation)
    board = observation.board
    frontier = {c for c in observation.covered() if any(observation.view[n] >= 0 for n in board.neighbours[c])}
    interior = [c for c in observation.covered() if c not in frontier]
    assert frontier and interior
    predicted = np.full(grid.shape, 0.9)
    for c in frontier:
        predicted.flat[c] = exact.probability(c)
    out = interior_by_mines(predicted, grid, observation)
    assert all(out.flat[c] == pytest.approx(exact.probability(c), abs=1e-9) for c in interior)
    assert all(out.flat[c] == predicted.flat[c] for c in range(board.cells) if c not in interior)


@pytest.mark.parametrize("seed", range(3))
def test_the_interior_rule_counts_a_flag_as_a_mine_as_the_analysis_does(seed):
    """With some mines flagged (on the frontier and inside), the rule still puts the exact probability on every
    unflagged covered cell no number touches, whatever the network says of the flagged cells, and leaves them be."""
    import random

    import numpy as np

    from sweeplab.analysis.analyzer import analyze
    from sweeplab.learn.neural.convnet import view_grid

    game = Game(Rules(16, 16, 40, "safe"), seed)
    game.reveal(0)
    for cell in random.Random(seed).sample(sorted(game.mine_cells()), 8):
        game.flag(cell)
    observation = game.observation()
    board = observation.board
    flagged = set(observation.flagged())
    frontier = {c for c in observation.covered() if any(observation.view[n] >= 0 for n in board.neighbours[c])}
    interior = [c for c in observation.covered() if c not in frontier]
    assert frontier and interior and len(flagged) == 8
    exact = analyze(observation)
    grid = view_grid(observation)
    predicted = np.full(grid.shape, 0.9)
    for c in frontier:
        predicted.flat[c] = exact.probability(c)
    for c in flagged:
        predicted.flat[c] = 0.0  # nonsense: the rule must not count on it
    out = interior_by_mines(predicted, grid, observation)
    assert all(out.flat[c] == pytest.approx(exact.probability(c), abs=1e-9) for c in interior)
    assert all(out.flat[c] == 0.0 for c in flagged)


def test_never_reveals_a_flagged_cell_and_reads_flags_as_covered(untrained, monkeypatch):
    """A flagged cell is no candidate even where the network rates it safest; the network, which was trained
    without flags, sees it covered and is told all the board's mines; a position whose covered cells are all
    flagged is refused by name."""
    import numpy as np

    from sweeplab.core.errors import InconsistentPositionError
    from sweeplab.core.observation import Observation

    game = Game(Rules(16, 16, 40, "safe"), 2)
    game.reveal(0)
    interior = [c for c in game.observation().covered() if c in game.mine_cells()][:3]
    for cell in interior:
        game.flag(cell)
    observation = game.observation()
    strategy = NeuralStrategy(0, model=str(untrained), tolerance=0.0, certain="single-point", interior="network")
    seen = []

    def rates_flags_safest(grid, mines, symmetries=1):
        seen.append(mines)
        out = np.full(grid.shape, 0.5)
        out.flat[interior] = 0.0
        return out

    monkeypatch.setattr(strategy.net, "probabilities", rates_flags_safest)
    strategy.proved.freed = lambda observation: []  # straight to the network
    move = strategy.choose(observation)
    assert move.cell not in interior and observation.view[move.cell] < 0
    assert seen == [40]
    view = tuple(-2 if v < 0 else v for v in observation.view)
    full = Observation(observation.board, view.count(-2), view)
    with pytest.raises(InconsistentPositionError, match=r"all \d+ covered cells are flagged"):
        NeuralStrategy(0, model=str(untrained), certain="single-point").choose(full)
