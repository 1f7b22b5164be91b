/* sweeplab.strategies._players: the players' game loops in C, loaded by sweeplab/strategies/loops.py.
 *
 * play_exact (_exact_play.c) is the `exact` strategy's whole game loop; in_span, count_layouts, brief and living
 * (best/_best.c) are `best`'s hot paths. Both stand on the exact engine's count, which this module includes from
 * sweeplab/analysis/exact/_count.c (players build on the engine; the engine's own module knows nothing of them).
 */
#include "../analysis/exact/_count.c"
#include "_exact_play.c" /* play_exact: the exact strategy's game loop */
#include "best/_best.c"  /* in_span, count_layouts, brief and living: best's helpers */

/* three_bv(mine, number, width, height) -> int: Game.three_bv in C (openings plus the safe cells no opening reaches),
   for the harness's record of every game; registered with sweeplab.core.game by loops.py. */
static PyObject *three_bv(PyObject *self, PyObject *args) {
    PyObject *mine_in, *number_in;
    int width, height;
    if (!PyArg_ParseTuple(args, "OOii:three_bv", &mine_in, &number_in, &width, &height)) return NULL;
    if (width < 1 || height < 1 || (long)width * height > 1L << 26) {
        PyErr_SetString(PyExc_ValueError, "three_bv: the board must be 1x1 to 2^26 cells");
        return NULL;
    }
    Py_ssize_t cells = (Py_ssize_t)width * height;
    signed char *mine = malloc((size_t)cells), *number = malloc((size_t)cells), *marked = calloc((size_t)cells, 1);
    int *stack = malloc(sizeof(int) * (size_t)cells);
    PyObject *result = NULL;
    if (!mine || !number || !marked || !stack) { PyErr_NoMemory(); goto done; }
    if (read_cells(mine_in, cells, mine, 0, 1, "mine") < 0 || read_cells(number_in, cells, number, -1, 9, "number") < 0)
        goto done;
    long clicks = 0;
    for (Py_ssize_t c = 0; c < cells; c++) {
        if (mine[c] || number[c] != 0 || marked[c]) continue;
        clicks++;
        marked[c] = 1;
        int top = 0;
        stack[top++] = (int)c;
        while (top) {
            int s = stack[--top], x = s % width, y = s / width;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((dx || dy) && nx >= 0 && nx < width && ny >= 0 && ny < height) {
                        int n = ny * width + nx;
                        if (!marked[n]) {
                            marked[n] = 1;
                            if (number[n] == 0 && !mine[n]) stack[top++] = n;
                        }
                    }
                }
        }
    }
    for (Py_ssize_t c = 0; c < cells; c++)
        if (!mine[c] && !marked[c]) clicks++;
    result = PyLong_FromLong(clicks);
done:
    free(mine); free(number); free(marked); free(stack);
    return result;
}

static PyMethodDef methods[] = {
    {"three_bv", three_bv, METH_VARARGS,
     "three_bv(mine, number, width, height) -> int: a layout's 3BV (Game.three_bv), from its mine flags and numbers."},
    {"play_exact", play_exact, METH_VARARGS,
     "play_exact(mine, number, view, proved, width, height, mines, moves, limit, max_states, max_bytes, seconds, first=-1,\n"
     "deadline=0, guesses=0)\n"
     "-> (over, cells, guesses, opened): the exact strategy plays on (see _exact_play.c) from the view (a list of ints\n"
     "-2..8, the cells it reveals updated), the layout's mines and numbers (lists or tuples of one value per cell) and\n"
     "the proved mines (a bytearray, updated), with `moves` made so far and at most `limit`. cells: the cells it\n"
     "revealed, in order; guesses: (unconstrained, cell, safety, move) for each guess; opened: the cells opened; over:\n"
     "True when the game ended (won or lost), False when it stopped for the Python strategy to play on (a position it\n"
     "cannot vouch for, the move limit or the deadline). first: a covered cell to reveal before anything else (the\n"
     "first click, once the game has dealt for it), or -1. deadline: the thread's CPU clock (time.thread_time) past\n"
     "which it stops after a reveal, or 0 for none. guesses: with n > 0 it stops before the guess after n of them,\n"
     "that guess the list's last with the move -1, unplayed (a rollout's horizon); 0 for none."},
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
