/* sweeplab.analysis._optimal: the optimal-play search of sweeplab.analysis.optimal in C, for boards of up to 64 cells.
 *
 * The same search as optimal.py's pure-Python one, step for step (optimal.py's docstring states the model):
 * layouts are 64-bit mine masks; a move splits the layouts by the number shown and reveals every certainly safe
 * cell until none is left ("closed" states); a state's value W is memoised under its code (four bits per cell:
 * 0 covered, n + 1 a revealed n), folded over the board's symmetries (the smallest image is the key); a state's
 * bound is its safest move's safe count, a move's the sum of its children's bounds; children are searched largest
 * bound first, each only as far as decides whether the move beats alpha. Values are exact 64-bit counts of layouts.
 * The table of values lives in the Search object, so later calls (other rules, the strategy's moves) reuse it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXC 64
#define MAXW 5 /* key words: up to four of code, one for the namespace (the first click under xp) */

typedef struct {
    uint64_t revealed;
    uint64_t code[4];
    uint64_t *layouts; /* points into the move's buffer */
    int64_t count;
    int64_t exact;  /* -1: not known */
    int64_t bound;
    int own_bound;  /* the bound was computed here, not read from the table */
    int has_key;
    uint64_t key[MAXW];
    unsigned fixing; /* bit g: symmetry g maps the state onto itself */
    int64_t *safe;   /* per cell: layouts in which it is safe (covered cells), or NULL */
} Child;

typedef struct {
    PyObject_HEAD
    int cells, mines, kw, nperms;
    uint64_t full;
    uint64_t nbr[MAXC];
    uint8_t perm[8][MAXC];
    /* the table */
    uint64_t *keys;
    int64_t *vals;
    uint8_t *used;
    size_t cap, count;
    /* counters and budget */
    long long states, hits, moves;
    long long max_states; /* < 0: none */
    double deadline;      /* monotonic seconds; < 0: none */
    long long progress_every;
    PyObject *progress;
    int aborted; /* 1: states, 2: time, 3: a Python error (interrupt, no memory, the progress callback) */
} Search;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------- codes ---------- */

static inline unsigned get_nibble(const uint64_t *code, int c) { return (unsigned)((code[c >> 4] >> (4 * (c & 15))) & 15); }

static inline void set_nibble(uint64_t *code, int c, unsigned v) {
    int w = c >> 4, s = 4 * (c & 15);
    code[w] = (code[w] & ~((uint64_t)15 << s)) | ((uint64_t)v << s);
}

/* the table key of a state and the symmetries that fix it */
static void make_key(Search *s, uint64_t revealed, const uint64_t *code, int ns, uint64_t *key, unsigned *fixing) {
    int cw = s->kw - 1;
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
        for (int w = cw - 1; w >= 0; w--) {
            if (img[w] != code[w]) same = 0;
        }
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

/* ---------- the table: open addressing, linear probing ---------- */

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline size_t key_hash(const Search *s, const uint64_t *key) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int w = 0; w < s->kw; w++) h = mix(h ^ key[w]) + (uint64_t)w;
    return (size_t)h;
}

static int table_alloc(Search *s, size_t cap) {
    s->keys = calloc(cap * (size_t)s->kw, sizeof(uint64_t));
    s->vals = malloc(cap * sizeof(int64_t));
    s->used = calloc(cap, 1);
    if (!s->keys || !s->vals || !s->used) {
        free(s->keys);
        free(s->vals);
        free(s->used);
        s->keys = NULL;
        s->vals = NULL;
        s->used = NULL;
        return -1;
    }
    s->cap = cap;
    s->count = 0;
    return 0;
}

static int64_t *table_slot(Search *s, const uint64_t *key, int insert) {
    size_t mask = s->cap - 1, i = key_hash(s, key) & mask;
    int kw = s->kw;
    while (s->used[i]) {
        if (!memcmp(s->keys + i * kw, key, sizeof(uint64_t) * kw)) return s->vals + i;
        i = (i + 1) & mask;
    }
    if (!insert) return NULL;
    s->used[i] = 1;
    memcpy(s->keys + i * kw, key, sizeof(uint64_t) * kw);
    s->count++;
    return s->vals + i;
}

static int table_grow(Search *s) {
    uint64_t *keys = s->keys;
    int64_t *vals = s->vals;
    uint8_t *used = s->used;
    size_t cap = s->cap;
    if (table_alloc(s, cap * 2) < 0) {
        s->keys = keys;
        s->vals = vals;
        s->used = used;
        s->cap = cap;
        return -1;
    }
    for (size_t i = 0; i < cap; i++) {
        if (!used[i]) continue;
        *table_slot(s, keys + i * s->kw, 1) = vals[i];
    }
    free(keys);
    free(vals);
    free(used);
    return 0;
}

static void table_put(Search *s, const uint64_t *key, int64_t value) {
    if (2 * (s->count + 1) > s->cap && table_grow(s) < 0) {
        if (!s->aborted) {
            PyErr_NoMemory();
            s->aborted = 3;
        }
        return;
    }
    *table_slot(s, key, 1) = value;
}

/* ---------- closing a move: group by what is shown, reveal certain cells ---------- */

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

/* the closed children of revealing `cell`: buf holds the layouts safe at cell (n of them) and is reordered in place */
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

/* ---------- the search ---------- */

static int64_t move_value(Search *s, uint64_t revealed, const uint64_t *code, const uint64_t *layouts, int64_t n, int cell,
                          int64_t alpha, int ns);

static void fail_memory(Search *s) {
    if (!s->aborted) {
        PyErr_NoMemory();
        s->aborted = 3;
    }
}

/* what is known of a closed child's value before searching it (optimal.py's _prepare) */
static void prepare(Search *s, Child *c, int ns) {
    int64_t total = c->count;
    uint64_t covered = s->full & ~c->revealed;
    if (__builtin_popcountll(covered) == s->mines) {
        c->exact = total;
        return;
    }
    if (total <= 2) {
        c->exact = 1;
        return;
    }
    make_key(s, c->revealed, c->code, ns, c->key, &c->fixing);
    c->has_key = 1;
    int64_t *slot = table_slot(s, c->key, 0);
    if (slot) {
        s->hits++;
        if (*slot >= 0)
            c->exact = *slot;
        else
            c->bound = -*slot - 1;
        return;
    }
    int64_t *mines = calloc(MAXC, sizeof(int64_t));
    if (!mines) {
        fail_memory(s);
        c->exact = 0;
        return;
    }
    for (int64_t i = 0; i < total; i++) {
        uint64_t m = c->layouts[i];
        while (m) {
            mines[__builtin_ctzll(m)]++;
            m &= m - 1;
        }
    }
    int64_t best = 0;
    for (int x = 0; x < s->cells; x++) {
        if ((covered >> x) & 1) {
            mines[x] = total - mines[x]; /* now: safe count */
            if (mines[x] > best) best = mines[x];
        } else {
            mines[x] = 0;
        }
    }
    c->safe = mines;
    c->bound = best;
    c->own_bound = 1;
}

typedef struct {
    int64_t safe;
    int cell;
} Candidate;

static int by_safe(const void *a, const void *b) {
    const Candidate *x = a, *y = b;
    if (x->safe != y->safe) return x->safe > y->safe ? -1 : 1;
    return x->cell - y->cell;
}

static int budget(Search *s) {
    s->states++;
    if (s->max_states >= 0 && s->states > s->max_states) {
        s->aborted = 1;
        return -1;
    }
    if ((s->states & 255) == 1) {
        if (PyErr_CheckSignals() < 0) {
            s->aborted = 3;
            return -1;
        }
        if (s->deadline >= 0 && now_seconds() > s->deadline) {
            s->aborted = 2;
            return -1;
        }
    }
    if (s->progress && s->progress_every > 0 && s->states % s->progress_every == 0) {
        PyObject *r = PyObject_CallNoArgs(s->progress);
        if (!r) {
            s->aborted = 3;
            return -1;
        }
        Py_DECREF(r);
    }
    return 0;
}

/* W of a prepared child when it exceeds alpha, else a bound <= alpha (optimal.py's _value) */
static int64_t child_value(Search *s, Child *c, int64_t alpha, int ns) {
    if (c->exact >= 0) return c->exact;
    if (c->bound <= alpha) {
        if (c->own_bound) table_put(s, c->key, -c->bound - 1);
        return c->bound;
    }
    uint64_t covered = s->full & ~c->revealed;
    if (!c->safe) {
        int64_t *mines = calloc(MAXC, sizeof(int64_t));
        if (!mines) {
            fail_memory(s);
            return 0;
        }
        for (int64_t i = 0; i < c->count; i++) {
            uint64_t m = c->layouts[i];
            while (m) {
                mines[__builtin_ctzll(m)]++;
                m &= m - 1;
            }
        }
        for (int x = 0; x < s->cells; x++) mines[x] = ((covered >> x) & 1) ? c->count - mines[x] : 0;
        c->safe = mines;
    }
    if (budget(s) < 0) return 0;
    Candidate cand[MAXC];
    int nc = 0;
    for (int x = 0; x < s->cells; x++) {
        if (!((covered >> x) & 1) || c->safe[x] <= 0) continue;
        int skip = 0;
        for (int g = 1; g < s->nperms && !skip; g++)
            if ((c->fixing >> g) & 1 && s->perm[g][x] < x) skip = 1;
        if (skip) continue;
        cand[nc].safe = c->safe[x];
        cand[nc].cell = x;
        nc++;
    }
    qsort(cand, (size_t)nc, sizeof(Candidate), by_safe);
    int64_t best = alpha;
    for (int i = 0; i < nc; i++) {
        if (cand[i].safe <= best) break;
        int64_t v = move_value(s, c->revealed, c->code, c->layouts, c->count, cand[i].cell, best, ns);
        if (s->aborted) return 0;
        if (v > best) best = v;
    }
    if (best > alpha) {
        table_put(s, c->key, best);
        return best;
    }
    table_put(s, c->key, -alpha - 1);
    return alpha;
}

static int by_bound(const void *a, const void *b) {
    const Child *const *x = a, *const *y = b;
    if ((*x)->bound != (*y)->bound) return (*x)->bound > (*y)->bound ? -1 : 1;
    return 0;
}

/* W of revealing `cell` when it exceeds alpha, else a bound <= alpha (optimal.py's _move) */
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
        fail_memory(s);
        goto done;
    }
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (!(layouts[i] & bit)) buf[m++] = layouts[i];
    if (m == 0) goto done;
    if (close_move(s, revealed, code, buf, m, cell, tmp, num, &ch) < 0) {
        fail_memory(s);
        goto done;
    }
    free(tmp);
    tmp = NULL;
    free(num);
    num = NULL;
    int64_t bound = 0;
    int nopen = 0;
    for (int i = 0; i < ch.n; i++) {
        prepare(s, &ch.items[i], ns);
        if (s->aborted) goto done;
        Child *c = &ch.items[i];
        if (c->exact >= 0)
            bound += c->exact;
        else {
            bound += c->bound;
            nopen++;
        }
    }
    if (bound <= alpha || !nopen) {
        result = bound;
        goto done;
    }
    open = malloc(sizeof(Child *) * (size_t)nopen);
    if (!open) {
        fail_memory(s);
        goto done;
    }
    nopen = 0;
    for (int i = 0; i < ch.n; i++)
        if (ch.items[i].exact < 0) open[nopen++] = &ch.items[i];
    qsort(open, (size_t)nopen, sizeof(Child *), by_bound);
    for (int i = 0; i < nopen; i++) {
        Child *c = open[i];
        int64_t need = alpha - bound + c->bound;
        int64_t v = child_value(s, c, need > -1 ? need : -1, ns);
        if (s->aborted) goto done;
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

/* ---------- the Python type ---------- */

static void Search_dealloc(Search *s) {
    free(s->keys);
    free(s->vals);
    free(s->used);
    Py_XDECREF(s->progress);
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
    s->kw = (cells + 15) / 16 + 1;
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
    free(s->keys);
    free(s->vals);
    free(s->used);
    if (table_alloc(s, (size_t)1 << 16) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->max_states = -1;
    s->deadline = -1;
    s->progress_every = 0;
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
    s->aborted = 0;
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
    if (s->aborted == 3) return NULL;
    if (s->aborted) Py_RETURN_NONE;
    return PyLong_FromLongLong(v);
}

static PyObject *Search_set_budget(Search *s, PyObject *args) {
    long long max_states;
    double seconds;
    PyObject *progress;
    long long every;
    if (!PyArg_ParseTuple(args, "LdOL", &max_states, &seconds, &progress, &every)) return NULL;
    s->max_states = max_states;
    s->deadline = seconds < 0 ? -1 : now_seconds() + seconds;
    Py_XDECREF(s->progress);
    s->progress = progress == Py_None ? NULL : progress;
    Py_XINCREF(s->progress);
    s->progress_every = every;
    Py_RETURN_NONE;
}

static PyObject *Search_get_stats(Search *s, void *closure) {
    (void)closure;
    return Py_BuildValue("(LLLn)", s->states, s->hits, s->moves, (Py_ssize_t)s->count);
}

static PyObject *Search_get_aborted(Search *s, void *closure) {
    (void)closure;
    return PyLong_FromLong(s->aborted);
}

static PyMethodDef Search_methods[] = {
    {"move", (PyCFunction)Search_move, METH_VARARGS,
     "move(revealed, code, layouts, cell, alpha, namespace): W of revealing cell if above alpha, else a bound; None past the "
     "budget"},
    {"set_budget", (PyCFunction)Search_set_budget, METH_VARARGS,
     "set_budget(max_states or -1, seconds from now or -1, progress callable or None, progress_every)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Search_getset[] = {
    {"stats", (getter)Search_get_stats, NULL, "(states expanded, table hits, moves, states stored)", NULL},
    {"aborted", (getter)Search_get_aborted, NULL, "why the last call stopped: 0 finished, 1 states, 2 time, 3 error", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sweeplab.analysis._optimal.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The optimal-play search's table and recursion for one board (see optimal.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_optimal", "The optimal-play search in C.", -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__optimal(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
