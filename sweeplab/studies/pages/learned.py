"""The learned players' page of docs/results/: seed 003's learned players measured from results/learn/."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from sweeplab.studies.bench_runs import _board_runs, _learn_paired, _runs_outcomes, ablation_runs, spec_options
from sweeplab.studies.claim import EQUIVALENCE_MARGIN, UNDECIDED
from sweeplab.studies.pages.page import Doc, _pm, _table
from sweeplab.studies.pages.training import training_section
from sweeplab.studies.pages.verdicts import RULE, held_out, seed_of

LEARN_BOARDS = ("beginner", "intermediate", "expert")
LEARN_GAMES_ASKED = 10_000  # games per board asked of each learned player
#: Seed 003's name (Table 3; its Table 4 lost every number) for each player of the learned-players table.
LEARN_VERSIONS = {
    "dsscsp-manhattan": "DSScsp + DSS + Manhattan distance",
    "xgboost": "+ supervised learning, single-pass classification (XGBoost)",
    "nn": "+ supervised learning, iterative approach (network of Table 1)",
    "dqn": "+ Q-learning, iterative",
    "dqn-single": "+ Q-learning, single pass",
    "exact": "not in seed 003 (sweeplab's exact engine)",
}


def _run_source(doc: Doc, folder: Path) -> tuple[str, str]:
    """A run folder's name under ``results/`` and the command that made it (``not recorded`` without command.txt)."""
    command = (folder / "command.txt").read_text().strip() if (folder / "command.txt").exists() else "not recorded"
    return folder.relative_to(doc.results).as_posix(), command


def _paired_z(d: tuple[float, float]) -> float:
    """A paired difference in standard errors (0 for two identical records, infinite for a difference without spread)."""
    diff, se = d
    if se == 0:
        return 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return diff / se


def _learn_claims(board: str, outcomes: dict[str, dict[int, bool]]) -> list[dict[str, Any]]:
    """Seed 003's ranking (5.3 and the conclusion) as claims tested on the paired games of one board: the learned
    versions beat the Manhattan version, and deep Q-learning is "marginally better than" the classifiers ("but not
    always"). A "beats" claim is reproduced when the paired difference is above +2 SE, not reproduced when it is
    below -2 SE, and undecided in between. The Q-learning claim, a claim of near-equality, is a non-inferiority test
    with the margin of the equivalence claims (:data:`~sweeplab.studies.claim.EQUIVALENCE_MARGIN`, one point): not
    reproduced when deep Q-learning is behind the better classifier by more than 2 SE, reproduced when the
    difference less 2 SE is above minus the margin, undecided in between (so that a verdict on one seed's games does
    not turn into its opposite on another's; with a single 2-SE line it could). The conclusion's version numbers were lost,
    so both Q-learning versions of Table 3 are tested: the iterative one (``dqn``) and the single pass
    (``dqn-single``)."""

    def cell(d: tuple[float, float]) -> str:
        return f"{100 * d[0]:+.2f} ± {100 * d[1]:.2f} pts"

    claims: list[dict[str, Any]] = []
    for names, text in (
        (("dqn",), "deep Q-learning (dqn) wins more than the Manhattan version"),
        (("dqn-single",), "deep Q-learning, single pass (dqn-single), wins more than the Manhattan version"),
        (("xgboost", "nn"), "both classifiers (xgboost, nn) win more than the Manhattan version"),
    ):
        diffs = {n: _learn_paired(outcomes, n, "dsscsp-manhattan") for n in names}
        if any(d is None for d in diffs.values()):
            continue
        zs = {n: _paired_z(d) for n, d in diffs.items() if d is not None}
        worst = min(zs, key=lambda n: zs[n])
        verdict = "reproduced" if zs[worst] > 2 else UNDECIDED if zs[worst] >= -2 else "not reproduced"
        why = {UNDECIDED: "the interval of ±2 SE holds 0", "not reproduced": "worse by more than 2 SE"}.get(verdict)
        measured = ", ".join(f"{n} {cell(d)}" for n, d in diffs.items() if d is not None)
        claims.append(
            {
                "key": f"seed 003 | {board} | {'+'.join(names)} beats dsscsp-manhattan",
                "claim": f"{board}: {text}",
                "published": "ranking only (Table 4's numbers lost)",
                "measured": measured,
                "z": zs[worst],
                "verdict": verdict,
                "sentence": f"{board}: {text} (paired on the same layouts): {measured}; "
                + ("reproduced." if why is None else f"{verdict}: {why} ({worst} {zs[worst]:+.1f} SE)."),
            }
        )
    for q in ("dqn", "dqn-single"):
        classifiers = [(n, _learn_paired(outcomes, q, n)) for n in ("xgboost", "nn")]
        if not all(d is not None for _, d in classifiers):
            continue
        name, d = min(classifiers, key=lambda item: item[1][0])  # type: ignore[index]
        assert d is not None
        z = _paired_z(d)
        if d[0] + 2 * d[1] < 0:
            verdict, why = "not reproduced", f"{q} is behind by more than 2 SE"
        elif d[0] - 2 * d[1] > -EQUIVALENCE_MARGIN:
            verdict, why = "reproduced", f"not behind by the margin of {100 * EQUIVALENCE_MARGIN:g} point (less 2 SE)"
        else:
            verdict, why = UNDECIDED, f"the interval of ±2 SE holds both 0 and -{100 * EQUIVALENCE_MARGIN:g} point"
        version = "deep Q-learning" if q == "dqn" else "deep Q-learning, single pass,"
        claims.append(
            {
                "key": f"seed 003 | {board} | {q} at least as good as the classifiers",
                "claim": f"{board}: {version} is marginally better than the classifiers, not always",
                "published": "ranking only",
                "measured": f"{q} minus {name} (the better classifier here) {cell(d)}",
                "z": z,
                "verdict": verdict,
                "sentence": f"{board}: {q} minus the better classifier ({name}) is {cell(d)}; {verdict}: {why}.",
            }
        )
    return claims


def _measured(
    doc: Doc, base: Path, verdicts: bool
) -> tuple[list[list[Any]], list[str], list[dict[str, Any]], list[str], int | None]:
    """The win-rate rows, the sources, seed 003's ranking claims and the closing lines of the runs under
    ``base/BOARD/``, and their seed; with ``verdicts`` every run must be of a held-out seed."""
    rows: list[list[Any]] = []
    sources: list[str] = []
    claims: list[dict[str, Any]] = []
    closing: list[str] = []
    seed = None
    for board in LEARN_BOARDS:
        runs = _board_runs(base / board)
        if not runs:
            continue
        if verdicts:
            held_out(runs)
        seed = seed_of(runs)
        summaries = [s for _, bench in runs for s in bench["summaries"]]
        outcomes = _runs_outcomes(runs)
        by_name = {s["strategy"]: s for s in summaries}
        for s in summaries:
            name = s["strategy"]
            cells = []
            for other in ("dsscsp-manhattan", "exact"):
                d = _learn_paired(outcomes, name, other)
                cells.append("-" if d is None else f"{100 * d[0]:+.2f} ± {100 * d[1]:.2f}")
            rows.append(
                [
                    f"{s['board']} ({board})",
                    name,
                    LEARN_VERSIONS.get(name, "-"),
                    ("lost in extraction" if board == "beginner" else "only in its figures (lost)")
                    if name in LEARN_VERSIONS and name != "exact"
                    else "-",
                    f"{s['games']:,}",
                    _pm(s["win_rate"], s["sem"]),
                    *cells,
                    f"{1000 * s['cpu_mean']:.2f} / {1000 * s['cpu_median']:.2f}",
                    s.get("timeouts", 0),
                ]
            )
        fewest = min(s["games"] for s in summaries)
        asked = ""
        if fewest < LEARN_GAMES_ASKED:
            asked = f" {fewest:,} games for some players, below the {LEARN_GAMES_ASKED:,} asked."
        missing = [n for n in LEARN_VERSIONS if n not in by_name]
        for folder, _ in runs:
            name, command = _run_source(doc, folder)
            run = doc.run_record(name)
            sources.append(
                f"- {board}: `results/{name}/` (`bench.json`, `games.csv.gz`, `run.json`), produced by `{command}`."
                + (f" {run}" if run else "")
            )
        sources[-1] += asked + (f" Not played on this board: {', '.join(missing)}." if missing else "")
        claims += _learn_claims(board, outcomes)
        learned = [n for n in ("xgboost", "nn", "dqn", "dqn-single") if n in by_name]
        if learned and "exact" in by_name:
            best = max(learned, key=lambda n: by_name[n]["win_rate"])
            vs_exact = _learn_paired(outcomes, best, "exact")
            vs_man = _learn_paired(outcomes, best, "dsscsp-manhattan")
            if vs_exact is not None:
                closing.append(
                    f"{board} ({by_name[best]['games']:,} games): the best learned player, {best}, wins "
                    f"{_pm(by_name[best]['win_rate'], by_name[best]['sem'])}%, "
                    + (
                        ""
                        if vs_man is None
                        else f"{100 * vs_man[0]:+.2f} ± {100 * vs_man[1]:.2f} points against dsscsp-manhattan and "
                    )
                    + f"{100 * vs_exact[0]:+.2f} ± {100 * vs_exact[1]:.2f} against exact "
                    f"({_pm(by_name['exact']['win_rate'], by_name['exact']['sem'])}%)."
                )
    return rows, sources, claims, closing, seed


WIN_HEADER = [
    "board",
    "strategy",
    "seed 003's version (Table 3)",
    "seed 003 % (Table 4)",
    "games",
    "win % ± SE",
    "minus dsscsp-manhattan (pts)",
    "minus exact (pts)",
    "CPU ms/game mean / median",
    "timeouts",
]


def _with_development(claims: list[dict[str, Any]], development: list[dict[str, Any]], seed: int | None) -> None:
    """Each held-out claim's sentence ends with the same claim on the development games, and says whether the
    verdict changed."""
    earlier = {c["key"]: c for c in development}
    for c in claims:
        d = earlier.get(c["key"])
        if d is None:
            continue
        same = d["verdict"] == c["verdict"]
        c["sentence"] += f" On the development layouts (seed {seed}): {d['measured']}, {d['verdict']}" + (
            "; the same verdict." if same else f"; the verdict changed on held-out games ({d['verdict']} to {c['verdict']})."
        )


def _learned_players(doc: Doc) -> None:
    """Seed 003's learned players: win rates beside dsscsp-manhattan and exact on the same held-out layouts, seed
    003's ranking claims tested on them (and, beside each, the same claim on the development layouts), the learned
    probabilities against the exact engine's, the training cost and a closing comparison, from ``results/learn/``."""
    root = doc.results / "learn"
    doc.add("## Seed 003's learned players: XGBoost, the iterative network, deep Q-learning")
    if not root.exists():
        doc.add("Not measured yet: see `results/learn/README.md` for the commands.")
        return
    rows, sources, claims, closing, seed = _measured(doc, root / "heldout" / "winrates", verdicts=True)
    dev_rows, dev_sources, dev_claims, _, dev_seed = _measured(doc, root / "winrates", verdicts=False)
    _with_development(claims, dev_claims, dev_seed)
    if closing:
        doc.add(
            "**In short.** Seed 003's tables lost their numbers, so only its ranking is tested (below). The best learned "
            f"player of each board, paired on the same held-out layouts (seed {seed:,}) with the Manhattan version they "
            "build on and with `exact`:\n\n" + "\n".join(f"- {line}" for line in closing)
        )
    readme = root / "README.md"
    if readme.exists():
        doc.add(readme.read_text())
    common = (
        "first click safe (the players open in a corner), every player on the same layouts; ± the standard "
        "error over 10 equal sets. The paired columns are this player minus the named one, game by game over the games "
        "both played, in percentage points ± their standard error. CPU is per game, in the bench's worker processes, "
        "as that run measured it (two workers on a 2-core machine shared with other work, on the date beside its "
        "command below): a record of the run, not the players' speed today (`docs/performance.md` times the engine). "
        "Seed 003 names its versions in Table 3 and gives their accuracy on the standard beginner board (9x9, 10 "
        "mines) in Table 4, whose numbers were lost in extraction; for other boards it shows only figures (also "
        "lost). So only its ranking can be tested (below)."
    )
    if rows:
        doc.add(
            "### Win rates on held-out layouts\n\n"
            f"Root seed {seed:,}, held out (`sweeplab/core/heldout.py`): no training run, no evaluation during "
            "training and no choice made in development played these layouts, and the verdicts below are measured "
            f"on them. {RULE}. {common[0].upper()}{common[1:]}\n\n" + _table(WIN_HEADER, rows)
        )
        doc.add("Data and commands:\n\n" + "\n".join(sources))
    if claims:
        doc.add(
            "### Seed 003's ranking against these measurements\n\nSeed 003 (5.3, 6): its Q-learning and classifier "
            'versions outperform the earlier ones, and deep Q-learning is "marginally better than machine learning '
            '(classification) methods in general, but not always". Measured on the held-out layouts above: a "wins '
            'more" claim is reproduced when the paired difference less 2 SE is above 0, not reproduced when the '
            "difference plus 2 SE is below 0, and undecided in between; the Q-learning claim, one of near-equality, is "
            "not reproduced when deep Q-learning is behind the better classifier by more than 2 SE, reproduced when "
            f"the difference less 2 SE is above -{100 * EQUIVALENCE_MARGIN:g} point (the margin of the page's "
            "equivalence claims), and undecided in between. Each sentence also gives the same "
            f"claim on the development layouts (seed {dev_seed})."
        )
        doc.claims({"claims": claims})
    measured = {c["key"] for c in claims}
    pending = [c for c in dev_claims if c["key"] not in measured]
    if pending:
        doc.add(
            "Not yet measured on held-out layouts, so without a verdict here (the machine's share of CPU did not reach "
            f"them); on the development layouts (seed {dev_seed}):\n\n"
            + "\n".join(f"- {c['claim']}: {c['measured']} (on those layouts: {c['verdict']})." for c in pending)
        )
    if dev_rows:
        doc.add(
            f"### Win rates on the development layouts (seed {dev_seed})\n\n"
            f"The layouts the models were evaluated on while they trained, and on which the retrain-and-compare "
            f"choices of `results/learn/README.md` were made: they carry no verdict. Seed {dev_seed}, {common}\n\n"
            + _table(WIN_HEADER, dev_rows)
        )
        doc.add("Data and commands:\n\n" + "\n".join(dev_sources))
    _table4(doc, root)
    _ablations(doc, root)
    summary_path = root / "probabilities" / "summary.json"
    if summary_path.exists():
        summary = json.loads(summary_path.read_text())
        doc.add("### The learned mine probabilities against the exact engine's")
        doc.add(
            "Each guess position of the Manhattan player (the games it plays from seed 0), every covered cell scored by "
            "DSScsp's probability, the two classifiers and the exact engine. Log loss against exact is the "
            "cross-entropy of the model's probability with the exact one as target (its floor is exact's own "
            "entropy); against the true layout it scores the prediction by whether the cell held a mine. A choice "
            "differs when the chosen cell's exact mine probability is above the least (a tie with another safest "
            "cell does not count); its cost is that excess. ± SE over the games the positions come from."
        )
        doc.add((root / "probabilities" / "table.md").read_text())
        doc.add(
            f"Data: `results/learn/probabilities/` (`positions.csv`, `calibration.csv`, `summary.json`), produced by "
            f"`{summary['command']}`.\n\n![calibration](../results/learn/probabilities/calibration.png)"
        )
    training_section(doc, root)


#: A noise player's ablation: with noise in place of the model, xgboost, nn, dqn and dqn-single are one player (the
#: same candidates and the same seeded draws), so one run of it is paired with each of them.
NOISE_LABEL = "its output replaced by uniform noise"


def _ablation_label(spec: str, results: Path) -> str:
    """What an ablation player changes, from its spec: noise instead of the model, or a model retrained without some
    features (named by that model's card)."""
    options = spec_options(spec)
    if options.get("noise") == "1":
        return NOISE_LABEL
    if "model" in options:
        card_path = results.parent / options["model"] / "card.json"
        try:
            card = json.loads(card_path.read_text())
        except (OSError, ValueError):
            return f"the model at {options['model']} (no card found)"
        return f"retrained without {', '.join(card.get('without', [])) or 'nothing'}"
    return "-"


def _ablations(doc: Doc, root: Path) -> None:
    """The ablations: each learned player with its output replaced by noise, or retrained without its best feature,
    paired on the same layouts as the full player (``results/learn/ablations/BOARD/``, a bench with the winrates run's
    board, rule and seed, so game ``i`` is the same layout in both)."""
    rows, sources = [], []
    for board in LEARN_BOARDS:
        runs = ablation_runs(root, board)
        if runs is None:
            continue
        ablated, outcomes = runs
        for summary in (s for _, bench in ablated for s in bench["summaries"]):
            spec = summary["strategy"]
            label = _ablation_label(spec, doc.results)
            bases = [spec.split("[", 1)[0]]
            if label == NOISE_LABEL:  # one noise player stands for every kind: they play the same games
                bases = [n for n in ("xgboost", "nn", "dqn", "dqn-single") if n in outcomes]
            for base in bases:
                cells = []
                for other in (base, "dsscsp-manhattan"):
                    d = _learn_paired(outcomes, spec, other)
                    cells.append("-" if d is None else f"{100 * d[0]:+.2f} ± {100 * d[1]:.2f}")
                rows.append(
                    [
                        f"{summary['board']} ({board})",
                        base,
                        f"{label} (`{spec}`)",
                        f"{summary['games']:,}",
                        _pm(summary["win_rate"], summary["sem"]),
                        *cells,
                    ]
                )
        for folder, _ in ablated:
            name, command = _run_source(doc, folder)
            run = doc.run_record(name)
            sources.append(f"- {board}: `results/{name}/`, produced by `{command}`." + (f" {run}" if run else ""))
    if rows:
        doc.add(
            "### What the models use: ablations\n\nThe learned players again, on the same layouts as the table above, "
            "with the model's output replaced by uniform noise (so only DSScsp's certain moves and the candidate set "
            "remain; this player is the same for every kind, so one run is paired with each), or with a model retrained "
            "without its top feature (the XGBoost card's gain importance). The paired "
            "columns are the ablated player minus the full one and minus dsscsp-manhattan, in points ± SE.\n\n"
            + _table(
                [
                    "board",
                    "player",
                    "ablation",
                    "games",
                    "win % ± SE",
                    "minus the full player (pts)",
                    "minus dsscsp-manhattan (pts)",
                ],
                rows,
            )
            + "\nData and commands:\n\n"
            + "\n".join(sources)
        )


def _table4(doc: Doc, root: Path) -> None:
    """Seed 003's Table 4: every version of Table 3 and Buffet et al.'s OH (its reference [5]) on the standard
    beginner board, gathered from the runs that measured them (the versions experiment, the learned players' bench,
    the OH bench). The paper's accuracy column was lost in extraction."""
    from sweeplab.studies.papers.seed003_claims import SEED_003_LEARNED

    rows = []
    seed003 = doc.results / "seed003" / "data.json"
    if seed003.exists():
        data = json.loads(seed003.read_text())
        for point in data["points"]:
            if point["group"] == "versions" and point["strategy"] not in {spec for _, spec in SEED_003_LEARNED}:
                rows.append(
                    [
                        point["paper_label"],
                        point["strategy"],
                        f"{point['games']:,}",
                        _pm(point["win_rate"], point["sem"]),
                        "`results/seed003/`",
                    ]
                )
    runs = _board_runs(root / "winrates" / "beginner")
    by_name = {s["strategy"]: s for _, bench in runs for s in bench["summaries"]}
    for label, spec in SEED_003_LEARNED:
        if spec in by_name:
            s = by_name[spec]
            rows.append([label, spec, f"{s['games']:,}", _pm(s["win_rate"], s["sem"]), "`results/learn/winrates/beginner/`"])
    oh = doc.results / "oh-beginner" / "bench.json"
    if oh.exists():
        for s in json.loads(oh.read_text())["summaries"]:
            if s["strategy"] == "oh":
                rows.append(["OH [5]", "oh", f"{s['games']:,}", _pm(s["win_rate"], s["sem"]), "`results/oh-beginner/`"])
    if rows:
        doc.add(
            "### Seed 003's Table 4: every version on the beginner board\n\nSeed 003's Table 4 gives each version's "
            "accuracy on 9x9 with 10 mines beside OH, Buffet et al.'s optimistic heuristics (its reference [5]); every "
            "number was lost in extraction, so only our measurements are shown (first click safe, seed 0). `oh` is our "
            "reading of Buffet et al. 2012 (`sweeplab/strategies/oh.py` says what was found of the paper and what was "
            "chosen); `results/oh-beginner/README.md` has its command, its paired difference with `exact` and the "
            "figures published for it elsewhere.\n\n"
            + _table(["seed 003's version", "sweeplab strategy", "games", "win % ± SE", "data"], rows)
        )
