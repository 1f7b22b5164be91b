/* One move of the chain over a component's solutions (sweeplab/analysis/estimate/chain.py, whose _Chain.move is the
 * pure-Python twin): a block's exact count over the count's plan (merged partial states keyed by the needs of the
 * open numbers, each holding its weight for every number of mines so far), each final count weighted by the rest of
 * the position, then the backward pass (each step's expected mines) and a forward draw of the block's new mines per
 * step. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

/* The count's innermost loops (advance, state_completions) in a second version for CPUs with AVX2, chosen as the
   module loads (glibc's ifunc): the same operations in the same order, so the same results to the bit (setup.py
   builds this module with -ffp-contract=off: no multiply is fused into an add in either version). */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef SIMD_CLONES
#define SIMD_CLONES
#endif

#define MAX_OPEN 250 /* open numbers a key holds (each a byte) */

typedef struct {
    int size, n_active, n_opened, n_touch, n_keep;
    int *opened, *slot, *cap, *keep; /* into one pool per call */
} Step;

static double binom[9][9];

/* Buffers kept between calls, one set per thread (a move runs without the GIL, so two chains can move at once in
   two threads): the states of every layer one after another. */
static _Thread_local unsigned char *keys_buf;
static _Thread_local double *alpha_buf, *beta_buf;         /* each state's vector over its mines so far, one pool */
static _Thread_local int *start_buf, *next_buf, *table_buf, *used_buf, *low_buf, *len_buf;
static _Thread_local size_t *at_buf;                        /* where each state's vector starts in the pools */
static _Thread_local unsigned char *v_buf;
static _Thread_local size_t keys_cap, states_cap, tr_cap, entries_cap, beta_cap;
static _Thread_local int table_size;

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
    if (!grow((void **)&start_buf, NULL, cap + 1, sizeof(int)) || !grow((void **)&low_buf, NULL, cap, sizeof(int)) ||
        !grow((void **)&len_buf, NULL, cap, sizeof(int)) || !grow((void **)&at_buf, NULL, cap, sizeof(size_t)))
        return 0;
    states_cap = cap;
    return 1;
}

/* alpha_buf and beta_buf grow apart: a fold keeps beta for two layers only */
static int ensure_doubles(double **buf, size_t *cap_now, size_t want) {
    if (want <= *cap_now) return 1;
    size_t cap = *cap_now ? *cap_now : 65536;
    while (cap < want) cap *= 2;
    if (!grow((void **)buf, NULL, cap, sizeof(double))) return 0;
    *cap_now = cap;
    return 1;
}
static int ensure_entries(size_t want) { return ensure_doubles(&alpha_buf, &entries_cap, want); }
static int ensure_beta(size_t want) { return ensure_doubles(&beta_buf, &beta_cap, want); }

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

/* A key's hash, eight bytes at a time (where a state lands in the table: the states and their order do not depend
   on it). */
static inline uint64_t hash_key(const unsigned char *key, int len) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)len, w;
    int i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, key + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    w = 0;
    for (int b = 0; i < len; i++, b += 8) w |= (uint64_t)key[i] << b;
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

typedef struct {
    double *means; /* per step: the expected mines given the rest (n entries, the caller's) */
    int *values;   /* per step: the drawn mines (n entries, the caller's) */
    double *cnt;   /* per final count 0..top: its probability (malloc'ed here) */
    int top, count;
} Moved;

/* The layers of a count over parsed steps, left in the thread's buffers by forward(): layer t holds the states
   before step t (off[t] .. off[t + 1] - 1), their keys (klen[t] bytes each, from key_off[t]) and each state's vector
   of weights (scaled: each layer's largest is 1), state i's of layer t at alpha_buf + at_buf[i] - shift[t]. A thinned
   count (stride > 1) keeps the vectors of layers 0, stride, 2 stride, ... and the last one alone; a backward pass
   replays the others from them (replay), a segment at a time. */
typedef struct {
    size_t *off, *key_off;
    int *klen;
    size_t *shift;          /* per layer: where its vectors lie in alpha_buf (0 throughout unless thinned) */
    double *peak;           /* per layer: the largest entry its vectors were divided by (0: not divided) */
    size_t stride;          /* 1: every layer's vectors kept */
    size_t entries, states; /* the vectors' entries and the states over every layer (the layers done, on a give-up) */
    size_t held;            /* the entries alpha_buf holds (entries, unless thinned) */
    Py_ssize_t done;        /* the steps done (all of them on MOVE_OK) */
    double log_scale;       /* the natural log of the factor the last layer's weights were divided by */
} Layers;

static void layers_free(Layers *L) { free(L->off); free(L->key_off); free(L->klen); free(L->shift); free(L->peak); }

/* The arrays a backward pass reads, after forward(): the thread's buffers (thread_arrays), or a fold's kept ones. */
typedef struct {
    const int *start, *next, *low, *len;
    const unsigned char *v;
    const size_t *at;
    const double *alpha;
    const size_t *shift; /* the layers' (see Layers) */
    const double *peak;
    size_t stride;
} Arrays;

static Arrays thread_arrays(const Layers *L) {
    return (Arrays){start_buf, next_buf, low_buf, len_buf, v_buf, at_buf, alpha_buf, L->shift, L->peak, L->stride};
}

/* Adds the vectors of layer t's states i0 .. i1 - 1 (state i's at src + at[i] - src_shift) into those of the next
   layer's (at dst + at[j] - dst_shift) along their transitions, each weighted by the ways of its step's mines: the
   count's step, done alike by forward() and replay(), so a replayed layer equals the one first counted. */
SIMD_CLONES static void advance(const Arrays *A, size_t i0, size_t i1, const double *bn, const double *src, size_t src_shift,
                                double *dst, size_t dst_shift) {
    for (size_t i = i0; i < i1; i++) {
        const double *s = src + (A->at[i] - src_shift);
        int len = A->len[i], from = A->low[i], end = A->start[i + 1];
        for (int e = A->start[i]; e < end; e++) {
            size_t j = (size_t)A->next[e];
            int v = A->v[e];
            double w = bn[v];
            double *d = dst + (A->at[j] - dst_shift) + (from + v - A->low[j]);
            for (int q = 0; q < len; q++) d[q] += s[q] * w;
        }
    }
}

/* Thins a count's layers at step t (layer t its last, the next step's source; every layer kept so far): alpha_buf
   keeps layer 0, every stride-th layer (stride about the square root of the n steps) and layer t, moved down;
   *held is what it holds then, and *source where layer t starts in it. */
static void thin_layers(Layers *L, Py_ssize_t t, Py_ssize_t n, size_t entries, size_t *held, size_t *source) {
    size_t stride = 2, w = 1;
    while (stride * stride < (size_t)n) stride++;
    L->stride = stride;
    *source = 0;
    for (Py_ssize_t s = 1; s <= t; s++) {
        size_t from = at_buf[L->off[s]], to = s < t ? at_buf[L->off[s + 1]] : entries;
        if (s == t || (size_t)s % stride == 0) {
            memmove(alpha_buf + w, alpha_buf + from, (to - from) * sizeof(double));
            L->shift[s] = from - w;
            if (s == t) *source = w;
            w += to - from;
        }
    }
    *held = w;
}

static double clock_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What compute_move and its kin leave: OK with the outputs filled in, NONE past their limits (or no weight at any
   count), NOMEM, NOPICK (a draw with no completion: cannot happen), TIME (past the deadline). */
enum { MOVE_OK, MOVE_NONE, MOVE_NOMEM, MOVE_NOPICK, MOVE_TIME };

/* The forward pass of a count over parsed steps, in C alone (no Python object is touched, so it runs without the
   GIL). A state is the needs of the open numbers; it holds a vector over the mines so far (from low to low + len - 1:
   the counts its paths reach, gaps held as 0), so a step's hashing and its transitions are per needs, not per
   (mines, needs), and the vectors add up element by element. Past max_states states in a step, layer_cap entries
   of a layer's vectors or total_cap entries held in all it returns MOVE_NONE; where the vectors would hold more
   than thin_at (when not 0), it thins them first (thin_layers: a backward pass replays the others). Past deadline
   (when positive), or once *stop is set (when not NULL: another thread's), it returns MOVE_TIME (both checked
   every 4,096 states). L is filled in on MOVE_OK (its counts on any return), and its arrays are the caller's to
   free (layers_free) whatever it returns. */
static int forward(Step *steps, Py_ssize_t n, int max_states, size_t layer_cap, size_t total_cap, size_t thin_at, double deadline,
                   const volatile unsigned char *stop, Layers *L) {
    if (max_states < 1) max_states = 1;
    size_t *off = L->off = calloc((size_t)n + 2, sizeof(size_t)), *key_off = L->key_off = calloc((size_t)n + 2, sizeof(size_t));
    int *klen = L->klen = calloc((size_t)n + 2, sizeof(int));
    L->shift = calloc((size_t)n + 2, sizeof(size_t));
    L->peak = calloc((size_t)n + 2, sizeof(double));
    L->stride = 1;
    L->log_scale = 0.0;
    int status = MOVE_NOMEM;
    if (!off || !key_off || !klen || !L->shift || !L->peak) goto done;
    if (table_size < 2 * max_states) {
        int size = 16;
        while (size < 2 * max_states) size <<= 1;
        int *t1 = realloc(table_buf, sizeof(int) * (size_t)size), *t2 = t1 ? realloc(used_buf, sizeof(int) * (size_t)size) : NULL;
        if (t1) table_buf = t1;
        if (t2) used_buf = t2;
        if (!t1 || !t2) goto done;
        memset(table_buf, -1, sizeof(int) * (size_t)size);
        table_size = size;
    }
    /* layer t holds the states before step t (off[t] .. off[t + 1] - 1); keys: the open needs, a byte each */
    if (!ensure_states(2) || !ensure_keys(1) || !ensure_transitions(16) || !ensure_entries(1)) goto done;
    klen[0] = 0;
    low_buf[0] = 0; len_buf[0] = 1; at_buf[0] = 0;
    alpha_buf[0] = 1.0;
    off[0] = 0; off[1] = 1; key_off[0] = 0; key_off[1] = 0;
    size_t tr_n = 0, entries = 1, states = 1, checked = 0, held = 1, source = 0; /* source: where layer t starts */
    L->entries = entries; L->states = states; L->held = held;
    int needs[2 * MAX_OPEN];
    unsigned char key[MAX_OPEN + 1];
    for (Py_ssize_t t = 0; t < n; t++) {
        Step *st = &steps[t];
        size_t reach = (off[t + 1] - off[t]) * (size_t)(st->size + 1);
        int mask = 15;
        while ((size_t)mask + 1 < 2 * reach && mask + 1 < table_size) mask = 2 * mask + 1;
        const double *bn = binom[st->size];
        int kl = st->n_keep, n_used = 0;
        size_t base = off[t + 1], kbase = key_off[t + 1];
        int count = 0;
        klen[t + 1] = kl;
        /* the states after the step and each state's transitions; a new state's range of mines so far grows to
           cover every path into it (len_buf holds the range's top until the vectors are laid out) */
        for (size_t i = off[t]; i < off[t + 1]; i++) {
            if (++checked % 4096 == 0 && ((deadline > 0 && clock_now() > deadline) || (stop && *stop))) {
                for (int u = 0; u < n_used; u++) table_buf[used_buf[u]] = -1; /* the table is kept between calls */
                status = MOVE_TIME;
                goto done;
            }
            const unsigned char *kk = keys_buf + key_off[t] + (i - off[t]) * (size_t)klen[t];
            for (int a = 0; a < st->n_active; a++) needs[a] = (signed char)kk[a];
            for (int a = 0; a < st->n_opened; a++) needs[st->n_active + a] = st->opened[a];
            int lo = 0, hi = st->size;
            for (int q = 0; q < st->n_touch; q++) {
                int r = needs[st->slot[q]];
                if (r < hi) hi = r;
                if (r - st->cap[q] > lo) lo = r - st->cap[q];
            }
            start_buf[i] = (int)tr_n;
            int from = low_buf[i], to = low_buf[i] + len_buf[i] - 1;
            for (int v = lo; v <= hi; v++) {
                for (int q = 0; q < st->n_touch; q++) needs[st->slot[q]] -= v;
                for (int q = 0; q < st->n_keep; q++) key[q] = (unsigned char)(signed char)needs[st->keep[q]];
                for (int q = 0; q < st->n_touch; q++) needs[st->slot[q]] += v;
                uint64_t h = hash_key(key, kl);
                int p = (int)(h & (uint64_t)mask), j = -1;
                for (;; p = (p + 1) & mask) {
                    int e = table_buf[p];
                    if (e < 0) break;
                    if (!memcmp(keys_buf + kbase + (size_t)e * (size_t)kl, key, (size_t)kl)) { j = e; break; }
                }
                if (j < 0) {
                    if (count >= max_states || !ensure_states(base + (size_t)count + 2) ||
                        !ensure_keys(kbase + (size_t)(count + 1) * (size_t)kl + 1)) {
                        for (int u = 0; u < n_used; u++) table_buf[used_buf[u]] = -1;
                        if (count >= max_states) status = MOVE_NONE;
                        goto done;
                    }
                    j = count++;
                    memcpy(keys_buf + kbase + (size_t)j * (size_t)kl, key, (size_t)kl);
                    low_buf[base + (size_t)j] = from + v;
                    len_buf[base + (size_t)j] = to + v;
                    table_buf[p] = j;
                    used_buf[n_used++] = p;
                } else {
                    if (from + v < low_buf[base + (size_t)j]) low_buf[base + (size_t)j] = from + v;
                    if (to + v > len_buf[base + (size_t)j]) len_buf[base + (size_t)j] = to + v;
                }
                if (!ensure_transitions(tr_n + 1)) {
                    for (int u = 0; u < n_used; u++) table_buf[used_buf[u]] = -1;
                    goto done;
                }
                next_buf[tr_n] = (int)base + j;
                v_buf[tr_n] = (unsigned char)v;
                tr_n++;
            }
        }
        start_buf[off[t + 1]] = (int)tr_n; /* the end of the layer's last state's transitions (and, as the next layer's
                                              first state is counted, its start: the same value) */
        for (int u = 0; u < n_used; u++) table_buf[used_buf[u]] = -1;
        off[t + 2] = base + (size_t)count;
        key_off[t + 2] = kbase + (size_t)count * (size_t)kl;
        states += (size_t)count;
        size_t layer = 0;
        for (size_t j = base; j < off[t + 2]; j++) {
            len_buf[j] = len_buf[j] - low_buf[j] + 1;
            at_buf[j] = entries + layer;
            layer += (size_t)len_buf[j];
        }
        if (layer > layer_cap) {
            status = MOVE_NONE; goto done;
        }
        if (thin_at && held + layer > thin_at && L->stride == 1) thin_layers(L, t, n, entries, &held, &source);
        if (held + layer > total_cap) {
            status = MOVE_NONE; goto done;
        }
        size_t dst = held; /* where the new layer starts in alpha_buf */
        L->shift[t + 1] = entries - dst;
        if (!ensure_entries(held + layer)) goto done;
        memset(alpha_buf + dst, 0, layer * sizeof(double));
        Arrays A = thread_arrays(L);
        advance(&A, off[t], off[t + 1], bn, alpha_buf, L->shift[t], alpha_buf, L->shift[t + 1]);
        double peak = 0.0;
        for (size_t q = dst; q < dst + layer; q++) if (alpha_buf[q] > peak) peak = alpha_buf[q];
        if (peak > 0) {
            for (size_t q = dst; q < dst + layer; q++) alpha_buf[q] /= peak;
            L->log_scale += log(peak);
        }
        L->peak[t + 1] = peak;
        held = dst + layer;
        if (L->stride > 1 && (size_t)t % L->stride != 0) { /* layer t is no checkpoint: the new one takes its place */
            memmove(alpha_buf + source, alpha_buf + dst, layer * sizeof(double));
            L->shift[t + 1] += dst - source;
            dst = source;
            held = dst + layer;
        }
        source = dst;
        entries += layer;
        L->held = held;
        L->entries = entries; L->states = states; L->done = t + 1;
    }
    status = MOVE_OK;
done:
    return status;
}

/* State i's completions, into b (its vector), from those of the next layer's states (state j's at next + at[j]
   - next_base), a its vector of weights: adds its weight to *weighted and its weighted mines to *mines (the step's
   expected mines are their ratio); returns its largest completion. */
SIMD_CLONES static double state_completions(const Arrays *A, size_t i, const double *a, const double *bn,
                                            const double *next, size_t next_base, double *b, double *weighted,
                                            double *mines) {
    int end = A->start[i + 1], len = A->len[i], from = A->low[i];
    double top = 0.0;
    memset(b, 0, (size_t)len * sizeof(double));
    for (int e = A->start[i]; e < end; e++) {
        size_t j = (size_t)A->next[e];
        int v = A->v[e];
        double w = bn[v], ab = 0.0;
        const double *bj = next + (A->at[j] - next_base) + (from + v - A->low[j]);
        for (int q = 0; q < len; q++) {
            double c = w * bj[q];
            b[q] += c;
            ab += a[q] * c;
        }
        *weighted += ab;
        *mines += ab * v;
    }
    for (int q = 0; q < len; q++) if (b[q] > top) top = b[q];
    return top;
}

/* The move itself over parsed steps: the count (forward), the backward pass and the draw (see move). Past max_states
   states in a step, or ENTRIES_PER_STATE times as many entries of their vectors, the move gives up. */
#define ENTRIES_PER_STATE 2
#define MAX_ENTRIES ((size_t)1 << 26) /* the vectors of every layer together (alpha and beta: 1 GiB) */
static int compute_move(Step *steps, Py_ssize_t n, const double *hw, Py_ssize_t n_weights, int max_states, unsigned long long seed,
                        int log_weights, Moved *out) {
    if (max_states < 1) max_states = 1;
    Layers L = {0};
    int status = forward(steps, n, max_states, (size_t)ENTRIES_PER_STATE * (size_t)max_states, MAX_ENTRIES, 0, 0, NULL, &L);
    size_t *off = L.off;
    if (status != MOVE_OK) goto done;
    status = MOVE_NOMEM;
    if (!ensure_beta(L.entries)) goto done;
    {
        size_t f0 = off[n], f1 = off[n + 1];
        int top = 0;
        double peak = -HUGE_VAL; /* log weights: the largest over the final counts the block can reach */
        for (size_t i = f0; i < f1; i++) {
            for (int q = 0; q < len_buf[i]; q++) {
                int k = low_buf[i] + q;
                if (alpha_buf[at_buf[i] + (size_t)q] > 0 && k > top) top = k;
                if (log_weights && alpha_buf[at_buf[i] + (size_t)q] > 0 && k < n_weights && hw[k] > peak) peak = hw[k];
            }
        }
        double z = 0.0;
        for (size_t i = f0; i < f1; i++)
            for (int q = 0; q < len_buf[i]; q++) {
                int k = low_buf[i] + q;
                double b = alpha_buf[at_buf[i] + (size_t)q] > 0 && k < n_weights ? (log_weights ? exp(hw[k] - peak) : hw[k]) : 0.0;
                beta_buf[at_buf[i] + (size_t)q] = b;
                z += alpha_buf[at_buf[i] + (size_t)q] * b;
            }
        if (!(z > 0)) { status = MOVE_NONE; goto done; }
        double *cnt = out->cnt = calloc((size_t)top + 1, sizeof(double));
        if (!cnt) goto done;
        out->top = top;
        for (size_t i = f0; i < f1; i++)
            for (int q = 0; q < len_buf[i]; q++) {
                double c = alpha_buf[at_buf[i] + (size_t)q] * beta_buf[at_buf[i] + (size_t)q];
                if (c > 0) cnt[low_buf[i] + q] += c / z;
            }
        /* the transitions of state i run from start_buf[i] to start_buf[i + 1], in every layer */
        Arrays A = thread_arrays(&L);
        for (Py_ssize_t t = n - 1; t >= 0; t--) {
            const double *bn = binom[steps[t].size];
            double weighted = 0.0, mines = 0.0, peak = 0.0;
            for (size_t i = off[t]; i < off[t + 1]; i++) {
                double top = state_completions(&A, i, alpha_buf + at_buf[i], bn, beta_buf, 0, beta_buf + at_buf[i], &weighted, &mines);
                if (top > peak) peak = top;
            }
            if (peak > 0)
                for (size_t i = off[t]; i < off[t + 1]; i++)
                    for (int q = 0; q < len_buf[i]; q++) beta_buf[at_buf[i] + (size_t)q] /= peak;
            out->means[t] = weighted > 0 ? mines / weighted : 0.0;
        }
        uint64_t rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
        size_t s = 0;
        int k = 0;
        for (Py_ssize_t t = 0; t < n; t++) {
            const double *bn = binom[steps[t].size];
            int end = start_buf[s + 1];
            double total = 0.0;
            for (int e = start_buf[s]; e < end; e++) {
                size_t j = (size_t)next_buf[e];
                int at = k + v_buf[e] - low_buf[j];
                if (at >= 0 && at < len_buf[j]) total += bn[v_buf[e]] * beta_buf[at_buf[j] + (size_t)at];
            }
            double point = uniform(&rng) * total;
            int pick = -1;
            for (int e = start_buf[s]; e < end; e++) {
                size_t j = (size_t)next_buf[e];
                int at = k + v_buf[e] - low_buf[j];
                double w = at >= 0 && at < len_buf[j] ? bn[v_buf[e]] * beta_buf[at_buf[j] + (size_t)at] : 0.0;
                if (w > 0) {
                    pick = e;
                    point -= w;
                    if (point < 0) break;
                }
            }
            if (pick < 0) { status = MOVE_NOPICK; goto done; } /* every state kept on the path has a completion > 0 */
            out->values[t] = v_buf[pick];
            k += v_buf[pick];
            s = (size_t)next_buf[pick];
        }
        out->count = k;
        status = MOVE_OK;
    }
done:
    layers_free(&L);
    return status;
}

/* compute_move with the GIL released, its outputs as (values, means, counts, count), or None. */
static PyObject *run_move(Step *steps, Py_ssize_t n, const double *hw, Py_ssize_t n_weights, int max_states, unsigned long long seed,
                          int log_weights) {
    Moved out = {malloc(sizeof(double) * ((size_t)n + 1)), malloc(sizeof(int) * ((size_t)n + 1)), NULL, 0, 0};
    PyObject *result = NULL;
    int status = MOVE_NOMEM;
    if (out.means && out.values) {
        Py_BEGIN_ALLOW_THREADS
        status = compute_move(steps, n, hw, n_weights, max_states, seed, log_weights, &out);
        Py_END_ALLOW_THREADS
    }
    if (status == MOVE_NONE) {
        result = Py_None;
        Py_INCREF(result);
    } else if (status == MOVE_NOMEM) {
        PyErr_NoMemory();
    } else if (status == MOVE_NOPICK) {
        PyErr_SetString(PyExc_RuntimeError, "the chain's draw found no completion");
    } else {
        PyObject *counts = PyList_New(out.top + 1), *means = PyList_New(n), *values = PyList_New(n);
        int ok = counts && means && values;
        for (int k = 0; ok && k <= out.top; k++) {
            PyObject *item = PyFloat_FromDouble(out.cnt[k]);
            if (!item) ok = 0; else PyList_SET_ITEM(counts, k, item);
        }
        for (Py_ssize_t t = 0; ok && t < n; t++) {
            PyObject *mean = PyFloat_FromDouble(out.means[t]), *value = mean ? PyLong_FromLong(out.values[t]) : NULL;
            if (!mean || !value) { Py_XDECREF(mean); ok = 0; break; }
            PyList_SET_ITEM(means, t, mean);
            PyList_SET_ITEM(values, t, value);
        }
        if (ok) result = Py_BuildValue("(NNNi)", values, means, counts, out.count);
        else { Py_XDECREF(counts); Py_XDECREF(means); Py_XDECREF(values); }
    }
    free(out.means); free(out.values); free(out.cnt);
    return result;
}

/* A plan packed by block_plan (native ints): n_steps, n_needs, then per step its size, n_active, n_opened, n_touch,
 * n_keep, the opened numbers' indices into the needs, the touched slots, their capacities left and the kept slots.
 * Fills steps (whose opened needs go into pool, of at least n_needs ints; the rest points into the buffer); 0 with
 * a ValueError when the buffer is malformed or a step too wide. */
static int read_packed(const int *buf, Py_ssize_t len, Step *steps, Py_ssize_t n, int *pool, const int *need, Py_ssize_t n_needs) {
    Py_ssize_t at = 2;
    size_t used = 0;
    for (Py_ssize_t t = 0; t < n; t++) {
        Step *st = &steps[t];
        if (at + 5 > len) goto bad;
        st->size = buf[at]; st->n_active = buf[at + 1]; st->n_opened = buf[at + 2]; st->n_touch = buf[at + 3]; st->n_keep = buf[at + 4];
        at += 5;
        if (st->size < 0 || st->size > 8 || st->n_active < 0 || st->n_opened < 0 || st->n_touch < 0 || st->n_keep < 0 ||
            st->n_active + st->n_opened > MAX_OPEN || st->n_touch > MAX_OPEN || st->n_keep > MAX_OPEN ||
            at + st->n_opened + 2 * (Py_ssize_t)st->n_touch + st->n_keep > len || used + (size_t)st->n_opened > (size_t)n_needs)
            goto bad;
        st->opened = pool + used;
        for (int q = 0; q < st->n_opened; q++) {
            int index = buf[at + q];
            if (index < 0 || index >= n_needs) goto bad;
            st->opened[q] = need[index];
        }
        used += (size_t)st->n_opened;
        at += st->n_opened;
        st->slot = (int *)(buf + at); at += st->n_touch;
        st->cap = (int *)(buf + at); at += st->n_touch;
        st->keep = (int *)(buf + at); at += st->n_keep;
    }
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "a step of the plan is malformed or too wide");
    return 0;
}

/* The steps of a plan packed by block_plan with its needs (a sequence of ints): *steps and *pool malloc'ed (the
 * caller frees both, also on failure), *n the number of steps; 0 with an exception set. */
static int packed_steps(PyObject *plan, PyObject *need_list, Step **steps, Py_ssize_t *n, int **pool) {
    const int *buf = (const int *)PyBytes_AS_STRING(plan);
    Py_ssize_t len = PyBytes_GET_SIZE(plan) / (Py_ssize_t)sizeof(int);
    Py_ssize_t n_needs = PySequence_Size(need_list);
    if (n_needs < 0) return 0;
    if (len < 2 || buf[0] < 0 || buf[1] != n_needs) {
        PyErr_SetString(PyExc_ValueError, "a packed plan needs one need per number it names");
        return 0;
    }
    *n = buf[0];
    *steps = calloc((size_t)*n + 1, sizeof(Step));
    *pool = malloc(sizeof(int) * ((size_t)n_needs + 1));
    int *need = malloc(sizeof(int) * ((size_t)n_needs + 1)), ok = 0;
    if (!*steps || !*pool || !need) {
        PyErr_NoMemory();
    } else {
        ok = 1;
        for (Py_ssize_t i = 0; ok && i < n_needs; i++) ok = int_at(need_list, i, &need[i]);
        ok = ok && read_packed(buf, len, *steps, *n, *pool, need, n_needs);
    }
    free(need); /* read_packed copied the opened needs into the pool */
    return ok;
}

/* The weights of move: a list or tuple of floats, or a buffer of doubles (a numpy float64 array). Returns a malloc'ed
 * array and sets *n, or NULL with an exception set. */
static double *read_weights(PyObject *weights, Py_ssize_t *n) {
    if (!PyList_Check(weights) && !PyTuple_Check(weights) && PyObject_CheckBuffer(weights)) {
        Py_buffer view;
        if (PyObject_GetBuffer(weights, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
        if (view.itemsize != (Py_ssize_t)sizeof(double) || !view.format || strcmp(view.format, "d")) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "move: weights must be floats (a buffer of doubles)");
            return NULL;
        }
        *n = view.len / (Py_ssize_t)sizeof(double);
        double *out = malloc(sizeof(double) * ((size_t)*n + 1));
        if (out) memcpy(out, view.buf, sizeof(double) * (size_t)*n);
        else PyErr_NoMemory();
        PyBuffer_Release(&view);
        return out;
    }
    *n = PySequence_Size(weights);
    if (*n < 0) return NULL;
    double *out = malloc(sizeof(double) * ((size_t)*n + 1));
    if (!out) { PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t i = 0; i < *n; i++) {
        PyObject *item = PySequence_GetItem(weights, i);
        if (!item) { free(out); return NULL; }
        out[i] = PyFloat_AsDouble(item);
        Py_DECREF(item);
        if (out[i] == -1.0 && PyErr_Occurred()) { free(out); return NULL; }
    }
    return out;
}

/* The steps of a plan given as a sequence (counting._Plan's, or plan()'s: per step the open numbers before it, the
 * indices into need_list of those it opens, (slot, capacity left) of those it touches and the slots kept), each of
 * sizes[t] cells. Sets *steps_out, *pool_out (the caller frees both) and *n; 0 with an exception set. */
static int sequence_steps(PyObject *sizes, PyObject *plan, PyObject *need_list, Step **steps_out, int **pool_out, Py_ssize_t *n_out) {
    Py_ssize_t n = PySequence_Size(plan);
    Py_ssize_t n_needs = PySequence_Size(need_list);
    *steps_out = NULL; *pool_out = NULL;
    if (n < 0 || n_needs < 0) return 0;
    Step *steps = calloc((size_t)n + 1, sizeof(Step));
    int *pool = NULL;
    size_t pool_used = 0, pool_size = 0;
    if (!steps) { PyErr_NoMemory(); goto done; }
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
    *steps_out = steps; *pool_out = pool; *n_out = n;
    return 1;
done:
    free(pool); free(steps);
    return 0;
}

static PyObject *move(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sizes, *plan, *need_list, *weights;
    int max_states;
    unsigned long long seed;
    int log_weights = 0;
    if (!PyArg_ParseTuple(args, "OOOOiK|p", &sizes, &plan, &need_list, &weights, &max_states, &seed, &log_weights)) return NULL;
    if (PyBytes_Check(plan)) { /* a plan packed by block_plan */
        Py_ssize_t n = 0, n_weights = 0;
        Step *steps = NULL;
        int *pool = NULL;
        double *hw = NULL;
        PyObject *result = NULL;
        if (packed_steps(plan, need_list, &steps, &n, &pool) && (hw = read_weights(weights, &n_weights)))
            result = run_move(steps, n, hw, n_weights, max_states, seed, log_weights);
        free(steps); free(pool); free(hw);
        return result;
    }
    Py_ssize_t n = 0, n_weights = 0;
    Step *steps = NULL;
    int *pool = NULL;
    double *hw = NULL;
    PyObject *result = NULL;
    if (sequence_steps(sizes, plan, need_list, &steps, &pool, &n) && (hw = read_weights(weights, &n_weights)))
        result = run_move(steps, n, hw, n_weights, max_states, seed, log_weights);
    free(pool); free(steps); free(hw);
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

/* A growable buffer of native ints (block_plan's output). */
typedef struct { int *v; size_t n, cap; } Ints;

static int ints_push(Ints *b, int value) {
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        int *p = realloc(b->v, sizeof(int) * cap);
        if (!p) return 0;
        b->v = p;
        b->cap = cap;
    }
    b->v[b->n++] = value;
    return 1;
}

/* A bytes-like argument as native ints (None: NULL, with *len 0); 0 with an exception set. */
static int int_buffer(PyObject *obj, Py_buffer *view, const int **out, Py_ssize_t *len, const char *name) {
    *out = NULL;
    *len = 0;
    if (obj == Py_None) return 1;
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return 0;
    if (view->len % (Py_ssize_t)sizeof(int)) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s is not a buffer of native ints", name);
        return 0;
    }
    *out = view->buf;
    *len = view->len / (Py_ssize_t)sizeof(int);
    return 1;
}

/* block_plan(structure, block, done, skip) -> (plan, ids): Blocks.plan_of's plan for the super-cells `block` (a list,
 * counted in its order) packed for move (see read_packed), and `ids`, the numbers touching the block with their
 * super-cells inside it (native ints: their count, then per number its index, its count inside and those super-cells),
 * for block_needs. `structure` is (sizes, touch_start, touch_list, cons_start, cons_members) as buffers of native ints:
 * the component's super-cell sizes, the numbers touching each super-cell, and each number's super-cells. A number
 * counts when `skip` (a bytes-like flag per number, or None) leaves it and, when `done` (a flag per super-cell, or
 * None) is given, every super-cell of it lies in the block or is done. */
static PyObject *block_plan(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *structure, *block_obj, *done_obj, *skip_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &structure, &block_obj, &done_obj, &skip_obj)) return NULL;
    if (!PyTuple_Check(structure) || PyTuple_GET_SIZE(structure) != 5) {
        PyErr_SetString(PyExc_TypeError, "block_plan: structure is (sizes, touch_start, touch_list, cons_start, cons_members)");
        return NULL;
    }
    Py_buffer views[5];
    const int *arr[5];
    Py_ssize_t lens[5];
    int got = 0;
    static const char *names[5] = {"sizes", "touch_start", "touch_list", "cons_start", "cons_members"};
    PyObject *result = NULL, *fast = NULL;
    Py_buffer done_view, skip_view;
    int have_done = 0, have_skip = 0;
    int *local = NULL, *seen = NULL, *lc = NULL, *first = NULL, *last = NULL, *remaining = NULL, *tstart = NULL, *tlist = NULL;
    int *fill = NULL, *active = NULL, *now = NULL, *slot_of = NULL;
    Ints plan_out = {0}, ids_out = {0};
    for (; got < 5; got++) {
        PyObject *item = PyTuple_GET_ITEM(structure, got);
        if (item == Py_None) { PyErr_Format(PyExc_TypeError, "block_plan: %s is None", names[got]); goto done; }
        if (!int_buffer(item, &views[got], &arr[got], &lens[got], names[got])) goto done;
    }
    const int *sizes = arr[0], *t_start = arr[1], *t_list = arr[2], *c_start = arr[3], *c_mem = arr[4];
    Py_ssize_t n_all = lens[0], m_all = lens[3] - 1;
    if (lens[1] != n_all + 1 || m_all < 0 || t_start[n_all] > lens[2] || c_start[m_all] > lens[4]) {
        PyErr_SetString(PyExc_ValueError, "block_plan: the structure's buffers disagree");
        goto done;
    }
    const unsigned char *done_flags = NULL, *skip_flags = NULL;
    if (done_obj != Py_None) {
        if (PyObject_GetBuffer(done_obj, &done_view, PyBUF_SIMPLE) < 0) goto done;
        have_done = 1;
        if (done_view.len < n_all) { PyErr_SetString(PyExc_ValueError, "block_plan: done needs a flag per super-cell"); goto done; }
        done_flags = done_view.buf;
    }
    if (skip_obj != Py_None) {
        if (PyObject_GetBuffer(skip_obj, &skip_view, PyBUF_SIMPLE) < 0) goto done;
        have_skip = 1;
        if (skip_view.len < m_all) { PyErr_SetString(PyExc_ValueError, "block_plan: skip needs a flag per number"); goto done; }
        skip_flags = skip_view.buf;
    }
    fast = PySequence_Fast(block_obj, "block_plan: block must be a sequence of super-cells");
    if (!fast) goto done;
    Py_ssize_t nb = PySequence_Fast_GET_SIZE(fast);
    local = malloc(sizeof(int) * ((size_t)n_all + 1));
    seen = calloc((size_t)m_all + 1, sizeof(int));
    lc = malloc(sizeof(int) * ((size_t)m_all + 1));
    if (!local || !seen || !lc) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t j = 0; j < n_all; j++) local[j] = -1;
    for (Py_ssize_t p = 0; p < nb; p++) {
        long j = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, p));
        if (j == -1 && PyErr_Occurred()) goto done;
        if (j < 0 || j >= n_all || local[j] >= 0) { PyErr_SetString(PyExc_ValueError, "block_plan: a super-cell out of range or twice"); goto done; }
        local[j] = (int)p;
    }
    /* the numbers, in the order the block first touches them */
    int n_c = 0;
    size_t inside_total = 0;
    for (Py_ssize_t p = 0; p < nb; p++) {
        long j = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, p));
        for (int e = t_start[j]; e < t_start[j + 1]; e++) {
            int i = t_list[e];
            if (i < 0 || i >= m_all) { PyErr_SetString(PyExc_ValueError, "block_plan: a number out of range"); goto done; }
            if (seen[i]) continue;
            seen[i] = 1;
            if (skip_flags && skip_flags[i]) continue;
            int ok = 1;
            if (done_flags)
                for (int q = c_start[i]; q < c_start[i + 1] && ok; q++) ok = local[c_mem[q]] >= 0 || done_flags[c_mem[q]];
            if (!ok) continue;
            lc[n_c++] = i;
            for (int q = c_start[i]; q < c_start[i + 1]; q++) inside_total += local[c_mem[q]] >= 0;
        }
    }
    first = malloc(sizeof(int) * ((size_t)n_c + 1));
    last = malloc(sizeof(int) * ((size_t)n_c + 1));
    remaining = calloc((size_t)n_c + 1, sizeof(int));
    tstart = calloc((size_t)nb + 2, sizeof(int));
    tlist = malloc(sizeof(int) * (inside_total + 1));
    fill = calloc((size_t)nb + 1, sizeof(int));
    active = malloc(sizeof(int) * ((size_t)n_c + 1));
    now = malloc(sizeof(int) * ((size_t)n_c + 1));
    slot_of = malloc(sizeof(int) * ((size_t)n_c + 1));
    if (!first || !last || !remaining || !tstart || !tlist || !fill || !active || !now || !slot_of) { PyErr_NoMemory(); goto done; }
    if (!ints_push(&ids_out, n_c)) { PyErr_NoMemory(); goto done; }
    for (int c = 0; c < n_c; c++) { /* ids, and each number's span over the steps */
        int i = lc[c], count = 0;
        first[c] = (int)nb;
        last[c] = -1;
        for (int q = c_start[i]; q < c_start[i + 1]; q++) count += local[c_mem[q]] >= 0;
        if (!ints_push(&ids_out, i) || !ints_push(&ids_out, count)) { PyErr_NoMemory(); goto done; }
        for (int q = c_start[i]; q < c_start[i + 1]; q++) {
            int k = c_mem[q], t = local[k];
            if (t < 0) continue;
            if (!ints_push(&ids_out, k)) { PyErr_NoMemory(); goto done; }
            tstart[t + 1]++;
            if (t < first[c]) first[c] = t;
            if (t > last[c]) last[c] = t;
            remaining[c] += sizes[k];
        }
    }
    for (Py_ssize_t t = 0; t < nb; t++) tstart[t + 1] += tstart[t];
    for (int c = 0; c < n_c; c++) { /* each step's numbers, in their order */
        int i = lc[c];
        for (int q = c_start[i]; q < c_start[i + 1]; q++) {
            int t = local[c_mem[q]];
            if (t >= 0) tlist[tstart[t] + fill[t]++] = c;
        }
    }
    /* the steps, as plan() builds them */
    int n_active = 0;
    if (!ints_push(&plan_out, (int)nb) || !ints_push(&plan_out, n_c)) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t t = 0; t < nb; t++) {
        long j = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, t));
        int size = sizes[j], n_now = n_active, n_opened = 0, n_touch = tstart[t + 1] - tstart[t], n_keep = 0;
        memcpy(now, active, sizeof(int) * (size_t)n_active);
        for (int e = tstart[t]; e < tstart[t + 1]; e++)
            if (first[tlist[e]] == t) { now[n_now++] = tlist[e]; n_opened++; }
        for (int q = 0; q < n_now; q++) slot_of[now[q]] = q;
        for (int q = 0; q < n_now; q++) n_keep += last[now[q]] > t;
        int ok = ints_push(&plan_out, size) && ints_push(&plan_out, n_active) && ints_push(&plan_out, n_opened) &&
                 ints_push(&plan_out, n_touch) && ints_push(&plan_out, n_keep);
        for (int e = tstart[t]; ok && e < tstart[t + 1]; e++)
            if (first[tlist[e]] == t) ok = ints_push(&plan_out, tlist[e]);
        for (int e = tstart[t]; ok && e < tstart[t + 1]; e++) ok = ints_push(&plan_out, slot_of[tlist[e]]);
        for (int e = tstart[t]; ok && e < tstart[t + 1]; e++) {
            remaining[tlist[e]] -= size;
            ok = ints_push(&plan_out, remaining[tlist[e]]);
        }
        int n_after = 0;
        for (int q = 0; ok && q < n_now; q++)
            if (last[now[q]] > t) { active[n_after++] = now[q]; ok = ints_push(&plan_out, q); }
        if (!ok) { PyErr_NoMemory(); goto done; }
        n_active = n_after;
    }
    {
        PyObject *p = PyBytes_FromStringAndSize((const char *)plan_out.v, (Py_ssize_t)(plan_out.n * sizeof(int)));
        PyObject *q = p ? PyBytes_FromStringAndSize((const char *)ids_out.v, (Py_ssize_t)(ids_out.n * sizeof(int))) : NULL;
        if (p && q) result = PyTuple_Pack(2, p, q);
        Py_XDECREF(p);
        Py_XDECREF(q);
    }
done:
    for (int g = 0; g < got; g++) PyBuffer_Release(&views[g]);
    if (have_done) PyBuffer_Release(&done_view);
    if (have_skip) PyBuffer_Release(&skip_view);
    Py_XDECREF(fast);
    free(local); free(seen); free(lc); free(first); free(last); free(remaining); free(tstart); free(tlist); free(fill);
    free(active); free(now); free(slot_of); free(plan_out.v); free(ids_out.v);
    return result;
}

/* block_needs(ids, x, residual) -> [need]: Blocks.needs for ids packed by block_plan: each number's residual plus the
 * mines x puts in its super-cells inside the block (x and residual are lists of ints). */
static PyObject *block_needs(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *ids_obj, *x, *residual;
    if (!PyArg_ParseTuple(args, "SO!O!", &ids_obj, &PyList_Type, &x, &PyList_Type, &residual)) return NULL;
    const int *ids = (const int *)PyBytes_AS_STRING(ids_obj);
    Py_ssize_t len = PyBytes_GET_SIZE(ids_obj) / (Py_ssize_t)sizeof(int), nx = PyList_GET_SIZE(x), nr = PyList_GET_SIZE(residual);
    if (len < 1 || ids[0] < 0) { PyErr_SetString(PyExc_ValueError, "block_needs: malformed ids"); return NULL; }
    int n_c = ids[0];
    PyObject *out = PyList_New(n_c);
    if (!out) return NULL;
    Py_ssize_t at = 1;
    for (int c = 0; c < n_c; c++) {
        if (at + 2 > len || ids[at] < 0 || ids[at] >= nr || ids[at + 1] < 0 || at + 2 + ids[at + 1] > len) goto bad;
        long v = PyLong_AsLong(PyList_GET_ITEM(residual, ids[at]));
        int count = ids[at + 1];
        at += 2;
        for (int q = 0; q < count; q++, at++) {
            if (ids[at] < 0 || ids[at] >= nx) goto bad;
            v += PyLong_AsLong(PyList_GET_ITEM(x, ids[at]));
        }
        if (PyErr_Occurred()) { Py_DECREF(out); return NULL; }
        PyObject *item = PyLong_FromLong(v);
        if (!item) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, c, item);
    }
    return out;
bad:
    Py_DECREF(out);
    PyErr_SetString(PyExc_ValueError, "block_needs: malformed ids or an index out of range");
    return NULL;
}

/* block_assign(structure, block, values, x, residual): Blocks.assign in C: x[block[p]] = values[p], each number's
 * residual less the change under it (x and residual are lists of ints, changed in place). */
static PyObject *block_assign(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *structure, *block, *values, *x, *residual;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!", &PyTuple_Type, &structure, &PyList_Type, &block, &PyList_Type, &values,
                          &PyList_Type, &x, &PyList_Type, &residual))
        return NULL;
    if (PyTuple_GET_SIZE(structure) != 5) { PyErr_SetString(PyExc_TypeError, "block_assign: structure has 5 buffers"); return NULL; }
    Py_ssize_t nb = PyList_GET_SIZE(block), nx = PyList_GET_SIZE(x), nr = PyList_GET_SIZE(residual);
    if (PyList_GET_SIZE(values) != nb) { PyErr_SetString(PyExc_ValueError, "block_assign: one value per super-cell"); return NULL; }
    Py_buffer ts_view, tl_view;
    const int *t_start, *t_list;
    Py_ssize_t ts_len, tl_len;
    if (!int_buffer(PyTuple_GET_ITEM(structure, 1), &ts_view, &t_start, &ts_len, "touch_start")) return NULL;
    if (!int_buffer(PyTuple_GET_ITEM(structure, 2), &tl_view, &t_list, &tl_len, "touch_list")) { PyBuffer_Release(&ts_view); return NULL; }
    PyObject *result = NULL;
    if (ts_len != nx + 1 || t_start[nx] > tl_len) { PyErr_SetString(PyExc_ValueError, "block_assign: x and the structure disagree"); goto done; }
    for (Py_ssize_t p = 0; p < nb; p++) {
        long j = PyLong_AsLong(PyList_GET_ITEM(block, p)), v = PyLong_AsLong(PyList_GET_ITEM(values, p));
        if (PyErr_Occurred()) goto done;
        if (j < 0 || j >= nx) { PyErr_SetString(PyExc_ValueError, "block_assign: a super-cell out of range"); goto done; }
        long d = v - PyLong_AsLong(PyList_GET_ITEM(x, j));
        if (!d) continue;
        PyObject *item = PyLong_FromLong(v);
        if (!item) goto done;
        PyList_SetItem(x, j, item); /* steals the reference */
        for (int e = t_start[j]; e < t_start[j + 1]; e++) {
            int i = t_list[e];
            if (i < 0 || i >= nr) { PyErr_SetString(PyExc_ValueError, "block_assign: a number out of range"); goto done; }
            PyObject *r = PyLong_FromLong(PyLong_AsLong(PyList_GET_ITEM(residual, i)) - d);
            if (!r) goto done;
            PyList_SetItem(residual, i, r);
        }
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&ts_view);
    PyBuffer_Release(&tl_view);
    return result;
}

/* least_broken(plan, needs, max_states, seed) -> [values per step]: Blocks._least_broken in C over a plan packed by
 * block_plan (steps in the block's order) with the needs of block_needs: the block's mines per super-cell that
 * minimise the summed |need| of the numbers it closes, by a count of the least cost per partial state (the needs of
 * the open numbers, which may go below 0 here). Each super-cell takes its mines within the bounds its numbers leave,
 * or one around them when none fits; each transition's cost gets a random nudge below 0.001, which breaks ties. Past
 * max_states states in a step the cheapest are kept, counting the needs already below 0 as broken. */
#define LB_OFFSET 64 /* a need as a key byte: need + LB_OFFSET */

typedef struct { double rank; int index; } LbRank;

static int lb_by_rank(const void *a, const void *b) {
    double x = ((const LbRank *)a)->rank, y = ((const LbRank *)b)->rank;
    return (x > y) - (x < y);
}

/* The capacity, doubling from `cap` (256 at first), that holds `want`. */
static size_t lb_room(size_t cap, size_t want) {
    size_t room = cap ? cap : 256;
    while (room < want) room *= 2;
    return room;
}

static int lb_grow(void **buf, size_t *cap, size_t want, size_t item) {
    if (want <= *cap) return 1;
    size_t room = lb_room(*cap, want);
    if (!grow(buf, NULL, room, item)) return 0;
    *cap = room;
    return 1;
}

/* States of least_broken (each layer's, or one step's candidates): least cost, the state it came from, its value and
 * where its key starts (NULL for the candidates, whose keys have a fixed stride). */
typedef struct { double *cost; int *prev; unsigned char *val; size_t *key_at; size_t room; } LbStates;

/* Room for `want` states in every array of s (grown together, doubling); 0 when out of memory. */
static int lb_reserve(LbStates *s, size_t want, int with_keys) {
    if (want <= s->room) return 1;
    size_t room = lb_room(s->room, want);
    if (!grow((void **)&s->cost, NULL, room, sizeof(double)) || !grow((void **)&s->prev, NULL, room, sizeof(int)) ||
        !grow((void **)&s->val, NULL, room, 1) || (with_keys && !grow((void **)&s->key_at, NULL, room, sizeof(size_t))))
        return 0;
    s->room = room;
    return 1;
}

static PyObject *least_broken(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *plan, *need_list;
    int max_states;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "SOiK", &plan, &need_list, &max_states, &seed)) return NULL;
    if (max_states < 1) {
        PyErr_SetString(PyExc_ValueError, "least_broken: max_states must be at least 1");
        return NULL;
    }
    Py_ssize_t n = 0;
    Step *steps = NULL;
    int *pool = NULL;
    /* every layer's states one after another: key bytes (at key_at), least cost, the state it came from, its value */
    unsigned char *keys = NULL, *tkeys = NULL;
    int *table = NULL, *first = NULL;
    LbStates kept_states = {0}, cand = {0};
    LbRank *ranks = NULL;
    size_t keys_room = 0, tkeys_room = 0, table_room = 0, ranks_room = 0;
    PyObject *result = NULL;
    uint64_t rng = (uint64_t)seed | 1;
    if (!packed_steps(plan, need_list, &steps, &n, &pool)) goto done;
    first = malloc(sizeof(int) * ((size_t)n + 2));
    if (!first || !lb_reserve(&kept_states, 1, 1)) { PyErr_NoMemory(); goto done; }
    double *cost = kept_states.cost;
    int *prev = kept_states.prev;
    unsigned char *val = kept_states.val;
    size_t *key_at = kept_states.key_at;
    size_t states = 1, used_keys = 0;
    cost[0] = 0.0; prev[0] = -1; val[0] = 0; key_at[0] = 0;
    first[0] = 0; first[1] = 1;
    int needs[2 * MAX_OPEN];
    for (Py_ssize_t t = 0; t < n; t++) {
        const Step *st = &steps[t];
        int na = st->n_active, nk = st->n_keep;
        if (na != (t ? steps[t - 1].n_keep : 0)) { /* each step opens with the numbers the one before kept */
            PyErr_SetString(PyExc_ValueError, "least_broken: a step's open numbers differ from those the step before kept");
            goto done;
        }
        int closing[MAX_OPEN], n_closing = 0;
        for (int q = 0; q < st->n_touch; q++) {
            int stays = 0;
            for (int r = 0; r < nk; r++) stays |= st->keep[r] == st->slot[q];
            if (!stays) closing[n_closing++] = st->slot[q];
        }
        size_t from = (size_t)first[t], to = (size_t)first[t + 1], most = (to - from) * 9 + 1, tn = 0;
        if (!lb_grow((void **)&tkeys, &tkeys_room, most * (size_t)(nk + 1), 1)) { PyErr_NoMemory(); goto done; }
        if (!lb_reserve(&cand, most, 0)) { PyErr_NoMemory(); goto done; }
        double *tcost = cand.cost;
        int *tprev = cand.prev;
        unsigned char *tval = cand.val;
        size_t tsize = 16;
        while (tsize < 2 * most) tsize *= 2;
        if (!lb_grow((void **)&table, &table_room, tsize, sizeof(int))) { PyErr_NoMemory(); goto done; }
        memset(table, -1, tsize * sizeof(int));
        for (size_t a = from; a < to; a++) {
            for (int q = 0; q < na; q++) needs[q] = (int)keys[key_at[a] + (size_t)q] - LB_OFFSET;
            for (int q = 0; q < st->n_opened; q++) needs[na + q] = st->opened[q];
            int lo = 0, hi = st->size;
            for (int q = 0; q < st->n_touch; q++) {
                int r = needs[st->slot[q]];
                if (r < hi) hi = r;
                if (r - st->cap[q] > lo) lo = r - st->cap[q];
            }
            if (lo > hi) { /* some number breaks whatever this super-cell holds: the nearest values, at a cost */
                int l2 = (hi < lo ? hi : lo) - 1, h2 = (hi > lo ? hi : lo) + 1;
                lo = l2 > 0 ? l2 : 0;
                hi = h2 < st->size ? h2 : st->size;
            }
            for (int v = lo; v <= hi; v++) {
                for (int q = 0; q < st->n_touch; q++) needs[st->slot[q]] -= v;
                double c = cost[a] + 0.001 * uniform(&rng);
                for (int q = 0; q < n_closing; q++) c += abs(needs[closing[q]]);
                unsigned char nkey[MAX_OPEN + 1];
                int bad = 0;
                for (int r = 0; r < nk; r++) {
                    int w = needs[st->keep[r]] + LB_OFFSET;
                    bad |= w < 0 || w > 255;
                    nkey[r] = (unsigned char)w;
                }
                for (int q = 0; q < st->n_touch; q++) needs[st->slot[q]] += v;
                if (bad) { PyErr_SetString(PyExc_ValueError, "least_broken: a need out of range"); goto done; }
                size_t h = (size_t)hash_key(nkey, nk) & (tsize - 1);
                int found = -1;
                while (table[h] >= 0) {
                    if (!memcmp(tkeys + (size_t)table[h] * (size_t)(nk + 1), nkey, (size_t)nk)) { found = table[h]; break; }
                    h = (h + 1) & (tsize - 1);
                }
                if (found < 0) {
                    found = (int)tn++;
                    table[h] = found;
                    memcpy(tkeys + (size_t)found * (size_t)(nk + 1), nkey, (size_t)nk);
                    tcost[found] = c; tprev[found] = (int)a; tval[found] = (unsigned char)v;
                } else if (c < tcost[found]) {
                    tcost[found] = c; tprev[found] = (int)a; tval[found] = (unsigned char)v;
                }
            }
        }
        if (!tn) { PyErr_SetString(PyExc_ValueError, "least_broken: a step with no state"); goto done; }
        if (!lb_grow((void **)&ranks, &ranks_room, tn, sizeof(LbRank))) { PyErr_NoMemory(); goto done; }
        for (size_t b = 0; b < tn; b++) {
            double rank = tcost[b];
            for (int r = 0; r < nk; r++) {
                int w = (int)tkeys[b * (size_t)(nk + 1) + (size_t)r] - LB_OFFSET;
                if (w < 0) rank -= w;
            }
            ranks[b].rank = rank; ranks[b].index = (int)b;
        }
        size_t kept = tn;
        if (tn > (size_t)max_states) { /* keep the cheapest, counting the needs already below 0 as broken */
            qsort(ranks, tn, sizeof(LbRank), lb_by_rank);
            kept = (size_t)max_states;
        }
        if (!lb_reserve(&kept_states, states + kept, 1)) { PyErr_NoMemory(); goto done; }
        cost = kept_states.cost; prev = kept_states.prev; val = kept_states.val; key_at = kept_states.key_at;
        if (!lb_grow((void **)&keys, &keys_room, used_keys + kept * (size_t)nk + 1, 1)) { PyErr_NoMemory(); goto done; }
        for (size_t b = 0; b < kept; b++) {
            size_t i = (size_t)ranks[b].index;
            cost[states] = tcost[i]; prev[states] = tprev[i]; val[states] = tval[i]; key_at[states] = used_keys;
            memcpy(keys + used_keys, tkeys + i * (size_t)(nk + 1), (size_t)nk);
            used_keys += (size_t)nk;
            states++;
        }
        first[t + 2] = (int)states;
    }
    {
        size_t best = (size_t)first[n];
        for (size_t a = (size_t)first[n] + 1; a < (size_t)first[n + 1]; a++)
            if (cost[a] < cost[best]) best = a;
        result = PyList_New(n);
        if (!result) goto done;
        int at = (int)best;
        for (Py_ssize_t t = n - 1; t >= 0; t--) {
            PyObject *item = PyLong_FromLong(val[at]);
            if (!item) { Py_CLEAR(result); goto done; }
            PyList_SET_ITEM(result, t, item);
            at = prev[at];
        }
    }
done:
    free(steps); free(pool); free(keys); free(tkeys); free(table); free(first); free(ranks);
    free(kept_states.cost); free(kept_states.prev); free(kept_states.val); free(kept_states.key_at);
    free(cand.cost); free(cand.prev); free(cand.val);
    return result;
}

#include "_chain_fold.c"
#include "_chain_order.c"

/* release() frees the calling thread's buffers (a thread that made moves calls it before it ends: they are its own). */
static PyObject *release(PyObject *self, PyObject *args) {
    (void)self; (void)args;
    free_buffers();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"release", release, METH_NOARGS, "release()\nFree the calling thread's move buffers (before a thread that moved ends)."},
    {"plan", plan, METH_VARARGS,
     "plan(sizes, constraints) -> steps\n"
     "counting._Plan's steps for super-cells counted in the order given (step t is super-cell t, of sizes[t] cells),\n"
     "constraints as (super-cell indices, mines) pairs."},
    {"block_plan", block_plan, METH_VARARGS,
     "block_plan(structure, block, done, skip) -> (plan, ids)\n"
     "A block's plan packed for move and the numbers touching it packed for block_needs (Blocks.packed)."},
    {"block_needs", block_needs, METH_VARARGS,
     "block_needs(ids, x, residual) -> [need]\nEach number of a packed block's ids less the mines x puts outside the block."},
    {"block_assign", block_assign, METH_VARARGS,
     "block_assign(structure, block, values, x, residual)\nBlocks.assign in C (x and residual changed in place)."},
    {"least_broken", least_broken, METH_VARARGS,
     "least_broken(plan, needs, max_states, seed) -> [values per step]\n"
     "Blocks._least_broken over a plan packed by block_plan: the mines per super-cell that break the fewest mines'\n"
     "worth of the numbers the block closes (the cheapest max_states partial states kept per step)."},
    {"fold", fold, METH_VARARGS,
     "fold(sizes, steps, needs, log_weights, max_states, max_entries, seconds) -> (low, weights, log_scale, means) | None\n"
     "A whole component's count over plan steps (as move's), in floating point, each final count k weighted by\n"
     "exp(log_weights[k]) (the rest's completions): the weight of each count from low (the largest 1, the true ones\n"
     "exp(log_scale) times larger) and each step's expected mines given the rest (log_weights None: the weights alone,\n"
     "every mean 0); weights [] when no layout fits. None\n"
     "past max_states states in a step, max_entries entries of the weight vectors held (past 2^20, only about twice the\n"
     "square root of the layers' vectors are held, the others replayed), or seconds, or when no count the component\n"
     "can hold has weight. Runs without the GIL."},
    {"fold_keep", fold_keep, METH_VARARGS,
     "fold_keep(sizes, steps, needs, max_states, max_entries, seconds[, stop]) -> (low, weights, log_scale, kept, bytes,\n"
     "thinned) | done\n"
     "fold's weights alone (log_weights None), its layers kept (a capsule holding bytes of memory; None when no layout\n"
     "fits) for fold_back, thinned when only some layers' vectors are (fold_back replays the others); where fold gives\n"
     "None, the steps it did before it gave up (an int). stop: a bytearray (or other writable buffer) whose first byte,\n"
     "once another thread sets it, stops the fold as its time running out would."},
    {"fold_back", fold_back, METH_VARARGS,
     "fold_back(kept, log_weights, seconds) -> (low, weights, log_scale, means) | None\n"
     "What fold gives with these log_weights, from the layers fold_keep kept: the backward pass alone. Runs without\n"
     "the GIL; threads may share kept layers."},
    {"greedy_order", greedy_order, METH_VARARGS,
     "greedy_order(sizes, constraints) -> order\n"
     "The super-cells in an order whose count keeps the open numbers' ranges narrow (constraints: (indices, mines))."},
    {"spectral_order", spectral_order, METH_VARARGS,
     "spectral_order(sizes, constraints, inverse, steps) -> order\n"
     "The super-cells along the component's length: by an approximate Fiedler vector of their graph (inverse steps of\n"
     "inverse iteration, each by steps of conjugate gradients), piece by piece. Runs its solve without the GIL."},
    {"move", move, METH_VARARGS,
     "move(sizes, steps, needs, weights, max_states, seed, log_weights=False) -> (values per step, expected mines per step,\n"
     "[P(block count k)], block count) | None\n"
     "One block move over the count's plan (chain.py's _Chain.move; a list of steps, or bytes packed by block_plan,\n"
     "whose sizes argument is then unused), whose steps name the opened numbers by their index in needs:\n"
     "weights[k] (a list of floats or a float64 array) weighs a final block count k (its log with log_weights: the\n"
     "largest over the counts the block can reach is then taken as 1, so that no reachable count underflows); None past max_states partial states in a step or when\n"
     "no final count has weight. Runs without the GIL: each thread keeps its own buffers (see release)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chain", "The chain's block move in C.", -1, methods};

PyMODINIT_FUNC PyInit__chain(void) {
    for (int a = 0; a <= 8; a++) {
        binom[a][0] = 1.0;
        for (int b = 1; b <= a; b++) binom[a][b] = binom[a][b - 1] * (double)(a - b + 1) / (double)b;
    }
    return PyModule_Create(&module);
}
