/* sweeplab.strategies._players: the players' game loops in C, loaded by sweeplab/strategies/loops.py.
 *
 * play_exact (_exact_play.c) is the `exact` strategy's whole game loop; in_span, count_layouts, brief and living
 * (best/_best.c) are `best`'s hot paths; pseq_figures (pseq/_figures.c) is `pseq`'s tie-break, and its
 * pseq_choose makes `pseq`'s guesses in play_exact's loop. All stand on the
 * exact engine's count, which this module includes from sweeplab/analysis/exact/_count.c (players build on the
 * engine; the engine's own module knows nothing of them).
 */
#include "../analysis/exact/_count.c"
#include "_exact_play.c" /* play_exact: the exact strategy's game loop */
#include "best/_best.c"  /* in_span, count_layouts, brief and living: best's helpers */
#include "pseq/_figures.c" /* pseq_figures and pseq_choose: PSEQ's tie-break figures and its guess */

/* A layout's 3BV from its mine flags and numbers (one byte per cell): openings plus the safe cells no opening
   reaches; -1 when out of memory. */
static long count_three_bv(const signed char *mine, const signed char *number, int width, int height) {
    Py_ssize_t cells = (Py_ssize_t)width * height;
    signed char *marked = calloc((size_t)cells, 1);
    int *stack = malloc(sizeof(int) * (size_t)cells);
    if (!marked || !stack) { free(marked); free(stack); return -1; }
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
    free(marked); free(stack);
    return clicks;
}

/* three_bv(mine, number, width, height) -> int: Game.three_bv in C, from the game's lists; lent to sweeplab.core.game by
   loops.py (a layout dealt in C has its 3BV counted by layout_numbers already). */
static PyObject *three_bv(PyObject *self, PyObject *args) {
    PyObject *mine_in, *number_in;
    int width, height;
    if (!PyArg_ParseTuple(args, "OOii:three_bv", &mine_in, &number_in, &width, &height)) return NULL;
    if (width < 1 || height < 1 || (long)width * height > 1L << 26) {
        PyErr_SetString(PyExc_ValueError, "three_bv: the board must be 1x1 to 2^26 cells");
        return NULL;
    }
    Py_ssize_t cells = (Py_ssize_t)width * height;
    signed char *mine = malloc((size_t)cells), *number = malloc((size_t)cells);
    PyObject *result = NULL;
    if (!mine || !number) { PyErr_NoMemory(); goto done; }
    if (read_cells(mine_in, cells, mine, 0, 1, "mine") < 0 || read_cells(number_in, cells, number, -1, 9, "number") < 0)
        goto done;
    long clicks = count_three_bv(mine, number, width, height);
    result = clicks < 0 ? PyErr_NoMemory() : PyLong_FromLong(clicks);
done:
    free(mine); free(number);
    return result;
}

/* The dealing's hot paths, lent to sweeplab.core by loops.py (core has no C of its own), as three_bv is; each has a
 * Python twin in sweeplab/core that the tests hold it to.
 *
 * layout_numbers(mines, cells, width) -> (mine, number, three_bv): Game._set_layout's lists, each mine adding one to
 *   its neighbours' numbers, and the layout's 3BV (counted here, where the layout's bytes are at hand).
 * sample_pool(getrandbits, pool, k) -> list: core.game._sample's pool branch, CPython 3.11's Random.sample where it keeps
 *   a pool: the same draws of getrandbits(left.bit_length()), the same cells, pool left shuffled in place.
 * spawn_state(pool, hash_const, key, words) -> list: core.seeds.seed_sequence_state's spawn step for a spawn key of
 *   one integer below 2^64, from the entropy's pool (4 words) and hash constant.
 */

/* layout_numbers(mines, cells, width) -> (mine, number, three_bv) */
static PyObject *layout_numbers(PyObject *self, PyObject *args) {
    PyObject *mines_in;
    Py_ssize_t cells, width;
    if (!PyArg_ParseTuple(args, "Onn:layout_numbers", &mines_in, &cells, &width)) return NULL;
    if (width < 1 || cells < 1 || cells % width || cells > (Py_ssize_t)1 << 26) {
        PyErr_SetString(PyExc_ValueError, "layout_numbers: the board must be 1x1 to 2^26 cells, whole rows of width");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(mines_in, "layout_numbers: mines must be a sequence of cells");
    if (!seq) return NULL;
    Py_ssize_t height = cells / width, n = PySequence_Fast_GET_SIZE(seq);
    signed char *mine = calloc((size_t)cells, 1), *number = calloc((size_t)cells, 1);
    PyObject *result = NULL, *mine_out = NULL, *number_out = NULL;
    if (!mine || !number) { PyErr_NoMemory(); goto done; }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t c = PyLong_AsSsize_t(items[i]);
        if (c == -1 && PyErr_Occurred()) goto done;
        if (c < 0 || c >= cells) { PyErr_Format(PyExc_ValueError, "layout_numbers: cell %zd is not on the board", c); goto done; }
        if (mine[c]) continue;
        mine[c] = 1;
        Py_ssize_t x = c % width, y = c / width;
        for (Py_ssize_t ny = y - 1; ny <= y + 1; ny++)
            for (Py_ssize_t nx = x - 1; nx <= x + 1; nx++)
                if ((nx != x || ny != y) && nx >= 0 && nx < width && ny >= 0 && ny < height) number[ny * width + nx]++;
    }
    mine_out = PyList_New(cells);
    number_out = PyList_New(cells);
    if (!mine_out || !number_out) goto done;
    for (Py_ssize_t c = 0; c < cells; c++) {
        PyObject *flag = mine[c] ? Py_True : Py_False;
        Py_INCREF(flag);
        PyList_SET_ITEM(mine_out, c, flag);
        PyList_SET_ITEM(number_out, c, PyLong_FromLong(number[c]));  /* small ints: cached, never NULL */
    }
    long bv = count_three_bv(mine, number, (int)width, (int)height);
    if (bv < 0) { PyErr_NoMemory(); goto done; }
    PyObject *bv_out = PyLong_FromLong(bv);
    if (!bv_out) goto done;
    result = PyTuple_Pack(3, mine_out, number_out, bv_out);
    Py_DECREF(bv_out);
done:
    Py_XDECREF(mine_out); Py_XDECREF(number_out);
    free(mine); free(number);
    Py_DECREF(seq);
    return result;
}

/* sample_pool(getrandbits, pool, k) -> list */
static PyObject *sample_pool(PyObject *self, PyObject *args) {
    PyObject *getrandbits, *pool;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "OO!n:sample_pool", &getrandbits, &PyList_Type, &pool, &k)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(pool);
    if (k < 0 || k > n) { PyErr_SetString(PyExc_ValueError, "sample_pool: k must be between 0 and the pool's size"); return NULL; }
    PyObject *chosen = PyList_New(k);
    if (!chosen) return NULL;
    PyObject *bits_of[65] = {NULL};
    for (Py_ssize_t i = 0; i < k; i++) {
        Py_ssize_t left = n - i;
        int bits = 0;
        for (size_t v = (size_t)left; v; v >>= 1) bits++;
        if (!bits_of[bits] && !(bits_of[bits] = PyLong_FromLong(bits))) goto fail;
        Py_ssize_t j;
        do {
            PyObject *drawn = PyObject_CallOneArg(getrandbits, bits_of[bits]);
            if (!drawn) goto fail;
            j = PyLong_AsSsize_t(drawn);
            Py_DECREF(drawn);
            if (j == -1 && PyErr_Occurred()) goto fail;
        } while (j >= left);
        PyObject *cell = PyList_GET_ITEM(pool, j), *last = PyList_GET_ITEM(pool, left - 1);
        Py_INCREF(cell);
        PyList_SET_ITEM(chosen, i, cell);  /* chosen[i] = pool[j], a reference of its own */
        Py_INCREF(last);
        PyList_SetItem(pool, j, last);     /* pool[j] = pool[left - 1], dropping the pool's reference to cell */
    }
    for (int b = 0; b < 65; b++) Py_XDECREF(bits_of[b]);
    return chosen;
fail:
    for (int b = 0; b < 65; b++) Py_XDECREF(bits_of[b]);
    Py_DECREF(chosen);
    return NULL;
}

/* spawn_state(pool, hash_const, key, words) -> list: numpy's SeedSequence words (see core/seeds.py) */
#define SS_MASK 0xFFFFFFFFu
static inline uint32_t ss_hashmix(uint32_t value, uint32_t *hash_const) {
    value ^= *hash_const;
    *hash_const *= 0x931E8875u;
    value *= *hash_const;
    return value ^ (value >> 16);
}
static inline uint32_t ss_mix(uint32_t x, uint32_t y) {
    uint32_t result = 0xCA01F9DDu * x - 0x4973F715u * y;
    return result ^ (result >> 16);
}
static PyObject *spawn_state(PyObject *self, PyObject *args) {
    PyObject *pool_in;
    unsigned long hash_in;
    unsigned long long key;
    int words;
    if (!PyArg_ParseTuple(args, "OkKi:spawn_state", &pool_in, &hash_in, &key, &words)) return NULL;
    if (words < 0 || words > 1 << 20) { PyErr_SetString(PyExc_ValueError, "spawn_state: words out of range"); return NULL; }
    PyObject *seq = PySequence_Fast(pool_in, "spawn_state: the pool must be 4 words");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 4) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "spawn_state: the pool must be 4 words"); return NULL; }
    uint32_t pool[4], hash_const = (uint32_t)hash_in;
    for (int i = 0; i < 4; i++) {
        unsigned long w = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
        if (w == (unsigned long)-1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
        pool[i] = (uint32_t)w;
    }
    Py_DECREF(seq);
    do {  /* the key's 32-bit words, least significant first (0 is one word) */
        uint32_t word = (uint32_t)(key & SS_MASK);
        for (int dst = 0; dst < 4; dst++) pool[dst] = ss_mix(pool[dst], ss_hashmix(word, &hash_const));
        key >>= 32;
    } while (key);
    PyObject *out = PyList_New(words);
    if (!out) return NULL;
    uint32_t b = 0x8B51F9DDu;
    for (int i = 0; i < words; i++) {
        uint32_t value = pool[i % 4] ^ b;
        b *= 0x58F38DEDu;
        value *= b;
        PyObject *w = PyLong_FromUnsignedLong(value ^ (value >> 16));
        if (!w) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, w);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"three_bv", three_bv, METH_VARARGS,
     "three_bv(mine, number, width, height) -> int: a layout's 3BV (Game.three_bv), from its mine flags and numbers."},
    {"layout_numbers", layout_numbers, METH_VARARGS,
     "layout_numbers(mines, cells, width) -> (mine, number, three_bv): a layout's mine flags, numbers and 3BV\n"
     "(Game._set_layout)."},
    {"sample_pool", sample_pool, METH_VARARGS,
     "sample_pool(getrandbits, pool, k) -> list: Random.sample's pool algorithm (core.game._sample), pool shuffled."},
    {"spawn_state", spawn_state, METH_VARARGS,
     "spawn_state(pool, hash_const, key, words) -> list: SeedSequence words for spawn key (key,) (core.seeds)."},
    {"play_exact", play_exact, METH_VARARGS,
     "play_exact(mine, number, view, proved, width, height, mines, moves, limit, max_states, max_bytes, seconds, first=-1,\n"
     "deadline=0, guesses=0, pseq_rng=None)\n"
     "-> (over, cells, guesses, opened): the exact strategy plays on (see _exact_play.c) from the view (a list of ints\n"
     "-2..8, the cells it reveals updated), the layout's mines and numbers (lists or tuples of one value per cell) and\n"
     "the proved mines (a bytearray, updated), with `moves` made so far and at most `limit`. cells: the cells it\n"
     "revealed, in order; guesses: (unconstrained, cell, safety, move) for each guess; opened: the cells opened; over:\n"
     "True when the game ended (won or lost), False when it stopped for the Python strategy to play on (a position it\n"
     "cannot vouch for, the move limit or the deadline). first: a covered cell to reveal before anything else (the\n"
     "first click, once the game has dealt for it), or -1. deadline: the thread's CPU clock (time.thread_time) past\n"
     "which it stops after a reveal, or 0 for none. guesses: with n > 0 it stops before the guess after n of them,\n"
     "that guess the list's last with the move -1, unplayed (a rollout's horizon); n < 0 stops so before the first;\n"
     "0 for none. pseq_rng: a random.Random, for pseq's guesses (pseq/_figures.c's pseq_choose) in place of exact's,\n"
     "its ties drawn with pseq_rng.randrange as the strategy draws them; it stops before a guess whose figures it\n"
     "cannot count within the limits."},
    {"in_span", in_span, METH_VARARGS,
     "in_span(target, groups) -> bool: whether the indicator of the cell set `target` is a rational linear combination\n"
     "of the indicators of the cell sets `groups` (exact ranks; best's look-ahead)."},
    {"count_layouts", count_layouts, METH_VARARGS,
     "count_layouts(view, width, height, mines, max_states, max_bytes, seconds) -> int | None: the exact number of\n"
     "layouts of a position (0 when none fits), None when a component cannot be counted within the limits."},
    {"brief", brief, METH_VARARGS,
     "brief(view, width, height, mines, max_states, max_bytes, seconds) -> (layouts, safe, mines, b1, b2) | None: what\n"
     "best's look-ahead reads of a position (see best/_best.c); None when the analyzer must answer."},
    {"pseq_figures", pseq_figures, METH_VARARGS,
     "pseq_figures(view, width, height, mines, cells, labels, log_total, max_states, max_bytes, seconds)\n"
     "-> [(S, E, Q), ...] | None: PSEQ's tie-break figures (pseq/rule.py's Outcomes.figures) of each covered cell of\n"
     "`cells`, worked out once per kind of cell: view as brief's, labels one native int per cell (-2 a certain mine,\n"
     "-1 no number touches it, else its super-cell), log_total the natural log of the position's layouts. None when\n"
     "a position after a reveal cannot be counted within the limits (the Python figures then answer)."},
    {"living", living, METH_VARARGS,
     "living(view, width, height, safe, mines, enough) -> int: how many of the certainly safe cells are living, up to\n"
     "enough (best's look-ahead; see _kernel_best.c)."},
    {NULL, NULL, 0, NULL}};


static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_players", "The players' game loops in C.", -1, methods};

PyMODINIT_FUNC PyInit__players(void) {
    count_init();
    return PyModule_Create(&module);
}
