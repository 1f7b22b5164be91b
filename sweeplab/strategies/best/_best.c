/* best's helpers in C, included by ../_players.c (see its methods table): in_span, the look-ahead's span test;
   count_layouts, the exact number of layouts of a position (the fifty-fifty influence's counts); and brief, what the
   look-ahead reads of a position after a reveal. */

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

/* Whether row `rows` (the target) is a rational linear combination of rows 0..rows-1, each row the cells
   cells[start[r]..start[r+1]) (an indicator vector; start has rows + 2 entries). 1 or 0, or -1 out of memory. The ranks
   are taken modulo two primes above 2^60; a prime can only lower a rank, where it divides every largest non-zero
   minor, and the larger of the two ranks is the rational one (the minors of 0/1 matrices of the size met here are far
   below the primes). */
static int span_core(const long *cells, const int *start, int rows) {
    int n = start[rows + 1], result = -1;
    long *cols = malloc(sizeof(long) * ((size_t)n + 1));
    uint64_t *m = NULL;
    if (!cols) return -1;
    memcpy(cols, cells, sizeof(long) * (size_t)n);
    qsort(cols, (size_t)n, sizeof(long), cmp_long);
    int n_cols = 0;
    for (int i = 0; i < n; i++) if (!n_cols || cols[n_cols - 1] != cols[i]) cols[n_cols++] = cols[i];
    int width = n_cols ? n_cols : 1;
    m = malloc(sizeof(uint64_t) * (size_t)(rows + 1) * width);
    if (!m) goto done;
    int base = 0, with = 0;
    for (int q = 0; q < 2; q++) {
        uint64_t p = SPAN_PRIMES[q];
        for (int pass = 0; pass < 2; pass++) { /* the groups alone, then with the target */
            int height = rows + pass;
            memset(m, 0, sizeof(uint64_t) * (size_t)(rows + 1) * width);
            for (int r = 0; r < height; r++)
                for (int i = start[r]; i < start[r + 1]; i++) {
                    long *at = bsearch(&cells[i], cols, (size_t)n_cols, sizeof(long), cmp_long);
                    m[(size_t)r * width + (at - cols)] = 1;
                }
            int rank = span_rank(m, height, width, p);
            if (pass == 0 && rank > base) base = rank;
            if (pass == 1 && rank > with) with = rank;
        }
    }
    result = with == base;
done:
    free(cols); free(m);
    return result;
}

/* in_span(target, groups) -> bool: whether the indicator vector of the cells `target` is a linear combination, over
   the rationals, of the indicators of the cell sets `groups` (best's look-ahead, lookahead._in_span; see span_core). */
static PyObject *in_span(PyObject *self, PyObject *args) {
    PyObject *target, *groups;
    if (!PyArg_ParseTuple(args, "OO", &target, &groups)) return NULL;
    PyObject *seq = PySequence_Fast(groups, "in_span(target, groups): groups must be a sequence");
    if (!seq) return NULL;
    int rows = (int)PySequence_Fast_GET_SIZE(seq), n = 0, cap = 0, *start = malloc(sizeof(int) * ((size_t)rows + 2));
    long *cells = NULL;
    PyObject *result = NULL;
    if (!start) { PyErr_NoMemory(); goto done; }
    for (int r = 0; r < rows; r++) {
        start[r] = n;
        if (span_read(PySequence_Fast_GET_ITEM(seq, r), &cells, &n, &cap) < 0) goto done;
    }
    start[rows] = n;
    if (span_read(target, &cells, &n, &cap) < 0) goto done;
    start[rows + 1] = n;
    int found = span_core(cells ? cells : (long *)start, start, rows);
    if (found < 0) PyErr_NoMemory();
    else result = PyBool_FromLong(found);
done:
    Py_DECREF(seq);
    free(start); free(cells);
    return result;
}

/* living(view, width, height, safe, mines, enough) -> int: how many of a position's certainly safe cells (`safe`, in
   order) are living, counted up to `enough` (lookahead._living, the same test: a safe cell is dead when the set of its
   uncertain neighbours is a rational combination of the uncertain neighbourhoods of the numbers within two rings of
   it, and of the whole uncertain set when no uncertain cell lies outside those neighbourhoods). */
static PyObject *living(PyObject *self, PyObject *args) {
    Py_buffer vb;
    PyObject *safe_obj, *mines_obj;
    int width, height, enough;
    if (!PyArg_ParseTuple(args, "y*iiOOi", &vb, &width, &height, &safe_obj, &mines_obj, &enough)) return NULL;
    int cells = width * height, n_safe = 0, n_mines = 0, cap_s = 0, cap_m = 0, found = 0, ok = 0;
    long *safe = NULL, *mines = NULL, *rowcells = NULL;
    unsigned char *certain = NULL;
    int *stamp = NULL, *ring = NULL, *numbers = NULL, *start = NULL, stamp_now = 0;
    PyObject *result = NULL;
    if (width <= 0 || height <= 0 || cells > (1 << 24) || vb.len != cells) {
        PyErr_SetString(PyExc_ValueError, "living: the view's length is not width * height");
        goto done;
    }
    const signed char *v = vb.buf;
    if (span_read(safe_obj, &safe, &n_safe, &cap_s) < 0 || span_read(mines_obj, &mines, &n_mines, &cap_m) < 0) goto done;
    certain = calloc((size_t)cells, 1);
    stamp = calloc((size_t)cells, sizeof(int));   /* numbers seen for the current cell */
    ring = calloc((size_t)cells, sizeof(int));    /* cells in the current ring (stamped) */
    numbers = malloc(sizeof(int) * ((size_t)cells + 1));
    start = malloc(sizeof(int) * ((size_t)cells + 3));
    rowcells = malloc(sizeof(long) * ((size_t)cells * 9 + 2 * (size_t)cells + 16));
    if (!certain || !stamp || !ring || !numbers || !start || !rowcells) { PyErr_NoMemory(); goto done; }
    for (int i = 0; i < n_safe + n_mines; i++) {
        long c = i < n_safe ? safe[i] : mines[i - n_safe];
        if (c < 0 || c >= cells) { PyErr_Format(PyExc_ValueError, "living: cell %ld is off the board", c); goto done; }
        certain[c] = 1;
    }
    int n_everything = 0;
    for (int c = 0; c < cells; c++) n_everything += v[c] == -1 && !certain[c];
#define UNCERTAIN(c) (v[c] == -1 && !certain[c])
    for (int i = 0; i < n_safe && found < enough; i++) {
        int cell = (int)safe[i], nb[8], n_nb = around(cell, width, height, nb), around_n = 0;
        long around_cells[8];
        for (int q = 0; q < n_nb; q++) if (UNCERTAIN(nb[q])) around_cells[around_n++] = nb[q];
        if (!around_n) continue;
        /* the numbers next to its uncertain neighbours, and their uncertain neighbourhoods */
        stamp_now++;
        int n_num = 0;
        for (int q = 0; q < around_n; q++) {
            int nb2[8], k = around((int)around_cells[q], width, height, nb2);
            for (int r = 0; r < k; r++) if (v[nb2[r]] >= 0 && stamp[nb2[r]] != stamp_now) { stamp[nb2[r]] = stamp_now; numbers[n_num++] = nb2[r]; }
        }
        /* a group equal to `around` (as sets): dead at once */
        int same = 0;
        for (int j = 0; j < n_num && !same; j++) {
            int nb3[8], k = around(numbers[j], width, height, nb3), size = 0, inside = 1;
            for (int r = 0; r < k; r++) {
                if (!UNCERTAIN(nb3[r])) continue;
                size++;
                int hit = 0;
                for (int q = 0; q < around_n; q++) hit |= around_cells[q] == nb3[r];
                inside &= hit;
            }
            same = inside && size == around_n;
        }
        if (same) continue;
        /* the ring: the union of those groups; then the numbers around the ring too */
        for (int j = 0; j < n_num; j++) {
            int nb3[8], k = around(numbers[j], width, height, nb3);
            for (int r = 0; r < k; r++) if (UNCERTAIN(nb3[r])) ring[nb3[r]] = stamp_now;
        }
        int first = n_num;
        for (int c = 0; c < cells; c++) { /* numbers next to a ring cell (ring cells are few: scan their neighbours) */
            if (ring[c] != stamp_now) continue;
            int nb2[8], k = around(c, width, height, nb2);
            for (int r = 0; r < k; r++) if (v[nb2[r]] >= 0 && stamp[nb2[r]] != stamp_now) { stamp[nb2[r]] = stamp_now; numbers[n_num++] = nb2[r]; }
        }
        (void)first;
        /* the rows: every non-empty group; the ring is now their union */
        int rows = 0, n_cells = 0, covered_ring = 0;
        stamp_now++; /* ring marks for the second ring */
        for (int j = 0; j < n_num; j++) {
            int nb3[8], k = around(numbers[j], width, height, nb3), here = n_cells;
            for (int r = 0; r < k; r++) if (UNCERTAIN(nb3[r])) {
                rowcells[n_cells++] = nb3[r];
                if (ring[nb3[r]] != stamp_now) { ring[nb3[r]] = stamp_now; covered_ring++; }
            }
            if (n_cells > here) start[rows++] = here;
        }
        for (int q = 0; q < around_n; q++) if (ring[around_cells[q]] != stamp_now) covered_ring++; /* ring | around */
        if (n_everything <= covered_ring) { /* nothing outside: the mine count is a row too */
            start[rows++] = n_cells;
            for (int c = 0; c < cells; c++) if (UNCERTAIN(c)) rowcells[n_cells++] = c;
        }
        start[rows] = n_cells;
        for (int q = 0; q < around_n; q++) rowcells[n_cells++] = around_cells[q];
        start[rows + 1] = n_cells;
        int in = span_core(rowcells, start, rows);
        if (in < 0) { PyErr_NoMemory(); goto done; }
        if (!in) found++;
    }
#undef UNCERTAIN
    ok = 1;
done:
    if (ok) result = PyLong_FromLong(found);
    free(safe); free(mines); free(certain); free(stamp); free(ring); free(numbers); free(start); free(rowcells);
    PyBuffer_Release(&vb);
    return result;
}

/* ---------- the number of layouts of a position ---------- */

/* a * b + c (new references; NULL with an exception set), stealing nothing */
static PyObject *py_muladd(PyObject *a, PyObject *b, PyObject *c) {
    PyObject *p = PyNumber_Multiply(a, b);
    if (!p || !c) return p;
    PyObject *s = PyNumber_Add(p, c);
    Py_DECREF(p);
    return s;
}

/* The number of layouts, as a Python int, of a position whose n components were counted into C (each ST_OK), with
   U unconstrained cells and R mines left: the product of the single-count components' counts times the sum, over the
   other components' counts, of their product times C(U, R - K). NULL with an exception set. */
static PyObject *layouts_of(Counted *C, int n, int U, int R, int cells) {
    PyObject *result = NULL, **fw = NULL, **poly = NULL, *fixed = NULL, *zero = PyLong_FromLong(0);
    int n_fw = 0, n_poly = 0, top = R;
    if (!zero) return NULL;
    if (R < 0) return zero;
    fixed = PyLong_FromLong(1);
    poly = calloc((size_t)cells + 2, sizeof(PyObject *)); /* one component's weights by count - lowest */
    fw = calloc((size_t)cells + 2, sizeof(PyObject *));   /* the running product of the multi-count ones */
    if (!fixed || !poly || !fw) { if (!PyErr_Occurred()) PyErr_NoMemory(); goto done; }
    fw[0] = PyLong_FromLong(1);
    n_fw = 1;
    if (!fw[0]) goto done;
    for (int c = 0; c < n; c++) {
        int L = C[c].L, lo = -1, hi = -1, nonzero = 0;
        Garner g = {0};
        if (L && !garner_init(&g, L)) { garner_free(&g); PyErr_NoMemory(); goto done; }
        for (int f = 0; f < C[c].n_final; f++) {
            int zero_w = 1;
            if (L) { for (int i = 0; i < L; i++) if (C[c].wk[(size_t)f * L + i]) zero_w = 0; }
            else zero_w = ((u128 *)C[c].wk)[f] == 0;
            if (zero_w) continue;
            int k = C[c].final_k[f];
            if (lo < 0 || k < lo) lo = k;
            if (k > hi) hi = k;
            nonzero++;
        }
        if (!nonzero) { if (L) garner_free(&g); result = zero; Py_INCREF(result); goto done; } /* no solution */
        n_poly = hi - lo + 1;
        for (int q = 0; q < n_poly; q++) { poly[q] = zero; Py_INCREF(zero); }
        for (int f = 0; f < C[c].n_final; f++) {
            int k = C[c].final_k[f];
            if (k < lo || k > hi) continue;
            PyObject *w = L ? garner_to_py(&g, C[c].wk + (size_t)f * L) : u128_to_py(((u128 *)C[c].wk)[f]);
            if (!w) { if (L) garner_free(&g); goto done; }
            Py_SETREF(poly[k - lo], w);
        }
        if (L) garner_free(&g);
        top -= lo;
        if (nonzero == 1) { /* a single count: a factor */
            Py_SETREF(fixed, PyNumber_Multiply(fixed, poly[0]));
            if (!fixed) goto done;
        } else { /* fw <- fw * poly */
            int out_len = n_fw + n_poly - 1;
            PyObject **out = calloc((size_t)out_len, sizeof(PyObject *));
            if (!out) { PyErr_NoMemory(); goto done; }
            for (int a = 0; a < n_fw; a++)
                for (int k = 0; k < n_poly; k++) {
                    PyObject *t = py_muladd(fw[a], poly[k], out[a + k]);
                    if (!t) { for (int i = 0; i < out_len; i++) Py_XDECREF(out[i]); free(out); goto done; }
                    Py_XSETREF(out[a + k], t);
                }
            for (int a = 0; a < n_fw; a++) Py_CLEAR(fw[a]);
            for (int a = 0; a < out_len; a++) fw[a] = out[a];
            free(out);
            n_fw = out_len;
        }
        for (int q = 0; q < n_poly; q++) Py_CLEAR(poly[q]);
        n_poly = 0;
    }
    /* sum_a fw[a] * C(U, top - a), C(U, r) by the ratio between neighbours from the lowest r needed */
    {
        int a_lo = top - U > 0 ? top - U : 0, a_hi = top < n_fw - 1 ? top : n_fw - 1;
        PyObject *sum = zero, *binom = NULL;
        Py_INCREF(sum);
        if (a_lo <= a_hi) {
            int r = top - a_hi; /* the smallest r, rising as a falls */
            PyObject *math = PyImport_ImportModule("math");
            binom = math ? PyObject_CallMethod(math, "comb", "ii", U, r) : NULL;
            Py_XDECREF(math);
            for (int a = a_hi; a >= a_lo && binom; a--) {
                r = top - a;
                PyObject *t = py_muladd(fw[a], binom, sum);
                Py_SETREF(sum, t);
                if (!sum) break;
                if (a > a_lo) { /* C(U, r + 1) = C(U, r) * (U - r) / (r + 1) */
                    PyObject *num = PyLong_FromLong(U - r), *den = PyLong_FromLong(r + 1), *m = NULL;
                    if (num && den) m = PyNumber_Multiply(binom, num);
                    Py_SETREF(binom, m ? PyNumber_FloorDivide(m, den) : NULL);
                    Py_XDECREF(m); Py_XDECREF(num); Py_XDECREF(den);
                }
            }
            if (!binom || !sum) { Py_XDECREF(binom); Py_XDECREF(sum); goto done; }
            Py_DECREF(binom);
        }
        result = PyNumber_Multiply(sum, fixed);
        Py_DECREF(sum);
    }
done:
    if (fw) { for (int a = 0; a < n_fw; a++) Py_XDECREF(fw[a]); free(fw); }
    if (poly) { for (int q = 0; q < n_poly; q++) Py_XDECREF(poly[q]); free(poly); }
    Py_XDECREF(fixed); Py_XDECREF(zero);
    return result;
}

/* The arguments count_layouts and brief share: (view, width, height, mines, max_states, max_bytes, seconds), the view
   signed bytes (-1 covered, -2 flagged, else the number shown); R is the mines less the flags. */
typedef struct {
    Py_buffer view;
    int width, height, cells, R;
    Limits lim;
} PositionArgs;

/* Parse args into pos (who names the function in an error). 0, or -1 with an exception set (nothing to release). */
static int position_args(PyObject *args, const char *who, PositionArgs *pos) {
    int mines;
    long max_states;
    Py_ssize_t max_bytes;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iiilnd", &pos->view, &pos->width, &pos->height, &mines, &max_states, &max_bytes, &seconds))
        return -1;
    pos->cells = pos->width * pos->height;
    if (pos->width <= 0 || pos->height <= 0 || pos->cells > (1 << 24) || pos->view.len != pos->cells) {
        PyBuffer_Release(&pos->view);
        PyErr_Format(PyExc_ValueError, "%s: the view's length is not width * height", who);
        return -1;
    }
    pos->R = mines;
    for (int c = 0; c < pos->cells; c++) pos->R -= ((const signed char *)pos->view.buf)[c] == -2;
    pos->lim = (Limits){max_states, (size_t)(max_bytes > 0 ? max_bytes : 0), 0, now_seconds() + seconds, 0};
    return 0;
}

/* count_layouts(view, width, height, mines, max_states, max_bytes, seconds) -> int | None: the exact number of
   layouts of the position (view: signed bytes, -1 covered, -2 flagged, else the number shown), 0 when none fits;
   None when a component cannot be counted within the limits (the analyzer then decides). The same integer as
   Probabilities.layouts. */
static PyObject *count_layouts(PyObject *self, PyObject *args) {
    PositionArgs pos;
    if (position_args(args, "count_layouts", &pos) < 0) return NULL;
    int cells = pos.cells, R = pos.R, n = 0, lent = 0;
    PyObject *result = NULL;
    Counted *C = NULL;
    Frontier F;
    if (R < 0) { result = PyLong_FromLong(0); memset(&F, 0, sizeof(F)); goto done; }
    if (frontier_lend(&F, cells, &lent) < 0) { PyErr_NoMemory(); goto done; }
    if (frontier_build(pos.view.buf, pos.width, pos.height, &F) > 0) { result = PyLong_FromLong(0); goto done; }
    n = F.n_comp;
    C = calloc((size_t)n + 1, sizeof(Counted));
    if (!C) { PyErr_NoMemory(); goto done; }
    for (int c = 0; c < n; c++) {
        if (count_nth(&F, c, &pos.lim, &C[c]) < 0) goto done;
        if (C[c].status != ST_OK) { result = Py_None; Py_INCREF(result); goto done; }
    }
    int U = F.n_un;
    frontier_give(&F, lent); /* before any Python runs */
    lent = 0;
    result = layouts_of(C, n, U, R, cells);
done:
    if (C) { for (int c = 0; c < n; c++) counted_free(&C[c]); free(C); }
    frontier_give(&F, lent);
    PyBuffer_Release(&pos.view);
    return result;
}

/* The two highest safeties among a position's covered cells that are not certainly safe, a super-cell of two or
   more cells counted twice (lookahead.best_two, from A's probabilities; sizes from A's frontier). */
static void best_two_of(const An *A, double *b1_out, double *b2_out) {
    double b1 = 0.0, b2 = 0.0;
    int n_pr = 0;
    for (int c = 0; c < A->n; c++) {
        int ci = A->F.info[c].index, m_sc = A->F.sc_off[ci + 1] - A->F.sc_off[ci];
        const int *scs = A->F.sc_by_comp + A->F.sc_off[ci];
        for (int a = 0; a < m_sc; a++) {
            double p = A->pr[n_pr++];
            int size = A->F.sc_start[scs[a] + 1] - A->F.sc_start[scs[a]];
            if (p <= 0.0) continue;
            double s = 1.0 - p;
            if (s > b1) { b2 = size == 1 ? b1 : s; b1 = s; }
            else if (s > b2) b2 = s;
        }
    }
    if (A->U && A->p_un > 0.0) {
        double s = 1.0 - A->p_un;
        if (s > b1) { b2 = A->U == 1 ? b1 : s; b1 = s; }
        else if (s > b2) b2 = s;
    }
    *b1_out = b1; *b2_out = b2;
}

static PyObject *cells_tuple(const int *cells, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *c = cell_int(cells[i]);
        if (!c) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, c);
    }
    return t;
}

/* brief(view, width, height, mines, max_states, max_bytes, seconds) -> (layouts, safe, mines, b1, b2) | None: what
   best's look-ahead reads of a position after a reveal (lookahead.evaluate): the number of layouts (0 when none
   fits), the certainly safe and mined cells (sorted), and the two highest safeties of lookahead.best_two; None when
   the kernel cannot count it or vouch for a probability (the analyzer then answers). */
static PyObject *brief(PyObject *self, PyObject *args) {
    PositionArgs pos;
    if (position_args(args, "brief", &pos) < 0) return NULL;
    int cells = pos.cells, R = pos.R, lent = 0;
    PyObject *result = NULL, *layouts = NULL, *safe = NULL, *mined = NULL;
    int *safe_cells = NULL, *mine_cells = NULL;
    An A;
    memset(&A, 0, sizeof(A));
    Play P;
    memset(&P, 0, sizeof(P));
    safe_cells = malloc(sizeof(int) * ((size_t)cells + 1));
    mine_cells = malloc(sizeof(int) * ((size_t)cells + 1));
    if (!safe_cells || !mine_cells || frontier_lend(&P.frontier, cells, &lent) < 0) { PyErr_NoMemory(); goto done; }
    P.width = pos.width; P.height = pos.height; P.cells = cells; P.view = (signed char *)pos.view.buf; /* read only */
    P.safe = safe_cells; P.mines = mine_cells;
    int got = R < 0 ? PLAY_STOP : an_count(&P, R, &pos.lim, &A);
    if (R < 0) A.none = 1;
    if (got == PLAY_ERROR) goto done;
    if (got == PLAY_STOP) {
        result = A.none ? Py_BuildValue("(i()()dd)", 0, 0.0, 0.0) : Py_None;
        if (!A.none) Py_INCREF(result);
        goto done;
    }
    int weighed = an_floats(&A);
    if (weighed == PLAY_ERROR) goto done;
    if (weighed) { result = Py_None; Py_INCREF(result); goto done; }
    double b1, b2;
    best_two_of(&A, &b1, &b2);
    qsort(mine_cells, (size_t)P.n_mines, sizeof(int), cmp_int);
    frontier_give(&P.frontier, lent); /* before any Python runs */
    lent = 0;
    layouts = layouts_of(A.C, A.n, A.U, A.R, cells);
    safe = cells_tuple(safe_cells, P.n_safe);
    mined = cells_tuple(mine_cells, P.n_mines);
    if (layouts && safe && mined) result = Py_BuildValue("(OOOdd)", layouts, safe, mined, b1, b2);
done:
    Py_XDECREF(layouts); Py_XDECREF(safe); Py_XDECREF(mined);
    an_free(&A);
    frontier_give(&P.frontier, lent);
    free(safe_cells); free(mine_cells);
    PyBuffer_Release(&pos.view);
    return result;
}
