/* lcs_matches: ROUGE-L's longest common subsequence of each hypothesis and each of its
 * references, and ROUGE-Lsum's summary-level union-LCS hits, exact, with the GIL released.
 *
 * A row is one hypothesis and its R references, slices of int64 id buffers (the rows of
 * count_matches). Per row:
 *
 * 1. Alphabet. Every token value of the hypothesis gets an id 1..U (an open-addressing
 *    table over the values); a reference token whose value is not in the hypothesis gets
 *    0, which matches nothing.
 * 2. Bit-parallel LCS (Allison-Dix; Crochemore et al. 2001; Hyyro 2004). The columns are
 *    the hypothesis tokens of a segment, one bit each in W = ceil(n / 64) words; V starts
 *    all ones and each reference token a, with M the bits of the columns holding a, turns
 *    it into V' = (V + (V & M)) | (V & ~M) (the addition carries across words). The LCS
 *    table's entry T[i][j] (the first i reference tokens, the first j columns) is the
 *    number of zero bits among the first j bits of the row after i tokens; the LCS is
 *    T[m][n]. M is read from a table of each id's bits where (U + 1) W words fit in the
 *    scratch budget, else made for the row from a list of the id's columns.
 * 3. ROUGE-L (`lcs`): the LCS of the whole hypothesis and each whole reference.
 * 4. ROUGE-Lsum (`union_hits`): the sentences of each side start where its marks are not
 *    0 (and at the start of the document). For each reference sentence s and hypothesis
 *    sentence t, rouge-score's lcs_ind: the rows of T are kept (every row where they fit
 *    in the budget, else every ceil(sqrt(m))-th row, the rows between recomputed when the
 *    walk reaches them), and T is walked back from (m, n) as rouge-score's
 *    _backtrack_norec walks it (a match: take the reference position, go diagonally; else
 *    left where T[i][j-1] > T[i-1][j], else up). The positions taken for any t form s's
 *    union LCS. Its tokens, all references' sentences together, are clipped by the
 *    hypothesis counts: rouge-score decrements a hypothesis count and a reference count
 *    per hit, and the reference count cannot run out (the union positions of a token are
 *    distinct positions of the reference), so the hits of reference r are, per token,
 *    min(union positions in r, count in the hypothesis).
 *
 * Every offset and length is checked against its buffer when it is read, so input changed
 * by another thread during the call can give wrong numbers but never a read or write
 * outside the buffers. Memory: a few arrays of the call's widest row and the scratch
 * budget of words.
 */
#include "native.h"

#include <string.h>

/* words of scratch (mask tables, kept rows) a call may use without thinning them */
#define DEFAULT_SCRATCH_WORDS ((int64_t)1 << 18)

/* a growable array of 64-bit words */
typedef struct {
    uint64_t *items;
    size_t capacity;
} Words;

typedef struct {
    /* the input (the rows: bs_ragged_read's; the sentence marks) */
    bs_Ragged in;
    const int64_t *hyp_marks, *ref_marks;
    Py_ssize_t refs;
    int64_t *lcs, *union_hits; /* (B, R) or NULL */
    int64_t scratch_words;
    /* sizes of the call's widest row */
    int64_t max_hyp, max_ref;
    /* the alphabet of a row: values -> ids 1..U */
    uint64_t *keys, table_mask;
    uint32_t *values, *stamps, stamp;
    int64_t table_size;
    int table_shift;
    /* per position: the row's ids (hypothesis; references one after another) */
    uint32_t *hyp, *ref;
    int64_t *ref_offset; /* reference r's positions in `ref`: [ref_offset[r], ref_offset[r + 1]) */
    int64_t *ref_begin;  /* reference r's start in ref_ids (as checked for the row) */
    uint8_t *in_union;
    /* per id: its count in the hypothesis, its union positions so far, its first column */
    uint32_t *hyp_count, *union_count;
    int32_t *first, *next; /* the columns of each id in a segment, as linked lists */
    /* bits */
    Words masks;   /* dense: (U + 1) x W, all zero between segments */
    Words one;     /* one id's mask, made from the lists (all zero between uses) */
    Words row;     /* the running row of a whole-document LCS */
    Words band;    /* the kept rows of one pair */
    Words checkpoints; /* the kept rows of one pair's bands */
    int dense;     /* the segment's masks are in `masks` */
    int64_t words; /* W of the segment */
    bs_Fault failure;
    bs_Watch *watch; /* polled once a reference row or sentence: a long row can be stopped */
} Lcs;

/* a segment of the hypothesis: its first column and its number of columns */
typedef struct {
    int64_t begin, length;
} Segment;

static inline int
popcount64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static int
words_reserve(Words *w, int64_t count)
{
    return bs_grow((void **)&w->items, &w->capacity, (size_t)count, sizeof(uint64_t));
}

/* the number of zero bits among the first j bits of a row (T[i][j] of its row i) */
static inline int64_t
zeros_before(const uint64_t *row, int64_t j)
{
    int64_t ones = 0, full = j >> 6;
    for (int64_t k = 0; k < full; k++) ones += popcount64(row[k]);
    if (j & 63) ones += popcount64(row[full] & ((1ULL << (j & 63)) - 1));
    return j - ones;
}

/* the row after one more reference token whose columns are `mask` (out may be row) */
static inline void
advance(uint64_t *out, const uint64_t *row, const uint64_t *mask, int64_t words)
{
    uint64_t carry = 0;
    for (int64_t k = 0; k < words; k++) {
        uint64_t v = row[k], m = mask[k], sum = v + (v & m);
        uint64_t over = sum < v;
        sum += carry;
        carry = over | (sum < carry);
        out[k] = sum | (v & ~m);
    }
}

/* ---------------------------------------------------------------------------- alphabet */

/* empty the alphabet, sized for `items` values at a load of at most 1/2 */
static void
alphabet_reset(Lcs *c, int64_t items)
{
    int64_t size = 16;
    int bits = 4;
    while (size < 2 * items && size < c->table_size) {
        size *= 2;
        bits++;
    }
    c->table_mask = (uint64_t)size - 1;
    c->table_shift = 64 - bits;
    if (++c->stamp == 0) { /* the stamps wrapped: forget them all */
        memset(c->stamps, 0, (size_t)c->table_size * sizeof(uint32_t));
        c->stamp = 1;
    }
}

/* the id of `value`: where absent, the next id (`*alphabet` + 1) if `add`, else 0 */
static inline uint32_t
alphabet_id(Lcs *c, int64_t value, int add, uint32_t *alphabet)
{
    uint64_t key = (uint64_t)value;
    uint64_t slot = (key * BS_GOLDEN) >> c->table_shift;
    while (c->stamps[slot] == c->stamp) {
        if (c->keys[slot] == key) return c->values[slot];
        slot = (slot + 1) & c->table_mask;
    }
    if (!add) return 0;
    c->stamps[slot] = c->stamp;
    c->keys[slot] = key;
    c->values[slot] = ++*alphabet;
    return *alphabet;
}

/* ---------------------------------------------------------------------------- masks */

/* the columns of segment `seg` ready to give each id's mask: a table where it fits the
 * budget, else lists; -1 where memory runs out */
static int
masks_build(Lcs *c, Segment seg, uint32_t alphabet)
{
    int64_t words = (seg.length + 63) >> 6;
    c->words = words;
    c->dense = ((int64_t)alphabet + 1) * words <= c->scratch_words;
    if (c->dense) {
        int64_t needed = ((int64_t)alphabet + 1) * words;
        if ((size_t)needed > c->masks.capacity) {
            size_t old = c->masks.capacity;
            if (words_reserve(&c->masks, needed) < 0) return -1;
            memset(c->masks.items + old, 0, (c->masks.capacity - old) * sizeof(uint64_t));
        }
        for (int64_t p = 0; p < seg.length; p++)
            c->masks.items[(int64_t)c->hyp[seg.begin + p] * words + (p >> 6)] |= 1ULL << (p & 63);
        return 0;
    }
    if ((size_t)words > c->one.capacity) {
        size_t old = c->one.capacity;
        if (words_reserve(&c->one, words) < 0) return -1;
        memset(c->one.items + old, 0, (c->one.capacity - old) * sizeof(uint64_t));
    }
    for (int64_t p = seg.length - 1; p >= 0; p--) {
        uint32_t id = c->hyp[seg.begin + p];
        c->next[p] = c->first[id];
        c->first[id] = (int32_t)p;
    }
    return 0;
}

/* the segment's tables emptied again (zero masks, empty lists) */
static void
masks_clear(Lcs *c, Segment seg)
{
    for (int64_t p = 0; p < seg.length; p++) {
        uint32_t id = c->hyp[seg.begin + p];
        if (c->dense) c->masks.items[(int64_t)id * c->words + (p >> 6)] = 0;
        else c->first[id] = -1;
    }
}

/* the mask of `id` (not 0) over the segment's columns; release it with mask_done */
static inline const uint64_t *
mask_of(Lcs *c, uint32_t id)
{
    if (c->dense) return c->masks.items + (int64_t)id * c->words;
    for (int32_t p = c->first[id]; p >= 0; p = c->next[p]) c->one.items[p >> 6] |= 1ULL << (p & 63);
    return c->one.items;
}

static inline void
mask_done(Lcs *c, uint32_t id)
{
    if (c->dense) return;
    for (int32_t p = c->first[id]; p >= 0; p = c->next[p]) c->one.items[p >> 6] = 0;
}

/* the row after reference token `id` (0: the row stays as it is) */
static inline void
step(Lcs *c, uint64_t *out, const uint64_t *row, uint32_t id)
{
    if (id == 0) {
        if (out != row) memcpy(out, row, (size_t)c->words * sizeof(uint64_t));
        return;
    }
    advance(out, row, mask_of(c, id), c->words);
    mask_done(c, id);
}

/* ---------------------------------------------------------------------------- ROUGE-L */

/* the LCS of the segment's columns and reference tokens ref[0:m] */
static int64_t
lcs_length(Lcs *c, const uint32_t *ref, int64_t m, int64_t columns)
{
    uint64_t *row = c->row.items;
    memset(row, 0xFF, (size_t)c->words * sizeof(uint64_t));
    for (int64_t i = 0; i < m; i++) {
        if (bs_watch_poll(c->watch)) return 0; /* stopped: the caller sees it */
        step(c, row, row, ref[i]);
    }
    return zeros_before(row, columns);
}

/* ---------------------------------------------------------------------------- ROUGE-Lsum */

/* rows band_lo + 1 .. band_lo + count of a pair, from the kept row band_lo in slot 0 */
static void
band_fill(Lcs *c, const uint32_t *ref, int64_t band_lo, int64_t count)
{
    int64_t words = c->words;
    for (int64_t k = 1; k <= count; k++)
        step(c, c->band.items + k * words, c->band.items + (k - 1) * words,
             ref[band_lo + k - 1]);
}

/* rouge-score's lcs_ind of reference sentence ref[0:m] (positions from `at` in the row's
 * references) and the segment's columns: the positions it takes set in in_union. -1
 * where memory runs out. */
static int
union_pair(Lcs *c, const uint32_t *ref, int64_t m, int64_t at, Segment seg)
{
    int64_t words = c->words, n = seg.length;
    if (m == 0 || n == 0) return 0;
    /* every row kept where they fit, else every band-th and a band of rows at a time */
    int64_t band = m;
    if ((m + 1) * words > c->scratch_words) {
        band = 1;
        while (band * band < m) band++;
    }
    int64_t kept = m / band + 1;
    if (words_reserve(&c->band, (band + 1) * words) < 0
        || words_reserve(&c->checkpoints, kept * words) < 0)
        return -1;
    uint64_t *slots = c->band.items, *checkpoints = c->checkpoints.items;
    memset(slots, 0xFF, (size_t)words * sizeof(uint64_t));
    memcpy(checkpoints, slots, (size_t)words * sizeof(uint64_t));
    int64_t band_lo = 0;
    for (int64_t k = 1; k <= m; k++) {
        if (k - 1 - band_lo == band) { /* the band is full: the next starts at its last row */
            band_lo += band;
            memcpy(slots, slots + band * words, (size_t)words * sizeof(uint64_t));
        }
        uint64_t *out = slots + (k - band_lo) * words;
        step(c, out, out - words, ref[k - 1]);
        if (k % band == 0) memcpy(checkpoints + (k / band) * words, out, (size_t)words * sizeof(uint64_t));
    }
    int64_t left = zeros_before(slots + (m - band_lo) * words, n);
    int64_t i = m, j = n;
    while (left > 0) { /* T[i][j] == left > 0: i, j > 0 */
        if (i - 1 < band_lo) { /* the band before, from its kept first row */
            band_lo -= band;
            memcpy(slots, checkpoints + (band_lo / band) * words, (size_t)words * sizeof(uint64_t));
            band_fill(c, ref, band_lo, band);
        }
        uint32_t a = ref[i - 1];
        if (a != 0 && a == c->hyp[seg.begin + j - 1]) {
            c->in_union[at + i - 1] = 1;
            i--;
            j--;
            left--;
        }
        else if (zeros_before(slots + (i - band_lo) * words, j - 1)
                 > zeros_before(slots + (i - 1 - band_lo) * words, j))
            j--;
        else i--;
    }
    return 0;
}

/* the next sentence of positions [*from, end) by `marks` (at `base` + position; NULL: the
 * whole rest is one sentence): its length; *from moves past it */
static int64_t
next_sentence(const int64_t *marks, int64_t base, int64_t *from, int64_t end)
{
    int64_t start = *from, p = start + 1;
    if (marks != NULL)
        while (p < end && marks[base + p] == 0) p++;
    else p = end;
    *from = p;
    return p - start;
}

/* ---------------------------------------------------------------------------- rows */

/* check every row of begin..end against its buffers, and size the scratch */
static int
measure(Lcs *c, Py_ssize_t begin, Py_ssize_t end)
{
    int64_t tokens;
    return bs_ragged_measure(&c->in, begin, end, 0, &c->max_hyp, &c->max_ref, &tokens,
                             &c->failure) == BS_DONE ? 0 : -1;
}

static int
allocate(Lcs *c)
{
    int64_t hyp = c->max_hyp, ref = c->max_ref, words = (hyp + 63) / 64 + 1;
    c->table_size = 16;
    while (c->table_size < 2 * hyp) c->table_size *= 2;
    c->keys = PyMem_RawMalloc((size_t)c->table_size * sizeof(uint64_t));
    c->values = PyMem_RawMalloc((size_t)c->table_size * sizeof(uint32_t));
    c->stamps = PyMem_RawCalloc((size_t)c->table_size, sizeof(uint32_t));
    c->hyp = PyMem_RawMalloc((size_t)(hyp + 1) * sizeof(uint32_t));
    c->ref = PyMem_RawMalloc((size_t)(ref + 1) * sizeof(uint32_t));
    c->ref_offset = PyMem_RawMalloc((size_t)(c->refs + 1) * sizeof(int64_t));
    c->ref_begin = PyMem_RawMalloc((size_t)(c->refs + 1) * sizeof(int64_t));
    c->in_union = PyMem_RawCalloc((size_t)ref + 1, 1);
    c->hyp_count = PyMem_RawCalloc((size_t)hyp + 2, sizeof(uint32_t));
    c->union_count = PyMem_RawCalloc((size_t)hyp + 2, sizeof(uint32_t));
    c->first = PyMem_RawMalloc((size_t)(hyp + 2) * sizeof(int32_t));
    c->next = PyMem_RawMalloc((size_t)(hyp + 1) * sizeof(int32_t));
    if (!c->keys || !c->values || !c->stamps || !c->hyp || !c->ref || !c->ref_offset
        || !c->ref_begin || !c->in_union || !c->hyp_count || !c->union_count || !c->first || !c->next
        || words_reserve(&c->row, words) < 0) {
        c->failure.kind = BS_NO_MEMORY;
        return -1;
    }
    for (int64_t k = 0; k < hyp + 2; k++) c->first[k] = -1;
    return 0;
}

static void
release(Lcs *c)
{
    void *const held[] = {c->keys, c->values, c->stamps, c->hyp, c->ref, c->ref_offset,
                          c->ref_begin, c->in_union, c->hyp_count, c->union_count, c->first,
                          c->next, c->masks.items, c->one.items, c->row.items, c->band.items,
                          c->checkpoints.items};
    bs_free_all(held, sizeof held / sizeof held[0]);
}

/* read row b's slices again (another thread may have changed them since measure) */
static int
read_row(Lcs *c, Py_ssize_t b, int64_t *hyp_start, int64_t *hyp_length)
{
    *hyp_start = c->in.hyp_starts[b];
    *hyp_length = c->in.hyp_lengths[b];
    if (!bs_slice_fits(*hyp_start, *hyp_length, c->in.hyp_size) || *hyp_length > c->max_hyp)
        return -1;
    c->ref_offset[0] = 0;
    for (Py_ssize_t r = 0; r < c->refs; r++) {
        int64_t s = c->in.ref_starts[b * c->refs + r], n = c->in.ref_lengths[b * c->refs + r];
        if (!bs_slice_fits(s, n, c->in.ref_size) || n > c->max_ref - c->ref_offset[r])
            return -1;
        c->ref_offset[r + 1] = c->ref_offset[r] + n;
        c->ref_begin[r] = s;
    }
    return 0;
}

/* the ROUGE-Lsum hits of each reference of the row, into out[0:refs] */
static int
union_hits_of_row(Lcs *c, int64_t hyp_start, int64_t n, uint32_t alphabet,
                  int64_t *out)
{
    int64_t from = 0;
    while (from < n) {
        Segment seg = {from, 0};
        seg.length = next_sentence(c->hyp_marks, hyp_start, &from, n);
        if (masks_build(c, seg, alphabet) < 0) return -1;
        for (Py_ssize_t r = 0; r < c->refs; r++) {
            int64_t ref_start = c->ref_begin[r];
            int64_t base = c->ref_offset[r], length = c->ref_offset[r + 1] - base, at = 0;
            while (at < length) {
                int64_t sentence = at;
                int64_t m = next_sentence(c->ref_marks, ref_start, &at, length);
                if (bs_watch_poll(c->watch)
                    || union_pair(c, c->ref + base + sentence, m, base + sentence, seg) < 0) {
                    masks_clear(c, seg);
                    return -1;
                }
            }
        }
        masks_clear(c, seg);
    }
    for (Py_ssize_t r = 0; r < c->refs; r++) {
        int64_t hits = 0;
        for (int64_t p = c->ref_offset[r]; p < c->ref_offset[r + 1]; p++) {
            if (!c->in_union[p]) continue;
            uint32_t id = c->ref[p];
            hits += c->union_count[id] < c->hyp_count[id];
            c->union_count[id]++;
        }
        for (int64_t p = c->ref_offset[r]; p < c->ref_offset[r + 1]; p++) {
            if (c->in_union[p]) c->union_count[c->ref[p]] = 0;
            c->in_union[p] = 0;
        }
        out[r] = hits;
    }
    return 0;
}

static int
lcs_row(Lcs *c, Py_ssize_t b)
{
    int64_t hyp_start, n;
    if (read_row(c, b, &hyp_start, &n) < 0) {
        bs_fail(&c->failure, BS_CHANGED, b, 0, 0, 0);
        return -1;
    }
    alphabet_reset(c, n);
    uint32_t alphabet = 0;
    for (int64_t p = 0; p < n; p++) {
        uint32_t id = alphabet_id(c, c->in.hyp_ids[hyp_start + p], 1, &alphabet);
        c->hyp[p] = id;
        c->hyp_count[id]++;
    }
    for (Py_ssize_t r = 0; r < c->refs; r++) {
        const int64_t *tokens = c->in.ref_ids + c->ref_begin[r];
        for (int64_t p = c->ref_offset[r]; p < c->ref_offset[r + 1]; p++)
            c->ref[p] = alphabet_id(c, tokens[p - c->ref_offset[r]], 0, &alphabet);
    }
    int failed = 0;
    if (c->lcs != NULL) {
        Segment whole = {0, n};
        if (masks_build(c, whole, alphabet) < 0) failed = 1;
        for (Py_ssize_t r = 0; !failed && r < c->refs; r++)
            c->lcs[b * c->refs + r] = lcs_length(c, c->ref + c->ref_offset[r],
                                                 c->ref_offset[r + 1] - c->ref_offset[r], n);
        if (!failed) masks_clear(c, whole);
        failed = failed || c->watch->stopped;
    }
    if (!failed && c->union_hits != NULL
        && union_hits_of_row(c, hyp_start, n, alphabet, c->union_hits + b * c->refs) < 0)
        failed = 1;
    for (int64_t p = 0; p < n; p++) c->hyp_count[c->hyp[p]] = 0;
    if (failed) {
        c->failure.kind = c->watch->stopped ? BS_STOPPED : BS_NO_MEMORY;
        return -1;
    }
    return 0;
}

const char bs_lcs_matches_doc[] =
"lcs_matches(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths, lcs,\n"
"            union_hits, hyp_marks, ref_marks, begin, end, scratch_words=262144, /)\n--\n\n"
"ROUGE-L's longest common subsequences and ROUGE-Lsum's union-LCS hits of rows\n"
"begin..end-1, written into lcs and union_hits.\n\n"
"The rows are those of count_matches: C-contiguous int64 buffers, row b's hypothesis\n"
"hyp_ids[hyp_starts[b] : hyp_starts[b] + hyp_lengths[b]] ((B,) starts and lengths), its\n"
"reference r the same slice of ref_ids by ref_starts[b, r] and ref_lengths[b, r] ((B, R)).\n"
"lcs, (B, R) or None, receives the length of the longest common subsequence of the\n"
"hypothesis and each reference. union_hits, (B, R) or None, receives rouge-score's\n"
"summary-level hits (_summary_level_lcs): the union LCS of each reference sentence with\n"
"the hypothesis sentences, clipped by the token counts. A sentence starts at the start of\n"
"a document and where hyp_marks / ref_marks (int64, as long as hyp_ids / ref_ids) are not\n"
"0; None: every document is one sentence. scratch_words bounds the words of mask tables\n"
"and kept rows used before thinning them (the numbers do not change). The GIL is\n"
"released while rows are compared.";

/* measure and allocate (the rows' preparation in bs_rows_released): `fault` is
 * &c->failure, which they set */
static bs_Failure
prepare_rows(void *state, Py_ssize_t begin, Py_ssize_t end, bs_Watch *watch, bs_Fault *fault)
{
    Lcs *c = state;
    c->watch = watch;
    return measure(c, begin, end) == 0 && allocate(c) == 0 ? BS_DONE : fault->kind;
}

/* lcs_row as bs_rows_released calls it (it sets c->failure, `fault`) */
static bs_Failure
compared_row(void *state, Py_ssize_t row, bs_Watch *watch, bs_Fault *fault)
{
    (void)watch;
    return lcs_row(state, row) == 0 ? BS_DONE : fault->kind;
}

/* the buffers of args[0:10] into `c` (views[0:*held] held, to be released by the caller);
 * -1 with an exception naming the argument */
static int
read_buffers(Lcs *c, PyObject *const *args, Py_buffer *views, int *held)
{
    if (bs_ragged_read(args, bs_ragged_names, 1, BS_MAX_ROW_TOKENS, "row", "compared", &c->in,
                       views, held) < 0)
        return -1;
    c->refs = c->in.refs;
    Py_ssize_t refs_shape[2] = {c->in.rows, c->refs};
    Py_ssize_t hyp_marks_shape[1] = {c->in.hyp_size}, ref_marks_shape[1] = {c->in.ref_size};
    if (args[6] != Py_None) {
        if (bs_int64_buffer(args[6], &views[*held], "lcs", 2, refs_shape, 1) < 0) return -1;
        c->lcs = views[(*held)++].buf;
    }
    if (args[7] != Py_None) {
        if (bs_int64_buffer(args[7], &views[*held], "union_hits", 2, refs_shape, 1) < 0)
            return -1;
        c->union_hits = views[(*held)++].buf;
    }
    if (args[8] != Py_None) {
        if (bs_int64_buffer(args[8], &views[*held], "hyp_marks", 1, hyp_marks_shape, 0) < 0)
            return -1;
        c->hyp_marks = views[(*held)++].buf;
    }
    if (args[9] != Py_None) {
        if (bs_int64_buffer(args[9], &views[*held], "ref_marks", 1, ref_marks_shape, 0) < 0)
            return -1;
        c->ref_marks = views[(*held)++].buf;
    }
    return 0;
}

PyObject *
bs_lcs_matches(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer views[10];
    int held = 0;
    PyObject *result = NULL;
    Py_ssize_t begin, end, scratch = DEFAULT_SCRATCH_WORDS;
    Lcs c;

    (void)module;
    memset(&c, 0, sizeof(c));
    if (bs_arg_count("lcs_matches", nargs, 12, 13) < 0) return NULL;
    if (nargs == 13 && bs_index_argument(args[12], "scratch_words", &scratch) < 0)
        return NULL;
    if (scratch < 1) {
        PyErr_SetString(PyExc_ValueError, "scratch_words must be at least 1");
        return NULL;
    }
    if (read_buffers(&c, args, views, &held) < 0
        || bs_rows_range(args[10], args[11], c.in.rows, "row", &begin, &end) < 0
        || bs_checked_mul(c.in.rows, c.refs + 1) < 0)
        goto done;
    c.scratch_words = scratch;
    result = bs_rows_released(prepare_rows, compared_row, &c, begin, end, &c.failure, &c.in);
done:
    release(&c);
    bs_release_views(views, held);
    return result;
}
