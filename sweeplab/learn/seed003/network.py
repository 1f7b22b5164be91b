"""Small dense networks: trained with PyTorch (the ``learn`` extra), saved as ``.npz`` and run in NumPy.

Playing needs only NumPy: a saved network is a list of layers (weights, bias, activation) evaluated in float64,
so a shipped model plays the same on any machine without PyTorch, and no thread count changes its choices.

>>> net = Network([(np.eye(2), np.zeros(2), "relu"), (np.ones((2, 1)), np.zeros(1), "sigmoid")])
>>> round(float(net(np.array([[1.0, -1.0]]))[0]), 4)  # relu -> (1, 0), sum 1, sigmoid(1)
0.7311
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sweeplab.learn.models import write_card

ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda x: np.maximum(x, 0.0),
    "tanh": np.tanh,
    "linear": lambda x: x,
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0))),
}

Layer = tuple[np.ndarray, np.ndarray, str]
CHUNK = 16  #: rows per matrix product


def _matmul(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``x @ weights`` in blocks of :data:`CHUNK` rows: products this small stay on one thread in OpenBLAS, which on
    a busy machine is some 30 times faster than letting it wake its thread pool for a few hundred rows."""
    if len(x) <= CHUNK:
        return x @ weights
    out = np.empty((len(x), weights.shape[1]))
    for start in range(0, len(x), CHUNK):
        out[start : start + CHUNK] = x[start : start + CHUNK] @ weights
    return out


@dataclass
class Network:
    """A dense network: ``layers[i] = (weights (in x out), bias (out,), activation)``, with optional input scaling
    (``(x - mean) / std``) and free-form ``meta`` saved beside it."""

    layers: list[Layer]
    mean: np.ndarray | None = None
    std: np.ndarray | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The output for each row of ``x`` (shape (n,) for a one-output network)."""
        out = np.asarray(x, dtype=np.float64)
        if self.mean is not None and self.std is not None:
            out = (out - self.mean) / self.std
        for weights, bias, activation in self.layers:
            out = ACTIVATIONS[activation](_matmul(out, weights) + bias)
        return out[:, 0] if out.shape[1] == 1 else out

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {}
        for i, (weights, bias, activation) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = weights, bias
            arrays[f"a{i}"] = np.array(activation)
        if self.mean is not None and self.std is not None:
            arrays["mean"], arrays["std"] = self.mean, self.std
        for key, value in self.meta.items():
            arrays[f"meta_{key}"] = np.asarray(value)
        np.savez(path, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> Network:
        with np.load(path, allow_pickle=False) as data:
            layers: list[Layer] = []
            i = 0
            while f"w{i}" in data:
                layers.append((data[f"w{i}"].astype(np.float64), data[f"b{i}"].astype(np.float64), str(data[f"a{i}"])))
                i += 1
            mean = data["mean"].astype(np.float64) if "mean" in data else None
            std = data["std"].astype(np.float64) if "std" in data else None
            meta = {k.removeprefix("meta_"): data[k] for k in data.files if k.startswith("meta_")}
        if not layers:
            raise ValueError(f"{path}: no network layers found (expected arrays w0, b0, a0, ...)")
        return cls(layers, mean, std, meta)


def save_network(network: Network, card: dict[str, Any], folder: Path) -> None:
    """Write a model folder: ``model.npz`` and ``card.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    network.save(folder / "model.npz")
    write_card(folder, card)


def set_deterministic(seed: int) -> Any:
    """Import torch and make training repeatable on this CPU: one thread, seeded, deterministic kernels."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    return torch


def torch_model(sizes: Sequence[int], activations: Sequence[str]) -> Any:
    """A ``torch.nn.Sequential`` of dense layers ``sizes[0] -> sizes[1] -> ...`` with the given activations."""
    import torch

    modules: list[Any] = []
    for i, activation in enumerate(activations):
        modules.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if activation == "relu":
            modules.append(torch.nn.ReLU())
        elif activation == "tanh":
            modules.append(torch.nn.Tanh())
        elif activation == "sigmoid":
            modules.append(torch.nn.Sigmoid())
        elif activation != "linear":
            raise ValueError(f"unknown activation {activation!r}: choose one of {', '.join(ACTIVATIONS)}")
    return torch.nn.Sequential(*modules)


def from_torch(model: Any, activations: Sequence[str], mean: np.ndarray | None, std: np.ndarray | None) -> Network:
    """The NumPy :class:`Network` of a trained ``torch_model``."""
    import torch

    linear = [m for m in model if isinstance(m, torch.nn.Linear)]
    layers: list[Layer] = [
        (m.weight.detach().double().numpy().T.copy(), m.bias.detach().double().numpy().copy(), a)
        for m, a in zip(linear, activations, strict=True)
    ]
    return Network(layers, mean, std)


def fit(
    model: Any,
    x: np.ndarray,
    y: np.ndarray,
    *,
    loss: str,
    epochs: int,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    seed: int = 0,
    optimizer: Any = None,
    weight_decay: float = 0.0,
    on_epoch: Callable[[int], None] | None = None,
) -> tuple[Any, float]:
    """Train ``model`` in place on (x, y) with Adam (``loss`` ``"bce"`` or ``"mse"``; L2 ``weight_decay``),
    shuffling with ``seed``; ``on_epoch(e)`` is called after pass ``e`` (1, 2, ...), e.g. to record a learning curve
    (its time is not counted).

    Returns the optimizer (pass it back to continue training, as the iterative methods do) and the CPU seconds.
    """
    import torch

    start = time.process_time()
    if optimizer is None:
        optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate, weight_decay=weight_decay)
    criterion = torch.nn.BCELoss() if loss == "bce" else torch.nn.MSELoss()
    xt = torch.as_tensor(np.asarray(x, dtype=np.float32))
    yt = torch.as_tensor(np.asarray(y, dtype=np.float32)).reshape(-1, 1)
    generator = torch.Generator().manual_seed(seed)
    model.train()
    spent = 0.0
    for epoch in range(1, epochs + 1):
        order = torch.randperm(len(xt), generator=generator)
        for start_row in range(0, len(xt), batch_size):
            idx = order[start_row : start_row + batch_size]
            optimizer.zero_grad()
            out = model(xt[idx])
            value = criterion(out.clamp(1e-7, 1 - 1e-7) if loss == "bce" else out, yt[idx])
            value.backward()
            optimizer.step()
        if on_epoch is not None:
            aside = time.process_time()
            model.eval()
            on_epoch(epoch)
            model.train()
            spent += time.process_time() - aside
    model.eval()
    return optimizer, time.process_time() - start - spent


__all__ = ["ACTIVATIONS", "Network", "fit", "from_torch", "save_network", "set_deterministic", "torch_model"]
