"""The trained models as players use them (:class:`ClassifierScorer`, :class:`DQNScorer`) and their loading from a
model folder (:func:`load_scorer`); the players and the trainers both import this module, and it imports neither."""

from __future__ import annotations

import importlib.util
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from sweeplab.core.observation import Observation
from sweeplab.learn.models import ModelError, read_card
from sweeplab.learn.seed003.features import FEATURE_NAMES, build_features, probabilities_for
from sweeplab.learn.seed003.network import Network
from sweeplab.learn.seed003.substates import SIDE, alpha_for, scores, substates
from sweeplab.strategies.base import StrategyError

INSTALL = "pip install 'sweeplab[learn]'"


class Scorer(Protocol):
    """A trained model as a player uses it: one value per candidate cell, higher preferred."""

    kind: str
    card: dict

    def values(self, observation: Observation, cells: Sequence[int], probabilities: dict[int, float]) -> np.ndarray: ...

    def safety(
        self, observation: Observation, cells: Sequence[int], probabilities: dict[int, float], values: np.ndarray
    ) -> np.ndarray: ...


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


_LOADED: dict[tuple[str, str, float], Scorer] = {}


def load_scorer(kind: str, folder: Path) -> Scorer:
    """The model in ``folder`` (cached per process), checked to be of ``kind``."""
    folder = Path(folder)
    card = read_card(folder)
    if card.get("kind") != kind:
        raise ModelError(f"{folder}: holds a {card.get('kind')!r} model, not {kind!r}")
    key = (kind, str(folder.resolve()), (folder / "card.json").stat().st_mtime)
    if key not in _LOADED:
        if kind == "xgboost":
            if _missing("xgboost"):
                raise StrategyError(f"the xgboost player needs XGBoost: {INSTALL}")
            _LOADED[key] = load_xgboost(folder, card)
        elif kind == "nn":
            _LOADED[key] = load_nn(folder, card)
        elif kind == "dqn":
            _LOADED[key] = load_dqn(folder, card)
        else:
            raise ModelError(f"{folder}: unknown model kind {kind!r}")
    return _LOADED[key]


@dataclass
class ClassifierScorer:
    """A mine-probability model over :func:`build_features` rows, as a player uses it; ``columns`` (indices into
    :data:`FEATURE_NAMES`) are the features a model trained ``--without`` some was fed, None for all."""

    kind: str
    card: dict
    predict: Callable[[np.ndarray], np.ndarray]
    probability: str = "dsscsp"
    columns: np.ndarray | None = None

    def mine_probability(self, observation: Observation, cells: Sequence[int], probabilities: dict[int, float]) -> np.ndarray:
        if self.probability != "dsscsp":
            probabilities = probabilities_for(observation, self.probability)
        matrix = build_features(observation, cells, probabilities).matrix.astype(np.float32)
        if self.columns is not None:
            matrix = np.ascontiguousarray(matrix[:, self.columns])
        return np.asarray(self.predict(matrix), dtype=np.float64)

    def values(self, observation: Observation, cells: Sequence[int], probabilities: dict[int, float]) -> np.ndarray:
        return 1.0 - self.mine_probability(observation, cells, probabilities)

    def safety(
        self, observation: Observation, cells: Sequence[int], probabilities: dict[int, float], values: np.ndarray
    ) -> np.ndarray:
        return values


def _check_columns(card: dict, folder: Path) -> np.ndarray | None:
    """The columns the model was trained on (its card's ``features``, in :data:`FEATURE_NAMES` order): None for
    all of them, else their indices; a feature this sweeplab does not build is refused."""
    names = tuple(card.get("features", ()))
    if names == FEATURE_NAMES:
        return None
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    columns = [index.get(name, -1) for name in names]
    if not names or -1 in columns or columns != sorted(set(columns)):
        raise ModelError(f"{folder}: the model was trained on other features than this sweeplab builds; retrain it")
    return np.array(columns, dtype=np.intp)


def load_xgboost(folder: Path, card: dict) -> ClassifierScorer:
    import xgboost

    columns = _check_columns(card, folder)
    booster = xgboost.Booster()
    try:
        booster.load_model(str(folder / "model.ubj"))
    except xgboost.core.XGBoostError as error:
        raise ModelError(f"{folder / 'model.ubj'}: cannot load the XGBoost model ({str(error).splitlines()[0]})") from None
    booster.set_param({"nthread": 1})

    def predict(x: np.ndarray) -> np.ndarray:
        return np.asarray(booster.inplace_predict(x))

    return ClassifierScorer("xgboost", card, predict, card.get("probability", "dsscsp"), columns)


def load_nn(folder: Path, card: dict) -> ClassifierScorer:
    columns = _check_columns(card, folder)
    try:
        network = Network.load(folder / "model.npz")
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
        raise ModelError(f"{folder / 'model.npz'}: cannot load the network ({error})") from None
    return ClassifierScorer("nn", card, network, card.get("probability", "dsscsp"), columns)


@dataclass
class DQNScorer:
    """The Q-network as a player uses it: the value of each candidate's sub-state."""

    kind: str
    card: dict
    network: Network
    coefficients: tuple[float, float, float, float]
    side: int = SIDE

    def alpha(self, observation: Observation) -> float:
        b = observation.board
        return alpha_for(b.width, b.height, observation.mines / b.cells, self.coefficients)

    def states(self, observation: Observation, cells: Sequence[int], probabilities: dict[int, float]) -> np.ndarray:
        return substates(scores(observation, probabilities, self.alpha(observation)), cells, self.side)

    def values(self, observation: Observation, cells: Sequence[int], probabilities: dict[int, float]) -> np.ndarray:
        return np.asarray(self.network(self.states(observation, cells, probabilities)), dtype=np.float64)

    def safety(
        self, observation: Observation, cells: Sequence[int], probabilities: dict[int, float], values: np.ndarray
    ) -> np.ndarray:
        return np.array([1.0 - probabilities[c] for c in cells])


def load_dqn(folder: Path, card: dict) -> DQNScorer:
    try:
        network = Network.load(folder / "model.npz")
        coefficients = tuple(float(c) for c in network.meta["coefficients"])
        side = int(network.meta["side"])
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
        raise ModelError(f"{folder / 'model.npz'}: cannot load the Q-network ({error})") from None
    return DQNScorer("dqn", card, network, coefficients, side)  # type: ignore[arg-type]


__all__ = ["INSTALL", "ClassifierScorer", "DQNScorer", "Scorer", "load_dqn", "load_nn", "load_scorer", "load_xgboost"]
