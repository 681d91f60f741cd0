/* edit_counts: the Levenshtein alignment of each row's hypothesis against its reference, as
 * jiwer 4.0 takes it from rapidfuzz's Levenshtein.opcodes(reference, hypothesis): the
 * hits, substitutions, deletions and insertions of the one alignment rapidfuzz's backtrace
 * picks among those of least cost, and (optionally) its opcodes, with the GIL released.
 *
 * A pair (a reference of n words, a hypothesis of m words; a word is an int64 id) is
 * aligned in steps:
 *
 * 1. The common prefix and suffix are matched and set aside (rapidfuzz does so, and the
 *    choice among equal-cost alignments depends on it).
 * 2. The vertical deltas of every column of the edit-distance matrix of what is left (the
 *    reference down, 64 reference words per machine word; one column per hypothesis word)
 *    by Myers' bit-parallel algorithm in Hyyrö's block form: plus (+1) and minus (-1).
 * 3. rapidfuzz's backtrace from the last cell: a deletion where the column's delta above
 *    the cell is +1; else one hypothesis word back, and an insertion where that column's
 *    delta is -1; else the diagonal (a substitution where the words differ, a hit where
 *    they are equal). What is left at an edge is deleted or inserted.
 * 4. The edits in order, runs of one kind (and the hits between them) as opcodes:
 *    equal, substitute, delete, insert.
 *
 * Rows longer than about a thousand words may be aligned otherwise by rapidfuzz (its
 * banded and Hirschberg forms pick other equal-cost alignments); the counts of edits
 * (the distance) never differ.
 */
#include "native.h"

#define MAX_WORDS ((int64_t)1 << 40)

enum { TAG_EQUAL = 0, TAG_SUBSTITUTE = 1, TAG_DELETE = 2, TAG_INSERT = 3 };

/* the scratch of a block of rows, grown as pairs need it */
typedef struct {
    uint64_t *masks;  /* (distinct reference words + 1) x blocks: where each is (the last:
                       * none, for a word not in the reference) */
    /* the reference's words -> their mask: open addressing, a slot in use where its stamp
     * is the pair's (no clearing between pairs) */
    int64_t *keys;
    int32_t *slot_mask;
    bs_Stamps table;
    uint64_t *plus, *minus; /* m x blocks: each column's vertical deltas */
    uint8_t *ops;     /* n + m: the edits, last first (tag) */
    int64_t *ref_at, *hyp_at; /* n + m: their positions */
    size_t plus_capacity, minus_capacity, masks_capacity, ops_capacity;
    /* line_edit_counts: the words of a pair (reference's, then hypothesis's) as (start,
     * length) in their str, their hashes and their ids within the pair, and a table of the
     * distinct words (open addressing by hash; a slot in use where its stamp is the pair's) */
    Py_ssize_t *word_at, *word_length;
    uint64_t *word_hash;
    int64_t *word_id;
    size_t words_capacity;
    int32_t *word_slot;
    bs_Stamps word_table;
} Scratch;

typedef struct {
    bs_Ragged in;         /* the rows (one reference each) */
    int64_t *counts;      /* B x 5: hits, substitutions, deletions, insertions, opcodes */
    int64_t *chunks;      /* NULL, or (C, 5): tag, ref_start, ref_end, hyp_start, hyp_end */
    const int64_t *chunk_starts; /* B: the first chunk of each row (room for n + m + 1) */
    Py_ssize_t chunk_size;
    Scratch scratch;
} Call;

/* room for `needed` edits (ops, ref_at and hyp_at share one capacity) */
static int
reserve_ops(Scratch *s, size_t needed)
{
    void **const arrays[3] = {(void **)&s->ops, (void **)&s->ref_at, (void **)&s->hyp_at};
    const size_t sizes[3] = {1, 8, 8};
    return bs_grow_all(arrays, sizes, 3, &s->ops_capacity, needed, 0);
}

static void
scratch_release(Scratch *s)
{
    void *const held[] = {s->masks, s->keys, s->slot_mask, s->table.stamps, s->plus, s->minus,
                          s->ops, s->ref_at, s->hyp_at, s->word_at, s->word_length,
                          s->word_hash, s->word_id, s->word_slot, s->word_table.stamps};
    bs_free_all(held, sizeof held / sizeof held[0]);
}

/* one hypothesis word more: the next column's vertical deltas from this column's (in
 * place). Hyyrö's block form of Myers' algorithm (ter.c's advance), the first row counting
 * insertions (a global distance: the carry into the first block is +1). */
static inline void
advance(uint64_t *plus, uint64_t *minus, const uint64_t *mask, size_t blocks)
{
    uint64_t plus_carry = 1, minus_carry = 0;
    for (size_t k = 0; k < blocks; k++) {
        const uint64_t vp = plus[k], vn = minus[k];
        const uint64_t x = mask[k] | minus_carry;
        const uint64_t d0 = (((x & vp) + vp) ^ vp) | x | vn;
        uint64_t hp = vn | ~(d0 | vp);
        uint64_t hn = d0 & vp;
        const uint64_t plus_in = plus_carry, minus_in = minus_carry;
        plus_carry = hp >> 63;
        minus_carry = hn >> 63;
        hp = (hp << 1) | plus_in;
        hn = (hn << 1) | minus_in;
        plus[k] = hn | ~(d0 | hp);
        minus[k] = hp & d0;
    }
}

/* a table of at least twice `words` slots, none in use: 0, or -1 (no memory) */
static int
table_reset(Scratch *s, size_t words)
{
    void **const arrays[2] = {(void **)&s->keys, (void **)&s->slot_mask};
    const size_t sizes[2] = {sizeof(int64_t), sizeof(int32_t)};
    return bs_stamps_reset(&s->table, arrays, sizes, 2, words);
}

/* the slot of `word`: where it is, or the free slot where it goes */
static inline size_t
table_slot(const Scratch *s, int64_t word)
{
    const size_t mask = s->table.capacity - 1;
    size_t k = (size_t)(((uint64_t)word * BS_GOLDEN) >> 17) & mask;
    while (s->table.stamps[k] == s->table.stamp && s->keys[k] != word) k = (k + 1) & mask;
    return k;
}

static inline int
bit(const uint64_t *column, int64_t position)
{
    return (int)(column[position >> 6] >> (position & 63) & 1);
}

/* edit `count` in s->ops (last first): its tag, and where it is (reference position `col`,
 * hypothesis position `row`); the edits' number then */
static inline int64_t
push_op(Scratch *s, int64_t count, uint8_t tag, int64_t col, int64_t row)
{
    s->ops[count] = tag;
    s->ref_at[count] = col;
    s->hyp_at[count] = row;
    return count + 1;
}

/* the edits of ref (n words) -> hyp (m words) into s->ops, last first: their number, or
 * -1 (no memory) */
static int64_t
pair_ops(Scratch *s, const int64_t *ref, int64_t n, const int64_t *hyp, int64_t m,
         int64_t dense, int64_t *prefix_out)
{
    int64_t prefix = 0, suffix = 0;
    while (prefix < n && prefix < m && ref[prefix] == hyp[prefix]) prefix++;
    while (suffix < n - prefix && suffix < m - prefix
           && ref[n - 1 - suffix] == hyp[m - 1 - suffix])
        suffix++;
    *prefix_out = prefix;
    const int64_t *s1 = ref + prefix, *s2 = hyp + prefix;
    const int64_t len1 = n - prefix - suffix, len2 = m - prefix - suffix;
    if (reserve_ops(s, (size_t)(len1 + len2) + 1) < 0) return -1;
    int64_t count = 0, col = len1, row = len2;
    if (len1 > 0 && len2 > 0) {
        const size_t blocks = (size_t)((len1 + 63) / 64);
        if ((size_t)len2 > (size_t)PY_SSIZE_T_MAX / 8 / blocks) return -1;
        const size_t cells = (size_t)len2 * blocks;
        if (bs_grow((void **)&s->plus, &s->plus_capacity, cells, 8) < 0) return -1;
        if (bs_grow((void **)&s->minus, &s->minus_capacity, cells, 8) < 0) return -1;
        /* the masks of the reference's distinct words, and an empty one at index 0; with
         * `dense` ids (0 to dense - 1 the reference's words, the rest the hypothesis's
         * own) mask id + 1 is the word's, found without the table */
        const size_t masks = dense >= 0 ? (size_t)dense + 1 : (size_t)len1 + 1;
        if (masks > (size_t)PY_SSIZE_T_MAX / 8 / blocks) return -1;
        if (bs_grow((void **)&s->masks, &s->masks_capacity, masks * blocks, 8) < 0) return -1;
        if (dense >= 0) memset(s->masks, 0, masks * blocks * 8);
        else {
            memset(s->masks, 0, blocks * 8);
            if (table_reset(s, (size_t)len1) < 0) return -1;
        }
        int32_t distinct = 0;
        for (int64_t i = 0; dense >= 0 && i < len1; i++)
            s->masks[(size_t)(s1[i] + 1) * blocks + (size_t)(i >> 6)] |= (uint64_t)1 << (i & 63);
        for (int64_t i = 0; dense < 0 && i < len1; i++) {
            const size_t k = table_slot(s, s1[i]);
            if (s->table.stamps[k] != s->table.stamp) {
                s->table.stamps[k] = s->table.stamp;
                s->keys[k] = s1[i];
                s->slot_mask[k] = ++distinct;
                memset(s->masks + (size_t)distinct * blocks, 0, blocks * 8);
            }
            s->masks[(size_t)s->slot_mask[k] * blocks + (size_t)(i >> 6)] |=
                (uint64_t)1 << (i & 63);
        }
        uint64_t *plus = s->plus, *minus = s->minus;
        for (size_t k = 0; k < blocks; k++) {
            plus[k] = ~(uint64_t)0;
            minus[k] = 0;
        }
        for (int64_t j = 0; j < len2; j++) {
            uint64_t *p = plus + (size_t)j * blocks, *q = minus + (size_t)j * blocks;
            if (j > 0) {
                memcpy(p, p - blocks, blocks * 8);
                memcpy(q, q - blocks, blocks * 8);
            }
            size_t at;
            if (dense >= 0) at = s2[j] < dense ? (size_t)s2[j] + 1 : 0;
            else {
                const size_t k = table_slot(s, s2[j]);
                at = s->table.stamps[k] == s->table.stamp ? (size_t)s->slot_mask[k] : 0;
            }
            advance(p, q, s->masks + at * blocks, blocks);
        }
        while (row != 0 && col != 0) {
            uint8_t tag;
            if (bit(plus + (size_t)(row - 1) * blocks, col - 1)) {
                col--;
                tag = TAG_DELETE;
            }
            else {
                row--;
                if (row != 0 && bit(minus + (size_t)(row - 1) * blocks, col - 1))
                    tag = TAG_INSERT;
                else {
                    col--;
                    tag = s1[col] == s2[row] ? TAG_EQUAL : TAG_SUBSTITUTE;
                }
            }
            count = push_op(s, count, tag, col, row);
        }
    }
    /* what is left at an edge: the reference's words deleted, the hypothesis's inserted */
    while (col != 0) count = push_op(s, count, TAG_DELETE, --col, row);
    while (row != 0) count = push_op(s, count, TAG_INSERT, col, --row);
    return count;
}

/* the hits, substitutions, deletions and insertions of `count` edits of a reference of
 * `n` words (the prefix and suffix that pair_ops set aside are hits) */
static void
tally_ops(const Scratch *s, int64_t count, int64_t n, int64_t tally[4])
{
    tally[0] = tally[1] = tally[2] = tally[3] = 0;
    for (int64_t k = 0; k < count; k++) tally[s->ops[k]]++;
    tally[TAG_EQUAL] = n - tally[TAG_SUBSTITUTE] - tally[TAG_DELETE];
}

/* the counts (and opcodes) of row `row` */
static bs_Failure
row_edits(Scratch *s, const Call *c, Py_ssize_t row, bs_Fault *fault)
{
    const bs_Ragged *in = &c->in;
    if (bs_ragged_hyp(in, row, fault) != BS_DONE || bs_ragged_ref(in, row, 0, fault) != BS_DONE)
        return fault->kind;
    const int64_t hyp_start = in->hyp_starts[row], m = in->hyp_lengths[row];
    const int64_t ref_start = in->ref_starts[row], n = in->ref_lengths[row];
    int64_t prefix;
    const int64_t count = pair_ops(s, in->ref_ids + ref_start, n, in->hyp_ids + hyp_start, m,
                                   -1, &prefix);
    if (count < 0) return bs_fail(fault, BS_NO_MEMORY, row, 0, 0, 0);
    int64_t tally[4];
    tally_ops(s, count, n, tally);
    int64_t *counts = c->counts + (size_t)row * 5;
    int64_t chunks = 0;
    if (c->chunks != NULL) {
        const int64_t first = c->chunk_starts[row];
        if (!bs_slice_fits(first, n + m + 1, c->chunk_size)) {
            bs_fail(fault, BS_OUTPUT_OUTSIDE, row, 0, first, n + m + 1);
            fault->what = "chunk_starts";
            return BS_OUTPUT_OUTSIDE;
        }
        int64_t *out = c->chunks + (size_t)first * 5;
        int64_t src = 0, dst = 0;
        /* the edits first to last (ops holds them last first); hits are not edits but
         * the diagonal moves between them, as rapidfuzz's editops leave them out */
        int64_t k = count - 1;
        while (k >= 0) {
            if (s->ops[k] == TAG_EQUAL) {
                k--;
                continue;
            }
            const int tag = s->ops[k];
            const int64_t at_src = s->ref_at[k] + prefix, at_dst = s->hyp_at[k] + prefix;
            if (src < at_src || dst < at_dst) {
                int64_t *o = out + chunks++ * 5;
                o[0] = TAG_EQUAL, o[1] = src, o[2] = at_src, o[3] = dst, o[4] = at_dst;
                src = at_src, dst = at_dst;
            }
            const int64_t src_begin = src, dst_begin = dst;
            while (k >= 0 && s->ops[k] == tag && s->ref_at[k] + prefix == src
                   && s->hyp_at[k] + prefix == dst) {
                if (tag != TAG_INSERT) src++;
                if (tag != TAG_DELETE) dst++;
                k--;
            }
            int64_t *o = out + chunks++ * 5;
            o[0] = tag, o[1] = src_begin, o[2] = src, o[3] = dst_begin, o[4] = dst;
        }
        if (src < n || dst < m) {
            int64_t *o = out + chunks++ * 5;
            o[0] = TAG_EQUAL, o[1] = src, o[2] = n, o[3] = dst, o[4] = m;
        }
    }
    counts[0] = tally[TAG_EQUAL];
    counts[1] = tally[TAG_SUBSTITUTE];
    counts[2] = tally[TAG_DELETE];
    counts[3] = tally[TAG_INSERT];
    counts[4] = chunks;
    return BS_DONE;
}

/* row_edits as bs_rows_released calls it */
static bs_Failure
call_row(void *state, Py_ssize_t row, bs_Watch *watch, bs_Fault *fault)
{
    (void)watch;
    Call *c = state;
    return row_edits(&c->scratch, c, row, fault);
}

const char bs_edit_counts_doc[] =
"edit_counts(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths, counts,\n"
"            chunks, chunk_starts, begin, end, /)\n--\n\n"
"The Levenshtein alignment (rapidfuzz's, as jiwer takes it) of rows begin..end-1.\n\n"
"Every argument but the last two is a C-contiguous int64 buffer (chunks and chunk_starts\n"
"may be None). Row b's hypothesis is hyp_ids[hyp_starts[b] : hyp_starts[b] +\n"
"hyp_lengths[b]], its reference the same slice of ref_ids, all of shape (B,). counts, of\n"
"shape (B, 5), receives the hits, substitutions, deletions, insertions and the number of\n"
"opcodes; chunks, of shape (C, 5), the opcodes of row b from row chunk_starts[b] on (room\n"
"for n + m + 1): tag (0 equal, 1 substitute, 2 delete, 3 insert), reference start and\n"
"end, hypothesis start and end. The GIL is released while rows are aligned.";

PyObject *
bs_edit_counts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("edit_counts", nargs, 11, 11) < 0) return NULL;
    Py_buffer views[9];
    int held = 0;
    PyObject *result = NULL;
    Call c = {.chunks = NULL, .chunk_starts = NULL, .chunk_size = 0};
    if (bs_ragged_read(args, bs_ragged_names, 0, MAX_WORDS, "row", "aligned", &c.in, views,
                       &held) < 0)
        goto done;
    const Py_ssize_t rows = c.in.rows;
    Py_ssize_t counts_shape[2] = {rows, 5}, chunks_shape[2] = {-1, 5}, rows_shape[1] = {rows};
    if (bs_int64_buffer(args[6], &views[held], "counts", 2, counts_shape, 1) < 0) goto done;
    c.counts = views[held++].buf;
    if (args[7] != Py_None) {
        if (bs_int64_buffer(args[7], &views[held], "chunks", 2, chunks_shape, 1) < 0)
            goto done;
        c.chunks = views[held].buf;
        c.chunk_size = views[held++].shape[0];
        if (bs_int64_buffer(args[8], &views[held], "chunk_starts", 1, rows_shape, 0) < 0)
            goto done;
        c.chunk_starts = views[held++].buf;
    }
    Py_ssize_t begin, end;
    if (bs_rows_range(args[9], args[10], rows, "row", &begin, &end) < 0) goto done;
    bs_Fault fault = {BS_DONE, 0, 0, 0, 0, NULL};
    result = bs_rows_released(NULL, call_row, &c, begin, end, &fault, &c.in);
    scratch_release(&c.scratch);
done:
    bs_release_views(views, held);
    return result;
}

/* ------------------------------------------------------------------------------------
 * line_edit_counts: the counts of lines of text, split and compared in one pass per pair.
 *
 * WER needs only whether two words of a pair are equal: each pair's words get ids of their
 * own (equal words, equal ids), so no numbering of the whole call is needed. A word's id
 * comes from a table of the pair's distinct words by hash, a hash match confirmed by
 * comparing the words' code points: two words share an id only where they are equal.
 */

/* the words of `t` into the scratch's word arrays from index `first` (room made by the
 * caller): their number. jiwer_split: jiwer's wer_default (the ends stripped, words split
 * at a space or at a run of two or more whitespace characters: a lone tab stays inside its
 * word); else str.split()'s (at every run of whitespace). Inlined once per str kind, so
 * that each reads its code units directly. */
static BS_ALWAYS_INLINE Py_ssize_t
split_kind(Scratch *s, const bs_Text *t, int jiwer_split, size_t first, const int kind)
{
#define AT(i) PyUnicode_READ(kind, t->data, (i))
    Py_ssize_t i = 0, end = t->length, count = 0;
    while (i < end && bs_is_space(AT(i))) i++;
    while (end > i && bs_is_space(AT(end - 1))) end--;
    while (i < end) {
        const Py_ssize_t start = i;
        uint64_t hash = 0xcbf29ce484222325ULL; /* FNV-1a over the code points */
        while (i < end) {
            const Py_UCS4 c = AT(i);
            if (bs_is_space(c) && (!jiwer_split || c == ' ' || (i + 1 < end
                                                               && bs_is_space(AT(i + 1)))))
                break;
            hash = (hash ^ c) * 0x100000001b3ULL;
            i++;
        }
        const size_t w = first + (size_t)count++;
        s->word_at[w] = start;
        s->word_length[w] = i - start;
        s->word_hash[w] = hash;
        while (i < end && bs_is_space(AT(i))) i++;
    }
    return count;
#undef AT
}

static Py_ssize_t
split_words(Scratch *s, const bs_Text *t, int jiwer_split, size_t first)
{
    switch (t->kind) {
    case PyUnicode_1BYTE_KIND:
        return split_kind(s, t, jiwer_split, first, PyUnicode_1BYTE_KIND);
    case PyUnicode_2BYTE_KIND:
        return split_kind(s, t, jiwer_split, first, PyUnicode_2BYTE_KIND);
    default:
        return split_kind(s, t, jiwer_split, first, PyUnicode_4BYTE_KIND);
    }
}

/* whether word `a` of text `ta` and word `b` of text `tb` (of `length` code points each)
 * are the same code points */
static int
same_word(const bs_Text *ta, Py_ssize_t a, const bs_Text *tb, Py_ssize_t b, Py_ssize_t length)
{
    if (ta->kind == tb->kind)
        return memcmp((const char *)ta->data + a * ta->kind,
                      (const char *)tb->data + b * tb->kind, (size_t)(length * ta->kind)) == 0;
    for (Py_ssize_t k = 0; k < length; k++) {
        if (bs_text_at(*ta, a + k) != bs_text_at(*tb, b + k)) return 0;
    }
    return 1;
}

/* ids for the pair's `total` words (the first `n` the reference's), dense: 0 to
 * distinct - 1 the reference's words (`*ref_distinct` of them), then the hypothesis's
 * others; 0, or -1 (no memory) */
static int
number_words(Scratch *s, const bs_Text *ref, const bs_Text *hyp, size_t n, size_t total,
             int64_t *ref_distinct)
{
    void **const arrays[1] = {(void **)&s->word_slot};
    const size_t sizes[1] = {sizeof(int32_t)};
    if (bs_stamps_reset(&s->word_table, arrays, sizes, 1, total) < 0) return -1;
    const size_t mask = s->word_table.capacity - 1;
    int64_t next = 0;
    *ref_distinct = 0;
    for (size_t w = 0; w < total; w++) {
        if (w == n) *ref_distinct = next;
        const bs_Text *tw = w < n ? ref : hyp;
        const uint64_t hash = s->word_hash[w];
        size_t k = (size_t)(hash ^ (hash >> 29)) & mask;
        for (;; k = (k + 1) & mask) {
            if (s->word_table.stamps[k] != s->word_table.stamp) {
                s->word_table.stamps[k] = s->word_table.stamp;
                s->word_slot[k] = (int32_t)w;
                s->word_id[w] = next++;
                break;
            }
            const size_t r = (size_t)s->word_slot[k];
            if (s->word_hash[r] == hash && s->word_length[r] == s->word_length[w]
                && same_word(r < n ? ref : hyp, s->word_at[r], tw, s->word_at[w],
                             s->word_length[w])) {
                s->word_id[w] = s->word_id[r];
                break;
            }
        }
    }
    if (total == n) *ref_distinct = next;
    return 0;
}

/* the counts of pair `row` into counts[row] (the opcode count 0) */
static bs_Failure
line_edits(Scratch *s, PyObject *hyp_str, PyObject *ref_str, int jiwer_split, int64_t *counts)
{
    const bs_Text ref = bs_text_of_str(ref_str), hyp = bs_text_of_str(hyp_str);
    /* at most one word per two code points, and one more */
    const size_t room = (size_t)(ref.length + hyp.length) / 2 + 2;
    if ((size_t)(ref.length + hyp.length) > (size_t)INT32_MAX) return BS_NO_MEMORY;
    /* the four word arrays share one capacity */
    void **const arrays[4] = {(void **)&s->word_at, (void **)&s->word_length,
                              (void **)&s->word_hash, (void **)&s->word_id};
    const size_t sizes[4] = {sizeof(Py_ssize_t), sizeof(Py_ssize_t), 8, 8};
    if (bs_grow_all(arrays, sizes, 4, &s->words_capacity, room, 0) < 0) return BS_NO_MEMORY;
    const Py_ssize_t n = split_words(s, &ref, jiwer_split, 0);
    const Py_ssize_t m = split_words(s, &hyp, jiwer_split, (size_t)n);
    int64_t distinct;
    if (number_words(s, &ref, &hyp, (size_t)n, (size_t)(n + m), &distinct) < 0)
        return BS_NO_MEMORY;
    int64_t prefix;
    const int64_t count = pair_ops(s, s->word_id, n, s->word_id + n, m, distinct, &prefix);
    if (count < 0) return BS_NO_MEMORY;
    tally_ops(s, count, n, counts);
    counts[4] = 0;
    return BS_DONE;
}

/* line_edit_counts' rows (bs_rows_released's state) */
typedef struct {
    Scratch scratch;
    PyObject *const *hyps, *const *refs; /* the tuples' str, which do not change */
    int jiwer_split;
    int64_t *counts;
} Lines;

static bs_Failure
lines_row(void *state, Py_ssize_t row, bs_Watch *watch, bs_Fault *fault)
{
    (void)watch;
    Lines *lines = state;
    return fault->kind = line_edits(&lines->scratch, lines->hyps[row], lines->refs[row],
                                    lines->jiwer_split, lines->counts + row * 5);
}

const char bs_line_edit_counts_doc[] =
"line_edit_counts(hypotheses, references, jiwer_split, counts, begin, end, /)\n--\n\n"
"edit_counts of lines of text, rows begin..end-1: hypotheses and references are tuples of\n"
"str of the same length B, split as jiwer's wer_default (jiwer_split true) or as\n"
"str.split(); counts, a C-contiguous int64 buffer of shape (B, 5), receives the hits,\n"
"substitutions, deletions, insertions and 0 of each row. The GIL is released while rows\n"
"are split and aligned.";

PyObject *
bs_line_edit_counts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("line_edit_counts", nargs, 6, 6) < 0) return NULL;
    static const char *names[2] = {"hypotheses", "references"};
    for (int k = 0; k < 2; k++) {
        if (!PyTuple_CheckExact(args[k])) {
            PyErr_Format(PyExc_TypeError, "%s must be a tuple of str, not %.100s", names[k],
                         Py_TYPE(args[k])->tp_name);
            return NULL;
        }
    }
    const Py_ssize_t rows = PyTuple_GET_SIZE(args[0]);
    if (PyTuple_GET_SIZE(args[1]) != rows) {
        PyErr_Format(PyExc_ValueError, "references has %zd items where hypotheses has %zd",
                     PyTuple_GET_SIZE(args[1]), rows);
        return NULL;
    }
    const int jiwer_split = PyObject_IsTrue(args[2]);
    if (jiwer_split < 0) return NULL;
    Py_ssize_t begin, end;
    if (bs_rows_range(args[4], args[5], rows, "row", &begin, &end) < 0) return NULL;
    for (Py_ssize_t row = begin; row < end; row++) {
        for (int k = 0; k < 2; k++) {
            PyObject *item = PyTuple_GET_ITEM(args[k], row);
            if (!PyUnicode_CheckExact(item)) {
                PyErr_Format(PyExc_TypeError, "%s[%zd] must be a str, not %.100s", names[k],
                             row, Py_TYPE(item)->tp_name);
                return NULL;
            }
#if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(item) < 0) return NULL;
#endif
        }
    }
    Py_buffer view;
    Py_ssize_t counts_shape[2] = {rows, 5};
    if (bs_int64_buffer(args[3], &view, "counts", 2, counts_shape, 1) < 0) return NULL;
    Lines lines;
    memset(&lines, 0, sizeof(lines));
    lines.hyps = &PyTuple_GET_ITEM(args[0], 0), lines.refs = &PyTuple_GET_ITEM(args[1], 0);
    lines.jiwer_split = jiwer_split, lines.counts = view.buf;
    bs_Fault fault = {BS_DONE, 0, 0, 0, 0, NULL};
    PyObject *result = bs_rows_released(NULL, lines_row, &lines, begin, end, &fault, NULL);
    scratch_release(&lines.scratch);
    PyBuffer_Release(&view);
    return result;
}
