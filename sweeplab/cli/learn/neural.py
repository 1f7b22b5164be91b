"""``sweeplab learn neural data|train``: the ``neural`` player's positions and its convolutional network."""

from __future__ import annotations

import time
from pathlib import Path

import click

from sweeplab.cli.app import BOARD_HELP, RULE_CHOICE, executor_for, friendly_errors
from sweeplab.cli.learn.commands import _command, _need, _training_seed, data_folder_run, learn_group
from sweeplab.cli.learn.options import MAX_GAMES, eval_options, executor_options

DEFAULT_BOARDS = ("beginner", "intermediate", "expert")


@learn_group.group("neural", short_help="The neural player: positions labelled by the exact engine, its network.")
def neural_group() -> None:
    """sweeplab's own neural player (`-s neural`): a convolutional network that reads the whole board, trained on the
    exact engine's mine probabilities (needs the learn extra: pip install 'sweeplab[learn]')."""


def _rules(boards: tuple[str, ...], rule: str) -> list:
    from sweeplab.core.errors import SweeplabError
    from sweeplab.core.rules import make_rules

    out = []
    for text in boards:
        try:
            out.append(make_rules(text, rule))
        except SweeplabError as error:
            raise click.BadParameter(str(error), param_hint="--board") from None
    return out


@neural_group.command("data", short_help="Play games and record positions with their exact probabilities.")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), required=True, help="games to play (the boards in turn)")
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path), required=True, help="the data folder")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed: fixes the layouts")
@click.option(
    "--board", "-b", "boards", multiple=True, default=DEFAULT_BOARDS, show_default=True, help=f"boards, in turn: {BOARD_HELP}"
)
@click.option("--rule", type=RULE_CHOICE, default="safe", show_default=True, help="first-click rule")
@click.option(
    "--model",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="play the games with `neural` and this model folder (a round on the network's own positions) instead of exact",
)
@click.option(
    "--certain",
    # sweeplab.learn.neural.player.CERTAIN_PASSES (not imported: the CLI loads lazily)
    type=click.Choice(("subset", "difference", "single-point")),
    default="subset",
    show_default=True,
    help="with --model: the player's pass for certain moves before its network (single-point: the player before the subset pass)",
)
@click.option("--shard-games", type=click.IntRange(1, MAX_GAMES), default=500, show_default=True, help="games per shard")
@executor_options
@click.option("--resume", is_flag=True, help="continue the data folder interrupted in --out (same settings)")
@click.option("--force", is_flag=True, help="replace the data found in --out and start afresh")
@friendly_errors
def data_command(
    games: int,
    out: Path,
    seed: int,
    boards: tuple[str, ...],
    rule: str,
    model: Path | None,
    certain: str,
    shard_games: int,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    resume: bool,
    force: bool,
) -> None:
    """Play GAMES games (with `exact`, or with `neural` and --model) and record every position the player decides
    without a certain move of its pass (exact: the single-point pass; neural: --certain): the view, the mines left
    and every covered cell's exact mine probability.

    Shards are saved as they finish; SIGINT or SIGTERM stops the run, and the printed command with --resume plays
    only the missing chunks. Progress goes to stderr."""
    from sweeplab.cli.progress import game_progress
    from sweeplab.learn.neural.player import load_convnet
    from sweeplab.learn.neural.positions import plan_positions, play_positions, position_settings
    from sweeplab.learn.seed003.data import read_manifest
    from sweeplab.learn.seed003.shards import generate, totals

    _training_seed(seed)  # a held-out seed is refused before any game
    rules = _rules(boards, rule)
    if model is not None:
        load_convnet(model)  # a bad folder is refused before any game
    elif certain != "subset":
        raise click.UsageError("--certain is the neural player's: give it with --model")
    chunks = plan_positions(games, seed, rules, shard_games, str(model) if model else "", certain)
    settings = position_settings(seed, games, shard_games, rules, str(model) if model else "", certain)
    with data_folder_run(out, settings, resume, force) as folder:
        if folder.finished:
            m = read_manifest(out)
            click.echo(f"{out} is complete: {m.get('positions')} positions from {m.get('games')} games (--force makes it again)")
            return
        wall = time.perf_counter()
        with executor_for(executor, jobs, scheduler) as ex:
            done = sum(c.games for c in chunks if folder.keep(c))
            with game_progress("positions", games, done) as advance:
                generate(chunks, ex, folder, advance, play=play_positions)
            workers = ex.describe()
        metas = [folder.done[k] for k in sorted(folder.done)]
        wall = round(time.perf_counter() - wall, 2)
        counts = totals(metas)
        counts["cells"] = counts.pop("rows")  # a shard's rows are its positions' cells
        manifest = {
            "command": _command(),
            "label": "y = each covered cell's exact mine probability (-1 on a revealed cell)",
            "executor": workers,
            **counts,
            **settings,
            "wall_seconds": wall,
        }
        path = folder.finish(manifest, wall)
        click.echo(
            f"{manifest['positions']} positions from {games} games ({manifest['won']} won, "
            f"{manifest['cpu_seconds']} CPU s) -> {len(metas)} shards in {out} (manifest {path})"
        )


@neural_group.command("train", short_help="Train the network on position folders and write a model folder.")
@click.option(
    "--data",
    "-d",
    "data",
    type=click.Path(file_okay=False, path_type=Path),
    multiple=True,
    required=True,
    help="a position folder from `learn neural data` (repeat to join several: the exact engine's games and "
    "rounds on the network's own)",
)
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path), required=True, help="model folder to write")
@click.option("--seed", type=int, default=0, show_default=True, help="seed for the weights and the shuffling")
@click.option(
    "--init",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="start from this model folder's weights (its size replaces --channels and --blocks)",
)
@click.option("--channels", type=click.IntRange(1, 512), default=32, show_default=True, help="channels of every layer")
@click.option(
    "--blocks", type=click.IntRange(0, 64), default=4, show_default=True, help="residual blocks (two 3x3 convolutions each)"
)
@click.option("--epochs", type=click.IntRange(1, 10_000), default=4, show_default=True, help="passes over the data")
@click.option("--batch", type=click.IntRange(1, 65_536), default=64, show_default=True, help="positions per batch")
@click.option("--learning-rate", type=click.FloatRange(0, 1, min_open=True), default=2e-3, show_default=True, help="Adam's")
@click.option(
    "--device",
    type=click.Choice(["cpu", "cuda", "auto"]),
    default="cpu",
    show_default=True,
    help="where PyTorch trains (auto: CUDA when it sees a GPU); the model plays on the CPU in NumPy either way",
)
@eval_options
@executor_options
@friendly_errors
def train_command(
    data: tuple[Path, ...],
    out: Path,
    seed: int,
    init: Path | None,
    channels: int,
    blocks: int,
    epochs: int,
    batch: int,
    learning_rate: float,
    device: str,
    eval_games: int,
    eval_board: str,
    eval_rule: str,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
) -> None:
    """Train the neural player's network on positions labelled with exact probabilities, and write --out (model.npz
    and card.json, with the learning curve; curve.png when matplotlib is installed). After each epoch the player
    plays the evaluation games, paired with `exact` on the same games."""
    _training_seed(seed)  # a held-out seed is refused before anything runs
    _need("torch", "training the neural network")
    import numpy as np

    from sweeplab.cli.learn.options import eval_set
    from sweeplab.cli.outputs import check_writable
    from sweeplab.learn.neural.player import load_convnet
    from sweeplab.learn.neural.positions import Positions, load_positions
    from sweeplab.learn.neural.train import ConvSettings, resolve_device, save_convnet, temporary_model, train_convnet
    from sweeplab.learn.seed003.data import read_manifest

    check_writable(out, f"--out {out}")
    start = load_convnet(init)[0] if init is not None else None
    try:
        device = resolve_device(device)
    except ValueError as error:
        raise click.BadParameter(str(error).removeprefix("--device cuda: "), param_hint="--device") from None
    manifests = [read_manifest(folder) for folder in data]
    for folder, m in zip(data, manifests, strict=True):
        if m.get("rows") != "positions":
            raise click.BadParameter(
                f"{folder} holds {m.get('rows')} rows, not positions from `learn neural data`", param_hint="--data"
            )
    parts = [load_positions(folder) for folder in data]
    for k, part in enumerate(parts):  # games of different folders stay apart in the held-out split
        part.game = part.game.astype(np.int64) + k * 10**9
    positions = Positions.join(parts)
    settings = ConvSettings(channels, blocks, epochs, batch, learning_rate, seed=_training_seed(seed), device=device)
    evals = eval_set(eval_games, eval_board, eval_rule)
    with executor_for(executor, jobs, scheduler) as ex:
        evaluate = None
        if evals is not None:
            evals.executor = ex
            evals.reference = {"player": "exact", **evals.play("exact")}

            def evaluate(net, epoch):  # type: ignore[no-untyped-def]
                with temporary_model(net) as folder:
                    point = evals.play("neural", [("model", folder)])
                click.echo(
                    f"epoch {epoch}: win rate {100 * point['win_rate']:.1f}% "
                    f"({100 * point['vs_reference']['difference']:+.1f} ± {100 * point['vs_reference']['se']:.1f} on exact)",
                    err=True,
                )
                return point

        def checkpoint(net, epoch):  # type: ignore[no-untyped-def]
            note = f"a checkpoint after epoch {epoch} of {epochs}: the training did not finish (see its command)"
            save_convnet(net, {"command": _command(), "note": note}, out)

        click.echo(f"training on {len(positions)} positions from {len(data)} folder(s), device {device}", err=True)
        log = lambda line: click.echo(line, err=True)  # noqa: E731
        net, record = train_convnet(positions, settings, evaluate, log, start, checkpoint)
    card = {
        "kind": "neural",
        "command": _command(),
        "data": [
            {"folder": str(folder), "command": m.get("command"), "positions": m.get("positions")}
            for folder, m in zip(data, manifests, strict=True)
        ],
        "input": "12 planes: covered, the numbers 0-8, on the board, mines left / covered cells",
        "architecture": f"3x3 stem to {net.channels} channels, {net.blocks} residual blocks of two 3x3 convolutions, 1x1 head",
        "init": None if init is None else {"folder": str(init), "command": load_convnet(init)[1].get("command")},
        "evaluation": evals.manifest() if evals is not None else None,
        **record,
    }
    save_convnet(net, card, out)
    _draw(out, card)
    size = (out / "model.npz").stat().st_size
    click.echo(f"wrote {out} ({net.parameters()} parameters, model.npz {size / 1e6:.2f} MB)")


def _draw(out: Path, card: dict) -> None:
    """curve.png beside the card (nothing without matplotlib)."""
    from sweeplab.learn.seed003.curves import plot_curves

    plot_curves(card, out / "curve.png")
