/* The checks that every entry point of bleusuite._native makes of its arguments: int64
 * buffers of the right shape, and sizes whose products fit (see native.h). */
#include "native.h"

#include <string.h>

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

int
bs_int64_buffer(PyObject *object, Py_buffer *view, const char *name, int ndim,
                const Py_ssize_t *shape, int writable)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError)
            || PyErr_ExceptionMatches(PyExc_BufferError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous%s int64 array, not %.100s",
                         name, writable ? " writable" : "", Py_TYPE(object)->tp_name);
        }
        return -1;
    }
    const char *format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (view->itemsize != 8 || (strcmp(format, "q") != 0 && strcmp(format, "l") != 0)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int64 array, not of format %.20s", name,
                     view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
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
