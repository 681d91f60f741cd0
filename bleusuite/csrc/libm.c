/* libm_map: the C library's log or exp of each value of a float64 array, the functions
 * Python's math.log and math.exp call, so the results are theirs bit for bit (NumPy's own
 * vectorised log and exp differ from them in the last bit of a few values in a hundred).
 * sacrebleu's arithmetic (bleusuite/scores/bleu/sacrebleu_formula.py) maps them over whole tables
 * of statistics at once. */
#include "native.h"

#include <math.h>

const char bs_libm_map_doc[] =
    "libm_map(function, values, out, /)\n--\n\n"
    "out[i] = log(values[i]) or exp(values[i]) (function 'log' or 'exp'), the C library's,\n"
    "as math.log and math.exp compute them; values and out are C-contiguous float64 arrays\n"
    "of as many items. Returns the number of values where math.log or math.exp would raise\n"
    "or whose input or result is not finite (the caller then uses math's own functions).";

PyObject *
bs_libm_map(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (bs_arg_count("libm_map", nargs, 3, 3) < 0) return NULL;
    int exponential;
    if (PyUnicode_Check(args[0]) && PyUnicode_CompareWithASCIIString(args[0], "log") == 0)
        exponential = 0;
    else if (PyUnicode_Check(args[0]) && PyUnicode_CompareWithASCIIString(args[0], "exp") == 0)
        exponential = 1;
    else {
        PyErr_SetString(PyExc_ValueError, "function must be 'log' or 'exp'");
        return NULL;
    }
    Py_buffer values, out;
    if (bs_float64_buffer(args[1], &values, "values", 0) < 0) return NULL;
    if (bs_float64_buffer(args[2], &out, "out", 1) < 0) {
        PyBuffer_Release(&values);
        return NULL;
    }
    if (values.len != out.len) {
        PyErr_Format(PyExc_ValueError, "out has %zd items where values has %zd",
                     out.len / 8, values.len / 8);
        PyBuffer_Release(&values);
        PyBuffer_Release(&out);
        return NULL;
    }
    const double *x = values.buf;
    double *y = out.buf;
    Py_ssize_t n = values.len / 8, unusual = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        double v = x[i], r = exponential ? exp(v) : log(v);
        y[i] = r;
        unusual += !isfinite(v) || !isfinite(r) || (!exponential && v <= 0.0);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&values);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(unusual);
}
