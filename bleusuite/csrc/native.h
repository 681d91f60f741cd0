/* bleusuite._native: what the C files of the compiled part share.
 *
 * module.c    the module
 * buffers.c   the checked buffer and size helpers below
 * numbering.c Numbering: lines -> token ids (split, tokenised once per word, numbered)
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
 */
#ifndef BLEUSUITE_NATIVE_H
#define BLEUSUITE_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>
#include <stdint.h>

/* a C-contiguous int64 buffer of `ndim` dimensions (shape[k] < 0: any size there); sets
 * a TypeError/ValueError naming `name` and returns -1 on anything else */
int bs_int64_buffer(PyObject *object, Py_buffer *view, const char *name, int ndim,
                    const Py_ssize_t *shape, int writable);

/* a C-contiguous float64 buffer of any shape; a TypeError naming `name` and -1 on
 * anything else */
int bs_float64_buffer(PyObject *object, Py_buffer *view, const char *name, int writable);

/* an integer argument (anything with __index__) as a Py_ssize_t: 0, or -1 with a TypeError
 * or OverflowError naming `name` */
int bs_index_argument(PyObject *object, const char *name, Py_ssize_t *value);

/* a * b, or -1 with an OverflowError where it does not fit in Py_ssize_t */
Py_ssize_t bs_checked_mul(Py_ssize_t a, Py_ssize_t b);

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

/* `*items` grown to hold at least `needed` items of `item` bytes (at least 64, at least
 * twice what it held), `*capacity` the items it holds: 0, or -1 (no memory; nothing
 * changed, no exception set) */
int bs_grow(void **items, size_t *capacity, size_t needed, size_t item);

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
PyObject *bs_gather(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_gather_doc[];
PyObject *bs_count_matches(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_count_matches_doc[];
PyObject *bs_libm_map(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_libm_map_doc[];
PyObject *bs_lcs_matches(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_lcs_matches_doc[];
PyObject *bs_porter_stem(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* the Porter stem (NLTK's) of a lowercased word of `length` code points, in place: its new
 * length (never more); `scratch` holds `length` bytes */
Py_ssize_t bs_porter_stem_word(Py_UCS4 *chars, Py_ssize_t length, unsigned char *scratch);
extern const char bs_porter_stem_doc[];
PyObject *bs_ter_edits(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_ter_edits_doc[];
PyObject *bs_edit_counts(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_edit_counts_doc[];
PyObject *bs_edit_distances(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_edit_distances_doc[];
PyObject *bs_eed_grid(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_eed_grid_doc[];

/* ---------------------------------------------------- stopping a long call (interrupt.c) */

/* a call's view of Ctrl-C and of stop_calls(): begun with the GIL, polled without it in
 * every long loop, ended with the GIL */
typedef struct {
    long epoch;          /* the stop epoch when the call began */
    int main_thread;     /* on Python's main thread: it checks for signals itself */
    int stopped;         /* the call must stop (a signal's handler raised, or stop_calls) */
    int signalled;       /* this call's check of the signals raised (the exception is set) */
    unsigned countdown;  /* polls left before the next look */
    uint64_t next_ns;    /* when the main thread next checks for signals */
} bs_Watch;
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
PyObject *bs_stop_calls(PyObject *module, PyObject *unused);
extern const char bs_stop_calls_doc[];

PyObject *bs_line_edit_counts(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_line_edit_counts_doc[];
extern PyTypeObject bs_AlignmentChunkType;
PyObject *bs_alignment_chunks(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_alignment_chunks_doc[];
PyObject *bs_caption_rouge(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_caption_rouge_doc[];
PyObject *bs_cider_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_cider_sums_doc[];
PyObject *bs_cider_text_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_cider_text_sums_doc[];
PyObject *bs_word_lists(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_word_lists_doc[];

#endif
