/* Character edit distances as torchmetrics computes them (bleusuite/scores/eed/):
 *
 * edit_distances  EditDistance's Levenshtein distance within sacrebleu's TER beam, with a
 *                 substitution cost (insertions and deletions cost 1);
 * eed_grid        ExtendedEditDistance's CDER grid of Stanchev et al. (2019): a pair's last
 *                 cell and the visits that make its coverage (the score, a multiplication
 *                 and a division, is NumPy's, where no compiler can fuse them).
 *
 * Texts are int64 code points; pair k's hypothesis is hyp_chars[hyp_starts[k] :
 * hyp_starts[k] + hyp_lengths[k]], its reference the same slice of ref_chars. Both loops
 * run with the GIL released, in the reference's order of operations: integer costs for the
 * first, float64 additions and comparisons (the same first-least rule as Python's min and
 * list.index) for the second, so that every number is torchmetrics' own.
 */
#include "native.h"

#include <math.h>

/* torchmetrics' cost of a cell outside the beam (its _INT_INFINITY, 10**16) */
#define FAR 10000000000000000LL
#define BEAM_WIDTH 25
/* the largest substitution cost taken (bleusuite/scores/eed/levenshtein.py caps it there):
 * with costs below FAR no sum of two of them overflows */
#define MAX_COST (1LL << 40)

/* the scratch of a call: two rows of a pair's matrix and the visits of its columns, each
 * of 8-byte items, grown to the longest row of the call */
typedef struct {
    void *row, *next, *visits;
    size_t items;
} Scratch;

/* room for `items` items in each: 0, or -1 (no memory, no exception set) */
static int
scratch_reserve(Scratch *s, int64_t items)
{
    void **const arrays[3] = {&s->row, &s->next, &s->visits};
    const size_t sizes[3] = {8, 8, 8};
    return bs_grow_all(arrays, sizes, 3, &s->items, (size_t)items, 0);
}

static void
scratch_release(Scratch *s)
{
    PyMem_RawFree(s->row);
    PyMem_RawFree(s->next);
    PyMem_RawFree(s->visits);
}

/* a call's pairs, scratch and outputs (bs_rows_released's state) */
typedef struct {
    bs_Ragged p[1];
    Scratch scratch;
    int64_t cost;        /* edit_distances: the substitution cost */
    int64_t *distances;  /* its output */
    const double *costs; /* eed_grid: alpha, deletion, insertion */
    double *last;        /* its outputs */
    int64_t *visited;
} Pairs;

/* pair k's two texts, the scratch grown for them: BS_DONE, or the failure (a slice outside
 * its buffer, no memory) set in `fault` */
static bs_Failure
pair_texts(Pairs *c, Py_ssize_t k, const int64_t **hyp, int64_t *n, const int64_t **ref,
           int64_t *m, bs_Fault *fault)
{
    const bs_Ragged *p = c->p;
    if (bs_ragged_hyp(p, k, fault) != BS_DONE || bs_ragged_ref(p, k, 0, fault) != BS_DONE)
        return fault->kind;
    *hyp = p->hyp_ids + p->hyp_starts[k];
    *n = p->hyp_lengths[k];
    *ref = p->ref_ids + p->ref_starts[k];
    *m = p->ref_lengths[k];
    /* edit_distances' rows are the reference's, eed_grid's the hypothesis's */
    if (scratch_reserve(&c->scratch, (c->distances != NULL ? *m : *n) + 1) < 0)
        return bs_fail(fault, BS_NO_MEMORY, k, 0, 0, 0);
    return BS_DONE;
}

/* ------------------------------------------------------------------ edit_distances */

/* the beam distance of prediction `pred` (n) to target `target` (m): rows are the
 * prediction's characters; row i only within the beam around floor(i * m / n) (the last
 * row to its end), other cells FAR; a cell is the least of its diagonal plus 0 or `cost`,
 * the cell above plus 1 and the cell to its left plus 1. Each of the two rows keeps the
 * columns it last held: only those outside the new band are reset to FAR, so a row costs
 * its band, not m */
static int64_t
beam_distance(const int64_t *pred, int64_t n, const int64_t *target, int64_t m, int64_t cost,
              int64_t *row, int64_t *next, bs_Watch *watch)
{
    for (int64_t j = 0; j <= m; j++) {
        row[j] = j;
        next[j] = FAR;
    }
    int64_t row_low = 0, row_high = m + 1, next_low = 0, next_high = 0;
    const double ratio = n ? (double)m / (double)n : 1.0;
    const int64_t beam = ratio / 2 > BEAM_WIDTH ? (int64_t)ceil(ratio / 2 + BEAM_WIDTH)
                                                : BEAM_WIDTH;
    for (int64_t i = 1; i <= n; i++) {
        const int64_t middle = (int64_t)floor((double)i * ratio);
        const int64_t low = middle - beam > 0 ? middle - beam : 0;
        const int64_t high = i == n || middle + beam > m + 1 ? m + 1 : middle + beam;
        const int64_t c = pred[i - 1];
        /* the cells this buffer held two rows ago, outside the band now (the band only
         * moves right: low never falls) */
        for (int64_t j = next_low; j < low && j < next_high; j++) next[j] = FAR;
        for (int64_t j = high > next_low ? high : next_low; j < next_high; j++) next[j] = FAR;
        if (bs_watch_poll(watch)) return -1; /* a poll a row: a long pair stops too */
        int64_t j = low;
        if (j == 0 && j < high) { /* column 0: only the cell above */
            next[0] = row[0] + 1 < FAR ? row[0] + 1 : FAR;
            j = 1;
        }
        int64_t left = next[j - 1];
        for (; j < high; j++) {
            /* the least of FAR, the diagonal and the cell above first: the chain from
             * cell to cell is then one addition and one minimum (the same least) */
            const int64_t diagonal = row[j - 1] + (target[j - 1] == c ? 0 : cost);
            const int64_t above = row[j] + 1;
            int64_t best = diagonal < above ? diagonal : above;
            best = best < FAR ? best : FAR;
            left = left + 1 < best ? left + 1 : best;
            next[j] = left;
        }
        int64_t *swap = row;
        row = next;
        next = swap;
        next_low = row_low;
        next_high = row_high;
        row_low = low;
        row_high = high;
    }
    return row[m];
}

/* ------------------------------------------------------------------------ eed_grid */

/* the CDER grid of hypothesis `hyp` (n) and reference `ref` (m): rows are the reference's
 * characters; returns the last cell and counts the visits (a column never visited: 1) */
static double
eed_pair(const int64_t *hyp, int64_t n, const int64_t *ref, int64_t m, double alpha,
         double deletion, double insertion, double *row, double *next, int64_t *visits,
         int64_t *visited, bs_Watch *watch)
{
    for (int64_t i = 0; i <= n; i++) visits[i] = -1;
    row[0] = 0.0;
    for (int64_t i = 1; i <= n; i++) row[i] = 1.0;
    for (int64_t w = 0; w < m; w++) {
        if (bs_watch_poll(watch)) return 0.0; /* a poll a row: a long pair stops too */
        const int64_t c = ref[w];
        next[0] = row[0] + 1.0;
        double least = next[0], left = next[0];
        int64_t at = 0;
        for (int64_t i = 1; i <= n; i++) {
            /* Python's min(deletion, substitution, insertion), taken in another order:
             * the least value is the same (costs are never NaN), and the loop's chain
             * (each cell waits for the one to its left) is one addition and one minimum */
            const double substitution = row[i - 1] + (hyp[i - 1] == c ? 0.0 : 1.0);
            const double inserted = row[i] + insertion;
            const double other = inserted < substitution ? inserted : substitution;
            const double deleted = left + deletion; /* left: next[i - 1], kept in a register */
            left = other < deleted ? other : deleted;
            next[i] = left;
            if (left < least) { /* min(row) and row.index(it): the first least */
                least = left;
                at = i;
            }
        }
        visits[at]++;
        if (c == ' ') {
            const double jump = alpha + least;
            for (int64_t i = 0; i <= n; i++) {
                if (jump < next[i]) next[i] = jump;
            }
        }
        double *swap = row;
        row = next;
        next = swap;
    }
    int64_t total = 0;
    for (int64_t i = 0; i <= n; i++) total += visits[i] >= 0 ? visits[i] : 1;
    *visited = total;
    return row[n];
}

/* pair `at`: its distance (edit_distances) or its grid (eed_grid) into the outputs. A pair
 * stopped within (Ctrl-C) ends the call at bs_rows_released's next poll, or at its end */
static bs_Failure
pair_row(void *state, Py_ssize_t at, bs_Watch *watch, bs_Fault *fault)
{
    Pairs *c = state;
    const int64_t *hyp, *ref;
    int64_t n, m;
    if (pair_texts(c, at, &hyp, &n, &ref, &m, fault) != BS_DONE) return fault->kind;
    if (c->distances != NULL)
        c->distances[at] = beam_distance(hyp, n, ref, m, c->cost, c->scratch.row,
                                         c->scratch.next, watch);
    else
        c->last[at] = eed_pair(hyp, n, ref, m, c->costs[0], c->costs[1], c->costs[2],
                               c->scratch.row, c->scratch.next, c->scratch.visits,
                               &c->visited[at], watch);
    return BS_DONE;
}

/* ------------------------------------------------------------------ the entry points */

static const char *const TEXT_NAMES[6] = {"hyp_chars", "hyp_starts", "hyp_lengths",
                                          "ref_chars", "ref_starts", "ref_lengths"};

/* an entry point of `count` arguments: the six text buffers (args[0:6]), its own
 * arguments (read_own: args[6:count - 2] into c, their views appended to views[*held:]; 0,
 * or -1 with the exception) and the pairs begin..end-1 (the last two) read, then each pair
 * with the GIL released: None, or NULL with the exception */
static PyObject *
pairs_call(const char *name, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t count,
           int (*read_own)(PyObject *const *, Pairs *, Py_buffer *, int *))
{
    if (bs_arg_count(name, nargs, count, count) < 0) return NULL;
    Py_buffer views[9];
    int held = 0;
    PyObject *result = NULL;
    Pairs c;
    memset(&c, 0, sizeof(c));
    Py_ssize_t begin, end;
    if (bs_ragged_read(args, TEXT_NAMES, 0, INT64_MAX, "pair", "compared", c.p, views, &held) < 0
        || read_own(args, &c, views, &held) < 0
        || bs_rows_range(args[count - 2], args[count - 1], c.p->rows, "pair", &begin, &end) < 0)
        goto done;
    bs_Fault fault = {BS_DONE, 0, 0, 0, 0, NULL};
    result = bs_rows_released(NULL, pair_row, &c, begin, end, &fault, c.p);
    scratch_release(&c.scratch);
done:
    bs_release_views(views, held);
    return result;
}

/* edit_distances' own arguments: substitution_cost and distances */
static int
read_distance_arguments(PyObject *const *args, Pairs *c, Py_buffer *views, int *held)
{
    Py_ssize_t cost;
    if (bs_index_argument(args[6], "substitution_cost", &cost) < 0) return -1;
    if (cost < 0 || cost > MAX_COST) {
        PyErr_Format(PyExc_ValueError, "substitution_cost must be from 0 to 2**40; got %zd",
                     cost);
        return -1;
    }
    c->cost = cost;
    const Py_ssize_t out_shape[1] = {c->p->rows};
    if (bs_int64_buffer(args[7], &views[*held], "distances", 1, out_shape, 1) < 0) return -1;
    c->distances = views[(*held)++].buf;
    return 0;
}

/* eed_grid's own arguments: costs, last and visited */
static int
read_grid_arguments(PyObject *const *args, Pairs *c, Py_buffer *views, int *held)
{
    const Py_ssize_t pairs = c->p->rows, out_shape[1] = {pairs};
    if (bs_float64_buffer(args[6], &views[*held], "costs", 0) < 0) return -1;
    c->costs = views[(*held)++].buf;
    if (views[*held - 1].len != 3 * 8) {
        PyErr_SetString(PyExc_ValueError, "costs must hold 3 values (alpha, deletion, "
                        "insertion)");
        return -1;
    }
    if (bs_float64_buffer(args[7], &views[*held], "last", 1) < 0) return -1;
    c->last = views[(*held)++].buf;
    if (views[*held - 1].len != pairs * 8) {
        PyErr_Format(PyExc_ValueError, "last must hold %zd values (the pairs)", pairs);
        return -1;
    }
    if (bs_int64_buffer(args[8], &views[*held], "visited", 1, out_shape, 1) < 0) return -1;
    c->visited = views[(*held)++].buf;
    return 0;
}

const char bs_edit_distances_doc[] =
"edit_distances(hyp_chars, hyp_starts, hyp_lengths, ref_chars, ref_starts, ref_lengths,\n"
"               substitution_cost, distances, begin, end, /)\n--\n\n"
"torchmetrics' EditDistance (its beam Levenshtein distance on characters) of pairs\n"
"begin..end-1, written into distances.\n\n"
"The texts are C-contiguous int64 buffers of code points: pair k's prediction is\n"
"hyp_chars[hyp_starts[k] : hyp_starts[k] + hyp_lengths[k]], its target the same slice of\n"
"ref_chars (starts and lengths of shape (P,)). substitution_cost is an integer from 0 to\n"
"2**40; distances, int64 of shape (P,), receives each distance. The GIL is released.";

const char bs_eed_grid_doc[] =
"eed_grid(hyp_chars, hyp_starts, hyp_lengths, ref_chars, ref_starts, ref_lengths, costs,\n"
"         last, visited, begin, end, /)\n--\n\n"
"torchmetrics' ExtendedEditDistance grid of pairs begin..end-1: each pair's last cell\n"
"into last (float64, (P,)) and its columns' visits (one for a column never visited) into\n"
"visited (int64, (P,)).\n\n"
"The texts are laid out as edit_distances takes them (preprocessed sentences; pair k's\n"
"hypothesis and reference). costs is a float64 buffer (alpha, deletion, insertion). The\n"
"GIL is released.";

/* the two entry points: pairs_call with the name, the number of arguments and the reader of
 * the entry's own */
#define PAIRS_ENTRY(name, count, read_own)                                                 \
    PyObject *bs_##name(PyObject *module, PyObject *const *args, Py_ssize_t nargs)         \
    {                                                                                      \
        (void)module;                                                                      \
        return pairs_call(#name, args, nargs, count, read_own);                            \
    }

PAIRS_ENTRY(edit_distances, 10, read_distance_arguments)
PAIRS_ENTRY(eed_grid, 11, read_grid_arguments)
