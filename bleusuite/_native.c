/* bleusuite._native: the optional compiled part of bleusuite (bleusuite/native.py).
 *
 * Two jobs of the text route that bleusuite also does in Python and NumPy, with the same
 * results, where this is not built:
 *
 * 1. WordIndex (bleusuite/text.py): `index.number(lines)` splits each line as
 * `str.split()` does (on the interpreter's own whitespace, Py_UNICODE_ISSPACE) and gives
 * each word its id: the position of its first appearance among all the words this index
 * has numbered, the same ids as the plain-Python numbering in bleusuite.text (a dict that
 * numbers its keys in the order they are first looked up). A line that holds a "\n" is one
 * unit, `line.rstrip()`, as in bleusuite.text.
 *
 * A word is looked up by its code points in an open-addressing table, with no str object
 * made for it; only a new word becomes a str (appended to `index.words`). Words are compared
 * by code points, so the same word read from lines of different widths (1, 2 or 4 bytes per
 * character) is one word.
 *
 * 2. clipped_matches (bleusuite/cli/statistics.py): for each line, the clipped n-gram
 * matches of orders 1..N of several systems' token ids against shared references (BLEU's,
 * clipped by the largest count in one reference, and per reference for GLEU), read from
 * the ragged ids (see its docstring).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    uint64_t hash;
    Py_ssize_t id; /* -1: an empty slot */
} Slot;

typedef struct {
    PyObject_HEAD
    Slot *slots;
    size_t mask;     /* capacity - 1; the capacity is a power of two */
    PyObject *words; /* list of str: the word of each id */
} WordIndex;

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* whether each of the first 256 code points is whitespace (Py_UNICODE_ISSPACE) */
static unsigned char latin1_space[256];

static inline int
is_space(Py_UCS4 c)
{
    return c < 256 ? latin1_space[c] : Py_UNICODE_ISSPACE(c);
}

static int
same_chars(PyObject *word, int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t length = end - start;
    if (PyUnicode_GET_LENGTH(word) != length) return 0;
    int word_kind = PyUnicode_KIND(word);
    const void *word_data = PyUnicode_DATA(word);
    if (word_kind == kind)
        return memcmp(word_data, (const char *)data + start * kind, (size_t)(length * kind)) == 0;
    for (Py_ssize_t i = 0; i < length; i++) {
        if (PyUnicode_READ(word_kind, word_data, i) != PyUnicode_READ(kind, data, start + i))
            return 0;
    }
    return 1;
}

static int
grow(WordIndex *self)
{
    size_t capacity = (self->mask + 1) * 2;
    Slot *slots = PyMem_Malloc(capacity * sizeof(Slot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < capacity; k++) slots[k].id = -1;
    for (size_t k = 0; k <= self->mask; k++) {
        Slot slot = self->slots[k];
        if (slot.id < 0) continue;
        size_t at = (size_t)slot.hash & (capacity - 1);
        while (slots[at].id >= 0) at = (at + 1) & (capacity - 1);
        slots[at] = slot;
    }
    PyMem_Free(self->slots);
    self->slots = slots;
    self->mask = capacity - 1;
    return 0;
}

/* the id of the word line[start:end], numbering it if it is new; -1 on an error */
static Py_ssize_t
word_id(WordIndex *self, PyObject *line, int kind, const void *data, Py_ssize_t start,
        Py_ssize_t end, uint64_t hash)
{
    size_t at = (size_t)hash & self->mask;
    for (;;) {
        Slot *slot = &self->slots[at];
        if (slot->id < 0) break;
        if (slot->hash == hash
            && same_chars(PyList_GET_ITEM(self->words, slot->id), kind, data, start, end))
            return slot->id;
        at = (at + 1) & self->mask;
    }
    Py_ssize_t id = PyList_GET_SIZE(self->words);
    PyObject *word = PyUnicode_Substring(line, start, end);
    if (word == NULL) return -1;
    int failed = PyList_Append(self->words, word);
    Py_DECREF(word);
    if (failed) return -1;
    self->slots[at].hash = hash;
    self->slots[at].id = id;
    if ((size_t)(id + 1) * 2 > self->mask + 1 && grow(self) < 0) return -1;
    return id;
}

typedef struct {
    int64_t *ids;
    Py_ssize_t size, capacity;
} Ids;

static int
push(Ids *ids, Py_ssize_t id)
{
    if (ids->size == ids->capacity) {
        Py_ssize_t capacity = ids->capacity ? ids->capacity * 2 : 1024;
        int64_t *grown = PyMem_Realloc(ids->ids, (size_t)capacity * sizeof(int64_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        ids->ids = grown;
        ids->capacity = capacity;
    }
    ids->ids[ids->size++] = (int64_t)id;
    return 0;
}

/* the hash of a word, from FNV-1a over its code points: a finaliser mixes in the length
 * and spreads the bits (the table's index takes the low bits) */
static inline uint64_t
finish_hash(uint64_t h, Py_ssize_t length)
{
    h ^= (uint64_t)length;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* the words of one line of characters of type CHAR, appended to ids: their number, or -1 on
 * an error */
#define NUMBER_WORDS(NAME, CHAR)                                                            \
    static Py_ssize_t NAME(WordIndex *self, PyObject *line, int kind, const CHAR *chars,    \
                           Py_ssize_t length, Ids *ids)                                     \
    {                                                                                       \
        Py_ssize_t i = 0, words = 0;                                                        \
        for (;;) {                                                                          \
            while (i < length && is_space(chars[i])) i++;                                   \
            if (i == length) return words;                                                  \
            Py_ssize_t start = i;                                                           \
            uint64_t h = FNV_OFFSET;                                                        \
            while (i < length && !is_space(chars[i])) h = (h ^ chars[i++]) * FNV_PRIME;     \
            Py_ssize_t id = word_id(self, line, kind, chars, start, i,                      \
                                    finish_hash(h, i - start));                             \
            if (id < 0 || push(ids, id) < 0) return -1;                                     \
            words++;                                                                        \
        }                                                                                   \
    }

NUMBER_WORDS(number_words_1, Py_UCS1)
NUMBER_WORDS(number_words_2, Py_UCS2)
NUMBER_WORDS(number_words_4, Py_UCS4)

/* the units of one line, appended to ids: their number, or -1 on an error */
static Py_ssize_t
number_line(WordIndex *self, PyObject *line, Ids *ids)
{
    int kind = PyUnicode_KIND(line);
    const void *data = PyUnicode_DATA(line);
    Py_ssize_t length = PyUnicode_GET_LENGTH(line);
    if (PyUnicode_FindChar(line, '\n', 0, length, 1) >= 0) {
        /* one unit: the line, stripped of its trailing whitespace */
        while (length > 0 && is_space(PyUnicode_READ(kind, data, length - 1))) length--;
        uint64_t h = FNV_OFFSET;
        for (Py_ssize_t i = 0; i < length; i++)
            h = (h ^ PyUnicode_READ(kind, data, i)) * FNV_PRIME;
        Py_ssize_t id = word_id(self, line, kind, data, 0, length, finish_hash(h, length));
        return (id < 0 || push(ids, id) < 0) ? -1 : 1;
    }
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        return number_words_1(self, line, kind, data, length, ids);
    case PyUnicode_2BYTE_KIND:
        return number_words_2(self, line, kind, data, length, ids);
    default:
        return number_words_4(self, line, kind, data, length, ids);
    }
}

PyDoc_STRVAR(number_doc,
"number(lines, /)\n--\n\n"
"Split each line (a list of str) on whitespace as str.split() does, and number its words\n"
"by first appearance (a line that holds a newline is one unit: line.rstrip()). Returns\n"
"(ids, counts): bytes of native int64, the id of every word line after line, and the\n"
"number of words of each line.");

static PyObject *
WordIndex_number(WordIndex *self, PyObject *lines)
{
    if (!PyList_Check(lines)) {
        PyErr_Format(PyExc_TypeError, "lines must be a list of str, not %.100s",
                     Py_TYPE(lines)->tp_name);
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(lines);
    PyObject *counts = PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(int64_t));
    if (counts == NULL) return NULL;
    int64_t *per_line = (int64_t *)PyBytes_AS_STRING(counts);
    Ids ids = {NULL, 0, 0};
    for (Py_ssize_t k = 0; k < count; k++) { /* numbering runs no Python code */
        PyObject *line = PyList_GET_ITEM(lines, k);
        if (!PyUnicode_Check(line)) {
            PyErr_Format(PyExc_TypeError, "lines[%zd] must be a str, not %.100s", k,
                         Py_TYPE(line)->tp_name);
            goto error;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(line) < 0) goto error;
#endif
        Py_ssize_t words = number_line(self, line, &ids);
        if (words < 0) goto error;
        per_line[k] = (int64_t)words;
    }
    PyObject *flat = PyBytes_FromStringAndSize((const char *)ids.ids,
                                              ids.size * (Py_ssize_t)sizeof(int64_t));
    PyMem_Free(ids.ids);
    if (flat == NULL) {
        Py_DECREF(counts);
        return NULL;
    }
    return Py_BuildValue("(NN)", flat, counts);
error:
    PyMem_Free(ids.ids);
    Py_DECREF(counts);
    return NULL;
}

static int
WordIndex_init(WordIndex *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, ":WordIndex", keywords)) return -1;
    Slot *slots = PyMem_Malloc(1024 * sizeof(Slot));
    PyObject *words = PyList_New(0);
    if (slots == NULL || words == NULL) {
        PyMem_Free(slots);
        Py_XDECREF(words);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < 1024; k++) slots[k].id = -1;
    PyMem_Free(self->slots);
    Py_XSETREF(self->words, words);
    self->slots = slots;
    self->mask = 1023;
    return 0;
}

static void
WordIndex_dealloc(WordIndex *self)
{
    PyMem_Free(self->slots);
    Py_XDECREF(self->words);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
WordIndex_words(WordIndex *self, void *closure)
{
    if (self->words == NULL) {
        PyErr_SetString(PyExc_ValueError, "WordIndex was not initialised");
        return NULL;
    }
    return Py_NewRef(self->words);
}

static PyObject *
WordIndex_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    WordIndex *self = (WordIndex *)type->tp_alloc(type, 0);
    if (self != NULL) {
        self->slots = NULL;
        self->mask = 0;
        self->words = NULL;
    }
    return (PyObject *)self;
}

static PyObject *
WordIndex_number_checked(WordIndex *self, PyObject *lines)
{
    if (self->words == NULL) {
        PyErr_SetString(PyExc_ValueError, "WordIndex was not initialised");
        return NULL;
    }
    return WordIndex_number(self, lines);
}

static PyMethodDef WordIndex_methods[] = {
    {"number", (PyCFunction)WordIndex_number_checked, METH_O, number_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef WordIndex_getset[] = {
    {"words", (getter)WordIndex_words, NULL,
     "The word of each id, in order (the list itself: do not change it).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(WordIndex_doc,
"WordIndex()\n--\n\n"
"Numbers the whitespace-separated words of lines by first appearance (see number()).");

static PyTypeObject WordIndexType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bleusuite._native.WordIndex",
    .tp_basicsize = sizeof(WordIndex),
    .tp_dealloc = (destructor)WordIndex_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = WordIndex_doc,
    .tp_methods = WordIndex_methods,
    .tp_getset = WordIndex_getset,
    .tp_init = (initproc)WordIndex_init,
    .tp_new = WordIndex_new,
};

/* ------------------------------------------------------------------ clipped matches */

/* one distinct n-gram of a line's references: where it first occurs, its order, its
 * largest count in one reference, and how many of its occurrences the current system line
 * has met; its count in each reference is in GramTable.counts (R per slot) */
typedef struct {
    uint64_t hash;
    int64_t start; /* index into ids */
    uint32_t order;
    uint32_t most; /* the largest count in one reference: BLEU's clip */
    uint32_t used;
    uint32_t stamp; /* the system line `used` counts for */
    uint32_t line;  /* the line this entry belongs to (else the entry is free) */
} Gram;

typedef struct {
    Gram *grams;
    uint32_t *counts; /* (capacity, R): the count of each slot's n-gram in each reference */
    size_t mask;
    Py_ssize_t references;
    uint32_t line, stamp;
} GramTable;

static inline uint64_t
gram_step(uint64_t h, int64_t id)
{
    h = (h ^ (uint64_t)id) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

static inline uint64_t
gram_hash(uint64_t h, uint32_t order)
{
    h ^= (uint64_t)order * 0xc2b2ae3d27d4eb4fULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/* the entry of the n-gram ids[start:start + order], or NULL; *free_slot: where it would go */
static inline Gram *
find_gram(GramTable *table, const int64_t *ids, int64_t start, uint32_t order, uint64_t hash,
          Gram **free_slot)
{
    size_t at = (size_t)hash & table->mask;
    for (;;) {
        Gram *gram = &table->grams[at];
        if (gram->line != table->line) {
            *free_slot = gram;
            return NULL;
        }
        if (gram->hash == hash && gram->order == order
            && memcmp(ids + gram->start, ids + start, order * sizeof(int64_t)) == 0)
            return gram;
        at = (at + 1) & table->mask;
    }
}

/* a fresh line of the table, with room for `grams` entries at a load of at most 1/2 */
static int
new_line(GramTable *table, size_t grams)
{
    size_t capacity = table->mask + 1;
    if (table->grams == NULL || grams * 2 > capacity || table->line == UINT32_MAX) {
        while (grams * 2 > capacity) capacity *= 2;
        Gram *fresh = PyMem_Calloc(capacity, sizeof(Gram));
        uint32_t *counts = PyMem_Calloc(capacity * (size_t)table->references, sizeof(uint32_t));
        if (fresh == NULL || counts == NULL) {
            PyMem_Free(fresh);
            PyMem_Free(counts);
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(table->grams);
        PyMem_Free(table->counts);
        table->grams = fresh;
        table->counts = counts;
        table->mask = capacity - 1;
        table->line = 0;
        table->stamp = 0;
    }
    table->line++;
    return 0;
}

static int
int64_buffer(PyObject *object, Py_buffer *view, const char *name, Py_ssize_t length)
{
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError)
            || PyErr_ExceptionMatches(PyExc_BufferError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous int64 array, not %.100s",
                         name, Py_TYPE(object)->tp_name);
        }
        return -1;
    }
    const char *format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (view->itemsize != 8 || (strcmp(format, "q") != 0 && strcmp(format, "l") != 0)) {
        PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous int64 array, not of format %.20s",
                     name, view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
    if (length >= 0 && view->len / 8 != length) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd values, not %zd", name, length,
                     view->len / 8);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(clipped_matches_doc,
"clipped_matches(ids, starts, lengths, systems, max_order, /)\n--\n\n"
"Clipped n-gram matches of several systems against shared references, line by line.\n\n"
"ids: every token id (int64, C-contiguous); starts and lengths: (S + R, B) int64, where\n"
"line b of stream s is ids[starts[s, b] : starts[s, b] + lengths[s, b]]; streams 0..S-1\n"
"(systems = S) are the systems and the R >= 1 others the references. Returns (clipped,\n"
"per_reference), bytes of native int64 of shapes (B, S, max_order) and (B, S, R,\n"
"max_order): for each line, system and order n, the sum over the system's distinct\n"
"n-grams g of min(count of g in the system's line, largest count of g in one reference\n"
"line) (BLEU's clipped matches), and for each reference the sum of min(count in the\n"
"system's line, count in that reference line).");

static PyObject *
clipped_matches(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "clipped_matches takes 5 arguments, not %zd", nargs);
        return NULL;
    }
    Py_ssize_t systems = PyLong_AsSsize_t(args[3]);
    if (systems == -1 && PyErr_Occurred()) return NULL;
    long max_order_long = PyLong_AsLong(args[4]);
    if (max_order_long == -1 && PyErr_Occurred()) return NULL;
    if (max_order_long < 1 || max_order_long > 1000000) {
        PyErr_Format(PyExc_ValueError, "max_order must be at least 1, not %ld", max_order_long);
        return NULL;
    }
    uint32_t max_order = (uint32_t)max_order_long;
    Py_buffer ids_view, starts_view, lengths_view;
    if (int64_buffer(args[0], &ids_view, "ids", -1) < 0) return NULL;
    if (int64_buffer(args[1], &starts_view, "starts", -1) < 0) {
        PyBuffer_Release(&ids_view);
        return NULL;
    }
    if (int64_buffer(args[2], &lengths_view, "lengths", starts_view.len / 8) < 0) {
        PyBuffer_Release(&ids_view);
        PyBuffer_Release(&starts_view);
        return NULL;
    }
    PyObject *clipped = NULL, *per_reference = NULL, *result = NULL;
    GramTable table = {NULL, NULL, 15, 1, 0, 0};
    if (starts_view.ndim != 2) {
        PyErr_SetString(PyExc_ValueError, "starts must be a (streams, lines) array");
        goto done;
    }
    Py_ssize_t streams = starts_view.shape[0], lines = starts_view.shape[1];
    if (systems < 1 || systems >= streams) {
        PyErr_Format(PyExc_ValueError,
                     "systems must be between 1 and the number of streams - 1 (%zd), not %zd",
                     streams - 1, systems);
        goto done;
    }
    Py_ssize_t references = streams - systems, size = ids_view.len / 8;
    table.references = references;
    const int64_t *ids = ids_view.buf, *starts = starts_view.buf, *lengths = lengths_view.buf;
    for (Py_ssize_t k = 0; k < streams * lines; k++) {
        if (lengths[k] < 0 || starts[k] < 0 || starts[k] > size - lengths[k]) {
            PyErr_Format(PyExc_ValueError,
                         "line %zd of stream %zd (start %lld, length %lld) is outside ids",
                         k % lines, k / lines, (long long)starts[k], (long long)lengths[k]);
            goto done;
        }
    }
    Py_ssize_t per_line = systems * (Py_ssize_t)max_order;
    clipped = PyBytes_FromStringAndSize(NULL, lines * per_line * (Py_ssize_t)sizeof(int64_t));
    per_reference = PyBytes_FromStringAndSize(
        NULL, lines * per_line * references * (Py_ssize_t)sizeof(int64_t));
    if (clipped == NULL || per_reference == NULL) goto done;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(clipped);
    int64_t *out_r = (int64_t *)PyBytes_AS_STRING(per_reference);
    memset(out, 0, (size_t)(lines * per_line) * sizeof(int64_t));
    memset(out_r, 0, (size_t)(lines * per_line * references) * sizeof(int64_t));
    for (Py_ssize_t b = 0; b < lines; b++) {
        size_t grams = 0;
        for (Py_ssize_t r = 0; r < references; r++) {
            size_t length = (size_t)lengths[(systems + r) * lines + b];
            grams += length * (length < max_order ? length : max_order);
        }
        if (grams == 0) continue; /* no reference n-gram: nothing matches */
        if (new_line(&table, grams) < 0) goto done;
        for (Py_ssize_t r = 0; r < references; r++) { /* each reference's n-grams, counted */
            int64_t ref = starts[(systems + r) * lines + b];
            int64_t ref_len = lengths[(systems + r) * lines + b];
            for (int64_t i = 0; i < ref_len; i++) {
                uint64_t h = 0x243f6a8885a308d3ULL;
                for (uint32_t n = 1; n <= max_order && i + n <= ref_len; n++) {
                    h = gram_step(h, ids[ref + i + n - 1]);
                    uint64_t hash = gram_hash(h, n);
                    Gram *slot, *gram = find_gram(&table, ids, ref + i, n, hash, &slot);
                    if (gram == NULL) {
                        *slot = (Gram){hash, ref + i, n, 0, 0, 0, table.line};
                        memset(table.counts + (slot - table.grams) * references, 0,
                               (size_t)references * sizeof(uint32_t));
                        gram = slot;
                    }
                    uint32_t count = ++table.counts[(gram - table.grams) * references + r];
                    if (count > gram->most) gram->most = count;
                }
            }
        }
        for (Py_ssize_t s = 0; s < systems; s++) { /* each system's n-grams, clipped */
            int64_t hyp = starts[s * lines + b], hyp_len = lengths[s * lines + b];
            int64_t *matches = out + b * per_line + s * (Py_ssize_t)max_order;
            int64_t *matches_r = out_r + (b * per_line + s * (Py_ssize_t)max_order) * references;
            if (table.stamp == UINT32_MAX) { /* restart the stamps: forget every `used` */
                for (size_t k = 0; k <= table.mask; k++) table.grams[k].stamp = 0;
                table.stamp = 0;
            }
            uint32_t stamp = ++table.stamp;
            for (int64_t j = 0; j < hyp_len; j++) {
                uint64_t h = 0x243f6a8885a308d3ULL;
                for (uint32_t n = 1; n <= max_order && j + n <= hyp_len; n++) {
                    h = gram_step(h, ids[hyp + j + n - 1]);
                    Gram *slot, *gram = find_gram(&table, ids, hyp + j, n, gram_hash(h, n),
                                                  &slot);
                    if (gram == NULL) break; /* no longer n-gram from here is either */
                    if (gram->stamp != stamp) {
                        gram->stamp = stamp;
                        gram->used = 0;
                    }
                    if (gram->used >= gram->most) continue; /* clipped in every reference */
                    uint32_t used = ++gram->used;
                    matches[n - 1]++;
                    const uint32_t *counts = table.counts + (gram - table.grams) * references;
                    for (Py_ssize_t r = 0; r < references; r++)
                        if (used <= counts[r]) matches_r[r * (Py_ssize_t)max_order + n - 1]++;
                }
            }
        }
    }
    result = PyTuple_Pack(2, clipped, per_reference);
done:
    Py_XDECREF(clipped);
    Py_XDECREF(per_reference);
    PyMem_Free(table.grams);
    PyMem_Free(table.counts);
    PyBuffer_Release(&ids_view);
    PyBuffer_Release(&starts_view);
    PyBuffer_Release(&lengths_view);
    return result;
}

static PyMethodDef native_functions[] = {
    {"clipped_matches", (PyCFunction)(void (*)(void))clipped_matches, METH_FASTCALL,
     clipped_matches_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bleusuite._native",
    .m_doc = "bleusuite's optional compiled part: WordIndex and clipped_matches.",
    .m_size = -1,
    .m_methods = native_functions,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    for (Py_UCS4 c = 0; c < 256; c++) latin1_space[c] = Py_UNICODE_ISSPACE(c) ? 1 : 0;
    if (PyType_Ready(&WordIndexType) < 0) return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL) return NULL;
    Py_INCREF(&WordIndexType);
    if (PyModule_AddObject(module, "WordIndex", (PyObject *)&WordIndexType) < 0) {
        Py_DECREF(&WordIndexType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
