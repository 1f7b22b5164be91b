/* sweeplab.strategies.best._endgame: the endgame search of sweeplab.strategies.best.endgame in C.
 *
 * The same search as endgame.py's pure-Python one, step for step, so that both choose the same cell and expand the
 * same number of positions (the budget): a set of layouts is a bit set of `w` 64-bit words; `wins(S)` is memoised on
 * S; a cell safe in all of S whose number splits S is opened for free; otherwise the cells are tried safest first
 * (ties by column), each only as far as decides whether it beats the best so far. endgame.py's docstring states the
 * model. The memo lives in the Tree object, so the next move of the same game reuses it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VALUES 10 /* a cell shows 0..8; one more slot for safety */
/* Each level of the search removes at least one layout, so its depth is below the number of layouts (1,000 under
 * best's defaults). Past this depth a search is given up as over budget, so that a search asked for on very many
 * layouts cannot overflow the C stack (two frames of a few hundred bytes per level). */
#define MAX_DEPTH 3000

typedef struct {
    PyObject_HEAD
    int m;            /* columns (covered cells) */
    int w;            /* words per set of layouts */
    int *nvals;       /* per column: how many numbers it can show */
    uint64_t *shows;  /* per column, per number: w words (column j's first set at shows + offset[j] * w) */
    int *offset;      /* per column: index of its first number's set */
    uint64_t *mine;   /* per column: w words */
    /* the memo: open addressing, linear probing */
    uint64_t *keys;
    int64_t *vals;
    uint8_t *used;
    size_t cap, count;
    long long expanded, budget;
    int depth;   /* levels of wins() under way */
    int aborted; /* 1: past the budget, 2: out of memory, 3: a Python exception from a signal handler (Ctrl-C) */
} Tree;

/* ---------- sets of layouts ---------- */

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

/* ---------- the memo ---------- */

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline size_t key_hash(const uint64_t *key, int w) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < w; i++) h = mix(h ^ key[i]) + (uint64_t)i;
    return (size_t)h;
}

static int memo_alloc(Tree *t, size_t cap) {
    t->keys = calloc(cap * (size_t)t->w, sizeof(uint64_t));
    t->vals = malloc(cap * sizeof(int64_t));
    t->used = calloc(cap, 1);
    if (!t->keys || !t->vals || !t->used) {
        free(t->keys);
        free(t->vals);
        free(t->used);
        t->keys = NULL;
        t->vals = NULL;
        t->used = NULL;
        return -1;
    }
    t->cap = cap;
    t->count = 0;
    return 0;
}

static int64_t *memo_slot(Tree *t, const uint64_t *key, int insert) {
    size_t mask = t->cap - 1, i = key_hash(key, t->w) & mask;
    int w = t->w;
    while (t->used[i]) {
        if (equal(t->keys + i * w, key, w)) return t->vals + i;
        i = (i + 1) & mask;
    }
    if (!insert) return NULL;
    t->used[i] = 1;
    memcpy(t->keys + i * w, key, sizeof(uint64_t) * w);
    t->count++;
    return t->vals + i;
}

static int memo_grow(Tree *t) {
    uint64_t *keys = t->keys;
    int64_t *vals = t->vals;
    uint8_t *used = t->used;
    size_t cap = t->cap;
    if (memo_alloc(t, cap * 2) < 0) {
        t->keys = keys;
        t->vals = vals;
        t->used = used;
        t->cap = cap;
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        if (used[i]) *memo_slot(t, keys + i * t->w, 1) = vals[i];
    free(keys);
    free(vals);
    free(used);
    return 0;
}

static void memo_put(Tree *t, const uint64_t *key, int64_t value) {
    if (2 * (t->count + 1) > t->cap && memo_grow(t) < 0) {
        t->aborted = 2;
        return;
    }
    *memo_slot(t, key, 1) = value;
}

/* ---------- the search (endgame.py's _scan, _value and _wins) ---------- */

typedef struct {
    int64_t key; /* minus the safe layouts: ascending puts the safest first */
    int j;
} Order;

static int order_cmp(const void *a, const void *b) {
    const Order *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->j - y->j;
}

/* the columns of `columns` that still matter in S (into live), the guesses safest first (into order; none when a
 * free reveal exists) and the first free reveal's column (or -1) */
static int scan(Tree *t, const uint64_t *S, int64_t n, const int *columns, int ncols, int *live, int *nlive, Order *order,
                int *norder, uint64_t *tmp) {
    int w = t->w, free_j = -1;
    *nlive = 0;
    *norder = 0;
    for (int c = 0; c < ncols; c++) {
        int j = columns[c];
        int any = and_into(tmp, S, t->mine + (size_t)j * w, w);
        if (any && equal(tmp, S, w)) continue; /* a mine in every layout */
        if (!any) {
            int split = 0;
            const uint64_t *base = t->shows + (size_t)t->offset[j] * w;
            for (int k = 0; k < t->nvals[j]; k++) {
                if (and_into(tmp, S, base + (size_t)k * w, w)) { /* the first number it can show decides */
                    split = !equal(tmp, S, w);
                    break;
                }
            }
            if (!split) continue;
            if (free_j < 0) free_j = j;
        } else {
            order[*norder].key = popcount(tmp, w) - n;
            order[*norder].j = j;
            (*norder)++;
        }
        live[(*nlive)++] = j;
    }
    if (free_j >= 0)
        *norder = 0;
    else
        qsort(order, (size_t)*norder, sizeof(Order), order_cmp);
    return free_j;
}

static int64_t wins(Tree *t, const uint64_t *S, const int *columns, int ncols);

/* wins when opening column j in S; -1 once it cannot exceed bar; -2 when the search was aborted */
static int64_t value(Tree *t, const uint64_t *S, int j, int64_t bar, const int *live, int nlive) {
    int w = t->w, nv = t->nvals[j], np = 0;
    uint64_t *parts = malloc(sizeof(uint64_t) * (size_t)w * (size_t)(nv > 0 ? nv : 1));
    int64_t size[MAX_VALUES], known[MAX_VALUES];
    int idx[MAX_VALUES];
    if (!parts) {
        t->aborted = 2;
        return -2;
    }
    const uint64_t *base = t->shows + (size_t)t->offset[j] * w;
    int64_t bound = 0;
    for (int k = 0; k < nv; k++) {
        uint64_t *part = parts + (size_t)np * w;
        if (!and_into(part, S, base + (size_t)k * w, w)) continue;
        size[np] = popcount(part, w);
        if (size[np] > 1) {
            int64_t *hit = memo_slot(t, part, 0);
            known[np] = hit ? *hit : size[np];
        } else {
            known[np] = 1;
        }
        bound += known[np];
        idx[np] = np;
        np++;
    }
    if (bound <= bar) {
        free(parts);
        return -1;
    }
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
        if (size[p] > 1 && memo_slot(t, part, 0) == NULL) {
            int64_t got = wins(t, part, live, nlive);
            if (got < 0) {
                free(parts);
                return -2;
            }
            bound += got - known[p];
            if (bound <= bar) {
                free(parts);
                return -1;
            }
        }
    }
    free(parts);
    return bound;
}

/* the layouts of S that optimal play wins; -1 when the search was aborted (budget or memory) */
static int64_t wins(Tree *t, const uint64_t *S, const int *columns, int ncols) {
    int w = t->w;
    int64_t *hit = memo_slot(t, S, 0);
    if (hit) return *hit;
    t->expanded++;
    if (t->expanded > t->budget) {
        t->aborted = 1;
        return -1;
    }
    if (PyErr_CheckSignals() < 0) { /* Ctrl-C during a long search */
        t->aborted = 3;
        return -1;
    }
    if (t->depth >= MAX_DEPTH) {
        t->aborted = 1;
        return -1;
    }
    t->depth++;
    int64_t n = popcount(S, w);
    int *live = malloc(sizeof(int) * (size_t)(ncols > 0 ? ncols : 1));
    Order *order = malloc(sizeof(Order) * (size_t)(ncols > 0 ? ncols : 1));
    uint64_t *tmp = malloc(sizeof(uint64_t) * (size_t)w);
    int64_t best = 0;
    if (!live || !order || !tmp) {
        t->aborted = 2;
        best = -1;
        goto done;
    }
    int nlive, norder;
    int free_j = scan(t, S, n, columns, ncols, live, &nlive, order, &norder, tmp);
    if (free_j >= 0) { /* information at no risk: take it */
        const uint64_t *base = t->shows + (size_t)t->offset[free_j] * w;
        int64_t total = 0;
        for (int k = 0; k < t->nvals[free_j]; k++) {
            if (!and_into(tmp, S, base + (size_t)k * w, w)) continue;
            if (popcount(tmp, w) > 1) {
                uint64_t *part = malloc(sizeof(uint64_t) * (size_t)w);
                if (!part) {
                    t->aborted = 2;
                    best = -1;
                    goto done;
                }
                memcpy(part, tmp, sizeof(uint64_t) * w);
                int64_t got = wins(t, part, live, nlive);
                free(part);
                if (got < 0) {
                    best = -1;
                    goto done;
                }
                total += got;
            } else {
                total += 1;
            }
        }
        best = total;
    } else {
        for (int o = 0; o < norder; o++) {
            int64_t safe = -order[o].key;
            if (safe <= best) break;
            int64_t got = value(t, S, order[o].j, best, live, nlive);
            if (got == -2) {
                best = -1;
                goto done;
            }
            if (got >= 0 && got > best) {
                best = got;
                if (best == safe) break;
            }
        }
    }
    memo_put(t, S, best);
    if (t->aborted) best = -1;
done:
    t->depth--;
    free(live);
    free(order);
    free(tmp);
    return best;
}

/* ---------- the Python type ---------- */

static void tree_dealloc(Tree *t) {
    free(t->nvals);
    free(t->offset);
    free(t->shows);
    free(t->mine);
    free(t->keys);
    free(t->vals);
    free(t->used);
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
    if (t->nvals || t->offset || t->mine || t->shows || t->keys) { /* its arrays are sized by the first call */
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
    if (memo_alloc(t, 1024) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *aborted_result(Tree *t) {
    int why = t->aborted;
    t->aborted = 0;
    if (why == 2) return PyErr_NoMemory();
    if (why == 3) return NULL; /* the signal handler's exception is set */
    Py_RETURN_NONE;            /* past the budget */
}

/* decide(S, budget): (column, wins, searched) for the best guess, where searched is a list of (column, wins) of every
 * column searched in full at the root (the chosen one too), or (column, wins, None) for a free reveal, or (-1, n, [])
 * when no column is live; None when the search went past `budget` expanded positions (what it finished is kept). */
static PyObject *tree_decide(Tree *t, PyObject *args) {
    PyObject *sobj;
    long long budget;
    if (!PyArg_ParseTuple(args, "OL", &sobj, &budget)) return NULL;
    if (!t->keys) {
        PyErr_SetString(PyExc_TypeError, "Tree: not initialised");
        return NULL;
    }
    int w = t->w, m = t->m;
    uint64_t *S = malloc(sizeof(uint64_t) * (size_t)w);
    uint64_t *tmp = malloc(sizeof(uint64_t) * (size_t)w);
    int *columns = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
    int *live = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
    Order *order = malloc(sizeof(Order) * (size_t)(m > 0 ? m : 1));
    PyObject *out = NULL, *searched = NULL;
    if (!S || !tmp || !columns || !live || !order) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_set(sobj, S, w, "S") < 0) goto done;
    t->expanded = 0;
    t->budget = budget;
    t->aborted = 0;
    for (int j = 0; j < m; j++) columns[j] = j;
    int64_t n = popcount(S, w);
    int nlive, norder;
    int free_j = scan(t, S, n, columns, m, live, &nlive, order, &norder, tmp);
    if (free_j >= 0) {
        const uint64_t *base = t->shows + (size_t)t->offset[free_j] * w;
        int64_t total = 0;
        for (int k = 0; k < t->nvals[free_j]; k++) {
            if (!and_into(tmp, S, base + (size_t)k * w, w)) continue;
            if (popcount(tmp, w) > 1) {
                uint64_t *part = malloc(sizeof(uint64_t) * (size_t)w);
                if (!part) {
                    PyErr_NoMemory();
                    goto done;
                }
                memcpy(part, tmp, sizeof(uint64_t) * w);
                int64_t got = wins(t, part, live, nlive);
                free(part);
                if (got < 0) {
                    out = aborted_result(t);
                    goto done;
                }
                total += got;
            } else {
                total += 1;
            }
        }
        out = Py_BuildValue("iLO", free_j, (long long)total, Py_None);
        goto done;
    }
    searched = PyList_New(0);
    if (!searched) goto done;
    int best_j = -1;
    int64_t best = -1;
    for (int o = 0; o < norder; o++) {
        int64_t safe = -order[o].key;
        if (safe <= best) break;
        int64_t got = value(t, S, order[o].j, best, live, nlive);
        if (got == -2) {
            out = aborted_result(t);
            goto done;
        }
        if (got < 0) continue;
        PyObject *item = Py_BuildValue("iL", order[o].j, (long long)got);
        if (!item || PyList_Append(searched, item) < 0) {
            Py_XDECREF(item);
            goto done;
        }
        Py_DECREF(item);
        if (got > best) {
            best_j = order[o].j;
            best = got;
        }
    }
    out = Py_BuildValue("iLO", best_j, (long long)(best_j < 0 ? n : best), searched);
done:
    Py_XDECREF(searched);
    free(S);
    free(tmp);
    free(columns);
    free(live);
    free(order);
    return out;
}

/* value(S, column, budget): the layouts of S that opening `column` first and playing optimally after wins (0 for a
 * column that is a mine in all of S); None past `budget` expanded positions */
static PyObject *tree_value(Tree *t, PyObject *args) {
    PyObject *sobj;
    int column;
    long long budget;
    if (!PyArg_ParseTuple(args, "OiL", &sobj, &column, &budget)) return NULL;
    if (!t->keys) {
        PyErr_SetString(PyExc_TypeError, "Tree: not initialised");
        return NULL;
    }
    if (column < 0 || column >= t->m) {
        PyErr_SetString(PyExc_ValueError, "value: no such column");
        return NULL;
    }
    int w = t->w, m = t->m;
    uint64_t *S = malloc(sizeof(uint64_t) * (size_t)w);
    uint64_t *tmp = malloc(sizeof(uint64_t) * (size_t)w);
    int *columns = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
    int *live = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
    Order *order = malloc(sizeof(Order) * (size_t)(m > 0 ? m : 1));
    PyObject *out = NULL;
    if (!S || !tmp || !columns || !live || !order) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_set(sobj, S, w, "S") < 0) goto done;
    t->expanded = 0;
    t->budget = budget;
    t->aborted = 0;
    for (int j = 0; j < m; j++) columns[j] = j;
    int nlive, norder;
    scan(t, S, popcount(S, w), columns, m, live, &nlive, order, &norder, tmp);
    int64_t got = value(t, S, column, -1, live, nlive);
    if (got == -2)
        out = aborted_result(t);
    else
        out = PyLong_FromLongLong(got);
done:
    free(S);
    free(tmp);
    free(columns);
    free(live);
    free(order);
    return out;
}

static PyObject *tree_expanded(Tree *t, void *closure) { return PyLong_FromLongLong(t->expanded); }

static PyObject *tree_memo_size(Tree *t, void *closure) { return PyLong_FromSize_t(t->count); }

static PyMethodDef tree_methods[] = {
    {"decide", (PyCFunction)tree_decide, METH_VARARGS,
     "decide(S, budget): (column, wins, searched) or None past the budget; see the C source."},
    {"value", (PyCFunction)tree_value, METH_VARARGS,
     "value(S, column, budget): the wins when opening column first, or None past the budget; see the C source."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef tree_getset[] = {
    {"expanded", (getter)tree_expanded, NULL, "positions expanded by the last decide", NULL},
    {"memo_size", (getter)tree_memo_size, NULL, "positions whose value is memoised", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sweeplab.strategies.best._endgame.Tree",
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The endgame search over one listed set of layouts (endgame.py's Endgame, in C).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tree_init,
    .tp_dealloc = (destructor)tree_dealloc,
    .tp_methods = tree_methods,
    .tp_getset = tree_getset,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_endgame", "The endgame search of sweeplab.strategies.best.endgame in C.", -1, NULL,
};

PyMODINIT_FUNC PyInit__endgame(void) {
    if (PyType_Ready(&TreeType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&moduledef);
    if (!mod) return NULL;
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(mod, "Tree", (PyObject *)&TreeType) < 0) {
        Py_DECREF(&TreeType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
