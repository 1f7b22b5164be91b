/* best's span test in C: in_span, included by _kernel.c (see its methods table). */

static const uint64_t SPAN_PRIMES[2] = {2305843009213693951ULL, 4611686018427387847ULL}; /* 2^61 - 1, 2^62 - 57 */

static inline uint64_t span_mul(uint64_t a, uint64_t b, uint64_t p) { return (uint64_t)(((u128)a * b) % p); }

static uint64_t span_inv(uint64_t a, uint64_t p) { /* a^(p-2) mod p */
    uint64_t r = 1, e = p - 2;
    while (e) { if (e & 1) r = span_mul(r, a, p); a = span_mul(a, a, p); e >>= 1; }
    return r;
}

/* The rank of the rows x cols matrix m (row-major, entries mod p, overwritten). */
static int span_rank(uint64_t *m, int rows, int cols, uint64_t p) {
    int rank = 0;
    for (int c = 0; c < cols && rank < rows; c++) {
        int piv = -1;
        for (int r = rank; r < rows; r++) if (m[(size_t)r * cols + c]) { piv = r; break; }
        if (piv < 0) continue;
        if (piv != rank) for (int k = 0; k < cols; k++) { uint64_t t = m[(size_t)piv * cols + k]; m[(size_t)piv * cols + k] = m[(size_t)rank * cols + k]; m[(size_t)rank * cols + k] = t; }
        uint64_t inv = span_inv(m[(size_t)rank * cols + c], p);
        for (int r = rank + 1; r < rows; r++) {
            uint64_t f = m[(size_t)r * cols + c];
            if (!f) continue;
            f = span_mul(f, inv, p);
            for (int k = c; k < cols; k++) {
                uint64_t s = span_mul(f, m[(size_t)rank * cols + k], p), v = m[(size_t)r * cols + k];
                m[(size_t)r * cols + k] = v >= s ? v - s : v + p - s;
            }
        }
        rank++;
    }
    return rank;
}

static int cmp_long(const void *a, const void *b) { long x = *(const long *)a, y = *(const long *)b; return (x > y) - (x < y); }

/* Read the ints of an iterable into out[*n..] (growing it); -1 with an exception set. */
static int span_read(PyObject *iterable, long **out, int *n, int *cap) {
    PyObject *it = PyObject_GetIter(iterable), *item;
    if (!it) return -1;
    while ((item = PyIter_Next(it))) {
        long v = PyLong_AsLong(item);
        Py_DECREF(item);
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(it); return -1; }
        if (*n == *cap) {
            int grown = *cap ? 2 * *cap : 64;
            long *p = realloc(*out, sizeof(long) * (size_t)grown);
            if (!p) { Py_DECREF(it); PyErr_NoMemory(); return -1; }
            *out = p; *cap = grown;
        }
        (*out)[(*n)++] = v;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

/* in_span(target, groups) -> bool: whether the indicator vector of the cells `target` is a linear combination, over
   the rationals, of the indicators of the cell sets `groups` (best's look-ahead, lookahead._in_span). The ranks are
   taken modulo two primes above 2^60; a prime can only lower a rank, where it divides every largest non-zero minor,
   and the larger of the two ranks is the rational one (the minors of 0/1 matrices of the size met here are far
   below the primes). */
static PyObject *in_span(PyObject *self, PyObject *args) {
    PyObject *target, *groups;
    if (!PyArg_ParseTuple(args, "OO", &target, &groups)) return NULL;
    PyObject *seq = PySequence_Fast(groups, "in_span(target, groups): groups must be a sequence");
    if (!seq) return NULL;
    int rows = (int)PySequence_Fast_GET_SIZE(seq), n = 0, cap = 0, *start = malloc(sizeof(int) * ((size_t)rows + 2));
    long *cells = NULL, *cols = NULL;
    uint64_t *m = NULL;
    PyObject *result = NULL;
    if (!start) { PyErr_NoMemory(); goto done; }
    for (int r = 0; r < rows; r++) {
        start[r] = n;
        if (span_read(PySequence_Fast_GET_ITEM(seq, r), &cells, &n, &cap) < 0) goto done;
    }
    start[rows] = n;
    if (span_read(target, &cells, &n, &cap) < 0) goto done;
    start[rows + 1] = n;
    cols = malloc(sizeof(long) * ((size_t)n + 1));
    if (!cols) { PyErr_NoMemory(); goto done; }
    memcpy(cols, cells, sizeof(long) * (size_t)n);
    qsort(cols, (size_t)n, sizeof(long), cmp_long);
    int n_cols = 0;
    for (int i = 0; i < n; i++) if (!n_cols || cols[n_cols - 1] != cols[i]) cols[n_cols++] = cols[i];
    int width = n_cols ? n_cols : 1;
    m = malloc(sizeof(uint64_t) * (size_t)(rows + 1) * width);
    if (!m) { PyErr_NoMemory(); goto done; }
    int base = 0, with = 0;
    for (int q = 0; q < 2; q++) {
        uint64_t p = SPAN_PRIMES[q];
        for (int pass = 0; pass < 2; pass++) { /* the groups alone, then with the target */
            int height = rows + pass;
            memset(m, 0, sizeof(uint64_t) * (size_t)(rows + 1) * width);
            for (int r = 0; r < height; r++) {
                int from = r < rows ? start[r] : start[rows], to = r < rows ? start[r + 1] : start[rows + 1];
                for (int i = from; i < to; i++) {
                    long *at = bsearch(&cells[i], cols, (size_t)n_cols, sizeof(long), cmp_long);
                    m[(size_t)r * width + (at - cols)] = 1;
                }
            }
            int rank = span_rank(m, height, width, p);
            if (pass == 0 && rank > base) base = rank;
            if (pass == 1 && rank > with) with = rank;
        }
    }
    result = PyBool_FromLong(with == base);
done:
    Py_DECREF(seq);
    free(start); free(cells); free(cols); free(m);
    return result;
}
