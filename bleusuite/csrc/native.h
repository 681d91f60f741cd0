/* bleusuite._native: what the C files of the compiled part share.
 *
 * module.c    the module
 * buffers.c   the checked buffer and size helpers below
 * numbering.c Numbering: lines -> token ids (split, tokenised once per word, numbered)
 * counting.c  count_matches: clipped n-gram matches per row, the GIL released
 * libm.c      libm_map: the C library's log or exp of each value (math.log's, math.exp's)
 * ter.c       ter_edits: TER's edits (sacrebleu's lib_ter) per row and reference, the GIL released
 */
#ifndef BLEUSUITE_NATIVE_H
#define BLEUSUITE_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* a C-contiguous int64 buffer of `ndim` dimensions (shape[k] < 0: any size there); sets
 * a TypeError/ValueError naming `name` and returns -1 on anything else */
int bs_int64_buffer(PyObject *object, Py_buffer *view, const char *name, int ndim,
                    const Py_ssize_t *shape, int writable);

/* a C-contiguous float64 buffer of any shape; a TypeError naming `name` and -1 on
 * anything else */
int bs_float64_buffer(PyObject *object, Py_buffer *view, const char *name, int writable);

/* a * b, or -1 with an OverflowError where it does not fit in Py_ssize_t */
Py_ssize_t bs_checked_mul(Py_ssize_t a, Py_ssize_t b);

extern PyTypeObject bs_NumberingType;
PyObject *bs_count_matches(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_count_matches_doc[];
PyObject *bs_libm_map(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_libm_map_doc[];
PyObject *bs_ter_edits(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern const char bs_ter_edits_doc[];

#endif
