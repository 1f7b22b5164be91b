"""Training the ``neural`` player's network (PyTorch, the ``learn`` extra) on positions labelled with the exact
engine's probabilities (:mod:`sweeplab.learn.neural.positions`).

Choices (sweeplab's own, recorded in each card):

* Loss: binary cross-entropy between the network's logit and the exact mine probability (a soft label), averaged
  over the covered cells of a batch; revealed cells carry no loss.
* Batches hold positions of one board shape (any shapes may be mixed in a data set), each flipped left-right and
  up-down at random (the probabilities flip with the board); the last ``validation`` share of the games is held out.
* Adam with a cosine learning-rate schedule over all epochs; the weights after the last epoch are kept.
* After each epoch, on the held-out positions: the loss, the mean absolute error over covered cells, the share of
  positions where the cell with the lowest prediction is one of the safest (within 1e-9 of the exact minimum), and
  the mean safety lost there (the exact probability of the cell picked less the exact minimum); with an evaluation
  set, the win rate of the player on fixed games, paired with ``exact`` on the same games.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from sweeplab.learn.models import write_card
from sweeplab.learn.neural.convnet import PLANES, ConvNet, planes
from sweeplab.learn.neural.positions import Positions


@dataclass(frozen=True)
class ConvSettings:
    """The network's size and the training's settings."""

    channels: int = 32
    blocks: int = 4
    epochs: int = 4
    batch: int = 64
    learning_rate: float = 2e-3
    validation: float = 0.05
    seed: int = 0
    device: str = "cpu"


def resolve_device(device: str) -> str:
    """``cpu``, ``cuda`` or ``auto`` (CUDA when PyTorch sees a GPU, else the CPU) as the device to train on."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda: PyTorch sees no CUDA device here (use cpu or auto)")
    return device


def torch_convnet(channels: int, blocks: int) -> Any:
    """The network of :class:`sweeplab.learn.neural.convnet.ConvNet` as a PyTorch module."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Conv2d(PLANES, channels, 3, padding=1)
            self.body = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(2 * blocks))
            self.head = nn.Conv2d(channels, 1, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            h = self.stem(x)
            for i in range(0, len(self.body), 2):
                h = h + self.body[i + 1](torch.relu(self.body[i](torch.relu(h))))
            return self.head(torch.relu(h))[:, 0]

    return Net()


def from_numpy(net: ConvNet, device: str) -> Any:
    """A PyTorch module holding ``net``'s weights (to train further from a saved model)."""
    import torch

    model = torch_convnet(net.channels, net.blocks)
    with torch.no_grad():
        for conv, (weight, bias) in zip([model.stem, *model.body, model.head], net.convs, strict=True):
            conv.weight.copy_(torch.from_numpy(weight))
            conv.bias.copy_(torch.from_numpy(bias))
    return model.to(device)


def to_numpy(model: Any) -> ConvNet:
    """The trained module's weights as the NumPy network the player runs."""
    convs = [model.stem, *model.body, model.head]
    return ConvNet(
        [(c.weight.detach().cpu().numpy().astype(np.float32), c.bias.detach().cpu().numpy().astype(np.float32)) for c in convs]
    )


@dataclass
class _Group:
    """The positions of one board shape: input planes are built per batch."""

    grids: np.ndarray  # (n, H, W) int8
    mines_left: np.ndarray  # (n,)
    y: np.ndarray  # (n, H, W) float32, -1 on revealed cells


def _groups(data: Positions, keep: np.ndarray) -> list[_Group]:
    offsets = data.offsets()
    by_shape: dict[tuple[int, int], list[int]] = {}
    for i in np.flatnonzero(keep):
        by_shape.setdefault((int(data.shape[i, 0]), int(data.shape[i, 1])), []).append(int(i))
    groups = []
    for (h, w), rows in sorted(by_shape.items()):
        index = (offsets[rows][:, None] + np.arange(h * w)).ravel()
        groups.append(_Group(data.grid[index].reshape(-1, h, w), data.mines_left[rows], data.y[index].reshape(-1, h, w)))
    return groups


def _batches(groups: list[_Group], size: int, rng: np.random.Generator | None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(planes (B, PLANES, H, W), targets (B, H, W)) batches; shuffled and flipped when ``rng`` is given."""
    order = [(g, s) for g, group in enumerate(groups) for s in range(0, len(group.y), size)]
    if rng is not None:
        order = [order[i] for i in rng.permutation(len(order))]
        perms = [rng.permutation(len(group.y)) for group in groups]
    for g, start in order:
        group = groups[g]
        take = perms[g][start : start + size] if rng is not None else np.arange(start, min(start + size, len(group.y)))
        grids, y = group.grids[take], group.y[take]
        if rng is not None:
            if rng.random() < 0.5:
                grids, y = grids[:, :, ::-1], y[:, :, ::-1]
            if rng.random() < 0.5:
                grids, y = grids[:, ::-1, :], y[:, ::-1, :]
        x = np.stack([planes(grid, int(m)) for grid, m in zip(grids, group.mines_left[take], strict=True)])
        yield x, np.ascontiguousarray(y)


def _evaluate(model: Any, groups: list[_Group], device: str) -> dict[str, float]:
    """Held-out loss, mean absolute error, the share of positions where the lowest prediction is a safest cell, and
    the mean safety lost by the lowest prediction."""
    import torch

    loss_sum = abs_sum = cells = 0.0
    hits = lost = positions = 0.0
    model.eval()
    with torch.no_grad():
        for x, y in _batches(groups, 256, None):
            logits = model(torch.from_numpy(x).to(device)).cpu().numpy().astype(np.float64)
            covered = y >= 0
            target = np.where(covered, y, 0.0)
            losses = np.maximum(logits, 0) - logits * target + np.log1p(np.exp(-np.abs(logits)))
            predicted = 1.0 / (1.0 + np.exp(-logits))
            loss_sum += float(losses[covered].sum())
            abs_sum += float(np.abs(predicted - target)[covered].sum())
            cells += float(covered.sum())
            flat_p = np.where(covered, predicted, np.inf).reshape(len(y), -1)
            flat_y = np.where(covered, y, np.inf).reshape(len(y), -1)
            picked = flat_y[np.arange(len(y)), flat_p.argmin(axis=1)]
            best = flat_y.min(axis=1)
            hits += float((picked <= best + 1e-9).sum())
            lost += float((picked - best).sum())
            positions += len(y)
    model.train()
    return {
        "log_loss": round(loss_sum / max(cells, 1), 6),
        "mae": round(abs_sum / max(cells, 1), 6),
        "picks_safest": round(hits / max(positions, 1), 6),
        "safety_lost": round(lost / max(positions, 1), 6),
        "positions": int(positions),
    }


#: Called after each epoch with the NumPy network and the epoch; returns the win-rate point to record (or None).
EpochEval = Callable[[ConvNet, int], dict[str, Any] | None]


def train_convnet(
    data: Positions,
    settings: ConvSettings,
    evaluate: EpochEval | None = None,
    log: Callable[[str], None] | None = None,
    start: ConvNet | None = None,
    checkpoint: Callable[[ConvNet, int], None] | None = None,
) -> tuple[ConvNet, dict[str, Any]]:
    """Train on ``data`` (from ``start``'s weights when given: its size replaces the settings'); returns the NumPy
    network and the card's training record (settings, curve, times). ``checkpoint(net, epoch)`` is called after each
    epoch (before its evaluation), so an interrupted training keeps its last epoch."""
    import torch

    device = resolve_device(settings.device)
    torch.manual_seed(settings.seed)
    rng = np.random.default_rng(settings.seed)
    games = np.unique(data.game)
    cut = games[int(len(games) * (1 - settings.validation))] if len(games) > 1 else games[-1] + 1
    train_groups, held_groups = _groups(data, data.game < cut), _groups(data, data.game >= cut)
    train_positions = sum(len(g.y) for g in train_groups)
    if start is not None:
        settings = replace(settings, channels=start.channels, blocks=start.blocks)
    model = torch_convnet(settings.channels, settings.blocks).to(device) if start is None else from_numpy(start, device)
    optimiser = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    steps = settings.epochs * sum(-(-len(g.y) // settings.batch) for g in train_groups)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, max(steps, 1))
    curve: list[dict[str, Any]] = [{"epoch": 0, "validation": _evaluate(model, held_groups, device)}]
    if evaluate is not None:
        curve[0]["win_rate"] = evaluate(to_numpy(model), 0)
    started, cpu = time.perf_counter(), time.process_time()
    for epoch in range(1, settings.epochs + 1):
        total = count = 0.0
        for x, y in _batches(train_groups, settings.batch, rng):
            xt, yt = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
            covered = yt >= 0
            logits = model(xt)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits[covered], yt[covered])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * int(covered.sum())
            count += int(covered.sum())
        point: dict[str, Any] = {
            "epoch": epoch,
            "train": {"log_loss": round(total / max(count, 1), 6)},
            "validation": _evaluate(model, held_groups, device),
        }
        net = to_numpy(model)
        if checkpoint is not None:
            checkpoint(net, epoch)
        if evaluate is not None:
            point["win_rate"] = evaluate(net, epoch)
        curve.append(point)
        if log is not None:
            v = point["validation"]
            log(
                f"epoch {epoch}/{settings.epochs}: train loss {point['train']['log_loss']:.4f}, held-out loss "
                f"{v['log_loss']:.4f}, error {v['mae']:.4f}, picks a safest cell {100 * v['picks_safest']:.1f}%"
            )
    net = to_numpy(model)
    record = {
        "settings": asdict(settings) | {"device": device},
        "device": torch.cuda.get_device_name(0) if device == "cuda" else "cpu",
        "torch_threads": torch.get_num_threads(),
        "parameters": net.parameters(),
        "train_positions": train_positions,
        "validation_positions": sum(len(g.y) for g in held_groups),
        "curve": curve,
        "train_wall_seconds": round(time.perf_counter() - started, 2),
        "train_cpu_seconds": round(time.process_time() - cpu, 2),
    }
    return net, record


def save_convnet(net: ConvNet, card: dict[str, Any], folder: Path) -> None:
    """Write a model folder: ``model.npz`` and ``card.json`` (``kind``: neural)."""
    folder.mkdir(parents=True, exist_ok=True)
    net.save(folder / "model.npz")
    write_card(folder, {**card, "kind": "neural"})


def temporary_model(net: ConvNet) -> tempfile.TemporaryDirectory:
    """A temporary model folder holding ``net`` (for an evaluation that plays it by name); delete it when done."""
    holder = tempfile.TemporaryDirectory(prefix="sweeplab-neural-")
    save_convnet(net, {"note": "a network during training"}, Path(holder.name))
    return holder
