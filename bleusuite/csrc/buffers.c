/* The checks that every entry point of bleusuite._native makes of its arguments: int64
 * and float64 buffers of the right shape, integers, and sizes whose products fit (see
 * native.h). */
#include "native.h"

#include <string.h>

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
    if (a < 0 || b < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_OverflowError, "a negative size");
        return -1;
    }
    if (b != 0 && a > PY_SSIZE_T_MAX / b) {
        PyErr_SetString(PyExc_OverflowError, "sizes too large for this machine");
        return -1;
    }
    return a * b;
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
