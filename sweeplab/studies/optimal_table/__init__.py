"""The optimal table: the optimal win probability beside strategies' exact ones on every small board, per first-click
rule, with the search's cost (``sweeplab optimal-table --out results/optimal``) and its section of docs/results.md.
May import sweeplab.studies' machinery, bench, strategies, analysis and core."""

from sweeplab.studies.optimal_table.boards import (
    BEST_CLICK,
    COLUMNS,
    DEFAULT_BOARDS,
    DEFAULT_CAPS,
    DEFAULT_MAX_LAYOUTS,
    DEFAULT_TIME_LIMIT,
    RULES,
    STRATEGIES,
    Board,
    TableError,
    board_xy,
    load,
    parse_boards,
)
from sweeplab.studies.optimal_table.report import (
    cost_table,
    growth,
    largest_finished,
    markdown,
    notes,
    plot,
    plot_cost,
    rule_table,
    search_cost,
    section,
)
from sweeplab.studies.optimal_table.runner import Settings, Task, plan, run_table, run_task, with_gaps

__all__ = [
    "BEST_CLICK",
    "COLUMNS",
    "DEFAULT_BOARDS",
    "DEFAULT_CAPS",
    "DEFAULT_MAX_LAYOUTS",
    "DEFAULT_TIME_LIMIT",
    "RULES",
    "STRATEGIES",
    "Board",
    "Settings",
    "TableError",
    "Task",
    "board_xy",
    "cost_table",
    "growth",
    "largest_finished",
    "load",
    "markdown",
    "notes",
    "parse_boards",
    "plan",
    "plot",
    "plot_cost",
    "rule_table",
    "run_table",
    "run_task",
    "search_cost",
    "section",
    "with_gaps",
]
