/* bleusuite._native: what the C files of the compiled part share.
 *
 * module.c    the module
 * buffers.c   the checks of arguments below: buffers, integers, sizes, the ragged rows of
 *             the row kernels, and the one mapping of a failure (bs_Failure) to its exception
 * numbering.c Numbering: lines -> token ids (split, tokenised once per word, numbered)
 * string_table.h, string_table.c  its tables: strings numbered by first appearance
 * tokenizers.c its built-in rules: sacrebleu's 13a and char, chrF++'s words, rouge-score's
 * numbering.h the Numbering object those three share
 * gather.c    gather: the token lists and text of a scoring call -> flat ids in rows
 * counting.c  count_matches: clipped n-gram matches per row, the GIL released
 * libm.c      libm_map: the C library's log or exp of each value (math.log's, math.exp's)
 * lcs.c       lcs_matches: ROUGE-L's LCS and ROUGE-Lsum's union-LCS hits per row
 * stem.c      porter_stem: NLTK's Porter stemmer (ROUGE's use_stemmer)
 * ter.c       ter_edits: TER's edits (sacrebleu's lib_ter) per row and reference, the GIL released
 * edits.c     edit_counts: jiwer's (rapidfuzz's) Levenshtein alignment per row, the GIL released
 * alignment.c AlignmentChunk, alignment_chunks: jiwer's alignment objects of those opcodes
 * edit_distance.c  edit_distances, eed_grid: torchmetrics' EditDistance and EED per pair,
 *             the GIL released
 * cider_sums.c cider_sums, cider_text_sums: pycocoevalcap's CIDEr-D norms and dot products of
 *             a batch of ids, or of its captions
 * caption_lcs.c caption_rouge: pycocoevalcap's ROUGE-L best precision and recall per image, from its str
 * interrupt.c the watch every long loop polls: Ctrl-C and stop_calls()
 *
 * The row kernels (count_matches, lcs_matches, ter_edits, edit_counts, edit_distances,
 * eed_grid) read their ragged rows with bs_ragged_read, check each slice with
 * bs_ragged_hyp / bs_ragged_ref (or bs_ragged_measure), run their rows without the GIL with
 * bs_rows_released (line_edit_counts too), record what went wrong as a bs_Fault and raise it
 * with bs_call_end (bs_raise): one message per failure, naming the argument, whatever the
 * entry point.
 */
#ifndef BLEUSUITE_NATIVE_H
#define BLEUSUITE_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>
#include <stdint.h>

/* a function inlined wherever it is called (GCC, clang; a hint elsewhere) */
#if defined(__GNUC__) || defined(__clang__)
#define BS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define BS_ALWAYS_INLINE inline
#endif

/* a C-contiguous int64 buffer of `ndim` dimensions (shape[k] < 0: any size there); sets
 * a TypeError/ValueError naming `name` and returns -1 on anything else */
int bs_int64_buffer(PyObject *object, Py_buffer *view, const char *name, int ndim,
                    const Py_ssize_t *shape, int writable);

/* a C-contiguous float64 buffer of any shape; a TypeError naming `name` and -1 on
 * anything else */
int bs_float64_buffer(PyObject *object, Py_buffer *view, const char *name, int writable);

/* an entry point's number of arguments checked: 0 where it takes `nargs` (fewest to most,
 * which differ by 0 or 1), else -1 with the TypeError "NAME takes N (or M) arguments, not K" */
int bs_arg_count(const char *name, Py_ssize_t nargs, Py_ssize_t fewest, Py_ssize_t most);

/* views[0:held] released (the buffers an entry point holds) */
void bs_release_views(Py_buffer *views, int held);

/* the `count` arrays of `items` freed (PyMem_RawFree; NULL ones too) */
static inline void
bs_free_all(void *const *items, size_t count)
{
    for (size_t k = 0; k < count; k++) PyMem_RawFree(items[k]);
}

/* an integer argument (anything with __index__) as a Py_ssize_t: 0, or -1 with a TypeError
 * or OverflowError naming `name` */
int bs_index_argument(PyObject *object, const char *name, Py_ssize_t *value);

/* a * b, or -1 with an OverflowError where it does not fit in Py_ssize_t */
Py_ssize_t bs_checked_mul(Py_ssize_t a, Py_ssize_t b);

/* a * b for sizes a, b >= 0, or -1 where it does not fit (no exception: for the work done
 * without the GIL; bs_checked_mul is this with the exception) */
static inline Py_ssize_t
bs_size_product(Py_ssize_t a, Py_ssize_t b)
{
    return a < 0 || b < 0 || (b != 0 && a > PY_SSIZE_T_MAX / b) ? -1 : a * b;
}

/* Fibonacci hashing's multiplier (2^64 / the golden ratio): the open-addressing tables of
 * the kernels take a key's slot from the top bits of key * BS_GOLDEN */
#define BS_GOLDEN 0x9E3779B97F4A7C15ULL

/* ------------------------------------------- ragged rows: the input of the row kernels */

/* the tokens of a row's hypothesis, and of its references together, that count_matches and
 * lcs_matches take: n-gram keys pack two 32-bit ids, and positions are 32-bit */
#define BS_MAX_ROW_TOKENS (((int64_t)1 << 31) - 1)

/* what went wrong in an entry point of the compiled part: every entry point's failures,
 * found (most of them) without the GIL and raised once it is held again by bs_raise */
typedef enum {
    BS_DONE = 0,
    BS_NO_MEMORY,
    BS_TOO_LARGE,       /* sizes too large for this machine */
    BS_HYP_OUTSIDE,     /* a hypothesis slice outside the hypothesis ids */
    BS_HYP_TOO_LONG,    /* a hypothesis longer than the call takes (bs_Ragged's most) */
    BS_REF_OUTSIDE,     /* a reference slice outside the reference ids */
    BS_REF_TOO_LONG,    /* a reference longer than the call takes */
    BS_REFS_TOO_LONG,   /* the references of a row together longer than the call takes */
    BS_CHANGED,         /* offsets or lengths that changed while the call ran */
    BS_OUTPUT_OUTSIDE,  /* a row's place in an output buffer is outside it (edit_counts'
                         * chunk_starts) */
    BS_PREFIX_NARROW,   /* count_matches' prefix narrower than the longest hypothesis */
    BS_MATRIX_TOO_BIG,  /* a pair's matrices do not fit in memory (ter_edits) */
    BS_NO_TRACE,        /* TER's edit trace left the beam (sacrebleu raises there too) */
    BS_STOPPED,         /* Ctrl-C, or stop_calls() (interrupt.c): bs_watch_end raises */
} bs_Failure;

/* a failure and where it was found: the row and reference; the slice (start, length) or,
 * for BS_PREFIX_NARROW, the width and the longest hypothesis, for BS_OUTPUT_OUTSIDE the
 * first item and the items needed (`what`: the argument that placed them), for
 * BS_MATRIX_TOO_BIG the two sides' lengths */
typedef struct {
    bs_Failure kind;
    Py_ssize_t row, reference;
    int64_t start, length;
    const char *what;
} bs_Fault;

/* the ragged rows of a call, as count_matches, lcs_matches, ter_edits, edit_counts,
 * edit_distances and eed_grid take them: row b's hypothesis is hyp_ids[hyp_starts[b] :
 * hyp_starts[b] + hyp_lengths[b]], its reference r the same slice of ref_ids by
 * ref_starts[b, r] and ref_lengths[b, r] ((B, R); (B,) where the call has one reference a
 * row, refs = 1) */
typedef struct {
    const int64_t *hyp_ids, *hyp_starts, *hyp_lengths;
    const int64_t *ref_ids, *ref_starts, *ref_lengths;
    Py_ssize_t hyp_size, ref_size; /* the values of hyp_ids and ref_ids */
    Py_ssize_t rows, refs;
    /* for the checks and the messages: the arguments' names (hyp_ids, hyp_starts,
     * hyp_lengths, ref_ids, ref_starts, ref_lengths), the most tokens one side (or a row's
     * references together) may hold, what a row is called ("row", "pair") and what the
     * call does to it ("counted", "compared", "aligned") */
    const char *const *names;
    int64_t most;
    const char *unit, *verb;
    int two_dim; /* starts and lengths are (B, R) */
} bs_Ragged;

/* the names of the six buffers of token ids (hyp_ids, hyp_starts, hyp_lengths, ref_ids,
 * ref_starts, ref_lengths): bs_ragged_read's `names` where the rows are ids */
extern const char *const bs_ragged_names[6];

/* the six buffers args[0:6] into `ragged` (C-contiguous int64; ids 1-D; starts and
 * lengths of one shape: (B,), or (B, R) where `two_dim`), their views appended to
 * views[*held:] (the caller releases views[0:*held]); `names`, `most`, `unit` and `verb` as
 * bs_Ragged holds them. -1 with a TypeError or ValueError naming the argument */
int bs_ragged_read(PyObject *const *args, const char *const *names, int two_dim, int64_t most,
                   const char *unit, const char *verb, bs_Ragged *ragged, Py_buffer *views,
                   int *held);

/* begin and end (anything with __index__) as rows begin..end-1 of `rows` (`unit`: what a
 * row is called, "row" or "pair"): 0, or -1 with a TypeError, OverflowError or ValueError
 * naming them */
int bs_rows_range(PyObject *begin_object, PyObject *end_object, Py_ssize_t rows,
                  const char *unit, Py_ssize_t *begin, Py_ssize_t *end);

/* whether [start, start + length) lies in a buffer of `size` values */
static inline int
bs_slice_fits(int64_t start, int64_t length, Py_ssize_t size)
{
    return start >= 0 && length >= 0 && start <= (int64_t)size
           && length <= (int64_t)size - start;
}

/* `fault` set: its kind */
static inline bs_Failure
bs_fail(bs_Fault *fault, bs_Failure kind, Py_ssize_t row, Py_ssize_t reference,
        int64_t start, int64_t length)
{
    *fault = (bs_Fault){kind, row, reference, start, length, NULL};
    return kind;
}

/* row `row`'s hypothesis checked against its buffer and ragged->most (without the GIL):
 * BS_DONE, or the failure set in `fault` */
static inline bs_Failure
bs_ragged_hyp(const bs_Ragged *ragged, Py_ssize_t row, bs_Fault *fault)
{
    const int64_t start = ragged->hyp_starts[row], length = ragged->hyp_lengths[row];
    if (!bs_slice_fits(start, length, ragged->hyp_size))
        return bs_fail(fault, BS_HYP_OUTSIDE, row, 0, start, length);
    if (length > ragged->most) return bs_fail(fault, BS_HYP_TOO_LONG, row, 0, start, length);
    return BS_DONE;
}

/* the same of reference `reference` of row `row` */
static inline bs_Failure
bs_ragged_ref(const bs_Ragged *ragged, Py_ssize_t row, Py_ssize_t reference, bs_Fault *fault)
{
    const Py_ssize_t k = row * ragged->refs + reference;
    const int64_t start = ragged->ref_starts[k], length = ragged->ref_lengths[k];
    if (!bs_slice_fits(start, length, ragged->ref_size))
        return bs_fail(fault, BS_REF_OUTSIDE, row, reference, start, length);
    if (length > ragged->most)
        return bs_fail(fault, BS_REF_TOO_LONG, row, reference, start, length);
    return BS_DONE;
}

/* the widest row of rows begin..end-1 (its hypothesis, its references together) and their
 * tokens, every slice checked (a row's references together at most ragged->most; with
 * `skip_empty`, the references of a row with an empty hypothesis are neither read nor
 * counted): BS_DONE, or the failure set in `fault` (runs without the GIL) */
bs_Failure bs_ragged_measure(const bs_Ragged *ragged, Py_ssize_t begin, Py_ssize_t end,
                             int skip_empty, int64_t *max_hyp, int64_t *max_ref,
                             int64_t *tokens, bs_Fault *fault);

/* the exception of `fault` (with the GIL; `ragged` names the arguments, NULL where the call
 * has no ragged rows): BS_STOPPED and BS_DONE set none (bs_watch_end raised already) */
void bs_raise(const bs_Fault *fault, const bs_Ragged *ragged);

typedef struct bs_Watch bs_Watch;
/* the end of a call's work without the GIL, with it held again: the watch ended (-1 with
 * KeyboardInterrupt where it stopped the call), then 0, or -1 with the exception of `fault`
 * (bs_raise) */
int bs_call_end(bs_Watch *watch, const bs_Fault *fault, const bs_Ragged *ragged);

/* whether `c` is whitespace to str.split(), str.strip() and re's \s (Py_UNICODE_ISSPACE):
 * the 29 code points of str.isspace written out, so that a letter above ASCII costs two
 * comparisons and no call (tests/native/test_edits_fuzz.py and tests/text/test_text.py hold
 * the list to str.isspace for every code point) */
static inline int
bs_is_space(Py_UCS4 c)
{
    if (c < 0x85) return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f);
    if (c < 0x2000) return c == 0x85 || c == 0xA0 || c == 0x1680;
    return c <= 0x200A || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F
           || c == 0x3000;
}

/* characters to read: `length` code points at `data` of width `kind` (1, 2 or 4 bytes), a
 * str's or a slice of them */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t length;
} bs_Text;

static inline Py_UCS4
bs_text_at(bs_Text text, Py_ssize_t i)
{
    return PyUnicode_READ(text.kind, text.data, i);
}

/* the characters of a ready str */
static inline bs_Text
bs_text_of_str(PyObject *str)
{
    bs_Text text = {PyUnicode_KIND(str), PyUnicode_DATA(str), PyUnicode_GET_LENGTH(str)};
    return text;
}

/* `*items` grown to hold at least `needed` items of `item` bytes (at least 64, at least
 * twice what it held), `*capacity` the items it holds: 0, or -1 (no memory; nothing
 * changed, no exception set) */
int bs_grow(void **items, size_t *capacity, size_t needed, size_t item);

/* `count` arrays that share one capacity grown together: arrays[k] to hold at least `needed`
 * items of sizes[k] bytes, as bs_grow grows one, or (exact) `needed` items and no more (for
 * large matrices, where room to spare would be memory taken for nothing); `*capacity` the
 * items each holds: 0, or -1 (no memory; no exception set, `*capacity` unchanged) */
int bs_grow_all(void **const *arrays, const size_t *sizes, int count, size_t *capacity,
                size_t needed, int exact);

/* the stamps of an open-addressing table emptied by a new stamp instead of cleared (a slot
 * is in use where its stamp is the table's): the tables of a pair's or an image's words */
typedef struct {
    uint32_t *stamps;
    uint32_t stamp;
    size_t capacity; /* slots: a power of two */
} bs_Stamps;

/* the stamps and the `count` arrays of what a table's slots hold (*arrays[k], sizes[k] bytes
 * a slot) allocated again for `capacity` slots: 0, or -1 (no memory; no exception set) */
int bs_stamps_grow(bs_Stamps *table, void **const *arrays, const size_t *sizes, int count,
                   size_t capacity);

/* `table` emptied, with at least twice `items` slots (16 at least), grown where it must
 * (bs_stamps_grow): 0, or -1 (no memory; no exception set). Inline: it runs once a pair */
static inline int
bs_stamps_reset(bs_Stamps *table, void **const *arrays, const size_t *sizes, int count,
                size_t items)
{
    size_t capacity = 16;
    while (capacity < 2 * items) capacity *= 2;
    if (capacity > table->capacity && bs_stamps_grow(table, arrays, sizes, count, capacity) < 0)
        return -1;
    if (++table->stamp == 0) { /* the stamps wrapped: clear them once */
        memset(table->stamps, 0, table->capacity * sizeof(uint32_t));
        table->stamp = 1;
    }
    return 0;
}

/* function(argument), a Python function that must return a str (`name`: what the
 * TypeError calls it, "NAME must return a str, not T"): a new reference to the str, ready,
 * or NULL with the exception (GIL held) */
PyObject *bs_call_for_str(PyObject *function, PyObject *argument, const char *name);

/* a growable int64 array (fixed: its items are a bytes object's and cannot move) */
typedef struct {
    int64_t *items;
    Py_ssize_t size, capacity;
    int fixed;
} bs_Int64s;

/* room for `more` items more: 0, or -1 (no memory, no exception set) */
int bs_int64s_reserve(bs_Int64s *array, Py_ssize_t more);

/* a str token as gather holds it for the numbering: the str (a reference held), or, where
 * object is NULL, a str of `length` (1 to 8) one-byte characters as bs_short_word's word,
 * which needs no str while it is numbered (row by row only) */
typedef struct {
    PyObject *object;
    uint64_t word;
    Py_ssize_t length;
} bs_Token;

/* the word of `n` (1 to 8) one-byte characters at `data`: 8 bytes as they are; 4 to 7 the
 * first 4 and the last 4 (overlapping); 1 to 3 the first, middle and last. For a given
 * length every character is in the word: two texts of the same length and word are equal */
static inline uint64_t
bs_short_word(const void *data, Py_ssize_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    if (n == 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        return w;
    }
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4);
        return (uint64_t)lo | (uint64_t)hi << 32;
    }
    return (uint64_t)p[0] | (uint64_t)p[n >> 1] << 8 | (uint64_t)p[n - 1] << 16;
}

/* the declarations of an entry point of the module (METH_FASTCALL: bs_NAME) and of its
 * docstring (bs_NAME_doc); module.c lists them */
#define BS_ENTRY_POINT(name)                                                                 \
    PyObject *bs_##name(PyObject *module, PyObject *const *args, Py_ssize_t nargs);          \
    extern const char bs_##name##_doc[]

extern PyTypeObject bs_NumberingType;
/* gather.c's use of a Numbering (numbering.c): begin (plain: it must have no tokenizer)
 * marks it busy, end frees it; each returns -1 with an exception set on failure */
int bs_numbering_begin(PyObject *numbering, int plain);
void bs_numbering_end(PyObject *numbering);
/* rows numbered one at a time (ids only within a row; the built-in rules alone): begin
 * (-1 with an exception), the next row, the end */
int bs_numbering_rows(PyObject *numbering);
void bs_numbering_next_row(PyObject *numbering);
void bs_numbering_rows_end(PyObject *numbering);
/* whether the numbering runs no Python code (no Python tokenize): its work needs no GIL */
int bs_numbering_pure(PyObject *numbering);
/* mark the numbering busy without the GIL (released 1) or with it (0), between begin and end */
void bs_numbering_free_gil(PyObject *numbering, int released);
/* the token ids of a str line (a ready str, held) appended to ids: their number, or -1 (no
 * memory, no exception set) or -2 (an exception of a Python tokenize, set: GIL held) */
Py_ssize_t bs_number_line_raw(PyObject *numbering, PyObject *line, bs_Int64s *ids);
/* the ids of `count` str tokens (a str ready and held, or a short word: row by row only) as
 * whole tokens appended to ids: 0, or -1 (no memory, no exception set) */
int bs_number_tokens_raw(PyObject *numbering, const bs_Token *tokens, Py_ssize_t count,
                         bs_Int64s *ids);
BS_ENTRY_POINT(gather);
BS_ENTRY_POINT(count_matches);
BS_ENTRY_POINT(libm_map);
BS_ENTRY_POINT(lcs_matches);
BS_ENTRY_POINT(porter_stem);
/* the Porter stem (NLTK's) of a lowercased word of `length` code points, in place: its new
 * length (never more); `scratch` holds `length` bytes */
Py_ssize_t bs_porter_stem_word(Py_UCS4 *chars, Py_ssize_t length, unsigned char *scratch);
BS_ENTRY_POINT(ter_edits);
BS_ENTRY_POINT(edit_counts);
BS_ENTRY_POINT(edit_distances);
BS_ENTRY_POINT(eed_grid);

/* ---------------------------------------------------- stopping a long call (interrupt.c) */

/* a call's view of Ctrl-C and of stop_calls(): begun with the GIL, polled without it in
 * every long loop, ended with the GIL */
struct bs_Watch {
    long epoch;          /* the stop epoch when the call began */
    int main_thread;     /* on Python's main thread: it checks for signals itself */
    int stopped;         /* the call must stop (a signal's handler raised, or stop_calls) */
    int signalled;       /* this call's check of the signals raised (the exception is set) */
    unsigned countdown;  /* polls left before the next look */
    uint64_t next_ns;    /* when the main thread next checks for signals */
};
void bs_interrupt_ready(void);
void bs_watch_begin(bs_Watch *watch);
int bs_watch_look(bs_Watch *watch);
/* without the GIL: 1 where the call must stop (cheap: a countdown between looks) */
static inline int
bs_watch_poll(bs_Watch *watch)
{
    if (watch->stopped) return 1;
    return --watch->countdown ? 0 : bs_watch_look(watch);
}
/* with the GIL: 0, or -1 with KeyboardInterrupt (or a signal handler's exception) set */
int bs_watch_end(bs_Watch *watch);
/* an entry point's work without the GIL: prepare(state, begin, end, watch, fault) (NULL:
 * nothing to prepare), then row(state, row, watch, fault) for rows begin..end-1 (each
 * BS_DONE, or the failure set in `fault`), Ctrl-C and stop_calls() polled before each row
 * (BS_STOPPED); with the GIL held again, None, or NULL with the exception of the failure
 * (bs_call_end: `ragged` names the arguments, NULL where the call has none). Inlined in each
 * entry point, so that its calls of prepare and row are direct */
typedef bs_Failure (*bs_PrepareRows)(void *state, Py_ssize_t begin, Py_ssize_t end,
                                     bs_Watch *watch, bs_Fault *fault);
typedef bs_Failure (*bs_RowWork)(void *state, Py_ssize_t row, bs_Watch *watch, bs_Fault *fault);
static BS_ALWAYS_INLINE PyObject *
bs_rows_released(bs_PrepareRows prepare, bs_RowWork row, void *state, Py_ssize_t begin,
                 Py_ssize_t end, bs_Fault *fault, const bs_Ragged *ragged)
{
    bs_Watch watch; /* Ctrl-C and stop_calls() end the call between rows */
    bs_watch_begin(&watch);
    Py_BEGIN_ALLOW_THREADS
    if (prepare == NULL || prepare(state, begin, end, &watch, fault) == BS_DONE) {
        for (Py_ssize_t at = begin; at < end; at++) {
            if (bs_watch_poll(&watch)) {
                fault->kind = BS_STOPPED;
                break;
            }
            if (row(state, at, &watch, fault) != BS_DONE) break;
        }
    }
    Py_END_ALLOW_THREADS
    return bs_call_end(&watch, fault, ragged) == 0 ? Py_NewRef(Py_None) : NULL;
}

PyObject *bs_stop_calls(PyObject *module, PyObject *unused);
extern const char bs_stop_calls_doc[];

BS_ENTRY_POINT(line_edit_counts);
extern PyTypeObject bs_AlignmentChunkType;
BS_ENTRY_POINT(alignment_chunks);
BS_ENTRY_POINT(caption_rouge);
BS_ENTRY_POINT(cider_sums);
BS_ENTRY_POINT(cider_text_sums);
BS_ENTRY_POINT(word_lists);

#endif
