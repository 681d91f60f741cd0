/* AlignmentChunk and alignment_chunks: jiwer's alignment objects, made in C.
 *
 * jiwer's process_words and process_characters return one AlignmentChunk per opcode of
 * every row's alignment (a dataclass: type, ref_start_idx, ref_end_idx, hyp_start_idx,
 * hyp_end_idx). Made by Python's dataclass __init__ they cost more than the whole alignment
 * (about 0.3 us each, ~90,000 for 10,000 ASR-like pairs); made here, a few tens of
 * nanoseconds. The type behaves as jiwer's dataclass: keyword or positional construction,
 * fields that can be set, its repr, equality of the fields between chunks, unhashable; its
 * fields hold a str and ints only (a TypeError otherwise), so that it needs no cycle
 * collection: made by the hundred thousand, GC-tracked objects would trigger collections
 * that cost more than the making.
 *
 * alignment_chunks(chunks, chunk_starts, counts, tags) turns edit_counts's opcodes (chunks
 * (C, 5) int64: tag, reference start and end, hypothesis start and end; row b's from
 * chunk_starts[b], counts[b] of them) into a list per row of AlignmentChunk, tags[tag] as
 * each one's type.
 */
#include "native.h"

#define FIELDS 5

typedef struct {
    PyObject_HEAD
    PyObject *fields[FIELDS]; /* type, ref_start_idx, ref_end_idx, hyp_start_idx, hyp_end_idx */
} Chunk;

static char *field_names[FIELDS + 1] = {"type", "ref_start_idx", "ref_end_idx",
                                        "hyp_start_idx", "hyp_end_idx", NULL};

/* a field's value: a str for type, an int for the indices (exactly: no subclass, whose
 * instances could hold a cycle; the type is not tracked by the cycle collector, so that
 * making ~100,000 of them costs no collections) */
static int
check_field(PyObject *value, int k)
{
    if (k == 0 ? PyUnicode_CheckExact(value) : PyLong_CheckExact(value)) return 0;
    PyErr_Format(PyExc_TypeError, "AlignmentChunk's %s must be %s, not %.100s",
                 field_names[k], k == 0 ? "a str" : "an int", Py_TYPE(value)->tp_name);
    return -1;
}

static void
chunk_dealloc(Chunk *self)
{
    for (int k = 0; k < FIELDS; k++) Py_CLEAR(self->fields[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
chunk_init(Chunk *self, PyObject *args, PyObject *kwargs)
{
    PyObject *values[FIELDS];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOO:AlignmentChunk", field_names,
                                     &values[0], &values[1], &values[2], &values[3],
                                     &values[4]))
        return -1;
    for (int k = 0; k < FIELDS; k++) {
        if (check_field(values[k], k) < 0) return -1;
    }
    for (int k = 0; k < FIELDS; k++) Py_XSETREF(self->fields[k], Py_NewRef(values[k]));
    return 0;
}

static PyObject *
chunk_repr(Chunk *self)
{
    for (int k = 0; k < FIELDS; k++) {
        if (self->fields[k] == NULL) return PyUnicode_FromString("AlignmentChunk(<unset>)");
    }
    return PyUnicode_FromFormat("AlignmentChunk(type=%R, ref_start_idx=%R, ref_end_idx=%R, "
                                "hyp_start_idx=%R, hyp_end_idx=%R)", self->fields[0],
                                self->fields[1], self->fields[2], self->fields[3],
                                self->fields[4]);
}

static PyObject *
fields_tuple(Chunk *self)
{
    PyObject *tuple = PyTuple_New(FIELDS);
    if (tuple == NULL) return NULL;
    for (int k = 0; k < FIELDS; k++) {
        PyTuple_SET_ITEM(tuple, k, Py_NewRef(self->fields[k] ? self->fields[k] : Py_None));
    }
    return tuple;
}

static PyObject *
chunk_richcompare(PyObject *a, PyObject *b, int op)
{
    /* a dataclass's __eq__: the fields as a tuple, between objects of the same class */
    if ((op != Py_EQ && op != Py_NE) || Py_TYPE(a) != Py_TYPE(b)) Py_RETURN_NOTIMPLEMENTED;
    PyObject *left = fields_tuple((Chunk *)a);
    PyObject *right = left ? fields_tuple((Chunk *)b) : NULL;
    PyObject *result = right ? PyObject_RichCompare(left, right, op) : NULL;
    Py_XDECREF(left);
    Py_XDECREF(right);
    return result;
}

/* a field's value, and its setter */
static PyObject *
chunk_get(Chunk *self, void *closure)
{
    PyObject *value = self->fields[(Py_ssize_t)closure];
    if (value == NULL) {
        PyErr_Format(PyExc_AttributeError, "AlignmentChunk has no %s",
                     field_names[(Py_ssize_t)closure]);
        return NULL;
    }
    return Py_NewRef(value);
}

static int
chunk_set(Chunk *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_Format(PyExc_AttributeError, "cannot delete AlignmentChunk's %s",
                     field_names[(Py_ssize_t)closure]);
        return -1;
    }
    if (check_field(value, (int)(Py_ssize_t)closure) < 0) return -1;
    Py_XSETREF(self->fields[(Py_ssize_t)closure], Py_NewRef(value));
    return 0;
}

static PyGetSetDef chunk_getset[] = {
    {"type", (getter)chunk_get, (setter)chunk_set, "equal, substitute, delete or insert",
     (void *)0},
    {"ref_start_idx", (getter)chunk_get, (setter)chunk_set, NULL, (void *)1},
    {"ref_end_idx", (getter)chunk_get, (setter)chunk_set, NULL, (void *)2},
    {"hyp_start_idx", (getter)chunk_get, (setter)chunk_set, NULL, (void *)3},
    {"hyp_end_idx", (getter)chunk_get, (setter)chunk_set, NULL, (void *)4},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject bs_AlignmentChunkType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bleusuite.jiwer.AlignmentChunk",
    .tp_doc = PyDoc_STR("AlignmentChunk(type, ref_start_idx, ref_end_idx, hyp_start_idx, "
                        "hyp_end_idx)\n--\n\njiwer's AlignmentChunk: `type` (equal, "
                        "substitute, delete or insert) of reference[ref_start_idx:ref_end_idx]"
                        " and hypothesis[hyp_start_idx:hyp_end_idx]."),
    .tp_basicsize = sizeof(Chunk),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)chunk_init,
    .tp_dealloc = (destructor)chunk_dealloc,
    .tp_repr = (reprfunc)chunk_repr,
    .tp_richcompare = chunk_richcompare,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getset = chunk_getset,
};

/* a new chunk of one opcode row (tag checked by the caller) */
static PyObject *
new_chunk(const int64_t *row, PyObject *const *tags)
{
    Chunk *chunk = PyObject_New(Chunk, &bs_AlignmentChunkType);
    if (chunk == NULL) return NULL;
    chunk->fields[0] = Py_NewRef(tags[row[0]]);
    for (int k = 1; k < FIELDS; k++) chunk->fields[k] = NULL;
    for (int k = 1; k < FIELDS; k++) {
        if ((chunk->fields[k] = PyLong_FromLongLong(row[k])) == NULL) {
            Py_DECREF(chunk);
            return NULL;
        }
    }
    return (PyObject *)chunk;
}

/* row b of `out` (the list of the rows): a new list of `count` items, set there (its items
 * NULL until they are set: `out` can be dropped at any point): it, or NULL (no memory) */
static PyObject *
new_row(PyObject *out, Py_ssize_t b, int64_t count)
{
    PyObject *row = PyList_New((Py_ssize_t)count);
    if (row != NULL) PyList_SET_ITEM(out, b, row);
    return row;
}

/* alignment_chunks' rows into `out`: 0, or -1 with the exception */
static int
chunk_rows(PyObject *out, const int64_t *chunks, Py_ssize_t size, const int64_t *starts,
           const int64_t *counts, PyObject *const *tags)
{
    for (Py_ssize_t b = 0; b < PyList_GET_SIZE(out); b++) {
        const int64_t start = starts[b], count = counts[b];
        if (!bs_slice_fits(start, count, size)) {
            PyErr_Format(PyExc_ValueError, "row %zd: its opcodes are outside chunks", b);
            return -1;
        }
        PyObject *row = new_row(out, b, count);
        if (row == NULL) return -1;
        for (int64_t k = 0; k < count; k++) {
            const int64_t *opcode = chunks + (start + k) * FIELDS;
            if (opcode[0] < 0 || opcode[0] > 3) {
                PyErr_Format(PyExc_ValueError, "row %zd: an opcode's tag is %lld, not 0 to 3",
                             b, (long long)opcode[0]);
                return -1;
            }
            PyObject *chunk = new_chunk(opcode, tags);
            if (chunk == NULL) return -1;
            PyList_SET_ITEM(row, (Py_ssize_t)k, chunk);
        }
    }
    return 0;
}

const char bs_alignment_chunks_doc[] =
"alignment_chunks(chunks, chunk_starts, counts, tags, /)\n--\n\n"
"jiwer's alignments of edit_counts's opcodes: a list per row of AlignmentChunk.\n\n"
"chunks (C, 5), chunk_starts (B,) and counts (B,) are C-contiguous int64 buffers: row b's\n"
"opcodes are chunks[chunk_starts[b] : chunk_starts[b] + counts[b]] (tag, reference start\n"
"and end, hypothesis start and end); tags is a tuple of the 4 type names by tag.";

PyObject *
bs_alignment_chunks(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("alignment_chunks", nargs, 4, 4) < 0) return NULL;
    if (!PyTuple_Check(args[3]) || PyTuple_GET_SIZE(args[3]) != 4) {
        PyErr_SetString(PyExc_TypeError, "tags must be a tuple of 4 names");
        return NULL;
    }
    PyObject *const *tags = &PyTuple_GET_ITEM(args[3], 0);
    for (int k = 0; k < 4; k++) {
        if (!PyUnicode_CheckExact(tags[k])) {
            PyErr_SetString(PyExc_TypeError, "tags must be a tuple of 4 str");
            return NULL;
        }
    }
    Py_buffer views[3];
    int held = 0;
    PyObject *result = NULL;
    Py_ssize_t chunks_shape[2] = {-1, FIELDS}, any[1] = {-1};
    if (bs_int64_buffer(args[0], &views[held], "chunks", 2, chunks_shape, 0) < 0) goto done;
    held++;
    if (bs_int64_buffer(args[1], &views[held], "chunk_starts", 1, any, 0) < 0) goto done;
    held++;
    Py_ssize_t rows_shape[1] = {views[1].shape[0]};
    if (bs_int64_buffer(args[2], &views[held], "counts", 1, rows_shape, 0) < 0) goto done;
    held++;
    const int64_t *chunks = views[0].buf, *starts = views[1].buf, *counts = views[2].buf;
    const Py_ssize_t rows = views[1].shape[0], size = views[0].shape[0];
    result = PyList_New(rows);
    if (result != NULL && chunk_rows(result, chunks, size, starts, counts, tags) < 0)
        Py_CLEAR(result); /* the lists made so far, with their items */
done:
    bs_release_views(views, held);
    return result;
}

/* word_lists' lines into `out`: 0, or -1 with the exception */
static int
word_rows(PyObject *out, const int64_t *ids, Py_ssize_t size, const int64_t *counts,
          PyObject *tokens)
{
    const Py_ssize_t vocabulary = PyList_GET_SIZE(tokens);
    Py_ssize_t at = 0;
    for (Py_ssize_t b = 0; b < PyList_GET_SIZE(out); b++) {
        const int64_t count = counts[b];
        if (count < 0 || count > size - at) {
            PyErr_Format(PyExc_ValueError, "counts: line %zd goes past the ids", b);
            return -1;
        }
        PyObject *row = new_row(out, b, count);
        if (row == NULL) return -1;
        for (int64_t k = 0; k < count; k++, at++) {
            const int64_t id = ids[at];
            if (id < 0 || id >= vocabulary) {
                PyErr_Format(PyExc_ValueError, "ids: %lld is not an index of tokens",
                             (long long)id);
                return -1;
            }
            PyList_SET_ITEM(row, (Py_ssize_t)k, Py_NewRef(PyList_GET_ITEM(tokens, id)));
        }
    }
    return 0;
}

const char bs_word_lists_doc[] =
"word_lists(ids, counts, tokens, /)\n--\n\n"
"The words of each line as lists of str: line b's are tokens[ids[k]] for its counts[b] ids,\n"
"the lines one after the other (a Numbering's number() output and its tokens). Every word\n"
"is the tokens list's str object, shared: no str is made.";

PyObject *
bs_word_lists(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("word_lists", nargs, 3, 3) < 0) return NULL;
    if (!PyList_CheckExact(args[2])) {
        PyErr_Format(PyExc_TypeError, "tokens must be a list, not %.100s",
                     Py_TYPE(args[2])->tp_name);
        return NULL;
    }
    PyObject *tokens = args[2];
    Py_buffer views[2];
    int held = 0;
    PyObject *result = NULL;
    Py_ssize_t any[1] = {-1};
    if (bs_int64_buffer(args[0], &views[held], "ids", 1, any, 0) < 0) goto done;
    held++;
    if (bs_int64_buffer(args[1], &views[held], "counts", 1, any, 0) < 0) goto done;
    held++;
    const int64_t *ids = views[0].buf, *counts = views[1].buf;
    const Py_ssize_t size = views[0].shape[0], rows = views[1].shape[0];
    result = PyList_New(rows);
    if (result != NULL && word_rows(result, ids, size, counts, tokens) < 0)
        Py_CLEAR(result); /* the lists made so far, with their items */
done:
    bs_release_views(views, held);
    return result;
}
