/* bleusuite._native: the optional compiled part of bleusuite (bleusuite/native.py).
 *
 * Numbering (numbering.c) turns lines of text into token ids; gather (gather.c) brings the
 * token lists and text of a scoring call to flat ids in rows; count_matches (counting.c)
 * counts the clipped n-gram matches of every CPU path of the library and of the command;
 * libm_map (libm.c) maps the C library's log or exp over an array (sacrebleu's digits);
 * lcs_matches (lcs.c) gives ROUGE-L's and ROUGE-Lsum's longest common subsequences, and
 * porter_stem (stem.c) NLTK's Porter stems (ROUGE's use_stemmer).
 * ter_edits (ter.c) counts TER's edits (sacrebleu's shifts and beam edit distance).
 * edit_counts (edits.c) aligns words as jiwer's WER, MER, WIL, WIP and CER do (and
 * line_edit_counts lines of text, split as it splits them), and
 * alignment_chunks (alignment.c) makes jiwer's AlignmentChunk objects of its opcodes, and
 * word_lists the word lists of numbered lines (jiwer's transformed sentences).
 * edit_distances and eed_grid (edit_distance.c) give torchmetrics' EditDistance and
 * ExtendedEditDistance (EED) grids.
 * cider_sums and cider_text_sums (cider_sums.c) pycocoevalcap's CIDEr-D sums of a batch of
 * ids or of its captions, and
 * caption_rouge (caption_lcs.c) gives pycocoevalcap's ROUGE-L inputs straight from its str.
 * stop_calls (interrupt.c) stops the long calls running; they check for Ctrl-C themselves.
 * Without it bleusuite does the same work in Python and NumPy, with the same results.
 */
#include "native.h"

void bs_numbering_ready(void);

/* an entry point declared with BS_ENTRY_POINT (native.h) */
#define FASTCALL(name)                                                                       \
    {#name, (PyCFunction)(void (*)(void))bs_##name, METH_FASTCALL, bs_##name##_doc}

static PyMethodDef native_functions[] = {
    FASTCALL(count_matches),
    FASTCALL(libm_map),
    FASTCALL(gather),
    FASTCALL(lcs_matches),
    FASTCALL(porter_stem),
    FASTCALL(ter_edits),
    FASTCALL(edit_counts),
    FASTCALL(line_edit_counts),
    FASTCALL(alignment_chunks),
    FASTCALL(caption_rouge),
    FASTCALL(cider_sums),
    FASTCALL(cider_text_sums),
    FASTCALL(word_lists),
    FASTCALL(edit_distances),
    FASTCALL(eed_grid),
    {"stop_calls", bs_stop_calls, METH_NOARGS, bs_stop_calls_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bleusuite._native",
    .m_doc = "bleusuite's compiled part: Numbering (text to token ids), gather, count_matches, "
             "libm_map, lcs_matches, porter_stem, ter_edits, edit_counts, line_edit_counts, "
             "AlignmentChunk, "
             "alignment_chunks, word_lists, edit_distances, eed_grid, caption_rouge, "
             "cider_sums, cider_text_sums, stop_calls.",
    .m_size = -1,
    .m_methods = native_functions,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    bs_numbering_ready();
    bs_interrupt_ready();
    if (PyType_Ready(&bs_NumberingType) < 0 || PyType_Ready(&bs_AlignmentChunkType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL) return NULL;
    if (PyModule_AddObjectRef(module, "Numbering", (PyObject *)&bs_NumberingType) < 0
        || PyModule_AddObjectRef(module, "AlignmentChunk",
                                 (PyObject *)&bs_AlignmentChunkType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
