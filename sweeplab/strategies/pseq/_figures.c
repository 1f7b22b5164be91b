/* PSEQ's S, E and Q figures (sweeplab/strategies/pseq/rule.py's Outcomes.figures, in C): per kind of candidate
   cell, the position after each number it can show counted on the exact engine (an_count, as brief counts it), its
   layouts summed in long double against the position's own; and pseq_choose, PSEQ's whole guess, which exact's game
   loop (_exact_play.c's play_analyse) calls for pseq. Included by ../_players.c after _exact_play.c. */

#include <math.h>

#define PSEQ_TOLERANCE 1e-8 /* rule.py's TOLERANCE: PSEQ's Largest, relative */
#define PSEQ_NOISE 1e-12    /* rule.py's NOISE: the rounding allowed the S, E and Q figures, relative */

/* log C(n, r) */
static long double pseq_log_binom(int n, int r) { return lgammal(n + 1.0L) - lgammal(r + 1.0L) - lgammal(n - r + 1.0L); }

/* The natural log of the number of layouts of a position counted into A (every component ST_OK with L == 0, as
   an_count leaves it): layouts_of's sum (the components' product polynomial times C(U, R - K)) in long double,
   the running product scaled to its largest term after each factor; -INFINITY when no layout fits, NAN out of
   memory. */
static long double pseq_log_layouts(const An *A) {
    if (A->R < 0) return -INFINITY; /* more flags than mines: no layout (and no negative size below) */
    int n = A->n, U = A->U, top = A->R;
    long double scale = 0.0L, *fw = malloc(sizeof(long double) * ((size_t)top + 2)), *out = malloc(sizeof(long double) * ((size_t)top + 2));
    long double *poly = malloc(sizeof(long double) * ((size_t)top + 2)), result = -INFINITY;
    int n_fw = 1;
    if (!fw || !out || !poly) { result = NAN; goto done; }
    fw[0] = 1.0L;
    for (int c = 0; c < n; c++) {
        const u128 *wk = (const u128 *)A->C[c].wk;
        int lo = -1, hi = -1;
        for (int f = 0; f < A->C[c].n_final; f++) {
            if (!wk[f]) continue;
            int k = A->C[c].final_k[f];
            if (lo < 0 || k < lo) lo = k;
            if (k > hi) hi = k;
        }
        if (lo < 0) goto done; /* no solution */
        top -= lo;
        if (top < 0) goto done;
        int n_poly = hi - lo + 1 < top + 1 ? hi - lo + 1 : top + 1; /* terms past top meet no C(U, .) */
        for (int q = 0; q < n_poly; q++) poly[q] = 0.0L;
        for (int f = 0; f < A->C[c].n_final; f++) {
            int k = A->C[c].final_k[f] - lo;
            if (wk[f] && k < n_poly) poly[k] = (long double)wk[f];
        }
        int out_len = n_fw + n_poly - 1 < top + 1 ? n_fw + n_poly - 1 : top + 1;
        long double biggest = 0.0L;
        for (int a = 0; a < out_len; a++) out[a] = 0.0L;
        for (int a = 0; a < n_fw; a++)
            for (int k = 0; k < n_poly && a + k < out_len; k++) out[a + k] += fw[a] * poly[k];
        for (int a = 0; a < out_len; a++) if (out[a] > biggest) biggest = out[a];
        if (biggest <= 0.0L) goto done;
        for (int a = 0; a < out_len; a++) fw[a] = out[a] / biggest;
        scale += logl(biggest);
        n_fw = out_len;
    }
    int a_lo = top - U > 0 ? top - U : 0, a_hi = top < n_fw - 1 ? top : n_fw - 1;
    long double most = -INFINITY, sum = 0.0L;
    for (int a = a_lo; a <= a_hi; a++) if (fw[a] > 0.0L) {
        long double t = logl(fw[a]) + pseq_log_binom(U, top - a);
        if (t > most) most = t;
    }
    if (most == -INFINITY) goto done;
    for (int a = a_lo; a <= a_hi; a++) if (fw[a] > 0.0L) sum += expl(logl(fw[a]) + pseq_log_binom(U, top - a) - most);
    result = scale + most + logl(sum);
done:
    free(fw); free(out); free(poly);
    return result;
}

/* What a candidate's figures depend on (rule.py's Outcomes.kind): its label, the flags around it and the sorted
   labels of its covered neighbours (-2 a certain mine, -1 no number touches it, else its super-cell). */
typedef struct { int own, flags, n, around[8]; double s, e, q; } PseqKind;

static int pseq_same(const PseqKind *a, const PseqKind *b) {
    if (a->own != b->own || a->flags != b->flags || a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++) if (a->around[i] != b->around[i]) return 0;
    return 1;
}

/* The figures (S, E, Q) of each of the n_cand candidate cells of the position `view` (signed bytes, as brief reads
   them) into sqe[3 * i ...], worked out once per kind of cell (labels: one per cell, -2 a certain mine, -1 no number
   touches it, else its super-cell); log_total: the natural log of the position's layouts. 0, 1 when a position after
   a reveal cannot be counted within the limits (the Python figures answer), -1 with an exception set.
   With `prob` (each cell's mine probability: pseq_choose's), only the choice by S, E and Q is asked for: a kind
   whose S cannot reach the floor of PSEQ's Largest under the best S so far (its S counted so far plus the chance
   left to its numbers not yet counted, each number counted from the likeliest out) is left uncounted, its figures
   -1, which no S can lose to; the kinds that can survive S are counted in full and summed as without `prob`. */
static int pseq_count_figures(const signed char *view, int width, int height, int mines, const int *cand, int n_cand,
                              const int *label, double log_total, long max_states, Py_ssize_t max_bytes, double seconds,
                              const double *prob, double *sqe) {
    int cells = width * height, lent = 0, n_kinds = 0, failed = 0;
    signed char *work = NULL;
    int *safe_cells = NULL, *mine_cells = NULL, *of = NULL, *comp0 = NULL, *ncon0 = NULL;
    PseqKind *kinds = NULL;
    Frontier F0;
    Counted *C0 = NULL;
    const Counted **reuse = NULL;
    int n0 = 0;
    double best_s = -1.0; /* the best S of the kinds counted in full (with prob) */
    Play P;
    memset(&P, 0, sizeof(P));
    memset(&F0, 0, sizeof(F0));
    int R = mines;
    for (int c = 0; c < cells; c++) R -= view[c] == -2;
    work = malloc((size_t)cells);
    safe_cells = malloc(sizeof(int) * ((size_t)cells + 1));
    mine_cells = malloc(sizeof(int) * ((size_t)cells + 1));
    of = malloc(sizeof(int) * ((size_t)n_cand + 1));
    kinds = malloc(sizeof(PseqKind) * ((size_t)n_cand + 1));
    comp0 = malloc(sizeof(int) * ((size_t)cells + 1));
    reuse = malloc(sizeof(Counted *) * ((size_t)cells + 1));
    if (!work || !safe_cells || !mine_cells || !of || !kinds || !comp0 || !reuse || frontier_alloc(&F0, cells) < 0
        || frontier_lend(&P.frontier, cells, &lent) < 0) {
        PyErr_NoMemory();
        failed = 2;
        goto done;
    }
    memcpy(work, view, (size_t)cells);
    P.width = width; P.height = height; P.cells = cells; P.view = work;
    P.safe = safe_cells; P.mines = mine_cells;
    /* The position as it is, its components counted once: a position after a reveal takes the count of each
       component that no number around the candidate touches, the same component (comp0: the component of the number
       on each cell, ncon0: its numbers), rather than counting it again. */
    for (int c = 0; c < cells; c++) comp0[c] = -1;
    if (R >= 0 && frontier_build(view, width, height, &F0) == 0) {
        Limits lim0 = {max_states, (size_t)(max_bytes > 0 ? max_bytes : 0), 0, now_seconds() + seconds, 0};
        C0 = calloc((size_t)F0.n_comp + 1, sizeof(Counted));
        ncon0 = malloc(sizeof(int) * ((size_t)F0.n_comp + 1));
        if (!C0 || !ncon0) { PyErr_NoMemory(); failed = 2; goto done; }
        for (; n0 < F0.n_comp; n0++) {
            if (count_nth(&F0, n0, &lim0, &C0[n0]) < 0) { n0++; failed = 2; goto done; }
            int ci = F0.info[n0].index;
            ncon0[n0] = F0.con_off[ci + 1] - F0.con_off[ci];
            for (int q = F0.con_off[ci]; q < F0.con_off[ci + 1]; q++) comp0[F0.con_source[F0.con_by_comp[q]]] = n0;
        }
    }
    for (int i = 0; i < n_cand && !failed; i++) {
        int cell = cand[i], nb[8], n_nb = around(cell, width, height, nb);
        PseqKind k = {label[cell], 0, 0, {0}, 0.0, 0.0, 0.0};
        for (int q = 0; q < n_nb; q++) {
            if (view[nb[q]] == -2) k.flags++;
            else if (view[nb[q]] == -1) {
                int v = label[nb[q]], at = k.n++; /* insertion sort: at most 8 */
                while (at > 0 && k.around[at - 1] > v) { k.around[at] = k.around[at - 1]; at--; }
                k.around[at] = v;
            }
        }
        int found = -1;
        for (int j = 0; j < n_kinds && found < 0; j++) if (pseq_same(&kinds[j], &k)) found = j;
        if (found >= 0) { of[i] = found; continue; }
        /* the numbers it can show: its flags and certain mines, up to all of its covered neighbours */
        int known = k.flags, open = 0;
        for (int q = 0; q < k.n; q++) { if (k.around[q] == -2) known++; else open++; }
        double ps[9], safes[9], safe_total = 0.0;
        int n_out = 0;
        /* the frontier after a reveal here has the same shape whatever the number: built once, its number's count
           of mines (need) set for each; the components the candidate leaves as they were take their counts */
        work[cell] = (signed char)known;
        int shaped = R >= 0 && frontier_build(work, width, height, &P.frontier) == 0, own = -1;
        if (shaped) {
            const Frontier *F = &P.frontier;
            int cx = cell % width, cy = cell / width;
            for (int q = 0; q < F->n_con; q++) if (F->con_source[q] == cell) own = q;
            for (int c = 0; c < F->n_comp; c++) {
                int ci = F->info[c].index, same = -1, m_con = F->con_off[ci + 1] - F->con_off[ci];
                reuse[c] = NULL;
                for (int q = F->con_off[ci]; q < F->con_off[ci + 1]; q++) {
                    int src = F->con_source[F->con_by_comp[q]], dx = src % width - cx, dy = src / width - cy;
                    if ((dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1) || comp0[src] < 0 || (same >= 0 && comp0[src] != same)) {
                        same = -1;
                        break;
                    }
                    same = comp0[src];
                }
                if (same >= 0 && ncon0[same] == m_con && C0[same].status == ST_OK && C0[same].L == 0) reuse[c] = &C0[same];
            }
        }
        /* the numbers in turn: from known up, or (with prob) from the likeliest out, by the expected mines around */
        int order_v[9], n_v = 0, start = known, abandoned = 0, got_v[9] = {0};
        double p_v[9], safe_v[9], left = prob ? 1.0 - prob[cell] : 0.0, s_part = 0.0;
        if (prob) {
            double mu = 0.0;
            for (int q = 0; q < n_nb; q++) if (view[nb[q]] == -1 && label[nb[q]] != -2) mu += prob[nb[q]];
            start = known + (int)lround(mu);
            if (start > known + open) start = known + open;
        }
        for (int d = 0; n_v < open + 1; d++) {
            if (start + d <= known + open) order_v[n_v++] = start + d;
            if (d && start - d >= known) order_v[n_v++] = start - d;
        }
        for (int o = 0; o < n_v; o++) {
            int v = order_v[o];
            An A;
            Limits lim = {max_states, (size_t)(max_bytes > 0 ? max_bytes : 0), 0, now_seconds() + seconds, 0};
            work[cell] = (signed char)v;
            int got;
            if (shaped) {
                if (own >= 0) P.frontier.con_need[own] = v - k.flags;
                memset(&A, 0, sizeof(A));
                A.F = P.frontier;
                got = an_count_from(&P, R, &lim, &A, reuse);
            } else got = R < 0 ? PLAY_STOP : an_count(&P, R, &lim, &A);
            if (R < 0) { memset(&A, 0, sizeof(A)); A.none = 1; }
            if (got == PLAY_ERROR) { an_free(&A); failed = 2; break; }
            if (got == PLAY_STOP) {
                int none = A.none;
                an_free(&A);
                if (none) continue; /* no layout shows v here */
                failed = 1; /* not counted within the limits: the Python figures answer */
                break;
            }
            long double ll = pseq_log_layouts(&A);
            an_free(&A);
            if (isnan(ll)) { PyErr_NoMemory(); failed = 2; break; }
            if (ll == -INFINITY) continue;
            got_v[v - known] = 1;
            p_v[v - known] = (double)expl(ll - (long double)log_total);
            safe_v[v - known] = P.n_safe;
            if (prob && best_s >= 0.0) {
                /* a slack of a billionth of the cell's safety: far above the rounding of these figures, whose
                   relative error grows with the log of the layouts (about 1e-13 on expert), and far below any
                   difference that decides */
                left -= p_v[v - known];
                if (P.n_safe) s_part += p_v[v - known];
                if (s_part + left + 1e-9 * (1.0 - prob[cell]) < best_s - fabs(best_s) * 2.0 * PSEQ_TOLERANCE) {
                    abandoned = 1;
                    break;
                }
            }
        }
        work[cell] = -1;
        if (failed) break;
        if (abandoned) {
            k.s = k.e = k.q = -1.0;
            kinds[n_kinds] = k;
            of[i] = n_kinds++;
            continue;
        }
        for (int v = known; v <= known + open; v++) /* summed in the order of the numbers, whatever order counted them */
            if (got_v[v - known]) { ps[n_out] = p_v[v - known]; safes[n_out++] = safe_v[v - known]; }
        for (int o = 0; o < n_out; o++) {
            if (safes[o] > 0) k.s += ps[o];
            k.e += ps[o] * safes[o];
            safe_total += ps[o];
        }
        for (int o = 0; o < n_out; o++)
            if (ps[o] > 0 && safe_total > 0) k.q -= ps[o] / safe_total * log2(ps[o] / safe_total);
        kinds[n_kinds] = k;
        of[i] = n_kinds++;
        if (k.s > best_s) best_s = k.s;
    }
    if (!failed)
        for (int i = 0; i < n_cand; i++) {
            const PseqKind *k = &kinds[of[i]];
            sqe[3 * i] = k->s; sqe[3 * i + 1] = k->e; sqe[3 * i + 2] = k->q;
        }
done:
    frontier_give(&P.frontier, lent);
    for (int c = 0; c < n0; c++) counted_free(&C0[c]);
    frontier_free(&F0);
    free(C0); free(ncon0); free(comp0); free(reuse);
    free(work); free(safe_cells); free(mine_cells); free(of); free(kinds);
    return failed == 2 ? -1 : failed;
}

/* pseq_figures(view, width, height, mines, cells, labels, log_total, max_states, max_bytes, seconds)
   -> [(S, E, Q), ...] | None: see the method table. */
static PyObject *pseq_figures(PyObject *self, PyObject *args) {
    Py_buffer vb, lb;
    PyObject *cells_obj, *result = NULL;
    int width, height, mines;
    long max_states;
    Py_ssize_t max_bytes;
    double log_total, seconds;
    if (!PyArg_ParseTuple(args, "y*iiiOy*dlnd", &vb, &width, &height, &mines, &cells_obj, &lb, &log_total, &max_states,
                          &max_bytes, &seconds))
        return NULL;
    int cells = width * height, n_cand = 0, cap = 0;
    long *cand = NULL;
    int *cand_int = NULL;
    double *sqe = NULL;
    if (width <= 0 || height <= 0 || cells > (1 << 24) || vb.len != cells || lb.len != (Py_ssize_t)sizeof(int) * cells) {
        PyErr_SetString(PyExc_ValueError, "pseq_figures: the view or the labels do not fit width * height");
        goto done;
    }
    if (span_read(cells_obj, &cand, &n_cand, &cap) < 0) goto done;
    const signed char *view = vb.buf;
    cand_int = malloc(sizeof(int) * ((size_t)n_cand + 1));
    sqe = malloc(sizeof(double) * (3 * (size_t)n_cand + 1));
    if (!cand_int || !sqe) { PyErr_NoMemory(); goto done; }
    for (int i = 0; i < n_cand; i++) {
        if (cand[i] < 0 || cand[i] >= cells || view[cand[i]] != -1) {
            PyErr_Format(PyExc_ValueError, "pseq_figures: cell %ld is not a covered cell of the board", cand[i]);
            goto done;
        }
        cand_int[i] = (int)cand[i];
    }
    int got = pseq_count_figures(view, width, height, mines, cand_int, n_cand, lb.buf, log_total, max_states, max_bytes,
                                 seconds, NULL, sqe);
    if (got < 0) goto done;
    if (got) { result = Py_None; Py_INCREF(result); goto done; }
    result = PyList_New(n_cand);
    for (int i = 0; i < n_cand && result; i++) {
        PyObject *t = Py_BuildValue("(ddd)", sqe[3 * i], sqe[3 * i + 1], sqe[3 * i + 2]);
        if (!t) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, i, t);
    }
done:
    free(cand); free(cand_int); free(sqe);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&lb);
    return result;
}

/* ---------- PSEQ's guess in the game loop ---------- */


/* rule.py's largest_of in place: cells[0..n) with values[0..n) keep those whose value is the largest, within
   PSEQ_TOLERANCE of the best so far as they are visited in order, a value starting the list again only when above
   the best by more than `noise` (relative); the fast path of the top value shared, as there. Returns the count kept. */
static int pseq_largest(int *cells, double *values, int n, double noise) {
    if (n <= 1) return n;
    double top = values[0];
    for (int i = 1; i < n; i++) if (values[i] > top) top = values[i];
    double floor = top - fabs(top) * PSEQ_TOLERANCE;
    int shared = 1, kept = 0;
    for (int i = 0; i < n && shared; i++) if (values[i] >= floor && values[i] != top) shared = 0;
    if (shared) {
        for (int i = 0; i < n; i++) if (values[i] == top) { cells[kept] = cells[i]; values[kept++] = values[i]; }
        return kept;
    }
    double best = values[0];
    kept = 1;
    for (int i = 1; i < n; i++) {
        double value = values[i];
        int cell = cells[i];
        if (best + fabs(best) * noise < value) { best = value; kept = 0; }
        if (best - fabs(best) * PSEQ_TOLERANCE <= value) { cells[kept] = cell; values[kept++] = value; }
    }
    return kept;
}

/* PSEQ's guess (rule.py's PseqStrategy.candidates, then its random draw) in the position the loop counted into A
   and weighed (an_floats): the covered cells not certainly mines in PSEQ's block order (column by column), the
   lowest mine probability kept by pseq_largest, then S, E and Q, then rng.randrange over those left (the strategy's
   own generator, drawn as pick_guess draws it). Sets P->guess, P->safety and P->unconstrained: PLAY_GUESS, PLAY_STOP
   when a figure cannot be counted within the limits (the Python strategy then chooses), or PLAY_ERROR. */
static int pseq_choose(Play *P, An *A, PyObject *rng, long max_states, Py_ssize_t max_bytes, double seconds) {
    Frontier F = A->F;
    int cells = P->cells, n = 0, result = PLAY_ERROR, n_pr = 0;
    double *prob = malloc(sizeof(double) * ((size_t)cells + 1)), *values = malloc(sizeof(double) * 3 * ((size_t)cells + 1));
    int *label = malloc(sizeof(int) * ((size_t)cells + 1)), *chosen = malloc(sizeof(int) * ((size_t)cells + 1));
    double *sqe = NULL;
    if (!prob || !values || !label || !chosen) { PyErr_NoMemory(); goto out; }
    for (int c = 0; c < cells; c++) { prob[c] = A->p_un; label[c] = -1; }
    for (int c = 0; c < A->n; c++) {
        int ci = F.info[c].index;
        for (int a = F.sc_off[ci]; a < F.sc_off[ci + 1]; a++) {
            int s = F.sc_by_comp[a];
            for (int i = F.sc_start[s]; i < F.sc_start[s + 1]; i++) { prob[F.sc_cells[i]] = A->pr[n_pr]; label[F.sc_cells[i]] = s; }
            n_pr++;
        }
    }
    for (int q = 0; q < P->n_mines; q++) label[P->mines[q]] = -2;
    for (int x = 0; x < P->width; x++)
        for (int y = 0; y < P->height; y++) {
            int c = y * P->width + x;
            if (P->view[c] == -1 && prob[c] < 1.0) { chosen[n] = c; values[n++] = -prob[c]; }
        }
    if (!n) { result = PLAY_STOP; goto out; }
    n = pseq_largest(chosen, values, n, 0.0);
    if (n > 1) {
        long double ll = pseq_log_layouts(A);
        if (isnan(ll)) { PyErr_NoMemory(); goto out; }
        if (!(sqe = malloc(sizeof(double) * (3 * (size_t)n + 1)))) { PyErr_NoMemory(); goto out; }
        int got = pseq_count_figures(P->view, P->width, P->height, A->R, chosen, n, label, (double)ll, max_states,
                                     max_bytes, seconds, prob, sqe);
        if (got) { result = got < 0 ? PLAY_ERROR : PLAY_STOP; goto out; }
        for (int k = 0; k < 3 && n > 1; k++) {
            int m = 0;
            for (int i = 0; i < n; i++) values[i] = sqe[3 * i + k];
            /* keep each cell's other figures beside it: pseq_largest moves cells and values alike */
            int *order = (int *)(values + (size_t)cells + 1);
            for (int i = 0; i < n; i++) order[i] = i;
            m = pseq_largest(order, values, n, PSEQ_NOISE);
            for (int i = 0; i < m; i++) {
                int j = order[i];
                chosen[i] = chosen[j];
                for (int f = 0; f < 3; f++) sqe[3 * i + f] = sqe[3 * j + f];
            }
            n = m;
        }
    }
    int pick = 0;
    if (n > 1) {
        PyObject *drawn = PyObject_CallMethod(rng, "randrange", "n", (Py_ssize_t)n);
        if (!drawn) goto out;
        long at = PyLong_AsLong(drawn);
        Py_DECREF(drawn);
        if (at == -1 && PyErr_Occurred()) goto out;
        if (at < 0 || at >= n) { PyErr_SetString(PyExc_ValueError, "pseq: randrange answered out of range"); goto out; }
        pick = (int)at;
    }
    P->guess = chosen[pick];
    P->unconstrained = !F.touch_count[P->guess];
    P->safety = 1.0 - prob[P->guess];
    result = PLAY_GUESS;
out:
    free(prob); free(values); free(label); free(chosen); free(sqe);
    return result;
}
