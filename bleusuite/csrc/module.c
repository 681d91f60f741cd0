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
    {"edit_counts", (PyCFunction)(void (*)(void))bs_edit_counts, METH_FASTCALL,
     bs_edit_counts_doc},
    {"line_edit_counts", (PyCFunction)(void (*)(void))bs_line_edit_counts, METH_FASTCALL,
     bs_line_edit_counts_doc},
    {"alignment_chunks", (PyCFunction)(void (*)(void))bs_alignment_chunks, METH_FASTCALL,
     bs_alignment_chunks_doc},
    {"caption_rouge", (PyCFunction)(void (*)(void))bs_caption_rouge, METH_FASTCALL,
     bs_caption_rouge_doc},
    {"cider_sums", (PyCFunction)(void (*)(void))bs_cider_sums, METH_FASTCALL,
     bs_cider_sums_doc},
    {"cider_text_sums", (PyCFunction)(void (*)(void))bs_cider_text_sums, METH_FASTCALL,
     bs_cider_text_sums_doc},
    {"word_lists", (PyCFunction)(void (*)(void))bs_word_lists, METH_FASTCALL, bs_word_lists_doc},
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
