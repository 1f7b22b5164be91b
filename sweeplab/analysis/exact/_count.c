/* The exact engine's count in C, shared by the engine's module (_kernel.c) and the players' game loops
 * (sweeplab/strategies/_players.c), each of which includes this file: nothing here is a Python function.
 *
 * From a position's view (one signed byte per cell: 0-8 revealed, -1 covered, -2 flagged) it builds the
 * constraints, groups frontier cells into super-cells, splits them into components, and counts each
 * component's weighted solutions by mine count over the same partial states as counting.py's `count` (keyed by the
 * mine count so far and the needs of the open constraints, weights C(size, x)): a forward pass of merged states,
 * then a backward pass per final mine count for each super-cell's expected mines (see run_dp). Exact integers:
 * a component of at most 118 cells is counted in unsigned 128-bit integers (no value can reach 2^127); a larger
 * one in a residue number system (each value modulo enough 62-bit primes that their product exceeds every value,
 * then rebuilt by the Chinese remainder theorem), so no component is too large to count exactly.
 *
 * Limits: a component whose partial states exceed `max_states` in one step, whose tables would take more than
 * `max_bytes`, that keeps more than MAX_ACTIVE constraints open, or that is still counting at the deadline
 * (`seconds` from the call) comes back without a tally and with the reason, for Python to estimate. Components
 * are counted smallest first, so a deadline leaves only the largest uncounted. Ctrl-C is honoured while counting.
 * It knows nothing of probabilities: probabilities.py combines the tallies with exact Python integers.
 * A module that includes it calls count_init() once as it loads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

typedef unsigned __int128 u128;

#define MAX_ACTIVE 64
#define SMALL_CELLS 118   /* at most this many cells: 128-bit counting */
#define CHECK_EVERY 4096  /* states between clock and signal checks */

static u128 binom128[9][9];

enum { ST_OK = 1, ST_STATES = 0, ST_MEMORY = 2, ST_TIME = 3, ST_WIDE = 4, ST_BIGGER = 5, ST_NOMEM = -1, ST_SIGNAL = -2 };

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The work limits of one call: states per step, bytes of tables, the deadline; checked every CHECK_EVERY states. */
typedef struct {
    long max_states;
    size_t max_bytes;
    size_t bytes;
    double deadline;
    long tick;
} Limits;

/* ST_OK to go on; ST_TIME past the deadline; ST_SIGNAL when a signal handler raised (Ctrl-C). */
static int limits_check(Limits *lim) {
    if (++lim->tick % CHECK_EVERY) return ST_OK;
    if (PyErr_CheckSignals() < 0) return ST_SIGNAL;
    if (now_seconds() > lim->deadline) return ST_TIME;
    return ST_OK;
}

static void *lim_alloc(Limits *lim, size_t bytes, int zero) {
    if (lim->bytes + bytes > lim->max_bytes) return NULL;
    void *p = zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
    if (p) lim->bytes += bytes;
    return p;
}

static void lim_free(Limits *lim, void *p, size_t bytes) {
    if (!p) return;
    free(p);
    lim->bytes -= bytes;
}

static PyObject *limbs_to_py(const uint64_t *limbs, int n);

static PyObject *u128_to_py(u128 v) {
    uint64_t limbs[2] = {(uint64_t)v, (uint64_t)(v >> 64)};
    return limbs_to_py(limbs, 2);
}

/* Cell numbers as Python ints, kept across calls (a cell index is built once per process, not once per answer). */
static PyObject **cell_ints = NULL;
static int n_cell_ints = 0;

static PyObject *cell_int(int c) {
    if (c < 0 || c >= (1 << 24)) return PyLong_FromLong(c);
    if (c >= n_cell_ints) {
        int n = n_cell_ints ? n_cell_ints : 1024;
        while (n <= c) n *= 2;
        PyObject **grown = realloc(cell_ints, sizeof(PyObject *) * (size_t)n);
        if (!grown) return PyLong_FromLong(c);
        for (int i = n_cell_ints; i < n; i++) grown[i] = NULL;
        cell_ints = grown;
        n_cell_ints = n;
    }
    if (!cell_ints[c] && !(cell_ints[c] = PyLong_FromLong(c))) return NULL;
    Py_INCREF(cell_ints[c]);
    return cell_ints[c];
}

/* ---------- modular arithmetic for large components (Montgomery form, primes below 2^62) ---------- */

typedef struct {
    uint64_t p;     /* an odd prime below 2^62 */
    uint64_t ninv;  /* -p^-1 mod 2^64 */
    uint64_t r2;    /* 2^128 mod p */
} Mod;

static Mod *mods = NULL;
static int n_mods = 0, cap_mods = 0;

static inline uint64_t redc(u128 t, const Mod *m) {
    uint64_t q = (uint64_t)t * m->ninv;
    uint64_t u = (uint64_t)((t + (u128)q * m->p) >> 64);
    return u >= m->p ? u - m->p : u;
}
static inline uint64_t mmul(uint64_t a, uint64_t b, const Mod *m) { return redc((u128)a * b, m); }
static inline uint64_t madd(uint64_t a, uint64_t b, const Mod *m) { uint64_t s = a + b; return s >= m->p ? s - m->p : s; }
static inline uint64_t to_mont(uint64_t a, const Mod *m) { return mmul(a % m->p, m->r2, m); }

static void mod_init(Mod *m, uint64_t p) {
    uint64_t inv = p; /* Newton's iteration for p^-1 mod 2^64 */
    for (int i = 0; i < 6; i++) inv *= 2 - p * inv;
    m->p = p;
    m->ninv = (uint64_t)0 - inv;
    uint64_t r1 = (uint64_t)(((u128)1 << 64) % p);
    m->r2 = (uint64_t)(((u128)r1 * r1) % p);
}

static uint64_t mpow(uint64_t base_m, uint64_t e, const Mod *m) { /* base and result in Montgomery form */
    uint64_t r = to_mont(1, m);
    while (e) {
        if (e & 1) r = mmul(r, base_m, m);
        base_m = mmul(base_m, base_m, m);
        e >>= 1;
    }
    return r;
}

static int is_prime(uint64_t n) { /* deterministic Miller-Rabin for 64-bit n */
    static const uint64_t small[] = {3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73};
    if (n < 2 || !(n & 1)) return n == 2;
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) if (n % small[i] == 0) return n == small[i];
    Mod m;
    mod_init(&m, n);
    uint64_t d = n - 1;
    int s = 0;
    while (!(d & 1)) { d >>= 1; s++; }
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    uint64_t one = to_mont(1, &m), minus_one = to_mont(n - 1, &m);
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
        uint64_t x = mpow(to_mont(bases[i], &m), d, &m);
        if (x == one || x == minus_one) continue;
        int witness = 1;
        for (int r = 1; r < s && witness; r++) {
            x = mmul(x, x, &m);
            if (x == minus_one) witness = 0;
        }
        if (witness) return 0;
    }
    return 1;
}

/* Make sure at least `count` primes are ready (the largest primes below 2^62, found once and kept). */
static int ensure_mods(int count) {
    if (count <= n_mods) return 1;
    if (count > cap_mods) {
        int cap = cap_mods ? cap_mods : 32;
        while (cap < count) cap *= 2;
        Mod *grown = realloc(mods, sizeof(Mod) * (size_t)cap);
        if (!grown) return 0;
        mods = grown;
        cap_mods = cap;
    }
    uint64_t candidate = n_mods ? mods[n_mods - 1].p - 2 : ((uint64_t)1 << 62) - 1;
    while (n_mods < count) {
        if (is_prime(candidate)) mod_init(&mods[n_mods++], candidate);
        candidate -= 2;
    }
    return 1;
}

/* A non-negative integer from little-endian 64-bit limbs. */
static PyObject *limbs_to_py(const uint64_t *limbs, int n) {
    while (n > 1 && !limbs[n - 1]) n--;
    if (n == 1) return PyLong_FromUnsignedLongLong(limbs[0]);
    unsigned char *bytes = malloc((size_t)n * 8);
    if (!bytes) return PyErr_NoMemory();
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 8; b++) bytes[i * 8 + b] = (unsigned char)(limbs[i] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *r = PyLong_FromUnsignedNativeBytes(bytes, (size_t)n * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject *r = _PyLong_FromByteArray(bytes, (size_t)n * 8, 1, 0);
#endif
    free(bytes);
    return r;
}

/* Chinese remaindering (Garner's algorithm): residues (Montgomery form) modulo mods[0..L-1] -> a Python int. */
typedef struct {
    int L;
    uint64_t *inv;     /* inv[i * L + j]: p_j^-1 mod p_i, Montgomery form, j < i */
    uint64_t *digits;  /* scratch: mixed-radix digits */
    uint64_t *limbs;   /* scratch: L + 1 limbs */
} Garner;

static int garner_init(Garner *g, int L) {
    g->L = L;
    g->inv = malloc(sizeof(uint64_t) * (size_t)L * L);
    g->digits = malloc(sizeof(uint64_t) * L);
    g->limbs = malloc(sizeof(uint64_t) * (L + 1));
    if (!g->inv || !g->digits || !g->limbs) return 0;
    for (int i = 0; i < L; i++) {
        const Mod *m = &mods[i];
        for (int j = 0; j < i; j++) /* Fermat: p_j^(p_i - 2) mod p_i */
            g->inv[i * L + j] = mpow(to_mont(mods[j].p, m), m->p - 2, m);
    }
    return 1;
}

static void garner_free(Garner *g) { free(g->inv); free(g->digits); free(g->limbs); }

static PyObject *garner_to_py(Garner *g, const uint64_t *residues) {
    int L = g->L;
    for (int i = 0; i < L; i++) {
        const Mod *m = &mods[i];
        uint64_t v = redc(residues[i], m); /* out of Montgomery form */
        for (int j = 0; j < i; j++) {
            uint64_t d = g->digits[j] % m->p;
            v = v >= d ? v - d : v + m->p - d;
            v = mmul(v, g->inv[i * L + j], m); /* normal * Montgomery(inv) = normal */
        }
        g->digits[i] = v;
    }
    /* value = d0 + p0 (d1 + p1 (d2 + ...)): Horner from the top digit */
    int n = 1;
    memset(g->limbs, 0, sizeof(uint64_t) * (L + 1));
    g->limbs[0] = g->digits[L - 1];
    for (int i = L - 2; i >= 0; i--) {
        u128 carry = g->digits[i];
        for (int w = 0; w < n; w++) {
            u128 t = (u128)g->limbs[w] * mods[i].p + carry;
            g->limbs[w] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry) g->limbs[n++] = (uint64_t)carry;
    }
    return limbs_to_py(g->limbs, n);
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

/* Open-addressing hash table of partial states: key bytes (2 for k, then the open needs) -> `words` 64-bit words. */
typedef struct {
    int klen;
    int words;            /* value words per slot: 2 for a u128, L for L residues */
    size_t cap;           /* slots (a power of two) */
    size_t count;
    unsigned char *keys;  /* cap * klen */
    uint64_t *vals;       /* cap * words */
    unsigned char *used;  /* cap */
} Table;

static size_t table_bytes(int klen, int words, size_t cap) { return cap * ((size_t)klen + 8 * (size_t)words + 1); }

static int table_init(Table *t, int klen, int words, size_t cap, Limits *lim) {
    t->klen = klen; t->words = words; t->cap = cap; t->count = 0;
    t->keys = NULL; t->vals = NULL; t->used = NULL;
    if (lim->bytes + table_bytes(klen, words, cap) > lim->max_bytes) return ST_MEMORY;
    /* one block: the values first (malloc's alignment, which u128 values need), then the keys, then the used flags */
    uint64_t *block = malloc(table_bytes(klen, words, cap));
    if (!block) return ST_NOMEM;
    t->vals = block;
    t->keys = (unsigned char *)(block + cap * (size_t)words);
    t->used = t->keys + cap * (size_t)klen;
    memset(t->used, 0, cap);
    lim->bytes += table_bytes(klen, words, cap);
    return ST_OK;
}

static void table_free(Table *t, Limits *lim) {
    if (t->used) lim->bytes -= table_bytes(t->klen, t->words, t->cap);
    free(t->vals); /* the block that holds keys and used flags too */
    t->keys = NULL; t->vals = NULL; t->used = NULL;
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

/* Rehash a table sized for the worst case into one sized for what it holds (tables are kept for the backward pass). */
static int table_shrink(Table *t, Limits *lim) {
    size_t want = 4;
    while (want < t->count * 2) want <<= 1;
    if (want * 2 > t->cap) return ST_OK;
    Table small;
    int st = table_init(&small, t->klen, t->words, want, lim);
    if (st != ST_OK) { table_free(&small, lim); return st == ST_MEMORY ? ST_OK : st; } /* keep the big one */
    int fresh;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->used[i]) continue;
        size_t j = table_slot(&small, t->keys + i * t->klen, &fresh);
        memcpy(small.vals + j * small.words, t->vals + i * t->words, sizeof(uint64_t) * t->words);
    }
    table_free(t, lim);
    *t = small;
    return ST_OK;
}

/* The needs of the open constraints as step st starts from state `key`. */
static inline void step_needs(const Step *st, const unsigned char *key, int *needs) {
    int na = st->n_active;
    for (int a = 0; a < na; a++) needs[a] = key[2 + a];
    for (int a = 0; a < st->n_opened; a++) needs[na + a] = st->opened_need[a];
}

/* The feasible mine counts of step st's super-cell (empty when lo > hi). */
static inline void step_bounds(const Step *st, const int *needs, int *lo, int *hi) {
    *lo = 0; *hi = st->size;
    for (int q = 0; q < st->n_touch; q++) {
        int r = needs[st->touch_slot[q]];
        if (r < *hi) *hi = r;
        if (r - st->touch_cap[q] > *lo) *lo = r - st->touch_cap[q];
    }
}

/* The key of the state reached by putting x mines in step st's super-cell. */
static inline void next_key(const Step *st, int *needs, int k, int x, unsigned char *out) {
    int kk = k + x;
    out[0] = (unsigned char)(kk & 0xff);
    out[1] = (unsigned char)(kk >> 8);
    for (int q = 0; q < st->n_touch; q++) needs[st->touch_slot[q]] -= x;
    for (int q = 0; q < st->n_keep; q++) out[2 + q] = (unsigned char)needs[st->keep[q]];
    for (int q = 0; q < st->n_touch; q++) needs[st->touch_slot[q]] += x;
}

static inline int key_k(const unsigned char *key) { return key[0] | (key[1] << 8); }

/* Count a component. The forward pass merges partial states (weights alpha by state); the backward pass carries,
   per state, the weighted number of completions ending with each final mine count (beta), so that each
   super-cell's weighted expected mines per final count is the sum over transitions of alpha * C(size, x) * x * beta'.

   `L` is 0 for 128-bit arithmetic, -1 for 128-bit arithmetic checked against a scaled long double copy of the
   forward weights, else the number of residues (mods[0..L-1]). 128-bit arithmetic is arithmetic modulo 2^128, so
   its results are exact whenever the final weights and expectations are below 2^128, however large the partial
   weights grow; with L = -1, larger final weights return ST_BIGGER and set *needed_L to the residues they need.
   On success sets *n_final_out, *final_k_out (the final mine counts), *weight_out (weight of each, `ow` words: 2 for
   a u128, L for residues) and *expected_out (expected[f * n_sc + sc], ow words each); the caller frees the three
   arrays. Returns an ST_ status. */
#define U128AT(p) (*(u128 *)(p))
#define LDAT(p) (((long double *)(p))[1])
static int run_dp(Step *steps, int n_steps, int n_sc, int total_cells, int L, Limits *lim, int *n_final_out,
                  int **final_k_out, uint64_t **weight_out, uint64_t **expected_out, int *needed_L) {
    const int rns = L > 0, approx = L < 0, vw = rns ? L : (approx ? 4 : 2), ow = rns ? L : 2;
    double log2_scale = 0;
    Table *tables = calloc((size_t)n_steps + 1, sizeof(Table));
    if (!tables) return ST_NOMEM;
    int status = ST_OK, fresh, n_final = 0;
    unsigned char keybuf[2 + MAX_ACTIVE];
    int needs[MAX_ACTIVE];
    uint64_t *beta = NULL, *beta_next = NULL, *tmp = NULL;
    size_t beta_bytes = 0, beta_next_bytes = 0;
    int *final_k = NULL, *index_of_k = NULL;
    uint64_t *weight = NULL, *expected = NULL;
    uint64_t *bin = NULL; /* rns: bin[(size * 9 + x) * L + i] = C(size, x) in Montgomery form modulo mods[i] */
    if (rns) {
        bin = malloc(sizeof(uint64_t) * 81 * L);
        tmp = malloc(sizeof(uint64_t) * 2 * L);
        if (!bin || !tmp) { status = ST_NOMEM; goto out; }
        for (int s = 0; s <= 8; s++)
            for (int x = 0; x <= s; x++)
                for (int i = 0; i < L; i++) bin[(s * 9 + x) * L + i] = to_mont((uint64_t)binom128[s][x], &mods[i]);
    }
    if ((status = table_init(&tables[0], 2, vw, 4, lim)) != ST_OK) goto out;
    keybuf[0] = keybuf[1] = 0;
    {
        size_t j = table_slot(&tables[0], keybuf, &fresh);
        if (rns) for (int i = 0; i < L; i++) tables[0].vals[j * L + i] = to_mont(1, &mods[i]);
        else U128AT(tables[0].vals + j * vw) = 1;
        if (approx) LDAT(tables[0].vals + j * vw) = 1;
    }
    for (int t = 0; t < n_steps; t++) {
        Step *st = &steps[t];
        Table *cur = &tables[t], *nxt = &tables[t + 1];
        size_t bound = cur->count * (size_t)(st->size + 1), want = 4;
        while (want < bound * 2) want <<= 1;
        if ((long)bound > lim->max_states * 9L) { status = ST_STATES; goto out; }
        if ((status = table_init(nxt, 2 + st->n_keep, vw, want, lim)) != ST_OK) goto out;
        for (size_t i = 0; i < cur->cap; i++) {
            if (!cur->used[i]) continue;
            if ((status = limits_check(lim)) != ST_OK) goto out;
            const unsigned char *key = cur->keys + i * cur->klen;
            int k = key_k(key), lo, hi;
            step_needs(st, key, needs);
            step_bounds(st, needs, &lo, &hi);
            for (int x = lo; x <= hi; x++) {
                next_key(st, needs, k, x, keybuf);
                size_t j = table_slot(nxt, keybuf, &fresh);
                if (rns) {
                    const uint64_t *a = cur->vals + i * L, *c = bin + (st->size * 9 + x) * L;
                    uint64_t *d = nxt->vals + j * L;
                    for (int q = 0; q < L; q++) {
                        uint64_t v = mmul(a[q], c[q], &mods[q]);
                        d[q] = fresh ? v : madd(d[q], v, &mods[q]);
                    }
                } else {
                    uint64_t *src = cur->vals + i * vw, *dst = nxt->vals + j * vw;
                    u128 nw = U128AT(src) * binom128[st->size][x];
                    if (fresh) U128AT(dst) = nw; else U128AT(dst) += nw;
                    if (approx) {
                        long double av = LDAT(src) * (long double)binom128[st->size][x];
                        if (fresh) LDAT(dst) = av; else LDAT(dst) += av;
                    }
                }
            }
        }
        if ((long)nxt->count > lim->max_states) { status = ST_STATES; goto out; }
        if (approx) { /* rescale the long double copy to a maximum of 1 */
            long double peak = 0;
            for (size_t i = 0; i < nxt->cap; i++) if (nxt->used[i] && LDAT(nxt->vals + i * vw) > peak) peak = LDAT(nxt->vals + i * vw);
            if (peak > 0) {
                for (size_t i = 0; i < nxt->cap; i++) if (nxt->used[i]) LDAT(nxt->vals + i * vw) /= peak;
                log2_scale += (double)log2l(peak);
            }
        }
        if ((status = table_shrink(nxt, lim)) != ST_OK) goto out;
    }
    if (approx) { /* the largest final weight; expectations are at most 8 times it */
        Table *end = &tables[n_steps];
        long double peak = 0;
        for (size_t i = 0; i < end->cap; i++) if (end->used[i] && LDAT(end->vals + i * vw) > peak) peak = LDAT(end->vals + i * vw);
        double bits = peak > 0 ? log2_scale + (double)log2l(peak) + 3 + 2 : 0; /* 2 bits of margin for rounding */
        if (bits > 127) { *needed_L = (int)(bits / 61) + 1; status = ST_BIGGER; goto out; }
    }
    /* final mine counts: the last table's keys are just k */
    Table *last = &tables[n_steps];
    final_k = malloc(sizeof(int) * (total_cells + 1));
    index_of_k = malloc(sizeof(int) * (total_cells + 1));
    if (!final_k || !index_of_k) { status = ST_NOMEM; goto out; }
    for (int k = 0; k <= total_cells; k++) index_of_k[k] = -1;
    for (size_t i = 0; i < last->cap; i++) {
        if (!last->used[i]) continue;
        int k = key_k(last->keys + i * last->klen);
        if (index_of_k[k] < 0) { index_of_k[k] = n_final; final_k[n_final++] = k; }
    }
    if (lim->bytes + (size_t)(n_final + 1) * (n_sc + 1) * ow * sizeof(uint64_t) > lim->max_bytes) { status = ST_MEMORY; goto out; }
    weight = calloc((size_t)(n_final ? n_final : 1) * ow, sizeof(uint64_t));
    expected = calloc((size_t)(n_final ? n_final : 1) * n_sc * ow, sizeof(uint64_t));
    if (!weight || !expected) { status = ST_NOMEM; goto out; }
    for (size_t i = 0; i < last->cap; i++) {
        if (!last->used[i]) continue;
        int f = index_of_k[key_k(last->keys + i * last->klen)];
        memcpy(weight + (size_t)f * ow, last->vals + i * vw, sizeof(uint64_t) * ow); /* one state per k */
    }
    /* backward: beta over the last table is the indicator of its final count */
    size_t row = (size_t)(n_final ? n_final : 1) * ow; /* words of beta per state */
    beta_next_bytes = last->cap * row * sizeof(uint64_t);
    if (!(beta_next = lim_alloc(lim, beta_next_bytes, 1))) { status = lim->bytes + beta_next_bytes > lim->max_bytes ? ST_MEMORY : ST_NOMEM; goto out; }
    for (size_t i = 0; i < last->cap; i++) {
        if (!last->used[i]) continue;
        int f = index_of_k[key_k(last->keys + i * last->klen)];
        uint64_t *b = beta_next + i * row + (size_t)f * ow;
        if (rns) for (int q = 0; q < L; q++) b[q] = to_mont(1, &mods[q]);
        else *(u128 *)b = 1;
    }
    for (int t = n_steps - 1; t >= 0; t--) {
        Step *st = &steps[t];
        Table *cur = &tables[t], *nxt = &tables[t + 1];
        beta_bytes = cur->cap * row * sizeof(uint64_t);
        if (!(beta = lim_alloc(lim, beta_bytes, 1))) { status = lim->bytes + beta_bytes > lim->max_bytes ? ST_MEMORY : ST_NOMEM; goto out; }
        for (size_t i = 0; i < cur->cap; i++) {
            if (!cur->used[i]) continue;
            if ((status = limits_check(lim)) != ST_OK) goto out;
            const unsigned char *key = cur->keys + i * cur->klen;
            int k = key_k(key), lo, hi;
            step_needs(st, key, needs);
            step_bounds(st, needs, &lo, &hi);
            uint64_t *b = beta + i * row;
            for (int x = lo; x <= hi; x++) {
                next_key(st, needs, k, x, keybuf);
                const uint64_t *bn = beta_next + table_find(nxt, keybuf) * row;
                if (rns) {
                    const uint64_t *c = bin + (st->size * 9 + x) * L, *a = cur->vals + i * L;
                    uint64_t *acx = tmp; /* alpha * C(size, x) * x */
                    if (x) for (int q = 0; q < L; q++) acx[q] = mmul(mmul(a[q], c[q], &mods[q]), to_mont((uint64_t)x, &mods[q]), &mods[q]);
                    for (int f = 0; f < n_final; f++) {
                        const uint64_t *bf = bn + (size_t)f * L;
                        int zero = 1;
                        for (int q = 0; q < L && zero; q++) zero = !bf[q];
                        if (zero) continue;
                        uint64_t *bo = b + (size_t)f * L;
                        uint64_t *e = expected + ((size_t)f * n_sc + st->supercell) * L;
                        for (int q = 0; q < L; q++) {
                            bo[q] = madd(bo[q], mmul(c[q], bf[q], &mods[q]), &mods[q]);
                            if (x) e[q] = madd(e[q], mmul(acx[q], bf[q], &mods[q]), &mods[q]);
                        }
                    }
                } else {
                    u128 a = U128AT(cur->vals + i * vw), c = binom128[st->size][x];
                    for (int f = 0; f < n_final; f++) {
                        u128 bf = ((const u128 *)bn)[f];
                        if (!bf) continue;
                        u128 v = c * bf;
                        ((u128 *)b)[f] += v;
                        if (x) ((u128 *)expected)[(size_t)f * n_sc + st->supercell] += a * v * (u128)x;
                    }
                }
            }
        }
        lim_free(lim, beta_next, beta_next_bytes);
        beta_next = beta;
        beta_next_bytes = beta_bytes;
        beta = NULL;
        table_free(&tables[t + 1], lim);
    }
out:
    lim_free(lim, beta, beta_bytes);
    lim_free(lim, beta_next, beta_next_bytes);
    if (status == ST_OK) {
        *n_final_out = n_final; *final_k_out = final_k; *weight_out = weight; *expected_out = expected;
    } else {
        free(final_k); free(weight); free(expected);
    }
    free(index_of_k); free(bin); free(tmp);
    for (int t = 0; t <= n_steps; t++) table_free(&tables[t], lim);
    free(tables);
    return status;
}

/* The cells around c on a width x height board, in row order (up to 8), into out; returns how many. */
static inline int around(int c, int width, int height, int *out) {
    int x = c % width, y = c / width, n = 0;
    for (int dy = -1; dy <= 1; dy++) {
        int ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx;
            if ((!dx && !dy) || nx < 0 || nx >= width) continue;
            out[n++] = ny * width + nx;
        }
    }
    return n;
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

/* Sort helpers: super-cells by (degree, index) for the breadth-first order; components by size. */
static const int *sort_degree;
static int cmp_by_degree(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    if (sort_degree[x] != sort_degree[y]) return sort_degree[x] < sort_degree[y] ? -1 : 1;
    return x - y;
}

/* The same order as qsort with cmp_by_degree (a total order, so the result is the same): insertion sort for the short
   lists that adjacency lists are, qsort past 32. */
static void sort_by_degree(int *xs, int n, const int *degree) {
    if (n > 32) {
        sort_degree = degree;
        qsort(xs, (size_t)n, sizeof(int), cmp_by_degree);
        return;
    }
    for (int i = 1; i < n; i++) {
        int v = xs[i], j = i - 1;
        while (j >= 0 && (degree[xs[j]] > degree[v] || (degree[xs[j]] == degree[v] && xs[j] > v))) { xs[j + 1] = xs[j]; j--; }
        xs[j + 1] = v;
    }
}

typedef struct { int index; int cells; int first_sc; } CompInfo;
static int cmp_comp(const void *a, const void *b) {
    const CompInfo *x = a, *y = b;
    if (x->cells != y->cells) return x->cells < y->cells ? -1 : 1;
    return x->first_sc - y->first_sc;
}

/* A position's frontier, from its raw view: the constraints (numbers with covered neighbours), the frontier cells
   grouped into super-cells (cells touched by the same constraints), and the components (super-cells linked by a
   constraint), smallest first. */
typedef struct {
    int cells, n_con, n_front, n_sc, n_comp, n_un;
    int *con_start, *con_cells, *con_need, *con_source, *touch_count, *touch;
    FrontierCell *front;
    int *sc_start, *sc_cells, *parent, *comp_of_sc, *local_sc, *local_con, *sc_by_comp, *con_by_comp, *comp_index;
    int *sc_off, *con_off, *fill;
    CompInfo *info;
} Frontier;

static void frontier_free(Frontier *F) {
    free(F->con_start); /* the one block every array lives in */
    memset(F, 0, sizeof(*F));
}

/* F's arrays for a board of `cells` cells, in one block (a game's loop reuses them from position to position).
   Returns 0, or -1 out of memory. */
static int frontier_alloc(Frontier *F, int cells) {
    memset(F, 0, sizeof(*F));
    size_t n1 = (size_t)cells + 1, n2 = (size_t)cells + 2, n8 = (size_t)cells * 8 + 1;
    size_t ints = 13 * n1 + 4 * n2 + 2 * n8; /* FrontierCell and CompInfo hold ints only, so ints align them */
    size_t fronts = n1 * (sizeof(FrontierCell) / sizeof(int)), infos = n1 * (sizeof(CompInfo) / sizeof(int));
    int *block = malloc(sizeof(int) * (ints + fronts + infos));
    if (!block) return -1;
    int *at = block;
#define TAKE(field, n) (F->field = at, at += (n))
    TAKE(con_start, n1); TAKE(con_cells, n8); TAKE(con_need, n1); TAKE(con_source, n1); TAKE(touch_count, n1);
    TAKE(touch, n8); TAKE(sc_start, n2); TAKE(sc_cells, n1); TAKE(parent, n1); TAKE(comp_of_sc, n1);
    TAKE(local_sc, n1); TAKE(local_con, n1); TAKE(sc_by_comp, n1); TAKE(con_by_comp, n1); TAKE(comp_index, n1);
    TAKE(sc_off, n2); TAKE(con_off, n2); TAKE(fill, n2);
#undef TAKE
    F->front = (FrontierCell *)at; at += fronts;
    F->info = (CompInfo *)at;
    F->cells = cells;
    return 0;
}

/* The module's scratch frontier, lent to one call at a time (grown to the largest board asked for): a call that finds
   it lent (a call made while another runs) allocates its own. Give it back with frontier_give. */
static Frontier scratch_frontier;
static int scratch_cells = 0, scratch_lent = 0;

static int frontier_lend(Frontier *F, int cells, int *lent) {
    *lent = 0;
    memset(F, 0, sizeof(*F));
    if (scratch_lent) return frontier_alloc(F, cells);
    if (scratch_cells < cells) {
        frontier_free(&scratch_frontier);
        scratch_cells = 0;
        if (frontier_alloc(&scratch_frontier, cells) < 0) return -1;
        scratch_cells = cells;
    }
    *F = scratch_frontier;
    scratch_lent = *lent = 1;
    return 0;
}

static void frontier_give(Frontier *F, int lent) {
    if (lent) { scratch_lent = 0; memset(F, 0, sizeof(*F)); }
    else frontier_free(F);
}

/* Build F (allocated by frontier_alloc for this board, or lent by frontier_lend) from the view v (signed bytes: -1 covered, -2 flagged, 0..8 a
   number; any other negative value is a covered cell settled safe, as the analyzer marks them: neither an unknown nor a number). Returns 0,
   or 1 + the cell of a number that cannot hold locally. */
static int frontier_build(const signed char *v, int width, int height, Frontier *F) {
    int cells = width * height;
    memset(F->touch_count, 0, sizeof(int) * ((size_t)cells + 1));
    memset(F->sc_off, 0, sizeof(int) * ((size_t)cells + 2));
    memset(F->con_off, 0, sizeof(int) * ((size_t)cells + 2));
    memset(F->fill, 0, sizeof(int) * ((size_t)cells + 2));
    F->n_con = F->n_front = F->n_sc = F->n_comp = F->n_un = 0;
    int *con_start = F->con_start, *con_cells = F->con_cells, *con_need = F->con_need, *con_source = F->con_source;
    int *touch_count = F->touch_count, *touch = F->touch, *sc_start = F->sc_start, *sc_cells = F->sc_cells;
    int *parent = F->parent, *comp_index = F->comp_index, *comp_of_sc = F->comp_of_sc, *sc_off = F->sc_off;
    int *con_off = F->con_off, *fill = F->fill;
    FrontierCell *front = F->front;
    CompInfo *info = F->info;
    /* constraints */
    int n_con = 0, n_cc = 0;
    for (int c = 0; c < cells; c++) {
        if (v[c] < 0) continue;
        int flagged = 0, start = n_cc, nb[8], n_nb = around(c, width, height, nb);
        for (int q = 0; q < n_nb; q++) {
            int n = nb[q];
            if (v[n] == -1) con_cells[n_cc++] = n;
            else if (v[n] == -2) flagged++;
        }
        int need = v[c] - flagged, ncov = n_cc - start;
        if (need < 0 || need > ncov) return 1 + c;
        if (!ncov) continue;
        con_start[n_con] = start; con_need[n_con] = need; con_source[n_con] = c; n_con++;
    }
    con_start[n_con] = n_cc;
    F->n_con = n_con;
    /* which constraints touch each covered cell (in increasing constraint order) */
    for (int i = 0; i < n_con; i++)
        for (int p = con_start[i]; p < con_start[i + 1]; p++) {
            int cell = con_cells[p];
            touch[(size_t)cell * 8 + touch_count[cell]++] = i;
        }
    int n_front = 0, n_un = 0;
    for (int c = 0; c < cells; c++) {
        if (!touch_count[c]) { n_un += v[c] == -1; continue; }
        front[n_front].cell = c; front[n_front].klen = touch_count[c];
        memcpy(front[n_front].key, touch + (size_t)c * 8, sizeof(int) * touch_count[c]);
        n_front++;
    }
    F->n_front = n_front;
    F->n_un = n_un;
    qsort(front, n_front, sizeof(FrontierCell), cmp_frontier);
    int n_sc = 0;
    for (int i = 0; i < n_front; i++) {
        if (i == 0 || front[i].klen != front[i - 1].klen || memcmp(front[i].key, front[i - 1].key, sizeof(int) * front[i].klen)) {
            sc_start[n_sc++] = i;
        }
        sc_cells[i] = front[i].cell;
    }
    sc_start[n_sc] = n_front;
    F->n_sc = n_sc;
    /* components: union constraints through super-cells, then bucket super-cells and constraints by component */
    for (int i = 0; i < n_con; i++) parent[i] = i;
    for (int s = 0; s < n_sc; s++) {
        FrontierCell *f = &front[sc_start[s]];
        int r = uf_find(parent, f->key[0]);
        for (int q = 1; q < f->klen; q++) { int r2 = uf_find(parent, f->key[q]); if (r2 != r) parent[r2] = r; }
    }
    for (int i = 0; i < n_con; i++) comp_index[i] = -1;
    int n_comp = 0;
    for (int s = 0; s < n_sc; s++) {
        int root = uf_find(parent, front[sc_start[s]].key[0]);
        if (comp_index[root] < 0) { comp_index[root] = n_comp; info[n_comp].index = n_comp; info[n_comp].cells = 0; info[n_comp].first_sc = s; n_comp++; }
        int ci = comp_index[root];
        comp_of_sc[s] = ci;
        info[ci].cells += sc_start[s + 1] - sc_start[s];
        sc_off[ci + 1]++;
    }
    for (int i = 0; i < n_con; i++) con_off[comp_index[uf_find(parent, i)] + 1]++;
    for (int c = 0; c < n_comp; c++) { sc_off[c + 1] += sc_off[c]; con_off[c + 1] += con_off[c]; }
    for (int s = 0; s < n_sc; s++) { int ci = comp_of_sc[s]; F->sc_by_comp[sc_off[ci] + fill[ci]++] = s; }
    memset(fill, 0, sizeof(int) * (n_comp + 1));
    for (int i = 0; i < n_con; i++) { int ci = comp_index[uf_find(parent, i)]; F->con_by_comp[con_off[ci] + fill[ci]++] = i; }
    qsort(info, n_comp, sizeof(CompInfo), cmp_comp); /* smallest first: a deadline leaves only the largest uncounted */
    F->n_comp = n_comp;
    return 0;
}

/* One component's count: its status (an ST_ code), and on ST_OK its final mine counts, their weights and each
   super-cell's expected mines per count (`L` words each: 0 means one u128), and its constraints as lists of its
   local super-cells (cs_start/cs_list). */
typedef struct {
    int status, n_final, L;
    int *final_k;
    uint64_t *wk, *ek;
    int *cs_start, *cs_list;
} Counted;

static void counted_free(Counted *C) {
    free(C->final_k); free(C->wk); free(C->ek); free(C->cs_start); free(C->cs_list);
    memset(C, 0, sizeof(*C));
}

/* Count the component with super-cells scs[0..m_sc) and constraints cons[0..m_con) of F into out. Returns 0, or -1
   out of memory or past a signal (out freed; ST_SIGNAL leaves the Python exception set, ST_NOMEM sets none). */
static int count_core(const int *scs, int m_sc, const int *cons, int m_con, Frontier *F, Limits *lim, Counted *out) {
    const FrontierCell *front = F->front;
    const int *sc_start = F->sc_start, *con_need = F->con_need;
    int *local_sc = F->local_sc, *local_con = F->local_con;
    int total_cells = 0, status = ST_OK, ret = 0;
    memset(out, 0, sizeof(*out));
    for (int a = 0; a < m_sc; a++) { local_sc[scs[a]] = a; total_cells += sc_start[scs[a] + 1] - sc_start[scs[a]]; }
    for (int i = 0; i < m_con; i++) local_con[cons[i]] = i;
    /* constraint -> local super-cells (each super-cell listed once per constraint) */
    int *cs_start = malloc(sizeof(int) * (m_con + 1));
    int *cs_list = malloc(sizeof(int) * ((size_t)m_sc * 8 + 1));
    /* the working arrays, zeroed, in one block: per constraint (7) and per super-cell (8) */
    size_t ncon = (size_t)m_con + 1, nsc = (size_t)m_sc + 1;
    int *work = calloc(7 * ncon + 8 * nsc, sizeof(int)), *at = work;
    int *cs_count = at, *first = at + ncon, *last = at + 2 * ncon, *remaining = at + 3 * ncon, *active = at + 4 * ncon;
    int *now = at + 5 * ncon, *slot_of = at + 6 * ncon;
    at += 7 * ncon;
    /* super-cell adjacency (sharing a constraint), as sorted unique lists */
    int *adj_start = at, *mark = at + 2 * nsc, *degree = at + 3 * nsc, *order = at + 4 * nsc;
    int *seen = at + 5 * nsc, *queue = at + 6 * nsc, *position = at + 7 * nsc;
    Step *steps = calloc(m_sc + 1, sizeof(Step));
    int *pool = malloc(sizeof(int) * ((size_t)m_sc * (4 * MAX_ACTIVE + 32) + 16));
    int *adj = NULL, *final_k = NULL, n_final = 0;
    uint64_t *wk = NULL, *ek = NULL;
    int L = 0;
    if (!cs_start || !cs_list || !work || !steps || !pool) { status = ST_NOMEM; goto done; }
    for (int a = 0; a < m_sc; a++) { const FrontierCell *f = &front[sc_start[scs[a]]]; for (int q = 0; q < f->klen; q++) cs_count[local_con[f->key[q]]]++; }
    cs_start[0] = 0;
    for (int i = 0; i < m_con; i++) cs_start[i + 1] = cs_start[i] + cs_count[i];
    memset(cs_count, 0, sizeof(int) * m_con);
    for (int a = 0; a < m_sc; a++) { const FrontierCell *f = &front[sc_start[scs[a]]]; for (int q = 0; q < f->klen; q++) { int li = local_con[f->key[q]]; cs_list[cs_start[li] + cs_count[li]++] = a; } }
    /* adjacency: for each super-cell, the others sharing one of its (at most 8) constraints */
    for (int a = 0; a < m_sc; a++) mark[a] = -1;
    size_t bound = 0; /* one pass into a list sized for the most it can hold: each pair of a constraint's super-cells */
    for (int i = 0; i < m_con; i++) bound += (size_t)(cs_start[i + 1] - cs_start[i]) * (size_t)(cs_start[i + 1] - cs_start[i]);
    adj = malloc(sizeof(int) * (bound + 1));
    if (!adj) { status = ST_NOMEM; goto done; }
    adj_start[0] = 0;
    for (int a = 0; a < m_sc; a++) {
        const FrontierCell *f = &front[sc_start[scs[a]]];
        int d = 0, *outp = adj + adj_start[a];
        for (int q = 0; q < f->klen; q++) {
            int li = local_con[f->key[q]];
            for (int p = cs_start[li]; p < cs_start[li + 1]; p++) {
                int b = cs_list[p];
                if (b == a || mark[b] == a) continue;
                mark[b] = a;
                outp[d++] = b;
            }
        }
        degree[a] = d;
        adj_start[a + 1] = adj_start[a] + d;
    }
    /* order: breadth first from a least-connected super-cell, neighbours by (degree, index), as counting.py's _order */
    sort_degree = degree;
    for (int a = 0; a < m_sc; a++) sort_by_degree(adj + adj_start[a], degree[a], degree);
    int n_order = 0;
    while (n_order < m_sc) {
        int start = -1;
        for (int a = 0; a < m_sc; a++) if (!seen[a] && (start < 0 || degree[a] < degree[start])) start = a;
        int qh = 0, qt = 0;
        seen[start] = 1; queue[qt++] = start;
        while (qh < qt) {
            int a = queue[qh++];
            order[n_order++] = a;
            for (int p = adj_start[a]; p < adj_start[a + 1]; p++) {
                int b = adj[p];
                if (!seen[b]) { seen[b] = 1; queue[qt++] = b; }
            }
        }
    }
    /* plan */
    for (int t = 0; t < m_sc; t++) position[order[t]] = t;
    for (int i = 0; i < m_con; i++) {
        first[i] = m_sc; last[i] = -1; remaining[i] = 0;
        for (int p = cs_start[i]; p < cs_start[i + 1]; p++) {
            int a = cs_list[p], t = position[a];
            if (t < first[i]) first[i] = t;
            if (t > last[i]) last[i] = t;
            remaining[i] += sc_start[scs[a] + 1] - sc_start[scs[a]];
        }
    }
    int pool_used = 0, too_wide = total_cells > 65535, n_active = 0;
    for (int t = 0; t < m_sc && !too_wide; t++) {
        int a = order[t], s = scs[a];
        const FrontierCell *f = &front[sc_start[s]];
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
    if (too_wide) status = ST_WIDE;
    else if (now_seconds() > lim->deadline) status = ST_TIME;
    else if (total_cells <= SMALL_CELLS) status = run_dp(steps, m_sc, m_sc, total_cells, 0, lim, &n_final, &final_k, &wk, &ek, &L);
    else {
        /* 128-bit arithmetic when the final values fit (most large components have few solutions), else residues:
           each prime exceeds 2^61, so L of them exceed every weight and expectation */
        int needed = 0;
        status = run_dp(steps, m_sc, m_sc, total_cells, -1, lim, &n_final, &final_k, &wk, &ek, &needed);
        if (status == ST_BIGGER) {
            L = needed;
            if (!ensure_mods(L)) { status = ST_NOMEM; goto done; }
            status = run_dp(steps, m_sc, m_sc, total_cells, L, lim, &n_final, &final_k, &wk, &ek, &needed);
        }
    }
done:
    free(work); free(adj); free(steps); free(pool);
    if (status == ST_NOMEM || status == ST_SIGNAL) {
        free(cs_start); free(cs_list); free(wk); free(ek); free(final_k);
        return -1;
    }
    out->status = status; out->n_final = n_final; out->L = L;
    out->final_k = final_k; out->wk = wk; out->ek = ek;
    out->cs_start = cs_start; out->cs_list = cs_list;
    return ret;
}

/* Count the c-th of F's components (smallest first, as F.info lists them) into out: count_core's return, with an
   exception set on -1. */
static int count_nth(Frontier *F, int c, Limits *lim, Counted *out) {
    int ci = F->info[c].index;
    if (count_core(F->sc_by_comp + F->sc_off[ci], F->sc_off[ci + 1] - F->sc_off[ci], F->con_by_comp + F->con_off[ci],
                   F->con_off[ci + 1] - F->con_off[ci], F, lim, out) < 0) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* CPython keeps the small ints (-5..256 here) as one array of objects: a view's values -2..8 are then pointers
   into it, read by a subtraction and a shift instead of PyLong_AsLong. small_base is the object of -2, small_shift
   the log2 of the array's stride; small_shift < 0 when the interpreter does not lay them out so (then every value
   goes through PyLong_AsLong, as any other int does). */
static const char *small_base = NULL;
static int small_shift = -1;

static void small_ints_init(void) {
    PyObject *objs[11];
    for (int i = 0; i < 11; i++) {
        objs[i] = PyLong_FromLong(i - 2);
        if (!objs[i]) { PyErr_Clear(); for (int j = 0; j < i; j++) Py_DECREF(objs[j]); return; }
    }
    ptrdiff_t stride = (const char *)objs[1] - (const char *)objs[0];
    int shift = -1;
    for (int b = 3; b < 12; b++) if (stride == ((ptrdiff_t)1 << b)) shift = b;
    for (int i = 0; i < 11; i++) if ((const char *)objs[i] - (const char *)objs[0] != i * stride) shift = -1;
    small_base = (const char *)objs[0];
    small_shift = shift;
    for (int i = 0; i < 11; i++) Py_DECREF(objs[i]); /* immortal in practice: the interpreter keeps them */
}

/* A view cell's value -2..8 (or another int, or -1 with an exception set). */
static inline long view_value(PyObject *item) {
    if (small_shift >= 0) {
        size_t d = (size_t)((const char *)item - small_base);
        if (d <= ((size_t)10 << small_shift) && !(d & (((size_t)1 << small_shift) - 1))) return (long)(d >> small_shift) - 2;
    }
    return PyLong_AsLong(item);
}

/* The single-point pass's worklist on a padded view v (value 9 on the padding; state per cell: 0 unknown, 1 mine, 2
   safe; inq marks the numbers waiting in work[0..top)), settled to its least fixed point. Returns how many cells it
   made safe (their padded indices appended to `freed` unless NULL), or -1 when a number cannot hold locally. */
static int sp_settle(const signed char *v, unsigned char *state, unsigned char *inq, int *work, int top, const int *off,
                     int *freed) {
    int n_safe = 0;
    while (top) {
        int c = work[--top];
        inq[c] = 0;
        int known = 0, unknown = 0, nb[8], value = v[c];
        for (int q = 0; q < 8; q++) {
            int n = c + off[q];
            if (v[n] >= 0) continue; /* revealed, or the padding */
            if (state[n] == 1) known++;
            else if (state[n] == 0) nb[unknown++] = n;
        }
        if (known > value || known + unknown < value) return -1;
        if (!unknown || (known != value && known + unknown != value)) continue;
        unsigned char to = known == value ? 2 : 1;
        for (int q = 0; q < unknown; q++) {
            int n = nb[q];
            state[n] = to;
            if (to == 2) { if (freed) freed[n_safe] = n; n_safe++; }
            for (int r = 0; r < 8; r++) { /* its numbers may now decide more (not a 0: it decided all it can) */
                int m = n + off[r];
                if (v[m] >= 1 && v[m] <= 8 && !inq[m]) { inq[m] = 1; work[top++] = m; }
            }
        }
    }
    return n_safe;
}

/* The tables every count reads: the binomials up to 8 and the small ints' layout. Called once by the module's init. */
static void count_init(void) {
    for (int n = 0; n <= 8; n++) {
        binom128[n][0] = 1;
        for (int k = 1; k <= n; k++) binom128[n][k] = binom128[n][k - 1] * (u128)(n - k + 1) / (u128)k;
    }
    small_ints_init();
}
