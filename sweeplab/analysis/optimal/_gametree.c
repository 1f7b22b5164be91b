/* sweeplab.analysis.optimal._gametree: the game-tree search of sweeplab.analysis.optimal.gametree in C (its docstring states the model).
 *
 * One exhaustive search over mine layouts: a position's value is the layouts optimal play wins from it, the best over
 * its moves of the sum over what the move can show. Shared by both front ends: the table of values (keyed by a run of
 * 64-bit words; open addressing, linear probing, doubled at half full), the budget (positions expanded, a deadline,
 * Ctrl-C, a progress callback), and the move loop (moves safest first, ties by index, each tried only while it can
 * still beat the best so far: a move wins at most the layouts in which it is safe). The front ends differ in what a
 * position is, so each keeps its own children and keys:
 *  - Search: an information state of a whole board of up to 64 cells (revealed cells and numbers; layouts as 64-bit
 *    mine masks; certainly safe cells revealed at once; the key the state's code folded over the board's symmetries;
 *    values passed down as bounds, alpha-beta style), for sweeplab.analysis.optimal.search;
 *  - Tree: a set of the listed layouts of any position (a bit set of 64-bit words, which is also its key; a cell that
 *    is safe in all and tells something opened for free), for the `best` strategy's endgame.
 * Each is the Python search of gametree.py step for step (same values, same positions expanded). The tables live in
 * the objects, so later calls reuse them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ========== shared: the table ========== */

typedef struct {
    int kw; /* words per key */
    uint64_t *keys;
    int64_t *vals;
    uint8_t *used;
    size_t cap, count;
} Table;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline size_t key_hash(const uint64_t *key, int kw) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int w = 0; w < kw; w++) h = mix(h ^ key[w]) + (uint64_t)w;
    return (size_t)h;
}

static void table_free(Table *t) {
    free(t->keys);
    free(t->vals);
    free(t->used);
    t->keys = NULL;
    t->vals = NULL;
    t->used = NULL;
}

/* an empty table of `cap` slots (a power of two); -1 when out of memory */
static int table_alloc(Table *t, size_t cap) {
    t->keys = calloc(cap * (size_t)t->kw, sizeof(uint64_t));
    t->vals = malloc(cap * sizeof(int64_t));
    t->used = calloc(cap, 1);
    if (!t->keys || !t->vals || !t->used) {
        table_free(t);
        return -1;
    }
    t->cap = cap;
    t->count = 0;
    return 0;
}

/* the value slot of `key`; NULL when absent and not `insert` */
static int64_t *table_slot(Table *t, const uint64_t *key, int insert) {
    size_t mask = t->cap - 1, i = key_hash(key, t->kw) & mask;
    int kw = t->kw;
    while (t->used[i]) {
        if (!memcmp(t->keys + i * kw, key, sizeof(uint64_t) * kw)) return t->vals + i;
        i = (i + 1) & mask;
    }
    if (!insert) return NULL;
    t->used[i] = 1;
    memcpy(t->keys + i * kw, key, sizeof(uint64_t) * kw);
    t->count++;
    return t->vals + i;
}

static int table_grow(Table *t) {
    Table old = *t;
    if (table_alloc(t, old.cap * 2) < 0) {
        *t = old;
        return -1;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.used[i]) *table_slot(t, old.keys + i * old.kw, 1) = old.vals[i];
    table_free(&old);
    return 0;
}

/* store key -> value; -1 when out of memory (the table is unchanged) */
static int table_put(Table *t, const uint64_t *key, int64_t value) {
    if (2 * (t->count + 1) > t->cap && table_grow(t) < 0) return -1;
    *table_slot(t, key, 1) = value;
    return 0;
}

/* ========== shared: the budget ========== */

enum { RUNNING = 0, PAST_STATES = 1, PAST_TIME = 2, PY_ERROR = 3 /* a Python exception is set */ };

typedef struct {
    long long count, limit; /* positions expanded; limit < 0: none */
    double deadline;        /* monotonic seconds; < 0: none */
    PyObject *progress;     /* called every progress_every positions, or NULL */
    long long progress_every;
    int aborted;
} Budget;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* count one expanded position; -1 (and b->aborted) once past the budget, the deadline, Ctrl-C or a failed callback */
static int spend(Budget *b) {
    b->count++;
    if (b->limit >= 0 && b->count > b->limit) {
        b->aborted = PAST_STATES;
        return -1;
    }
    if ((b->count & 255) == 1) {
        if (PyErr_CheckSignals() < 0) {
            b->aborted = PY_ERROR;
            return -1;
        }
        if (b->deadline >= 0 && now_seconds() > b->deadline) {
            b->aborted = PAST_TIME;
            return -1;
        }
    }
    if (b->progress && b->progress_every > 0 && b->count % b->progress_every == 0) {
        PyObject *r = PyObject_CallNoArgs(b->progress);
        if (!r) {
            b->aborted = PY_ERROR;
            return -1;
        }
        Py_DECREF(r);
    }
    return 0;
}

static void fail_memory(Budget *b) {
    if (b->aborted != PY_ERROR) {
        PyErr_NoMemory();
        b->aborted = PY_ERROR;
    }
}

/* ========== shared: the move loop ========== */

typedef struct {
    int64_t safe; /* layouts in which the move is safe: what it can win at most */
    int index;    /* the cell or column */
} Candidate;

static int by_safety(const void *a, const void *b) {
    const Candidate *x = a, *y = b;
    if (x->safe != y->safe) return x->safe > y->safe ? -1 : 1;
    return x->index - y->index;
}

/* a move's value when above bar, else a number at most bar */
typedef int64_t (*TryMove)(void *position, int index, int64_t bar);

/* The best of `best` and the candidates' values, trying them safest first while one can still beat the best so far.
 * beat[i] (when not NULL, and filled with -1) is set to the value of each candidate that beat the best of its time
 * (searched in full). Stops early (and returns what it had) once b->aborted. */
static int64_t best_move(Budget *b, Candidate *cand, int n, int64_t best, TryMove try_move, void *position, int64_t *beat) {
    qsort(cand, (size_t)n, sizeof(Candidate), by_safety);
    for (int i = 0; i < n; i++) {
        if (cand[i].safe <= best) break;
        int64_t v = try_move(position, cand[i].index, best);
        if (b->aborted) break;
        if (v > best) {
            if (beat) beat[i] = v;
            best = v;
            if (best == cand[i].safe) break; /* no later move can beat it */
        }
    }
    return best;
}

/* ========== Search: information states of a small board ========== */

#define MAXC 64
#define MAXW 5 /* key words: up to four of code, one for the namespace (the first click under xp) */

typedef struct {
    PyObject_HEAD
    int cells, mines, nperms;
    uint64_t full;
    uint64_t nbr[MAXC];
    uint8_t perm[8][MAXC];
    Table table; /* key -> W (>= 0) or -(upper bound + 1) */
    Budget budget;
    long long hits, moves;
} Search;

typedef struct {
    uint64_t revealed;
    uint64_t code[4];
    uint64_t *layouts; /* points into the move's buffer */
    int64_t count;
    int64_t exact; /* -1: not known */
    int64_t bound;
    int own_bound; /* the bound was computed here, not read from the table */
    uint64_t key[MAXW];
    unsigned fixing; /* bit g: symmetry g maps the state onto itself */
    int64_t *safe;   /* per cell: layouts in which it is safe (covered cells), or NULL */
} Child;

static inline unsigned get_nibble(const uint64_t *code, int c) { return (unsigned)((code[c >> 4] >> (4 * (c & 15))) & 15); }

static inline void set_nibble(uint64_t *code, int c, unsigned v) {
    int w = c >> 4, s = 4 * (c & 15);
    code[w] = (code[w] & ~((uint64_t)15 << s)) | ((uint64_t)v << s);
}

/* the table key of a state (the smallest of its images under the symmetries) and the symmetries that fix it */
static void make_key(Search *s, uint64_t revealed, const uint64_t *code, int ns, uint64_t *key, unsigned *fixing) {
    int cw = s->table.kw - 1;
    memset(key, 0, sizeof(uint64_t) * MAXW);
    *fixing = 0;
    for (int w = 0; w < cw; w++) key[w] = code[w];
    key[cw] = (uint64_t)(ns + 1);
    if (ns >= 0 || s->nperms == 1) return;
    uint64_t img[4];
    for (int g = 1; g < s->nperms; g++) {
        memset(img, 0, sizeof img);
        uint64_t r = revealed;
        while (r) {
            int c = __builtin_ctzll(r);
            r &= r - 1;
            set_nibble(img, s->perm[g][c], get_nibble(code, c));
        }
        int cmp = 0, same = 1;
        for (int w = cw - 1; w >= 0; w--)
            if (img[w] != code[w]) same = 0;
        if (same) *fixing |= 1u << g;
        for (int w = cw - 1; w >= 0; w--) {
            if (img[w] != key[w]) {
                cmp = img[w] < key[w] ? -1 : 1;
                break;
            }
        }
        if (cmp < 0)
            for (int w = 0; w < cw; w++) key[w] = img[w];
    }
}

static void search_put(Search *s, const uint64_t *key, int64_t value) {
    if (table_put(&s->table, key, value) < 0) fail_memory(&s->budget);
}

/* per cell, the layouts in which it is safe (0 for revealed cells); NULL when out of memory */
static int64_t *safe_counts(Search *s, const uint64_t *layouts, int64_t n, uint64_t covered) {
    int64_t *mines = calloc(MAXC, sizeof(int64_t));
    if (!mines) {
        fail_memory(&s->budget);
        return NULL;
    }
    for (int64_t i = 0; i < n; i++)
        for (uint64_t m = layouts[i]; m; m &= m - 1) mines[__builtin_ctzll(m)]++;
    for (int x = 0; x < s->cells; x++) mines[x] = ((covered >> x) & 1) ? n - mines[x] : 0;
    return mines;
}

typedef struct {
    uint64_t revealed;
    uint64_t code[4];
    int64_t lo, hi;
    uint64_t pending;
} Segment;

typedef struct {
    Child *items;
    int n, cap;
} Children;

static int push_child(Children *ch, const Segment *seg, uint64_t *buf) {
    if (ch->n == ch->cap) {
        int cap = ch->cap ? 2 * ch->cap : 16;
        Child *items = realloc(ch->items, sizeof(Child) * (size_t)cap);
        if (!items) return -1;
        ch->items = items;
        ch->cap = cap;
    }
    Child *c = &ch->items[ch->n++];
    memset(c, 0, sizeof *c);
    c->revealed = seg->revealed;
    memcpy(c->code, seg->code, sizeof c->code);
    c->layouts = buf + seg->lo;
    c->count = seg->hi - seg->lo;
    c->exact = -1;
    return 0;
}

/* the closed children of revealing `cell`: group by what is shown, reveal certain cells, until none is left; buf
 * holds the layouts safe at cell (n of them) and is reordered in place */
static int close_move(Search *s, uint64_t revealed, const uint64_t *code, uint64_t *buf, int64_t n, int cell, uint64_t *tmp,
                      uint8_t *num, Children *out) {
    int stack_cap = 64, top = 0;
    Segment *stack = malloc(sizeof(Segment) * (size_t)stack_cap);
    if (!stack) return -1;
    Segment first = {revealed, {code[0], code[1], code[2], code[3]}, 0, n, (uint64_t)1 << cell};
    stack[top++] = first;
    while (top) {
        Segment seg = stack[--top];
        for (;;) {
            int64_t size = seg.hi - seg.lo;
            if (!seg.pending) {
                if (size > 1) {
                    uint64_t u = 0;
                    for (int64_t i = seg.lo; i < seg.hi; i++) u |= buf[i];
                    seg.pending = s->full & ~seg.revealed & ~u;
                }
                if (!seg.pending) {
                    if (push_child(out, &seg, buf) < 0) {
                        free(stack);
                        return -1;
                    }
                    break;
                }
            }
            int x = __builtin_ctzll(seg.pending);
            seg.pending &= seg.pending - 1;
            seg.revealed |= (uint64_t)1 << x;
            uint64_t nb = s->nbr[x];
            int64_t counts[9] = {0};
            for (int64_t i = seg.lo; i < seg.hi; i++) {
                uint8_t k = (uint8_t)__builtin_popcountll(buf[i] & nb);
                num[i] = k;
                counts[k]++;
            }
            int kinds = 0, only = 0;
            for (int k = 0; k < 9; k++)
                if (counts[k]) {
                    kinds++;
                    only = k;
                }
            if (kinds == 1) {
                set_nibble(seg.code, x, (unsigned)only + 1);
                continue;
            }
            int64_t start[9], at[9];
            int64_t pos = seg.lo;
            for (int k = 0; k < 9; k++) {
                start[k] = pos;
                at[k] = pos;
                pos += counts[k];
            }
            for (int64_t i = seg.lo; i < seg.hi; i++) tmp[at[num[i]]++] = buf[i];
            memcpy(buf + seg.lo, tmp + seg.lo, sizeof(uint64_t) * (size_t)size);
            if (top + 9 > stack_cap) {
                stack_cap *= 2;
                Segment *grown = realloc(stack, sizeof(Segment) * (size_t)stack_cap);
                if (!grown) {
                    free(stack);
                    return -1;
                }
                stack = grown;
            }
            for (int k = 0; k < 9; k++) {
                if (!counts[k]) continue;
                Segment part = seg;
                set_nibble(part.code, x, (unsigned)k + 1);
                part.lo = start[k];
                part.hi = start[k] + counts[k];
                stack[top++] = part;
            }
            break;
        }
    }
    free(stack);
    return 0;
}

static int64_t move_value(Search *s, uint64_t revealed, const uint64_t *code, const uint64_t *layouts, int64_t n, int cell,
                          int64_t alpha, int ns);

/* what is known of a closed child's value before searching it (gametree.py's _prepare) */
static void prepare(Search *s, Child *c, int ns) {
    uint64_t covered = s->full & ~c->revealed;
    if (__builtin_popcountll(covered) == s->mines) {
        c->exact = c->count;
        return;
    }
    if (c->count <= 2) {
        c->exact = 1;
        return;
    }
    make_key(s, c->revealed, c->code, ns, c->key, &c->fixing);
    int64_t *slot = table_slot(&s->table, c->key, 0);
    if (slot) {
        s->hits++;
        if (*slot >= 0)
            c->exact = *slot;
        else
            c->bound = -*slot - 1;
        return;
    }
    c->safe = safe_counts(s, c->layouts, c->count, covered);
    if (!c->safe) {
        c->exact = 0;
        return;
    }
    int64_t best = 0;
    for (int x = 0; x < s->cells; x++)
        if (c->safe[x] > best) best = c->safe[x];
    c->bound = best;
    c->own_bound = 1;
}

typedef struct {
    Search *s;
    Child *c;
    int ns;
} SearchPosition;

static int64_t try_cell(void *position, int cell, int64_t bar) {
    SearchPosition *p = position;
    return move_value(p->s, p->c->revealed, p->c->code, p->c->layouts, p->c->count, cell, bar, p->ns);
}

/* W of a prepared child when it exceeds alpha, else a bound <= alpha (gametree.py's _value) */
static int64_t child_value(Search *s, Child *c, int64_t alpha, int ns) {
    if (c->exact >= 0) return c->exact;
    if (c->bound <= alpha) {
        if (c->own_bound) search_put(s, c->key, -c->bound - 1);
        return c->bound;
    }
    uint64_t covered = s->full & ~c->revealed;
    if (!c->safe && !(c->safe = safe_counts(s, c->layouts, c->count, covered))) return 0;
    if (spend(&s->budget) < 0) return 0;
    Candidate cand[MAXC];
    int nc = 0;
    for (int x = 0; x < s->cells; x++) {
        if (!((covered >> x) & 1) || c->safe[x] <= 0) continue;
        int skip = 0; /* a move that a symmetry fixing the state maps to a smaller cell: searched as that one */
        for (int g = 1; g < s->nperms && !skip; g++)
            if ((c->fixing >> g) & 1 && s->perm[g][x] < x) skip = 1;
        if (skip) continue;
        cand[nc].safe = c->safe[x];
        cand[nc].index = x;
        nc++;
    }
    SearchPosition position = {s, c, ns};
    int64_t best = best_move(&s->budget, cand, nc, alpha, try_cell, &position, NULL);
    if (s->budget.aborted) return 0;
    search_put(s, c->key, best > alpha ? best : -alpha - 1);
    return best;
}

static int by_bound(const void *a, const void *b) {
    const Child *const *x = a, *const *y = b;
    if ((*x)->bound != (*y)->bound) return (*x)->bound > (*y)->bound ? -1 : 1;
    return 0;
}

/* W of revealing `cell` when it exceeds alpha, else a bound <= alpha (gametree.py's _move) */
static int64_t move_value(Search *s, uint64_t revealed, const uint64_t *code, const uint64_t *layouts, int64_t n, int cell,
                          int64_t alpha, int ns) {
    s->moves++;
    uint64_t bit = (uint64_t)1 << cell;
    uint64_t *buf = malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
    uint64_t *tmp = malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
    uint8_t *num = malloc((size_t)(n ? n : 1));
    Children ch = {NULL, 0, 0};
    Child **open = NULL;
    int64_t result = 0;
    if (!buf || !tmp || !num) {
        fail_memory(&s->budget);
        goto done;
    }
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (!(layouts[i] & bit)) buf[m++] = layouts[i];
    if (m == 0) goto done;
    if (close_move(s, revealed, code, buf, m, cell, tmp, num, &ch) < 0) {
        fail_memory(&s->budget);
        goto done;
    }
    int64_t bound = 0;
    int nopen = 0;
    for (int i = 0; i < ch.n; i++) {
        Child *c = &ch.items[i];
        prepare(s, c, ns);
        if (s->budget.aborted) goto done;
        bound += c->exact >= 0 ? c->exact : c->bound;
        nopen += c->exact < 0;
    }
    if (bound <= alpha || !nopen) {
        result = bound;
        goto done;
    }
    open = malloc(sizeof(Child *) * (size_t)nopen);
    if (!open) {
        fail_memory(&s->budget);
        goto done;
    }
    nopen = 0;
    for (int i = 0; i < ch.n; i++)
        if (ch.items[i].exact < 0) open[nopen++] = &ch.items[i];
    qsort(open, (size_t)nopen, sizeof(Child *), by_bound);
    for (int i = 0; i < nopen; i++) {
        Child *c = open[i];
        int64_t need = alpha - bound + c->bound; /* the child must win more than this for the move to beat alpha */
        int64_t v = child_value(s, c, need > -1 ? need : -1, ns);
        if (s->budget.aborted) goto done;
        bound += v - c->bound;
        if (v <= need) break;
    }
    result = bound;
done:
    for (int i = 0; i < ch.n; i++) free(ch.items[i].safe);
    free(ch.items);
    free(open);
    free(buf);
    free(tmp);
    free(num);
    return result;
}

static void Search_dealloc(Search *s) {
    table_free(&s->table);
    Py_XDECREF(s->budget.progress);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Search_init(Search *s, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"cells", "mines", "neighbours", "perms", NULL};
    int cells, mines;
    PyObject *nbrs, *perms;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOO", kwlist, &cells, &mines, &nbrs, &perms)) return -1;
    if (cells < 1 || cells > MAXC) {
        PyErr_SetString(PyExc_ValueError, "the C search handles boards of 1 to 64 cells");
        return -1;
    }
    s->cells = cells;
    s->mines = mines;
    s->full = cells == 64 ? ~(uint64_t)0 : (((uint64_t)1 << cells) - 1);
    if (PySequence_Size(nbrs) != cells) {
        PyErr_SetString(PyExc_ValueError, "neighbours: one mask per cell");
        return -1;
    }
    for (int c = 0; c < cells; c++) {
        PyObject *o = PySequence_GetItem(nbrs, c);
        if (!o) return -1;
        s->nbr[c] = PyLong_AsUnsignedLongLong(o);
        Py_DECREF(o);
        if (PyErr_Occurred()) return -1;
    }
    Py_ssize_t np = PySequence_Size(perms);
    if (np < 1 || np > 8) {
        PyErr_SetString(PyExc_ValueError, "perms: 1 to 8 permutations, the identity first");
        return -1;
    }
    s->nperms = (int)np;
    for (int g = 0; g < np; g++) {
        PyObject *p = PySequence_GetItem(perms, g);
        if (!p) return -1;
        for (int c = 0; c < cells; c++) {
            PyObject *o = PySequence_GetItem(p, c);
            if (!o) {
                Py_DECREF(p);
                return -1;
            }
            long v = PyLong_AsLong(o);
            Py_DECREF(o);
            if (v < 0 || v >= cells) {
                Py_DECREF(p);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "perms: cells out of range");
                return -1;
            }
            s->perm[g][c] = (uint8_t)v;
        }
        Py_DECREF(p);
    }
    table_free(&s->table);
    s->table.kw = (cells + 15) / 16 + 1;
    if (table_alloc(&s->table, (size_t)1 << 16) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->budget.limit = -1;
    s->budget.deadline = -1;
    s->budget.progress_every = 0;
    return 0;
}

static int read_code(PyObject *code_obj, uint64_t *code) {
    unsigned char bytes[32];
    memset(code, 0, sizeof(uint64_t) * 4);
    PyObject *b = PyObject_CallMethod(code_obj, "to_bytes", "is", 32, "little");
    if (!b) return -1;
    memcpy(bytes, PyBytes_AS_STRING(b), 32);
    Py_DECREF(b);
    for (int w = 0; w < 4; w++) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--) v = (v << 8) | bytes[8 * w + i];
        code[w] = v;
    }
    return 0;
}

/* move(revealed, code, layouts, cell, alpha, namespace) -> W of the move if > alpha, else a bound <= alpha;
 * None when the budget ran out (see .aborted) */
static PyObject *Search_move(Search *s, PyObject *args) {
    unsigned long long revealed;
    PyObject *code_obj;
    Py_buffer view;
    int cell, ns;
    long long alpha;
    if (!PyArg_ParseTuple(args, "KOy*iLi", &revealed, &code_obj, &view, &cell, &alpha, &ns)) return NULL;
    uint64_t code[4];
    if (view.len % 8 || cell < 0 || cell >= s->cells || read_code(code_obj, code) < 0) {
        PyBuffer_Release(&view);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "layouts: 8 bytes each; cell on the board");
        return NULL;
    }
    s->budget.aborted = RUNNING;
    int64_t n = (int64_t)(view.len / 8);
    uint64_t *layouts = malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
    if (!layouts) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    memcpy(layouts, view.buf, sizeof(uint64_t) * (size_t)n);
    PyBuffer_Release(&view);
    int64_t v = move_value(s, revealed, code, layouts, n, cell, alpha, ns);
    free(layouts);
    if (s->budget.aborted == PY_ERROR) return NULL;
    if (s->budget.aborted) Py_RETURN_NONE;
    return PyLong_FromLongLong(v);
}

static PyObject *Search_set_budget(Search *s, PyObject *args) {
    long long max_states;
    double seconds;
    PyObject *progress;
    long long every;
    if (!PyArg_ParseTuple(args, "LdOL", &max_states, &seconds, &progress, &every)) return NULL;
    Budget *b = &s->budget;
    b->limit = max_states; /* compared with the count of the search's whole life */
    b->deadline = seconds < 0 ? -1 : now_seconds() + seconds;
    Py_XDECREF(b->progress);
    b->progress = progress == Py_None ? NULL : progress;
    Py_XINCREF(b->progress);
    b->progress_every = every;
    Py_RETURN_NONE;
}

static PyObject *Search_get_stats(Search *s, void *closure) {
    (void)closure;
    return Py_BuildValue("(LLLn)", s->budget.count, s->hits, s->moves, (Py_ssize_t)s->table.count);
}

static PyObject *Search_get_aborted(Search *s, void *closure) {
    (void)closure;
    return PyLong_FromLong(s->budget.aborted);
}

static PyMethodDef Search_methods[] = {
    {"move", (PyCFunction)Search_move, METH_VARARGS,
     "move(revealed, code, layouts, cell, alpha, namespace): W of revealing cell if above alpha, else a bound; None past the "
     "budget"},
    {"set_budget", (PyCFunction)Search_set_budget, METH_VARARGS,
     "set_budget(max_states (over the search's life) or -1, seconds from now or -1, progress callable or None, progress_every)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Search_getset[] = {
    {"stats", (getter)Search_get_stats, NULL, "(states expanded, table hits, moves, states stored)", NULL},
    {"aborted", (getter)Search_get_aborted, NULL, "why the last call stopped: 0 finished, 1 states, 2 time, 3 error", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sweeplab.analysis.optimal._gametree.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search over information states of one small board: its table and recursion (gametree.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ========== Tree: sets of listed layouts ========== */

#define MAX_VALUES 10 /* a cell shows 0..8; one more slot for safety */
/* Each level of the search removes at least one layout, so its depth is below the number of layouts (1,000 under
 * best's defaults). Past this depth a search is given up as over budget, so that a search asked for on very many
 * layouts cannot overflow the C stack (two frames of a few hundred bytes per level). */
#define MAX_DEPTH 3000

typedef struct {
    PyObject_HEAD
    int m;           /* columns (covered cells) */
    int w;           /* words per set of layouts */
    int *nvals;      /* per column: how many numbers it can show */
    uint64_t *shows; /* per column, per number: w words (column j's first set at shows + offset[j] * w) */
    int *offset;     /* per column: index of its first number's set */
    uint64_t *mine;  /* per column: w words */
    Table memo;      /* set -> wins */
    Budget budget;   /* per call: count is the positions expanded */
    int depth;       /* levels of wins() under way */
} Tree;

static inline int64_t popcount(const uint64_t *s, int w) {
    int64_t n = 0;
    for (int i = 0; i < w; i++) n += __builtin_popcountll(s[i]);
    return n;
}

static inline int and_into(uint64_t *dst, const uint64_t *a, const uint64_t *b, int w) {
    uint64_t any = 0;
    for (int i = 0; i < w; i++) any |= (dst[i] = a[i] & b[i]);
    return any != 0;
}

static inline int equal(const uint64_t *a, const uint64_t *b, int w) { return memcmp(a, b, sizeof(uint64_t) * w) == 0; }

static inline const uint64_t *shows_of(const Tree *t, int j, int k) { return t->shows + (size_t)(t->offset[j] + k) * t->w; }

/* the columns of `columns` that still matter in S (into live), the guesses (into cand; none when a free reveal
 * exists) and the first free reveal's column (or -1) */
static int scan(Tree *t, const uint64_t *S, int64_t n, const int *columns, int ncols, int *live, int *nlive, Candidate *cand,
                int *ncand, uint64_t *tmp) {
    int w = t->w, free_j = -1;
    *nlive = 0;
    *ncand = 0;
    for (int c = 0; c < ncols; c++) {
        int j = columns[c];
        int any = and_into(tmp, S, t->mine + (size_t)j * w, w);
        if (any && equal(tmp, S, w)) continue; /* a mine in every layout */
        if (!any) {
            int split = 0;
            for (int k = 0; k < t->nvals[j]; k++) {
                if (and_into(tmp, S, shows_of(t, j, k), w)) { /* the first number it can show decides */
                    split = !equal(tmp, S, w);
                    break;
                }
            }
            if (!split) continue;
            if (free_j < 0) free_j = j;
        } else {
            cand[*ncand].safe = n - popcount(tmp, w);
            cand[*ncand].index = j;
            (*ncand)++;
        }
        live[(*nlive)++] = j;
    }
    if (free_j >= 0) *ncand = 0;
    return free_j;
}

static int64_t wins(Tree *t, const uint64_t *S, const int *columns, int ncols);

/* wins when opening the free reveal j in S; -1 when the search was aborted */
static int64_t free_reveal(Tree *t, const uint64_t *S, int j, const int *live, int nlive) {
    int w = t->w;
    uint64_t *part = malloc(sizeof(uint64_t) * (size_t)w);
    if (!part) {
        fail_memory(&t->budget);
        return -1;
    }
    int64_t total = 0;
    for (int k = 0; k < t->nvals[j] && total >= 0; k++) {
        if (!and_into(part, S, shows_of(t, j, k), w)) continue;
        if (popcount(part, w) > 1) {
            int64_t got = wins(t, part, live, nlive);
            total = got < 0 ? -1 : total + got;
        } else {
            total += 1;
        }
    }
    free(part);
    return total;
}

/* wins when opening column j in S; -1 once it cannot exceed bar; -2 when the search was aborted */
static int64_t value(Tree *t, const uint64_t *S, int j, int64_t bar, const int *live, int nlive) {
    int w = t->w, nv = t->nvals[j], np = 0;
    uint64_t *parts = malloc(sizeof(uint64_t) * (size_t)w * (size_t)(nv > 0 ? nv : 1));
    int64_t size[MAX_VALUES], known[MAX_VALUES], bound = 0, result = -1;
    int idx[MAX_VALUES];
    if (!parts) {
        fail_memory(&t->budget);
        return -2;
    }
    for (int k = 0; k < nv; k++) {
        uint64_t *part = parts + (size_t)np * w;
        if (!and_into(part, S, shows_of(t, j, k), w)) continue;
        size[np] = popcount(part, w);
        int64_t *hit = size[np] > 1 ? table_slot(&t->memo, part, 0) : NULL;
        known[np] = size[np] > 1 ? (hit ? *hit : size[np]) : 1;
        bound += known[np];
        idx[np] = np;
        np++;
    }
    if (bound <= bar) goto done;
    /* largest first; a stable insertion sort keeps equal sizes in the order of their numbers, as Python's sort does */
    for (int a = 1; a < np; a++) {
        int v = idx[a], b = a - 1;
        while (b >= 0 && size[idx[b]] < size[v]) {
            idx[b + 1] = idx[b];
            b--;
        }
        idx[b + 1] = v;
    }
    for (int a = 0; a < np; a++) {
        int p = idx[a];
        uint64_t *part = parts + (size_t)p * w;
        if (size[p] > 1 && table_slot(&t->memo, part, 0) == NULL) {
            int64_t got = wins(t, part, live, nlive);
            if (got < 0) {
                result = -2;
                goto done;
            }
            bound += got - known[p];
            if (bound <= bar) goto done;
        }
    }
    result = bound;
done:
    free(parts);
    return result;
}

typedef struct {
    Tree *t;
    const uint64_t *S;
    const int *live;
    int nlive;
} TreePosition;

static int64_t try_column(void *position, int j, int64_t bar) {
    TreePosition *p = position;
    return value(p->t, p->S, j, bar, p->live, p->nlive); /* -1 and -2 are at most any bar it is asked with (>= -1) */
}

/* the layouts of S that optimal play wins; -1 when the search was aborted (budget or memory) */
static int64_t wins(Tree *t, const uint64_t *S, const int *columns, int ncols) {
    int64_t *hit = table_slot(&t->memo, S, 0);
    if (hit) return *hit;
    if (spend(&t->budget) < 0) return -1;
    if (t->depth >= MAX_DEPTH) {
        t->budget.aborted = PAST_STATES;
        return -1;
    }
    t->depth++;
    int64_t n = popcount(S, t->w), best = -1;
    int *live = malloc(sizeof(int) * (size_t)(ncols > 0 ? ncols : 1));
    Candidate *cand = malloc(sizeof(Candidate) * (size_t)(ncols > 0 ? ncols : 1));
    uint64_t *tmp = malloc(sizeof(uint64_t) * (size_t)t->w);
    if (!live || !cand || !tmp) {
        fail_memory(&t->budget);
        goto done;
    }
    int nlive, ncand;
    int free_j = scan(t, S, n, columns, ncols, live, &nlive, cand, &ncand, tmp);
    if (free_j >= 0) { /* information at no risk: take it */
        best = free_reveal(t, S, free_j, live, nlive);
    } else {
        TreePosition position = {t, S, live, nlive};
        best = best_move(&t->budget, cand, ncand, 0, try_column, &position, NULL);
    }
    if (t->budget.aborted) {
        best = -1;
        goto done;
    }
    if (table_put(&t->memo, S, best) < 0) {
        fail_memory(&t->budget);
        best = -1;
    }
done:
    t->depth--;
    free(live);
    free(cand);
    free(tmp);
    return best;
}

static void tree_dealloc(Tree *t) {
    free(t->nvals);
    free(t->offset);
    free(t->shows);
    free(t->mine);
    table_free(&t->memo);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

/* copy a bytes object of exactly w words into dst */
static int read_set(PyObject *obj, uint64_t *dst, int w, const char *what) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) != (Py_ssize_t)w * 8) {
        PyErr_Format(PyExc_ValueError, "%s: expected bytes of length %d", what, w * 8);
        return -1;
    }
    memcpy(dst, PyBytes_AS_STRING(obj), (size_t)w * 8);
    return 0;
}

/* Tree(words, shows, mine): shows[j] a list of bytes (one set per number column j can show, in the order of the
 * numbers), mine[j] bytes; every set is `words` little-endian 64-bit words */
static int tree_init(Tree *t, PyObject *args, PyObject *kwds) {
    int w;
    PyObject *shows, *mine;
    static char *kwlist[] = {"words", "shows", "mine", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO!O!", kwlist, &w, &PyList_Type, &shows, &PyList_Type, &mine))
        return -1;
    if (t->nvals || t->offset || t->mine || t->shows || t->memo.keys) { /* its arrays are sized by the first call */
        PyErr_SetString(PyExc_TypeError, "Tree: already initialised");
        return -1;
    }
    Py_ssize_t m = PyList_GET_SIZE(shows);
    if (w < 1 || PyList_GET_SIZE(mine) != m) {
        PyErr_SetString(PyExc_ValueError, "Tree: words must be at least 1 and shows and mine of one length");
        return -1;
    }
    t->m = (int)m;
    t->w = w;
    t->nvals = calloc((size_t)(m > 0 ? m : 1), sizeof(int));
    t->offset = calloc((size_t)(m > 0 ? m : 1), sizeof(int));
    t->mine = calloc((size_t)(m > 0 ? m : 1) * (size_t)w, sizeof(uint64_t));
    if (!t->nvals || !t->offset || !t->mine) {
        PyErr_NoMemory();
        return -1;
    }
    int total = 0;
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *col = PyList_GET_ITEM(shows, j);
        if (!PyList_Check(col) || PyList_GET_SIZE(col) >= MAX_VALUES) {
            PyErr_SetString(PyExc_ValueError, "Tree: shows[j] must be a list of at most 9 sets");
            return -1;
        }
        t->offset[j] = total;
        t->nvals[j] = (int)PyList_GET_SIZE(col);
        total += t->nvals[j];
    }
    t->shows = calloc((size_t)(total > 0 ? total : 1) * (size_t)w, sizeof(uint64_t));
    if (!t->shows) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *col = PyList_GET_ITEM(shows, j);
        for (int k = 0; k < t->nvals[j]; k++)
            if (read_set(PyList_GET_ITEM(col, k), t->shows + (size_t)(t->offset[j] + k) * w, w, "shows") < 0) return -1;
        if (read_set(PyList_GET_ITEM(mine, j), t->mine + (size_t)j * w, w, "mine") < 0) return -1;
    }
    t->memo.kw = w;
    if (table_alloc(&t->memo, 1024) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    t->budget.deadline = -1;
    return 0;
}

/* a call's root: the set S read, the budget reset, its live columns and guesses */
typedef struct {
    uint64_t *S, *tmp;
    int *columns, *live;
    Candidate *cand;
    int nlive, ncand, free_j;
    int64_t n;
} Root;

static void root_close(Root *r) {
    free(r->S);
    free(r->tmp);
    free(r->columns);
    free(r->live);
    free(r->cand);
}

static int root_open(Tree *t, Root *r, PyObject *sobj, long long budget) {
    int w = t->w, m = t->m > 0 ? t->m : 1;
    memset(r, 0, sizeof *r);
    if (!t->memo.keys) {
        PyErr_SetString(PyExc_TypeError, "Tree: not initialised");
        return -1;
    }
    r->S = malloc(sizeof(uint64_t) * (size_t)w);
    r->tmp = malloc(sizeof(uint64_t) * (size_t)w);
    r->columns = malloc(sizeof(int) * (size_t)m);
    r->live = malloc(sizeof(int) * (size_t)m);
    r->cand = malloc(sizeof(Candidate) * (size_t)m);
    if (!r->S || !r->tmp || !r->columns || !r->live || !r->cand) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_set(sobj, r->S, w, "S") < 0) return -1;
    t->budget.count = 0;
    t->budget.limit = budget;
    t->budget.aborted = RUNNING;
    for (int j = 0; j < t->m; j++) r->columns[j] = j;
    r->n = popcount(r->S, w);
    r->free_j = scan(t, r->S, r->n, r->columns, t->m, r->live, &r->nlive, r->cand, &r->ncand, r->tmp);
    return 0;
}

/* None past the budget, NULL with the exception set otherwise */
static PyObject *aborted_result(Tree *t) {
    if (t->budget.aborted == PY_ERROR) return NULL;
    Py_RETURN_NONE;
}

/* decide(S, budget): (column, wins, searched) for the best guess, where searched is a list of (column, wins) of every
 * column searched in full at the root (the chosen one too), or (column, wins, None) for a free reveal, or (-1, n, [])
 * when no column is live; None when the search went past `budget` expanded positions (what it finished is kept). */
static PyObject *tree_decide(Tree *t, PyObject *args) {
    PyObject *sobj, *out = NULL, *searched = NULL;
    long long budget;
    Root r;
    int64_t *beat = NULL;
    if (!PyArg_ParseTuple(args, "OL", &sobj, &budget)) return NULL;
    if (root_open(t, &r, sobj, budget) < 0) goto done;
    if (r.free_j >= 0) {
        int64_t total = free_reveal(t, r.S, r.free_j, r.live, r.nlive);
        out = total < 0 ? aborted_result(t) : Py_BuildValue("iLO", r.free_j, (long long)total, Py_None);
        goto done;
    }
    beat = malloc(sizeof(int64_t) * (size_t)(r.ncand > 0 ? r.ncand : 1));
    if (!beat || !(searched = PyList_New(0))) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < r.ncand; i++) beat[i] = -1;
    TreePosition position = {t, r.S, r.live, r.nlive};
    int64_t best = best_move(&t->budget, r.cand, r.ncand, -1, try_column, &position, beat);
    if (t->budget.aborted) {
        out = aborted_result(t);
        goto done;
    }
    int best_j = -1;
    for (int i = 0; i < r.ncand; i++) {
        if (beat[i] < 0) continue;
        best_j = r.cand[i].index; /* each one searched in full beat those before it */
        PyObject *item = Py_BuildValue("iL", best_j, (long long)beat[i]);
        if (!item || PyList_Append(searched, item) < 0) {
            Py_XDECREF(item);
            goto done;
        }
        Py_DECREF(item);
    }
    out = Py_BuildValue("iLO", best_j, (long long)(best_j < 0 ? r.n : best), searched);
done:
    Py_XDECREF(searched);
    free(beat);
    root_close(&r);
    return out;
}

/* value(S, column, budget): the layouts of S that opening `column` first and playing optimally after wins (0 for a
 * column that is a mine in all of S); None past `budget` expanded positions */
static PyObject *tree_value(Tree *t, PyObject *args) {
    PyObject *sobj, *out = NULL;
    int column;
    long long budget;
    Root r;
    if (!PyArg_ParseTuple(args, "OiL", &sobj, &column, &budget)) return NULL;
    if (column < 0 || column >= t->m) {
        PyErr_SetString(PyExc_ValueError, "value: no such column");
        return NULL;
    }
    if (root_open(t, &r, sobj, budget) == 0) {
        int64_t got = value(t, r.S, column, -1, r.live, r.nlive);
        out = got == -2 ? aborted_result(t) : PyLong_FromLongLong(got);
    }
    root_close(&r);
    return out;
}

static PyObject *tree_expanded(Tree *t, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(t->budget.count);
}

static PyObject *tree_memo_size(Tree *t, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(t->memo.count);
}

static PyMethodDef tree_methods[] = {
    {"decide", (PyCFunction)tree_decide, METH_VARARGS,
     "decide(S, budget): (column, wins, searched) or None past the budget; see the C source."},
    {"value", (PyCFunction)tree_value, METH_VARARGS,
     "value(S, column, budget): the wins when opening column first, or None past the budget; see the C source."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef tree_getset[] = {
    {"expanded", (getter)tree_expanded, NULL, "positions expanded by the last call", NULL},
    {"memo_size", (getter)tree_memo_size, NULL, "positions whose value is memoised", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sweeplab.analysis.optimal._gametree.Tree",
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search over one listed set of layouts (gametree.py's LayoutSetSearch, in C).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tree_init,
    .tp_dealloc = (destructor)tree_dealloc,
    .tp_methods = tree_methods,
    .tp_getset = tree_getset,
};

/* ========== the module ========== */

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_gametree", "The game-tree search of sweeplab.analysis.optimal.gametree in C.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__gametree(void) {
    if (PyType_Ready(&SearchType) < 0 || PyType_Ready(&TreeType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&moduledef);
    if (!mod) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(mod, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(mod);
        return NULL;
    }
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(mod, "Tree", (PyObject *)&TreeType) < 0) {
        Py_DECREF(&TreeType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
