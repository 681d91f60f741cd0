/* cider_sums: the sums of pycocoevalcap 1.2's CIDEr-D (document frequencies from the call's
 * references) of a batch of token ids, with the GIL released: per sentence and order the
 * squared norm of its tf-idf vector, per reference and order the clipped dot product with
 * its image's hypothesis. sorted_orders.py computes the same sums with NumPy sorts; the
 * rest of the formula (square roots, the length penalty, the means) is NumPy's in both.
 *
 * 1. Every n-gram of order 1..K of every sentence gets an id: order 1 a table of the token
 *    values (or of the words, cider_text_sums: with two threads the words of the images'
 *    two halves are numbered apart and merged), order k a table of (the id of the
 *    (k-1)-gram at the position, the id of the k-th token), one order's keys at a time;
 *    open addressing, grown at half full. While the references are numbered, an n-gram's
 *    document frequency counts the images whose references hold it (the last image that
 *    counted it is kept with it). A k-gram over a (k-1)-gram that occurs once in the batch
 *    occurs once itself: it gets no id (-1), as sorted_orders.py prunes it.
 * 2. Once order k is numbered it is published: each of its ids' weight, log(N) -
 *    log(max(1, df)) from log_table (NumPy's logs, as sorted_orders.py takes them), and a
 *    bit per id that says which occur twice or more (the pruning of order k + 1).
 * 3. Per image, per order: each sentence's n-grams in the order they first occur (the
 *    order of pycocoevalcap's dictionaries, which its sums follow), their tf counted with
 *    stamps per id (no clearing between sentences), value = tf * weight; the norm the sum
 *    of the values squared in that order; the dot product of a reference the sum over the
 *    hypothesis's n-grams, in the hypothesis's order, of min(hyp value, ref value) times
 *    the ref value, where the reference holds the n-gram (elsewhere pycocoevalcap adds 0).
 *    With `workers` > 1, helper threads sum the published orders while this thread numbers
 *    the next (see take_tasks); each image's and order's sums are made the same way
 *    wherever they are made, so the numbers do not depend on the threads.
 */
#include "native.h"
#include "caption_words.h"

#define MAX_ORDER 16
/* images at least per thread of step 3: below that a thread's start costs about what it
 * saves */
#define IMAGES_PER_THREAD 256
/* blocks of images per order and thread (the last order's blocks even out the threads) */
#define CHUNKS_PER_THREAD 4
#define MAX_HELPERS 63
/* positions ahead whose hash slot is prefetched */
#define PREFETCH 32

typedef enum { SUMS_DONE = 0, SUMS_NO_MEMORY, SUMS_BAD_INPUT, SUMS_STOPPED } SumsFailure;

typedef struct Ids Ids;
static int32_t new_id(Ids *ids);

static inline size_t
slot_of(uint64_t key, size_t mask)
{
    uint64_t h = key * BS_GOLDEN;
    return (size_t)(h ^ (h >> 31)) & mask;
}

/* An open-addressing table of SlotType (its field `value` an id, -1 where the slot is
 * free), grown at half full, written once for the three slot types that differ in their
 * key and generated per type, so that every probe is direct code (no call per key):
 * name_init, name_free, name_clear, name_grow, and name_id, the id of a key (a new one from
 * new_id where absent; -1: no memory, -2: too many ids). HASH(slot, mask) is the slot of
 * an entry's key, SAME(slot, entry) whether a slot holds the key of `entry` (a slot made
 * by the caller, its value not read); a new key's slot is a copy of the entry. */
#define OPEN_TABLE(Name, name, SlotType, HASH, SAME)                                         \
    typedef struct {                                                                         \
        SlotType *slots;                                                                     \
        size_t capacity, used;                                                               \
    } Name;                                                                                  \
                                                                                             \
    static void                                                                              \
    name##_clear(Name *t)                                                                    \
    {                                                                                        \
        for (size_t k = 0; k < t->capacity; k++) t->slots[k].value = -1;                     \
        t->used = 0;                                                                         \
    }                                                                                        \
                                                                                             \
    static int                                                                               \
    name##_init(Name *t, size_t capacity)                                                    \
    {                                                                                        \
        t->slots = PyMem_RawMalloc(capacity * sizeof(SlotType));                             \
        t->capacity = capacity;                                                              \
        if (t->slots == NULL) return -1;                                                     \
        name##_clear(t);                                                                     \
        return 0;                                                                            \
    }                                                                                        \
                                                                                             \
    static void                                                                              \
    name##_free(Name *t)                                                                     \
    {                                                                                        \
        PyMem_RawFree(t->slots);                                                             \
        t->slots = NULL;                                                                     \
    }                                                                                        \
                                                                                             \
    static int                                                                               \
    name##_grow(Name *t)                                                                     \
    {                                                                                        \
        Name bigger;                                                                         \
        if (t->capacity > (size_t)PY_SSIZE_T_MAX / 2 / sizeof(SlotType)) return -1;          \
        if (name##_init(&bigger, t->capacity * 2) < 0) return -1;                            \
        const size_t mask = bigger.capacity - 1;                                             \
        for (size_t k = 0; k < t->capacity; k++) {                                           \
            if (t->slots[k].value < 0) continue;                                             \
            size_t s = HASH(&t->slots[k], mask);                                             \
            while (bigger.slots[s].value >= 0) s = (s + 1) & mask;                           \
            bigger.slots[s] = t->slots[k];                                                   \
        }                                                                                    \
        bigger.used = t->used;                                                               \
        name##_free(t);                                                                      \
        *t = bigger;                                                                         \
        return 0;                                                                            \
    }                                                                                        \
                                                                                             \
    static inline int32_t                                                                    \
    name##_id(Ids *ids, Name *t, const SlotType *entry)                                      \
    {                                                                                        \
        const size_t mask = t->capacity - 1;                                                 \
        size_t s = HASH(entry, mask);                                                        \
        while (t->slots[s].value >= 0) {                                                     \
            if (SAME(&t->slots[s], entry)) return t->slots[s].value;                         \
            s = (s + 1) & mask;                                                              \
        }                                                                                    \
        const int32_t id = new_id(ids);                                                      \
        if (id < 0) return id;                                                               \
        t->slots[s] = *entry;                                                                \
        t->slots[s].value = id;                                                              \
        if (++t->used * 2 > t->capacity && name##_grow(t) < 0) return -1;                    \
        return id;                                                                           \
    }

/* the table of the unigrams: a key is a token value (or a word's id) */
typedef struct {
    uint64_t key;
    int32_t value; /* -1: free */
} Slot;

#define SLOT_HASH(slot, mask) slot_of((slot)->key, mask)
#define SLOT_SAME(slot, entry) ((slot)->key == (entry)->key)
OPEN_TABLE(Table, table, Slot, SLOT_HASH, SLOT_SAME)

/* the table of the n-grams above order 1: a key is two 32-bit ids (the (k-1)-gram's, the
 * last token's), a slot 12 bytes (a third fewer cache lines than a 64-bit key and its id
 * padded to 16: the table outgrows the caches) */
typedef struct {
    uint32_t prefix, token;
    int32_t value; /* -1: free */
} PairSlot;

static inline size_t
pair_slot(uint32_t prefix, uint32_t token, size_t mask)
{
    return slot_of((uint64_t)prefix << 32 | token, mask);
}

#define PAIR_HASH(slot, mask) pair_slot((slot)->prefix, (slot)->token, mask)
#define PAIR_SAME(slot, entry) ((slot)->prefix == (entry)->prefix && (slot)->token == (entry)->token)
OPEN_TABLE(Pairs, pairs, PairSlot, PAIR_HASH, PAIR_SAME)

/* per id: its document frequency, and while the n-grams are numbered the last image that
 * counted it and its occurrences (to 2). The weight is not stored: log(N) - log_table[df]
 * where it is needed (the same two operands, the same double) */
typedef struct {
    int32_t df, last_image, count;
} IdCounts;

/* the n-gram ids (a table shared by all orders: its keys of order 1 are token values,
 * those of order k > 1 are (prefix id, token id) pairs, told apart by the table) */
struct Ids {
    Table unigrams;
    Pairs longer;
    int32_t distinct;
    IdCounts *per; /* per id */
    size_t ids_capacity;
};

/* a new id (its counts 0): the id, or -1 (no memory) or -2 (too many ids) */
static int32_t
new_id(Ids *ids)
{
    if (ids->distinct == INT32_MAX) return -2;
    if ((size_t)ids->distinct + 1 > ids->ids_capacity) {
        size_t more = ids->ids_capacity ? ids->ids_capacity * 2 : 1024;
        IdCounts *per = PyMem_RawRealloc(ids->per, more * sizeof(IdCounts));
        if (per == NULL) return -1;
        ids->per = per;
        ids->ids_capacity = more;
    }
    const int32_t id = ids->distinct++;
    ids->per[id].df = 0;
    ids->per[id].last_image = -1;
    ids->per[id].count = 0;
    return id;
}

typedef struct {
    /* input: ids (cider_sums), or captions (cider_text_sums: the str held, image by image
     * its hypothesis then its references; the lengths are written) */
    const int64_t *hyp_ids, *hyp_starts, *hyp_lengths;
    const int64_t *ref_ids, *ref_starts, *ref_lengths, *ref_counts;
    PyObject *const *captions;
    Py_ssize_t hyp_size, ref_size, images, refs;
    int order;
    const double *log_table;
    Py_ssize_t log_size;
    double log_documents;
    /* output: (B, K), (R, K), (R, K) */
    double *hyp_norm2, *ref_norm2, *dot;
    /* work */
    int64_t *hyp_first, *ref_first; /* per sentence: its first position in the id arrays */
    int32_t *hyp_grams, *ref_grams; /* K x positions: each position's k-gram id (or -1) */
    Py_ssize_t hyp_total, ref_total;
    int64_t longest_hyp, longest_ref;
    double single[2]; /* the value of an n-gram that occurs once: in a hypothesis, a reference */
    /* step 3's tasks (see take_tasks) */
    Py_ssize_t workers;           /* the threads asked for */
    int32_t id_first[MAX_ORDER + 2]; /* order k's ids: id_first[k] .. id_first[k + 1] - 1 */
    double *weight[MAX_ORDER + 1];   /* order k's weights, log(N) - log(max(1, df)) (per id -
                                      * first) */
    uint8_t *repeated[MAX_ORDER + 1]; /* order k's ids that occur twice or more: a bit each */
    PyThread_type_lock ready[MAX_ORDER + 1]; /* held until order k is published */
    int ready_held[MAX_ORDER + 1];
    int published;                /* the highest order published */
    Py_ssize_t chunks, next_task;
    Py_ssize_t chunk_image[(MAX_HELPERS + 1) * CHUNKS_PER_THREAD + 1];
    Py_ssize_t chunk_ref[(MAX_HELPERS + 1) * CHUNKS_PER_THREAD + 1];
    int stopping; /* a thread stopped (Ctrl-C, no memory): the others stop too */
    /* the tables, which this thread changes at every new id while the helpers read the
     * fields above: in cache lines of their own (no line goes back and forth) */
    char apart[128];
    Ids ids;
} Call;

static SumsFailure
check_slices(const Call *c)
{
    for (Py_ssize_t b = 0; b < c->images; b++) {
        const int64_t s = c->hyp_starts[b], n = c->hyp_lengths[b];
        if (s < 0 || n < 0 || s > c->hyp_size || n > c->hyp_size - s) return SUMS_BAD_INPUT;
        if (c->ref_counts[b] < 1) return SUMS_BAD_INPUT;
    }
    for (Py_ssize_t r = 0; r < c->refs; r++) {
        const int64_t s = c->ref_starts[r], n = c->ref_lengths[r];
        if (s < 0 || n < 0 || s > c->ref_size || n > c->ref_size - s) return SUMS_BAD_INPUT;
    }
    return SUMS_DONE;
}

/* one occurrence of `id` more (in a reference of `image`: its document frequency) */
static inline void
counted(Ids *ids, int32_t id, int refs_side, Py_ssize_t image)
{
    IdCounts *per = &ids->per[id];
    if (per->count < 2) per->count++;
    if (refs_side && per->last_image != (int32_t)image) {
        per->last_image = (int32_t)image;
        per->df++;
    }
}

/* step 1, order k, for one side (hypotheses, or references counting document
 * frequencies). A k-gram (k > 1) whose (k-1)-grams at its position and the next occur once
 * in the batch occurs once itself: it gets no id (-1), tf 1 and df at most 1, so weight
 * log(N) (log(max(1, df)) = 0), and meets nothing (sorted_orders.py prunes the same). */
static SumsFailure
number_side(Call *c, int refs_side, int k, bs_Watch *watch)
{
    const int64_t *tokens = refs_side ? c->ref_ids : c->hyp_ids;
    const int64_t *starts = refs_side ? c->ref_starts : c->hyp_starts;
    const int64_t *lengths = refs_side ? c->ref_lengths : c->hyp_lengths;
    const int64_t *first = refs_side ? c->ref_first : c->hyp_first;
    int32_t *grams = refs_side ? c->ref_grams : c->hyp_grams;
    const Py_ssize_t total = refs_side ? c->ref_total : c->hyp_total;
    const Py_ssize_t sentences = refs_side ? c->refs : c->images;
    int32_t *row = grams + (size_t)(k - 1) * (size_t)total;
    const int32_t *prefix = k > 1 ? grams + (size_t)(k - 2) * (size_t)total : grams;
    const int32_t *unigram = grams;
    /* order k - 1's ids that occur twice or more (published) */
    const uint8_t *bits = k > 1 ? c->repeated[k - 1] : NULL;
    const int32_t bits_first = k > 1 ? c->id_first[k - 1] : 0;
    if (sentences == 0) return SUMS_DONE;
    Py_ssize_t image = 0, image_end = refs_side ? (Py_ssize_t)c->ref_counts[0] : 1;
    for (Py_ssize_t s = 0; s < sentences; s++) {
        if (bs_watch_poll(watch)) return SUMS_STOPPED;
        if (refs_side) {
            while (s >= image_end) {
                image++;
                image_end += c->ref_counts[image];
            }
        }
        else image = s;
        const int64_t *t = k == 1 ? tokens + starts[s] : NULL; /* k > 1: ids only */
        const int64_t n = lengths[s], at = first[s];
        if (k == 1) {
            for (int64_t p = 0; p < n; p++) {
                const Slot entry = {(uint64_t)t[p], -1};
                const int32_t id = table_id(&c->ids, &c->ids.unigrams, &entry);
                if (id < 0) return SUMS_NO_MEMORY;
                row[at + p] = id;
                counted(&c->ids, id, refs_side, image);
            }
            continue;
        }
        /* the table's slots (a grown table moves them) */
        const PairSlot *slots = c->ids.longer.slots;
        size_t mask = c->ids.longer.capacity - 1;
        for (int64_t p = 0; p + k <= n; p++) {
            /* the slot of the position PREFETCH ahead (the side's positions are one array;
             * across a sentence's end the key is another's, a wasted hint): the table
             * outgrows the caches */
            const int64_t ahead = at + p + PREFETCH;
            if (ahead + k - 1 < (int64_t)total && prefix[ahead] >= 0)
                BS_PREFETCH(&slots[pair_slot((uint32_t)prefix[ahead],
                                             (uint32_t)unigram[ahead + k - 1], mask)]);
            const int32_t left = prefix[at + p] - bits_first;
            const int32_t right = prefix[at + p + 1] - bits_first;
            /* (the ids below the order's first, -1 included, are negative) */
            if (left < 0 || right < 0 || !(bits[left >> 3] >> (left & 7) & 1)
                || !(bits[right >> 3] >> (right & 7) & 1)) {
                row[at + p] = -1;
                continue;
            }
            const uint32_t key_prefix = (uint32_t)(left + bits_first);
            const uint32_t key_token = (uint32_t)unigram[at + p + k - 1];
            int32_t id = -1;
            for (size_t slot = pair_slot(key_prefix, key_token, mask);; slot = (slot + 1) & mask) {
                if (slots[slot].value < 0) break;
                if (slots[slot].prefix == key_prefix && slots[slot].token == key_token) {
                    id = slots[slot].value;
                    break;
                }
            }
            if (id < 0) { /* new */
                const PairSlot entry = {key_prefix, key_token, -1};
                id = pairs_id(&c->ids, &c->ids.longer, &entry);
                if (id < 0) return SUMS_NO_MEMORY;
                slots = c->ids.longer.slots;
                mask = c->ids.longer.capacity - 1;
            }
            row[at + p] = id;
            counted(&c->ids, id, refs_side, image);
        }
        /* the sentence's last k - 1 positions start no k-gram: -1 (the sums read ahead) */
        for (int64_t p = n - k + 1 > 0 ? n - k + 1 : 0; p < n; p++) row[at + p] = -1;
    }
    return SUMS_DONE;
}

/* step 3's tallies, one array per thread: per id of the order being summed, its tf in the
 * sentence stamped `stamp` (the stamps say which tf are the current sentence's: nothing is
 * cleared between sentences) */
typedef struct {
    int32_t stamp, tf;
} Tally;

typedef struct {
    Tally *per;          /* per id - first */
    int32_t first, size; /* the ids it covers: the order's */
    int32_t mark;
    int32_t *list;       /* a hypothesis's and a reference's distinct n-grams */
    double *hyp_value;   /* the hypothesis's values */
} Scratch;

/* the next sentence's stamp (the stamps cleared where they would wrap) */
static inline void
next_sentence(Scratch *s)
{
    if (s->mark == INT32_MAX) {
        for (int32_t id = 0; id < s->size; id++) s->per[id].stamp = 0;
        s->mark = 0;
    }
    s->mark++;
}

/* the tf of `id` in the current sentence: 0 where it does not occur */
static inline int32_t
tally_tf(const Scratch *s, int32_t id)
{
    const Tally *tally = &s->per[id - s->first];
    return tally->stamp == s->mark ? tally->tf : 0;
}

/* the distinct n-grams of a sentence (their ids `row`, `count` of them) in first-occurrence
 * order into `list` (ids, or -1 where pruned), their tf counted in `s` (a new sentence):
 * their number. (An id that occurs once in the batch has the sums of -1: tf 1, the weight
 * log(N) of df 0 or 1, and it meets nothing.) */
static inline Py_ssize_t
distinct_grams(Scratch *s, const int32_t *row, int64_t count, int32_t *list)
{
    next_sentence(s);
    Tally *per = s->per;
    const int32_t mark = s->mark, first = s->first;
    Py_ssize_t listed = 0;
    for (int64_t p = 0; p < count; p++) {
        const int32_t id = row[p];
        if (id < 0) { /* pruned: occurs once in the batch */
            list[listed++] = -1;
            continue;
        }
        Tally *tally = &per[id - first];
        if (tally->stamp != mark) {
            tally->stamp = mark;
            tally->tf = 1;
            list[listed++] = id;
        }
        else tally->tf++;
    }
    return listed;
}

/* the sums of orders k0..k1 of images [b0, b1), whose first reference is r0, image by
 * image (each image's and order's sums are their own: the same numbers in whichever
 * thread and order) */
static SumsFailure
order_sums(Call *c, Scratch *s, int k0, int k1, Py_ssize_t b0, Py_ssize_t b1, Py_ssize_t r0,
           bs_Watch *watch)
{
    const size_t K = (size_t)c->order;
    const int32_t size = c->id_first[k1 + 1] - c->id_first[k0];
    /* tallies of other ids serve (their stamps all below the next mark) */
    if (s->per == NULL || s->size < size) {
        PyMem_RawFree(s->per);
        s->per = PyMem_RawCalloc((size_t)size + 1, sizeof(Tally));
        if (s->per == NULL) return SUMS_NO_MEMORY;
        s->size = size;
    }
    s->first = c->id_first[k0];
    for (Py_ssize_t b = b0; b < b1; b++) {
        if (bs_watch_poll(watch) || __atomic_load_n(&c->stopping, __ATOMIC_RELAXED))
            return SUMS_STOPPED;
        const int64_t m = c->hyp_lengths[b];
        for (int k = k0; k <= k1; k++) {
            const int32_t first = c->id_first[k];
            const double *weight = c->weight[k];
            const int32_t *hyp_row = c->hyp_grams + (size_t)(k - 1) * (size_t)c->hyp_total
                                     + c->hyp_first[b];
            int32_t *hyp_list = s->list;
            const Py_ssize_t hyp_distinct = distinct_grams(
                s, hyp_row, m - k + 1 > 0 ? m - k + 1 : 0, hyp_list);
            double norm = 0.0;
            for (Py_ssize_t q = 0; q < hyp_distinct; q++) {
                const int32_t id = hyp_list[q];
                const double value = id < 0 ? c->single[0]
                                            : (double)s->per[id - s->first].tf
                                                  * weight[id - first];
                s->hyp_value[q] = value;
                norm += value * value;
            }
            c->hyp_norm2[(size_t)b * K + (size_t)(k - 1)] = norm;
            int32_t *ref_list = hyp_list + hyp_distinct;
            Py_ssize_t r = r0;
            for (int64_t j = 0; j < c->ref_counts[b]; j++, r++) {
                const int64_t n = c->ref_lengths[r];
                const int32_t *ref_row = c->ref_grams + (size_t)(k - 1) * (size_t)c->ref_total
                                         + c->ref_first[r];
                const Py_ssize_t ref_distinct = distinct_grams(
                    s, ref_row, n - k + 1 > 0 ? n - k + 1 : 0, ref_list);
                double ref_norm = 0.0;
                for (Py_ssize_t q = 0; q < ref_distinct; q++) {
                    const int32_t id = ref_list[q];
                    const double value = id < 0 ? c->single[1]
                                                : (double)s->per[id - s->first].tf
                                                      * weight[id - first];
                    ref_norm += value * value;
                }
                double product = 0.0;
                for (Py_ssize_t q = 0; q < hyp_distinct; q++) {
                    const int32_t id = hyp_list[q];
                    if (id < 0) continue; /* adds 0 */
                    const int32_t tf = tally_tf(s, id);
                    if (tf == 0) continue; /* adds 0 */
                    const double ref_value = (double)tf * weight[id - first];
                    const double low = s->hyp_value[q] < ref_value ? s->hyp_value[q] : ref_value;
                    product += low * ref_value;
                }
                c->ref_norm2[(size_t)r * K + (size_t)(k - 1)] = ref_norm;
                c->dot[(size_t)r * K + (size_t)(k - 1)] = product;
            }
        }
        r0 += (Py_ssize_t)c->ref_counts[b];
    }
    return SUMS_DONE;
}

/* a helper thread of a call: run(arg, watch) on a thread of its own, its result kept and a
 * lock released at its end */
typedef struct {
    SumsFailure (*run)(void *arg, bs_Watch *watch);
    void *arg;
    SumsFailure result;
    PyThread_type_lock running; /* NULL: not started */
} Thread;

static void
thread_main(void *arg)
{
    Thread *t = arg;
    bs_Watch watch; /* off Python's main thread: the stop epoch only */
    bs_watch_begin(&watch);
    t->result = t->run(t->arg, &watch);
    PyThread_release_lock(t->running);
}

/* t started on run(arg): 0, or -1 where no lock or no thread can be had (t->running NULL:
 * the caller does the work itself) */
static int
thread_start(Thread *t, SumsFailure (*run)(void *, bs_Watch *), void *arg)
{
    t->run = run, t->arg = arg, t->result = SUMS_DONE;
    t->running = PyThread_allocate_lock();
    if (t->running == NULL) return -1;
    PyThread_acquire_lock(t->running, WAIT_LOCK);
    if (PyThread_start_new_thread(thread_main, t) == PYTHREAD_INVALID_THREAD_ID) {
        PyThread_release_lock(t->running);
        PyThread_free_lock(t->running);
        t->running = NULL;
        return -1;
    }
    return 0;
}

/* t (started) joined and its lock freed: the call's failure, `failure` (the failure so far)
 * unless that is SUMS_DONE or t ran out of memory, then t's */
static SumsFailure
thread_join(Thread *t, SumsFailure failure)
{
    PyThread_acquire_lock(t->running, WAIT_LOCK);
    PyThread_release_lock(t->running);
    PyThread_free_lock(t->running);
    t->running = NULL;
    return failure == SUMS_DONE || t->result == SUMS_NO_MEMORY ? t->result : failure;
}

/* Step 3 as tasks: order k's images in c->chunks blocks of consecutive images, the tasks
 * in order of k. Order k's can start once it is numbered (published: its ids' document
 * frequencies copied out of the growing table), so with helper threads the sums of the
 * lower orders are made while this thread numbers the higher ones, and every thread takes
 * the last order's blocks at the end. */

static SumsFailure
take_tasks(Call *c, bs_Watch *watch, int helper)
{
    Scratch s = {NULL, 0, 0, 0, NULL, NULL};
    SumsFailure failure = SUMS_NO_MEMORY;
    s.list = PyMem_RawMalloc(((size_t)c->longest_hyp + (size_t)c->longest_ref + 2)
                             * sizeof(int32_t));
    s.hyp_value = PyMem_RawMalloc(((size_t)c->longest_hyp + 1) * sizeof(double));
    if (s.list == NULL || s.hyp_value == NULL) goto out;
    failure = SUMS_DONE;
    if (c->chunks == 1) /* one thread: image by image, all orders (the outputs' order) */
        failure = order_sums(c, &s, 1, c->order, 0, c->images, 0, watch);
    for (; c->chunks > 1;) {
        const Py_ssize_t task = __atomic_fetch_add(&c->next_task, 1, __ATOMIC_RELAXED);
        if (task >= c->chunks * c->order) break;
        const int k = (int)(task / c->chunks) + 1;
        const Py_ssize_t chunk = task % c->chunks;
        if (helper && __atomic_load_n(&c->published, __ATOMIC_ACQUIRE) < k) {
            /* wait until this thread's caller publishes order k (or stops) */
            PyThread_acquire_lock(c->ready[k], WAIT_LOCK);
            PyThread_release_lock(c->ready[k]);
        }
        if (__atomic_load_n(&c->stopping, __ATOMIC_RELAXED)) {
            failure = SUMS_STOPPED;
            break;
        }
        failure = order_sums(c, &s, k, k, c->chunk_image[chunk], c->chunk_image[chunk + 1],
                             c->chunk_ref[chunk], watch);
        if (failure != SUMS_DONE) {
            __atomic_store_n(&c->stopping, 1, __ATOMIC_RELAXED);
            break;
        }
    }
out:
    PyMem_RawFree(s.per);
    PyMem_RawFree(s.list);
    PyMem_RawFree(s.hyp_value);
    return failure;
}

/* a helper thread's work (Thread's run): the tasks */
static SumsFailure
helper_tasks(void *c, bs_Watch *watch)
{
    return take_tasks(c, watch, 1);
}

/* order k numbered: its ids' document frequencies copied out (the table's counts move as
 * it grows) with a bit per id that says which occur twice or more in the batch, the order
 * released to the helper threads. An n-gram that occurs once has the sums of -1 (tf 1, df
 * at most 1: the weight log(N); it meets nothing): the sums skip its tally and weight, and
 * order k + 1 prunes the n-grams over it (both by the bits, in the caches) */
static SumsFailure
publish(Call *c, int k)
{
    const int32_t first = c->id_first[k], size = c->ids.distinct - first;
    c->id_first[k + 1] = c->ids.distinct;
    c->weight[k] = PyMem_RawMalloc(((size_t)size + 1) * sizeof(double));
    c->repeated[k] = PyMem_RawCalloc((size_t)size / 8 + 1, 1);
    if (c->weight[k] == NULL || c->repeated[k] == NULL) return SUMS_NO_MEMORY;
    const IdCounts *per = c->ids.per + first;
    for (int32_t id = 0; id < size; id++) {
        /* a document frequency counts images: below log_size, which the callers check */
        c->weight[k][id] = c->log_documents - c->log_table[per[id].df];
        if (per[id].count >= 2) c->repeated[k][id >> 3] |= (uint8_t)(1u << (id & 7));
    }
    __atomic_store_n(&c->published, k, __ATOMIC_RELEASE);
    if (c->ready[k] != NULL) {
        PyThread_release_lock(c->ready[k]);
        c->ready_held[k] = 0;
    }
    return SUMS_DONE;
}

/* the tasks' blocks and the helper threads (as many as c->workers asks and the images
 * warrant; none where a lock or a thread cannot be had): their number */
static Py_ssize_t
start_helpers(Call *c, Thread *helpers)
{
    Py_ssize_t threads = c->workers < 1 ? 1 : c->workers;
    if (threads > c->images / IMAGES_PER_THREAD) threads = c->images / IMAGES_PER_THREAD;
    if (threads > MAX_HELPERS + 1) threads = MAX_HELPERS + 1;
    if (threads < 1) threads = 1;
    c->chunks = threads == 1 ? 1 : threads * CHUNKS_PER_THREAD;
    /* the blocks split the references evenly (an image's work follows its references) */
    Py_ssize_t r = 0, b = 0;
    for (Py_ssize_t k = 0; k < c->chunks; k++) {
        c->chunk_image[k] = b;
        c->chunk_ref[k] = r;
        const Py_ssize_t target = c->refs * (k + 1) / c->chunks;
        while (b < c->images && (r < target || k == c->chunks - 1))
            r += (Py_ssize_t)c->ref_counts[b++];
    }
    c->chunk_image[c->chunks] = c->images;
    if (threads == 1) return 0;
    for (int k = 1; k <= c->order; k++) {
        c->ready[k] = PyThread_allocate_lock();
        if (c->ready[k] == NULL) return 0; /* freed by stop_helpers */
        PyThread_acquire_lock(c->ready[k], WAIT_LOCK);
        c->ready_held[k] = 1;
    }
    Py_ssize_t started = 0;
    for (Py_ssize_t h = 0; h < threads - 1; h++) {
        if (thread_start(&helpers[started], helper_tasks, c) < 0) break;
        started++;
    }
    return started;
}

/* the helpers joined (after a failure: stopped first), the locks freed: the first failure */
static SumsFailure
stop_helpers(Call *c, Thread *helpers, Py_ssize_t started, SumsFailure failure)
{
    if (failure != SUMS_DONE) __atomic_store_n(&c->stopping, 1, __ATOMIC_RELAXED);
    for (int k = 1; k <= c->order; k++)
        if (c->ready[k] != NULL && c->ready_held[k]) {
            PyThread_release_lock(c->ready[k]);
            c->ready_held[k] = 0;
        }
    for (Py_ssize_t h = 0; h < started; h++) failure = thread_join(&helpers[h], failure);
    for (int k = 1; k <= c->order; k++)
        if (c->ready[k] != NULL) {
            PyThread_free_lock(c->ready[k]);
            c->ready[k] = NULL;
        }
    return failure;
}

static void
call_free(Call *c)
{
    PyMem_RawFree(c->hyp_first);
    PyMem_RawFree(c->ref_first);
    PyMem_RawFree(c->hyp_grams);
    PyMem_RawFree(c->ref_grams);
    table_free(&c->ids.unigrams);
    pairs_free(&c->ids.longer);
    PyMem_RawFree(c->ids.per);
    for (int k = 0; k <= MAX_ORDER; k++) {
        PyMem_RawFree(c->weight[k]);
        PyMem_RawFree(c->repeated[k]);
    }
}

/* positions of each sentence of one side in its id arrays: its total, or -1 (too many) */
static Py_ssize_t
first_positions(const int64_t *lengths, Py_ssize_t sentences, int64_t *first, int64_t *longest)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t s = 0; s < sentences; s++) {
        first[s] = total;
        if (lengths[s] > *longest) *longest = lengths[s];
        if (lengths[s] > INT32_MAX - total) return -1;
        total += (Py_ssize_t)lengths[s];
    }
    return total;
}

/* the work arrays, once the sentences' lengths are known: 0, or SUMS_NO_MEMORY. `hyp_row`
 * and `ref_row` (moved, or NULL): the sides' unigram ids where they are numbered already,
 * the first rows of the grams */
static SumsFailure
prepare(Call *c, int32_t *hyp_row, int32_t *ref_row)
{
    c->hyp_first = PyMem_RawMalloc(((size_t)c->images + 1) * sizeof(int64_t));
    c->ref_first = PyMem_RawMalloc(((size_t)c->refs + 1) * sizeof(int64_t));
    c->hyp_grams = hyp_row;
    c->ref_grams = ref_row;
    if (c->hyp_first == NULL || c->ref_first == NULL) return SUMS_NO_MEMORY;
    c->hyp_total = first_positions(c->hyp_lengths, c->images, c->hyp_first, &c->longest_hyp);
    c->ref_total = first_positions(c->ref_lengths, c->refs, c->ref_first, &c->longest_ref);
    if (c->hyp_total < 0 || c->ref_total < 0) return SUMS_NO_MEMORY;
    const size_t K = (size_t)c->order;
    int32_t *hyp_grams = PyMem_RawRealloc(hyp_row, K * ((size_t)c->hyp_total + 1) * sizeof(int32_t));
    if (hyp_grams == NULL) return SUMS_NO_MEMORY;
    c->hyp_grams = hyp_grams;
    int32_t *ref_grams = PyMem_RawRealloc(ref_row, K * ((size_t)c->ref_total + 1) * sizeof(int32_t));
    if (ref_grams == NULL) return SUMS_NO_MEMORY;
    c->ref_grams = ref_grams;
    /* the ids above order 1: at most the positions, far fewer where the captions repeat
     * one another (a table grown at half full) */
    size_t capacity = 1024;
    while (capacity < (size_t)(c->hyp_total + c->ref_total) / 4 && capacity < ((size_t)1 << 40))
        capacity *= 2;
    if (c->ids.unigrams.slots == NULL && table_init(&c->ids.unigrams, 1024) < 0)
        return SUMS_NO_MEMORY;
    if (pairs_init(&c->ids.longer, capacity) < 0) return SUMS_NO_MEMORY;
    return SUMS_DONE;
}

/* orders `from`..K numbered (the lower ones are), each published, the sums */
static SumsFailure
finish(Call *c, int from, bs_Watch *watch)
{
    if (c->images == 0) return SUMS_DONE;
    c->single[0] = 1.0 * (c->log_documents - c->log_table[0]);
    c->single[1] = 1.0 * (c->log_documents - c->log_table[1]);
    /* a document frequency counts images: below log_size, which the callers check */
    Thread helpers[MAX_HELPERS];
    const Py_ssize_t started = start_helpers(c, helpers);
    SumsFailure failure = SUMS_DONE;
    c->id_first[1] = 0;
    for (int k = 1; k <= c->order && failure == SUMS_DONE; k++) {
        if (k >= from) {
            if ((failure = number_side(c, 0, k, watch)) != SUMS_DONE) break;
            if ((failure = number_side(c, 1, k, watch)) != SUMS_DONE) break;
            /* the next order's keys: a table of this order's alone (as small as can be) */
            if (k > 1) pairs_clear(&c->ids.longer);
        }
        failure = publish(c, k);
    }
    if (failure == SUMS_DONE) failure = take_tasks(c, watch, 0);
    return stop_helpers(c, helpers, started, failure);
}

static SumsFailure
run_ids(Call *c, bs_Watch *watch)
{
    SumsFailure failure = check_slices(c);
    if (failure != SUMS_DONE) return failure;
    int64_t sum = 0;
    for (Py_ssize_t b = 0; b < c->images; b++) {
        if (c->ref_counts[b] > c->refs - sum) return SUMS_BAD_INPUT;
        sum += c->ref_counts[b];
    }
    if (sum != c->refs) return SUMS_BAD_INPUT;
    if ((failure = prepare(c, NULL, NULL)) != SUMS_DONE) return failure;
    return finish(c, 1, watch);
}

/* ------------------------------------------------------ what the two entry points share */

/* c zeroed, then the number of arguments (`fewest`, or one more: workers, the last), order
 * (args[order_at]) and log_documents (args[order_at + 2]) into it: 0, or -1 with the
 * exception */
static int
call_begin(Call *c, const char *name, PyObject *const *args, Py_ssize_t nargs,
           Py_ssize_t fewest, int order_at)
{
    memset(c, 0, sizeof(*c));
    if (bs_arg_count(name, nargs, fewest, fewest + 1) < 0) return -1;
    Py_ssize_t workers = 1, order;
    if (nargs > fewest && bs_index_argument(args[fewest], "workers", &workers) < 0) return -1;
    if (workers < 1) {
        PyErr_Format(PyExc_ValueError, "workers must be at least 1; got %zd", workers);
        return -1;
    }
    if (bs_index_argument(args[order_at], "order", &order) < 0) return -1;
    if (order < 1 || order > MAX_ORDER) {
        PyErr_Format(PyExc_ValueError, "order must be 1 to %d; got %zd", MAX_ORDER, order);
        return -1;
    }
    const double log_documents = PyFloat_AsDouble(args[order_at + 2]);
    if (log_documents == -1.0 && PyErr_Occurred()) return -1;
    c->workers = workers, c->order = (int)order, c->log_documents = log_documents;
    return 0;
}

/* log_table (args[log_at]: float64, at least images + 1 values) and the outputs hyp_norm2,
 * ref_norm2 and dot (args[outputs_at:][:3]: float64, written, of images x order, refs x
 * order and refs x order values) into c (its images, refs and order set), their views
 * appended to views[*held:]: 0, or -1 with a TypeError or ValueError naming the argument */
static int
read_doubles(Call *c, PyObject *const *args, int log_at, int outputs_at, Py_buffer *views,
             int *held)
{
    static const char *names[4] = {"log_table", "hyp_norm2", "ref_norm2", "dot"};
    const Py_ssize_t sizes[4] = {-1, c->images * c->order, c->refs * c->order,
                                 c->refs * c->order};
    double *buffers[4];
    for (int k = 0; k < 4; k++) {
        Py_buffer *view = &views[*held];
        if (bs_float64_buffer(args[k == 0 ? log_at : outputs_at + k - 1], view, names[k], k > 0)
                < 0)
            return -1;
        (*held)++;
        buffers[k] = view->buf;
        if (k > 0 && view->len != sizes[k] * (Py_ssize_t)sizeof(double)) {
            PyErr_Format(PyExc_ValueError, "%s must hold %zd values; it holds %zd", names[k],
                         sizes[k], view->len / (Py_ssize_t)sizeof(double));
            return -1;
        }
    }
    c->log_size = views[*held - 4].len / (Py_ssize_t)sizeof(double);
    if (c->log_size < c->images + 1) {
        PyErr_Format(PyExc_ValueError, "log_table must hold at least %zd values", c->images + 1);
        return -1;
    }
    c->log_table = buffers[0], c->hyp_norm2 = buffers[1], c->ref_norm2 = buffers[2];
    c->dot = buffers[3];
    return 0;
}

/* the sums of c by `run` (run_ids, run_text) with the GIL released, Ctrl-C and stop_calls()
 * watched, c's work freed: None, or NULL with the exception (SUMS_BAD_INPUT's message
 * `bad_input`) */
static PyObject *
sums_call(Call *c, SumsFailure (*run)(Call *, bs_Watch *), const char *bad_input)
{
    SumsFailure failure;
    bs_Watch watch; /* Ctrl-C and stop_calls() end the call */
    bs_watch_begin(&watch);
    Py_BEGIN_ALLOW_THREADS /* the buffers and the str are held and do not change */
    failure = run(c, &watch);
    Py_END_ALLOW_THREADS
    call_free(c);
    if (bs_watch_end(&watch) < 0) return NULL; /* KeyboardInterrupt is set */
    switch (failure) {
    case SUMS_NO_MEMORY:
        return PyErr_NoMemory();
    case SUMS_BAD_INPUT:
        PyErr_SetString(PyExc_ValueError, bad_input);
        return NULL;
    case SUMS_STOPPED: /* a helper thread saw stop_calls() */
        if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        return NULL;
    case SUMS_DONE:
        break;
    }
    return Py_NewRef(Py_None);
}

const char bs_cider_sums_doc[] =
"cider_sums(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths, ref_counts,\n"
"           order, log_table, log_documents, hyp_norm2, ref_norm2, dot, workers=1, /)\n--\n\n"
"The sums of pycocoevalcap's CIDEr-D with the batch's own document frequencies.\n\n"
"Image b's hypothesis is hyp_ids[hyp_starts[b]:][:hyp_lengths[b]] (C-contiguous int64\n"
"buffers, shape (B,)); its ref_counts[b] >= 1 references follow one another in ref_starts\n"
"and ref_lengths (shape (R,), R their sum), slices of ref_ids. log_table[d] (float64, at\n"
"least B + 1 values) is log(max(1, d)), log_documents log(B). Written: hyp_norm2 (B x\n"
"order float64) and ref_norm2 (R x order), each sentence's squared tf-idf norm per order;\n"
"dot (R x order), each reference's clipped dot product with its hypothesis. The GIL is\n"
"released while the sums are made; they run on up to `workers` threads (1: this one\n"
"alone), the same numbers whatever their number.";

PyObject *
bs_cider_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Call c;
    if (call_begin(&c, "cider_sums", args, nargs, 13, 7) < 0) return NULL;
    Py_buffer views[11];
    int held = 0;
    PyObject *result = NULL;
    static const char *names[7] = {"hyp_ids", "hyp_starts", "hyp_lengths", "ref_ids",
                                   "ref_starts", "ref_lengths", "ref_counts"};
    const Py_ssize_t any[1] = {-1};
    Py_ssize_t images = 0, refs = 0;
    for (int k = 0; k < 7; k++) {
        Py_ssize_t shape[1] = {k == 2 || k == 6 ? images : k == 5 ? refs : -1};
        if (bs_int64_buffer(args[k], &views[held], names[k], 1, k == 0 || k == 3 ? any : shape,
                            0) < 0)
            goto done;
        if (k == 1) images = views[held].shape[0];
        if (k == 4) refs = views[held].shape[0];
        held++;
    }
    c.hyp_ids = views[0].buf, c.hyp_starts = views[1].buf, c.hyp_lengths = views[2].buf;
    c.ref_ids = views[3].buf, c.ref_starts = views[4].buf, c.ref_lengths = views[5].buf;
    c.ref_counts = views[6].buf;
    c.hyp_size = views[0].len / 8, c.ref_size = views[3].len / 8;
    c.images = images, c.refs = refs;
    if (read_doubles(&c, args, 8, 10, views, &held) < 0) goto done;
    result = sums_call(&c, run_ids, "cider_sums: a slice outside its buffer, ref_counts that "
                       "are not positive or do not sum to the references, or a short log_table");
done:
    bs_release_views(views, held);
    return result;
}

/* ------------------------------------------------------------------------------------
 * cider_text_sums: the same sums of pycocoevalcap's dictionaries' str, each caption split
 * as its CiderScorer splits it (str.split()), its words numbered here (their keys as
 * caption_words.h makes them, a match of a hash confirmed by the code points): no
 * numbering of the call in Python.
 */

/* whitespace to str.split() (Py_UNICODE_ISSPACE): the one-byte code points by a table */
static const unsigned char SPACE_BYTES[256] = {
    [9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [0x1c] = 1, [0x1d] = 1, [0x1e] = 1,
    [0x1f] = 1, [' '] = 1, [0x85] = 1, [0xa0] = 1,
};

static inline int
is_space(Py_UCS4 c)
{
    return c < 256 ? SPACE_BYTES[c] : bs_is_space(c);
}

/* the end of the word of one-byte code points `bytes` that starts at `i` (the next
 * whitespace, or `length`). Little-endian machines look at 8 bytes at a time for one below
 * 0x21 or above 0x7f, the only ones that can be whitespace (the lowest flagged byte of the
 * SWAR test is exact), and at that byte alone */
static inline Py_ssize_t
word_end_bytes(const unsigned char *bytes, Py_ssize_t i, Py_ssize_t length)
{
#if WORDS_FROM_LOADS
    const uint64_t highs = 0x8080808080808080ULL, below = 0x2121212121212121ULL;
    while (i + 8 <= length) {
        uint64_t x;
        memcpy(&x, bytes + i, 8);
        const uint64_t flagged = ((x - below) & ~x & highs) | (x & highs);
        if (flagged == 0) {
            i += 8;
            continue;
        }
        i += __builtin_ctzll(flagged) >> 3;
        if (SPACE_BYTES[bytes[i]]) return i;
        i++;
    }
#endif
    while (i < length && !SPACE_BYTES[bytes[i]]) i++;
    return i;
}

typedef struct {
    Line line;     /* the str the word was first met in */
    Word word;
    int32_t value; /* its id; -1: free */
} WordSlot;

static inline size_t
word_slot(const Word *w, size_t mask)
{
    return slot_of(w->key ^ ((uint64_t)w->length << 56), mask);
}

#define WORD_HASH(slot, mask) word_slot(&(slot)->word, mask)
#define WORD_SAME(slot, entry) same_word(&(slot)->line, &(slot)->word, &(entry)->line, &(entry)->word)
OPEN_TABLE(Words, words, WordSlot, WORD_HASH, WORD_SAME)

typedef struct {
    int32_t *items;
    size_t size, capacity;
} Int32s;

static int
int32s_push(Int32s *a, int32_t value)
{
    if (a->size == a->capacity) {
        size_t more = a->capacity ? a->capacity * 2 : 4096;
        int32_t *bigger = PyMem_RawRealloc(a->items, more * sizeof(int32_t));
        if (bigger == NULL) return -1;
        a->items = bigger;
        a->capacity = more;
    }
    a->items[a->size++] = value;
    return 0;
}

/* the words of caption `str` (str.split()) numbered and appended to `ids`: their number,
 * or -1 (no memory) or -2 (too many ids) */
static int64_t
text_sentence(Ids *numbered, Words *words, PyObject *str, int refs_side, Py_ssize_t image,
              Int32s *ids)
{
    const Line t = {PyUnicode_KIND(str), PyUnicode_DATA(str), PyUnicode_GET_LENGTH(str)};
    const unsigned char *bytes = t.kind == PyUnicode_1BYTE_KIND ? t.data : NULL;
    Py_ssize_t i = 0;
    int64_t count = 0;
    for (;;) {
        if (bytes != NULL)
            while (i < t.length && SPACE_BYTES[bytes[i]]) i++;
        else
            while (i < t.length && is_space(line_at(&t, i))) i++;
        if (i >= t.length) break;
        const Py_ssize_t start = i;
        if (bytes != NULL)
            i = word_end_bytes(bytes, i, t.length);
        else
            while (i < t.length && !is_space(line_at(&t, i))) i++;
        const WordSlot entry = {t, word_key(&t, start, i - start), -1};
        const int32_t id = words_id(numbered, words, &entry);
        if (id < 0) return id;
        if (int32s_push(ids, id) < 0) return -1;
        counted(numbered, id, refs_side, image);
        count++;
    }
    return count;
}

/* the words of images [b0, b1) (their first reference r0) numbered: a table, ids and
 * counts of their own, the ids appended to hyp_ids and ref_ids, the lengths written */
typedef struct {
    Call *c;
    PyObject *const *held; /* the first image's hypothesis */
    Py_ssize_t b0, b1, r0;
    Words words;
    Ids ids;
    Int32s hyp_ids, ref_ids;
} TextPart;

static SumsFailure
text_part(TextPart *part, bs_Watch *watch)
{
    Call *c = part->c;
    if (words_init(&part->words, 1 << 11) < 0) return SUMS_NO_MEMORY;
    Py_ssize_t at = 0, r = part->r0;
    int64_t *hyp_lengths = (int64_t *)c->hyp_lengths, *ref_lengths = (int64_t *)c->ref_lengths;
    for (Py_ssize_t b = part->b0; b < part->b1; b++) {
        if (bs_watch_poll(watch) || __atomic_load_n(&c->stopping, __ATOMIC_RELAXED))
            return SUMS_STOPPED;
        const int64_t n = text_sentence(&part->ids, &part->words, part->held[at++], 0, b,
                                        &part->hyp_ids);
        if (n < 0) return SUMS_NO_MEMORY;
        hyp_lengths[b] = n;
        for (int64_t j = 0; j < c->ref_counts[b]; j++, r++) {
            const int64_t m = text_sentence(&part->ids, &part->words, part->held[at++], 1, b,
                                            &part->ref_ids);
            if (m < 0) return SUMS_NO_MEMORY;
            ref_lengths[r] = m;
        }
    }
    return SUMS_DONE;
}

/* the second part's work on a helper thread (Thread's run): a failure stops the first */
static SumsFailure
text_helper(void *arg, bs_Watch *watch)
{
    TextPart *part = arg;
    const SumsFailure result = text_part(part, watch);
    if (result != SUMS_DONE) __atomic_store_n(&part->c->stopping, 1, __ATOMIC_RELAXED);
    return result;
}

static void
text_part_free(TextPart *part)
{
    words_free(&part->words);
    PyMem_RawFree(part->ids.per);
    PyMem_RawFree(part->hyp_ids.items);
    PyMem_RawFree(part->ref_ids.items);
}

/* `ids` (a part's) renumbered by `map` and appended to `to` */
static int
append_mapped(Int32s *to, const Int32s *ids, const int32_t *map)
{
    if (ids->size == 0) return 0;
    if (to->size + ids->size > to->capacity) {
        int32_t *bigger = PyMem_RawRealloc(to->items, (to->size + ids->size) * sizeof(int32_t));
        if (bigger == NULL) return -1;
        to->items = bigger;
        to->capacity = to->size + ids->size;
    }
    for (size_t k = 0; k < ids->size; k++) to->items[to->size++] = map[ids->items[k]];
    return 0;
}

/* the second part's words looked up in the first's table (added where new), their
 * counts added to the first's (the parts' images differ: the document frequencies add up),
 * its ids renumbered and appended. The ids are labels: the sums do not depend on them */
static SumsFailure
merge_parts(TextPart *first, TextPart *second)
{
    int32_t *map = PyMem_RawMalloc(((size_t)second->ids.distinct + 1) * sizeof(int32_t));
    if (map == NULL) return SUMS_NO_MEMORY;
    for (size_t k = 0; k < second->words.capacity; k++) {
        const WordSlot *slot = &second->words.slots[k];
        if (slot->value < 0) continue;
        const int32_t id = words_id(&first->ids, &first->words, slot);
        if (id < 0) {
            PyMem_RawFree(map);
            return SUMS_NO_MEMORY;
        }
        map[slot->value] = id;
        IdCounts *to = &first->ids.per[id];
        const IdCounts *from = &second->ids.per[slot->value];
        to->df += from->df;
        to->count = to->count + from->count < 2 ? to->count + from->count : 2;
    }
    const int failed = append_mapped(&first->hyp_ids, &second->hyp_ids, map) < 0
                       || append_mapped(&first->ref_ids, &second->ref_ids, map) < 0;
    PyMem_RawFree(map);
    return failed ? SUMS_NO_MEMORY : SUMS_DONE;
}

/* step 1 from text: the unigrams (the images in two parts, the second on a helper thread,
 * where two threads are asked for and the images are many), then the orders above them */
static SumsFailure
run_text(Call *c, bs_Watch *watch)
{
    TextPart parts[2];
    memset(parts, 0, sizeof(parts));
    int split = c->workers > 1 && c->images >= 2 * IMAGES_PER_THREAD;
    Py_ssize_t half = c->images, half_refs = c->refs;
    if (split) { /* the references split evenly */
        half = 0, half_refs = 0;
        while (half < c->images && half_refs < c->refs / 2) half_refs += c->ref_counts[half++];
    }
    for (int k = 0; k < 2; k++) {
        parts[k].c = c;
        parts[k].b0 = k ? half : 0;
        parts[k].b1 = k ? c->images : half;
        parts[k].r0 = k ? half_refs : 0;
        parts[k].held = c->captions + (k ? half + half_refs : 0);
    }
    Thread helper = {NULL, NULL, SUMS_DONE, NULL};
    if (split) thread_start(&helper, text_helper, &parts[1]);
    SumsFailure failure = text_part(&parts[0], watch);
    if (failure != SUMS_DONE) __atomic_store_n(&c->stopping, 1, __ATOMIC_RELAXED);
    if (helper.running != NULL) failure = thread_join(&helper, failure);
    else if (split && failure == SUMS_DONE) failure = text_part(&parts[1], watch);
    if (split && failure == SUMS_DONE) failure = merge_parts(&parts[0], &parts[1]);
    if (failure == SUMS_DONE) {
        /* the first part's ids and counts are the call's; its unigram ids become the
         * grams' first rows (c owns them from here) */
        c->ids.per = parts[0].ids.per;
        c->ids.distinct = parts[0].ids.distinct;
        c->ids.ids_capacity = parts[0].ids.ids_capacity;
        parts[0].ids.per = NULL;
        failure = prepare(c, parts[0].hyp_ids.items, parts[0].ref_ids.items);
        parts[0].hyp_ids.items = parts[0].ref_ids.items = NULL;
    }
    text_part_free(&parts[0]);
    text_part_free(&parts[1]);
    if (failure != SUMS_DONE) return failure;
    return finish(c, 2, watch);
}

const char bs_cider_text_sums_doc[] =
"cider_text_sums(hypotheses, references, order, log_table, log_documents, hyp_lengths,\n"
"                ref_lengths, hyp_norm2, ref_norm2, dot, workers=1, /)\n--\n\n"
"cider_sums of captions: hypotheses and references are sequences (tuples or lists) of B\n"
"items, hypotheses[b] a list of one str, references[b] a non-empty list of str (R in\n"
"all), each split with str.split(). hyp_lengths (B) and ref_lengths (R), C-contiguous\n"
"int64 buffers, receive the captions' numbers of words; the other arguments are\n"
"cider_sums'. A caption that is not of those types is a ValueError. The GIL is released\n"
"while the captions are split and the sums made.";

PyObject *
bs_cider_text_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Call c;
    if (call_begin(&c, "cider_text_sums", args, nargs, 10, 2) < 0) return NULL;
    const Py_ssize_t images = caption_images(args);
    if (images < 0) return NULL;
    Py_buffer views[6];
    int held_views = 0;
    PyObject *result = NULL;
    PyObject **held = NULL;
    int64_t *ref_counts = NULL;
    Py_ssize_t count = 0;
    const Py_ssize_t any[1] = {-1}, by_image[1] = {images};
    if (bs_int64_buffer(args[5], &views[held_views], "hyp_lengths", 1, by_image, 1) < 0)
        goto done;
    held_views++;
    if (bs_int64_buffer(args[6], &views[held_views], "ref_lengths", 1, any, 1) < 0) goto done;
    held_views++;
    const Py_ssize_t refs = views[1].shape[0];
    c.images = images, c.refs = refs;
    if (read_doubles(&c, args, 3, 7, views, &held_views) < 0) goto done;
    /* the str, held: image by image, its hypothesis then its references */
    held = PyMem_Malloc(((size_t)images + (size_t)refs + 1) * sizeof(PyObject *));
    ref_counts = PyMem_Malloc(((size_t)images + 1) * sizeof(int64_t));
    if (held == NULL || ref_counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *const *hyp_items = PySequence_Fast_ITEMS(args[0]);
    PyObject *const *ref_items = PySequence_Fast_ITEMS(args[1]);
    Py_ssize_t seen_refs = 0;
    for (Py_ssize_t b = 0; b < images; b++) {
        const Py_ssize_t size = image_references(hyp_items[b], ref_items[b], b);
        if (size < 0) goto done;
        if (size > refs - seen_refs) {
            PyErr_Format(PyExc_ValueError, "ref_lengths must hold one value per reference "
                         "(more than %zd)", refs);
            goto done;
        }
        seen_refs += size;
        ref_counts[b] = size;
        if (hold_captions(hyp_items[b], ref_items[b], b, held, &count) < 0) goto done;
    }
    if (seen_refs != refs) {
        PyErr_Format(PyExc_ValueError, "ref_lengths must hold one value per reference (%zd), "
                     "not %zd", seen_refs, refs);
        goto done;
    }
    c.hyp_lengths = views[0].buf, c.ref_lengths = views[1].buf, c.ref_counts = ref_counts;
    c.captions = held;
    /* (SUMS_BAD_INPUT cannot happen: the lengths are made here) */
    result = sums_call(&c, run_text, "cider_text_sums: a short log_table");
done:
    for (Py_ssize_t k = 0; k < count; k++) Py_DECREF(held[k]);
    PyMem_Free(held);
    PyMem_Free(ref_counts);
    bs_release_views(views, held_views);
    return result;
}
