/* sweeplab.analysis.exact._kernel: the exact engine's counting stage in C, loaded by kernel.py.
 *
 * The count itself is _count.c (shared with the players' game loops); this module adds what the engine calls from
 * Python: tally (every component's count), obvious (the single-point pass), pack (a view as bytes) and sample (the
 * sampled count of a component too wide to count).
 */
#include "_count.c"

static const char *status_reason(int status) {
    switch (status) {
        case ST_STATES: return "states";
        case ST_MEMORY: return "memory";
        case ST_TIME: return "time";
        default: return "wide";
    }
}

/* A view (a tuple of ints -2..8) into out as signed bytes; adds its flags to *flags. 0, or -1 with an exception set
   naming `who` and the cell. */
static int read_view(PyObject *tup, signed char *out, Py_ssize_t *flags, const char *who) {
    Py_ssize_t n = PyTuple_GET_SIZE(tup);
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = view_value(PyTuple_GET_ITEM(tup, i));
        if (x == -1 && PyErr_Occurred()) return -1;
        if (x < -2 || x > 8) { PyErr_Format(PyExc_ValueError, "%s(view): cell %zd holds %ld", who, i, x); return -1; }
        out[i] = (signed char)x;
        *flags += x == -2;
    }
    return 0;
}

/* ---------- estimating a component: the same DP over a resampled subset of its states ---------- */

/* A state's values in the sampler: its weight after resampling and the sum of what its parents sent it before
   (both long double, in two 16-byte halves of a 4-word slot). */
#define SW(t, i) (((long double *)((t)->vals + (size_t)(i) * 4))[0])
#define SPRE(t, i) (((long double *)((t)->vals + (size_t)(i) * 4))[1])

static uint64_t rng_next(uint64_t *state) { /* xorshift64* */
    uint64_t x = *state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    *state = x;
    return x * 2685821657736338717ULL;
}

/* A copy of table t holding only the states of positive weight, sized for them. */
static int table_survivors(Table *t, Limits *lim) {
    size_t alive = 0;
    for (size_t i = 0; i < t->cap; i++) if (t->used[i] && SW(t, i) > 0) alive++;
    size_t want = 4;
    while (want < alive * 2) want <<= 1;
    Table small;
    int st = table_init(&small, t->klen, t->words, want, lim);
    if (st != ST_OK) { table_free(&small, lim); return st; }
    int fresh;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->used[i] || !(SW(t, i) > 0)) continue;
        size_t j = table_slot(&small, t->keys + i * t->klen, &fresh);
        memcpy(small.vals + j * 4, t->vals + i * 4, sizeof(uint64_t) * 4);
    }
    table_free(t, lim);
    *t = small;
    return ST_OK;
}

/* One run of the sampled count: forward, merging equal states; past `cap` states in a step, `cap` draws by
   systematic resampling in proportion to weight (a state drawn c times keeps c times the mean weight, the rest
   are dropped); weights rescaled to a maximum of 1 each step (the log of the scale kept). Backward, each final
   count's weight flows to parents in proportion to what they sent, giving each step's expected mines.
   Returns an ST_ status; on ST_OK fills *n_final, finals, weights and expected[f * n_steps + t] (long double). */
static int run_sample(Step *steps, int n_steps, int total_cells, long cap, uint64_t seed, Limits *lim, int *n_final_out,
                      int **finals_out, long double **weight_out, long double **expected_out, double *log_scale_out) {
    Table *tables = calloc((size_t)n_steps + 1, sizeof(Table));
    if (!tables) return ST_NOMEM;
    int status = ST_OK, fresh, n_final = 0;
    unsigned char keybuf[2 + MAX_ACTIVE];
    int needs[MAX_ACTIVE];
    long double *flow = NULL, *flow_next = NULL, *weight = NULL, *expected = NULL;
    size_t flow_bytes = 0, flow_next_bytes = 0;
    int *finals = NULL, *index_of_k = NULL;
    double log_scale = 0;
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (!rng) rng = 1;
    if ((status = table_init(&tables[0], 2, 4, 4, lim)) != ST_OK) goto out;
    keybuf[0] = keybuf[1] = 0;
    {
        size_t j = table_slot(&tables[0], keybuf, &fresh);
        SW(&tables[0], j) = 1; SPRE(&tables[0], j) = 1;
    }
    for (int t = 0; t < n_steps; t++) {
        Step *st = &steps[t];
        Table *cur = &tables[t], *nxt = &tables[t + 1];
        size_t bound = cur->count * (size_t)(st->size + 1), want = 4;
        while (want < bound * 2) want <<= 1;
        if ((status = table_init(nxt, 2 + st->n_keep, 4, want, lim)) != ST_OK) goto out;
        for (size_t i = 0; i < cur->cap; i++) {
            if (!cur->used[i]) continue;
            if ((status = limits_check(lim)) != ST_OK) goto out;
            const unsigned char *key = cur->keys + i * cur->klen;
            int k = key_k(key), lo, hi;
            step_needs(st, key, needs);
            step_bounds(st, needs, &lo, &hi);
            long double w = SW(cur, i);
            for (int x = lo; x <= hi; x++) {
                next_key(st, needs, k, x, keybuf);
                size_t j = table_slot(nxt, keybuf, &fresh);
                long double v = w * (long double)binom128[st->size][x];
                if (fresh) SPRE(nxt, j) = v; else SPRE(nxt, j) += v;
            }
        }
        if (!nxt->count) break; /* every state died: no solution found */
        long double total = 0, peak = 0;
        for (size_t i = 0; i < nxt->cap; i++) if (nxt->used[i]) total += SPRE(nxt, i);
        if ((long)nxt->count > cap) {
            long double stride = total / (long double)cap;
            long double point = stride * ((long double)(rng_next(&rng) >> 11) / 9007199254740992.0L), acc = 0;
            long kept = 0;
            for (size_t i = 0; i < nxt->cap; i++) {
                if (!nxt->used[i]) continue;
                acc += SPRE(nxt, i);
                long copies = 0;
                while (point < acc && kept + copies < cap) { copies++; point += stride; }
                kept += copies;
                SW(nxt, i) = (long double)copies * stride;
            }
            if ((status = table_survivors(nxt, lim)) != ST_OK) goto out;
        } else {
            for (size_t i = 0; i < nxt->cap; i++) if (nxt->used[i]) SW(nxt, i) = SPRE(nxt, i);
        }
        for (size_t i = 0; i < nxt->cap; i++) if (nxt->used[i] && SW(nxt, i) > peak) peak = SW(nxt, i);
        if (!(peak > 0)) { nxt->count = 0; break; }
        for (size_t i = 0; i < nxt->cap; i++) if (nxt->used[i]) SW(nxt, i) /= peak;
        log_scale += (double)logl(peak);
        if ((status = table_shrink(nxt, lim)) != ST_OK) goto out;
    }
    Table *last = &tables[n_steps];
    if (!last->used || !last->count) { /* every state died */
        *n_final_out = 0; *finals_out = NULL; *weight_out = NULL; *expected_out = NULL; *log_scale_out = 0;
        goto out;
    }
    finals = malloc(sizeof(int) * (total_cells + 1));
    index_of_k = malloc(sizeof(int) * (total_cells + 1));
    if (!finals || !index_of_k) { status = ST_NOMEM; goto out; }
    for (int k = 0; k <= total_cells; k++) index_of_k[k] = -1;
    for (size_t i = 0; i < last->cap; i++) {
        if (!last->used[i]) continue;
        int k = key_k(last->keys + i * last->klen);
        if (index_of_k[k] < 0) { index_of_k[k] = n_final; finals[n_final++] = k; }
    }
    weight = calloc((size_t)n_final, sizeof(long double));
    expected = calloc((size_t)n_final * n_steps, sizeof(long double));
    if (!weight || !expected) { status = ST_NOMEM; goto out; }
    flow_next_bytes = last->cap * (size_t)n_final * sizeof(long double);
    if (!(flow_next = lim_alloc(lim, flow_next_bytes, 1))) { status = ST_MEMORY; goto out; }
    for (size_t i = 0; i < last->cap; i++) {
        if (!last->used[i]) continue;
        int f = index_of_k[key_k(last->keys + i * last->klen)];
        flow_next[i * n_final + f] = SW(last, i);
        weight[f] += SW(last, i);
    }
    for (int t = n_steps - 1; t >= 0; t--) {
        Step *st = &steps[t];
        Table *cur = &tables[t], *nxt = &tables[t + 1];
        flow_bytes = cur->cap * (size_t)n_final * sizeof(long double);
        if (!(flow = lim_alloc(lim, flow_bytes, 1))) { status = ST_MEMORY; goto out; }
        for (size_t i = 0; i < cur->cap; i++) {
            if (!cur->used[i]) continue;
            if ((status = limits_check(lim)) != ST_OK) goto out;
            const unsigned char *key = cur->keys + i * cur->klen;
            int k = key_k(key), lo, hi;
            step_needs(st, key, needs);
            step_bounds(st, needs, &lo, &hi);
            long double w = SW(cur, i);
            long double *fl = flow + i * n_final;
            for (int x = lo; x <= hi; x++) {
                next_key(st, needs, k, x, keybuf);
                size_t j = table_find(nxt, keybuf);
                if (!nxt->used[j]) continue; /* dropped by resampling */
                long double share = w * (long double)binom128[st->size][x] / SPRE(nxt, j);
                const long double *fn = flow_next + j * n_final;
                for (int f = 0; f < n_final; f++) {
                    long double v = share * fn[f];
                    fl[f] += v;
                    if (x) expected[(size_t)f * n_steps + t] += v * x;
                }
            }
        }
        lim_free(lim, flow_next, flow_next_bytes);
        flow_next = flow; flow_next_bytes = flow_bytes; flow = NULL;
        table_free(&tables[t + 1], lim);
    }
    *n_final_out = n_final; *finals_out = finals; *weight_out = weight; *expected_out = expected;
    *log_scale_out = log_scale;
    finals = NULL; weight = NULL; expected = NULL;
out:
    lim_free(lim, flow, flow_bytes);
    lim_free(lim, flow_next, flow_next_bytes);
    free(finals); free(index_of_k); free(weight); free(expected);
    for (int t = 0; t <= n_steps; t++) table_free(&tables[t], lim);
    free(tables);
    return status;
}

static int int_item(PyObject *seq, Py_ssize_t i, int *out) {
    PyObject *o = PySequence_GetItem(seq, i);
    if (!o) return 0;
    long v = PyLong_AsLong(o);
    Py_DECREF(o);
    if (v == -1 && PyErr_Occurred()) return 0;
    *out = (int)v;
    return 1;
}

/* sample(sizes, steps, cap, seed, seconds, max_bytes): one run of the sampled count over a plan built by counting.py's
   _Plan (steps: (n_active, opened needs, ((slot, cap), ...), keep)). Returns (log_scale, {k: weight},
   {k: [expected mines per step]}) with weights rescaled to a maximum near 1; (0.0, {}, {}) when every state died;
   None when out of time, memory or keys (more than MAX_ACTIVE open constraints). */
static PyObject *sample(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sizes, *plan;
    long cap;
    unsigned long long seed;
    double seconds;
    Py_ssize_t max_bytes;
    if (!PyArg_ParseTuple(args, "OOlKdn", &sizes, &plan, &cap, &seed, &seconds, &max_bytes)) return NULL;
    Py_ssize_t n_steps = PySequence_Size(plan);
    if (n_steps < 0 || PySequence_Size(sizes) != n_steps) { PyErr_SetString(PyExc_ValueError, "sizes and steps differ in length"); return NULL; }
    if (cap < 1) cap = 1;
    Step *steps = calloc((size_t)n_steps + 1, sizeof(Step));
    int *pool = malloc(sizeof(int) * ((size_t)n_steps * (4 * MAX_ACTIVE + 32) + 16));
    PyObject *result = NULL;
    int total_cells = 0, pool_used = 0, wide = 0;
    if (!steps || !pool) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t t = 0; t < n_steps && !wide; t++) {
        Step *st = &steps[t];
        PyObject *item = PySequence_GetItem(plan, t);
        if (!item) goto done;
        PyObject *opened = PySequence_GetItem(item, 1), *touch = PySequence_GetItem(item, 2), *keep = PySequence_GetItem(item, 3);
        int ok = opened && touch && keep && int_item(item, 0, &st->n_active) && int_item(sizes, t, &st->size);
        Py_ssize_t n_opened = ok ? PySequence_Size(opened) : -1, n_touch = ok ? PySequence_Size(touch) : -1,
                   n_keep = ok ? PySequence_Size(keep) : -1;
        ok = ok && n_opened >= 0 && n_touch >= 0 && n_keep >= 0;
        if (ok && (st->n_active + n_opened > MAX_ACTIVE || st->size > 8 || st->size < 0 || n_touch > MAX_ACTIVE)) wide = 1;
        if (ok && !wide) {
            st->n_opened = (int)n_opened; st->n_touch = (int)n_touch; st->n_keep = (int)n_keep;
            st->opened_need = pool + pool_used; pool_used += st->n_opened;
            st->touch_slot = pool + pool_used; pool_used += st->n_touch;
            st->touch_cap = pool + pool_used; pool_used += st->n_touch;
            st->keep = pool + pool_used; pool_used += st->n_keep;
            for (int q = 0; ok && q < st->n_opened; q++) ok = int_item(opened, q, &st->opened_need[q]);
            for (int q = 0; ok && q < st->n_touch; q++) {
                PyObject *pair = PySequence_GetItem(touch, q);
                ok = pair && int_item(pair, 0, &st->touch_slot[q]) && int_item(pair, 1, &st->touch_cap[q]);
                Py_XDECREF(pair);
            }
            for (int q = 0; ok && q < st->n_keep; q++) ok = int_item(keep, q, &st->keep[q]);
            st->supercell = (int)t;
            total_cells += st->size;
        }
        Py_XDECREF(opened); Py_XDECREF(touch); Py_XDECREF(keep); Py_DECREF(item);
        if (!ok) goto done;
    }
    if (wide || total_cells > 65535) { result = Py_None; Py_INCREF(result); goto done; }
    Limits lim = {0, (size_t)(max_bytes > 0 ? max_bytes : 0), 0, now_seconds() + seconds, 0};
    int n_final = 0, *finals = NULL;
    long double *weight = NULL, *expected = NULL;
    double log_scale = 0;
    int status = run_sample(steps, (int)n_steps, total_cells, cap, seed, &lim, &n_final, &finals, &weight, &expected, &log_scale);
    if (status == ST_NOMEM) { PyErr_NoMemory(); goto done; }
    if (status == ST_SIGNAL) goto done;
    if (status != ST_OK) { result = Py_None; Py_INCREF(result); goto done; }
    PyObject *weights = PyDict_New(), *exp_dict = PyDict_New();
    long double top = 0;
    for (int f = 0; f < n_final; f++) if (weight[f] > top) top = weight[f];
    for (int f = 0; f < n_final && weights && exp_dict; f++) {
        PyObject *key = PyLong_FromLong(finals[f]);
        PyObject *w = PyFloat_FromDouble((double)(weight[f] / top));
        PyDict_SetItem(weights, key, w); Py_XDECREF(w);
        PyObject *row = PyList_New(n_steps);
        for (Py_ssize_t t = 0; t < n_steps; t++) PyList_SET_ITEM(row, t, PyFloat_FromDouble((double)(expected[(size_t)f * n_steps + t] / top)));
        PyDict_SetItem(exp_dict, key, row); Py_DECREF(row);
        Py_DECREF(key);
    }
    if (n_final) log_scale += (double)logl(top);
    result = Py_BuildValue("(dNN)", log_scale, weights, exp_dict);
    free(finals); free(weight); free(expected);
done:
    free(steps); free(pool);
    return result;
}

/* Count the c-th of F's components; returns its Python item (supercells, constraints, (weights, expected) or a
   reason string), or NULL with an exception set. */
static PyObject *count_component(Frontier *F, int c, Limits *lim) {
    int ci = F->info[c].index, m_sc = F->sc_off[ci + 1] - F->sc_off[ci], m_con = F->con_off[ci + 1] - F->con_off[ci];
    const int *scs = F->sc_by_comp + F->sc_off[ci], *cons = F->con_by_comp + F->con_off[ci];
    Counted C;
    if (count_nth(F, c, lim, &C) < 0) return NULL;
    const int *sc_start = F->sc_start, *sc_cells = F->sc_cells, *con_need = F->con_need, *con_source = F->con_source;
    PyObject *item = NULL, *tally_obj = NULL;
    PyObject *sc_list = PyList_New(m_sc), *con_list = PyList_New(m_con);
    if (!sc_list || !con_list) { Py_XDECREF(sc_list); Py_XDECREF(con_list); goto done; }
    for (int a = 0; a < m_sc; a++) {
        int s = scs[a], size = sc_start[s + 1] - sc_start[s];
        PyObject *tup = PyTuple_New(size);
        for (int q = 0; q < size; q++) PyTuple_SET_ITEM(tup, q, cell_int(sc_cells[sc_start[s] + q]));
        PyList_SET_ITEM(sc_list, a, tup);
    }
    for (int i = 0; i < m_con; i++) {
        int len = C.cs_start[i + 1] - C.cs_start[i];
        PyObject *js = PyTuple_New(len);
        for (int q = 0; q < len; q++) PyTuple_SET_ITEM(js, q, PyLong_FromLong(C.cs_list[C.cs_start[i] + q]));
        PyObject *con = PyTuple_New(3);
        if (con) {
            PyTuple_SET_ITEM(con, 0, js);
            PyTuple_SET_ITEM(con, 1, PyLong_FromLong(con_need[cons[i]]));
            PyTuple_SET_ITEM(con, 2, cell_int(con_source[cons[i]]));
        } else {
            Py_XDECREF(js);
        }
        PyList_SET_ITEM(con_list, i, con);
    }
    if (C.status == ST_OK) {
        int L = C.L;
        Garner g = {0};
        if (L && !garner_init(&g, L)) { garner_free(&g); Py_DECREF(sc_list); Py_DECREF(con_list); PyErr_NoMemory(); goto done; }
        PyObject *weights = PyDict_New(), *expected = PyDict_New();
        for (int f = 0; f < C.n_final && weights && expected; f++) {
            PyObject *key = PyLong_FromLong(C.final_k[f]);
            PyObject *w = L ? garner_to_py(&g, C.wk + (size_t)f * L) : u128_to_py(((u128 *)C.wk)[f]);
            PyDict_SetItem(weights, key, w); Py_XDECREF(w);
            PyObject *row = PyList_New(m_sc);
            for (int a = 0; a < m_sc; a++)
                PyList_SET_ITEM(row, a, L ? garner_to_py(&g, C.ek + ((size_t)f * m_sc + a) * L) : u128_to_py(((u128 *)C.ek)[(size_t)f * m_sc + a]));
            PyDict_SetItem(expected, key, row); Py_DECREF(row);
            Py_DECREF(key);
        }
        if (L) garner_free(&g);
        tally_obj = Py_BuildValue("(NN)", weights, expected);
    } else {
        tally_obj = PyUnicode_FromString(status_reason(C.status));
    }
    item = Py_BuildValue("(NNN)", sc_list, con_list, tally_obj);
done:
    counted_free(&C);
    return item;
}

static PyObject *tally(PyObject *self, PyObject *args) {
    Py_buffer view;
    int width, height;
    long max_states;
    Py_ssize_t max_bytes;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iilnd", &view, &width, &height, &max_states, &max_bytes, &seconds)) return NULL;
    if (width <= 0 || height <= 0 || (long)width * height > (1L << 24)) {
        PyBuffer_Release(&view); PyErr_SetString(PyExc_ValueError, "board size out of range"); return NULL;
    }
    int cells = width * height;
    if (view.len != cells) { PyBuffer_Release(&view); PyErr_SetString(PyExc_ValueError, "view length != width*height"); return NULL; }
    Limits lim = {max_states, (size_t)(max_bytes > 0 ? max_bytes : 0), 0, now_seconds() + seconds, 0};
    const signed char *v = view.buf;
    PyObject *result = NULL, *found = NULL;
    Frontier F;
    int lent = 0;
    if (frontier_lend(&F, cells, &lent) < 0) { PyErr_NoMemory(); goto done; }
    int built = frontier_build(v, width, height, &F);
    if (built > 0) { result = Py_BuildValue("(si)", "local", built - 1); goto done; }
    found = PyList_New(0);
    if (!found) goto done;
    for (int c = 0; c < F.n_comp; c++) {
        PyObject *item = count_component(&F, c, &lim);
        if (!item) { Py_CLEAR(found); goto done; }
        PyList_Append(found, item);
        Py_DECREF(item);
    }
    {
        PyObject *un = PyTuple_New(F.n_un);
        if (!un) goto done;
        int n_un = 0;
        for (int c = 0; c < cells; c++) if (v[c] == -1 && !F.touch_count[c]) PyTuple_SET_ITEM(un, n_un++, cell_int(c));
        result = Py_BuildValue("(NN)", found, un);
        found = NULL;
    }
done:
    Py_XDECREF(found);
    frontier_give(&F, lent);
    PyBuffer_Release(&view);
    return result;
}

/* pack(view: tuple of ints -2..8) -> (bytes of the view as signed chars, number of flags): array("b", view) costs a
   PyArg_Parse per cell; this is one pass in C. */
static PyObject *pack(PyObject *self, PyObject *arg) {
    if (!PyTuple_Check(arg)) { PyErr_SetString(PyExc_TypeError, "pack(view): expected a tuple of ints"); return NULL; }
    Py_ssize_t flags = 0;
    PyObject *out = PyBytes_FromStringAndSize(NULL, PyTuple_GET_SIZE(arg));
    if (!out) return NULL;
    if (read_view(arg, (signed char *)PyBytes_AS_STRING(out), &flags, "pack") < 0) { Py_DECREF(out); return NULL; }
    return Py_BuildValue("(Nn)", out, flags);
}

/* obvious(view: tuple of ints -2..8, width, height, mines: bytearray) -> tuple of safe cells (sorted) | None.
   The single-point pass: a number whose known mines (flags, cells marked in `mines`, mines found by the pass) equal
   it frees its other covered neighbours; one whose unknown covered neighbours are exactly its missing mines makes
   them mines (marked in `mines`, which the caller keeps). A worklist of numbers, each re-examined only when a
   neighbour is decided, so the pass is linear in the cells. None when a number cannot hold locally (too many known
   mines, too few cells): the caller then leaves the position to the full analysis, which names the fault. */
static PyObject *obvious(PyObject *self, PyObject *args) {
    PyObject *tup, *seen_obj = Py_None;
    int width, height;
    Py_buffer mb, sb = {0};
    if (!PyArg_ParseTuple(args, "O!iiw*|O", &PyTuple_Type, &tup, &width, &height, &mb, &seen_obj)) return NULL;
    Py_ssize_t cells = (Py_ssize_t)width * height;
    if (seen_obj != Py_None && PyObject_GetBuffer(seen_obj, &sb, PyBUF_WRITABLE) < 0) { PyBuffer_Release(&mb); return NULL; }
    if (width <= 0 || height <= 0 || cells > (1L << 24) || PyTuple_GET_SIZE(tup) != cells || mb.len != cells ||
        (sb.buf && sb.len != 2 * cells + 1)) {
        PyBuffer_Release(&mb);
        if (sb.buf) PyBuffer_Release(&sb);
        PyErr_SetString(PyExc_ValueError, "obvious(view, width, height, mines, seen): sizes disagree");
        return NULL;
    }
    /* seen (optional, 2 * cells + 1 bytes): the view and the mines as the last pass with it left them, and a last
       byte that is 1 when they are valid. The pass then starts from the numbers whose neighbourhood changed since:
       every other number was examined against the state that pass ended in and decided nothing, so the same cells
       come out (the pass's result is its least fixed point, whatever the order). */
    signed char *seen_view = sb.buf ? (signed char *)sb.buf : NULL;
    unsigned char *seen_mine = sb.buf ? (unsigned char *)sb.buf + cells : NULL;
    int incremental = sb.buf && ((unsigned char *)sb.buf)[2 * cells] == 1;
    /* The board padded with a ring of revealed cells (value 9), so that the eight neighbours of a cell are eight fixed
       offsets with no bounds checks; a padded cell p is board cell (p / pw - 1) * width + p % pw - 1. */
    int pw = width + 2;
    size_t padded = (size_t)pw * (size_t)(height + 2);
    unsigned char *mine = mb.buf;
    /* one block: v (padded view), state (0 unknown, 1 mine, 2 safe), inq, then the worklist (ints, aligned) */
    size_t head = (3 * padded + sizeof(int) - 1) / sizeof(int) * sizeof(int);
    unsigned char *block = malloc(head + sizeof(int) * (padded + (size_t)cells));
    PyObject *result = NULL;
    if (!block) { PyErr_NoMemory(); goto done; }
    signed char *v = (signed char *)block;
    unsigned char *state = block + padded, *inq = block + 2 * padded;
    int *work = (int *)(block + head), *changed = work + padded, n_changed = 0;
    memset(v, 9, padded);
    memset(state, 0, 2 * padded);
    const int off[8] = {-pw - 1, -pw, -pw + 1, -1, 1, pw - 1, pw, pw + 1};
    int top = 0;
    for (int y = 0; y < height; y++) {
        int p = (y + 1) * pw + 1;
        for (int x = 0; x < width; x++, p++) {
            Py_ssize_t i = (Py_ssize_t)y * width + x;
            long value = view_value(PyTuple_GET_ITEM(tup, i));
            if (value == -1 && PyErr_Occurred()) goto done;
            if (value < -2 || value > 8) {
                PyErr_Format(PyExc_ValueError, "obvious(view): cell %zd holds %ld", i, value);
                goto done;
            }
            v[p] = (signed char)value;
            if (value >= 0) { if (!incremental) { work[top++] = p; inq[p] = 1; } }
            else if (value == -2 || mine[i]) state[p] = 1;
            if (incremental && (seen_view[i] != value || seen_mine[i] != mine[i])) changed[n_changed++] = p;
        }
    }
    for (int q = 0; q < n_changed; q++) { /* a changed cell: it and the numbers around it are looked at again */
        int p = changed[q];
        if (v[p] >= 0 && !inq[p]) { inq[p] = 1; work[top++] = p; }
        for (int r = 0; r < 8; r++) {
            int m = p + off[r];
            if (v[m] >= 0 && v[m] <= 8 && !inq[m]) { inq[m] = 1; work[top++] = m; }
        }
    }
    int n_safe = sp_settle(v, state, inq, work, top, off, NULL), bad = n_safe < 0;
    if (bad) { result = Py_None; Py_INCREF(result); goto done; }
    result = PyTuple_New(n_safe);
    if (!result) goto done;
    for (int y = 0, j = 0; y < height; y++) {
        int p = (y + 1) * pw + 1;
        for (int x = 0; x < width; x++, p++) {
            int i = y * width + x;
            if (v[p] == -1) {
                if (state[p] == 1) mine[i] = 1;
                else if (state[p] == 2) {
                    PyObject *cell = cell_int(i);
                    if (!cell) { Py_CLEAR(result); goto done; }
                    PyTuple_SET_ITEM(result, j++, cell);
                }
            }
            if (seen_view) { /* a freed cell counts as changed next time, revealed or not */
                seen_view[i] = state[p] == 2 ? 9 : v[p];
                seen_mine[i] = mine[i];
            }
        }
    }
done:
    free(block);
    if (sb.buf) { ((unsigned char *)sb.buf)[2 * cells] = result != NULL && result != Py_None; PyBuffer_Release(&sb); }
    PyBuffer_Release(&mb);
    return result;
}

static PyMethodDef methods[] = {
    {"pack", pack, METH_O,
     "pack(view) -> (bytes, flags): a view (a tuple of ints -2..8) as the signed bytes tally reads, and its flag count."},
    {"obvious", obvious, METH_VARARGS,
     "obvious(view, width, height, mines, seen=None) -> sorted tuple of the cells a lone number frees, or None when a number\n"
     "cannot hold locally; mines (a bytearray, one byte per cell) holds the known mines and gains those the pass finds.\n"
     "seen (a bytearray of 2 * cells + 1 bytes, zeros at first) lets the next pass of the same game start from what changed."},
    {"tally", tally, METH_VARARGS,
     "tally(view: bytes, width, height, max_states, max_bytes, seconds) -> "
     "([(supercells, constraints, (weights, expected) | reason)], unconstrained cells)\n"
     "or ('local', cell) when a number cannot hold locally. A reason ('states', 'memory', 'time', 'wide') says why a\n"
     "component was left uncounted; components come smallest first."},
    {"sample", sample, METH_VARARGS,
     "sample(sizes, steps, cap, seed, seconds, max_bytes) -> (log_scale, {k: weight}, {k: [expected per step]}) | None\n"
     "One run of the sampled count (resampled merged states) over counting.py's _Plan; None past the time or memory."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The exact engine's counting stage in C.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    count_init();
    return PyModule_Create(&module);
}
