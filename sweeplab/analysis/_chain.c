/* One move of the chain over a component's solutions (sweeplab/analysis/chain.py, whose _Chain.move is the
 * pure-Python twin): a block's exact count over the count's plan (merged partial states keyed by the mines so far
 * and the needs of the open numbers), each final count weighted by the rest of the position, then the backward pass
 * (each step's expected mines) and a forward draw of the block's new mines per step. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPEN 250 /* open numbers a key holds (each a byte) */

typedef struct {
    int size, n_active, n_opened, n_touch, n_keep;
    int *opened, *slot, *cap, *keep; /* into one pool per call */
} Step;

static double binom[9][9];

/* Buffers kept between calls (the GIL is held throughout): the states of every layer one after another. */
static unsigned char *keys_buf;
static double *alpha_buf, *beta_buf;
static int *start_buf, *next_buf, *table_buf, *used_buf;
static unsigned char *v_buf;
static size_t keys_cap, states_cap, tr_cap;
static int table_size;

static int grow(void **buf, size_t *cap_unused, size_t want, size_t item) {
    (void)cap_unused;
    void *p = realloc(*buf, want * item);
    if (!p) return 0;
    *buf = p;
    return 1;
}

static int ensure_states(size_t want) {
    if (want <= states_cap) return 1;
    size_t cap = states_cap ? states_cap : 4096;
    while (cap < want) cap *= 2;
    if (!grow((void **)&alpha_buf, NULL, cap, sizeof(double)) || !grow((void **)&beta_buf, NULL, cap, sizeof(double)) ||
        !grow((void **)&start_buf, NULL, cap + 1, sizeof(int)))
        return 0;
    states_cap = cap;
    return 1;
}

static int ensure_keys(size_t want) {
    if (want <= keys_cap) return 1;
    size_t cap = keys_cap ? keys_cap : 65536;
    while (cap < want) cap *= 2;
    if (!grow((void **)&keys_buf, NULL, cap, 1)) return 0;
    keys_cap = cap;
    return 1;
}

static int ensure_transitions(size_t want) {
    if (want <= tr_cap) return 1;
    size_t cap = tr_cap ? tr_cap : 65536;
    while (cap < want) cap *= 2;
    if (!grow((void **)&next_buf, NULL, cap, sizeof(int)) || !grow((void **)&v_buf, NULL, cap, 1)) return 0;
    tr_cap = cap;
    return 1;
}

static uint64_t next_random(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

static double uniform(uint64_t *s) { return (double)(next_random(s) >> 11) * (1.0 / 9007199254740992.0); }

static int int_at(PyObject *seq, Py_ssize_t i, int *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return 0;
    long v = PyLong_AsLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) return 0;
    *out = (int)v;
    return 1;
}

static uint64_t hash_key(const unsigned char *key, int len) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < len; i++) h = (h ^ key[i]) * 1099511628211ULL;
    return h;
}

static PyObject *move(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sizes, *plan, *need_list, *weights;
    int max_states;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOOiK", &sizes, &plan, &need_list, &weights, &max_states, &seed)) return NULL;
    Py_ssize_t n = PySequence_Size(plan);
    Py_ssize_t n_weights = PySequence_Size(weights);
    Py_ssize_t n_needs = PySequence_Size(need_list);
    if (n < 0 || n_weights < 0 || n_needs < 0) return NULL;
    if (max_states < 1) max_states = 1;
    Step *steps = calloc((size_t)n + 1, sizeof(Step));
    size_t *off = calloc((size_t)n + 2, sizeof(size_t)), *key_off = calloc((size_t)n + 2, sizeof(size_t));
    int *klen = calloc((size_t)n + 2, sizeof(int));
    double *hw = malloc(sizeof(double) * ((size_t)n_weights + 1));
    int *pool = NULL;
    size_t pool_used = 0, pool_size = 0;
    PyObject *result = NULL;
    if (!steps || !off || !key_off || !klen || !hw) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t t = 0; t < n; t++) { /* the pool's size: each step's opened, touched and kept numbers */
        PyObject *item = PySequence_GetItem(plan, t);
        if (!item) goto done;
        for (int q = 1; q <= 3; q++) {
            PyObject *part = PySequence_GetItem(item, q);
            Py_ssize_t len = part ? PySequence_Size(part) : -1;
            Py_XDECREF(part);
            if (len < 0) { Py_DECREF(item); goto done; }
            pool_size += (size_t)len * (q == 2 ? 2 : 1);
        }
        Py_DECREF(item);
    }
    pool = malloc(sizeof(int) * (pool_size + 1));
    if (!pool) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n_weights; i++) {
        PyObject *item = PySequence_GetItem(weights, i);
        if (!item) goto done;
        hw[i] = PyFloat_AsDouble(item);
        Py_DECREF(item);
        if (hw[i] == -1.0 && PyErr_Occurred()) goto done;
    }
    for (Py_ssize_t t = 0; t < n; t++) {
        Step *st = &steps[t];
        PyObject *item = PySequence_GetItem(plan, t);
        if (!item) goto done;
        PyObject *opened = PySequence_GetItem(item, 1), *touch = PySequence_GetItem(item, 2), *keep = PySequence_GetItem(item, 3);
        int ok = opened && touch && keep && int_at(item, 0, &st->n_active) && int_at(sizes, t, &st->size);
        Py_ssize_t no = ok ? PySequence_Size(opened) : -1, nt = ok ? PySequence_Size(touch) : -1, nk = ok ? PySequence_Size(keep) : -1;
        ok = ok && no >= 0 && nt >= 0 && nk >= 0 && st->n_active + no <= MAX_OPEN && nt <= MAX_OPEN && nk <= MAX_OPEN &&
             st->size >= 0 && st->size <= 8;
        if (ok) {
            st->n_opened = (int)no; st->n_touch = (int)nt; st->n_keep = (int)nk;
            st->opened = pool + pool_used; pool_used += (size_t)no;
            st->slot = pool + pool_used; pool_used += (size_t)nt;
            st->cap = pool + pool_used; pool_used += (size_t)nt;
            st->keep = pool + pool_used; pool_used += (size_t)nk;
            for (int q = 0; ok && q < st->n_opened; q++) {
                int index = -1;
                ok = int_at(opened, q, &index) && index >= 0 && index < n_needs && int_at(need_list, index, &st->opened[q]);
            }
            for (int q = 0; ok && q < st->n_touch; q++) {
                PyObject *pair = PySequence_GetItem(touch, q);
                ok = pair && int_at(pair, 0, &st->slot[q]) && int_at(pair, 1, &st->cap[q]);
                Py_XDECREF(pair);
            }
            for (int q = 0; ok && q < st->n_keep; q++) ok = int_at(keep, q, &st->keep[q]);
        }
        Py_XDECREF(opened); Py_XDECREF(touch); Py_XDECREF(keep); Py_DECREF(item);
        if (!ok) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a step of the plan is malformed or too wide");
            goto done;
        }
    }
    if (table_size < 2 * max_states) {
        int size = 16;
        while (size < 2 * max_states) size <<= 1;
        int *t1 = realloc(table_buf, sizeof(int) * (size_t)size), *t2 = t1 ? realloc(used_buf, sizeof(int) * (size_t)size) : NULL;
        if (t1) table_buf = t1;
        if (t2) used_buf = t2;
        if (!t1 || !t2) { PyErr_NoMemory(); goto done; }
        memset(table_buf, -1, sizeof(int) * (size_t)size);
        table_size = size;
    }
    /* layer t holds the states before step t (off[t] .. off[t + 1] - 1); keys: 2 bytes of mines so far, open needs */
    if (!ensure_states(1) || !ensure_keys(2) || !ensure_transitions(16)) { PyErr_NoMemory(); goto done; }
    klen[0] = 2;
    keys_buf[0] = keys_buf[1] = 0;
    alpha_buf[0] = 1.0;
    off[0] = 0; off[1] = 1; key_off[0] = 0; key_off[1] = 2;
    size_t tr_n = 0;
    int needs[2 * MAX_OPEN];
    unsigned char key[2 + MAX_OPEN];
    int mask = table_size - 1;
    for (Py_ssize_t t = 0; t < n; t++) {
        Step *st = &steps[t];
        const double *bn = binom[st->size];
        int kl = 2 + st->n_keep, n_used = 0;
        size_t base = off[t + 1], kbase = key_off[t + 1];
        int count = 0;
        klen[t + 1] = kl;
        for (size_t i = off[t]; i < off[t + 1]; i++) {
            const unsigned char *kk = keys_buf + key_off[t] + (i - off[t]) * (size_t)klen[t];
            int k = kk[0] | (kk[1] << 8);
            for (int a = 0; a < st->n_active; a++) needs[a] = (signed char)kk[2 + a];
            for (int a = 0; a < st->n_opened; a++) needs[st->n_active + a] = st->opened[a];
            int lo = 0, hi = st->size;
            for (int q = 0; q < st->n_touch; q++) {
                int r = needs[st->slot[q]];
                if (r < hi) hi = r;
                if (r - st->cap[q] > lo) lo = r - st->cap[q];
            }
            start_buf[i] = (int)tr_n;
            for (int v = lo; v <= hi; v++) {
                int kv = k + v;
                key[0] = (unsigned char)(kv & 0xff);
                key[1] = (unsigned char)(kv >> 8);
                for (int q = 0; q < st->n_touch; q++) needs[st->slot[q]] -= v;
                for (int q = 0; q < st->n_keep; q++) key[2 + q] = (unsigned char)(signed char)needs[st->keep[q]];
                for (int q = 0; q < st->n_touch; q++) needs[st->slot[q]] += v;
                uint64_t h = hash_key(key, kl);
                int p = (int)(h & (uint64_t)mask), j = -1;
                for (;; p = (p + 1) & mask) {
                    int e = table_buf[p];
                    if (e < 0) break;
                    if (!memcmp(keys_buf + kbase + (size_t)e * (size_t)kl, key, (size_t)kl)) { j = e; break; }
                }
                if (j < 0) {
                    if (count >= max_states) {
                        for (int u = 0; u < n_used; u++) table_buf[used_buf[u]] = -1;
                        result = Py_None; Py_INCREF(result); goto done;
                    }
                    if (!ensure_states(base + (size_t)count + 2) || !ensure_keys(kbase + (size_t)(count + 1) * (size_t)kl)) {
                        for (int u = 0; u < n_used; u++) table_buf[used_buf[u]] = -1;
                        PyErr_NoMemory(); goto done;
                    }
                    j = count++;
                    memcpy(keys_buf + kbase + (size_t)j * (size_t)kl, key, (size_t)kl);
                    alpha_buf[base + (size_t)j] = 0.0;
                    table_buf[p] = j;
                    used_buf[n_used++] = p;
                }
                alpha_buf[base + (size_t)j] += alpha_buf[i] * bn[v];
                if (!ensure_transitions(tr_n + 1)) {
                    for (int u = 0; u < n_used; u++) table_buf[used_buf[u]] = -1;
                    PyErr_NoMemory(); goto done;
                }
                next_buf[tr_n] = (int)base + j;
                v_buf[tr_n] = (unsigned char)v;
                tr_n++;
            }
        }
        start_buf[off[t + 1]] = (int)tr_n; /* overwritten as the next layer's first state's start: kept consistent below */
        for (int u = 0; u < n_used; u++) table_buf[used_buf[u]] = -1;
        off[t + 2] = base + (size_t)count;
        key_off[t + 2] = kbase + (size_t)count * (size_t)kl;
        double peak = 0.0;
        for (size_t j = base; j < off[t + 2]; j++) if (alpha_buf[j] > peak) peak = alpha_buf[j];
        if (peak > 0) for (size_t j = base; j < off[t + 2]; j++) alpha_buf[j] /= peak;
    }
    {
        size_t f0 = off[n], f1 = off[n + 1];
        int top = 0;
        for (size_t i = f0; i < f1; i++) {
            const unsigned char *kk = keys_buf + key_off[n] + (i - f0) * (size_t)klen[n];
            int k = kk[0] | (kk[1] << 8);
            if (k > top) top = k;
            beta_buf[i] = k < n_weights ? hw[k] : 0.0;
        }
        double z = 0.0;
        for (size_t i = f0; i < f1; i++) z += alpha_buf[i] * beta_buf[i];
        if (!(z > 0)) { result = Py_None; Py_INCREF(result); goto done; }
        PyObject *counts = PyList_New(top + 1), *means = PyList_New(n), *values = PyList_New(n);
        double *cnt = calloc((size_t)top + 1, sizeof(double));
        if (!counts || !means || !values || !cnt) {
            Py_XDECREF(counts); Py_XDECREF(means); Py_XDECREF(values); free(cnt);
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
        for (size_t i = f0; i < f1; i++) {
            const unsigned char *kk = keys_buf + key_off[n] + (i - f0) * (size_t)klen[n];
            cnt[kk[0] | (kk[1] << 8)] += alpha_buf[i] * beta_buf[i] / z;
        }
        for (int k = 0; k <= top; k++) PyList_SET_ITEM(counts, k, PyFloat_FromDouble(cnt[k]));
        free(cnt);
        /* transitions of state i run from start_buf[i] to the next state's start (tr_end) */
        for (Py_ssize_t t = n - 1; t >= 0; t--) {
            const double *bn = binom[steps[t].size];
            double weighted = 0.0, mines = 0.0, peak = 0.0;
            for (size_t i = off[t]; i < off[t + 1]; i++) {
                int end = i + 1 < off[t + 1] ? start_buf[i + 1] : (t + 1 < n ? start_buf[off[t + 1]] : (int)tr_n);
                double b = 0.0;
                for (int e = start_buf[i]; e < end; e++) {
                    double c = bn[v_buf[e]] * beta_buf[next_buf[e]];
                    b += c;
                    mines += alpha_buf[i] * c * v_buf[e];
                }
                weighted += alpha_buf[i] * b;
                beta_buf[i] = b;
                if (b > peak) peak = b;
            }
            if (peak > 0) for (size_t i = off[t]; i < off[t + 1]; i++) beta_buf[i] /= peak;
            PyList_SET_ITEM(means, t, PyFloat_FromDouble(weighted > 0 ? mines / weighted : 0.0));
        }
        uint64_t rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
        size_t s = 0;
        for (Py_ssize_t t = 0; t < n; t++) {
            const double *bn = binom[steps[t].size];
            int end = s + 1 < off[t + 1] ? start_buf[s + 1] : (t + 1 < n ? start_buf[off[t + 1]] : (int)tr_n);
            double total = 0.0;
            for (int e = start_buf[s]; e < end; e++) total += bn[v_buf[e]] * beta_buf[next_buf[e]];
            double point = uniform(&rng) * total;
            int pick = -1;
            for (int e = start_buf[s]; e < end; e++) {
                double w = bn[v_buf[e]] * beta_buf[next_buf[e]];
                if (w > 0) {
                    pick = e;
                    point -= w;
                    if (point < 0) break;
                }
            }
            if (pick < 0) { /* cannot happen: every state kept on the path has a completion of weight > 0 */
                Py_DECREF(counts); Py_DECREF(means); Py_DECREF(values);
                PyErr_SetString(PyExc_RuntimeError, "the chain's draw found no completion");
                goto done;
            }
            PyList_SET_ITEM(values, t, PyLong_FromLong(v_buf[pick]));
            s = (size_t)next_buf[pick];
        }
        const unsigned char *kk = keys_buf + key_off[n] + (s - off[n]) * (size_t)klen[n];
        result = Py_BuildValue("(NNNi)", values, means, counts, kk[0] | (kk[1] << 8));
    }
done:
    free(pool); free(steps); free(off); free(key_off); free(klen); free(hw);
    return result;
}

/* plan(sizes, constraints) -> steps: counting.py's _Plan steps for super-cells counted in the order given (step t is
 * super-cell t), constraints as (super-cell indices, mines) pairs: per step (open constraints before it, mines of the
 * constraints it opens, [(slot, capacity left)] of those it touches, slots kept after it). */
static PyObject *plan(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sizes_obj, *cons_obj;
    if (!PyArg_ParseTuple(args, "OO", &sizes_obj, &cons_obj)) return NULL;
    Py_ssize_t n = PySequence_Size(sizes_obj), m = PySequence_Size(cons_obj);
    if (n < 0 || m < 0) return NULL;
    PyObject *result = NULL, *steps = NULL;
    int *size = calloc((size_t)n + 1, sizeof(int)), *first = calloc((size_t)m + 1, sizeof(int));
    int *last = calloc((size_t)m + 1, sizeof(int)), *mines = calloc((size_t)m + 1, sizeof(int));
    long *remaining = calloc((size_t)m + 1, sizeof(long));
    int *deg = calloc((size_t)n + 1, sizeof(int)), *start = calloc((size_t)n + 2, sizeof(int));
    int *active = calloc((size_t)m + 1, sizeof(int)), *now = calloc((size_t)m + 1, sizeof(int));
    int *slot_of = calloc((size_t)m + 1, sizeof(int));
    int *members = NULL, *touch = NULL, *fill = NULL;
    size_t total = 0;
    if (!size || !first || !last || !mines || !remaining || !deg || !start || !active || !now || !slot_of) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t t = 0; t < n; t++)
        if (!int_at(sizes_obj, t, &size[t])) goto done;
    for (Py_ssize_t i = 0; i < m; i++) { /* first pass: sizes of the member lists */
        PyObject *con = PySequence_GetItem(cons_obj, i);
        if (!con) goto done;
        PyObject *js = PySequence_GetItem(con, 0);
        Py_ssize_t len = js ? PySequence_Size(js) : -1;
        int ok = len >= 0 && int_at(con, 1, &mines[i]);
        Py_XDECREF(js);
        Py_DECREF(con);
        if (!ok) goto done;
        total += (size_t)len;
    }
    members = malloc(sizeof(int) * (total + 1));
    touch = malloc(sizeof(int) * (total + 1));
    fill = calloc((size_t)n + 1, sizeof(int));
    if (!members || !touch || !fill) { PyErr_NoMemory(); goto done; }
    {
        size_t at = 0;
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *con = PySequence_GetItem(cons_obj, i);
            PyObject *js = con ? PySequence_GetItem(con, 0) : NULL;
            Py_ssize_t len = js ? PySequence_Size(js) : -1;
            int ok = len > 0;
            first[i] = (int)n;
            last[i] = -1;
            remaining[i] = 0;
            for (Py_ssize_t q = 0; ok && q < len; q++) {
                int j;
                ok = int_at(js, q, &j) && j >= 0 && j < n;
                if (!ok) break;
                members[at++] = j;
                deg[j]++;
                if (j < first[i]) first[i] = j;
                if (j > last[i]) last[i] = j;
                remaining[i] += size[j];
            }
            Py_XDECREF(js);
            Py_XDECREF(con);
            if (!ok) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a constraint of the plan is empty or names no step");
                goto done;
            }
        }
    }
    for (Py_ssize_t t = 0; t < n; t++) start[t + 1] = start[t] + deg[t];
    { /* touching lists, in constraint order (as _Plan builds them) */
        size_t at = 0;
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *con = PySequence_GetItem(cons_obj, i);
            PyObject *js = con ? PySequence_GetItem(con, 0) : NULL;
            Py_ssize_t len = js ? PySequence_Size(js) : 0;
            Py_XDECREF(js);
            Py_XDECREF(con);
            for (Py_ssize_t q = 0; q < len; q++) {
                int j = members[at++];
                touch[start[j] + fill[j]++] = (int)i;
            }
        }
    }
    steps = PyList_New(n);
    if (!steps) goto done;
    int n_active = 0;
    for (Py_ssize_t t = 0; t < n; t++) {
        int n_now = n_active, n_open = 0;
        memcpy(now, active, sizeof(int) * (size_t)n_active);
        PyObject *opened = PyList_New(0), *touch_slots = PyList_New(0), *keep = NULL;
        if (!opened || !touch_slots) { Py_XDECREF(opened); Py_XDECREF(touch_slots); goto done; }
        for (int e = start[t]; e < start[t + 1]; e++) {
            int i = touch[e];
            if (first[i] == t) {
                now[n_now++] = i;
                n_open++;
                PyObject *v = PyLong_FromLong(mines[i]);
                if (!v || PyList_Append(opened, v) < 0) { Py_XDECREF(v); Py_DECREF(opened); Py_DECREF(touch_slots); goto done; }
                Py_DECREF(v);
            }
        }
        for (int s = 0; s < n_now; s++) slot_of[now[s]] = s;
        for (int e = start[t]; e < start[t + 1]; e++) {
            int i = touch[e];
            remaining[i] -= size[t];
            PyObject *pair = Py_BuildValue("(il)", slot_of[i], remaining[i]);
            if (!pair || PyList_Append(touch_slots, pair) < 0) { Py_XDECREF(pair); Py_DECREF(opened); Py_DECREF(touch_slots); goto done; }
            Py_DECREF(pair);
        }
        int n_after = 0;
        keep = PyList_New(0);
        if (!keep) { Py_DECREF(opened); Py_DECREF(touch_slots); goto done; }
        for (int s = 0; s < n_now; s++) {
            int i = now[s];
            if (last[i] > t) {
                active[n_after++] = i;
                PyObject *v = PyLong_FromLong(s);
                if (!v || PyList_Append(keep, v) < 0) {
                    Py_XDECREF(v); Py_DECREF(opened); Py_DECREF(touch_slots); Py_DECREF(keep);
                    goto done;
                }
                Py_DECREF(v);
            }
        }
        PyObject *step = Py_BuildValue("(iNNN)", n_active, opened, touch_slots, keep);
        if (!step) goto done;
        PyList_SET_ITEM(steps, t, step);
        n_active = n_after;
        (void)n_open;
    }
    result = steps;
    steps = NULL;
done:
    Py_XDECREF(steps);
    free(size); free(first); free(last); free(mines); free(remaining); free(deg); free(start);
    free(active); free(now); free(slot_of); free(members); free(touch); free(fill);
    return result;
}

static PyMethodDef methods[] = {
    {"plan", plan, METH_VARARGS,
     "plan(sizes, constraints) -> steps\n"
     "counting._Plan's steps for super-cells counted in the order given (step t is super-cell t, of sizes[t] cells),\n"
     "constraints as (super-cell indices, mines) pairs."},
    {"move", move, METH_VARARGS,
     "move(sizes, steps, needs, weights, max_states, seed) -> (values per step, expected mines per step,\n"
     "[P(block count k)], block count) | None\n"
     "One block move over the count's plan (chain.py's _Chain.move), whose steps name the opened numbers by their\n"
     "index in needs: weights[k] weighs a final block count k; None past max_states partial states in a step or when\n"
     "no final count has weight."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chain", "The chain's block move in C.", -1, methods};

PyMODINIT_FUNC PyInit__chain(void) {
    for (int a = 0; a <= 8; a++) {
        binom[a][0] = 1.0;
        for (int b = 1; b <= a; b++) binom[a][b] = binom[a][b - 1] * (double)(a - b + 1) / (double)b;
    }
    return PyModule_Create(&module);
}
