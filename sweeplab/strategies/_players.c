/* sweeplab.strategies._players: the players' game loops in C, loaded by sweeplab/strategies/loops.py.
 *
 * play_exact (_exact_play.c) is the `exact` strategy's whole game loop; in_span, count_layouts, brief and living
 * (best/_best.c) are `best`'s hot paths. Both stand on the exact engine's count, which this module includes from
 * sweeplab/analysis/exact/_count.c (players build on the engine; the engine's own module knows nothing of them).
 */
#include "../analysis/exact/_count.c"
#include "_exact_play.c" /* play_exact: the exact strategy's game loop */
#include "best/_best.c"  /* in_span, count_layouts, brief and living: best's helpers */

static PyMethodDef methods[] = {
    {"play_exact", play_exact, METH_VARARGS,
     "play_exact(mine, number, view, proved, width, height, mines, moves, limit, max_states, max_bytes, seconds, first=-1,\n"
     "deadline=0)\n"
     "-> (over, cells, guesses, opened): the exact strategy plays on (see _exact_play.c) from the view (a list of ints\n"
     "-2..8, the cells it reveals updated), the layout's mines and numbers (lists or tuples of one value per cell) and\n"
     "the proved mines (a bytearray, updated), with `moves` made so far and at most `limit`. cells: the cells it\n"
     "revealed, in order; guesses: (unconstrained, cell, safety, move) for each guess; opened: the cells opened; over:\n"
     "True when the game ended (won or lost), False when it stopped for the Python strategy to play on (a position it\n"
     "cannot vouch for, the move limit or the deadline). first: a covered cell to reveal before anything else (the\n"
     "first click, once the game has dealt for it), or -1. deadline: the thread's CPU clock (time.thread_time) past\n"
     "which it stops after a reveal, or 0 for none."},
    {"in_span", in_span, METH_VARARGS,
     "in_span(target, groups) -> bool: whether the indicator of the cell set `target` is a rational linear combination\n"
     "of the indicators of the cell sets `groups` (exact ranks; best's look-ahead)."},
    {"count_layouts", count_layouts, METH_VARARGS,
     "count_layouts(view, width, height, mines, max_states, max_bytes, seconds) -> int | None: the exact number of\n"
     "layouts of a position (0 when none fits), None when a component cannot be counted within the limits."},
    {"brief", brief, METH_VARARGS,
     "brief(view, width, height, mines, max_states, max_bytes, seconds) -> (layouts, safe, mines, b1, b2) | None: what\n"
     "best's look-ahead reads of a position (see best/_best.c); None when the analyzer must answer."},
    {"living", living, METH_VARARGS,
     "living(view, width, height, safe, mines, enough) -> int: how many of the certainly safe cells are living, up to\n"
     "enough (best's look-ahead; see _kernel_best.c)."},
    {NULL, NULL, 0, NULL}};


static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_players", "The players' game loops in C.", -1, methods};

PyMODINIT_FUNC PyInit__players(void) {
    count_init();
    return PyModule_Create(&module);
}
