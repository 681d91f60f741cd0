/* The checks that every entry point of bleusuite._native makes of its arguments: int64
 * and float64 buffers of the right shape, integers, sizes whose products fit, the ragged
 * rows of the row kernels, and the one mapping of a failure to its exception (see
 * native.h). */
#include "native.h"

#include <string.h>

void
bs_release_views(Py_buffer *views, int held)
{
    for (int k = 0; k < held; k++) PyBuffer_Release(&views[k]);
}

int
bs_index_argument(PyObject *object, const char *name, Py_ssize_t *value)
{
    PyObject *index = PyNumber_Index(object);
    if (index == NULL) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s", name,
                     Py_TYPE(object)->tp_name);
        return -1;
    }
    *value = PyLong_AsSsize_t(index);
    Py_DECREF(index);
    if (*value == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_OverflowError, "%s is out of range", name);
        return -1;
    }
    return 0;
}

Py_ssize_t
bs_checked_mul(Py_ssize_t a, Py_ssize_t b)
{
    const Py_ssize_t product = bs_size_product(a, b);
    if (product < 0) {
        if (a >= 0 && b >= 0) PyErr_SetString(PyExc_OverflowError, "sizes too large for this machine");
        else if (!PyErr_Occurred()) PyErr_SetString(PyExc_OverflowError, "a negative size");
    }
    return product;
}

/* a C-contiguous buffer of 8-byte items of `type` ('q': int64, 'd': float64) */
static int
typed_buffer(PyObject *object, Py_buffer *view, const char *name, char type, int writable)
{
    const char *what = type == 'd' ? "float64" : "int64";
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError)
            || PyErr_ExceptionMatches(PyExc_BufferError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous%s %s array, not %.100s",
                         name, writable ? " writable" : "", what, Py_TYPE(object)->tp_name);
        }
        return -1;
    }
    const char *format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    int matches = type == 'd' ? strcmp(format, "d") == 0
                              : strcmp(format, "q") == 0 || strcmp(format, "l") == 0;
    if (view->itemsize != 8 || !matches) {
        PyErr_Format(PyExc_TypeError, "%s must be a%s %s array, not of format %.20s", name,
                     type == 'd' ? "" : "n", what, view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

int
bs_float64_buffer(PyObject *object, Py_buffer *view, const char *name, int writable)
{
    return typed_buffer(object, view, name, 'd', writable);
}

int
bs_int64_buffer(PyObject *object, Py_buffer *view, const char *name, int ndim,
                const Py_ssize_t *shape, int writable)
{
    if (typed_buffer(object, view, name, 'q', writable) < 0) return -1;
    if (view->ndim != ndim) {
        PyErr_Format(PyExc_ValueError, "%s must have %d dimension(s), not %d", name, ndim,
                     view->ndim);
        PyBuffer_Release(view);
        return -1;
    }
    for (int k = 0; k < ndim; k++) {
        if (shape[k] >= 0 && view->shape[k] != shape[k]) {
            PyErr_Format(PyExc_ValueError, "%s: axis %d has %zd entries where %zd are needed",
                         name, k, view->shape[k], shape[k]);
            PyBuffer_Release(view);
            return -1;
        }
    }
    return 0;
}

int
bs_grow(void **items, size_t *capacity, size_t needed, size_t item)
{
    if (needed <= *capacity) return 0;
    if (needed > (size_t)PY_SSIZE_T_MAX / item) return -1;
    size_t size = needed < 64 ? 64 : needed;
    if (size < *capacity * 2 && *capacity * 2 <= (size_t)PY_SSIZE_T_MAX / item)
        size = *capacity * 2;
    void *bigger = PyMem_RawRealloc(*items, size * item);
    if (bigger == NULL) return -1;
    *items = bigger;
    *capacity = size;
    return 0;
}

int
bs_grow_all(void **const *arrays, const size_t *sizes, int count, size_t *capacity,
            size_t needed, int exact)
{
    if (needed <= *capacity) return 0;
    size_t held = SIZE_MAX; /* what every array holds: the least of them */
    for (int k = 0; k < count; k++) {
        size_t had = *capacity;
        if (exact) {
            if (needed > (size_t)PY_SSIZE_T_MAX / sizes[k]) return -1;
            void *bigger = PyMem_RawRealloc(*arrays[k], needed * sizes[k]);
            if (bigger == NULL) return -1;
            *arrays[k] = bigger;
            had = needed;
        }
        else if (bs_grow(arrays[k], &had, needed, sizes[k]) < 0) return -1;
        if (had < held) held = had;
    }
    *capacity = held;
    return 0;
}

/* ------------------------------------------------------------------------ ragged rows */

int
bs_ragged_read(PyObject *const *args, const char *const *names, int two_dim, int64_t most,
               const char *unit, const char *verb, bs_Ragged *ragged, Py_buffer *views,
               int *held)
{
    /* ids: any length; the hypotheses' starts (B,), B read there; their lengths (B,); the
     * references' starts (B, R), R read there (or (B,)); their lengths the same */
    Py_ssize_t any[1] = {-1}, rows[2] = {-1, -1};
    const void *bufs[6];
    for (int k = 0; k < 6; k++) {
        const int ids = k == 0 || k == 3, refs = k >= 4 && two_dim;
        const Py_ssize_t *shape = ids || k == 1 ? any : rows;
        if (bs_int64_buffer(args[k], &views[*held], names[k], refs ? 2 : 1, shape, 0) < 0)
            return -1;
        const Py_buffer *view = &views[(*held)++];
        bufs[k] = view->buf;
        if (k == 0) ragged->hyp_size = view->shape[0];
        if (k == 3) ragged->ref_size = view->shape[0];
        if (k == 1) rows[0] = view->shape[0];
        if (k == 4 && two_dim) rows[1] = view->shape[1];
    }
    ragged->hyp_ids = bufs[0];
    ragged->hyp_starts = bufs[1];
    ragged->hyp_lengths = bufs[2];
    ragged->ref_ids = bufs[3];
    ragged->ref_starts = bufs[4];
    ragged->ref_lengths = bufs[5];
    ragged->rows = rows[0];
    ragged->refs = two_dim ? rows[1] : 1;
    ragged->names = names;
    ragged->most = most;
    ragged->unit = unit;
    ragged->verb = verb;
    ragged->two_dim = two_dim;
    return 0;
}

int
bs_rows_range(PyObject *begin_object, PyObject *end_object, Py_ssize_t rows,
              const char *unit, Py_ssize_t *begin, Py_ssize_t *end)
{
    if (bs_index_argument(begin_object, "begin", begin) < 0
        || bs_index_argument(end_object, "end", end) < 0)
        return -1;
    if (*begin < 0 || *end < *begin || *end > rows) {
        PyErr_Format(PyExc_ValueError, "begin and end must satisfy 0 <= begin <= end <= %zd "
                     "(the %ss); got %zd and %zd", rows, unit, *begin, *end);
        return -1;
    }
    return 0;
}

bs_Failure
bs_ragged_measure(const bs_Ragged *ragged, Py_ssize_t begin, Py_ssize_t end, int skip_empty,
                  int64_t *max_hyp, int64_t *max_ref, int64_t *tokens, bs_Fault *fault)
{
    *max_hyp = *max_ref = *tokens = 0;
    for (Py_ssize_t row = begin; row < end; row++) {
        if (bs_ragged_hyp(ragged, row, fault) != BS_DONE) return fault->kind;
        const int64_t length = ragged->hyp_lengths[row];
        if (length > *max_hyp) *max_hyp = length;
        if (length == 0 && skip_empty) continue; /* nothing of the row is read */
        int64_t total = 0;
        for (Py_ssize_t r = 0; r < ragged->refs; r++) {
            const Py_ssize_t k = row * ragged->refs + r;
            const int64_t start = ragged->ref_starts[k], ref_length = ragged->ref_lengths[k];
            if (!bs_slice_fits(start, ref_length, ragged->ref_size))
                return bs_fail(fault, BS_REF_OUTSIDE, row, r, start, ref_length);
            if (ref_length > ragged->most - total)
                return bs_fail(fault, BS_REFS_TOO_LONG, row, r, start, total + ref_length);
            total += ref_length;
        }
        if (total > *max_ref) *max_ref = total;
        *tokens += length + total;
    }
    return BS_DONE;
}

void
bs_raise(const bs_Fault *fault, const bs_Ragged *ragged)
{
    const bs_Fault *f = fault;
    const long long start = (long long)f->start, length = (long long)f->length;
    /* every kind below but the first four comes of ragged rows: ragged is not NULL there */
    switch (f->kind) {
    case BS_DONE:
    case BS_STOPPED: /* the exception is bs_watch_end's */
        return;
    case BS_NO_MEMORY:
        PyErr_NoMemory();
        return;
    case BS_TOO_LARGE:
        PyErr_SetString(PyExc_OverflowError, "sizes too large for this machine");
        return;
    case BS_PREFIX_NARROW:
        PyErr_Format(PyExc_ValueError, "prefix: its width (%lld) is below the longest "
                     "hypothesis (%lld tokens)", start, length);
        return;
    default:
        break;
    }
    const char *const *name = ragged->names;
    const char *unit = ragged->unit, *verb = ragged->verb;
    const long long most = (long long)ragged->most;
    switch (f->kind) {
    case BS_HYP_OUTSIDE:
        PyErr_Format(PyExc_ValueError, "%s/%s: %s %zd (start %lld, length %lld) is outside "
                     "%s (%zd values)", name[1], name[2], unit, f->row, start, length, name[0],
                     ragged->hyp_size);
        break;
    case BS_HYP_TOO_LONG:
        PyErr_Format(PyExc_ValueError, "%s: %s %zd has %lld tokens; at most %lld are %s",
                     name[2], unit, f->row, length, most, verb);
        break;
    case BS_REF_OUTSIDE:
        if (ragged->two_dim)
            PyErr_Format(PyExc_ValueError, "%s/%s: %s %zd, reference %zd (start %lld, length "
                         "%lld) is outside %s (%zd values)", name[4], name[5], unit, f->row,
                         f->reference, start, length, name[3], ragged->ref_size);
        else
            PyErr_Format(PyExc_ValueError, "%s/%s: %s %zd (start %lld, length %lld) is "
                         "outside %s (%zd values)", name[4], name[5], unit, f->row, start,
                         length, name[3], ragged->ref_size);
        break;
    case BS_REF_TOO_LONG:
        PyErr_Format(PyExc_ValueError, "%s: %s %zd, reference %zd has %lld tokens; at most "
                     "%lld are %s", name[5], unit, f->row, f->reference, length, most, verb);
        break;
    case BS_REFS_TOO_LONG:
        PyErr_Format(PyExc_ValueError, "%s: the references of %s %zd have %lld tokens or "
                     "more; at most %lld are %s", name[5], unit, f->row, length, most, verb);
        break;
    case BS_CHANGED:
        PyErr_Format(PyExc_ValueError, "%s %zd: its offsets or lengths changed while it was "
                     "%s (another thread wrote to the input)", unit, f->row, verb);
        break;
    case BS_OUTPUT_OUTSIDE:
        PyErr_Format(PyExc_ValueError, "%s: %s %zd (from %lld, %lld entries) is outside its "
                     "output", f->what, unit, f->row, start, length);
        break;
    case BS_MATRIX_TOO_BIG: /* ter_edits' cells: an int32 cost and a byte of how */
        /* the message names the hypothesis, as the command's one-line error shows it */
        PyErr_Format(PyExc_MemoryError, "hypothesis %zd: TER's edit matrices of its %lld "
                     "words against a reference of %lld words (%lld GB) do not fit in memory",
                     f->row, start, length,
                     (long long)(((double)start + 1.0) * ((double)length + 1.0) * 5.0 / 1e9));
        break;
    case BS_NO_TRACE:
        PyErr_Format(PyExc_RuntimeError, "%s %zd: the edit trace left the beam (sacrebleu "
                     "raises 'unknown operation' there)", unit, f->row);
        break;
    default:
        PyErr_NoMemory();
    }
}

int
bs_stamps_grow(bs_Stamps *table, void **const *arrays, const size_t *sizes, int count,
               size_t capacity)
{
    PyMem_RawFree(table->stamps);
    table->stamps = PyMem_RawCalloc(capacity, sizeof(uint32_t));
    table->capacity = 0;
    table->stamp = 0;
    int failed = table->stamps == NULL;
    for (int k = 0; k < count; k++) {
        PyMem_RawFree(*arrays[k]);
        *arrays[k] = PyMem_RawMalloc(capacity * sizes[k]);
        failed = failed || *arrays[k] == NULL;
    }
    if (failed) return -1;
    table->capacity = capacity;
    return 0;
}

PyObject *
bs_call_for_str(PyObject *function, PyObject *argument, const char *name)
{
    PyObject *result = PyObject_CallOneArg(function, argument);
    if (result == NULL) return NULL;
    if (!PyUnicode_Check(result)) {
        PyErr_Format(PyExc_TypeError, "%s must return a str, not %.100s", name,
                     Py_TYPE(result)->tp_name);
        Py_DECREF(result);
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(result) < 0) {
        Py_DECREF(result);
        return NULL;
    }
#endif
    return result;
}

const char *const bs_ragged_names[6] = {"hyp_ids", "hyp_starts", "hyp_lengths",
                                        "ref_ids", "ref_starts", "ref_lengths"};

int
bs_arg_count(const char *name, Py_ssize_t nargs, Py_ssize_t fewest, Py_ssize_t most)
{
    if (nargs >= fewest && nargs <= most) return 0;
    if (fewest == most)
        PyErr_Format(PyExc_TypeError, "%s takes %zd argument%s, not %zd", name, fewest,
                     fewest == 1 ? "" : "s", nargs);
    else
        PyErr_Format(PyExc_TypeError, "%s takes %zd or %zd arguments, not %zd", name, fewest,
                     most, nargs);
    return -1;
}

int
bs_call_end(bs_Watch *watch, const bs_Fault *fault, const bs_Ragged *ragged)
{
    if (bs_watch_end(watch) < 0) return -1; /* stopped: KeyboardInterrupt */
    if (fault->kind == BS_DONE || fault->kind == BS_STOPPED) return 0;
    bs_raise(fault, ragged);
    return -1;
}
