/* gather: the token lists and text of a scoring call as flat int64 ids in rows, the form
 * the counting kernel reads (bleusuite/inputs/lists.py and ragged.py are its callers).
 *
 * gather(hypotheses, references, numbering, text, pad, eos, transform, by_row)
 *
 * hypotheses is a list or tuple of B sentences, references a list or tuple of B rows.
 * - text false: a sentence is a list or tuple of tokens, all int (the ids are their values)
 *   or all str (numbered by `numbering`, a Numbering without tokenizer: each str is one
 *   token), or a 1-D array of integers (any object with the buffer protocol: its items are
 *   ids, as int tokens are); a row is a list or tuple of sentences, or one array (its one
 *   reference). `pad` tokens are dropped, and a sentence ends before its first `eos` that
 *   comes after a token that is not padding (bleusuite.inputs' rule, so that pad == eos
 *   works with left padding); pad and eos are compared as tokens of the sentences' kind
 *   (None, or one of another kind: none). A reference of nothing but padding is absent (an
 *   empty one is present, and empty).
 * - text true: a sentence is a str, `transform(line)` (a callable str -> str, or None)
 *   numbered by `numbering` (split, and tokenised by its tokenizer); a row is a str (one
 *   reference) or a list or tuple of str and None (None: no such reference).
 * by_row true: str tokens and text get ids only within each row (a hypothesis and its
 * references), from the numbering's row tables (bs_numbering_rows: its built-in rules, a
 * small table per row); false: one numbering for every row (the Numbering's).
 *
 * It works in two passes. The first reads the lists with the GIL: int tokens and arrays
 * become ids at once; str tokens and lines of text (after transform) are held (a str token
 * of 1 to 8 one-byte characters numbered by row as the word of its characters, any other
 * str by a reference to it). The second numbers what is held, row after row, with the GIL
 * released where the numbering runs no Python code (its built-in rules, or none): so that
 * calls on separate blocks of rows, each with its own Numbering, run on several threads at
 * once (bleusuite/inputs/lists.py).
 *
 * Returns (ids, layout, present, R, missing):
 *   ids      bytes of int64: row after row, its hypothesis and its references;
 *   layout   bytearray of int64: hyp_starts (B), hyp_lengths (B), ref_starts (B x R),
 *            ref_lengths (B x R), offsets into ids (an absent reference has length 0);
 *   present  bytearray (B x R) of 0 or 1: whether each reference slot holds a reference;
 *   R        the most references of a row (at least 1);
 *   missing  the first row without any reference, or -1.
 * or None where the input is not of these forms (a token of another type, int and str
 * tokens mixed, an int outside int64, a sentence or a row of another type, or batch sizes
 * that differ): the caller takes its general path, which raises where the input is wrong.
 * Lists, tuples, int and str are those types themselves (and bool): a subclass may give
 * Python code another length, other items or another == than the ones read here, so it
 * goes the general path, which reads it as Python does.
 * An exception of transform or of a Python tokenizer, and MemoryError, propagate.
 *
 * The first pass holds every item while it reads it and reads every size again, since
 * transform runs Python code that could change the lists: a changed list gives other ids,
 * never a read outside it. The second reads only the str objects held.
 */
#include "native.h"

#include <string.h>

typedef enum { GATHERED = 0, NOT_HANDLED = 1, FAILED = -1 } Outcome;

typedef enum { KIND_UNKNOWN, KIND_INT, KIND_STR } Kind;

/* a special token (pad or eos): an int id (int tokens), or a str compared as Python does */
typedef struct {
    PyObject *token; /* the caller's object, borrowed (Py_None: none) */
    int64_t id;
    int set; /* 1 once the sentences' kind is known and the token is of it */
} Special;

/* str tokens and lines held for the second pass */
typedef struct {
    bs_Token *items;
    Py_ssize_t size, capacity;
} Held;

typedef struct {
    PyObject *numbering; /* NULL: int tokens only */
    int text;
    int arrays;  /* token mode: a sentence may be a 1-D integer array */
    int side;    /* 0 while a hypothesis is read, 1 its references */
    int by_row;  /* ids only within each row: the numbering's row tables */
    int form[2]; /* per side: 0 none yet, 1 token lists, 2 arrays (one side takes one) */
    PyObject *transform; /* NULL: none */
    Kind kind;
    Special pad, eos;
    bs_Int64s ids; /* int tokens: their ids, in the first pass; the rest: in the second */
    Held held;     /* str tokens and lines, in order */
    bs_Watch *watch; /* polled once a row while rows are numbered */
} Gathering;

typedef struct {
    Py_ssize_t rows, refs;
    int64_t *layout; /* hyp_starts, hyp_lengths, ref_starts, ref_lengths */
    unsigned char *present;
    Py_ssize_t missing;
} Layout;

/* a list or tuple itself: a subclass may give Python code other items or another length
 * than the ones read here (its __len__, __iter__), so it goes the general path, which reads
 * it as Python does */
static inline int
is_sentence(PyObject *object)
{
    return PyList_CheckExact(object) || PyTuple_CheckExact(object);
}

/* an int token: an int or a bool, whose value is its id. A subclass of int goes the
 * general path, which reads it as NumPy does (its __int__) */
static inline int
is_int_token(PyObject *object)
{
    return PyLong_CheckExact(object) || PyBool_Check(object);
}

/* a str token: a str itself, compared by its characters. A subclass may compare (and
 * hash) otherwise; the general path numbers it as Python's == sees it */
static inline int
is_str_token(PyObject *object)
{
    return PyUnicode_CheckExact(object);
}

static Outcome
reserve(Gathering *g, Py_ssize_t more)
{
    if (bs_int64s_reserve(&g->ids, more) < 0) {
        PyErr_NoMemory();
        return FAILED;
    }
    return GATHERED;
}

/* room to hold `more` str */
static Outcome
hold_room(Gathering *g, Py_ssize_t more)
{
    Held *held = &g->held;
    if (more <= held->capacity - held->size) return GATHERED;
    Py_ssize_t grown = held->capacity ? held->capacity : 1024;
    while (grown - held->size < more) {
        if (grown > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(bs_Token)) {
            PyErr_NoMemory();
            return FAILED;
        }
        grown *= 2;
    }
    bs_Token *items = PyMem_RawRealloc(held->items, (size_t)grown * sizeof(bs_Token));
    if (items == NULL) {
        PyErr_NoMemory();
        return FAILED;
    }
    held->items = items;
    held->capacity = grown;
    return GATHERED;
}

/* hold one more str, where hold_room made room for it: a token of 1 to 8 one-byte
 * characters numbered row by row as its word (no reference: the second pass, without the
 * GIL, reads no str object for it), anything else as a new reference */
static inline Outcome
hold_in_room(Gathering *g, PyObject *object)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(object) < 0) return FAILED;
#endif
    bs_Token *token = &g->held.items[g->held.size++];
    Py_ssize_t length = PyUnicode_GET_LENGTH(object);
    if (g->by_row && !g->text && length >= 1 && length <= 8
        && PyUnicode_KIND(object) == PyUnicode_1BYTE_KIND) {
        token->object = NULL;
        token->word = bs_short_word(PyUnicode_DATA(object), length);
        token->length = length;
    }
    else token->object = Py_NewRef(object);
    return GATHERED;
}

/* hold one more str (a new reference) */
static Outcome
hold(Gathering *g, PyObject *object)
{
    return hold_room(g, 1) == GATHERED ? hold_in_room(g, object) : FAILED;
}

/* pad or eos, once the sentences' kind is known (NOT_HANDLED: a str that is a subclass, which
 * may compare otherwise) */
static Outcome
resolve(Gathering *g, Special *special)
{
    PyObject *token = special->token;
    if (token == Py_None) return GATHERED;
    if (g->kind == KIND_INT && PyLong_Check(token)) {
        int overflow = 0;
        long long value = PyLong_AsLongLongAndOverflow(token, &overflow);
        if (value == -1 && PyErr_Occurred()) return FAILED;
        if (!overflow) { /* an int outside int64 is no token of the sentences */
            special->id = (int64_t)value;
            special->set = 1;
        }
    }
    else if (g->kind == KIND_STR && PyUnicode_Check(token)) {
        if (!is_str_token(token)) return NOT_HANDLED;
        special->set = 1;
    }
    return GATHERED;
}

static Outcome
resolve_both(Gathering *g)
{
    Outcome outcome = resolve(g, &g->pad);
    return outcome == GATHERED ? resolve(g, &g->eos) : outcome;
}

/* the kind of the first token met; NOT_HANDLED for a token that is neither int nor str,
 * or str without a numbering */
static Outcome
set_kind(Gathering *g, PyObject *token)
{
    if (is_int_token(token)) g->kind = KIND_INT;
    else if (is_str_token(token) && g->numbering != NULL) g->kind = KIND_STR;
    else return NOT_HANDLED;
    return resolve_both(g);
}

/* whether a str token is a special one (compared as Python's == compares str) */
static inline int
same_str(const Special *special, PyObject *token)
{
    return special->set && PyUnicode_Compare(token, special->token) == 0;
}

/* the integer format of a 1-D array's items: its size in bytes and signedness, or 0 (items
 * of another byte order than the machine's, or of a size array_item does not read, are
 * left to the general path) */
static int
integer_format(const Py_buffer *view, int *is_signed)
{
    const char *format = view->format ? view->format : "B";
#if PY_LITTLE_ENDIAN
    if (format[0] == '@' || format[0] == '=' || format[0] == '<') format++;
#else
    if (format[0] == '@' || format[0] == '=' || format[0] == '>' || format[0] == '!') format++;
#endif
    if (format[0] == '\0' || format[1] != '\0') return 0;
    const char *signed_codes = "bhilq", *unsigned_codes = "BHILQ";
    *is_signed = strchr(signed_codes, format[0]) != NULL;
    if (!*is_signed && strchr(unsigned_codes, format[0]) == NULL) return 0;
    Py_ssize_t size = view->itemsize;
    return size == 1 || size == 2 || size == 4 || size == 8 ? (int)size : 0;
}

/* item i of a 1-D integer array as an int64; 0 where an unsigned value does not fit */
static inline int
array_item(const Py_buffer *view, int size, int is_signed, Py_ssize_t i, int64_t *value)
{
    const char *at = (const char *)view->buf + i * (view->strides ? view->strides[0] : size);
    switch (size) {
    case 1:
        *value = is_signed ? (int64_t)*(const int8_t *)at : (int64_t)*(const uint8_t *)at;
        return 1;
    case 2:
        *value = is_signed ? (int64_t)*(const int16_t *)at : (int64_t)*(const uint16_t *)at;
        return 1;
    case 4:
        *value = is_signed ? (int64_t)*(const int32_t *)at : (int64_t)*(const uint32_t *)at;
        return 1;
    default: {
        uint64_t raw;
        memcpy(&raw, at, sizeof raw);
        if (!is_signed && raw > (uint64_t)INT64_MAX) return 0;
        *value = (int64_t)raw;
        return 1;
    }
    }
}

/* one int token's id appended (padding dropped, cut at eos): 1 to go on, 0 at the
 * sentence's end (its eos) */
static inline int
keep_id(Gathering *g, int64_t id, int *started, Py_ssize_t *kept)
{
    int padding = g->pad.set && id == g->pad.id;
    *started |= !padding;
    if (g->eos.set && id == g->eos.id && *started) return 0;
    if (!padding) g->ids.items[g->ids.size + (*kept)++] = id;
    return 1;
}

/* the ids of a 1-D integer array (a sentence of token ids) */
static Outcome
gather_array(Gathering *g, PyObject *sentence, Py_ssize_t *length, int *padding_only)
{
    Py_buffer view;
    if (PyObject_GetBuffer(sentence, &view, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return NOT_HANDLED;
    }
    int is_signed = 0, size = integer_format(&view, &is_signed);
    Outcome outcome = NOT_HANDLED;
    if (view.ndim != 1 || size == 0 || view.itemsize != size || size > 8) goto done;
    if (g->kind == KIND_STR) goto done;
    if (g->kind == KIND_UNKNOWN) {
        g->kind = KIND_INT;
        outcome = resolve_both(g);
        if (outcome != GATHERED) goto done;
        outcome = NOT_HANDLED;
    }
    if (reserve(g, view.shape[0]) != GATHERED) {
        outcome = FAILED;
        goto done;
    }
    int started = 0;
    Py_ssize_t kept = 0, i = 0;
    for (; i < view.shape[0]; i++) {
        int64_t id = 0;
        if (!array_item(&view, size, is_signed, i, &id)) goto done;
        if (!keep_id(g, id, &started, &kept)) break;
    }
    /* after the end too, an id above int64 is refused by the general path (see rest_of_kind) */
    for (i++; i < view.shape[0] && size == 8 && !is_signed; i++) {
        int64_t id = 0;
        if (!array_item(&view, size, is_signed, i, &id)) goto done;
    }
    g->ids.size += kept;
    *length = kept;
    *padding_only = view.shape[0] > 0 && !started;
    outcome = GATHERED;
done:
    PyBuffer_Release(&view);
    return outcome;
}

/* an int token's id; NOT_HANDLED for a token that is not an int, or an int outside int64
 * (the general path says it is outside int64) */
static inline Outcome
int_value(PyObject *token, int64_t *id)
{
    if (!is_int_token(token)) return NOT_HANDLED;
    /* an int of one digit (every id below 2**30) read in place, without a call */
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)token)) {
        *id = (int64_t)PyUnstable_Long_CompactValue((PyLongObject *)token);
        return GATHERED;
    }
#else
    Py_ssize_t digits = Py_SIZE(token);
    if (digits >= -1 && digits <= 1) {
        *id = (int64_t)digits * (int64_t)((PyLongObject *)token)->ob_digit[0];
        return GATHERED;
    }
#endif
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(token, &overflow);
    if (value == -1 && PyErr_Occurred()) return FAILED;
    if (overflow) return NOT_HANDLED;
    *id = (int64_t)value;
    return GATHERED;
}

/* the tokens of a sentence after its end (its eos), items[from:size]: no ids, but tokens of
 * the sentence all the same. One that is not of the sentences' kind, or an int outside
 * int64, makes the input not this form as it would before the end: the general path reads
 * every token (it refuses an int outside int64, and numbers tokens of other types, or says
 * they are not hashable), wherever the eos is */
static Outcome
rest_of_kind(const Gathering *g, PyObject **items, Py_ssize_t from, Py_ssize_t size)
{
    for (Py_ssize_t i = from; i < size; i++) {
        int64_t id = 0;
        Outcome outcome = g->kind == KIND_STR ? (is_str_token(items[i]) ? GATHERED : NOT_HANDLED)
                                              : int_value(items[i], &id);
        if (outcome != GATHERED) return outcome;
    }
    return GATHERED;
}

/* a sentence of int tokens: their ids */
static Outcome
int_tokens(Gathering *g, PyObject **items, Py_ssize_t size, Py_ssize_t *length,
           int *padding_only)
{
    if (reserve(g, size) != GATHERED) return FAILED;
    int started = 0;
    Py_ssize_t kept = 0, i = 0;
    for (; i < size; i++) {
        int64_t id = 0;
        Outcome outcome = int_value(items[i], &id);
        if (outcome != GATHERED) return outcome;
        if (!keep_id(g, id, &started, &kept)) break;
    }
    if (i < size) {
        Outcome outcome = rest_of_kind(g, items, i + 1, size);
        if (outcome != GATHERED) return outcome;
    }
    g->ids.size += kept;
    *length = kept;
    *padding_only = size > 0 && !started;
    return GATHERED;
}

/* a sentence of str tokens: held for the second pass (padding dropped, cut at eos); the
 * number held */
static Outcome
str_tokens(Gathering *g, PyObject **items, Py_ssize_t size, Py_ssize_t *length,
           int *padding_only)
{
    int started = 0, specials = g->pad.set || g->eos.set;
    Py_ssize_t kept = 0, i = 0;
    if (hold_room(g, size) != GATHERED) return FAILED;
    for (; i < size; i++) {
        PyObject *token = items[i];
        if (!is_str_token(token)) return NOT_HANDLED;
        if (specials) {
            int padding = same_str(&g->pad, token);
            if (PyErr_Occurred()) return FAILED;
            started |= !padding;
            int end = started && same_str(&g->eos, token);
            if (PyErr_Occurred()) return FAILED;
            if (end) break;
            if (padding) continue;
        }
        started = 1;
        if (hold_in_room(g, token) != GATHERED) return FAILED;
        kept++;
    }
    if (i < size) {
        Outcome outcome = rest_of_kind(g, items, i + 1, size);
        if (outcome != GATHERED) return outcome;
    }
    *length = kept;
    *padding_only = size > 0 && !started;
    return GATHERED;
}

/* a sentence of tokens: ids (int tokens, arrays) or held (str tokens); its length (ids or
 * str held), and whether it is nothing but padding (a reference that is so is absent) */
static Outcome
gather_tokens(Gathering *g, PyObject *sentence, Py_ssize_t *length, int *padding_only)
{
    int form = is_sentence(sentence) ? 1 : 2;
    if (g->form[g->side] != 0 && g->form[g->side] != form) return NOT_HANDLED;
    g->form[g->side] = form;
    if (form == 2) {
        if (g->arrays && PyObject_CheckBuffer(sentence) && !PyBytes_Check(sentence)
            && !PyByteArray_Check(sentence))
            return gather_array(g, sentence, length, padding_only);
        return NOT_HANDLED;
    }
    /* no Python code runs below but str comparisons: the items stay */
    Py_ssize_t size = PySequence_Fast_GET_SIZE(sentence);
    PyObject **items = PySequence_Fast_ITEMS(sentence);
    if (size > 0 && g->kind == KIND_UNKNOWN) {
        Outcome outcome = set_kind(g, items[0]);
        if (outcome != GATHERED) return outcome;
    }
    if (g->kind == KIND_STR) return str_tokens(g, items, size, length, padding_only);
    return int_tokens(g, items, size, length, padding_only);
}

/* a line of text: held (after transform) for the second pass */
static Outcome
gather_line(Gathering *g, PyObject *line, Py_ssize_t *length)
{
    if (!PyUnicode_Check(line)) return NOT_HANDLED;
    if (g->transform == NULL) {
        *length = 1;
        return hold(g, line);
    }
    PyObject *changed = bs_call_for_str(g->transform, line, "transform");
    if (changed == NULL) return FAILED;
    Outcome outcome = hold(g, changed);
    Py_DECREF(changed);
    *length = 1;
    return outcome;
}

static Outcome
gather_sentence(Gathering *g, PyObject *sentence, Py_ssize_t *length, int *padding_only)
{
    *padding_only = 0;
    Py_INCREF(sentence); /* held while read: transform may drop the list's reference */
    Outcome outcome = g->text ? gather_line(g, sentence, length)
                              : gather_tokens(g, sentence, length, padding_only);
    Py_DECREF(sentence);
    return outcome;
}

/* whether a row is one reference itself: a str (text), or an array (token mode) */
static inline int
single(const Gathering *g, PyObject *row)
{
    return g->text ? PyUnicode_Check(row) : !is_sentence(row) && PyObject_CheckBuffer(row);
}

/* the number of references of a row, or -1 where the row is of no accepted type */
static Py_ssize_t
row_size(const Gathering *g, PyObject *row)
{
    if (single(g, row)) return 1;
    return is_sentence(row) ? PySequence_Fast_GET_SIZE(row) : -1;
}

/* the reference k of a row (borrowed), NULL where the row has fewer now */
static PyObject *
row_item(const Gathering *g, PyObject *row, Py_ssize_t k)
{
    if (single(g, row)) return k == 0 ? row : NULL;
    return k < PySequence_Fast_GET_SIZE(row) ? PySequence_Fast_ITEMS(row)[k] : NULL;
}

/* the first pass: every row read; the layout's starts and lengths count ids (int tokens)
 * or str held (the second pass makes them ids) */
static Outcome
read_rows(Gathering *g, PyObject *hypotheses, PyObject *references, Layout *out)
{
    Py_ssize_t rows = out->rows, refs = out->refs;
    int64_t *hyp_starts = out->layout, *hyp_lengths = hyp_starts + rows;
    int64_t *ref_starts = hyp_lengths + rows, *ref_lengths = ref_starts + rows * refs;
    out->missing = -1;
    for (Py_ssize_t b = 0; b < rows; b++) { /* row after row: its hypothesis, its references */
        if (b >= PySequence_Fast_GET_SIZE(hypotheses) || b >= PySequence_Fast_GET_SIZE(references))
            return NOT_HANDLED;
        Py_ssize_t length = 0;
        int padding_only = 0;
        g->side = 0;
        hyp_starts[b] = g->ids.size + g->held.size;
        Outcome outcome = gather_sentence(g, PySequence_Fast_ITEMS(hypotheses)[b], &length,
                                          &padding_only);
        if (outcome != GATHERED) return outcome;
        hyp_lengths[b] = length;
        g->side = 1;
        PyObject *row = Py_NewRef(PySequence_Fast_ITEMS(references)[b]);
        int found = 0;
        outcome = row_size(g, row) < 0 ? NOT_HANDLED : GATHERED;
        for (Py_ssize_t k = 0; k < refs && outcome == GATHERED; k++) {
            Py_ssize_t slot = b * refs + k;
            ref_starts[slot] = g->ids.size + g->held.size;
            ref_lengths[slot] = 0;
            PyObject *sentence = row_item(g, row, k);
            if (sentence == NULL || (g->text && sentence == Py_None)) continue;
            outcome = gather_sentence(g, sentence, &length, &padding_only);
            if (padding_only) { /* absent: whatever it held goes (nothing but padding) */
                continue;
            }
            ref_lengths[slot] = length;
            out->present[slot] = 1;
            found = 1;
        }
        Py_DECREF(row);
        if (outcome != GATHERED) return outcome;
        if (!found && out->missing < 0) out->missing = b;
    }
    return GATHERED;
}

/* the token ids of held items [first, first + count) appended (a line each in text mode,
 * a token each otherwise): their number, or < 0 (-1 no memory, -2 an exception is set,
 * the GIL held) */
static Py_ssize_t
number_held(Gathering *g, Py_ssize_t first, Py_ssize_t count)
{
    if (!g->text)
        return bs_number_tokens_raw(g->numbering, g->held.items + first, count, &g->ids) < 0
                   ? -1
                   : count;
    Py_ssize_t total = 0;
    for (Py_ssize_t k = first; k < first + count; k++) {
        Py_ssize_t n = bs_number_line_raw(g->numbering, g->held.items[k].object, &g->ids);
        if (n < 0) return n;
        total += n;
    }
    return total;
}

/* the second pass: what is held numbered row after row, the layout made of ids */
static Py_ssize_t
number_rows(Gathering *g, Layout *out)
{
    Py_ssize_t rows = out->rows, refs = out->refs;
    int64_t *hyp_starts = out->layout, *hyp_lengths = hyp_starts + rows;
    int64_t *ref_starts = hyp_lengths + rows, *ref_lengths = ref_starts + rows * refs;
    for (Py_ssize_t b = 0; b < rows; b++) {
        if (bs_watch_poll(g->watch)) return -3; /* stopped: the caller raises */
        if (g->by_row) bs_numbering_next_row(g->numbering);
        Py_ssize_t start = g->ids.size;
        Py_ssize_t n = number_held(g, hyp_starts[b], hyp_lengths[b]);
        if (n < 0) return n;
        hyp_starts[b] = start;
        hyp_lengths[b] = n;
        for (Py_ssize_t k = 0; k < refs; k++) {
            Py_ssize_t slot = b * refs + k;
            start = g->ids.size;
            n = out->present[slot] ? number_held(g, ref_starts[slot], ref_lengths[slot]) : 0;
            if (n < 0) return n;
            ref_starts[slot] = start;
            ref_lengths[slot] = n;
        }
    }
    return 0;
}

const char bs_gather_doc[] =
    "gather(hypotheses, references, numbering, text, pad, eos, transform, by_row, /)\n--\n\n"
    "The sentences of a scoring call as flat int64 ids in rows: (ids, layout, present, R,\n"
    "missing), or None where the input is not of the accepted forms (see gather.c).";

PyObject *
bs_gather(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("gather", nargs, 8, 8) < 0) return NULL;
    PyObject *hypotheses = args[0], *references = args[1], *numbering = args[2];
    int text = PyObject_IsTrue(args[3]);
    if (text < 0) return NULL;
    int by_row = PyObject_IsTrue(args[7]);
    if (by_row < 0) return NULL;
    if (!is_sentence(hypotheses) || !is_sentence(references)
        || PySequence_Fast_GET_SIZE(hypotheses) != PySequence_Fast_GET_SIZE(references))
        Py_RETURN_NONE;
    if (text && numbering == Py_None) {
        PyErr_SetString(PyExc_ValueError, "text needs a numbering");
        return NULL;
    }
    Gathering g = {.numbering = numbering == Py_None ? NULL : numbering,
                   .text = text,
                   .arrays = !text,
                   .transform = args[6] == Py_None ? NULL : args[6],
                   .kind = KIND_UNKNOWN,
                   .pad = {args[4], 0, 0},
                   .eos = {args[5], 0, 0},
                   .by_row = by_row && numbering != Py_None};
    Layout out = {PySequence_Fast_GET_SIZE(hypotheses), 1, NULL, NULL, -1};
    for (Py_ssize_t b = 0; b < out.rows; b++) {
        Py_ssize_t size = row_size(&g, PySequence_Fast_ITEMS(references)[b]);
        if (size < 0) Py_RETURN_NONE;
        if (size > out.refs) out.refs = size;
    }
    if (g.numbering != NULL && bs_numbering_begin(g.numbering, !text) < 0) return NULL;
    if (g.by_row && bs_numbering_rows(g.numbering) < 0) {
        bs_numbering_end(g.numbering);
        return NULL;
    }
    PyObject *result = NULL, *ids = NULL, *layout = NULL, *present = NULL;
    Py_ssize_t slots = bs_checked_mul(out.rows, out.refs);
    Py_ssize_t entries = slots < 0 ? -1 : bs_checked_mul(2, out.rows + slots);
    if (entries < 0) goto done;
    /* writable (bytearray): the lengths and the references present are returned to callers */
    layout = PyByteArray_FromStringAndSize(NULL, entries * (Py_ssize_t)sizeof(int64_t));
    present = PyByteArray_FromStringAndSize(NULL, slots);
    if (layout == NULL || present == NULL) goto done;
    out.layout = (int64_t *)PyByteArray_AS_STRING(layout);
    out.present = (unsigned char *)PyByteArray_AS_STRING(present);
    memset(out.present, 0, (size_t)slots);
    Outcome outcome = read_rows(&g, hypotheses, references, &out);
    if (outcome == NOT_HANDLED) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (outcome == FAILED) goto done;
    if (g.text || g.kind == KIND_STR) {
        Py_ssize_t failed;
        bs_Watch watch;
        bs_watch_begin(&watch);
        g.watch = &watch;
        if (bs_numbering_pure(g.numbering)) { /* no Python code: other threads run */
            bs_numbering_free_gil(g.numbering, 1);
            Py_BEGIN_ALLOW_THREADS
            failed = number_rows(&g, &out);
            Py_END_ALLOW_THREADS
            bs_numbering_free_gil(g.numbering, 0);
        }
        else failed = number_rows(&g, &out);
        if (failed == -1) PyErr_NoMemory();
        if (failed == -3) bs_watch_end(&watch); /* KeyboardInterrupt */
        if (failed < 0) goto done;
    }
    ids = PyBytes_FromStringAndSize((const char *)g.ids.items,
                                    g.ids.size * (Py_ssize_t)sizeof(int64_t));
    if (ids != NULL)
        result = Py_BuildValue("(OOOnn)", ids, layout, present, out.refs, out.missing);
done:
    if (g.by_row) bs_numbering_rows_end(g.numbering);
    if (g.numbering != NULL) bs_numbering_end(g.numbering);
    for (Py_ssize_t k = 0; k < g.held.size; k++) Py_XDECREF(g.held.items[k].object);
    PyMem_RawFree(g.held.items);
    PyMem_RawFree(g.ids.items);
    Py_XDECREF(ids);
    Py_XDECREF(layout);
    Py_XDECREF(present);
    return result;
}
