/* caption_rouge: pycocoevalcap's ROUGE-L inputs straight from its dictionaries' values:
 * per image, the best precision and the best recall over its references of the longest
 * common subsequence of the hypothesis and each reference, with the GIL released.
 *
 * pycocoevalcap 1.2's Rouge.calc_score splits each caption with split(" ") (every U+0020
 * splits: two spaces make an empty word between them, an empty caption is one empty word;
 * other whitespace stays inside its word), takes my_lcs(reference, hypothesis) (words
 * equal where their code points are), and appends lcs / len(hypothesis words) and
 * lcs / len(reference words) to its precisions and recalls. Per image:
 *
 * 1. The hypothesis's words are split and put in a small table (open addressing, a slot
 *    in use where its stamp is the image's: no clearing between images) that gives each
 *    distinct word an id 1..U; word k of the hypothesis is bit k of its id's mask.
 * 2. Each reference's words are split and looked up (a word not in the hypothesis matches
 *    nothing) and fed, one at a time, to the bit-parallel LCS (Allison-Dix, Hyyro; lcs.c):
 *    V starts all ones over the m hypothesis words, each word with mask M turns it into
 *    (V + (V & M)) | (V & ~M), the addition carrying across machine words; the LCS is the
 *    number of zero bits among the m bits. No reference word is stored.
 * 3. precision = lcs / m and recall = lcs / n as Python divides them (IEEE doubles), and
 *    the maxima of each over the references (what max() of the lists gives).
 *
 * A word's key: where it has at most 8 code points, all below 256, the code points packed
 *    one a byte (with its length, the key is the word: no comparison needed); else a hash
 *    of its code points, a match confirmed by comparing them. The key does not depend on
 *    the str's kind, so the same word in a one-byte and a two-byte str matches.
 *
 * The masks are a table of (U + 1) x W words (W = ceil(m / 64)) where that fits in
 * scratch_words, else each reference word's mask is made from its id's list of hypothesis
 * positions (and cleared after). The str objects are held (a reference each) while the GIL
 * is released, so that a list changed by another thread cannot free them.
 */
#include "native.h"
#include "caption_words.h"

#define DEFAULT_SCRATCH_WORDS ((Py_ssize_t)1 << 18)


typedef struct {
    /* the hypothesis's distinct words: open addressing, stamps */
    Word *slots;
    int32_t *slot_id;
    bs_Stamps table;
    /* per hypothesis word: its id */
    int32_t *word_id;
    size_t words_capacity;
    /* masks (dense): (U + 1) x W; or positions by id (sparse): id_first[U + 2], at[m] */
    uint64_t *masks;
    size_t masks_capacity;
    int64_t *id_first, *id_fill, *at;
    size_t ids_capacity, fill_capacity, at_capacity;
    uint64_t *v, *mask; /* W each */
    size_t v_capacity, mask_capacity;
    Py_ssize_t scratch_words;
} Scratch;

static void
scratch_release(Scratch *s)
{
    PyMem_RawFree(s->slots);
    PyMem_RawFree(s->slot_id);
    PyMem_RawFree(s->table.stamps);
    PyMem_RawFree(s->word_id);
    PyMem_RawFree(s->masks);
    PyMem_RawFree(s->id_first);
    PyMem_RawFree(s->id_fill);
    PyMem_RawFree(s->at);
    PyMem_RawFree(s->v);
    PyMem_RawFree(s->mask);
}


/* the end of the word of `t` that starts at `i` (the next U+0020, or the line's end) */
static inline Py_ssize_t
word_end(const Line *t, Py_ssize_t i)
{
    if (t->kind == PyUnicode_1BYTE_KIND) {
        const char *data = t->data;
        const char *space = memchr(data + i, ' ', (size_t)(t->length - i));
        return space == NULL ? t->length : space - data;
    }
    while (i < t->length && line_at(t, i) != ' ') i++;
    return i;
}


/* the word of `t` that starts at `i`: its key into *w, and its end (the next U+0020, or the
 * line's end). One-byte str on little-endian machines read 8 bytes at a time: the spaces
 * among them found at once (a zero byte of x ^ 0x20..20: the lowest set bit of the SWAR
 * test is exact), and a word of up to 8 bytes is its key, the bytes after it masked off
 * (what word_key's memcpy gives). */
static BS_ALWAYS_INLINE Py_ssize_t
next_word(const Line *t, Py_ssize_t i, Word *w)
{
#if WORDS_FROM_LOADS
    if (t->kind == PyUnicode_1BYTE_KIND && i + 8 <= t->length) {
        const unsigned char *data = t->data;
        const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
        const uint64_t spaces = 0x2020202020202020ULL;
        uint64_t x;
        memcpy(&x, data + i, 8);
        uint64_t y = x ^ spaces;
        uint64_t z = (y - ones) & ~y & highs;
        if (z) {
            const int k = __builtin_ctzll(z) >> 3;
            w->key = k ? x & (((uint64_t)1 << (8 * k)) - 1) : 0;
            w->start = i;
            w->length = k;
            w->exact = 1;
            return i + k;
        }
        Py_ssize_t end = i + 8;
        while (end + 8 <= t->length) {
            uint64_t more;
            memcpy(&more, data + end, 8);
            y = more ^ spaces;
            z = (y - ones) & ~y & highs;
            if (z) break;
            end += 8;
        }
        while (end < t->length && data[end] != ' ') end++;
        if (end == i + 8) {
            w->key = x;
            w->start = i;
            w->length = 8;
            w->exact = 1;
            return end;
        }
        *w = word_key(t, i, end - i);
        return end;
    }
#endif
    const Py_ssize_t end = word_end(t, i);
    *w = word_key(t, i, end - i);
    return end;
}

static inline size_t
slot_of(uint64_t key, Py_ssize_t length, size_t mask)
{
    return (size_t)(((key ^ (uint64_t)length) * BS_GOLDEN) >> 32) & mask;
}

/* the id of word `w` of `t` in the hypothesis's table (0: not there) */
static inline int32_t
lookup(const Scratch *s, const Line *hyp, const Line *t, const Word *w)
{
    const size_t mask = s->table.capacity - 1;
    for (size_t k = slot_of(w->key, w->length, mask);; k = (k + 1) & mask) {
        if (s->table.stamps[k] != s->table.stamp) return 0;
        if (same_word(hyp, &s->slots[k], t, w)) return s->slot_id[k];
    }
}

/* one reference word more (mask `m` of W words): V <- (V + (V & M)) | (V & ~M) */
static inline void
advance(uint64_t *v, const uint64_t *m, size_t words)
{
    uint64_t carry = 0;
    for (size_t k = 0; k < words; k++) {
        const uint64_t x = v[k], u = x & m[k];
        const uint64_t sum = x + u;
        const uint64_t out = sum < x;
        const uint64_t total = sum + carry;
        carry = out | (total < sum);
        v[k] = total | (x & ~m[k]);
    }
}

/* the best precision and recall of one image; 0, or -1 (no memory) */
static int
image_best(Scratch *s, PyObject *hyp_str, PyObject *const *refs, Py_ssize_t count,
           double *best)
{
    const Line hyp = {PyUnicode_KIND(hyp_str), PyUnicode_DATA(hyp_str),
                      PyUnicode_GET_LENGTH(hyp_str)};
    /* the hypothesis's words: at most one per code point, and one more */
    const size_t room = (size_t)hyp.length + 1;
    void **const arrays[2] = {(void **)&s->slots, (void **)&s->slot_id};
    const size_t sizes[2] = {sizeof(Word), sizeof(int32_t)};
    if (bs_stamps_reset(&s->table, arrays, sizes, 2, room) < 0) return -1;
    if (bs_grow((void **)&s->word_id, &s->words_capacity, room, sizeof(int32_t)) < 0) return -1;
    const size_t table_mask = s->table.capacity - 1;
    Py_ssize_t m = 0;
    int32_t distinct = 0;
    uint64_t lengths = 0; /* bit L: a hypothesis word of L code points (63: of 63 or more) */
    for (Py_ssize_t i = 0;; m++) {
        Word w;
        const Py_ssize_t end = next_word(&hyp, i, &w);
        lengths |= (uint64_t)1 << (w.length < 63 ? w.length : 63);
        size_t k = slot_of(w.key, w.length, table_mask);
        while (s->table.stamps[k] == s->table.stamp && !same_word(&hyp, &s->slots[k], &hyp, &w))
            k = (k + 1) & table_mask;
        if (s->table.stamps[k] != s->table.stamp) {
            s->table.stamps[k] = s->table.stamp;
            s->slots[k] = w;
            s->slot_id[k] = ++distinct;
        }
        s->word_id[m] = s->slot_id[k];
        if (end >= hyp.length) {
            m++;
            break;
        }
        i = end + 1;
    }
    const size_t words = ((size_t)m + 63) / 64;
    const uint64_t last = (m & 63) ? ((uint64_t)1 << (m & 63)) - 1 : ~(uint64_t)0;
    if (bs_grow((void **)&s->v, &s->v_capacity, words, 8) < 0
        || bs_grow((void **)&s->mask, &s->mask_capacity, words, 8) < 0)
        return -1;
    const int dense = (size_t)(distinct + 1) <= (size_t)s->scratch_words / words;
    if (dense) {
        const size_t cells = (size_t)(distinct + 1) * words;
        if (bs_grow((void **)&s->masks, &s->masks_capacity, cells, 8) < 0) return -1;
        memset(s->masks, 0, cells * 8);
        for (Py_ssize_t k = 0; k < m; k++)
            s->masks[(size_t)s->word_id[k] * words + (size_t)(k >> 6)] |= (uint64_t)1 << (k & 63);
    }
    else {
        if (bs_grow((void **)&s->id_first, &s->ids_capacity, (size_t)distinct + 2, 8) < 0)
            return -1;
        if (bs_grow((void **)&s->id_fill, &s->fill_capacity, (size_t)distinct + 2, 8) < 0)
            return -1;
        if (bs_grow((void **)&s->at, &s->at_capacity, (size_t)m, 8) < 0) return -1;
        memset(s->id_first, 0, ((size_t)distinct + 2) * 8);
        for (Py_ssize_t k = 0; k < m; k++) s->id_first[s->word_id[k] + 1]++;
        for (int32_t a = 0; a <= distinct; a++) s->id_first[a + 1] += s->id_first[a];
        memcpy(s->id_fill, s->id_first, ((size_t)distinct + 2) * 8);
        for (Py_ssize_t k = 0; k < m; k++) s->at[s->id_fill[s->word_id[k]]++] = k;
        memset(s->mask, 0, words * 8);
    }
    double best_precision = 0.0, best_recall = 0.0;
    for (Py_ssize_t r = 0; r < count; r++) {
        const Line ref = {PyUnicode_KIND(refs[r]), PyUnicode_DATA(refs[r]),
                          PyUnicode_GET_LENGTH(refs[r])};
        uint64_t *v = s->v;
        for (size_t k = 0; k < words; k++) v[k] = ~(uint64_t)0;
        Py_ssize_t n = 0;
        for (Py_ssize_t i = 0;; n++) {
            Word w;
            const Py_ssize_t end = next_word(&ref, i, &w);
            const int32_t id = lengths >> (w.length < 63 ? w.length : 63) & 1
                               ? lookup(s, &hyp, &ref, &w) : 0;
            if (id > 0) {
                if (dense) {
                    if (words == 1) {
                        const uint64_t x = v[0], mk = s->masks[id];
                        v[0] = (x + (x & mk)) | (x & ~mk);
                    }
                    else advance(v, s->masks + (size_t)id * words, words);
                }
                else {
                    const int64_t first = s->id_first[id], stop = s->id_first[id + 1];
                    for (int64_t q = first; q < stop; q++)
                        s->mask[s->at[q] >> 6] |= (uint64_t)1 << (s->at[q] & 63);
                    advance(v, s->mask, words);
                    for (int64_t q = first; q < stop; q++) s->mask[s->at[q] >> 6] = 0;
                }
            }
            if (end >= ref.length) {
                n++;
                break;
            }
            i = end + 1;
        }
        int64_t ones = 0;
        for (size_t k = 0; k + 1 < words; k++) ones += bs_popcount64(v[k]);
        ones += bs_popcount64(v[words - 1] & last);
        const int64_t lcs = (int64_t)m - ones;
        const double precision = (double)lcs / (double)m, recall = (double)lcs / (double)n;
        if (r == 0 || precision > best_precision) best_precision = precision;
        if (r == 0 || recall > best_recall) best_recall = recall;
    }
    best[0] = best_precision;
    best[1] = best_recall;
    return 0;
}

const char bs_caption_rouge_doc[] =
"caption_rouge(hypotheses, references, best, begin, end, scratch_words=262144, /)\n--\n\n"
"pycocoevalcap's ROUGE-L inputs of images begin..end-1: hypotheses and references are\n"
"sequences (tuples or lists) of the same length B; hypotheses[b] a list of one str (the\n"
"image's hypothesis), references[b] a non-empty list of str. Each caption is split with\n"
"split(\" \"); best, a C-contiguous float64 buffer of B x 2 values, receives per image the\n"
"best precision and the best recall over its references of the LCS of the hypothesis's\n"
"words and the reference's. scratch_words bounds the words of a row's mask table (the\n"
"numbers do not change). The GIL is released while images are compared.";

PyObject *
bs_caption_rouge(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("caption_rouge", nargs, 5, 6) < 0) return NULL;
    const Py_ssize_t rows = caption_images(args);
    if (rows < 0) return NULL;
    Py_ssize_t begin, end, scratch = DEFAULT_SCRATCH_WORDS;
    if (bs_index_argument(args[3], "begin", &begin) < 0
        || bs_index_argument(args[4], "end", &end) < 0
        || (nargs == 6 && bs_index_argument(args[5], "scratch_words", &scratch) < 0))
        return NULL;
    if (scratch < 1) {
        PyErr_SetString(PyExc_ValueError, "scratch_words must be at least 1");
        return NULL;
    }
    if (begin < 0 || end < begin || end > rows) {
        PyErr_Format(PyExc_ValueError, "begin and end must satisfy 0 <= begin <= end <= %zd "
                     "(the rows); got %zd and %zd", rows, begin, end);
        return NULL;
    }
    Py_buffer view;
    if (bs_float64_buffer(args[2], &view, "best", 1) < 0) return NULL;
    if (view.len != (Py_ssize_t)sizeof(double) * 2 * rows) {
        PyErr_Format(PyExc_ValueError, "best must hold %zd x 2 values; it holds %zd", rows,
                     view.len / (Py_ssize_t)sizeof(double));
        PyBuffer_Release(&view);
        return NULL;
    }
    double *best = view.buf;
    PyObject *result = NULL;
    /* the str of the rows, held: the hypothesis, then the references, row after row */
    PyObject **held = NULL;
    Py_ssize_t *first = NULL, count = 0, capacity = 0;
    first = PyMem_Malloc(((size_t)(end - begin) + 1) * sizeof(Py_ssize_t));
    if (first == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *const *hyp_items = PySequence_Fast_ITEMS(args[0]);
    PyObject *const *ref_items = PySequence_Fast_ITEMS(args[1]);
    for (Py_ssize_t row = begin; row < end; row++) {
        PyObject *hyp = hyp_items[row], *refs = ref_items[row];
        const Py_ssize_t size = image_references(hyp, refs, row);
        if (size < 0) goto done;
        if (count + size + 1 > capacity) {
            Py_ssize_t more = capacity * 2 > count + size + 1 ? capacity * 2
                                                              : count + size + 1 + 64;
            PyObject **bigger = PyMem_Realloc(held, (size_t)more * sizeof(PyObject *));
            if (bigger == NULL) {
                PyErr_NoMemory();
                goto done;
            }
            held = bigger;
            capacity = more;
        }
        first[row - begin] = count;
        if (hold_captions(hyp, refs, row, held, &count) < 0) goto done;
    }
    first[end - begin] = count;
    Scratch scratch_state;
    memset(&scratch_state, 0, sizeof(scratch_state));
    scratch_state.scratch_words = scratch;
    int no_memory = 0, stopped = 0;
    bs_Watch watch; /* Ctrl-C and stop_calls() end the call between images */
    bs_watch_begin(&watch);
    Py_BEGIN_ALLOW_THREADS /* the str are held and do not change */
    for (Py_ssize_t row = begin; row < end; row++) {
        if (bs_watch_poll(&watch)) {
            stopped = 1;
            break;
        }
        const Py_ssize_t at = first[row - begin], stop = first[row - begin + 1];
        if (image_best(&scratch_state, held[at], held + at + 1, stop - at - 1,
                       best + 2 * row) < 0) {
            no_memory = 1;
            break;
        }
    }
    Py_END_ALLOW_THREADS
    scratch_release(&scratch_state);
    if (bs_watch_end(&watch) < 0 || stopped) goto done; /* KeyboardInterrupt is set */
    if (no_memory) {
        PyErr_NoMemory();
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    for (Py_ssize_t k = 0; k < count; k++) Py_DECREF(held[k]);
    PyMem_Free(held);
    PyMem_Free(first);
    PyBuffer_Release(&view);
    return result;
}
