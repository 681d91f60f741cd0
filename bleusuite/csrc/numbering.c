/* Numbering: lines of text -> token ids, each distinct word tokenised once.
 *
 * `Numbering(tokenize=None, *, rules=None)` splits each line as `str.split()` does (on the
 * interpreter's own whitespace, Py_UNICODE_ISSPACE).
 * - Plain (neither): the words are the tokens.
 * - `rules="13a"`, "char", "punctuation", "rouge", "rouge-porter": the built-in rules
 *   (tokenizers.c: sacrebleu's 13a and char, chrF++'s words, rouge-score's tokenizer with
 *   NLTK's Porter stemmer or without).
 * - `tokenize`, a callable str -> str: called on each new unit; its result is split on
 *   whitespace into tokens.
 * With a tokenizer each word is a unit (a line that holds a "\n" is one unit,
 * `line.rstrip()`: 13a joins the words around a line end, "-\n"), tokenised the first time
 * it is seen; the unit's token ids are kept in its table slot, so every later occurrence
 * costs one lookup. A token's id is the position of its first appearance among all the
 * tokens this Numbering has numbered (the ids of bleusuite.text's Python numbering).
 *
 * Units and tokens are kept in string_table.h's tables (code points, whatever the width of
 * the str that holds them). No str object is made while a call numbers; the str of each
 * new token is made once the lines are numbered. So a numbering by the built-in rules runs
 * without the GIL (other threads run meanwhile); with a Python `tokenize` the GIL is held
 * throughout.
 *
 * Files: string_table.h/.c (the tables), tokenizers.c (the rules), numbering.h (the object
 * they share), this file (the type: lines, and gather's rows, to ids).
 */
#include "numbering.h"

#include <string.h>

/* the classes of the first 256 code points, for a scan of one-byte text that splits words
 * and classifies them at once (row_line): whitespace, a character 13a's rules act on, a
 * character that is not rouge's (a-z, 0-9) */
#define CLASS_SPACE 1
#define CLASS_13A 2
#define CLASS_NOT_ROUGE 4
static unsigned char latin1_class[256];

/* whether a line holds a "\n" (then it is one unit) */
static inline int
has_newline(Text line)
{
    if (line.kind == PyUnicode_1BYTE_KIND)
        return memchr(line.data, '\n', (size_t)line.length) != NULL;
    for (Py_ssize_t i = 0; i < line.length; i++)
        if (bs_text_at(line, i) == '\n') return 1;
    return 0;
}

/* a unit met for the first time: tokenised (with a tokenizer), then numbered in `slot`
 * (kept out of number_unit, so that a unit already numbered costs a lookup and no call):
 * 0, or < 0 */
static int
new_unit(Numbering *self, Slot *slot, const Text *unit, uint64_t hash, PyObject *line,
         Py_ssize_t start)
{
    int64_t first = 0, count = 1;
    if (vocabulary(self) == &self->tokens) {
        /* tokenised first, then numbered: tokenize cannot reach this table (busy) */
        int failed = bs_tokenize_unit(self, *unit, line, start, &first, &count);
        if (failed) return failed;
    }
    if (strtable_insert(&self->units, slot, *unit, hash) < 0) return NO_MEMORY;
    slot->first = vocabulary(self) == &self->tokens ? first : slot->number - 1;
    slot->count = count;
    return 0;
}

/* append the token ids of one unit, line[start:start + unit.length], to ids: their number,
 * or < 0 */
static inline Py_ssize_t
number_unit(Numbering *self, Text unit, uint64_t hash, PyObject *line, Py_ssize_t start,
            Int64s *ids)
{
    if (strtable_reserve(&self->units) < 0) return NO_MEMORY;
    Slot *slot = strtable_slot(&self->units, unit, hash);
    if (slot->number == 0) {
        int failed = new_unit(self, slot, &unit, hash, line, start);
        if (failed) return failed;
    }
    if (slot->count == 1) return push(ids, slot->first) < 0 ? NO_MEMORY : 1;
    for (int64_t k = 0; k < slot->count; k++)
        if (push(ids, self->unit_tokens.items[slot->first + k]) < 0) return NO_MEMORY;
    return (Py_ssize_t)slot->count;
}

/* the token ids of one line (code points at `data`), appended to ids: their number, or < 0 */
static Py_ssize_t
number_line(Numbering *self, Text line, PyObject *object, Int64s *ids)
{
    if (vocabulary(self) == &self->tokens) {
        if (has_newline(line)) { /* one unit: the line without its trailing whitespace */
            while (line.length > 0 && is_space(bs_text_at(line, line.length - 1))) line.length--;
            return number_unit(self, line, hash_text(line), object, 0, ids);
        }
    }
    Py_ssize_t at = 0, total = 0;
    for (Py_ssize_t start; (start = next_word(line, &at)) >= 0;) {
        Text word = text_slice(line, start, at);
        Py_ssize_t count = number_unit(self, word, hash_text(word), object, start, ids);
        if (count < 0) return count;
        total += count;
    }
    return total;
}

/* ------------------------------------------------------ a row at a time (gather's rows)
 * Where only the sentences of a row are compared with each other (a hypothesis and its
 * references), their tokens need ids only within the row: a small table, cleared at each
 * row for free (strtable_next_row), stays in the cache whatever the vocabulary, where one
 * table for every row would miss it at each token. Each word is tokenised where it is met
 * (no table of units): a plain word (13a: no punctuation or symbol) is its own token. */

/* the token ids of one unit appended to ids: their number, or < 0. A unit that is not
 * its own token (13a: with punctuation or symbols; chrF++'s words; rouge's) is tokenised
 * once per distinct unit, as a whole-table numbering does (number_unit: its tokens kept in
 * the numbering's own tables), and its tokens are then numbered in the row's table by
 * their text; characters (char) are tokenised where they are met. */
static Py_ssize_t
row_unit(Numbering *self, Text unit, int plain, Int64s *ids)
{
    if (plain < 0) plain = plain_unit(self, unit);
    if (self->rules == RULES_NONE
        || (self->rules != RULES_CHAR && self->rules != RULES_PUNCTUATION && plain)) {
        int64_t id = strtable_id(self->local, unit);
        return id < 0 || push(ids, id) < 0 ? NO_MEMORY : 1;
    }
    if (self->rules != RULES_CHAR) {
        StrTable *row = self->local;
        Int64s *kept = &self->row_tokens;
        kept->size = 0;
        self->local = NULL; /* the unit's tokens in the numbering's own tables */
        Py_ssize_t count = number_unit(self, unit, hash_text(unit), NULL, 0, kept);
        self->local = row;
        if (count < 0) return count;
        for (Py_ssize_t k = 0; k < count; k++) {
            const StrTable *all = &self->tokens;
            int64_t token = kept->items[k];
            Text text = text_of(&all->pool, all->start.items[token], all->start.items[token + 1]);
            int64_t id = strtable_id(row, text);
            if (id < 0 || push(ids, id) < 0) return NO_MEMORY;
        }
        return count;
    }
    Py_ssize_t begin = self->unit_tokens.size;
    int failed = bs_tokenize_char(self, unit);
    Py_ssize_t count = self->unit_tokens.size - begin;
    for (Py_ssize_t k = 0; k < count && !failed; k++)
        if (push(ids, self->unit_tokens.items[begin + k]) < 0) failed = NO_MEMORY;
    self->unit_tokens.size = begin;
    return failed ? NO_MEMORY : count;
}

/* number_line with the row's table */
static Py_ssize_t
row_line(Numbering *self, Text line, Int64s *ids)
{
    if (self->rules != RULES_NONE) {
        if (has_newline(line)) { /* one unit: the line without its trailing whitespace */
            while (line.length > 0 && is_space(bs_text_at(line, line.length - 1))) line.length--;
            return row_unit(self, line, -1, ids);
        }
    }
    Py_ssize_t i = 0, total = 0;
    if (line.kind == PyUnicode_1BYTE_KIND) { /* words split and classified in one scan */
        const unsigned char *chars = line.data;
        for (;;) {
            while (i < line.length && (latin1_class[chars[i]] & CLASS_SPACE)) i++;
            if (i == line.length) return total;
            Py_ssize_t start = i;
            unsigned classes = 0;
            for (; i < line.length; i++) {
                unsigned c = latin1_class[chars[i]];
                if (c & CLASS_SPACE) break;
                classes |= c;
            }
            Text word = text_slice(line, start, i);
            int plain = self->rules == RULES_13A ? !(classes & CLASS_13A)
                        : self->rules == RULES_ROUGE ? !(classes & CLASS_NOT_ROUGE)
                                                      : -1;
            Py_ssize_t count = row_unit(self, word, plain, ids);
            if (count < 0) return count;
            total += count;
        }
    }
    for (Py_ssize_t start; (start = next_word(line, &i)) >= 0;) {
        Py_ssize_t count = row_unit(self, text_slice(line, start, i), -1, ids);
        if (count < 0) return count;
        total += count;
    }
    return total;
}

/* a str made for each token numbered since the last call: 0, or -1 with an exception */
static int
make_tokens(Numbering *self)
{
    if (self->made == NULL && (self->made = PyList_New(0)) == NULL) return -1;
    const StrTable *table = vocabulary(self);
    for (Py_ssize_t id = PyList_GET_SIZE(self->made); id < strtable_size(table); id++) {
        const Py_UCS4 *chars = table->pool.items + table->start.items[id];
        PyObject *token = PyUnicode_FromKindAndData(
            PyUnicode_4BYTE_KIND, chars, table->start.items[id + 1] - table->start.items[id]);
        if (token == NULL) return -1;
        int failed = PyList_Append(self->made, token);
        Py_DECREF(token);
        if (failed) return -1;
    }
    return 0;
}

PyDoc_STRVAR(number_doc,
"number(lines, /)\n--\n\n"
"The token ids of lines (a list of str), line after line, and the number of tokens of each\n"
"line: (ids, counts), bytes of native int64.");

static int
check_line(PyObject *lines, Py_ssize_t k)
{
    PyObject *line = PyList_GET_ITEM(lines, k);
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "lines[%zd] must be a str, not %.100s", k,
                     Py_TYPE(line)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(line) < 0) return -1;
#endif
    return 0;
}

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
    if (self->busy) { /* tokenize called number() on this Numbering, or another thread */
        PyErr_SetString(PyExc_RuntimeError, "Numbering.number() is already running");
        return NULL;
    }
    self->busy = 1;
    Int64s ids = {NULL, 0, 0, 0}, counts = {NULL, 0, 0, 0};
    PyObject *result = NULL, **held = NULL, *flat = NULL, *per_line = NULL, *bad = NULL;
    Py_ssize_t good = 0, failed = 0;
    if (self->tokenize != NULL) {
        /* tokenize may change the list: each line is held while it is read */
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lines); k++) {
            if (check_line(lines, k) < 0) {
                failed = RAISED;
                break;
            }
            PyObject *line = Py_NewRef(PyList_GET_ITEM(lines, k));
            Py_ssize_t count = number_line(self, bs_text_of_str(line), line, &ids);
            Py_DECREF(line);
            if (count < 0 || push(&counts, count) < 0) {
                failed = count < 0 ? count : NO_MEMORY;
                break;
            }
        }
    }
    else {
        /* the lines up to the first that is not a str, held; numbered without the GIL */
        Py_ssize_t total = PyList_GET_SIZE(lines);
        held = PyMem_Malloc((size_t)(total ? total : 1) * sizeof(PyObject *));
        if (held == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (; good < total; good++) {
            PyObject *line = PyList_GET_ITEM(lines, good);
            if (!PyUnicode_Check(line)) { /* refused once the lines before it are numbered */
                bad = Py_NewRef(line);
                break;
            }
#if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(line) < 0) goto done;
#endif
            held[good] = Py_NewRef(line);
        }
        /* the ids go straight into the bytes object returned, with room for a token per
         * character (there are no more tokens than characters; room never written to costs
         * no memory), shrunk to its size at the end */
        Py_ssize_t chars = 0;
        for (Py_ssize_t k = 0; k < good; k++) {
            chars += PyUnicode_GET_LENGTH(held[k]);
            if (chars > PY_SSIZE_T_MAX / 16) {
                PyErr_NoMemory();
                goto done;
            }
        }
        flat = PyBytes_FromStringAndSize(NULL, chars * (Py_ssize_t)sizeof(int64_t));
        if (flat == NULL
            || bs_reserve_bytes((void **)&counts.items, &counts.capacity, good, sizeof(int64_t))
                   < 0) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
        ids.items = (int64_t *)PyBytes_AS_STRING(flat);
        ids.capacity = chars;
        ids.fixed = 1;
        self->busy = 2; /* the tables change with the GIL released */
        bs_Watch watch;
        bs_watch_begin(&watch);
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t k = 0; k < good; k++) {
            if (bs_watch_poll(&watch)) {
                failed = RAISED;
                break;
            }
            Py_ssize_t count = number_line(self, bs_text_of_str(held[k]), NULL, &ids);
            if (count < 0 || push(&counts, count) < 0) {
                failed = NO_MEMORY;
                break;
            }
        }
        Py_END_ALLOW_THREADS
        bs_watch_end(&watch); /* stopped (failed is RAISED): KeyboardInterrupt */
        if (!failed && bad != NULL) {
            PyErr_Format(PyExc_TypeError, "lines[%zd] must be a str, not %.100s", good,
                         Py_TYPE(bad)->tp_name);
            failed = RAISED;
        }
    }
    if (failed == NO_MEMORY) {
        if (PyErr_Occurred()) PyErr_Clear();
        PyErr_NoMemory();
    }
    /* after a failure the tokens of the lines before it are made when asked for */
    if (failed || make_tokens(self) < 0) goto done;
    if (ids.fixed) {
        if (_PyBytes_Resize(&flat, ids.size * (Py_ssize_t)sizeof(int64_t)) < 0) goto done;
    }
    else flat = PyBytes_FromStringAndSize((const char *)ids.items,
                                          ids.size * (Py_ssize_t)sizeof(int64_t));
    per_line = PyBytes_FromStringAndSize((const char *)counts.items,
                                         counts.size * (Py_ssize_t)sizeof(int64_t));
    if (flat != NULL && per_line != NULL) result = PyTuple_Pack(2, flat, per_line);
done:
    Py_XDECREF(flat);
    Py_XDECREF(per_line);
    Py_XDECREF(bad);
    if (ids.fixed) ids.items = NULL; /* the bytes object's, freed with it */
    if (held != NULL)
        for (Py_ssize_t k = 0; k < good; k++) Py_DECREF(held[k]);
    PyMem_Free(held);
    PyMem_RawFree(ids.items);
    PyMem_RawFree(counts.items);
    self->busy = 0;
    return result;
}

static void
Numbering_clear_tables(Numbering *self)
{
    bs_strtable_free(&self->units);
    bs_strtable_free(&self->tokens);
    PyMem_RawFree(self->unit_tokens.items);
    memset(&self->unit_tokens, 0, sizeof(Int64s));
    PyMem_RawFree(self->row_tokens.items);
    memset(&self->row_tokens, 0, sizeof(Int64s));
    for (int k = 0; k < 2; k++) {
        PyMem_RawFree(self->work[k].items);
        memset(&self->work[k], 0, sizeof(Chars));
    }
    Py_CLEAR(self->made);
    self->ready = 0;
}

static int
Numbering_init(Numbering *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"tokenize", "rules", NULL};
    PyObject *tokenize = Py_None, *rules = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$O:Numbering", keywords, &tokenize,
                                     &rules))
        return -1;
    if (tokenize != Py_None && !PyCallable_Check(tokenize)) {
        PyErr_Format(PyExc_TypeError, "tokenize must be a callable or None, not %.100s",
                     Py_TYPE(tokenize)->tp_name);
        return -1;
    }
    Rules chosen = RULES_NONE;
    if (rules != Py_None) {
        static const char *names[] = {"13a", "char", "punctuation", "rouge", "rouge-porter"};
        for (int k = 0; k < 5 && PyUnicode_Check(rules); k++)
            if (PyUnicode_CompareWithASCIIString(rules, names[k]) == 0) chosen = (Rules)(k + 1);
        if (chosen == RULES_NONE) {
            PyErr_SetString(PyExc_ValueError, "rules must be None, '13a', 'char', "
                            "'punctuation', 'rouge' or 'rouge-porter'");
            return -1;
        }
        if (tokenize != Py_None) {
            PyErr_SetString(PyExc_ValueError, "give tokenize or rules, not both");
            return -1;
        }
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Numbering.number() is running");
        return -1;
    }
    Numbering_clear_tables(self);
    Py_XSETREF(self->tokenize, tokenize == Py_None ? NULL : Py_NewRef(tokenize));
    self->rules = chosen;
    if (bs_strtable_init(&self->units) < 0 || bs_strtable_init(&self->tokens) < 0
        || (self->made = PyList_New(0)) == NULL) {
        Numbering_clear_tables(self);
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
    Py_VISIT(self->made);
    return 0;
}

static int
Numbering_clear(Numbering *self)
{
    Py_CLEAR(self->tokenize);
    Py_CLEAR(self->made);
    return 0;
}

static void
Numbering_dealloc(Numbering *self)
{
    PyObject_GC_UnTrack(self);
    bs_numbering_rows_end((PyObject *)self);
    Numbering_clear(self);
    Numbering_clear_tables(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Numbering_tokens(Numbering *self, void *closure)
{
    (void)closure;
    if (self->made == NULL) return PyList_New(0);
    /* while another thread numbers without the GIL, the tokens of the calls before */
    if (self->busy != 2 && self->ready && make_tokens(self) < 0) return NULL;
    return PyList_GetSlice(self->made, 0, PyList_GET_SIZE(self->made));
}

static Py_ssize_t
Numbering_length(Numbering *self)
{
    if (!self->ready) return 0;
    /* while another thread numbers without the GIL, the tokens of the calls before */
    return self->busy == 2 ? PyList_GET_SIZE(self->made) : strtable_size(vocabulary(self));
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
"Numbering(tokenize=None, *, rules=None)\n--\n\n"
"Numbers the tokens of lines by first appearance (see number()). Without tokenize or rules\n"
"the tokens are the whitespace-separated words of each line. rules='13a', 'char' (each\n"
"character), 'punctuation' (chrF++'s words), 'rouge' and 'rouge-porter' (rouge-score's,\n"
"with its stemmer) are built in; tokenize (str -> str, whose result is split on\n"
"whitespace) is a Python one. Either is applied once per distinct unit: a word, or a whole line where the line\n"
"holds a newline (line.rstrip()). Without tokenize the lines are numbered with the GIL\n"
"released. len() is the number of tokens so far.");

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

/* ---------------------------------------------------- gather.c's use (see native.h) */

int
bs_numbering_begin(PyObject *object, int plain)
{
    if (!PyObject_TypeCheck(object, &bs_NumberingType)) {
        PyErr_Format(PyExc_TypeError, "numbering must be a Numbering, not %.100s",
                     Py_TYPE(object)->tp_name);
        return -1;
    }
    Numbering *self = (Numbering *)object;
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "Numbering was not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Numbering.number() is already running");
        return -1;
    }
    if (plain && vocabulary(self) != &self->units) {
        PyErr_SetString(PyExc_ValueError, "tokens are numbered by a Numbering without tokenizer");
        return -1;
    }
    self->busy = 1;
    return 0;
}

void
bs_numbering_end(PyObject *object)
{
    ((Numbering *)object)->busy = 0;
}

int
bs_numbering_rows(PyObject *object)
{
    Numbering *self = (Numbering *)object;
    if (self->tokenize != NULL) {
        PyErr_SetString(PyExc_ValueError, "rows are numbered by the built-in rules only");
        return -1;
    }
    StrTable *table = PyMem_RawMalloc(sizeof(StrTable));
    if (table == NULL || bs_strtable_init(table) < 0) {
        if (table != NULL) bs_strtable_free(table);
        PyMem_RawFree(table);
        PyErr_NoMemory();
        return -1;
    }
    table->generation = 1;
    self->local = table;
    return 0;
}

void
bs_numbering_next_row(PyObject *object)
{
    strtable_next_row(((Numbering *)object)->local);
}

void
bs_numbering_rows_end(PyObject *object)
{
    Numbering *self = (Numbering *)object;
    if (self->local == NULL) return;
    bs_strtable_free(self->local);
    PyMem_RawFree(self->local);
    self->local = NULL;
}

int
bs_numbering_pure(PyObject *object)
{
    return ((Numbering *)object)->tokenize == NULL;
}

void
bs_numbering_free_gil(PyObject *object, int released)
{
    ((Numbering *)object)->busy = released ? 2 : 1;
}

Py_ssize_t
bs_number_line_raw(PyObject *object, PyObject *line, bs_Int64s *ids)
{
    Numbering *self = (Numbering *)object;
    Text text = bs_text_of_str(line);
    if (self->local != NULL) return row_line(self, text, ids);
    return number_line(self, text, self->tokenize != NULL ? line : NULL, ids);
}

int
bs_number_tokens_raw(PyObject *object, const bs_Token *tokens, Py_ssize_t count,
                     bs_Int64s *ids)
{
    Numbering *self = (Numbering *)object;
    StrTable *table = self->local != NULL ? self->local : &self->units;
    if (bs_int64s_reserve(ids, count) < 0) return NO_MEMORY;
    int64_t *to = ids->items + ids->size;
    for (Py_ssize_t k = 0; k < count; k++) {
        const bs_Token *token = &tokens[k];
        /* a short word: a row's table, where strtable_id would find it by the same word */
        int64_t id = token->object == NULL && table->generation != 0
                         ? short_word_id(table, token->word, token->length)
                     : token->object == NULL ? NO_MEMORY
                                             : strtable_id(table, bs_text_of_str(token->object));
        if (id < 0) return NO_MEMORY;
        to[k] = id;
    }
    ids->size += count;
    return 0;
}

void
bs_numbering_ready(void)
{
    for (Py_UCS4 c = 0; c < 256; c++) {
        bs_latin1_space[c] = Py_UNICODE_ISSPACE(c) ? 1 : 0;
        latin1_class[c] = (unsigned char)((bs_latin1_space[c] ? CLASS_SPACE : 0)
                                          | (acts_on(c) ? CLASS_13A : 0)
                                          | ((c >= 'a' && c <= 'z') || is_digit(c)
                                                 ? 0 : CLASS_NOT_ROUGE));
    }
}
