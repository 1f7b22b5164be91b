import numpy as np
import pytest

from sweeplab.bench.executors import LocalExecutor
from sweeplab.bench.journal import OutputError
from sweeplab.core.rules import make_rules
from sweeplab.learn.seed003.data import BoardRange, DataError, Dataset, collect
from sweeplab.learn.seed003.episodes import simulate
from sweeplab.learn.seed003.players import ManhattanPlayer
from sweeplab.learn.seed003.shards import DataFolder, generate, join, plan, shard_meta, totals

BEGINNER = BoardRange.fixed(make_rules("beginner"))
SETTINGS = {"rows": "features", "games": 6}


def same(a: Dataset, b: Dataset) -> bool:
    return a.names == b.names and all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("x", "y", "game"))


def test_chunks_cover_the_games_once_and_rows_match_one_long_collect():
    chunks = plan(7, 5, BEGINNER, 3)
    assert [(c.start, c.games) for c in chunks] == [(0, 3), (3, 3), (6, 1)]
    shards = generate(chunks, LocalExecutor(1))
    assert same(join(shards), collect(ManhattanPlayer, 7, 5, BEGINNER).data)
    assert totals(s.meta() for s in shards)["games"] == 7


def test_two_workers_give_the_rows_of_one():
    chunks = plan(6, 2, BoardRange(), 2)
    with LocalExecutor(2) as two:
        parallel = join(generate(chunks, two))
    assert same(parallel, join(generate(chunks, LocalExecutor(1))))


def test_substate_rows_are_the_single_pass_of_simulate():
    coefficients = (0.1, 0.0, 0.0, 0.0)
    rows = join(generate(plan(8, 3, BoardRange(), 3, rows="substates", coefficients=coefficients), LocalExecutor(1)))
    episode = simulate(ManhattanPlayer, coefficients, 8, 3, BoardRange())
    assert rows.x.shape[1] == 25 and np.array_equal(rows.x, episode.x) and np.array_equal(rows.y, episode.y)
    with pytest.raises(DataError, match="four alpha"):
        plan(8, 3, BoardRange(), 3, rows="substates")


class Stop(Exception):
    pass


def test_an_interrupted_folder_resumes_with_its_shards_and_the_same_rows(tmp_path):
    chunks = plan(6, 4, BEGINNER, 2)
    whole = join(generate(chunks, LocalExecutor(1)))

    def stop_after_one(games):
        raise Stop

    with DataFolder(tmp_path / "d", SETTINGS) as folder, pytest.raises(Stop):
        generate(chunks, LocalExecutor(1), folder, stop_after_one)
    assert [p.name for p in (tmp_path / "d").glob("shard-*")] == ["shard-000000.npz"]
    with pytest.raises(OutputError, match="--resume"):
        DataFolder(tmp_path / "d", SETTINGS)
    with pytest.raises(OutputError, match="other settings"):
        DataFolder(tmp_path / "d", dict(SETTINGS, games=7), resume=True)
    played = []
    with DataFolder(tmp_path / "d", SETTINGS, resume=True) as folder:
        assert list(folder.done) == [0]
        new = generate(chunks, LocalExecutor(1), folder, played.append)
        folder.finish({"games": 6})
    assert [s.number for s in new] == [1, 2] and played == [2, 2]
    assert all(s.blob and not len(s.data) for s in new)  # the workers compressed them; only the files hold rows
    assert same(Dataset.load(tmp_path / "d"), whole)
    assert shard_meta(tmp_path / "d" / "shard-000002.npz")["start"] == 4
    with DataFolder(tmp_path / "d", SETTINGS, resume=True) as folder:
        assert folder.finished
    with DataFolder(tmp_path / "d", SETTINGS, force=True) as folder:
        assert not folder.done and not list((tmp_path / "d").glob("shard-*"))


def test_an_unfinished_folder_is_not_data_and_stray_shards_are_protected(tmp_path):
    chunks = plan(2, 1, BEGINNER, 1)
    with DataFolder(tmp_path / "d", SETTINGS) as folder:
        generate(chunks, LocalExecutor(1), folder)
    with pytest.raises(DataError, match="unfinished"):
        Dataset.load(tmp_path / "d")
    (tmp_path / "d" / "run.json").unlink()
    with pytest.raises(OutputError, match=r"no run\.json"):
        DataFolder(tmp_path / "d", SETTINGS)


def test_a_trainers_model_player_plays_on_workers_with_the_rows_of_one_process():
    """Iterative training plays its latest model on the executor: the scorer travels to the workers (pickled) and
    the rows, exploration included, are those of one process."""
    from functools import partial

    from sweeplab.learn.models import shipped
    from sweeplab.learn.seed003.players import DQNStrategy, NNStrategy
    from sweeplab.learn.seed003.scorers import load_scorer
    from sweeplab.learn.seed003.shards import play_on

    nn = partial(NNStrategy, scorer=load_scorer("nn", shipped("nn")))
    dqn = partial(DQNStrategy, scorer=load_scorer("dqn", shipped("dqn")), explore=0.3)
    coefficients = (0.1, 0.0, 0.0, 0.0)
    with LocalExecutor(2) as two:
        features = play_on(two, nn, 6, 8, BoardRange(), start=10)
        substates = play_on(two, dqn, 6, 8, BoardRange(), start=10, rows="substates", coefficients=coefficients)
    assert same(features.data, collect(nn, 6, 8, BoardRange(), start=10).data)
    episode = simulate(dqn, coefficients, 6, 8, BoardRange(), start=10)
    assert np.array_equal(substates.data.x, episode.x) and np.array_equal(substates.data.y, episode.y)
    assert substates.won == episode.won and substates.games == 6
