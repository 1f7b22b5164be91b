/* The exact strategy's game loop in C: play_exact, included by _players.c (it uses the frontier, the count and the
   single-point pass of analysis/exact/_count.c).

   It plays what sweeplab.strategies.exact.ExactStrategy plays, move for move: the queued certain reveals in order;
   when the queue is empty, the single-point pass with the mines proved so far (the cells it frees, sorted, join the
   queue); when that frees nothing, the full analysis: its certain mines are kept, its certain safe cells (sorted)
   join the queue, and with none the covered cell of lowest mine probability is guessed, ties (within TIE) going to
   a corner, then an edge, then the most covered neighbours, then the lowest index (exact.py's preferred_cell).

   The analysis is the kernel's count of every component, then the weighing by C(U, R - K). The certain cells come
   from small integers (which mine counts some layout of the whole position completes, as weighting.py's
   _certain_exact finds them). The probabilities are weighed in double-double arithmetic (about 104 bits), each
   rounded to the nearest double; Python rounds the exact fraction to the nearest double, and the two agree whenever
   the double-double value is farther from a rounding boundary than its error bound (2^-80 of the value, far above the
   arithmetic's own error), which play_exact checks for every probability it compares. Where it cannot vouch for a
   move (a component counted past 128 bits or not counted within the limits, a probability too close to a rounding
   boundary, values out of the double range, a flag on the board) it stops before that move and says so: the Python
   strategy plays on from there. */

#define PLAY_TIE 1e-12 /* exact.py's TIE */

typedef struct { double hi, lo; } dd;

static inline dd dd_two_sum(double a, double b) {
    double s = a + b, bb = s - a;
    return (dd){s, (a - (s - bb)) + (b - bb)};
}

static inline dd dd_quick(double a, double b) {
    double s = a + b;
    return (dd){s, b - (s - a)};
}

static inline dd dd_add(dd a, dd b) {
    dd s = dd_two_sum(a.hi, b.hi), t = dd_two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = dd_quick(s.hi, s.lo);
    s.lo += t.lo;
    return dd_quick(s.hi, s.lo);
}

static inline void dd_split(double a, double *hi, double *lo) { /* Dekker's split: no fused multiply-add needed */
    double t = 134217729.0 * a; /* 2^27 + 1 */
    *hi = t - (t - a);
    *lo = a - *hi;
}

static inline dd dd_two_prod(double a, double b) {
    double p = a * b, ah, al, bh, bl;
    dd_split(a, &ah, &al);
    dd_split(b, &bh, &bl);
    return (dd){p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

static inline dd dd_mul(dd a, dd b) {
    dd p = dd_two_prod(a.hi, b.hi);
    p.lo += a.hi * b.lo + a.lo * b.hi;
    return dd_quick(p.hi, p.lo);
}

static inline dd dd_mul_d(dd a, double b) {
    dd p = dd_two_prod(a.hi, b);
    p.lo += a.lo * b;
    return dd_quick(p.hi, p.lo);
}

static inline dd dd_neg(dd a) { return (dd){-a.hi, -a.lo}; }

static dd dd_div(dd a, dd b) {
    double q1 = a.hi / b.hi;
    dd r = dd_add(a, dd_neg(dd_mul_d(b, q1)));
    double q2 = r.hi / b.hi;
    r = dd_add(r, dd_neg(dd_mul_d(b, q2)));
    double q3 = r.hi / b.hi;
    return dd_add(dd_quick(q1, q2), (dd){q3, 0.0});
}

static inline dd dd_from_u128(u128 x, int shift) { /* x * 2^-shift; x < 2^126 */
    double hi = (double)x;
    __int128 rest = (__int128)x - (__int128)(u128)hi;
    return (dd){ldexp(hi, -shift), ldexp((double)rest, -shift)};
}

static inline int dd_sane(dd a) { /* zero, or within a range where the low part keeps its precision */
    double m = fabs(a.hi);
    return a.hi == 0.0 ? a.lo == 0.0 : (m > 0x1p-900 && m < 0x1p900);
}

/* The nearest double to the true value that a (relative error at most 2^-80) approximates, into *out: 1 when that
   is certain, 0 when the value is too near a rounding boundary (or out of range) to say. */
static int dd_round(dd a, double *out) {
    if (!dd_sane(a) || a.hi < 0) return 0;
    if (a.hi == 0.0) { *out = 0.0; return 1; }
    double h = a.hi, err = h * 0x1p-80;
    double up = nextafter(h, INFINITY) - h, down = h - nextafter(h, 0.0);
    if (a.lo >= 0 ? a.lo + err < up / 2 : -a.lo + err < down / 2) { *out = h; return 1; }
    return 0;
}

/* ---------- bit sets of mine totals (bit s: a total of s) ---------- */

typedef struct { int words; uint64_t *bits; } Bits;

static inline int bits_get(const uint64_t *b, int s) { return (int)((b[s >> 6] >> (s & 63)) & 1); }
static inline void bits_set(uint64_t *b, int s) { b[s >> 6] |= (uint64_t)1 << (s & 63); }

/* out |= a << shift (bits past the last word dropped) */
static void bits_or_shifted(uint64_t *out, const uint64_t *a, int shift, int words) {
    int w = shift >> 6, b = shift & 63;
    for (int i = words - 1; i >= w; i--) {
        uint64_t v = a[i - w] << b;
        if (b && i - w - 1 >= 0) v |= a[i - w - 1] >> (64 - b);
        out[i] |= v;
    }
}

/* Clear the bits above `top`. */
static void bits_cut(uint64_t *a, int top, int words) {
    int w = top >> 6, b = top & 63;
    if (w < words && b < 63) a[w] &= ((uint64_t)1 << (b + 1)) - 1;
    for (int i = w + 1; i < words; i++) a[i] = 0;
}

/* out = {s + k : s in a, k in ks} cut at `top` (out must not alias a) */
static void bits_sumset(const uint64_t *a, const int *ks, int n_ks, int top, uint64_t *out, int words) {
    memset(out, 0, sizeof(uint64_t) * (size_t)words);
    for (int q = 0; q < n_ks; q++) if (ks[q] <= top) bits_or_shifted(out, a, ks[q], words);
    bits_cut(out, top, words);
}

/* ---------- one analysis ---------- */

enum { PLAY_CERTAIN = 0, PLAY_GUESS = 1, PLAY_STOP = 2, PLAY_ERROR = -1 };

typedef struct {
    int width, height, cells;
    signed char *view;        /* -1 covered, 0..8 revealed (no flags) */
    unsigned char *proved;    /* the mines proved so far (one byte per cell) */
    int *safe, n_safe;        /* out: certain safe cells, sorted */
    int *mines, n_mines;      /* out: certain mine cells */
    int guess, unconstrained; /* out: the guess and whether no number touches it */
    double safety;            /* out: 1 - its probability */
    Frontier frontier;        /* the arrays of every analysis in the game (frontier_lend) */
} Play;

/* The preferred cell among candidates: a corner, then an edge, then the most covered neighbours, then the lowest
   index (exact.py's preferred_cell). */
static int play_preferred(const Play *P, const int *cand, int n) {
    int best = -1, best_place = 3, best_cov = -1;
    for (int i = 0; i < n; i++) {
        int c = cand[i], x = c % P->width, y = c / P->width;
        int on_x = x == 0 || x == P->width - 1, on_y = y == 0 || y == P->height - 1;
        int place = on_x && on_y ? 0 : (on_x || on_y ? 1 : 2);
        if (place > best_place) continue;
        int nb[8], n_nb = around(c, P->width, P->height, nb), cov = 0;
        for (int q = 0; q < n_nb; q++) cov += P->view[nb[q]] == -1;
        if (place < best_place || cov > best_cov || (cov == best_cov && c < best)) { best = c; best_place = place; best_cov = cov; }
    }
    return best;
}

static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }

/* One analysis in stages: an_count counts P's position and finds its certain cells, an_floats weighs every
   super-cell's probability (as the double Python rounds the exact fraction to), an_free lets it go. */
typedef struct {
    Frontier F;          /* the frontier (P's arrays) */
    int n, U, R;         /* components, unconstrained cells, mines left */
    int none;            /* an_count's PLAY_STOP: 1 when no layout fits the position (proved), 0 when not counted */
    Counted *C;          /* each component's count, in F.info's order */
    int *ks, *ks_start;  /* each component's counts with a non-zero weight */
    int *done_k;         /* whether some layout of the whole position completes each */
    double *pr, p_un;    /* an_floats: per super-cell (components in order, their super-cells in order), unconstrained */
    unsigned char *lent; /* an_count_from's reuse: C[c] is the caller's when lent[c] (not freed here); NULL: none */
} An;

static void an_free(An *A) {
    for (int c = 0; c < A->n && A->C; c++) if (!A->lent || !A->lent[c]) counted_free(&A->C[c]);
    free(A->C); free(A->ks); free(A->ks_start); free(A->done_k); free(A->pr); free(A->lent);
    memset(A, 0, sizeof(*A));
}

static int an_count_from(Play *P, int R, Limits *lim, An *A, const Counted *const *reuse);

/* Count P's position (R mines left) into A, its certain cells into P->safe (sorted) and P->mines: PLAY_CERTAIN when
   some cell is certainly safe, PLAY_GUESS when none is, PLAY_STOP (left to Python: A may hold part), PLAY_ERROR (an
   exception set). Free A with an_free in every case. */
static int an_count(Play *P, int R, Limits *lim, An *A) {
    memset(A, 0, sizeof(*A));
    A->F = P->frontier; /* the game's arrays, built afresh */
    if (frontier_build(P->view, P->width, P->height, &A->F) > 0) { A->none = 1; return PLAY_STOP; }
    return an_count_from(P, R, lim, A, NULL);
}

/* an_count once A->F holds P's frontier (built; A zeroed otherwise): with `reuse`, one pointer per component (in
   F.info's order), a component whose pointer is not NULL takes that count (of the same component, counted before:
   ST_OK with L == 0) instead of counting it again; A lends it, an_free leaves it to the caller. */
static int an_count_from(Play *P, int R, Limits *lim, An *A, const Counted *const *reuse) {
    Frontier F = A->F;
    int result = PLAY_STOP;
    int n = F.n_comp, U = F.n_un;
    A->n = n; A->U = U; A->R = R;
    Counted *C = A->C = calloc((size_t)n + 1, sizeof(Counted));
    int *ks = NULL, *ks_start = NULL, *done_k = NULL;
    uint64_t *pre = NULL, *suf = NULL, *others = NULL;
    if (!C) { PyErr_NoMemory(); return PLAY_ERROR; }
    if (reuse && !(A->lent = calloc((size_t)n + 1, 1))) { PyErr_NoMemory(); return PLAY_ERROR; }
    P->n_safe = P->n_mines = 0;
    for (int c = 0; c < n; c++) {
        if (reuse && reuse[c]) {
            C[c] = *reuse[c];
            A->lent[c] = 1;
        } else if (count_nth(&F, c, lim, &C[c]) < 0) { result = PLAY_ERROR; goto out; }
        if (C[c].status != ST_OK || C[c].L != 0) goto out; /* Python counts or estimates it */
        if (C[c].n_final == 0) { A->none = 1; goto out; }
    }
    if (R < 0) { A->none = 1; goto out; }
    /* each component's possible counts (non-zero weight) */
    int n_ks = 0;
    for (int c = 0; c < n; c++) n_ks += C[c].n_final;
    ks = A->ks = malloc(sizeof(int) * ((size_t)n_ks + 1));
    ks_start = A->ks_start = malloc(sizeof(int) * ((size_t)n + 1));
    done_k = A->done_k = calloc((size_t)n_ks + 1, sizeof(int));
    int words = R / 64 + 1;
    pre = calloc((size_t)(n + 1) * words, sizeof(uint64_t));
    suf = calloc((size_t)words * 2, sizeof(uint64_t));
    others = calloc((size_t)words, sizeof(uint64_t));
    if (!ks || !ks_start || !done_k || !pre || !suf || !others) { PyErr_NoMemory(); result = PLAY_ERROR; goto out; }
    n_ks = 0;
    for (int c = 0; c < n; c++) {
        ks_start[c] = n_ks;
        for (int f = 0; f < C[c].n_final; f++) if (((u128 *)C[c].wk)[f]) ks[n_ks++] = C[c].final_k[f];
        if (n_ks == ks_start[c]) { A->none = 1; goto out; }
    }
    ks_start[n] = n_ks;
    /* which counts of each component some layout of the whole position completes: prefix and suffix sum sets */
    bits_set(pre, 0);
    for (int c = 0; c < n; c++)
        bits_sumset(pre + (size_t)c * words, ks + ks_start[c], ks_start[c + 1] - ks_start[c], R, pre + (size_t)(c + 1) * words, words);
    int low = R - U > 0 ? R - U : 0, any_total = 0, only_r = 1, only_ru = 1;
    for (int s = 0; s <= R; s++) {
        if (!bits_get(pre + (size_t)n * words, s) || s < low) continue;
        any_total = 1;
        if (s != R) only_r = 0;
        if (s != R - U) only_ru = 0;
    }
    if (!any_total) { A->none = 1; goto out; } /* no global count fits: Python names the fault */
    uint64_t *sf = suf, *sf_next = suf + words;
    memset(sf, 0, sizeof(uint64_t) * words);
    bits_set(sf, 0);
    for (int c = n - 1; c >= 0; c--) {
        const uint64_t *pc = pre + (size_t)c * words;
        memset(others, 0, sizeof(uint64_t) * words); /* the other components' totals: prefix + suffix */
        for (int s = 0; s <= R; s++) if (bits_get(pc, s)) bits_or_shifted(others, sf, s, words);
        bits_cut(others, R, words);
        for (int q = ks_start[c]; q < ks_start[c + 1]; q++) {
            int k = ks[q];
            for (int s = 0; s + k <= R; s++) if (s + k >= low && bits_get(others, s)) { done_k[q] = 1; break; }
        }
        bits_sumset(sf, ks + ks_start[c], ks_start[c + 1] - ks_start[c], R, sf_next, words);
        uint64_t *t = sf; sf = sf_next; sf_next = t;
    }
    /* certain cells: a super-cell's expected mines are 0 (all of it) at every completed count */
    for (int c = 0; c < n; c++) {
        int ci = F.info[c].index, m_sc = F.sc_off[ci + 1] - F.sc_off[ci];
        const int *scs = F.sc_by_comp + F.sc_off[ci];
        const u128 *wk = (const u128 *)C[c].wk, *ek = (const u128 *)C[c].ek;
        for (int a = 0; a < m_sc; a++) {
            int s = scs[a], size = F.sc_start[s + 1] - F.sc_start[s], zero = 1, full = 1;
            for (int f = 0, q = ks_start[c]; f < C[c].n_final; f++) {
                if (!wk[f]) continue;
                if (done_k[q]) {
                    u128 e = ek[(size_t)f * m_sc + a];
                    if (e) zero = 0;
                    if (e != wk[f] * (u128)size) full = 0;
                }
                q++;
            }
            for (int i = F.sc_start[s]; i < F.sc_start[s + 1]; i++) {
                if (zero) P->safe[P->n_safe++] = F.sc_cells[i];
                else if (full) P->mines[P->n_mines++] = F.sc_cells[i];
            }
        }
    }
    int un_safe = U > 0 && only_r, un_mines = U > 0 && U <= R && only_ru; /* every total leaves them 0 (all) */
    if (un_safe || un_mines) {
        for (int c = 0; c < P->cells; c++) {
            if (P->view[c] != -1 || F.touch_count[c]) continue;
            if (un_safe) P->safe[P->n_safe++] = c;
            else P->mines[P->n_mines++] = c;
        }
    }
    if (P->n_safe) qsort(P->safe, (size_t)P->n_safe, sizeof(int), cmp_int);
    result = P->n_safe ? PLAY_CERTAIN : PLAY_GUESS;
out:
    free(pre); free(suf); free(others);
    return result;
}

/* Weigh the position an_count counted into A: A->pr and A->p_un (2.0 without unconstrained cells). 0, PLAY_STOP
   when a probability cannot be vouched for (or the values leave the double range), or PLAY_ERROR. Each component's
   weights and expectations are scaled by a power of two (exactly); a component with one possible count is fixed and
   leaves the others' odds alone. */
static int an_floats(An *A) {
    Frontier F = A->F;
    int n = A->n, U = A->U, top_all = A->R, result = PLAY_STOP;
    Counted *C = A->C;
    const int *ks = A->ks, *ks_start = A->ks_start;
    dd *pd = NULL, *fw = NULL, *dv = NULL, *dnext = NULL, *g = NULL, *cw = NULL;
    double *pr = NULL;
    int *p_lo = NULL, *p_len = NULL, *fw_off = NULL, *multi = NULL, *shift = NULL;
    p_lo = malloc(sizeof(int) * ((size_t)n + 1)); p_len = malloc(sizeof(int) * ((size_t)n + 1));
    multi = malloc(sizeof(int) * ((size_t)n + 1)); shift = malloc(sizeof(int) * ((size_t)n + 1));
    fw_off = malloc(sizeof(int) * ((size_t)n + 2));
    if (!p_lo || !p_len || !multi || !shift || !fw_off) { PyErr_NoMemory(); result = PLAY_ERROR; goto out; }
    int n_multi = 0, poly_total = 0;
    for (int c = 0; c < n; c++) {
        int lo = ks[ks_start[c]], hi = lo;
        u128 biggest = 0;
        for (int q = ks_start[c]; q < ks_start[c + 1]; q++) { if (ks[q] < lo) lo = ks[q]; if (ks[q] > hi) hi = ks[q]; }
        for (int f = 0; f < C[c].n_final; f++) if (((u128 *)C[c].wk)[f] > biggest) biggest = ((u128 *)C[c].wk)[f];
        int b = 0;
        while (b < 127 && (biggest >> (b + 1))) b++;
        shift[c] = b;
        p_lo[c] = lo; p_len[c] = hi - lo + 1;
        if (ks_start[c + 1] - ks_start[c] == 1) top_all -= lo;
        else { multi[n_multi++] = c; top_all -= lo; poly_total += p_len[c]; }
    }
    int length = 1;
    for (int j = 0; j < n_multi; j++) length += p_len[multi[j]] - 1;
    pd = calloc((size_t)poly_total + 1, sizeof(dd));
    fw = calloc((size_t)(n_multi + 1) * length + 1, sizeof(dd));
    dv = calloc((size_t)length + 1, sizeof(dd)); dnext = calloc((size_t)length + 1, sizeof(dd));
    cw = calloc((size_t)length + 1, sizeof(dd));
    g = calloc((size_t)poly_total + 1, sizeof(dd));
    pr = A->pr = malloc(sizeof(double) * ((size_t)F.n_sc + 1));
    if (!pd || !fw || !dv || !dnext || !cw || !g || !pr) { PyErr_NoMemory(); result = PLAY_ERROR; goto out; }
    for (int j = 0, off = 0; j < n_multi; j++) { /* the polynomials: scaled weights by count - lo */
        int c = multi[j];
        fw_off[j] = off;
        for (int f = 0; f < C[c].n_final; f++) {
            u128 w = ((u128 *)C[c].wk)[f];
            if (w) pd[off + C[c].final_k[f] - p_lo[c]] = dd_from_u128(w, shift[c]);
        }
        off += p_len[c];
    }
    /* C(U, top_all - a) for a in 0..length-1, relative to its largest value (from there outwards by ratios) */
    {
        int a_lo = top_all - U > 0 ? top_all - U : 0, a_hi = top_all < length - 1 ? top_all : length - 1;
        if (a_lo > a_hi) goto out;
        int peak = top_all - U / 2; /* r = U / 2 is the largest C(U, r) */
        if (peak < a_lo) peak = a_lo;
        if (peak > a_hi) peak = a_hi;
        cw[peak] = (dd){1.0, 0.0};
        for (int a = peak + 1; a <= a_hi; a++) { /* r = top_all - a falls: C(U, r) = C(U, r + 1) * (r + 1) / (U - r) */
            int r = top_all - a;
            cw[a] = dd_div(dd_mul_d(cw[a - 1], (double)(r + 1)), (dd){(double)(U - r), 0.0});
        }
        for (int a = peak - 1; a >= a_lo; a--) { /* r rises: C(U, r) = C(U, r - 1) * (U - r + 1) / r */
            int r = top_all - a;
            cw[a] = dd_div(dd_mul_d(cw[a + 1], (double)(U - r + 1)), (dd){(double)r, 0.0});
        }
    }
    /* forward products F_0 = 1, F_{j+1} = F_j * P_j; fw row j has length 1 + sum of the earlier degrees */
    fw[0] = (dd){1.0, 0.0};
    {
        int len = 1;
        for (int j = 0; j < n_multi; j++) {
            const dd *f = fw + (size_t)j * length, *p = pd + fw_off[j];
            dd *o = fw + (size_t)(j + 1) * length;
            int pl = p_len[multi[j]];
            for (int a = 0; a < len; a++) {
                if (f[a].hi == 0.0) continue;
                for (int k = 0; k < pl; k++) if (p[k].hi != 0.0) o[a + k] = dd_add(o[a + k], dd_mul(f[a], p[k]));
            }
            len += pl - 1;
        }
    }
    /* backward: D = C row; g_j(k) = sum_a F_j(a) D(a + k); D <- sum_k P_j(k) D(s + k) */
    memcpy(dv, cw, sizeof(dd) * (size_t)length);
    {
        int dlen = length;
        for (int j = n_multi - 1; j >= 0; j--) {
            const dd *f = fw + (size_t)j * length, *p = pd + fw_off[j];
            int pl = p_len[multi[j]], flen = dlen - pl + 1;
            for (int k = 0; k < pl; k++) {
                dd sum = {0.0, 0.0};
                for (int a = 0; a < flen; a++) if (f[a].hi != 0.0 && dv[a + k].hi != 0.0) sum = dd_add(sum, dd_mul(f[a], dv[a + k]));
                g[fw_off[j] + k] = sum;
            }
            if (j) {
                for (int s = 0; s < flen; s++) {
                    dd sum = {0.0, 0.0};
                    for (int k = 0; k < pl; k++) if (p[k].hi != 0.0 && dv[s + k].hi != 0.0) sum = dd_add(sum, dd_mul(p[k], dv[s + k]));
                    dnext[s] = sum;
                }
                dd *t = dv; dv = dnext; dnext = t;
                dlen = flen;
            }
        }
    }
    /* each super-cell's probability, rounded as Python rounds the exact fraction */
    int n_pr = 0;
    for (int c = 0; c < n; c++) {
        int ci = F.info[c].index, m_sc = F.sc_off[ci + 1] - F.sc_off[ci], j = -1;
        const int *scs = F.sc_by_comp + F.sc_off[ci];
        const u128 *wk = (const u128 *)C[c].wk, *ek = (const u128 *)C[c].ek;
        for (int q = 0; q < n_multi; q++) if (multi[q] == c) j = q;
        dd den = {0.0, 0.0};
        if (j < 0) {
            for (int f = 0; f < C[c].n_final; f++) if (wk[f]) den = dd_from_u128(wk[f], shift[c]);
        } else {
            for (int f = 0; f < C[c].n_final; f++)
                if (wk[f]) den = dd_add(den, dd_mul(dd_from_u128(wk[f], shift[c]), g[fw_off[j] + C[c].final_k[f] - p_lo[c]]));
        }
        if (!dd_sane(den) || den.hi <= 0.0) goto out;
        for (int a = 0; a < m_sc; a++) {
            int s = scs[a], size = F.sc_start[s + 1] - F.sc_start[s];
            dd num = {0.0, 0.0};
            for (int f = 0; f < C[c].n_final; f++) {
                if (!wk[f]) continue;
                u128 e = ek[(size_t)f * m_sc + a];
                if (!e) continue;
                dd term = dd_from_u128(e, shift[c]);
                if (j >= 0) term = dd_mul(term, g[fw_off[j] + C[c].final_k[f] - p_lo[c]]);
                num = dd_add(num, term);
            }
            double p;
            if (!dd_sane(num) || !dd_round(dd_div(num, dd_mul_d(den, (double)size)), &p)) goto out;
            pr[n_pr++] = p;
        }
    }
    double p_un = 2.0; /* none */
    if (U) {
        dd z = {0.0, 0.0}, un = {0.0, 0.0};
        const dd *fin = fw + (size_t)n_multi * length;
        for (int a = 0; a < length; a++) {
            if (fin[a].hi == 0.0 || cw[a].hi == 0.0) continue;
            dd t = dd_mul(fin[a], cw[a]);
            z = dd_add(z, t);
            if (top_all - a) un = dd_add(un, dd_mul_d(t, (double)(top_all - a)));
        }
        if (!dd_sane(z) || z.hi <= 0.0 || !dd_sane(un) || !dd_round(dd_div(un, dd_mul_d(z, (double)U)), &p_un)) goto out;
    }
    A->p_un = p_un;
    result = 0;
out:
    free(pd); free(fw); free(dv); free(dnext); free(cw); free(g);
    free(p_lo); free(p_len); free(fw_off); free(multi); free(shift);
    return result;
}


/* pseq's guess in a counted and weighed position (pseq/_figures.c, included after this file). */
static int pseq_choose(Play *P, An *A, PyObject *rng, long max_states, Py_ssize_t max_bytes, double seconds);

/* Analyse P's position with R mines left: PLAY_CERTAIN (P->safe holds the certain safe cells), PLAY_GUESS (P->guess
   and P->safety set; P->mines as for PLAY_CERTAIN), PLAY_STOP (left to Python), PLAY_ERROR (an exception set). With
   `rng` (not NULL) the guess is pseq's (pseq_choose, its figures counted under max_states, max_bytes and seconds, as
   the loop's analyses), drawing from rng where its rule leaves a tie; else exact's. */
static int play_analyse(Play *P, int R, Limits *lim, PyObject *rng, long max_states, Py_ssize_t max_bytes, double seconds) {
    An A;
    int result = an_count(P, R, lim, &A);
    if (result == PLAY_GUESS) {
        int weighed = an_floats(&A);
        if (weighed) result = weighed;
    }
    if (result == PLAY_GUESS && rng) {
        result = pseq_choose(P, &A, rng, max_states, max_bytes, seconds);
        an_free(&A);
        return result;
    }
    if (result != PLAY_GUESS) { an_free(&A); return result; }
    Frontier F = A.F;
    int n = A.n, U = A.U;
    const double *pr = A.pr, p_un = A.p_un;
    int *cand = malloc(sizeof(int) * ((size_t)P->cells + 1));
    if (!cand) { an_free(&A); PyErr_NoMemory(); return PLAY_ERROR; }
    result = PLAY_STOP;
    /* the candidates within TIE of the lowest, then the preferred one */
    int n_cand = 0, n_pr = 0;
    double best = p_un, limit;
    for (int i = 0; i < F.n_sc; i++) if (pr[i] < best) best = pr[i];
    limit = best + PLAY_TIE;
    for (int c = 0; c < n; c++) {
        int ci = F.info[c].index, m_sc = F.sc_off[ci + 1] - F.sc_off[ci];
        const int *scs = F.sc_by_comp + F.sc_off[ci];
        for (int a = 0; a < m_sc; a++) {
            int s = scs[a];
            if (pr[n_pr++] <= limit) for (int i = F.sc_start[s]; i < F.sc_start[s + 1]; i++) cand[n_cand++] = F.sc_cells[i];
        }
    }
    if (U && p_un <= limit)
        for (int c = 0; c < P->cells; c++) if (P->view[c] == -1 && !F.touch_count[c]) cand[n_cand++] = c;
    if (!n_cand) goto out;
    P->guess = play_preferred(P, cand, n_cand);
    P->unconstrained = !F.touch_count[P->guess];
    {
        double p = P->unconstrained ? p_un : -1.0;
        if (!P->unconstrained) { /* its super-cell's probability */
            n_pr = 0;
            for (int c = 0; c < n && p < 0; c++) {
                int ci = F.info[c].index, m_sc = F.sc_off[ci + 1] - F.sc_off[ci];
                const int *scs = F.sc_by_comp + F.sc_off[ci];
                for (int a = 0; a < m_sc && p < 0; a++, n_pr++)
                    for (int i = F.sc_start[scs[a]]; i < F.sc_start[scs[a] + 1]; i++) if (F.sc_cells[i] == P->guess) p = pr[n_pr];
            }
        }
        P->safety = 1.0 - p;
    }
    result = PLAY_GUESS;
out:
    free(cand);
    an_free(&A);
    return result;
}

/* ---------- the game loop ---------- */

/* Reads a list or tuple of `cells` small ints (or bools) into bytes, as read_view reads a view; -1 with an exception
   set otherwise. */
static int read_cells(PyObject *seq, Py_ssize_t cells, signed char *out, int lo, int hi, const char *what) {
    if (!(PyList_CheckExact(seq) || PyTuple_CheckExact(seq)) || PySequence_Fast_GET_SIZE(seq) != cells) {
        PyErr_Format(PyExc_ValueError, "play_exact: %s must be a list or tuple of one value per cell", what);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < cells; i++) {
        long v = view_value(items[i]); /* a bool is an int: True reads 1 */
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < lo || v > hi) { PyErr_Format(PyExc_ValueError, "play_exact: %s of cell %zd is %ld", what, i, v); return -1; }
        out[i] = (signed char)v;
    }
    return 0;
}

/* This thread's CPU clock in seconds (as Python's time.thread_time). */
static double thread_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* play_exact(mine, number, view, proved, width, height, mines, moves, limit, max_states, max_bytes, seconds, first=-1,
   deadline=0, guesses=0, pseq_rng=None)
   -> (done, cells, guesses, opened). See the module's methods table. With guesses > 0 the loop stops before the guess
   after that many: that guess is the last of the list, with the move -1, unplayed (a rollout's horizon); with
   guesses < 0 it stops so before the first (a player that makes its own guesses). With pseq_rng (a random.Random)
   the guesses are pseq's rule's, its ties drawn from pseq_rng. */
static PyObject *play_exact(PyObject *self, PyObject *args) {
    PyObject *mine_in, *number_in, *view_list, *rng = NULL;
    Py_buffer pb;
    int width, height, mines, moves, limit, first = -1, horizon = 0, n_guessed = 0;
    long max_states;
    Py_ssize_t max_bytes;
    double seconds, deadline = 0.0;
    if (!PyArg_ParseTuple(args, "OOO!w*iiiiilnd|idiO", &mine_in, &number_in, &PyList_Type, &view_list, &pb, &width,
                          &height, &mines, &moves, &limit, &max_states, &max_bytes, &seconds, &first, &deadline, &horizon,
                          &rng))
        return NULL;
    if (rng == Py_None) rng = NULL;
    PyObject *result = NULL, *cells_out = NULL, *guesses = NULL;
    int cells = width * height;
    unsigned char *proved = pb.buf;
    int pw = width + 2;
    size_t padded = (size_t)pw * (size_t)(height + 2);
    signed char *pv = NULL, *layout = NULL, *view = NULL;
    unsigned char *state = NULL, *inq = NULL;
    int *block = NULL, *work = NULL, *queue = NULL, *freed = NULL, *stack = NULL, *safe = NULL, *mines_found = NULL;
    int lent = 0;
    Play P;
    memset(&P, 0, sizeof(P));
    if (width <= 0 || height <= 0 || cells > (1 << 24) || pb.len != cells) {
        PyErr_SetString(PyExc_ValueError, "play_exact: sizes disagree");
        goto done;
    }
    /* one block: the int arrays, then the mines, the numbers, the view, the view as it came and the padded arrays */
    size_t n1 = (size_t)cells + 1;
    block = malloc(sizeof(int) * (padded + 1 + 5 * n1) + 4 * (size_t)cells + 3 * padded);
    if (!block) { PyErr_NoMemory(); goto done; }
    work = block; queue = work + padded + 1; freed = queue + n1; stack = freed + n1; safe = stack + n1;
    mines_found = safe + n1;
    layout = (signed char *)(mines_found + n1);
    pv = layout + 4 * (size_t)cells;
    state = (unsigned char *)pv + padded; inq = state + padded;
    memset(state, 0, 2 * padded);
    const unsigned char *mine = (unsigned char *)layout, *number = (unsigned char *)layout + cells;
    view = layout + 2 * (size_t)cells;
    signed char *given = layout + 3 * (size_t)cells;
    if (read_cells(mine_in, cells, layout, 0, 1, "mine") < 0 || read_cells(number_in, cells, layout + cells, 0, 8, "number") < 0
        || read_cells(view_list, cells, view, -2, 8, "view") < 0)
        goto done;
    memcpy(given, view, (size_t)cells);
    if (first >= cells || (first >= 0 && view[first] != -1)) {
        PyErr_SetString(PyExc_ValueError, "play_exact: the first cell must be covered");
        goto done;
    }
    cells_out = PyList_New(0); guesses = PyList_New(0);
    if (!cells_out || !guesses) goto done;
    const int off[8] = {-pw - 1, -pw, -pw + 1, -1, 1, pw - 1, pw, pw + 1};
    int top = 0, left = cells - mines, opened = 0, finished = 0, flags = 0;
    memset(pv, 9, padded);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            int i = y * width + x, p = (y + 1) * pw + x + 1;
            pv[p] = view[i];
            if (view[i] >= 0) { left--; work[top++] = p; inq[p] = 1; }
            else if (view[i] == -2) flags++;
            else if (proved[i]) state[p] = 1;
        }
    if (first >= 0 && (flags || left <= 0)) {
        PyErr_SetString(PyExc_ValueError, "play_exact: a first cell on a board with flags or nothing left to open");
        goto done;
    }
    if (flags || left <= 0) goto finish; /* flags: the Python strategy's to play (it never places one itself) */
    P = (Play){width, height, cells, view, proved, safe, 0, mines_found, 0, -1, 0, 0.0, {0}};
    if (frontier_lend(&P.frontier, cells, &lent) < 0) { PyErr_NoMemory(); goto done; }
    int qh = 0, qt = 0, since = 0, analysed = 0;
    /* the time limit on the wall clock, for the analyses' own deadlines: no later than on this thread's CPU clock */
    double wall_cap = deadline > 0 ? now_seconds() + (deadline - thread_seconds()) : 0.0;
    if (first >= 0) queue[qt++] = first; /* the first click, dealt for: revealed before anything else */
    for (;;) {
        if (moves >= limit) break;
        int cell = -1, guessed = 0;
        while (qh < qt) { /* the next queued cell still covered */
            int c = queue[qh++];
            if (view[c] == -1) { cell = c; break; }
        }
        if (cell < 0) { /* the single-point pass, from where the last one left off */
            qh = qt = 0;
            int n_freed = sp_settle(pv, state, inq, work, top, off, freed);
            top = 0;
            if (n_freed < 0) break;
            for (int q = 0; q < n_freed; q++) { int p = freed[q]; queue[qt++] = (p / pw - 1) * width + p % pw - 1; }
            if (qt) {
                qsort(queue, (size_t)qt, sizeof(int), cmp_int);
                continue;
            }
            double until = now_seconds() + seconds; /* the budget, and no later than the time limit */
            if (deadline > 0 && until > wall_cap) until = wall_cap;
            Limits lim = {max_states, (size_t)(max_bytes > 0 ? max_bytes : 0), 0, until, 0};
            int got = play_analyse(&P, mines - flags, &lim, rng, max_states, max_bytes, seconds);
            analysed = 1;
            if (got == PLAY_ERROR) goto done;
            if (got == PLAY_STOP) break;
            for (int q = 0; q < P.n_mines; q++) { /* kept, and the numbers around them look again */
                int c = P.mines[q], p = (c / width + 1) * pw + c % width + 1;
                proved[c] = 1;
                if (state[p] == 1) continue;
                state[p] = 1;
                for (int r = 0; r < 8; r++) { int m = p + off[r]; if (pv[m] >= 0 && pv[m] <= 8 && !inq[m]) { inq[m] = 1; work[top++] = m; } }
            }
            if (got == PLAY_CERTAIN) {
                memcpy(queue, P.safe, sizeof(int) * (size_t)P.n_safe);
                qt = P.n_safe;
                continue;
            }
            cell = P.guess;
            guessed = 1;
            if (horizon < 0 || (horizon > 0 && n_guessed++ >= horizon)) { /* the horizon: named, not played */
                PyObject *g = Py_BuildValue("(Oidi)", P.unconstrained ? Py_True : Py_False, cell, P.safety, -1);
                if (!g || PyList_Append(guesses, g) < 0) { Py_XDECREF(g); goto done; }
                Py_DECREF(g);
                break;
            }
        }
        /* reveal `cell` (and flood-fill a zero) */
        PyObject *item = cell_int(cell);
        if (!item || PyList_Append(cells_out, item) < 0) { Py_XDECREF(item); goto done; }
        Py_DECREF(item);
        int before = moves++;
        if (mine[cell]) finished = 1;
        else {
            int sp = 0;
            stack[sp++] = cell;
            view[cell] = (signed char)number[cell];
            opened++;
            while (sp) {
                int c = stack[--sp], p = (c / width + 1) * pw + c % width + 1;
                pv[p] = view[c];
                /* it and the numbers around it look again; not a 0, whose neighbours this fill opens */
                if (view[c] && !inq[p]) { inq[p] = 1; work[top++] = p; }
                for (int r = 0; r < 8; r++) { int m = p + off[r]; if (pv[m] >= 1 && pv[m] <= 8 && !inq[m]) { inq[m] = 1; work[top++] = m; } }
                if (number[c]) continue;
                int nb8[8], n_nb = around(c, width, height, nb8);
                for (int q = 0; q < n_nb; q++) {
                    int n2 = nb8[q];
                    if (view[n2] != -1) continue;
                    view[n2] = (signed char)number[n2];
                    opened++;
                    stack[sp++] = n2;
                }
            }
            if (opened >= left) finished = 1;
        }
        if (guessed) {
            PyObject *g = Py_BuildValue("(Oidi)", P.unconstrained ? Py_True : Py_False, cell, P.safety, before);
            if (!g || PyList_Append(guesses, g) < 0) { Py_XDECREF(g); goto done; }
            Py_DECREF(g);
        }
        if (finished) break;
        if (deadline > 0 && (analysed || ++since >= 64)) { /* the caller's CPU time limit, read after an analysis */
            analysed = since = 0;                             /* or 64 reveals (a reading is a system call) */
            if (thread_seconds() > deadline) break;
        }
    }
    for (int y = 0; y < height; y++) /* the pass's mines are kept too, as obvious keeps them */
        for (int x = 0; x < width; x++) if (state[(y + 1) * pw + x + 1] == 1) proved[y * width + x] = 1;
finish:
    for (int i = 0; i < cells; i++) /* the list gets the cells revealed */
        if (view[i] != given[i]) {
            PyObject *v = PyLong_FromLong(view[i]);
            if (!v || PyList_SetItem(view_list, i, v) < 0) goto done;
        }
    result = Py_BuildValue("(OOOi)", finished ? Py_True : Py_False, cells_out, guesses, opened);
done:
    Py_XDECREF(cells_out); Py_XDECREF(guesses);
    free(block);
    frontier_give(&P.frontier, lent);
    PyBuffer_Release(&pb);
    return result;
}

