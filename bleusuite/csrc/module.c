/* bleusuite._native: the optional compiled part of bleusuite (bleusuite/native.py).
 *
 * Numbering (numbering.c) turns lines of text into token ids; gather (gather.c) brings the
 * token lists and text of a scoring call to flat ids in rows; count_matches (counting.c)
 * counts the clipped n-gram matches of every CPU path of the library and of the command;
 * libm_map (libm.c) maps the C library's log or exp over an array (sacrebleu's digits);
 * lcs_matches (lcs.c) gives ROUGE-L's and ROUGE-Lsum's longest common subsequences, and
 * porter_stem (stem.c) NLTK's Porter stems (ROUGE's use_stemmer).
 * ter_edits (ter.c) counts TER's edits (sacrebleu's shifts and beam edit distance).
 * edit_distances and eed_grid (edit.c) give torchmetrics' EditDistance and EED grids.
 * stop_calls (interrupt.c) stops the long calls running; they check for Ctrl-C themselves.
 * Without it bleusuite does the same work in Python and NumPy, with the same results.
 */
#include "native.h"

void bs_numbering_ready(void);

static PyMethodDef native_functions[] = {
    {"count_matches", (PyCFunction)(void (*)(void))bs_count_matches, METH_FASTCALL,
     bs_count_matches_doc},
    {"libm_map", (PyCFunction)(void (*)(void))bs_libm_map, METH_FASTCALL, bs_libm_map_doc},
    {"gather", (PyCFunction)(void (*)(void))bs_gather, METH_FASTCALL, bs_gather_doc},
    {"lcs_matches", (PyCFunction)(void (*)(void))bs_lcs_matches, METH_FASTCALL,
     bs_lcs_matches_doc},
    {"porter_stem", (PyCFunction)(void (*)(void))bs_porter_stem, METH_FASTCALL,
     bs_porter_stem_doc},
    {"ter_edits", (PyCFunction)(void (*)(void))bs_ter_edits, METH_FASTCALL, bs_ter_edits_doc},
    {"edit_distances", (PyCFunction)(void (*)(void))bs_edit_distances, METH_FASTCALL,
     bs_edit_distances_doc},
    {"eed_grid", (PyCFunction)(void (*)(void))bs_eed_grid, METH_FASTCALL, bs_eed_grid_doc},
    {"stop_calls", bs_stop_calls, METH_NOARGS, bs_stop_calls_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bleusuite._native",
    .m_doc = "bleusuite's compiled part: Numbering (text to token ids), gather, count_matches, "
             "libm_map, lcs_matches, porter_stem, ter_edits, edit_distances, eed_grid, "
             "stop_calls.",
    .m_size = -1,
    .m_methods = native_functions,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    bs_numbering_ready();
    bs_interrupt_ready();
    if (PyType_Ready(&bs_NumberingType) < 0) return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL) return NULL;
    if (PyModule_AddObjectRef(module, "Numbering", (PyObject *)&bs_NumberingType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
