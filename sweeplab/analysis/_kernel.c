/* sweeplab.analysis._kernel: the exact engine's counting stage in C.
 *
 * From a position's view (one signed byte per cell: 0-8 revealed, -1 covered, -2 flagged) it builds the
 * constraints, groups frontier cells into super-cells, splits them into components, and counts each
 * component's weighted solutions by mine count over the same partial states as exact.py's `count` (keyed by the
 * mine count so far and the needs of the open constraints, weights C(size, x)); where `count` carries each state's
 * expected mines per super-cell forward, the kernel runs a backward pass instead (see run_dp). Same integers.
 * Weights are exact unsigned 128-bit integers; a component that could overflow them, or whose states or
 * memory would exceed the caller's limits, is returned without a tally, for Python to handle.
 * It knows nothing of probabilities: exact.py combines the tallies with exact Python integers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define MAX_ACTIVE 64

static u128 binom128[9][9];

static PyObject *u128_to_py(u128 v) {
    uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
    if (!hi) return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi);
    PyObject *l = PyLong_FromUnsignedLongLong(lo);
    PyObject *s = PyLong_FromLong(64);
    PyObject *sh = (h && s) ? PyNumber_Lshift(h, s) : NULL;
    PyObject *r = (sh && l) ? PyNumber_Or(sh, l) : NULL;
    Py_XDECREF(h); Py_XDECREF(l); Py_XDECREF(s); Py_XDECREF(sh);
    return r;
}

/* ---------- the per-component dynamic programme ---------- */

typedef struct {
    int n_active;      /* open constraints carried into this step */
    int n_opened;      /* constraints first touched at this step */
    int *opened_need;  /* their mine counts */
    int n_touch;
    int *touch_slot;   /* slot of each touched constraint among active+opened */
    int *touch_cap;    /* its capacity left after this step */
    int n_keep;
    int *keep;         /* slots that stay open after this step */
    int size;          /* cells in this step's super-cell */
    int supercell;     /* local super-cell index */
} Step;

typedef struct {
    int klen;             /* key bytes: 2 (k) + n needs */
    size_t cap;           /* table slots (a power of two) */
    size_t count;
    unsigned char *keys;  /* cap * klen */
    u128 *weight;         /* cap: forward weights (alpha) */
    unsigned char *used;  /* cap */
} Table;

static int table_init(Table *t, int klen, size_t cap) {
    t->klen = klen; t->cap = cap; t->count = 0;
    t->keys = malloc(cap * (size_t)klen);
    t->weight = malloc(cap * sizeof(u128));
    t->used = calloc(cap, 1);
    return t->keys && t->weight && t->used;
}

static void table_free(Table *t) {
    free(t->keys); free(t->weight); free(t->used);
    t->keys = NULL; t->weight = NULL; t->used = NULL;
}

static uint64_t hash_key(const unsigned char *key, int klen) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < klen; i++) { h ^= key[i]; h *= 1099511628211ULL; }
    return h;
}

/* find or insert; returns slot index, sets *fresh */
static size_t table_slot(Table *t, const unsigned char *key, int *fresh) {
    size_t mask = t->cap - 1;
    size_t i = (size_t)hash_key(key, t->klen) & mask;
    while (t->used[i]) {
        if (memcmp(t->keys + i * t->klen, key, t->klen) == 0) { *fresh = 0; return i; }
        i = (i + 1) & mask;
    }
    t->used[i] = 1;
    memcpy(t->keys + i * t->klen, key, t->klen);
    t->count++;
    *fresh = 1;
    return i;
}

/* the slot of an existing key (the forward pass inserted every key the backward pass looks up) */
static size_t table_find(const Table *t, const unsigned char *key) {
    size_t mask = t->cap - 1;
    size_t i = (size_t)hash_key(key, t->klen) & mask;
    while (t->used[i] && memcmp(t->keys + i * t->klen, key, t->klen) != 0) i = (i + 1) & mask;
    return i;
}

/* The key of the state reached from `key` by putting x mines in step st's super-cell; returns 0 if x is infeasible. */
static inline void step_needs(const Step *st, const unsigned char *key, int *needs) {
    int na = st->n_active;
    for (int a = 0; a < na; a++) needs[a] = key[2 + a];
    for (int a = 0; a < st->n_opened; a++) needs[na + a] = st->opened_need[a];
}

static inline void step_bounds(const Step *st, const int *needs, int *lo, int *hi) {
    *lo = 0; *hi = st->size;
    for (int q = 0; q < st->n_touch; q++) {
        int r = needs[st->touch_slot[q]];
        if (r < *hi) *hi = r;
        if (r - st->touch_cap[q] > *lo) *lo = r - st->touch_cap[q];
    }
}

static inline void next_key(const Step *st, int *needs, int k, int x, unsigned char *out) {
    int kk = k + x;
    out[0] = (unsigned char)(kk & 0xff);
    out[1] = (unsigned char)(kk >> 8);
    for (int q = 0; q < st->n_touch; q++) needs[st->touch_slot[q]] -= x;
    for (int q = 0; q < st->n_keep; q++) out[2 + q] = (unsigned char)needs[st->keep[q]];
    for (int q = 0; q < st->n_touch; q++) needs[st->touch_slot[q]] += x;
}

/* Count a component: the forward pass merges partial states (weights alpha by state), the backward pass carries,
   per state, the weighted number of completions ending with each final mine count (beta), so that each super-cell's
   weighted expected mines per final count is sum over transitions of alpha * C(size, x) * x * beta'.
   Returns 1 on success, 0 when too big (states or overflow risk), -1 on memory error.
   Fills weight_by_k[k] and expected_by_k[k * n_sc + sc] (caller-allocated, zeroed, total_cells + 1 rows). */
static int run_dp(Step *steps, int n_steps, int n_sc, int total_cells, long max_states, long max_entries,
                  u128 *weight_by_k, u128 *expected_by_k, int *present_k) {
    if (total_cells > 118) return 0;  /* weights and expectations stay below 2^127 */
    Table *tables = calloc((size_t)n_steps + 1, sizeof(Table));
    if (!tables) return -1;
    int status = 1, fresh;
    long total_states = 0;
    unsigned char keybuf[2 + MAX_ACTIVE];
    int needs[MAX_ACTIVE];
    u128 *beta = NULL, *beta_next = NULL;
    int *final_k = NULL;
    if (!table_init(&tables[0], 2, 4)) { status = -1; goto out; }
    keybuf[0] = keybuf[1] = 0;
    tables[0].weight[table_slot(&tables[0], keybuf, &fresh)] = 1;
    for (int t = 0; t < n_steps; t++) {
        Step *st = &steps[t];
        Table *cur = &tables[t], *nxt = &tables[t + 1];
        size_t bound = cur->count * (size_t)(st->size + 1), want = 4;
        while (want < bound * 2) want <<= 1;
        if ((long)bound > max_states * 9L) { status = 0; goto out; }
        if (!table_init(nxt, 2 + st->n_keep, want)) { status = -1; goto out; }
        for (size_t i = 0; i < cur->cap; i++) {
            if (!cur->used[i]) continue;
            const unsigned char *key = cur->keys + i * cur->klen;
            int k = key[0] | (key[1] << 8), lo, hi;
            step_needs(st, key, needs);
            step_bounds(st, needs, &lo, &hi);
            u128 w = cur->weight[i];
            for (int x = lo; x <= hi; x++) {
                next_key(st, needs, k, x, keybuf);
                size_t j = table_slot(nxt, keybuf, &fresh);
                u128 nw = w * binom128[st->size][x];
                if (fresh) nxt->weight[j] = nw; else nxt->weight[j] += nw;
            }
        }
        total_states += (long)nxt->count;
        if ((long)nxt->count > max_states || total_states > max_entries) { status = 0; goto out; }
    }
    /* final mine counts: the last table's keys are just k */
    Table *last = &tables[n_steps];
    int n_final = 0;
    final_k = malloc(sizeof(int) * (total_cells + 1));
    int *index_of_k = malloc(sizeof(int) * (total_cells + 1));
    if (!final_k || !index_of_k) { free(index_of_k); status = -1; goto out; }
    for (int k = 0; k <= total_cells; k++) index_of_k[k] = -1;
    for (size_t i = 0; i < last->cap; i++) {
        if (!last->used[i]) continue;
        int k = last->keys[i * last->klen] | (last->keys[i * last->klen + 1] << 8);
        if (index_of_k[k] < 0) { index_of_k[k] = n_final; final_k[n_final++] = k; }
        present_k[k] = 1;
        weight_by_k[k] += last->weight[i];
    }
    /* backward: beta over the last table is the indicator of its final count */
    beta_next = calloc(last->cap * (size_t)(n_final ? n_final : 1), sizeof(u128));
    if (!beta_next) { free(index_of_k); status = -1; goto out; }
    for (size_t i = 0; i < last->cap; i++) {
        if (!last->used[i]) continue;
        int k = last->keys[i * last->klen] | (last->keys[i * last->klen + 1] << 8);
        beta_next[i * n_final + index_of_k[k]] = 1;
    }
    free(index_of_k);
    for (int t = n_steps - 1; t >= 0; t--) {
        Step *st = &steps[t];
        Table *cur = &tables[t], *nxt = &tables[t + 1];
        beta = calloc(cur->cap * (size_t)n_final, sizeof(u128));
        if (!beta) { status = -1; goto out; }
        for (size_t i = 0; i < cur->cap; i++) {
            if (!cur->used[i]) continue;
            const unsigned char *key = cur->keys + i * cur->klen;
            int k = key[0] | (key[1] << 8), lo, hi;
            step_needs(st, key, needs);
            step_bounds(st, needs, &lo, &hi);
            u128 a = cur->weight[i];
            u128 *b = beta + i * n_final;
            for (int x = lo; x <= hi; x++) {
                next_key(st, needs, k, x, keybuf);
                const u128 *bn = beta_next + table_find(nxt, keybuf) * n_final;
                u128 c = binom128[st->size][x];
                for (int f = 0; f < n_final; f++) {
                    if (!bn[f]) continue;
                    u128 v = c * bn[f];
                    b[f] += v;
                    if (x) expected_by_k[(size_t)final_k[f] * n_sc + st->supercell] += a * v * (u128)x;
                }
            }
        }
        free(beta_next);
        beta_next = beta;
        beta = NULL;
        table_free(&tables[t + 1]);
    }
out:
    free(beta); free(beta_next); free(final_k);
    for (int t = 0; t <= n_steps; t++) table_free(&tables[t]);
    free(tables);
    return status;
}

/* ---------- from the view to components ---------- */

typedef struct { int cell; int key[8]; int klen; } FrontierCell;

static int cmp_frontier(const void *a, const void *b) {
    const FrontierCell *x = a, *y = b;
    int n = x->klen < y->klen ? x->klen : y->klen;
    for (int i = 0; i < n; i++) if (x->key[i] != y->key[i]) return x->key[i] < y->key[i] ? -1 : 1;
    if (x->klen != y->klen) return x->klen < y->klen ? -1 : 1;
    return x->cell - y->cell;
}

static int uf_find(int *parent, int a) {
    while (parent[a] != a) { parent[a] = parent[parent[a]]; a = parent[a]; }
    return a;
}

static PyObject *tally(PyObject *self, PyObject *args) {
    Py_buffer view;
    int width, height;
    long max_states, max_entries;
    if (!PyArg_ParseTuple(args, "y*iill", &view, &width, &height, &max_states, &max_entries)) return NULL;
    int cells = width * height;
    if (view.len != cells) { PyBuffer_Release(&view); PyErr_SetString(PyExc_ValueError, "view length != width*height"); return NULL; }
    const signed char *v = view.buf;
    PyObject *result = NULL;
    /* constraints */
    int *con_start = malloc(sizeof(int) * (cells + 1));
    int *con_cells = malloc(sizeof(int) * (cells * 8 + 1));
    int *con_need = malloc(sizeof(int) * (cells + 1));
    int *con_source = malloc(sizeof(int) * (cells + 1));
    int *touch_count = calloc(cells, sizeof(int));
    int *touch = malloc(sizeof(int) * (cells * 8 + 1));
    FrontierCell *front = malloc(sizeof(FrontierCell) * (cells + 1));
    int *cell_sc = malloc(sizeof(int) * (cells + 1));
    int *sc_start = malloc(sizeof(int) * (cells + 2));
    int *sc_cells = malloc(sizeof(int) * (cells + 1));
    int *parent = malloc(sizeof(int) * (cells + 1));
    if (!con_start || !con_cells || !con_need || !con_source || !touch_count || !touch || !front || !cell_sc ||
        !sc_start || !sc_cells || !parent) { PyErr_NoMemory(); goto done; }
    int n_con = 0, n_cc = 0;
    for (int c = 0; c < cells; c++) {
        if (v[c] < 0) continue;
        int x = c % width, y = c / width, flagged = 0, start = n_cc;
        for (int dy = -1; dy <= 1; dy++) {
            int ny = y + dy;
            if (ny < 0 || ny >= height) continue;
            for (int dx = -1; dx <= 1; dx++) {
                int nx = x + dx;
                if ((!dx && !dy) || nx < 0 || nx >= width) continue;
                int n = ny * width + nx;
                if (v[n] == -1) con_cells[n_cc++] = n;
                else if (v[n] == -2) flagged++;
            }
        }
        int need = v[c] - flagged, ncov = n_cc - start;
        if (need < 0 || need > ncov) { result = Py_BuildValue("(si)", "local", c); goto done; }
        if (!ncov) continue;
        con_start[n_con] = start; con_need[n_con] = need; con_source[n_con] = c; n_con++;
    }
    con_start[n_con] = n_cc;
    /* which constraints touch each covered cell (in increasing constraint order) */
    for (int i = 0; i < n_con; i++)
        for (int p = con_start[i]; p < con_start[i + 1]; p++) {
            int cell = con_cells[p];
            touch[cell * 8 + touch_count[cell]++] = i;
        }
    int n_front = 0;
    for (int c = 0; c < cells; c++) {
        if (!touch_count[c]) continue;
        front[n_front].cell = c; front[n_front].klen = touch_count[c];
        memcpy(front[n_front].key, touch + c * 8, sizeof(int) * touch_count[c]);
        n_front++;
    }
    qsort(front, n_front, sizeof(FrontierCell), cmp_frontier);
    int n_sc = 0;
    for (int i = 0; i < n_front; i++) {
        if (i == 0 || front[i].klen != front[i - 1].klen || memcmp(front[i].key, front[i - 1].key, sizeof(int) * front[i].klen)) {
            sc_start[n_sc++] = i;
        }
        sc_cells[i] = front[i].cell;
        cell_sc[front[i].cell] = n_sc - 1;
    }
    sc_start[n_sc] = n_front;
    /* components: union constraints through super-cells */
    for (int i = 0; i < n_con; i++) parent[i] = i;
    for (int s = 0; s < n_sc; s++) {
        FrontierCell *f = &front[sc_start[s]];
        int r = uf_find(parent, f->key[0]);
        for (int q = 1; q < f->klen; q++) { int r2 = uf_find(parent, f->key[q]); if (r2 != r) parent[r2] = r; }
    }
    result = PyList_New(0);
    if (!result) goto done;
    int *comp_of_sc = malloc(sizeof(int) * (n_sc + 1));
    int *local_sc = malloc(sizeof(int) * (n_sc + 1));
    int *local_con = malloc(sizeof(int) * (n_con + 1));
    int *done_root = calloc(n_con + 1, sizeof(int));
    if (!comp_of_sc || !local_sc || !local_con || !done_root) {
        free(comp_of_sc); free(local_sc); free(local_con); free(done_root);
        Py_CLEAR(result); PyErr_NoMemory(); goto done;
    }
    for (int s = 0; s < n_sc; s++) comp_of_sc[s] = uf_find(parent, front[sc_start[s]].key[0]);
    for (int s0 = 0; s0 < n_sc; s0++) {
        int root = comp_of_sc[s0];
        if (done_root[root]) continue;
        done_root[root] = 1;
        /* members */
        int m_sc = 0, m_con = 0, total_cells = 0;
        int *scs = malloc(sizeof(int) * n_sc), *cons = malloc(sizeof(int) * n_con);
        for (int s = 0; s < n_sc; s++) if (comp_of_sc[s] == root) { local_sc[s] = m_sc; scs[m_sc++] = s; total_cells += sc_start[s + 1] - sc_start[s]; }
        for (int i = 0; i < n_con; i++) if (uf_find(parent, i) == root) { local_con[i] = m_con; cons[m_con++] = i; }
        /* constraint -> local super-cells (each super-cell listed once per constraint) */
        int *cs_start = malloc(sizeof(int) * (m_con + 1));
        int *cs_list = malloc(sizeof(int) * (m_sc * 8 + 1));
        int *cs_count = calloc(m_con, sizeof(int));
        for (int a = 0; a < m_sc; a++) { FrontierCell *f = &front[sc_start[scs[a]]]; for (int q = 0; q < f->klen; q++) cs_count[local_con[f->key[q]]]++; }
        cs_start[0] = 0;
        for (int i = 0; i < m_con; i++) cs_start[i + 1] = cs_start[i] + cs_count[i];
        memset(cs_count, 0, sizeof(int) * m_con);
        for (int a = 0; a < m_sc; a++) { FrontierCell *f = &front[sc_start[scs[a]]]; for (int q = 0; q < f->klen; q++) { int li = local_con[f->key[q]]; cs_list[cs_start[li] + cs_count[li]++] = a; } }
        /* order: breadth first from a least-connected super-cell, neighbours by degree (as exact.py's _order) */
        int *degree = calloc(m_sc, sizeof(int));
        unsigned char *adj = calloc((size_t)m_sc * m_sc, 1);
        for (int i = 0; i < m_con; i++)
            for (int p = cs_start[i]; p < cs_start[i + 1]; p++)
                for (int q = cs_start[i]; q < cs_start[i + 1]; q++)
                    if (p != q && !adj[(size_t)cs_list[p] * m_sc + cs_list[q]]) { adj[(size_t)cs_list[p] * m_sc + cs_list[q]] = 1; degree[cs_list[p]]++; }
        int *order = malloc(sizeof(int) * m_sc), *seen = calloc(m_sc, sizeof(int)), *queue = malloc(sizeof(int) * m_sc);
        int n_order = 0;
        while (n_order < m_sc) {
            int start = -1;
            for (int a = 0; a < m_sc; a++) if (!seen[a] && (start < 0 || degree[a] < degree[start])) start = a;
            int qh = 0, qt = 0;
            seen[start] = 1; queue[qt++] = start;
            while (qh < qt) {
                int a = queue[qh++];
                order[n_order++] = a;
                for (;;) { /* unseen neighbours by (degree, index) */
                    int best = -1;
                    for (int b = 0; b < m_sc; b++) if (!seen[b] && adj[(size_t)a * m_sc + b] && (best < 0 || degree[b] < degree[best])) best = b;
                    if (best < 0) break;
                    seen[best] = 1; queue[qt++] = best;
                }
            }
        }
        /* plan */
        int *position = malloc(sizeof(int) * m_sc);
        for (int t = 0; t < m_sc; t++) position[order[t]] = t;
        int *first = malloc(sizeof(int) * m_con), *last = malloc(sizeof(int) * m_con), *remaining = malloc(sizeof(int) * m_con);
        for (int i = 0; i < m_con; i++) {
            first[i] = m_sc; last[i] = -1; remaining[i] = 0;
            for (int p = cs_start[i]; p < cs_start[i + 1]; p++) {
                int a = cs_list[p], t = position[a];
                if (t < first[i]) first[i] = t;
                if (t > last[i]) last[i] = t;
                remaining[i] += sc_start[scs[a] + 1] - sc_start[scs[a]];
            }
        }
        Step *steps = calloc(m_sc, sizeof(Step));
        int *pool = malloc(sizeof(int) * (size_t)(m_sc * (4 * MAX_ACTIVE + 32) + 16));
        int pool_used = 0, too_wide = 0;
        int *active = malloc(sizeof(int) * (m_con + 1)), n_active = 0;
        int *now = malloc(sizeof(int) * (m_con + 1));
        int *slot_of = malloc(sizeof(int) * (m_con + 1));
        for (int t = 0; t < m_sc && !too_wide; t++) {
            int a = order[t], s = scs[a];
            FrontierCell *f = &front[sc_start[s]];
            Step *st = &steps[t];
            st->supercell = a;
            st->size = sc_start[s + 1] - sc_start[s];
            st->n_active = n_active;
            int n_now = 0;
            for (int q = 0; q < n_active; q++) now[n_now++] = active[q];
            st->opened_need = pool + pool_used;
            st->n_opened = 0;
            for (int q = 0; q < f->klen; q++) { int li = local_con[f->key[q]]; if (first[li] == t) { st->opened_need[st->n_opened++] = con_need[cons[li]]; now[n_now++] = li; } }
            pool_used += st->n_opened;
            if (n_now > MAX_ACTIVE || st->size > 8) { too_wide = 1; break; }
            for (int q = 0; q < n_now; q++) slot_of[now[q]] = q;
            st->touch_slot = pool + pool_used; pool_used += f->klen;
            st->touch_cap = pool + pool_used; pool_used += f->klen;
            st->n_touch = f->klen;
            for (int q = 0; q < f->klen; q++) {
                int li = local_con[f->key[q]];
                remaining[li] -= st->size;
                st->touch_slot[q] = slot_of[li];
                st->touch_cap[q] = remaining[li];
            }
            st->keep = pool + pool_used;
            st->n_keep = 0;
            n_active = 0;
            for (int q = 0; q < n_now; q++) if (last[now[q]] > t) { st->keep[st->n_keep++] = q; active[n_active++] = now[q]; }
            pool_used += st->n_keep;
        }
        /* count */
        u128 *wk = calloc(total_cells + 1, sizeof(u128));
        u128 *ek = calloc((size_t)(total_cells + 1) * m_sc, sizeof(u128));
        int *present = calloc(total_cells + 1, sizeof(int));
        int status = too_wide ? 0 : run_dp(steps, m_sc, m_sc, total_cells, max_states, max_entries, wk, ek, present);
        /* build the Python component: (supercells, constraints, tally or None) */
        PyObject *sc_list = PyList_New(m_sc), *con_list = PyList_New(m_con), *tally_obj = NULL;
        for (int a = 0; a < m_sc; a++) {
            int s = scs[a], size = sc_start[s + 1] - sc_start[s];
            PyObject *tup = PyTuple_New(size);
            for (int q = 0; q < size; q++) PyTuple_SET_ITEM(tup, q, PyLong_FromLong(sc_cells[sc_start[s] + q]));
            PyList_SET_ITEM(sc_list, a, tup);
        }
        for (int i = 0; i < m_con; i++) {
            int len = cs_start[i + 1] - cs_start[i];
            PyObject *js = PyTuple_New(len);
            for (int q = 0; q < len; q++) PyTuple_SET_ITEM(js, q, PyLong_FromLong(cs_list[cs_start[i] + q]));
            PyList_SET_ITEM(con_list, i, Py_BuildValue("(Nii)", js, con_need[cons[i]], con_source[cons[i]]));
        }
        if (status == 1) {
            PyObject *weights = PyDict_New(), *expected = PyDict_New();
            for (int k = 0; k <= total_cells; k++) {
                if (!present[k]) continue;
                PyObject *key = PyLong_FromLong(k);
                PyObject *w = u128_to_py(wk[k]);
                PyDict_SetItem(weights, key, w); Py_DECREF(w);
                PyObject *row = PyList_New(m_sc);
                for (int a = 0; a < m_sc; a++) PyList_SET_ITEM(row, a, u128_to_py(ek[(size_t)k * m_sc + a]));
                PyDict_SetItem(expected, key, row); Py_DECREF(row);
                Py_DECREF(key);
            }
            tally_obj = Py_BuildValue("(NN)", weights, expected);
        } else {
            tally_obj = Py_None; Py_INCREF(Py_None);
        }
        PyObject *item = Py_BuildValue("(NNN)", sc_list, con_list, tally_obj);
        PyList_Append(result, item); Py_DECREF(item);
        free(wk); free(ek); free(present);
        free(active); free(now); free(slot_of); free(pool); free(steps);
        free(first); free(last); free(remaining); free(position);
        free(order); free(seen); free(queue); free(degree); free(adj);
        free(cs_start); free(cs_list); free(cs_count); free(scs); free(cons);
        if (status < 0) { Py_CLEAR(result); PyErr_NoMemory(); break; }
    }
    free(comp_of_sc); free(local_sc); free(local_con); free(done_root);
    if (result) {
        int n_un = 0;
        for (int c = 0; c < cells; c++) if (v[c] == -1 && !touch_count[c]) n_un++;
        PyObject *un = PyTuple_New(n_un);
        n_un = 0;
        for (int c = 0; c < cells; c++) if (v[c] == -1 && !touch_count[c]) PyTuple_SET_ITEM(un, n_un++, PyLong_FromLong(c));
        PyObject *pair = Py_BuildValue("(NN)", result, un);
        result = pair;
    }
done:
    free(con_start); free(con_cells); free(con_need); free(con_source); free(touch_count); free(touch);
    free(front); free(cell_sc); free(sc_start); free(sc_cells); free(parent);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef methods[] = {
    {"tally", tally, METH_VARARGS,
     "tally(view: bytes, width, height, max_states, max_entries) -> ([(supercells, constraints, (weights, expected) | None)],"
     " unconstrained cells)\n"
     "or ('local', cell) when a number cannot hold locally."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The exact engine's counting stage in C.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int n = 0; n <= 8; n++) {
        binom128[n][0] = 1;
        for (int k = 1; k <= n; k++) binom128[n][k] = binom128[n][k - 1] * (u128)(n - k + 1) / (u128)k;
    }
    return PyModule_Create(&module);
}
