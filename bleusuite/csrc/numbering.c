/* Numbering: lines of text -> token ids, the tokenizer called once per distinct word.
 *
 * `Numbering(tokenize)` splits each line as `str.split()` does (on the interpreter's own
 * whitespace, Py_UNICODE_ISSPACE). With `tokenize` None the words are the tokens.
 * Otherwise each word is a unit (a line that holds a "\n" is one unit, `line.rstrip()`),
 * and a unit seen for the first time is passed to `tokenize` (a callable: str -> str),
 * whose result is split on whitespace into tokens; the unit's token ids are kept in its
 * table slot, so every later occurrence costs one lookup.
 * A token's id is the position of its first appearance among all the tokens this
 * Numbering has numbered (the ids of bleusuite.text's Python numbering).
 *
 * A unit or token is looked up by its code points in an open-addressing table, with no str
 * object made for it; only a new one becomes a str. Code points are compared whatever the
 * width of the str that holds them (1, 2 or 4 bytes per character), so a word read from
 * lines of different widths is one word.
 */
#include "native.h"

#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* whether each of the first 256 code points is whitespace (Py_UNICODE_ISSPACE) */
static unsigned char latin1_space[256];

static inline int
is_space(Py_UCS4 c)
{
    return c < 256 ? latin1_space[c] : Py_UNICODE_ISSPACE(c);
}

typedef struct {
    uint64_t hash;
    PyObject *string; /* NULL: an empty slot */
    Py_ssize_t id;
    int64_t first; /* units: the only token's id (count 1), else an index into unit_tokens */
    int64_t count; /* units: their number of tokens */
} Slot;

/* strings numbered by first appearance, in an open-addressing table over code points */
typedef struct {
    Slot *slots;
    size_t mask; /* capacity - 1, a power of two */
    Py_ssize_t size;
} StrTable;

static int
strtable_init(StrTable *table)
{
    table->slots = PyMem_Calloc(1024, sizeof(Slot));
    table->mask = 1023;
    table->size = 0;
    return table->slots == NULL ? -1 : 0;
}

static void
strtable_free(StrTable *table)
{
    if (table->slots != NULL)
        for (size_t k = 0; k <= table->mask; k++) Py_XDECREF(table->slots[k].string);
    PyMem_Free(table->slots);
    table->slots = NULL;
    table->size = 0;
}

static inline int
same_chars(PyObject *word, int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t length = end - start;
    if (PyUnicode_GET_LENGTH(word) != length) return 0;
    int word_kind = PyUnicode_KIND(word);
    const void *word_data = PyUnicode_DATA(word);
    if (word_kind == kind)
        return memcmp(word_data, (const char *)data + start * kind, (size_t)length * kind) == 0;
    for (Py_ssize_t i = 0; i < length; i++)
        if (PyUnicode_READ(word_kind, word_data, i) != PyUnicode_READ(kind, data, start + i))
            return 0;
    return 1;
}

/* the slot of text[start:end]: where it is, or the empty slot where it would go */
static inline Slot *
strtable_slot(const StrTable *table, int kind, const void *data, Py_ssize_t start,
              Py_ssize_t end, uint64_t hash)
{
    size_t at = (size_t)hash & table->mask;
    for (;;) {
        Slot *slot = &table->slots[at];
        if (slot->string == NULL
            || (slot->hash == hash && same_chars(slot->string, kind, data, start, end)))
            return slot;
        at = (at + 1) & table->mask;
    }
}

/* room for one more string at a load of at most 1/2; -1 with an exception */
static int
strtable_reserve(StrTable *table)
{
    if ((size_t)(table->size + 1) * 2 <= table->mask + 1) return 0;
    size_t capacity = (table->mask + 1) * 2;
    Slot *slots = PyMem_Calloc(capacity, sizeof(Slot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k <= table->mask; k++) {
        Slot slot = table->slots[k];
        if (slot.string == NULL) continue;
        size_t at = (size_t)slot.hash & (capacity - 1);
        while (slots[at].string != NULL) at = (at + 1) & (capacity - 1);
        slots[at] = slot;
    }
    PyMem_Free(table->slots);
    table->slots = slots;
    table->mask = capacity - 1;
    return 0;
}

/* give `string` (a new reference, taken over) the next id in the empty `slot`, found by
 * strtable_slot after strtable_reserve with no insertion in between */
static inline Py_ssize_t
strtable_insert(StrTable *table, Slot *slot, PyObject *string, uint64_t hash)
{
    slot->hash = hash;
    slot->string = string;
    slot->id = table->size++;
    slot->first = slot->count = 0;
    return slot->id;
}

/* the hash of code points, FNV-1a with a finaliser that mixes in the length and spreads the
 * bits (the table's index takes the low bits) */
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

static uint64_t
hash_chars(int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    uint64_t h = FNV_OFFSET;
    for (Py_ssize_t i = start; i < end; i++) h = (h ^ PyUnicode_READ(kind, data, i)) * FNV_PRIME;
    return finish_hash(h, end - start);
}

/* a growable int64 array */
typedef struct {
    int64_t *items;
    Py_ssize_t size, capacity;
} Int64s;

static int
grow(Int64s *array)
{
    Py_ssize_t capacity = array->capacity ? array->capacity * 2 : 1024;
    if (bs_checked_mul(capacity, (Py_ssize_t)sizeof(int64_t)) < 0) return -1;
    int64_t *grown = PyMem_Realloc(array->items, (size_t)capacity * sizeof(int64_t));
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    array->items = grown;
    array->capacity = capacity;
    return 0;
}

static inline int
push(Int64s *array, int64_t value)
{
    if (array->size == array->capacity && grow(array) < 0) return -1;
    array->items[array->size++] = value;
    return 0;
}

typedef struct {
    PyObject_HEAD
    PyObject *tokenize; /* NULL: the words are the tokens */
    StrTable units;     /* the words (without tokenize: the tokens) */
    StrTable tokens;    /* with tokenize: the tokens */
    Int64s unit_tokens; /* the token ids of units of several tokens, unit after unit */
    int ready, busy;
} Numbering;

/* the id of the token text[start:end], numbering it if new; -1 with an exception */
static Py_ssize_t
token_id(StrTable *table, PyObject *text, int kind, const void *data, Py_ssize_t start,
         Py_ssize_t end, uint64_t hash)
{
    if (strtable_reserve(table) < 0) return -1;
    Slot *slot = strtable_slot(table, kind, data, start, end, hash);
    if (slot->string != NULL) return slot->id;
    PyObject *string = PyUnicode_Substring(text, start, end);
    return string == NULL ? -1 : strtable_insert(table, slot, string, hash);
}

/* the tokens of a new unit: tokenize(unit), split on whitespace, numbered; their span
 * (the id of the only token, or an index into unit_tokens) in *first and *count */
static int
tokenize_unit(Numbering *self, PyObject *unit, int64_t *first, int64_t *count)
{
    PyObject *text = PyObject_CallOneArg(self->tokenize, unit);
    if (text == NULL) return -1;
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "tokenize must return a str, not %.100s",
                     Py_TYPE(text)->tp_name);
        Py_DECREF(text);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        Py_DECREF(text);
        return -1;
    }
#endif
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text), i = 0, start;
    Py_ssize_t begin = self->unit_tokens.size;
    int failed = 0;
    for (;;) {
        while (i < length && is_space(PyUnicode_READ(kind, data, i))) i++;
        if (i == length) break;
        start = i;
        while (i < length && !is_space(PyUnicode_READ(kind, data, i))) i++;
        Py_ssize_t id = token_id(&self->tokens, text, kind, data, start, i,
                                 hash_chars(kind, data, start, i));
        if (id < 0 || push(&self->unit_tokens, id) < 0) {
            failed = 1;
            break;
        }
    }
    Py_DECREF(text);
    *count = self->unit_tokens.size - begin;
    if (failed) {
        self->unit_tokens.size = begin;
        return -1;
    }
    if (*count == 1) { /* the token's id itself, in the unit's slot */
        *first = self->unit_tokens.items[begin];
        self->unit_tokens.size = begin;
    }
    else *first = begin;
    return 0;
}

/* append the token ids of line[start:end] (one unit) to ids; their number, or -1 */
static inline Py_ssize_t
number_unit(Numbering *self, PyObject *line, int kind, const void *data, Py_ssize_t start,
            Py_ssize_t end, uint64_t hash, Int64s *ids)
{
    if (strtable_reserve(&self->units) < 0) return -1;
    Slot *slot = strtable_slot(&self->units, kind, data, start, end, hash);
    if (slot->string == NULL) {
        PyObject *string = PyUnicode_Substring(line, start, end);
        if (string == NULL) return -1;
        int64_t first = 0, count = 1;
        /* tokenised first, then numbered: tokenize cannot reach this table (busy) */
        if (self->tokenize != NULL && tokenize_unit(self, string, &first, &count) < 0) {
            Py_DECREF(string);
            return -1;
        }
        Py_ssize_t id = strtable_insert(&self->units, slot, string, hash);
        slot->first = self->tokenize != NULL ? first : id;
        slot->count = count;
    }
    if (slot->count == 1) return push(ids, slot->first) < 0 ? -1 : 1;
    if (slot->first < 0 || slot->first > self->unit_tokens.size - slot->count) {
        PyErr_SetString(PyExc_RuntimeError, "Numbering: a unit's tokens are out of range");
        return -1;
    }
    for (int64_t k = 0; k < slot->count; k++)
        if (push(ids, self->unit_tokens.items[slot->first + k]) < 0) return -1;
    return (Py_ssize_t)slot->count;
}

/* the words of a line of characters of type CHAR, numbered and appended to ids: their
 * number of tokens, or -1 */
#define NUMBER_WORDS(NAME, CHAR)                                                             \
    static Py_ssize_t NAME(Numbering *self, PyObject *line, int kind, const CHAR *chars,     \
                           Py_ssize_t length, Int64s *ids)                                   \
    {                                                                                        \
        Py_ssize_t i = 0, total = 0;                                                         \
        for (;;) {                                                                           \
            while (i < length && is_space(chars[i])) i++;                                    \
            if (i == length) return total;                                                   \
            Py_ssize_t start = i;                                                            \
            uint64_t h = FNV_OFFSET;                                                         \
            while (i < length && !is_space(chars[i])) h = (h ^ chars[i++]) * FNV_PRIME;      \
            Py_ssize_t count = number_unit(self, line, kind, chars, start, i,                \
                                           finish_hash(h, i - start), ids);                  \
            if (count < 0) return -1;                                                        \
            total += count;                                                                  \
        }                                                                                    \
    }

NUMBER_WORDS(number_words_1, Py_UCS1)
NUMBER_WORDS(number_words_2, Py_UCS2)
NUMBER_WORDS(number_words_4, Py_UCS4)

/* the token ids of one line, appended to ids: their number, or -1 */
static Py_ssize_t
number_line(Numbering *self, PyObject *line, Int64s *ids)
{
    int kind = PyUnicode_KIND(line);
    const void *data = PyUnicode_DATA(line);
    Py_ssize_t length = PyUnicode_GET_LENGTH(line);
    if (self->tokenize != NULL && PyUnicode_FindChar(line, '\n', 0, length, 1) >= 0) {
        /* one unit: the line, stripped of its trailing whitespace (13a joins the words
         * around a line end, "-\n") */
        while (length > 0 && is_space(PyUnicode_READ(kind, data, length - 1))) length--;
        return number_unit(self, line, kind, data, 0, length,
                           hash_chars(kind, data, 0, length), ids);
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
"The token ids of lines (a list of str), line after line, and the number of tokens of each\n"
"line: (ids, counts), bytes of native int64.");

static PyObject *
Numbering_number(Numbering *self, PyObject *lines)
{
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "Numbering was not initialised");
        return NULL;
    }
    if (!PyList_Check(lines)) {
        PyErr_Format(PyExc_TypeError, "lines must be a list of str, not %.100s",
                     Py_TYPE(lines)->tp_name);
        return NULL;
    }
    if (self->busy) { /* tokenize called number() on this Numbering */
        PyErr_SetString(PyExc_RuntimeError, "Numbering.number() is already running");
        return NULL;
    }
    self->busy = 1;
    Int64s ids = {NULL, 0, 0}, counts = {NULL, 0, 0};
    PyObject *result = NULL;
    /* tokenize may change the list: each line is held while it is read */
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lines); k++) {
        PyObject *line = PyList_GET_ITEM(lines, k);
        if (!PyUnicode_Check(line)) {
            PyErr_Format(PyExc_TypeError, "lines[%zd] must be a str, not %.100s", k,
                         Py_TYPE(line)->tp_name);
            goto done;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(line) < 0) goto done;
#endif
        Py_INCREF(line);
        Py_ssize_t count = number_line(self, line, &ids);
        Py_DECREF(line);
        if (count < 0 || push(&counts, count) < 0) goto done;
    }
    PyObject *flat = PyBytes_FromStringAndSize((const char *)ids.items,
                                              ids.size * (Py_ssize_t)sizeof(int64_t));
    PyObject *per_line = PyBytes_FromStringAndSize((const char *)counts.items,
                                                  counts.size * (Py_ssize_t)sizeof(int64_t));
    if (flat != NULL && per_line != NULL) result = PyTuple_Pack(2, flat, per_line);
    Py_XDECREF(flat);
    Py_XDECREF(per_line);
done:
    PyMem_Free(ids.items);
    PyMem_Free(counts.items);
    self->busy = 0;
    return result;
}

static void
Numbering_clear_tables(Numbering *self)
{
    strtable_free(&self->units);
    strtable_free(&self->tokens);
    PyMem_Free(self->unit_tokens.items);
    memset(&self->unit_tokens, 0, sizeof(Int64s));
    self->ready = 0;
}

static int
Numbering_init(Numbering *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"tokenize", NULL};
    PyObject *tokenize = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Numbering", keywords, &tokenize))
        return -1;
    if (tokenize != Py_None && !PyCallable_Check(tokenize)) {
        PyErr_Format(PyExc_TypeError, "tokenize must be a callable or None, not %.100s",
                     Py_TYPE(tokenize)->tp_name);
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Numbering.number() is running");
        return -1;
    }
    Numbering_clear_tables(self);
    Py_XSETREF(self->tokenize, tokenize == Py_None ? NULL : Py_NewRef(tokenize));
    if (strtable_init(&self->units) < 0 || strtable_init(&self->tokens) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

static int
Numbering_traverse(Numbering *self, visitproc visit, void *arg)
{
    Py_VISIT(self->tokenize);
    return 0;
}

static int
Numbering_clear(Numbering *self)
{
    Py_CLEAR(self->tokenize);
    return 0;
}

static void
Numbering_dealloc(Numbering *self)
{
    PyObject_GC_UnTrack(self);
    Numbering_clear(self);
    Numbering_clear_tables(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Numbering_tokens(Numbering *self, void *closure)
{
    (void)closure;
    const StrTable *table = self->tokenize ? &self->tokens : &self->units;
    PyObject *tokens = PyList_New(table->size);
    if (tokens == NULL) return NULL;
    if (table->slots == NULL) return tokens;
    for (size_t k = 0; k <= table->mask; k++) {
        const Slot *slot = &table->slots[k];
        if (slot->string != NULL) PyList_SET_ITEM(tokens, slot->id, Py_NewRef(slot->string));
    }
    return tokens;
}

static Py_ssize_t
Numbering_length(Numbering *self)
{
    return self->tokenize ? self->tokens.size : self->units.size;
}

static PyMethodDef Numbering_methods[] = {
    {"number", (PyCFunction)Numbering_number, METH_O, number_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Numbering_getset[] = {
    {"tokens", (getter)Numbering_tokens, NULL,
     "The token of each id, in order (a new list: changing it changes nothing here).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods Numbering_as_sequence = {
    .sq_length = (lenfunc)Numbering_length,
};

PyDoc_STRVAR(Numbering_doc,
"Numbering(tokenize=None)\n--\n\n"
"Numbers the tokens of lines by first appearance (see number()). Without tokenize the\n"
"tokens are the whitespace-separated words of each line. With it, tokenize (str -> str,\n"
"whose result is split on whitespace) is called once per distinct unit: a word, or a\n"
"whole line where the line holds a newline (line.rstrip()). len() is the number of\n"
"tokens so far.");

PyTypeObject bs_NumberingType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bleusuite._native.Numbering",
    .tp_basicsize = sizeof(Numbering),
    .tp_dealloc = (destructor)Numbering_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = Numbering_doc,
    .tp_traverse = (traverseproc)Numbering_traverse,
    .tp_clear = (inquiry)Numbering_clear,
    .tp_methods = Numbering_methods,
    .tp_getset = Numbering_getset,
    .tp_as_sequence = &Numbering_as_sequence,
    .tp_init = (initproc)Numbering_init,
    .tp_new = PyType_GenericNew,
};

void
bs_numbering_ready(void)
{
    for (Py_UCS4 c = 0; c < 256; c++) latin1_space[c] = Py_UNICODE_ISSPACE(c) ? 1 : 0;
}
