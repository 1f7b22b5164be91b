"""``sweeplab learn``: make training data, train seed 003's learned players, compare their probabilities with the
exact engine's."""

from __future__ import annotations

import contextlib
import importlib.util
import shlex
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from sweeplab.cli.app import BOARD_HELP, RULE_CHOICE, executor_for, friendly_errors, main, progress_bar
from sweeplab.cli.learn.options import (
    MAX_GAMES,
    board_options,
    board_range,
    eval_options,
    eval_set,
    executor_options,
    parse_coefficients,
)
from sweeplab.cli.outputs import check_regular_file, check_writable
from sweeplab.core.errors import SweeplabError

INSTALL = "pip install 'sweeplab[learn]'"
#: Upper bound on the positions one command is asked for (see also MAX_GAMES).
MAX_POSITIONS = 1_000_000


class LearnSetupError(SweeplabError):
    """A learning command that cannot run here (a missing library, or options that do not fit together)."""


def _need(module: str, what: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise LearnSetupError(f"{what} needs {module}, which is not installed: {INSTALL}")


def _command() -> str:
    """The command being run, with every option spelled out (so a card or manifest says how to rebuild it)."""
    ctx = click.get_current_context()
    words = ["sweeplab", *ctx.command_path.split()[1:]]
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        if value is None or value == () or not isinstance(param, click.Option | click.Argument):
            continue
        if isinstance(param, click.Argument):
            words.insert(len(ctx.command_path.split()), str(value))
            continue
        flag = max(param.opts, key=len)
        if isinstance(param, click.Option) and param.is_flag:
            if value:
                words.append(flag)
            continue
        for item in value if isinstance(value, tuple) else (value,):
            words += [flag, str(item)]
    return shlex.join(words)


def _training_seed(seed: int) -> int:
    """The seed the model libraries get for the root seed ``seed``: itself from 0 to 2**31 - 1 (the shipped models'
    seeds), else a value in that range drawn from numpy's SeedSequence of the seed, so any integer is a seed
    (XGBoost and PyTorch take only non-negative machine integers). A held-out seed
    (:mod:`sweeplab.core.heldout`) is refused naming ``--seed``."""
    from sweeplab.core.heldout import HeldOutSeedError, development_seed

    try:
        development_seed(seed, "training")
    except HeldOutSeedError as error:
        raise click.BadParameter(str(error), param_hint="--seed") from None
    if 0 <= seed < 2**31:
        return seed
    import numpy as np

    from sweeplab.core.seeds import seed_entropy

    return int(np.random.SeedSequence(seed_entropy(seed)).generate_state(1)[0]) & 0x7FFFFFFF


@main.group("learn", short_help="Train and study seed 003's learned players.")
def learn_group() -> None:
    """Seed 003's learned players: make data, train models (needs the learn extra: pip install 'sweeplab[learn]')."""


def _resume_command() -> str:
    """The command being run without --force, with --resume (how to continue it after an interruption)."""
    words = [w for w in shlex.split(_command()) if w not in ("--force", "--resume")]
    return shlex.join([*words, "--resume"])


@contextlib.contextmanager
def data_folder_run(out: Path, settings: dict[str, Any], resume: bool, force: bool, folder: bool = True) -> Iterator[Any]:
    """A data run writing into ``out`` (a data folder: locked, settings checked, notes printed; with ``folder``
    false, one file and no folder, None), stopped cleanly by SIGINT or SIGTERM: the finished shards are kept, the
    command that continues is printed, and the run exits with the signal's status."""
    from sweeplab.bench.signals import Interrupted, interruptible
    from sweeplab.learn.seed003.shards import DataFolder

    opened = None
    resume_command = _resume_command()
    try:
        with interruptible():
            if folder:
                opened = DataFolder(out, settings, resume=resume, force=force, command=_command())
                for note in opened.notes:
                    click.echo(f"note: {note}", err=True)
            yield opened
    except Interrupted as error:
        click.echo(f"stopped by {error.name}", err=True)
        if opened is not None:
            click.echo(f"the finished shards are kept in {out}; to continue:\n  {resume_command}", err=True)
        sys.exit(error.exit_status)
    finally:
        if opened is not None:
            opened.close()


_ROWS_HELP = (
    "features: the classifiers' rows (candidate cells' features, y = 1 for a mine); substates: deep Q-learning's "
    "single pass (each guess's sub-state and its discounted return), for `learn train dqn --data`"
)


@learn_group.command("data", short_help="Play games and record training rows (features or sub-states).")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), required=True, help="games to play")
@click.option(
    "--out",
    "-o",
    type=click.Path(path_type=Path),
    required=True,
    help="a data folder (shards written as they finish, resumable; data.json lists them), or one FILE.npz (a "
    "manifest FILE.npz.json goes beside it)",
)
@click.option("--seed", type=int, default=0, show_default=True, help="root seed: fixes boards, layouts and the player")
@click.option("--rows", type=click.Choice(["features", "substates"]), default="features", show_default=True, help=_ROWS_HELP)
@click.option(
    "--probability",
    type=click.Choice(["dsscsp", "exact"]),
    default="dsscsp",
    show_default=True,
    help="features: mine probability recorded in the features",
)
@click.option(
    "--extra",
    type=click.IntRange(0, 10_000),
    default=8,
    show_default=True,
    help="features: random covered cells off the frontier recorded per position",
)
@click.option(
    "--alpha",
    default=None,
    metavar="C0,C1,C2,C3",
    help="substates: equation (10)'s coefficients (e.g. a dqn card's parameters.alpha_coefficients)  "
    "[default: fitted first, with --alpha-games]",
)
@click.option(
    "--alpha-games",
    type=click.IntRange(1, MAX_GAMES),
    default=100,
    show_default=True,
    help="substates without --alpha: games per (board, alpha) when fitting equation (10)",
)
@click.option(
    "--shard-games",
    type=click.IntRange(1, MAX_GAMES),
    default=1000,
    show_default=True,
    help="games per chunk: one task for a worker, one shard of the folder",
)
@executor_options
@click.option("--resume", is_flag=True, help="continue the data folder interrupted in --out (same settings; its shards are kept)")
@click.option("--force", is_flag=True, help="replace the data found in the --out folder and start afresh")
@board_options
@friendly_errors
def data_command(
    games: int,
    out: Path,
    seed: int,
    rows: str,
    probability: str,
    extra: int,
    alpha: str | None,
    alpha_games: int,
    shard_games: int,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    resume: bool,
    force: bool,
    widths: str,
    heights: str,
    densities: str,
    board: str | None,
    rule: str,
) -> None:
    """Play GAMES games with seed 003's Manhattan version and record training rows: at every guess, the features
    of the candidate cells and whether each was a mine (--rows features), or the guess's sub-state and discounted
    return (--rows substates).

    Games are played in chunks of --shard-games on --jobs workers; the rows are the same whatever the workers. With
    a folder --out, each chunk is saved as a shard as soon as it is done; SIGINT or SIGTERM stops the run, and the
    printed command with --resume plays only the missing chunks. Progress goes to stderr."""
    from sweeplab.cli.progress import game_progress
    from sweeplab.learn.seed003.data import read_manifest
    from sweeplab.learn.seed003.shards import data_manifest, data_settings, generate, join, plan

    _training_seed(seed)  # a held-out seed is refused before any game
    boards = board_range(widths, heights, densities, board, rule)
    coefficients = parse_coefficients(alpha)
    single = out.suffix == ".npz" or (out.exists() and not out.is_dir())
    if single and (resume or force):
        raise click.BadParameter("needs a data folder --out DIR, not a .npz file", param_hint="--resume" if resume else "--force")
    if single:
        from sweeplab.learn.seed003.data import manifest_path

        check_regular_file(out, f"--out {out}")
        check_writable(manifest_path(out), f"--out {out} (its manifest)")
    settings = data_settings(rows, seed, games, shard_games, boards, probability, extra, coefficients, alpha_games)
    with data_folder_run(out, settings, resume, force, folder=not single) as folder:
        if folder is not None and folder.finished:
            m = read_manifest(out)
            click.echo(f"{out} is complete: {m.get('rows')} rows from {m.get('games')} games (--force makes it again)")
            return
        wall = time.perf_counter()
        with executor_for(executor, jobs, scheduler) as ex:
            alpha_fit = None
            if rows == "substates" and coefficients is None:
                from sweeplab.learn.seed003.episodes import alpha_fit_games
                from sweeplab.learn.seed003.shards import fitted_alpha

                total = alpha_fit_games(alpha_games)
                with game_progress("alpha fit", total) as advance:
                    alpha_fit = fitted_alpha(alpha_games, seed, ex, folder, advance)
                coefficients = tuple(float(c) for c in alpha_fit["coefficients"])
                click.echo(f"alpha = {alpha_fit['coefficients']} (r^2 {alpha_fit['r_squared']})", err=True)
            chunks = plan(
                games,
                seed,
                boards,
                shard_games,
                rows=rows,
                probability=probability,
                extra=extra,
                coefficients=coefficients or (),
            )
            done = sum(c.games for c in chunks if folder is not None and folder.keep(c))
            with game_progress("data", games, done) as advance:
                shards = generate(chunks, ex, folder, advance)
            workers = ex.describe()
        metas = [s.meta() for s in shards] if folder is None else [folder.done[k] for k in sorted(folder.done)]
        wall = round(time.perf_counter() - wall, 2)
        manifest = data_manifest(settings, metas, _command(), workers, wall, coefficients, alpha_fit)
        if folder is None:
            join(shards).save(out, dict(manifest, extra_candidates=extra))
            where = f"{out} ({out.stat().st_size / 1e6:.1f} MB) and {out}.json"
        else:
            path = folder.finish(manifest, wall)
            where = f"{len(metas)} shards in {out} (manifest {path})"
        click.echo(
            f"{manifest['rows']} rows from {manifest['positions']} guesses in {games} games "
            f"({manifest['won']} won, {manifest['cpu_seconds']} CPU s of play) -> {where}"
        )


@learn_group.command("train", short_help="Train a model (xgboost, nn, dqn) and its card.")
@click.argument("kind", type=click.Choice(["xgboost", "nn", "dqn"]))
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="model folder to write (model file + card.json)",
)
@click.option("--seed", type=int, default=0, show_default=True, help="seed for data, shuffling and initial weights")
@click.option(
    "--data",
    type=click.Path(path_type=Path),
    default=None,
    help="a data folder or file from `learn data`: xgboost trains on it (else --games are played); nn: episode 1's "
    "batch; dqn: the single pass's rows (`learn data --rows substates`, whose alpha coefficients it takes)",
)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(1, MAX_GAMES),
    default=2000,
    show_default=True,
    help="games per batch (xgboost: when no --data; nn, dqn: per episode)",
)
@click.option(
    "--episodes",
    type=click.IntRange(0, 1_000),
    default=None,
    help="nn: episodes of Algorithm 4 (default 5); dqn: iterative episodes after the single pass (default 4; 0 = single pass)",
)
@click.option(
    "--epochs", type=click.IntRange(1, 10_000), default=None, help="passes over each batch (nn default 2, dqn default 20)"
)
@click.option("--rounds", type=click.IntRange(1, 100_000), default=None, help="xgboost: boosting rounds (default 200)")
@click.option(
    "--alpha-games",
    type=click.IntRange(1, MAX_GAMES),
    default=100,
    show_default=True,
    help="dqn: games per (board, alpha) when fitting equation (10)",
)
@click.option(
    "--replay",
    is_flag=True,
    help="dqn: each iterative episode trains on every episode's rows so far, the single pass's included, not on its "
    "own alone (a variant of ours; the paper keeps only the weights)",
)
@click.option(
    "--without",
    default=None,
    metavar="FEATURE[,FEATURE]",
    help="xgboost, nn: train without these features (names as a card's features lists them, 'window' for the whole "
    "local window, or patterns such as '*_flagged'); "
    "the card lists the kept ones under features and the dropped ones under without, and the player feeds the model "
    "only the kept ones. A model's top feature: an xgboost card's top_feature (XGBoost's gain importance, all of it "
    "under importance); train again --without it to see what it was worth",
)
@eval_options
@executor_options
@board_options
@friendly_errors
def train_command(
    kind: str,
    out: Path,
    seed: int,
    data: Path | None,
    games: int,
    episodes: int | None,
    epochs: int | None,
    rounds: int | None,
    alpha_games: int,
    replay: bool,
    without: str | None,
    eval_games: int,
    eval_board: str,
    eval_rule: str,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    widths: str,
    heights: str,
    densities: str,
    board: str | None,
    rule: str,
) -> None:
    """Train seed 003's KIND model with a seed and write it with its card (data, parameters, time, validation, learning
    curve, win rates on the evaluation games) and, with matplotlib, the curves as curve.png.

    Unless --eval-games 0, the model plays the same evaluation games after each episode (xgboost: at a few boosting
    rounds), and dsscsp-manhattan plays them once as the reference: the card's evaluation and each episode's."""
    from sweeplab.bench.journal import check_writable as check_directory

    _training_seed(seed)  # a held-out seed is refused before anything runs
    boards = board_range(widths, heights, densities, board, rule)
    evals = eval_set(eval_games, eval_board, eval_rule)
    if kind == "nn" and episodes == 0:
        raise LearnSetupError("--episodes 0: nn trains in episodes, give at least 1 (0 means a single pass for dqn only)")
    dropped = [w.strip() for w in (without or "").split(",") if w.strip()]
    if replay and kind != "dqn":
        raise LearnSetupError("--replay applies to dqn only (its iterative episodes)")
    if without is not None and kind == "dqn":
        raise LearnSetupError("--without applies to xgboost and nn (the Q-network's input is the sub-state of scores)")
    if without is not None:
        from sweeplab.learn.seed003.classifiers import kept_columns

        kept_columns(dropped)  # an unknown feature is refused before anything runs
    check_directory(out)
    # The model is trained here (XGBoost and torch run OpenMP in this process) and then handed to the workers that
    # evaluate it: forked workers would inherit OpenMP's half-made thread pool and hang (see LocalExecutor).
    with executor_for(executor, jobs, scheduler, start="forkserver") as ex:
        log = click.echo
        if evals is not None:
            evals.executor = ex
        if kind == "xgboost":
            _need("xgboost", "training the xgboost model")
            if episodes is not None or epochs is not None:
                raise LearnSetupError("--episodes and --epochs do not apply to xgboost (it trains in one pass)")
            from sweeplab.learn.seed003.classifiers import XGBOOST_ROUNDS, save_xgboost, train_xgboost
            from sweeplab.learn.seed003.data import Dataset, boards_manifest
            from sweeplab.learn.seed003.players import ManhattanPlayer
            from sweeplab.learn.seed003.shards import play_on

            if data is not None:
                dataset = Dataset.load(data)
                source: dict[str, Any] = {"file": str(data), "rows": len(dataset), **_provenance(data)}
            else:
                with progress_bar(sys.stderr.isatty(), "playing") as bar:
                    task = bar.add_task("games", total=games) if bar is not None else None
                    collected = play_on(
                        ex, ManhattanPlayer, games, seed, boards, progress=(lambda n: bar.advance(task, n)) if bar else None
                    )
                dataset = collected.data
                source = {
                    "games": games,
                    "won": collected.won,
                    "positions": collected.positions,
                    "rows": len(dataset),
                    "player": "dsscsp-manhattan",
                    "seed": seed,
                    "boards": boards_manifest(boards),
                    "play_cpu_seconds": round(collected.seconds, 2),
                }
            from sweeplab.learn.seed003.winrates import eval_rounds

            rounds = rounds or XGBOOST_ROUNDS
            with progress_bar(sys.stderr.isatty() and evals is not None, "evaluating") as bar:
                if bar is not None:
                    task = bar.add_task("games", total=eval_games * (1 + len(eval_rounds(rounds))))
                    evals.progress = lambda n: bar.advance(task, n)
                booster, card = train_xgboost(dataset, _training_seed(seed), rounds, without=dropped, evaluate=evals, log=log)
            card["data"] = source
            card["command"] = _command()
            card["reproducible"] = "bit-exact on the same XGBoost version and CPU (nthread=1, fixed seed, deterministic data)"
            _with_evaluation(card, evals)
            save_xgboost(booster, card, out)
        else:
            _need("torch", f"training the {kind} model")
            passes = episodes if episodes is not None else (5 if kind == "nn" else 4)  # the trainers' defaults
            total = games * (passes + (0 if kind == "nn" else 1))
            if kind == "dqn" and data is not None:
                total -= games  # the single pass's rows are given, and their alpha with them
            elif kind == "dqn":
                from sweeplab.learn.seed003.episodes import alpha_fit_games

                total += alpha_fit_games(alpha_games)
            if evals is not None:
                total += eval_games * (1 + passes + (kind == "dqn"))
            with progress_bar(sys.stderr.isatty(), "playing") as bar:
                task = bar.add_task("games", total=total) if bar is not None else None
                advance = (lambda n: bar.advance(task, n)) if bar is not None else None
                if evals is not None:
                    evals.progress = advance
                if kind == "nn":
                    from sweeplab.learn.seed003.classifiers import train_nn
                    from sweeplab.learn.seed003.data import Dataset
                    from sweeplab.learn.seed003.network import save_network

                    first = Dataset.load(data) if data is not None else None
                    network, card = train_nn(
                        episodes if episodes is not None else 5,
                        games,
                        _training_seed(seed),
                        boards,
                        epochs or 2,
                        first=first,
                        progress=advance,
                        log=log,
                        without=dropped,
                        executor=ex,
                        evaluate=evals,
                    )
                    save_network(network, card, out)
                else:
                    from sweeplab.learn.seed003.dqn import EPOCHS, train_dqn
                    from sweeplab.learn.seed003.network import save_network
                    from sweeplab.learn.seed003.shards import load_substates

                    single, coefficients = load_substates(data) if data is not None else (None, None)
                    network, card = train_dqn(
                        games,
                        episodes if episodes is not None else 4,
                        _training_seed(seed),
                        boards,
                        alpha_games,
                        coefficients=coefficients,
                        epochs=epochs or EPOCHS,
                        progress=advance,
                        log=log,
                        first=single,
                        executor=ex,
                        evaluate=evals,
                        replay=replay,
                    )
                    if single is not None:
                        card["data"] = {"file": str(data), "rows": len(single.y), **_provenance(data)}
                    save_network(network, card, out)
            card["command"] = _command()
            card["reproducible"] = (
                "bit-exact on the same PyTorch version and CPU (one thread, torch.manual_seed, deterministic algorithms, "
                "deterministic data); another CPU or library version may differ in the last bits of the weights"
            )
            from sweeplab.learn.models import write_card

            _with_evaluation(card, evals)
            write_card(out, card)
    from sweeplab.learn.seed003.curves import plot_curves

    if plot_curves(card, out / "curve.png") is not None:
        click.echo(f"learning curve -> {out / 'curve.png'}")
    v = card["validation"]
    if not v.get("rows"):
        v = "not measured (no held-out games: train on more games to hold 10% out)"
    click.echo(f"{kind} model -> {out} (card: {out / 'card.json'}); validation {v}; training {card['training_seconds']}")


def _with_evaluation(card: dict[str, Any], evals: Any) -> None:
    """Put what the evaluation games were (and the reference's point) in the card's ``evaluation``, beside the
    points a trainer put there (xgboost's rounds); an episode's point is in the episode's entry."""
    if evals is not None:
        card["evaluation"] = {**evals.manifest(), **card.get("evaluation", {})}


def _provenance(data: Path | None) -> dict[str, Any]:
    """What a data set's manifest says made it (games, seed, command), for a model card; nothing if it has none."""
    from sweeplab.learn.seed003.data import DataError, read_manifest

    try:
        manifest = read_manifest(data) if data is not None else {}
    except DataError:
        return {}
    return {k: manifest[k] for k in ("games", "won", "seed", "command") if k in manifest}


@learn_group.command("compare", short_help="Learned against exact mine probabilities.")
@click.option(
    "--positions",
    "-n",
    type=click.IntRange(1, MAX_POSITIONS),
    default=10_000,
    show_default=True,
    help="guess positions to compare on",
)
@click.option(
    "--board",
    "-b",
    "boards",
    multiple=True,
    default=("beginner", "intermediate", "expert"),
    show_default=True,
    help=BOARD_HELP + " (repeat for several)",
)
@click.option("--rule", "-r", type=RULE_CHOICE, default="safe", show_default=True, help="first-click rule")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed of the games the positions come from")
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results/learn/probabilities"),
    show_default=True,
    help="folder for the data, table and plot",
)
@friendly_errors
def compare_command(positions: int, boards: tuple[str, ...], rule: str, seed: int, out: Path) -> None:
    """The classifiers' mine probabilities against the exact engine's on guess positions of the Manhattan player:
    log loss, calibration, how often the learned choice differs from the exact-safest cell and what it costs."""
    from sweeplab.bench.journal import check_writable as check_directory
    from sweeplab.learn.seed003.evaluate import compare_probabilities

    _training_seed(seed)  # the comparison serves development: a held-out seed is refused
    check_directory(out)
    with progress_bar(sys.stderr.isatty(), "positions") as bar:
        task = bar.add_task("positions", total=positions) if bar is not None else None
        summary = compare_probabilities(
            positions,
            list(boards),
            rule,
            seed,
            out,
            progress=(lambda n: bar.advance(task, n)) if bar else None,
            command=_command(),
        )
    click.echo(summary)
