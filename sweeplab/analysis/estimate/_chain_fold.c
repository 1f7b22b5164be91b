/* A whole component counted in floating point and folded against the rest of the position (analysis/estimate/folding.py):
 * the chain's count (forward() in _chain.c, whose buffers, steps and binomials it shares: _chain.c includes this
 * file) over every super-cell at once, each final mine count weighted by the rest's completions, then a backward
 * pass that keeps two layers of completions; the layers of a fold for the weights alone may be kept for later
 * backward passes (fold_keep, fold_back). A wide fold is thinned (FOLD_THIN): it keeps the vectors of every stride-th
 * layer alone, and its backward pass replays the others a segment at a time, so its memory grows as the square root
 * of its layers. The orders to count in are in _chain_order.c. */

typedef struct {
    double *means;    /* per step: its super-cell's expected mines given the rest (n entries, the caller's) */
    double *weights;  /* the component's weight per mine count from low (len entries, malloc'ed here; largest 1) */
    int low, len;
    double log_scale; /* the natural log of the factor the weights were divided by */
} Folded;

#define FOLD_KEEP ((size_t)1 << 22) /* a fold that reached more entries than this frees the thread's buffers */
/* A fold whose vectors would hold more entries than this (8 MiB) is thinned (thin_layers): it keeps about twice the
   square root of its layers' vectors, and its backward pass replays the others. Ad hoc, on the 10 components of 500
   super-cells or more of three 65,536-cell positions at density 0.25 and 0.3 with 30 % revealed, each in its quickest
   order: thinned past 2^20 entries rather than past 2^25, the folds for the weights took 1.5 s in all rather than
   2.4 s (they write to far less fresh memory), their backward passes 2.4 s rather than 2.1 s, and the largest kept
   36 MiB rather than 1 GiB. Against folds that keep every layer: results/large/thinned/orders-*. */
#define FOLD_THIN ((size_t)1 << 20)

/* The buffers of the calling thread, freed (they are kept between calls, and a fold's may be large). */
static void free_buffers(void) {
    free(keys_buf); free(alpha_buf); free(beta_buf); free(start_buf); free(next_buf); free(table_buf); free(used_buf); free(v_buf);
    free(low_buf); free(len_buf); free(at_buf);
    keys_buf = NULL; alpha_buf = beta_buf = NULL; start_buf = next_buf = table_buf = used_buf = low_buf = len_buf = NULL;
    v_buf = NULL; at_buf = NULL;
    keys_cap = states_cap = tr_cap = entries_cap = beta_cap = 0;
    table_size = 0;
}

/* A fold's layers kept for its backward passes (fold_keep, then fold_back): its steps, its layers' offsets and the
   arrays a backward pass reads, taken from the thread's buffers (which start afresh). */
typedef struct {
    Py_ssize_t n;
    Step *steps;
    int *pool;
    size_t *off;
    int *start, *next, *low, *len;
    unsigned char *v;
    size_t *at;
    double *alpha;
    size_t *shift; /* where each layer's vectors lie in alpha, and the layers kept (see Layers) */
    double *peak;
    size_t stride;
    double log_scale; /* the fold's (see Folded) */
    size_t bytes;     /* what the kept arrays hold */
} Kept;

static void kept_free(Kept *K) {
    if (!K) return;
    free(K->steps); free(K->pool); free(K->off); free(K->start); free(K->next); free(K->low); free(K->len); free(K->v);
    free(K->at); free(K->alpha); free(K->shift); free(K->peak);
    free(K);
}

static Arrays kept_arrays(const Kept *K) {
    return (Arrays){K->start, K->next, K->low, K->len, K->v, K->at, K->alpha, K->shift, K->peak, K->stride};
}

/* The layers c + 1 .. top (top < the steps n) of a thinned count, replayed from its layer c (kept) into seg
   (layer s's vectors at seg + at[...] - at[off[c + 1]]), each divided by the largest entry it was divided by when
   first counted: the same values, as advance() adds them up in the same order. */
static void replay(const Arrays *A, const size_t *off, const Step *steps, size_t c, size_t top, double *seg) {
    size_t base = A->at[off[c + 1]];
    for (size_t s = c; s < top; s++) {
        size_t from = A->at[off[s + 1]], to = A->at[off[s + 2]];
        memset(seg + (from - base), 0, (to - from) * sizeof(double));
        if (s == c) advance(A, off[s], off[s + 1], binom[steps[s].size], A->alpha, A->shift[c], seg, base);
        else advance(A, off[s], off[s + 1], binom[steps[s].size], seg, base, seg, base);
        if (A->peak[s + 1] > 0)
            for (size_t q = from; q < to; q++) seg[q - base] /= A->peak[s + 1];
    }
}

/* The backward pass of a fold over its layers (A, off: layer t holds states off[t] .. off[t + 1] - 1), each final
   count k (out->low + q, of weight out->weights[q]) weighted by exp(hw[k]): each step's expected mines given the rest
   into out->means, two layers of completions at a time in the thread's beta buffer. MOVE_NONE when the rest completes
   no count the component can hold; MOVE_TIME past deadline (when positive); MOVE_NOMEM. */
static int fold_back_pass(const Arrays *A, const size_t *off, const Step *steps, Py_ssize_t n, const double *hw,
                          Py_ssize_t n_weights, double deadline, Folded *out) {
    const double *last = out->weights;
    int low = out->low, len = out->len;
    size_t widest = (size_t)len, stride = A->stride, longest = 0; /* the widest layer's entries; a segment's */
    for (Py_ssize_t t = 0; t < n; t++) {
        size_t first = A->at[off[t]], end = A->at[off[t + 1] - 1] + (size_t)A->len[off[t + 1] - 1];
        if (end - first > widest) widest = end - first;
    }
    for (size_t c = 0; stride > 1 && c + 1 < (size_t)n; c += stride) { /* the layers replayed after c: c + 1 .. top */
        size_t top = c + stride - 1 < (size_t)n - 1 ? c + stride - 1 : (size_t)n - 1;
        if (A->at[off[top + 1]] - A->at[off[c + 1]] > longest) longest = A->at[off[top + 1]] - A->at[off[c + 1]];
    }
    if (!ensure_beta(2 * widest)) return MOVE_NOMEM;
    double *seg = longest ? malloc(longest * sizeof(double)) : NULL;
    if (longest && !seg) return MOVE_NOMEM;
    size_t replayed = (size_t)-1; /* the checkpoint whose segment seg holds */
    double *below = beta_buf, *above = beta_buf + widest;
    double peak = -HUGE_VAL;
    int status = MOVE_NONE;
    for (int q = 0; q < len; q++)
        if (last[q] > 0 && low + q < n_weights && hw[low + q] > peak) peak = hw[low + q];
    double z = 0.0;
    for (int q = 0; q < len; q++) {
        int k = low + q;
        below[q] = last[q] > 0 && k < n_weights ? exp(hw[k] - peak) : 0.0;
        z += last[q] * below[q];
    }
    if (!(z > 0)) goto done;
    size_t checked = 0;
    for (Py_ssize_t t = n - 1; t >= 0; t--) {
        const double *bn = binom[steps[t].size];
        size_t base = A->at[off[t]], base_next = A->at[off[t + 1]];
        const double *alpha = A->alpha; /* state i's vector at alpha + at[i] - shift */
        size_t shift = A->shift[t];
        if ((size_t)t % stride != 0) { /* thinned away: replayed from the checkpoint before it */
            size_t c = (size_t)t - (size_t)t % stride;
            if (replayed != c) {
                if (deadline > 0 && clock_now() > deadline) { status = MOVE_TIME; goto done; }
                replay(A, off, steps, c, c + stride - 1 < (size_t)n - 1 ? c + stride - 1 : (size_t)n - 1, seg);
                replayed = c;
            }
            alpha = seg;
            shift = A->at[off[c + 1]];
        }
        double weighted = 0.0, mines = 0.0, top = 0.0;
        for (size_t i = off[t]; i < off[t + 1]; i++) {
            if (deadline > 0 && ++checked % 4096 == 0 && clock_now() > deadline) { status = MOVE_TIME; goto done; }
            double peak_i = state_completions(A, i, alpha + (A->at[i] - shift), bn, below, base_next, above + (A->at[i] - base),
                                              &weighted, &mines);
            if (peak_i > top) top = peak_i;
        }
        if (top > 0) {
            size_t entries = A->at[off[t + 1] - 1] + (size_t)A->len[off[t + 1] - 1] - base;
            for (size_t q = 0; q < entries; q++) above[q] /= top;
        }
        out->means[t] = weighted > 0 ? mines / weighted : 0.0;
        double *swap = below; below = above; above = swap;
    }
    status = MOVE_OK;
done:
    free(seg);
    return status;
}

/* The fold over parsed steps, in C alone (runs without the GIL). hw[k] is the log of the rest's completions of a
   component holding k mines (-inf: none); with hw NULL, the weights alone (no backward pass, every mean 0), and with
   kept not NULL the layers are kept in *kept for later backward passes (fold_back_pass; NULL when no layout fits).
   Returns MOVE_OK with out filled in (out->len 0: no layout fits the component's numbers, a proof), MOVE_NONE past
   max_states states in a step or max_entries entries in all, or when the rest completes no count the component can
   hold; MOVE_TIME past deadline, or once *stop is set in its count (when not NULL); MOVE_NOMEM. *done: the steps its
   count did. */
static int compute_fold(Step *steps, Py_ssize_t n, const double *hw, Py_ssize_t n_weights, int max_states, size_t max_entries,
                        double deadline, const volatile unsigned char *stop, Folded *out, Kept **kept, Py_ssize_t *done) {
    Layers L = {0};
    size_t thin_at = FOLD_THIN < max_entries ? FOLD_THIN : max_entries;
    int status = forward(steps, n, max_states, max_entries, max_entries, thin_at, deadline, stop, &L);
    size_t *off = L.off;
    *done = L.done;
    out->weights = NULL; out->len = 0; out->low = 0; out->log_scale = L.log_scale;
    if (status != MOVE_OK) goto done;
    if (off[n + 1] == off[n]) goto done; /* no state reached the end: no layout */
    status = MOVE_NOMEM;
    size_t f = off[n]; /* every number is closed after the last step: the one state of the last layer */
    int low = low_buf[f], len = len_buf[f];
    const double *last = alpha_buf + (at_buf[f] - L.shift[n]);
    out->weights = malloc(sizeof(double) * (size_t)len);
    if (!out->weights) goto done;
    memcpy(out->weights, last, sizeof(double) * (size_t)len);
    out->low = low; out->len = len;
    if (kept) { /* the thread's arrays become the kept ones (trimmed to what they hold) */
        Kept *K = *kept = calloc(1, sizeof(Kept));
        if (!K) goto done;
        size_t states = off[n + 1], transitions = (size_t)start_buf[off[n]], entries = L.held;
        K->n = n; K->off = off; L.off = NULL; K->log_scale = L.log_scale;
        K->shift = L.shift; K->peak = L.peak; K->stride = L.stride; L.shift = NULL; L.peak = NULL;
        K->start = start_buf; K->low = low_buf; K->len = len_buf; K->at = at_buf; K->next = next_buf; K->v = v_buf;
        K->alpha = alpha_buf;
        start_buf = low_buf = len_buf = next_buf = NULL; at_buf = NULL; v_buf = NULL; alpha_buf = NULL;
        states_cap = tr_cap = entries_cap = 0;
        double *alpha = realloc(K->alpha, sizeof(double) * (entries ? entries : 1));
        if (alpha) K->alpha = alpha;
        K->bytes = states * (3 * sizeof(int) + sizeof(size_t)) + transitions * (sizeof(int) + 1) + entries * sizeof(double) +
                   ((size_t)n + 2) * (sizeof(size_t) + sizeof(double));
    }
    if (!hw) {
        memset(out->means, 0, sizeof(double) * (size_t)(n ? n : 1));
        status = MOVE_OK;
        goto done;
    }
    Arrays A = kept && *kept ? kept_arrays(*kept) : thread_arrays(&L);
    status = fold_back_pass(&A, off, steps, n, hw, n_weights, deadline, out);
done:
    if (status != MOVE_OK) {
        free(out->weights); out->weights = NULL;
        if (kept) { kept_free(*kept); *kept = NULL; }
    }
    if (L.entries > FOLD_KEEP) free_buffers();
    layers_free(&L);
    return status;
}

#define KEPT_NAME "sweeplab.analysis.estimate._chain.Kept"

static void kept_destroy(PyObject *capsule) { kept_free(PyCapsule_GetPointer(capsule, KEPT_NAME)); }

/* The Python result of a fold: (low, weights, log_scale, means), or with keep (low, weights, log_scale, kept, bytes,
   thinned), kept the layers' capsule (None when no layout fits); NULL with an exception set. Takes the kept layers (freed on
   failure). */
static PyObject *fold_result(const Folded *out, Py_ssize_t n, Kept *kept, int keep) {
    PyObject *ws = PyList_New(out->len), *tail = NULL, *result = NULL;
    Py_ssize_t bytes = kept ? (Py_ssize_t)kept->bytes : 0;
    int thinned = kept && kept->stride > 1;
    int ok = ws != NULL;
    for (int q = 0; ok && q < out->len; q++) {
        PyObject *item = PyFloat_FromDouble(out->weights[q]);
        if (!item) ok = 0; else PyList_SET_ITEM(ws, q, item);
    }
    if (ok && keep && kept) {
        tail = PyCapsule_New(kept, KEPT_NAME, kept_destroy);
        if (tail) kept = NULL; /* the capsule owns it */
    } else if (ok && keep) {
        tail = Py_None;
        Py_INCREF(tail);
    } else if (ok) {
        tail = PyList_New(n);
        for (Py_ssize_t t = 0; tail && t < n; t++) {
            PyObject *item = PyFloat_FromDouble(out->means[t]);
            if (!item) { Py_CLEAR(tail); break; }
            PyList_SET_ITEM(tail, t, item);
        }
    }
    if (ok && tail) result = keep ? Py_BuildValue("(iNdNnN)", out->low, ws, out->log_scale, tail, bytes, PyBool_FromLong(thinned))
                                  : Py_BuildValue("(iNdN)", out->low, ws, out->log_scale, tail);
    else { Py_XDECREF(ws); Py_XDECREF(tail); }
    kept_free(kept);
    return result;
}

/* fold's and fold_keep's work: the steps parsed, the fold run without the GIL, its result (None past its limits).
   stop: NULL, None, or a writable buffer whose first byte, once set (by another thread), stops the fold. */
static PyObject *run_fold(PyObject *sizes, PyObject *plan, PyObject *need_list, PyObject *weights, int max_states,
                          long long max_entries, double seconds, int keep, PyObject *stop) {
    if (max_entries < 1) max_entries = 1;
    Py_buffer flag = {0};
    if (stop && stop != Py_None) {
        if (PyObject_GetBuffer(stop, &flag, PyBUF_WRITABLE) < 0) return NULL;
        if (flag.len < 1) {
            PyBuffer_Release(&flag);
            PyErr_SetString(PyExc_ValueError, "fold_keep: stop must hold at least one byte");
            return NULL;
        }
    }
    const volatile unsigned char *stop_at = flag.buf ? (const volatile unsigned char *)flag.buf : NULL;
    Py_ssize_t n = 0, n_weights = 0;
    Step *steps = NULL;
    int *pool = NULL;
    double *hw = NULL;
    PyObject *result = NULL;
    Kept *kept = NULL;
    if (!sequence_steps(sizes, plan, need_list, &steps, &pool, &n) || (weights != Py_None && !(hw = read_weights(weights, &n_weights))))
        goto done;
    Folded out = {malloc(sizeof(double) * ((size_t)n + 1)), NULL, 0, 0, 0.0};
    if (!out.means) { PyErr_NoMemory(); goto done; }
    int status;
    Py_ssize_t done_steps = 0;
    double deadline = clock_now() + (seconds > 0 ? seconds : 0.0);
    Py_BEGIN_ALLOW_THREADS
    status = compute_fold(steps, n, hw, n_weights, max_states, (size_t)max_entries, deadline, stop_at, &out, keep ? &kept : NULL,
                          &done_steps);
    Py_END_ALLOW_THREADS
    if (status == MOVE_NOMEM) {
        PyErr_NoMemory();
    } else if (status != MOVE_OK) {
        result = keep ? PyLong_FromSsize_t(done_steps) : Py_None;
        if (!keep) Py_INCREF(result);
    } else {
        if (kept) { kept->steps = steps; kept->pool = pool; steps = NULL; pool = NULL; } /* the backward passes' */
        result = fold_result(&out, n, kept, keep);
        kept = NULL;
    }
    free(out.means); free(out.weights);
done:
    kept_free(kept);
    free(steps); free(pool); free(hw);
    if (flag.buf) PyBuffer_Release(&flag);
    return result;
}

/* fold(sizes, steps, needs, log_weights, max_states, max_entries, seconds) -> (low, weights, log_scale, means) | None */
static PyObject *fold(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sizes, *plan, *need_list, *weights;
    int max_states;
    long long max_entries;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOOOiLd", &sizes, &plan, &need_list, &weights, &max_states, &max_entries, &seconds)) return NULL;
    return run_fold(sizes, plan, need_list, weights, max_states, max_entries, seconds, 0, NULL);
}

/* fold_keep(sizes, steps, needs, max_states, max_entries, seconds[, stop]) -> (low, weights, log_scale, kept, bytes,
   thinned) | done */
static PyObject *fold_keep(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sizes, *plan, *need_list, *stop = NULL;
    int max_states;
    long long max_entries;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOOiLd|O", &sizes, &plan, &need_list, &max_states, &max_entries, &seconds, &stop)) return NULL;
    return run_fold(sizes, plan, need_list, Py_None, max_states, max_entries, seconds, 1, stop);
}

/* fold_back(kept, log_weights, seconds) -> (low, weights, log_scale, means) | None */
static PyObject *fold_back(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *weights;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOd", &capsule, &weights, &seconds)) return NULL;
    Kept *K = PyCapsule_GetPointer(capsule, KEPT_NAME);
    if (!K) return NULL;
    Py_ssize_t n_weights = 0;
    double *hw = read_weights(weights, &n_weights);
    if (!hw) return NULL;
    size_t f = K->off[K->n];
    Folded out = {malloc(sizeof(double) * ((size_t)K->n + 1)), K->alpha + (K->at[f] - K->shift[K->n]), K->low[f], K->len[f],
                  K->log_scale};
    PyObject *result = NULL;
    if (!out.means) { free(hw); return PyErr_NoMemory(); }
    int status;
    double deadline = clock_now() + (seconds > 0 ? seconds : 0.0);
    Arrays A = kept_arrays(K);
    Py_BEGIN_ALLOW_THREADS
    status = fold_back_pass(&A, K->off, K->steps, K->n, hw, n_weights, deadline, &out);
    Py_END_ALLOW_THREADS
    if (status == MOVE_NOMEM) PyErr_NoMemory();
    else if (status != MOVE_OK) { result = Py_None; Py_INCREF(result); }
    else result = fold_result(&out, K->n, NULL, 0);
    free(out.means); free(hw);
    return result;
}
