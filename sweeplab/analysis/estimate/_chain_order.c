/* Orders to count a component in (analysis/estimate/folding.py): a greedy order that keeps the open numbers' ranges of mine
 * counts narrow (greedy_order), and a spectral order that lays the super-cells out along the component's length
 * (spectral_order). _chain.c includes this file. */

/* A component's super-cells and numbers, as the orders read them: each number's super-cells (members, from
   mem_start[i]) and each super-cell's numbers (touching, from t_start[j]), with the super-cells' sizes, the numbers'
   needs and their cells in all (cap). */
typedef struct {
    Py_ssize_t n, m;
    int *size, *need, *cap, *mem_start, *t_start;
    Ints members, touching;
} Graph;

static void graph_free(Graph *g) {
    free(g->size); free(g->need); free(g->cap); free(g->mem_start); free(g->t_start);
    free(g->members.v); free(g->touching.v);
}

/* Reads sizes (one per super-cell) and constraints ((super-cell indices, mines) pairs) into g; 0 with an exception
   set (a super-cell out of range named after `name`, the function), after which g is freed. */
static int graph_parse(PyObject *sizes_obj, PyObject *cons_obj, const char *name, Graph *g) {
    memset(g, 0, sizeof(*g));
    Py_ssize_t n = PySequence_Size(sizes_obj), m = PySequence_Size(cons_obj);
    if (n < 0 || m < 0) return 0;
    g->n = n;
    g->m = m;
    g->size = calloc((size_t)n + 1, sizeof(int));
    g->need = calloc((size_t)m + 1, sizeof(int));
    g->cap = calloc((size_t)m + 1, sizeof(int));
    g->mem_start = calloc((size_t)m + 2, sizeof(int));
    g->t_start = calloc((size_t)n + 2, sizeof(int));
    int *mark = malloc(sizeof(int) * ((size_t)n + 1)), *fill = calloc((size_t)n + 1, sizeof(int));
    int ok = g->size && g->need && g->cap && g->mem_start && g->t_start && mark && fill;
    if (!ok) PyErr_NoMemory();
    for (Py_ssize_t j = 0; ok && j < n; j++) {
        ok = int_at(sizes_obj, j, &g->size[j]);
        mark[j] = -1;
    }
    for (Py_ssize_t i = 0; ok && i < m; i++) { /* each number's super-cells, once each */
        PyObject *con = PySequence_GetItem(cons_obj, i);
        PyObject *js = con ? PySequence_GetItem(con, 0) : NULL;
        Py_ssize_t len = js ? PySequence_Size(js) : -1;
        ok = len >= 0 && int_at(con, 1, &g->need[i]);
        g->mem_start[i] = (int)g->members.n;
        for (Py_ssize_t q = 0; ok && q < len; q++) {
            int j = -1;
            ok = int_at(js, q, &j);
            if (ok && (j < 0 || j >= n)) {
                PyErr_Format(PyExc_ValueError, "%s: a constraint names a super-cell out of range", name);
                ok = 0;
            }
            if (ok && mark[j] != (int)i) {
                mark[j] = (int)i;
                g->cap[i] += g->size[j];
                g->t_start[j + 1]++;
                ok = ints_push(&g->members, j);
            }
        }
        Py_XDECREF(js);
        Py_XDECREF(con);
    }
    if (ok) {
        g->mem_start[m] = (int)g->members.n;
        for (Py_ssize_t j = 0; j < n; j++) g->t_start[j + 1] += g->t_start[j];
        for (size_t q = 0; ok && q < g->members.n; q++) ok = ints_push(&g->touching, 0);
        if (!ok) PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; ok && i < m; i++) /* each super-cell's numbers */
        for (int p = g->mem_start[i]; p < g->mem_start[i + 1]; p++) {
            int j = g->members.v[p];
            g->touching.v[g->t_start[j] + fill[j]++] = (int)i;
        }
    free(mark);
    free(fill);
    if (!ok) graph_free(g);
    return ok;
}

/* Each super-cell's neighbours (the others sharing a number with it, once each): adj from adj_start[j]; NULL when
   out of memory. */
static int *graph_neighbours(const Graph *g, int **adj_start_out) {
    Py_ssize_t n = g->n;
    int *mark = malloc(sizeof(int) * ((size_t)n + 1)), *adj_start = malloc(sizeof(int) * ((size_t)n + 1));
    Ints adj = {0};
    int ok = mark && adj_start;
    for (Py_ssize_t j = 0; ok && j < n; j++) mark[j] = -1;
    for (Py_ssize_t j = 0; ok && j < n; j++) {
        adj_start[j] = (int)adj.n;
        for (int p = g->t_start[j]; ok && p < g->t_start[j + 1]; p++) {
            int i = g->touching.v[p];
            for (int r = g->mem_start[i]; ok && r < g->mem_start[i + 1]; r++) {
                int k = g->members.v[r];
                if (k != j && mark[k] != (int)j) { mark[k] = (int)j; ok = ints_push(&adj, k); }
            }
        }
    }
    if (ok) adj_start[n] = (int)adj.n;
    free(mark);
    if (ok && !adj.v) ok = (adj.v = malloc(sizeof(int))) != NULL; /* no neighbours at all: an empty list, not NULL */
    if (!ok) { free(adj_start); free(adj.v); return NULL; }
    *adj_start_out = adj_start;
    return adj.v;
}

static PyObject *order_list(const int *order, Py_ssize_t n) {
    PyObject *result = PyList_New(n);
    for (Py_ssize_t t = 0; result && t < n; t++) {
        PyObject *item = PyLong_FromLong(order[t]);
        if (!item) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, t, item);
    }
    return result;
}

static const double LOG_RANGE[10] = {0.0, 0.0, 0.69314718055994531, 1.0986122886681098, 1.3862943611198906,
                                     1.6094379124341003, 1.791759469228055, 1.9459101090932196, 2.0794415416798357,
                                     2.1972245773362196};

/* The log of how many mine counts a number needing `need` of its `cap` cells may hold in the `placed` of them that
   are counted so far (0 before the first and after the last: it is not open then). */
static inline double open_range(int need, int cap, int placed) {
    if (placed <= 0 || placed >= cap) return 0.0;
    int lo = need - (cap - placed), hi = need < placed ? need : placed;
    if (lo < 0) lo = 0;
    int r = hi - lo + 1;
    return LOG_RANGE[r < 1 ? 1 : (r > 9 ? 9 : r)];
}

/* greedy_order(sizes, constraints) -> order: super-cells (of sizes[j] cells) in the order a count of them keeps few
 * needs: from the least connected (fewest neighbours, then the lowest index), each next one, among those sharing a
 * number with the ones placed, the one that least widens the open numbers' ranges of mine counts (the sum of their
 * logs; ties to the lowest index). constraints: (super-cell indices, mines) pairs. */
static PyObject *greedy_order(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sizes_obj, *cons_obj;
    Graph g;
    if (!PyArg_ParseTuple(args, "OO", &sizes_obj, &cons_obj)) return NULL;
    if (!graph_parse(sizes_obj, cons_obj, "greedy_order", &g)) return NULL;
    Py_ssize_t n = g.n;
    PyObject *result = NULL;
    int *adj_start = NULL, *adj = graph_neighbours(&g, &adj_start);
    int *placed = calloc((size_t)g.m + 1, sizeof(int)), *state = calloc((size_t)n + 1, sizeof(int));
    int *cand = malloc(sizeof(int) * ((size_t)n + 1)), *order = malloc(sizeof(int) * ((size_t)n + 1));
    if (!adj || !placed || !state || !cand || !order) { PyErr_NoMemory(); goto done; }
    int start = -1, best_degree = 0;
    for (Py_ssize_t j = 0; j < n; j++) { /* the least connected: fewest other super-cells sharing a number */
        int degree = adj_start[j + 1] - adj_start[j];
        if (start < 0 || degree < best_degree) { start = (int)j; best_degree = degree; }
    }
    int n_cand = 0, n_order = 0;
    if (n) { cand[n_cand++] = start; state[start] = 1; } /* state: 0 waiting, 1 candidate, 2 placed */
    while (n_order < n) {
        if (!n_cand) { /* a part no number joins to the rest: its lowest super-cell */
            int j = 0;
            while (state[j]) j++;
            cand[n_cand++] = j; state[j] = 1;
        }
        int pick = -1;
        double pick_score = 0.0;
        for (int c = 0; c < n_cand; c++) {
            int j = cand[c];
            double score = 0.0;
            for (int p = g.t_start[j]; p < g.t_start[j + 1]; p++) {
                int i = g.touching.v[p];
                score += open_range(g.need[i], g.cap[i], placed[i] + g.size[j]) - open_range(g.need[i], g.cap[i], placed[i]);
            }
            if (pick < 0 || score < pick_score - 1e-12 || (score <= pick_score + 1e-12 && j < cand[pick])) { pick = c; pick_score = score; }
        }
        int j = cand[pick];
        cand[pick] = cand[--n_cand];
        state[j] = 2;
        order[n_order++] = j;
        for (int p = g.t_start[j]; p < g.t_start[j + 1]; p++) {
            int i = g.touching.v[p];
            placed[i] += g.size[j];
            for (int r = g.mem_start[i]; r < g.mem_start[i + 1]; r++) {
                int k = g.members.v[r];
                if (!state[k]) { state[k] = 1; cand[n_cand++] = k; }
            }
        }
    }
    result = order_list(order, n);
done:
    graph_free(&g);
    free(adj); free(adj_start); free(placed); free(state); free(cand); free(order);
    return result;
}

/* Breadth-first distances from `start` over the neighbours (adj from adj_start[j]), in dist (-1: unreached), with
   queue as room for the n super-cells; returns the farthest reached (the lowest index among the farthest). */
static int farthest(const int *adj_start, const int *adj, Py_ssize_t n, int start, int *dist, int *queue) {
    for (Py_ssize_t j = 0; j < n; j++) dist[j] = -1;
    int head = 0, tail = 0, far = start;
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
        int j = queue[head++];
        if (dist[j] > dist[far] || (dist[j] == dist[far] && j < far)) far = j;
        for (int p = adj_start[j]; p < adj_start[j + 1]; p++) {
            int k = adj[p];
            if (dist[k] < 0) { dist[k] = dist[j] + 1; queue[tail++] = k; }
        }
    }
    return far;
}

typedef struct { int piece; double x; int j; } Placed;

static int placed_cmp(const void *a, const void *b) {
    const Placed *p = a, *q = b;
    if (p->piece != q->piece) return p->piece < q->piece ? -1 : 1;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    return (p->j > q->j) - (p->j < q->j);
}

/* The Laplacian of the super-cells' graph times v, into out. */
static void laplacian_times(const int *adj_start, const int *adj, Py_ssize_t n, const double *v, double *out) {
    for (Py_ssize_t j = 0; j < n; j++) {
        double s = (double)(adj_start[j + 1] - adj_start[j]) * v[j];
        for (int p = adj_start[j]; p < adj_start[j + 1]; p++) s -= v[adj[p]];
        out[j] = s;
    }
}

/* x <- an approximate Fiedler vector of each piece: `inverse` steps of inverse iteration from x (each piece's
   breadth-first distance from a far super-cell), each solving L y = b by `steps` steps of conjugate gradients, b the
   last vector centred in each piece (L is singular only along each piece's constant vector, which b and every step
   leave out) and normalised. work: 4n doubles. */
static void fiedler(const int *adj_start, const int *adj, Py_ssize_t n, const int *piece, const int *piece_size,
                    int inverse, int steps, double *x, double *work) {
    double *b = work, *r = work + n, *p = work + 2 * n, *lp = work + 3 * n;
    for (int s = 0; s < inverse; s++) {
        for (Py_ssize_t j = 0; j < n; j++) r[j] = 0.0; /* each piece's sum, at its start super-cell's index */
        for (Py_ssize_t j = 0; j < n; j++) r[piece[j]] += x[j];
        double norm = 0.0;
        for (Py_ssize_t j = 0; j < n; j++) {
            b[j] = x[j] - r[piece[j]] / piece_size[piece[j]];
            norm += b[j] * b[j];
        }
        norm = norm > 0 ? 1.0 / sqrt(norm) : 0.0;
        double rr = 0.0;
        for (Py_ssize_t j = 0; j < n; j++) {
            b[j] *= norm;
            x[j] = 0.0;
            r[j] = p[j] = b[j];
            rr += r[j] * r[j];
        }
        for (int t = 0; t < steps && rr > 1e-20; t++) {
            laplacian_times(adj_start, adj, n, p, lp);
            double plp = 0.0;
            for (Py_ssize_t j = 0; j < n; j++) plp += p[j] * lp[j];
            if (plp <= 0.0) break;
            double alpha = rr / plp, next = 0.0;
            for (Py_ssize_t j = 0; j < n; j++) {
                x[j] += alpha * p[j];
                r[j] -= alpha * lp[j];
                next += r[j] * r[j];
            }
            double beta = next / rr;
            for (Py_ssize_t j = 0; j < n; j++) p[j] = r[j] + beta * p[j];
            rr = next;
        }
    }
}

/* spectral_order(sizes, constraints, inverse, steps) -> order: the super-cells by an approximate Fiedler vector of
 * their graph (joined where they share a number), piece by piece (a piece starting at its least connected super-cell,
 * fewest neighbours then the lowest index), each along its length: see fiedler(). Without the GIL for the solve. */
static PyObject *spectral_order(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *sizes_obj, *cons_obj;
    int inverse, steps;
    Graph g;
    if (!PyArg_ParseTuple(args, "OOii", &sizes_obj, &cons_obj, &inverse, &steps)) return NULL;
    if (!graph_parse(sizes_obj, cons_obj, "spectral_order", &g)) return NULL;
    Py_ssize_t n = g.n;
    PyObject *result = NULL;
    int *adj_start = NULL, *adj = graph_neighbours(&g, &adj_start);
    int *piece = malloc(sizeof(int) * ((size_t)n + 1)), *piece_size = calloc((size_t)n + 1, sizeof(int));
    int *dist = malloc(sizeof(int) * ((size_t)n + 1)), *queue = malloc(sizeof(int) * ((size_t)n + 1));
    int *order = malloc(sizeof(int) * ((size_t)n + 1));
    double *x = malloc(sizeof(double) * ((size_t)n + 1)), *work = malloc(sizeof(double) * (4 * (size_t)n + 1));
    Placed *placed = malloc(sizeof(Placed) * ((size_t)n + 1));
    if (!adj || !piece || !piece_size || !dist || !queue || !order || !x || !work || !placed) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t j = 0; j < n; j++) { /* the super-cells by their neighbours, then their index: each piece's start */
        placed[j].piece = adj_start[j + 1] - adj_start[j];
        placed[j].x = 0.0;
        placed[j].j = (int)j;
        piece[j] = -1;
    }
    qsort(placed, (size_t)n, sizeof(Placed), placed_cmp);
    for (Py_ssize_t q = 0; q < n; q++) {
        int start = placed[q].j;
        if (piece[start] >= 0) continue;
        int far = farthest(adj_start, adj, n, start, dist, queue);
        farthest(adj_start, adj, n, far, dist, queue);
        for (Py_ssize_t j = 0; j < n; j++)
            if (dist[j] >= 0) { piece[j] = start; x[j] = dist[j]; piece_size[start]++; }
    }
    Py_BEGIN_ALLOW_THREADS
    fiedler(adj_start, adj, n, piece, piece_size, inverse, steps, x, work);
    Py_END_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < n; j++) { placed[j].piece = piece[j]; placed[j].x = x[j]; placed[j].j = (int)j; }
    qsort(placed, (size_t)n, sizeof(Placed), placed_cmp);
    for (Py_ssize_t t = 0; t < n; t++) order[t] = placed[t].j;
    result = order_list(order, n);
done:
    graph_free(&g);
    free(adj); free(adj_start); free(piece); free(piece_size); free(dist); free(queue); free(order); free(x); free(work);
    free(placed);
    return result;
}
