/* bleusuite._native: the optional compiled part of bleusuite (bleusuite/native.py).
 *
 * Numbering (numbering.c) turns lines of text into token ids; count_matches (counting.c)
 * counts the clipped n-gram matches of every CPU path of the library and of the command.
 * Without it bleusuite does the same work in Python and NumPy, with the same results.
 */
#include "native.h"

#include <string.h>

void bs_numbering_ready(void);

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

static PyMethodDef native_functions[] = {
    {"count_matches", (PyCFunction)(void (*)(void))bs_count_matches, METH_FASTCALL,
     bs_count_matches_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bleusuite._native",
    .m_doc = "bleusuite's compiled part: Numbering (text to token ids) and count_matches.",
    .m_size = -1,
    .m_methods = native_functions,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    bs_numbering_ready();
    if (PyType_Ready(&bs_NumberingType) < 0) return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL) return NULL;
    if (PyModule_AddObjectRef(module, "Numbering", (PyObject *)&bs_NumberingType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
