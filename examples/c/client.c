/* A complete small Minesweeper player for sweeplab's arena, in C (C99, the standard library only).

   Build and run it through the harness:
     cc -O2 -o client examples/c/client.c
     sweeplab bench -s 'cmd:./client' -b beginner -n 300
   It reads one JSON object per line on stdin and answers every "turn" with one line on stdout (docs/arena.md); it
   reads only the fields it needs, as sweeplab writes them ("width":9, "position":"9x9x10\n...").
   Its rules, the same as sweeplab's built-in `reference` player: for every revealed number (row-major order) with
   f flagged and u covered neighbours, all u are safe when f equals the number and all mines when f + u does;
   reveal the safe cells, then flag the mines, in the order found. With nothing certain, reveal the covered cell of
   lowest local probability: the largest (number - f) / u over its revealed neighbours, or (mines - flags) /
   covered for a cell next to no number; ties go to the first cell in row-major order. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int width, height, mines, cells;
static char *view;             /* one character per cell: 'H' covered, 'F' flag, '0'-'8' a number */
static int *order, *mark;      /* cells in the order found; mark: 1 safe, 2 mine */
static double *local;

static int field(const char *line, const char *name) {
    const char *at = strstr(line, name);
    return at ? atoi(at + strlen(name)) : -1;
}

static void start(const char *line) {
    width = field(line, "\"width\":");
    height = field(line, "\"height\":");
    mines = field(line, "\"mines\":");
    if (width <= 0 || height <= 0 || mines < 0) {
        fprintf(stderr, "client.c: cannot read the game's size from %s\n", line);
        exit(1);
    }
    cells = width * height;
    view = realloc(view, cells);
    order = realloc(order, sizeof(int) * cells);
    mark = realloc(mark, sizeof(int) * cells);
    local = realloc(local, sizeof(double) * cells);
    if (!view || !order || !mark || !local) exit(1);
}

/* The position after its header line, the JSON escape "\n" between rows: back to one character per cell. */
static int read_position(const char *line) {
    const char *at = strstr(line, "\"position\":\"");
    if (!at) return 0;
    at += strlen("\"position\":\"");
    while (*at && !(at[0] == '\\' && at[1] == 'n')) at++; /* the WxHxM header */
    int n = 0;
    while (*at && *at != '"' && n < cells) {
        if (at[0] == '\\' && at[1] == 'n') { at += 2; continue; }
        view[n++] = *at++;
    }
    return n == cells;
}

static void neighbours(int cell, int *out, int *count) {
    int x = cell % width, y = cell / width;
    *count = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && x + dx >= 0 && x + dx < width && y + dy >= 0 && y + dy < height)
                out[(*count)++] = (y + dy) * width + x + dx;
}

static void answer(void) {
    int around[8], count, found = 0;
    memset(mark, 0, sizeof(int) * cells);
    for (int cell = 0; cell < cells; cell++) {
        char ch = view[cell];
        if (ch <= '0' || ch > '8') continue;
        neighbours(cell, around, &count);
        int unknown = 0, flags = 0;
        for (int i = 0; i < count; i++) {
            unknown += view[around[i]] == 'H';
            flags += view[around[i]] == 'F';
        }
        if (!unknown) continue;
        int value = ch - '0', kind = flags == value ? 1 : flags + unknown == value ? 2 : 0;
        for (int i = 0; kind && i < count; i++) {
            int n = around[i];
            if (view[n] != 'H') continue;
            if (!mark[n]) order[found++] = n;
            if (kind == 1 || !mark[n]) mark[n] = kind; /* a cell found safe stays safe */
        }
    }
    if (found) {
        int first = 1;
        printf("{\"moves\":[");
        for (int pass = 1; pass <= 2; pass++)
            for (int i = 0; i < found; i++)
                if (mark[order[i]] == pass) {
                    printf("%s[\"%s\",%d,%d]", first ? "" : ",", pass == 1 ? "reveal" : "flag", order[i] % width, order[i] / width);
                    first = 0;
                }
        printf("]}\n");
        return;
    }
    int covered = 0, flagged = 0;
    for (int cell = 0; cell < cells; cell++) {
        covered += view[cell] == 'H';
        flagged += view[cell] == 'F';
        local[cell] = -1.0;
    }
    double density = (double)(mines - flagged) / covered;
    for (int cell = 0; cell < cells; cell++) {
        char ch = view[cell];
        if (ch < '0' || ch > '8') continue;
        neighbours(cell, around, &count);
        int unknown = 0, flags = 0;
        for (int i = 0; i < count; i++) {
            unknown += view[around[i]] == 'H';
            flags += view[around[i]] == 'F';
        }
        if (!unknown) continue;
        double p = (double)(ch - '0' - flags) / unknown;
        for (int i = 0; i < count; i++)
            if (view[around[i]] == 'H' && p > local[around[i]]) local[around[i]] = p;
    }
    int best = -1;
    double best_p = 2.0;
    for (int cell = 0; cell < cells; cell++) {
        if (view[cell] != 'H') continue;
        double p = local[cell] < 0 ? density : local[cell];
        if (p < best_p) { best = cell; best_p = p; }
    }
    int x = best % width, y = best / width;
    printf("{\"moves\":[[\"reveal\",%d,%d]],\"probabilities\":[[%d,%d,%.17g]],\"reason\":\"lowest local probability\"}\n",
           x, y, x, y, best_p);
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, stdin) > 0) {
        if (strstr(line, "\"type\":\"game\"")) {
            start(line);
        } else if (strstr(line, "\"type\":\"turn\"")) {
            if (!cells || !read_position(line)) {
                fprintf(stderr, "client.c: a turn without a readable position\n");
                return 1;
            }
            answer();
            fflush(stdout);
        }
    }
    free(line);
    return 0;
}
