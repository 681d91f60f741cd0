/* ter_edits: TER's edits of each hypothesis against each of its references, as sacrebleu's
 * lib_ter counts them (tercom's shift heuristics over a beam edit distance), exact, with
 * the GIL released.
 *
 * A pair (a hypothesis of n words, a reference of m words; a word is an int64 id) is
 * counted in steps:
 *
 * 1. The band. Row i of the edit-distance matrix (the first i hypothesis words against
 *    every reference prefix) is computed only at the reference positions j in
 *    [lo_i, hi_i): around the pseudo-diagonal floor(i * m / n), 25 on each side (more where
 *    m / n > 50), the last row whole. The cells outside hold "far" (sacrebleu's infinity),
 *    so no path leaves the band. A shift keeps n, so the band is the pair's.
 * 2. The current hypothesis' matrix, with how each cell was reached (on ties: match or
 *    substitution, then deletion, then insertion, as sacrebleu), and its trace: which
 *    hypothesis and reference words are errors, and the hypothesis word each reference word
 *    is aligned with (sacrebleu's trace_to_alignment of the flipped trace).
 * 3. The shift search (sacrebleu's _shift): every hypothesis block of 1..10 words equal to
 *    a reference block that starts at most 50 positions away, in sacrebleu's order, where
 *    both blocks hold an error and the reference block is not aligned inside the
 *    hypothesis block; each is moved before every distinct position aligned with the
 *    reference block and the word before it. The best candidate has the largest gain, then
 *    the longest block, the earliest block, the earliest target.
 * 4. A candidate's edit distance starts from the current hypothesis' row where the two
 *    first differ. The Levenshtein distance without the band (Myers' bit-parallel
 *    algorithm, Hyyrö's form: 64 reference words per machine word, a few operations per
 *    hypothesis word) is the beam distance where the band covers the whole matrix (short
 *    references), and a lower bound of it elsewhere: a candidate that cannot beat the best
 *    so far even at that bound is done, and the others take the beam rows, stopping at the
 *    first row that proves they cannot (its least cost plus the length difference left to
 *    cover). None of this changes a result.
 * 5. The best shift is made while it gains; the search ends, that shift unmade, once 1000
 *    candidates have been tried for the pair (sacrebleu's limit). The edits are the shifts
 *    made plus the edit distance of the shifted hypothesis.
 *
 * sacrebleu keeps a cache of matrix rows per word prefix; here the rows of the current
 * hypothesis play that part (the same numbers: a row depends only on the words before it
 * and on the band). Costs are 32-bit (a side has at most 2^28 words); the current
 * hypothesis' matrix takes (n + 1) x (m + 1) cells, as sacrebleu's does. Every offset and
 * length is checked against its buffer before it is read.
 */
#include "native.h"

#include <math.h>
#include <string.h>

#define MAX_SHIFT_SIZE 10
#define MAX_SHIFT_DIST 50
#define BEAM_WIDTH 25
#define MAX_SHIFT_CANDIDATES 1000
/* sacrebleu's infinity: above any edit distance, and far + 1 still fits */
#define FAR ((int32_t)1 << 30)
/* no bound on a candidate's distance (the first candidate of a search) */
#define UNBOUNDED INT32_MAX
/* words of a hypothesis or a reference */
#define MAX_WORDS ((int64_t)1 << 28)

/* how a cell was reached: sacrebleu's ' ', 's', 'i', 'd' and 'x' (not reached) */
typedef enum { OP_MATCH, OP_SUB, OP_INS, OP_DEL, OP_NONE } Op;

/* the best shift so far: sacrebleu's (gain, length, -start, -target) tuple */
typedef struct {
    int found;
    int32_t gain, length, start, target;
} Shift;

/* one pair, and the scratch of a block of rows (grown as pairs need it) */
typedef struct {
    const int64_t *ref;
    int32_t n, m, width; /* width = m + 1 cells per row */
    int32_t *lo, *hi;    /* n + 1: the band of each row */
    int64_t *words;      /* n: the hypothesis as shifted so far */
    int64_t *shifted;    /* n: a candidate */
    int32_t *cost;       /* (n + 1) x width: the current hypothesis' matrix */
    uint8_t *how;        /* (n + 1) x width: how each of its cells was reached */
    int32_t *row_a, *row_b; /* width each: a candidate's rows */
    int32_t *align;      /* m: the hypothesis position aligned with each reference word */
    int32_t *hyp_errors; /* n + 1: errors among the first k hypothesis words */
    int32_t *ref_errors; /* m + 1: errors among the first k reference words */
    uint8_t *trace;      /* n + m */
    /* Myers' bit vectors: `blocks` machine words per row, the reference word j at bit
     * j % 64 of word j / 64 */
    int32_t blocks;
    int full;            /* the band covers the whole matrix */
    uint64_t last_bit;   /* the bit of the last reference word in the last block */
    int32_t *origin;     /* n: the hypothesis position each current word came from */
    int32_t *shifted_origin; /* n: a candidate's */
    uint64_t *masks;     /* n x blocks: where each hypothesis word (by origin) is in the ref */
    uint64_t *plus, *minus; /* (n + 1) x blocks: the current rows' vertical +1 and -1 deltas */
    int32_t *last;       /* n + 1: the current rows' last cells */
    uint64_t *scratch_plus, *scratch_minus; /* blocks each: a candidate's */
    /* the items of the arrays of each size: n + 1 (lo ... last), m + 1 (row_a ... ref_errors),
     * cells (cost, how), trace, (n + 1) x blocks (masks ... scratch_minus) */
    size_t words_capacity, ref_capacity, cells_capacity, trace_capacity, masks_capacity;
    bs_Watch *watch;     /* polled once a row of every matrix: a long pair can be stopped */
} Pair;

/* ------------------------------------------------------------------------ scratch */

/* room for a pair of n hypothesis and m reference words: each group of arrays that share a
 * capacity grown to exactly what the pair needs (the matrices of a long pair are large) */
static bs_Failure
pair_reserve(Pair *p, int32_t n, int32_t m)
{
    const size_t words = (size_t)n + 1, refs = (size_t)m + 1, trace = (size_t)n + (size_t)m;
    const size_t blocks = ((size_t)m + 63) / 64;
    if (bs_size_product((Py_ssize_t)words, (Py_ssize_t)refs) < 0
        || bs_size_product((Py_ssize_t)words, (Py_ssize_t)blocks) < 0)
        return BS_NO_MEMORY;
    void **const of_words[8] = {(void **)&p->lo, (void **)&p->hi, (void **)&p->words,
                                (void **)&p->shifted, (void **)&p->hyp_errors,
                                (void **)&p->origin, (void **)&p->shifted_origin,
                                (void **)&p->last};
    const size_t word_sizes[8] = {4, 4, 8, 8, 4, 4, 4, 4};
    void **const of_refs[4] = {(void **)&p->row_a, (void **)&p->row_b, (void **)&p->align,
                               (void **)&p->ref_errors};
    const size_t ref_sizes[4] = {4, 4, 4, 4};
    void **const of_cells[2] = {(void **)&p->cost, (void **)&p->how};
    const size_t cell_sizes[2] = {4, 1};
    void **const of_trace[1] = {(void **)&p->trace};
    const size_t trace_sizes[1] = {1};
    void **const of_bits[5] = {(void **)&p->masks, (void **)&p->plus, (void **)&p->minus,
                               (void **)&p->scratch_plus, (void **)&p->scratch_minus};
    const size_t bit_sizes[5] = {8, 8, 8, 8, 8};
    if (bs_grow_all(of_words, word_sizes, 8, &p->words_capacity, words, 1) < 0
        || bs_grow_all(of_refs, ref_sizes, 4, &p->ref_capacity, refs, 1) < 0
        || bs_grow_all(of_cells, cell_sizes, 2, &p->cells_capacity, words * refs, 1) < 0
        || bs_grow_all(of_trace, trace_sizes, 1, &p->trace_capacity, trace + 1, 1) < 0
        || bs_grow_all(of_bits, bit_sizes, 5, &p->masks_capacity, words * blocks, 1) < 0)
        return BS_NO_MEMORY;
    return BS_DONE;
}

static void
pair_release(Pair *p)
{
    void *const held[] = {p->lo, p->hi, p->words, p->shifted, p->cost, p->how, p->row_a,
                          p->row_b, p->align, p->hyp_errors, p->ref_errors, p->trace,
                          p->origin, p->shifted_origin, p->masks, p->plus, p->minus, p->last,
                          p->scratch_plus, p->scratch_minus};
    bs_free_all(held, sizeof held / sizeof held[0]);
}

/* ---------------------------------------------------------------- the edit distance */

/* the band of every row (sacrebleu's BeamEditDistance._edit_distance, the same float
 * arithmetic: length_ratio, floor, ceil) */
static void
set_band(Pair *p)
{
    const double ratio = p->n ? (double)p->m / (double)p->n : 1.0;
    int64_t beam = BEAM_WIDTH;
    if (BEAM_WIDTH < ratio / 2) beam = (int64_t)ceil(ratio / 2 + BEAM_WIDTH);
    p->lo[0] = 0;
    p->hi[0] = p->width;
    p->full = 1;
    for (int32_t i = 1; i <= p->n; i++) {
        const int64_t diagonal = (int64_t)floor((double)i * ratio);
        const int64_t lo = diagonal - beam, hi = diagonal + beam;
        p->lo[i] = lo < 0 ? 0 : (int32_t)lo;
        p->hi[i] = i == p->n || hi > p->width ? p->width : (int32_t)hi;
        p->full &= p->lo[i] == 0 && p->hi[i] == p->width;
    }
}

/* ------------------------------------------------------- the bit-parallel distance */

/* where each hypothesis word is in the reference (Myers' Peq), by hypothesis position */
static void
set_masks(Pair *p, const int64_t *hyp)
{
    const size_t blocks = (size_t)p->blocks;
    memset(p->masks, 0, (size_t)p->n * blocks * sizeof(uint64_t));
    for (int32_t i = 0; i < p->n; i++) {
        uint64_t *mask = p->masks + (size_t)i * blocks;
        for (int32_t j = 0; j < p->m; j++)
            if (hyp[i] == p->ref[j]) mask[j / 64] |= (uint64_t)1 << (j % 64);
    }
}

/* one hypothesis word more: the vertical deltas of the next row from this row's (in
 * place), given where the word is in the reference; returns how the last cell changes
 * (-1, 0 or +1). Hyyrö's block form of Myers' algorithm, with the first column counting
 * deletions (a global distance: the carry into the first block is +1). */
static inline int32_t
advance(uint64_t *plus, uint64_t *minus, const uint64_t *mask, int32_t blocks,
        uint64_t last_bit)
{
    uint64_t plus_carry = 1, minus_carry = 0;
    for (int32_t k = 0; k < blocks; k++) {
        const uint64_t vp = plus[k], vn = minus[k];
        const uint64_t x = mask[k] | minus_carry;
        const uint64_t d0 = (((x & vp) + vp) ^ vp) | x | vn;
        uint64_t hp = vn | ~(d0 | vp);
        uint64_t hn = d0 & vp;
        const uint64_t plus_in = plus_carry, minus_in = minus_carry;
        if (k < blocks - 1) {
            plus_carry = hp >> 63;
            minus_carry = hn >> 63;
        }
        else {
            plus_carry = (hp & last_bit) != 0;
            minus_carry = (hn & last_bit) != 0;
        }
        hp = (hp << 1) | plus_in;
        hn = (hn << 1) | minus_in;
        plus[k] = hn | ~(d0 | hp);
        minus[k] = hp & d0;
    }
    return (int32_t)plus_carry - (int32_t)minus_carry;
}

/* the bit vectors of rows from + 1 .. n of the current hypothesis (rows 0 .. from kept) */
static void
fill_bits(Pair *p, int32_t from)
{
    const size_t blocks = (size_t)p->blocks;
    for (int32_t i = from + 1; i <= p->n; i++) {
        if (bs_watch_poll(p->watch)) return;
        uint64_t *plus = p->plus + (size_t)i * blocks, *minus = p->minus + (size_t)i * blocks;
        memcpy(plus, plus - blocks, blocks * sizeof(uint64_t));
        memcpy(minus, minus - blocks, blocks * sizeof(uint64_t));
        p->last[i] = p->last[i - 1] + advance(plus, minus,
                                              p->masks + (size_t)p->origin[i - 1] * blocks,
                                              p->blocks, p->last_bit);
    }
}

/* row i of the current hypothesis' matrix (its word i - 1 is `word`) from row i - 1
 * (`prev`, valid in its band), with how each cell was reached (`how`): sacrebleu's order of
 * preference on ties, each way taken only where strictly cheaper */
static void
compute_row(const Pair *p, int32_t i, int64_t word, const int32_t *prev, int32_t *row,
            uint8_t *how)
{
    const int32_t prev_lo = p->lo[i - 1], prev_hi = p->hi[i - 1];
    const int32_t lo = p->lo[i], hi = p->hi[i];
    const int64_t *ref = p->ref;
    int32_t left = FAR;
    for (int32_t j = lo; j < hi; j++) {
        int32_t value;
        uint8_t op;
        if (j == 0) {
            value = prev[0] + 1; /* the band of row i - 1 starts at 0 too */
            op = OP_DEL;
        }
        else {
            const int32_t diagonal = j - 1 >= prev_lo && j - 1 < prev_hi ? prev[j - 1] : FAR;
            const int32_t up = j >= prev_lo && j < prev_hi ? prev[j] : FAR;
            const int32_t differs = word != ref[j - 1];
            value = FAR;
            op = OP_NONE;
            if (diagonal + differs < value) {
                value = diagonal + differs;
                op = differs ? OP_SUB : OP_MATCH;
            }
            if (up + 1 < value) {
                value = up + 1;
                op = OP_DEL;
            }
            if (left + 1 < value) {
                value = left + 1;
                op = OP_INS;
            }
        }
        row[j] = value;
        how[j] = op;
        left = value;
    }
}

/* "far" in the cells of row i just outside its band that row i + 1 reads (the one before
 * the band, and those up to the next row's band end), so that a candidate's row reads its
 * previous one without a check per cell (beam_row) */
static inline void
pad_row(const Pair *p, int32_t i, int32_t *row)
{
    if (p->lo[i] > 0) row[p->lo[i] - 1] = FAR;
    if (i == p->n) return;
    for (int32_t j = p->hi[i]; j < p->hi[i + 1]; j++) row[j] = FAR;
}

/* rows from + 1 .. n of the current hypothesis' matrix (rows 0 .. from are kept) */
static void
fill_rows(Pair *p, int32_t from)
{
    const size_t width = (size_t)p->width;
    for (int32_t i = from + 1; i <= p->n; i++) {
        if (bs_watch_poll(p->watch)) return;
        int32_t *row = p->cost + (size_t)i * width;
        compute_row(p, i, p->words[i - 1], row - width, row, p->how + (size_t)i * width);
        pad_row(p, i, row);
    }
}

/* row i of a candidate's matrix without how the cells were reached: the cells' values
 * alone (the least of the three ways, "far" above), read from a padded previous row
 * (pad_row) with no check per cell; the row is padded in turn. Returns the row's least
 * cost plus the length difference left to cover: no path through the row ends cheaper. */
static int32_t
beam_row(const Pair *p, int32_t i, int64_t word, const int32_t *prev, int32_t *row)
{
    const int32_t lo = p->lo[i], hi = p->hi[i], rest = p->n - i, m = p->m;
    const int64_t *ref = p->ref;
    int32_t left = FAR, bound = UNBOUNDED, j = lo;
    if (j == 0) {
        left = row[0] = prev[0] + 1; /* the band of row i - 1 starts at 0 too */
        bound = left + (m - rest < 0 ? rest - m : m - rest);
        j = 1;
    }
    for (; j < hi; j++) {
        const int32_t diagonal = prev[j - 1] + (word != ref[j - 1]), up = prev[j] + 1;
        int32_t value = diagonal < up ? diagonal : up;
        value = value < left + 1 ? value : left + 1;
        value = value < FAR ? value : FAR;
        row[j] = value;
        left = value;
        const int32_t gap = m - j - rest;
        const int32_t least = value + (gap < 0 ? -gap : gap);
        bound = least < bound ? least : bound;
    }
    pad_row(p, i, row);
    return bound;
}

/* the trace of the current hypothesis' matrix, read as sacrebleu reads the flipped one:
 * the aligned hypothesis position of each reference word (-1: before the first) and the
 * running error counts of both sides */
static bs_Failure
read_trace(Pair *p)
{
    const size_t width = (size_t)p->width;
    size_t length = 0, end = p->trace_capacity;
    int32_t i = p->n, j = p->m;
    while (i > 0 || j > 0) {
        if (j < p->lo[i] || j >= p->hi[i]) return BS_NO_TRACE;
        const uint8_t op = p->how[(size_t)i * width + (size_t)j];
        p->trace[end - ++length] = op;
        if (op == OP_MATCH || op == OP_SUB) {
            i--;
            j--;
        }
        else if (op == OP_INS) {
            j--;
        }
        else if (op == OP_DEL) {
            i--;
        }
        else {
            return BS_NO_TRACE;
        }
    }
    int32_t hyp = -1, ref = -1;
    p->hyp_errors[0] = 0;
    p->ref_errors[0] = 0;
    for (size_t k = end - length; k < end; k++) {
        const uint8_t op = p->trace[k];
        if (op == OP_MATCH || op == OP_SUB) {
            hyp++;
            ref++;
            p->align[ref] = hyp;
            p->hyp_errors[hyp + 1] = p->hyp_errors[hyp] + (op == OP_SUB);
            p->ref_errors[ref + 1] = p->ref_errors[ref] + (op == OP_SUB);
        }
        else if (op == OP_DEL) { /* a hypothesis word not in the reference */
            hyp++;
            p->hyp_errors[hyp + 1] = p->hyp_errors[hyp] + 1;
        }
        else { /* a reference word not in the hypothesis */
            ref++;
            p->align[ref] = hyp;
            p->ref_errors[ref + 1] = p->ref_errors[ref] + 1;
        }
    }
    return BS_DONE;
}

/* ------------------------------------------------------------------------- shifts */

/* sacrebleu's _perform_shift: the `length` items at `start` moved before `target`, items of
 * `size` bytes */
static void
shift_items(const char *items, size_t size, int32_t n, int32_t start, int32_t length,
            int32_t target, char *out)
{
    const size_t block = (size_t)length * size;
    if (target < start) {
        memcpy(out, items, (size_t)target * size);
        memcpy(out + (size_t)target * size, items + (size_t)start * size, block);
        memcpy(out + (size_t)(target + length) * size, items + (size_t)target * size,
               (size_t)(start - target) * size);
        memcpy(out + (size_t)(start + length) * size, items + (size_t)(start + length) * size,
               (size_t)(n - start - length) * size);
        return;
    }
    /* after the block, or inside it: the items up to `middle` come first */
    const int32_t middle = target > start + length ? target
                           : length + target < n ? length + target : n;
    const int32_t moved = middle - start - length;
    memcpy(out, items, (size_t)start * size);
    memcpy(out + (size_t)start * size, items + (size_t)(start + length) * size,
           (size_t)moved * size);
    memcpy(out + (size_t)(start + moved) * size, items + (size_t)start * size, block);
    memcpy(out + (size_t)middle * size, items + (size_t)middle * size,
           (size_t)(n - middle) * size);
}

static void
perform_shift(const int64_t *words, int32_t n, int32_t start, int32_t length, int32_t target,
              int64_t *out)
{
    shift_items((const char *)words, sizeof(int64_t), n, start, length, target, (char *)out);
}

static void
perform_shift_origin(const int32_t *origin, int32_t n, int32_t start, int32_t length,
                     int32_t target, int32_t *out)
{
    shift_items((const char *)origin, sizeof(int32_t), n, start, length, target, (char *)out);
}

/* the Levenshtein distance (no band) of the current hypothesis with a shift made, from the
 * first row where they differ */
static int32_t
candidate_levenshtein(Pair *p, int32_t from)
{
    const size_t blocks = (size_t)p->blocks;
    uint64_t *plus = p->scratch_plus, *minus = p->scratch_minus;
    memcpy(plus, p->plus + (size_t)from * blocks, blocks * sizeof(uint64_t));
    memcpy(minus, p->minus + (size_t)from * blocks, blocks * sizeof(uint64_t));
    int32_t last = p->last[from];
    for (int32_t i = from; i < p->n; i++) {
        if (bs_watch_poll(p->watch)) return UNBOUNDED;
        last += advance(plus, minus, p->masks + (size_t)p->shifted_origin[i] * blocks,
                        p->blocks, p->last_bit);
    }
    return last;
}

/* the edit distance of the current hypothesis with a shift made, from the first row where
 * they differ; UNBOUNDED (above any bound) as soon as it is proven above `bound` */
static int32_t
candidate_distance(Pair *p, int32_t start, int32_t length, int32_t target, int32_t bound)
{
    const size_t width = (size_t)p->width;
    const int32_t from = start < target ? start : target;
    perform_shift_origin(p->origin, p->n, start, length, target, p->shifted_origin);
    const int32_t levenshtein = candidate_levenshtein(p, from);
    if (p->full) return levenshtein; /* the band holds every cell: the same distance */
    if (levenshtein > bound) return UNBOUNDED; /* the beam's is no lower */
    perform_shift(p->words, p->n, start, length, target, p->shifted);
    const int32_t *prev = p->cost + (size_t)from * width;
    for (int32_t i = from + 1; i <= p->n; i++) {
        if (bs_watch_poll(p->watch)) return UNBOUNDED;
        int32_t *row = i & 1 ? p->row_a : p->row_b;
        if (beam_row(p, i, p->shifted[i - 1], prev, row) > bound) return UNBOUNDED;
        prev = row;
    }
    return prev[p->m];
}

/* whether (length, -start, -target) is above the best's: a candidate of the best's gain
 * then wins */
static int
wins_tie(const Shift *best, int32_t length, int32_t start, int32_t target)
{
    if (length != best->length) return length > best->length;
    if (start != best->start) return start < best->start;
    return target < best->target;
}

/* the candidates of one block pair (start, ref_start, length) that passes sacrebleu's
 * filters, each counted in `checked` */
static void
try_targets(Pair *p, int32_t score, int32_t start, int32_t ref_start, int32_t length,
            int32_t *checked, Shift *best)
{
    int32_t previous = -1;
    for (int32_t offset = -1; offset < length; offset++) {
        const int32_t target = ref_start + offset == -1 ? 0 : p->align[ref_start + offset] + 1;
        if (target == previous) continue;
        previous = target;
        int32_t bound = UNBOUNDED;
        if (best->found) {
            const int32_t tie = wins_tie(best, length, start, target);
            bound = score - best->gain - (tie ? 0 : 1);
        }
        const int32_t distance = candidate_distance(p, start, length, target, bound);
        (*checked)++;
        if (distance > bound) continue; /* never above the best */
        const int32_t gain = score - distance;
        if (!best->found || gain > best->gain
            || (gain == best->gain && wins_tie(best, length, start, target))) {
            best->found = 1;
            best->gain = gain;
            best->length = length;
            best->start = start;
            best->target = target;
        }
    }
}

/* sacrebleu's _shift: the best shift of the current hypothesis; `checked` counts the
 * candidates tried for the pair (the search stops once it reaches the limit) */
static bs_Failure
best_shift(Pair *p, int32_t *checked, Shift *best)
{
    const int32_t n = p->n, m = p->m;
    const int32_t score = p->cost[(size_t)n * (size_t)p->width + (size_t)m];
    const int64_t *words = p->words, *ref = p->ref;
    *best = (Shift){0};
    bs_Failure failure = read_trace(p);
    if (failure != BS_DONE) return failure;
    for (int32_t start = 0; start < n; start++) {
        const int32_t first = start - MAX_SHIFT_DIST < 0 ? 0 : start - MAX_SHIFT_DIST;
        const int32_t last = start + MAX_SHIFT_DIST + 1 < m ? start + MAX_SHIFT_DIST + 1 : m;
        for (int32_t ref_start = first; ref_start < last; ref_start++) {
            for (int32_t length = 1; length <= MAX_SHIFT_SIZE; length++) {
                if (words[start + length - 1] != ref[ref_start + length - 1]) break;
                const int32_t aligned = p->align[ref_start];
                if (p->hyp_errors[start + length] != p->hyp_errors[start]
                    && p->ref_errors[ref_start + length] != p->ref_errors[ref_start]
                    && !(start <= aligned && aligned < start + length)) {
                    try_targets(p, score, start, ref_start, length, checked, best);
                    if (p->watch->stopped) return BS_STOPPED;
                    if (*checked >= MAX_SHIFT_CANDIDATES) return BS_DONE;
                }
                if (start + length == n || ref_start + length == m) break;
            }
        }
    }
    return BS_DONE;
}

/* sacrebleu's translation_edit_rate: the edits of a hypothesis against a reference */
static bs_Failure
pair_edits(Pair *p, const int64_t *hyp, int32_t n, const int64_t *ref, int32_t m,
           int64_t *edits)
{
    if (m == 0 || n == 0) { /* only deletions, or only insertions: no shift can help */
        *edits = m == 0 ? n : m;
        return BS_DONE;
    }
    bs_Failure failure = pair_reserve(p, n, m);
    if (failure != BS_DONE) return failure;
    p->ref = ref;
    p->n = n;
    p->m = m;
    p->width = m + 1;
    memcpy(p->words, hyp, (size_t)n * sizeof(int64_t));
    set_band(p);
    for (int32_t j = 0; j <= m; j++) {
        p->cost[j] = j;
        p->how[j] = OP_INS;
    }
    fill_rows(p, 0);
    p->blocks = (m + 63) / 64;
    p->last_bit = (uint64_t)1 << ((m - 1) % 64);
    for (int32_t i = 0; i < n; i++) p->origin[i] = i;
    set_masks(p, hyp);
    for (int32_t k = 0; k < p->blocks; k++) { /* row 0: every vertical delta +1 */
        p->plus[k] = ~(uint64_t)0;
        p->minus[k] = 0;
    }
    p->last[0] = m;
    fill_bits(p, 0);
    if (p->watch->stopped) return BS_STOPPED;
    int32_t checked = 0;
    int64_t shifts = 0;
    for (;;) {
        Shift best;
        failure = best_shift(p, &checked, &best);
        if (failure != BS_DONE) return failure;
        if (checked >= MAX_SHIFT_CANDIDATES || !best.found || best.gain <= 0) break;
        perform_shift(p->words, n, best.start, best.length, best.target, p->shifted);
        int64_t *made = p->shifted;
        p->shifted = p->words;
        p->words = made;
        perform_shift_origin(p->origin, n, best.start, best.length, best.target,
                             p->shifted_origin);
        int32_t *moved = p->shifted_origin;
        p->shifted_origin = p->origin;
        p->origin = moved;
        shifts++;
        const int32_t from = best.start < best.target ? best.start : best.target;
        fill_rows(p, from);
        fill_bits(p, from);
        if (p->watch->stopped) return BS_STOPPED;
    }
    *edits = shifts + p->cost[(size_t)n * (size_t)p->width + (size_t)m];
    return BS_DONE;
}

/* the edits of row `row` against each of its references into edits (B, R) (-1 where a
 * reference is absent, its length -1): BS_DONE, or the failure set in `fault` */
static bs_Failure
row_edits(Pair *p, const bs_Ragged *in, int64_t *edits, Py_ssize_t row, bs_Fault *fault)
{
    if (bs_ragged_hyp(in, row, fault) != BS_DONE) return fault->kind;
    const int64_t hyp_start = in->hyp_starts[row], hyp_length = in->hyp_lengths[row];
    for (Py_ssize_t r = 0; r < in->refs; r++) {
        const Py_ssize_t k = row * in->refs + r;
        const int64_t ref_start = in->ref_starts[k], ref_length = in->ref_lengths[k];
        if (ref_length == -1) {
            edits[k] = -1;
            continue;
        }
        if (bs_ragged_ref(in, row, r, fault) != BS_DONE) return fault->kind;
        const bs_Failure failure = pair_edits(p, in->hyp_ids + hyp_start, (int32_t)hyp_length,
                                              in->ref_ids + ref_start, (int32_t)ref_length,
                                              &edits[k]);
        /* the matrices grow with the words of the two sides: the message names them */
        if (failure == BS_NO_MEMORY)
            return bs_fail(fault, BS_MATRIX_TOO_BIG, row, r, hyp_length, ref_length);
        if (failure != BS_DONE) return bs_fail(fault, failure, row, r, 0, 0);
    }
    return BS_DONE;
}

/* the rows of a call (bs_rows_released's state) */
typedef struct {
    Pair pair;
    const bs_Ragged *in;
    int64_t *edits;
} Rows;

static bs_Failure
rows_row(void *state, Py_ssize_t row, bs_Watch *watch, bs_Fault *fault)
{
    Rows *rows = state;
    rows->pair.watch = watch;
    return row_edits(&rows->pair, rows->in, rows->edits, row, fault);
}

/* ------------------------------------------------------------------------ the entry */

const char bs_ter_edits_doc[] =
"ter_edits(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths, edits,\n"
"          begin, end, /)\n--\n\n"
"TER's edits (sacrebleu's translation_edit_rate) of rows begin..end-1, written into edits.\n\n"
"Every argument but the last two is a C-contiguous int64 buffer. Row b's hypothesis is\n"
"hyp_ids[hyp_starts[b] : hyp_starts[b] + hyp_lengths[b]], with hyp_starts and hyp_lengths\n"
"of shape (B,); its reference r is the same slice of ref_ids by ref_starts[b, r] and\n"
"ref_lengths[b, r], of shape (B, R) (a length of -1: no such reference). edits, of shape\n"
"(B, R), receives the shifts plus the beam edit distance of the shifted hypothesis\n"
"against each reference (-1 for an absent one). The GIL is released while rows are\n"
"counted, so threads can count other rows of the same call at once.";

PyObject *
bs_ter_edits(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("ter_edits", nargs, 9, 9) < 0) return NULL;
    Py_buffer views[7];
    int held = 0;
    PyObject *result = NULL;
    bs_Ragged in;
    Py_ssize_t begin, end;
    if (bs_ragged_read(args, bs_ragged_names, 1, MAX_WORDS, "row", "compared", &in, views,
                       &held) < 0)
        goto done;
    Py_ssize_t edits_shape[2] = {in.rows, in.refs};
    if (bs_int64_buffer(args[6], &views[held], "edits", 2, edits_shape, 1) < 0) goto done;
    int64_t *edits = views[held++].buf;
    if (bs_rows_range(args[7], args[8], in.rows, "row", &begin, &end) < 0) goto done;
    Rows rows;
    memset(&rows, 0, sizeof(rows));
    rows.in = &in, rows.edits = edits;
    bs_Fault fault = {BS_DONE, 0, 0, 0, 0, NULL};
    result = bs_rows_released(NULL, rows_row, &rows, begin, end, &fault, &in);
    pair_release(&rows.pair);
done:
    bs_release_views(views, held);
    return result;
}
