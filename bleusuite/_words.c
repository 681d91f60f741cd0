/* bleusuite._words: split lines into words and number the words, in C.
 *
 * The optional compiled part of bleusuite (`bleusuite.text` falls back to plain Python
 * where it is not built). One type, WordIndex: `index.number(lines)` splits each line as
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
    .tp_name = "bleusuite._words.WordIndex",
    .tp_basicsize = sizeof(WordIndex),
    .tp_dealloc = (destructor)WordIndex_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = WordIndex_doc,
    .tp_methods = WordIndex_methods,
    .tp_getset = WordIndex_getset,
    .tp_init = (initproc)WordIndex_init,
    .tp_new = WordIndex_new,
};

static struct PyModuleDef words_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bleusuite._words",
    .m_doc = "Split lines into words and number the words (bleusuite's optional C part).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__words(void)
{
    for (Py_UCS4 c = 0; c < 256; c++) latin1_space[c] = Py_UNICODE_ISSPACE(c) ? 1 : 0;
    if (PyType_Ready(&WordIndexType) < 0) return NULL;
    PyObject *module = PyModule_Create(&words_module);
    if (module == NULL) return NULL;
    Py_INCREF(&WordIndexType);
    if (PyModule_AddObject(module, "WordIndex", (PyObject *)&WordIndexType) < 0) {
        Py_DECREF(&WordIndexType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
