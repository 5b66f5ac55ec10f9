/* The compiled propagation loop: arc consistency over flat uint64 domain rows.
 *
 * The same fixpoint as csp_crossword.search.propagation.Network._propagate_python, on the arrays
 * csp_crossword.search.propagation_kernel.CompiledNetwork packs (see that module for the data
 * layout). Built by the package's own build (setup.py); the Python loop stays the reference and
 * the fallback. The interpreter lock is released while the loop runs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* At or below this many words a domain's glyph supports are read from the words' glyph codes
 * (one pass over the words per crossing, stopping once every glyph of the cell is seen) instead
 * of one column scan per glyph. */
#define KERNEL_SMALL_DOMAIN 512
#define NO_FAILURE (-1)
#define NO_CAUSE (-1)

typedef struct {
    uint64_t *domains;
    uint64_t *masks;
    uint8_t *settled;
    uint8_t *touched;
    const int64_t *changed;
    Py_ssize_t n_changed;
    const int64_t *offsets;
    const int64_t *widths;
    const int64_t *kinds;
    const int64_t *column_offsets; /* [kind][pos][glyph], flat */
    int64_t longest;
    int64_t glyph_count;
    const uint64_t *columns;
    const int64_t *code_offsets;
    const int64_t *codes;
    const int64_t *lengths;
    const int64_t *nb_start;
    const int64_t *nb_other;
    const int64_t *nb_pos;
    const int64_t *nb_other_pos;
    const int64_t *nb_cell;
    const int64_t *same_start;
    const int64_t *same_slots;
    int check_repeats;
    Py_ssize_t n;
} Network;

static inline int64_t popcount64(uint64_t x) { return (int64_t)__builtin_popcountll(x); }

static inline int64_t column_start(const Network *net, int64_t kind, int64_t pos, int64_t glyph) {
    return net->column_offsets[(kind * net->longest + pos) * net->glyph_count + glyph];
}

/* Appends slot s to the circular queue unless it is queued already. */
static inline void enqueue(int64_t *queue, uint8_t *queued, Py_ssize_t n, Py_ssize_t head, Py_ssize_t *size,
                           int64_t s) {
    if (!queued[s]) {
        queued[s] = 1;
        queue[(head + *size) % n] = s;
        (*size)++;
    }
}

/* Returns 0 on a fixpoint, 1 on a failure (slot and cause set), -1 when out of memory. */
static int run(const Network *net, int64_t *failed, int64_t *cause) {
    Py_ssize_t n = net->n;
    int64_t *queue = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    uint8_t *queued = calloc((size_t)(n > 0 ? n : 1), 1);
    int64_t *starts = malloc(sizeof(int64_t) * (size_t)(net->glyph_count > 0 ? net->glyph_count : 1));
    int64_t *ids = malloc(sizeof(int64_t) * KERNEL_SMALL_DOMAIN);
    int status = 0;
    if (!queue || !queued || !starts || !ids) {
        status = -1;
        goto done;
    }
    Py_ssize_t head = 0, size = 0;
    for (Py_ssize_t k = 0; k < net->n_changed; k++) {
        int64_t s = net->changed[k];
        enqueue(queue, queued, n, head, &size, s);
    }
    uint64_t *domains = net->domains;
    while (size > 0) {
        int64_t s = queue[head];
        head = (head + 1) % n;
        size--;
        queued[s] = 0;
        int64_t base = net->offsets[s], width = net->widths[s];
        int64_t count = 0, first = width, last = -1;
        for (int64_t x = 0; x < width; x++) {
            uint64_t word = domains[base + x];
            if (word) {
                count += popcount64(word);
                last = x;
                if (first == width) first = x;
            }
        }
        if (count == 0) {
            *failed = s;
            *cause = NO_CAUSE;
            status = 1;
            goto done;
        }
        if (net->check_repeats && !net->settled[s] && count == 1) {
            net->settled[s] = 1;
            uint64_t word = domains[base + last];
            for (int64_t u_k = net->same_start[s]; u_k < net->same_start[s + 1]; u_k++) {
                int64_t u = net->same_slots[u_k];
                int64_t cell = net->offsets[u] + last;
                if (domains[cell] & word) {
                    domains[cell] &= ~word;
                    net->touched[u] = 1;
                    int empty = 1;
                    for (int64_t x = 0; x < net->widths[u]; x++) {
                        if (domains[net->offsets[u] + x]) {
                            empty = 0;
                            break;
                        }
                    }
                    if (empty) {
                        *failed = u;
                        *cause = s;
                        status = 1;
                        goto done;
                    }
                    enqueue(queue, queued, n, head, &size, u);
                }
            }
        }
        int64_t kind = net->kinds[s], length = net->lengths[s];
        int small = count <= KERNEL_SMALL_DOMAIN;
        if (small) { /* the domain's word ids, for the code look-ups below */
            int64_t found = 0;
            for (int64_t x = first; x <= last; x++) {
                uint64_t word = domains[base + x];
                while (word) {
                    uint64_t low = word & (~word + 1);
                    ids[found++] = x * 64 + popcount64(low - 1);
                    word ^= low;
                }
            }
        }
        int64_t code_base = net->code_offsets[kind];
        for (int64_t e = net->nb_start[s]; e < net->nb_start[s + 1]; e++) {
            int64_t t = net->nb_other[e], i = net->nb_pos[e], j = net->nb_other_pos[e], c = net->nb_cell[e];
            uint64_t old = net->masks[c], kept = 0;
            if (small) {
                for (int64_t k = 0; k < count; k++) {
                    kept |= (uint64_t)1 << (uint64_t)net->codes[code_base + ids[k] * length + i];
                    if ((kept & old) == old) break;
                }
                kept &= old;
            } else {
                for (int64_t g = 0; g < net->glyph_count; g++) {
                    uint64_t glyph = (uint64_t)1 << (uint64_t)g;
                    if (!(old & glyph)) continue;
                    int64_t start = column_start(net, kind, i, g);
                    if (start < 0) continue;
                    for (int64_t x = first; x <= last; x++) {
                        if (domains[base + x] & net->columns[start + x]) {
                            kept |= glyph;
                            break;
                        }
                    }
                }
            }
            if (kept == old) continue;
            if (kept == 0) {
                *failed = s;
                *cause = t;
                status = 1;
                goto done;
            }
            net->masks[c] = kept;
            uint64_t removed = old & ~kept;
            int64_t other_kind = net->kinds[t], other_base = net->offsets[t];
            int changed_t = 0, nonempty = 0;
            int keep_side = popcount64(kept) < popcount64(removed);
            uint64_t use = keep_side ? kept : removed;
            int64_t used = 0;
            for (int64_t g = 0; g < net->glyph_count; g++) {
                if (use & ((uint64_t)1 << (uint64_t)g)) {
                    int64_t start = column_start(net, other_kind, j, g);
                    if (start >= 0) starts[used++] = start;
                }
            }
            for (int64_t x = 0; x < net->widths[t]; x++) {
                uint64_t current = domains[other_base + x];
                if (!current) continue;
                uint64_t uni = 0;
                for (int64_t k = 0; k < used; k++) uni |= net->columns[starts[k] + x];
                uint64_t after = keep_side ? (current & uni) : (current & ~uni);
                if (after != current) {
                    domains[other_base + x] = after;
                    changed_t = 1;
                }
                if (after) nonempty = 1;
            }
            if (changed_t) {
                net->touched[t] = 1;
                if (!nonempty) {
                    *failed = t;
                    *cause = s;
                    status = 1;
                    goto done;
                }
                enqueue(queue, queued, n, head, &size, t);
            }
        }
    }
done:
    free(queue);
    free(queued);
    free(starts);
    free(ids);
    return status;
}

#define N_ARRAYS 20

/* propagate(domains, masks, settled, touched, changed, offsets, widths, kinds, column_offsets,
 *           columns, code_offsets, codes, lengths, nb_start, nb_other, nb_pos, nb_other_pos,
 *           nb_cell, same_start, same_slots, longest, glyph_count, check_repeats)
 * -> (failed slot, cause), each -1 for none. The first four arrays are updated in place. */
static PyObject *propagate(PyObject *self, PyObject *args) {
    PyObject *objects[N_ARRAYS];
    long long longest, glyph_count;
    int check_repeats;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOOOLLp", &objects[0], &objects[1], &objects[2], &objects[3],
                          &objects[4], &objects[5], &objects[6], &objects[7], &objects[8], &objects[9],
                          &objects[10], &objects[11], &objects[12], &objects[13], &objects[14], &objects[15],
                          &objects[16], &objects[17], &objects[18], &objects[19], &longest, &glyph_count,
                          &check_repeats))
        return NULL;
    /* item sizes: uint64 domains and masks, uint8 settled and touched, int64 or uint64 the rest */
    static const Py_ssize_t item[N_ARRAYS] = {8, 8, 1, 1, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    Py_buffer views[N_ARRAYS];
    int got = 0;
    for (; got < N_ARRAYS; got++) {
        int flags = got < 4 ? (PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
                            : (PyBUF_C_CONTIGUOUS | PyBUF_FORMAT);
        if (PyObject_GetBuffer(objects[got], &views[got], flags) < 0) goto fail;
        if (views[got].itemsize != item[got]) {
            PyErr_Format(PyExc_TypeError, "argument %d: items of %zd bytes, expected %zd", got + 1,
                         views[got].itemsize, item[got]);
            got++;
            goto fail;
        }
    }
    Network net = {
        .domains = views[0].buf,
        .masks = views[1].buf,
        .settled = views[2].buf,
        .touched = views[3].buf,
        .changed = views[4].buf,
        .n_changed = views[4].len / 8,
        .offsets = views[5].buf,
        .widths = views[6].buf,
        .kinds = views[7].buf,
        .column_offsets = views[8].buf,
        .longest = longest,
        .glyph_count = glyph_count,
        .columns = views[9].buf,
        .code_offsets = views[10].buf,
        .codes = views[11].buf,
        .lengths = views[12].buf,
        .nb_start = views[13].buf,
        .nb_other = views[14].buf,
        .nb_pos = views[15].buf,
        .nb_other_pos = views[16].buf,
        .nb_cell = views[17].buf,
        .same_start = views[18].buf,
        .same_slots = views[19].buf,
        .check_repeats = check_repeats,
        .n = views[5].len / 8,
    };
    int64_t failed = NO_FAILURE, cause = NO_CAUSE;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run(&net, &failed, &cause);
    Py_END_ALLOW_THREADS
    for (int k = 0; k < N_ARRAYS; k++) PyBuffer_Release(&views[k]);
    if (status < 0) return PyErr_NoMemory();
    return Py_BuildValue("(LL)", (long long)failed, (long long)cause);
fail:
    for (int k = 0; k < got; k++) PyBuffer_Release(&views[k]);
    return NULL;
}

static PyMethodDef methods[] = {
    {"propagate", propagate, METH_VARARGS, "Arc consistency to a fixpoint on packed domains (see propagation_kernel)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The compiled propagation loop.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
