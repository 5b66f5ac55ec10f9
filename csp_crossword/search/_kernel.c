/* The compiled search core's Python interface (module csp_crossword.search._kernel).
 *
 * propagate(...): one arc-consistency fixpoint on packed domains, for the Python search
 *     (csp_crossword.search.propagation_kernel.CompiledNetwork.propagate).
 * Search(...): the whole `ac` search loop (csp_crossword.backends.ac_native drives it).
 *
 * The C sources are in kernel/; the Python modules they mirror stay the reference. The
 * interpreter lock is released while either runs. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/search.h"

/* The structure arrays, in the order both entry points take them after their state arrays. */
#define N_STRUCTURE 15

static const char *const STRUCTURE_NAMES[N_STRUCTURE] = {
    "offsets", "widths", "kinds", "column_offsets", "columns", "code_offsets", "codes", "lengths",
    "nb_start", "nb_other", "nb_pos", "nb_other_pos", "nb_cell", "same_start", "same_slots"};

/* Takes a C-contiguous buffer of `item`-byte items; -1 with an exception set otherwise. */
static int take_buffer(PyObject *object, Py_buffer *view, Py_ssize_t item, int writable, const char *name) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) return -1;
    const char *format = view->format ? view->format : "B";
    char kind = format[strlen(format) - 1];
    int integer = kind && strchr(item == 1 ? "bB?c" : "qQlLnN", kind) != NULL;
    if (view->itemsize != item || !integer) {
        PyErr_Format(PyExc_TypeError, "%s: expected a contiguous array of %zd-byte integers (format %s, %zd bytes)", name,
                     item, format, view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The checks that keep the C code inside its arrays: every per-slot array has n entries, the
 * crossing and same-length lists n + 1 starts, every id is in range. -1 with ValueError set. */
static int check_structure(const Structure *st, const Py_buffer *views, Py_ssize_t masks, Py_ssize_t settled) {
    Py_ssize_t n = st->n;
    const char *wrong = NULL;
    if (views[1].len / 8 != n || views[2].len / 8 != n || views[7].len / 8 != n)
        wrong = "widths, kinds and lengths need one entry per slot";
    else if (views[8].len / 8 != n + 1 || views[13].len / 8 != n + 1)
        wrong = "nb_start and same_start need one entry per slot and one more";
    else if (settled != n)
        wrong = "settled needs one entry per slot";
    else if (st->glyph_count < 1 || st->glyph_count > 64 || st->longest < 1)
        wrong = "glyph_count must be 1 to 64 and longest at least 1";
    if (wrong == NULL) {
        Py_ssize_t edges = views[9].len / 8, same = views[14].len / 8, kinds = views[5].len / 8;
        for (Py_ssize_t s = 0; s < n && !wrong; s++) {
            if (st->nb_start[s] > st->nb_start[s + 1] || st->same_start[s] > st->same_start[s + 1] ||
                st->kinds[s] < 0 || st->kinds[s] >= kinds || st->lengths[s] > st->longest || st->widths[s] < 0)
                wrong = "slot tables out of order or out of range";
        }
        if (!wrong && (st->nb_start[0] != 0 || st->nb_start[n] != edges || views[10].len / 8 != edges ||
                       views[11].len / 8 != edges || views[12].len / 8 != edges || st->same_start[0] != 0 ||
                       st->same_start[n] != same))
            wrong = "crossing or same-length lists do not match their starts";
        for (Py_ssize_t e = 0; e < edges && !wrong; e++) {
            if (st->nb_other[e] < 0 || st->nb_other[e] >= n || st->nb_cell[e] < 0 || st->nb_cell[e] >= masks)
                wrong = "a crossing names a slot or cell out of range";
        }
        for (Py_ssize_t k = 0; k < same && !wrong; k++) {
            if (st->same_slots[k] < 0 || st->same_slots[k] >= n) wrong = "a same-length slot out of range";
        }
        Py_ssize_t columns = views[4].len / 8, starts = views[3].len / 8;
        if (!wrong && starts != kinds * st->longest * st->glyph_count) wrong = "column_offsets: wrong size";
        for (Py_ssize_t s = 0; s < n && !wrong; s++) { /* every column of a slot's kind fits its row */
            const int64_t *row = st->column_offsets + st->kinds[s] * st->longest * st->glyph_count;
            for (int64_t k = 0; k < st->lengths[s] * st->glyph_count && !wrong; k++) {
                if (row[k] < -1 || row[k] + st->widths[s] > columns) wrong = "column_offsets out of range";
            }
            if (st->code_offsets[st->kinds[s]] < 0 || st->code_offsets[st->kinds[s]] > views[6].len)
                wrong = "code_offsets out of range";
        }
    }
    if (wrong) {
        PyErr_SetString(PyExc_ValueError, wrong);
        return -1;
    }
    return 0;
}

static int take_structure(PyObject *const *objects, Py_buffer *views, Structure *st, long long longest,
                          long long glyph_count, int check_repeats) {
    int got = 0;
    for (; got < N_STRUCTURE; got++) {
        Py_ssize_t item = got == 6 ? 1 : 8; /* codes are bytes, the rest 64-bit */
        if (take_buffer(objects[got], &views[got], item, 0, STRUCTURE_NAMES[got]) < 0) {
            for (int k = 0; k < got; k++) PyBuffer_Release(&views[k]);
            return -1;
        }
    }
    st->offsets = views[0].buf;
    st->widths = views[1].buf;
    st->kinds = views[2].buf;
    st->column_offsets = views[3].buf;
    st->columns = views[4].buf;
    st->code_offsets = views[5].buf;
    st->codes = views[6].buf;
    st->lengths = views[7].buf;
    st->nb_start = views[8].buf;
    st->nb_other = views[9].buf;
    st->nb_pos = views[10].buf;
    st->nb_other_pos = views[11].buf;
    st->nb_cell = views[12].buf;
    st->same_start = views[13].buf;
    st->same_slots = views[14].buf;
    st->n = views[0].len / 8;
    st->longest = longest;
    st->glyph_count = glyph_count;
    st->check_repeats = check_repeats;
    st->total = 0;
    for (int64_t s = 0; s < st->n; s++) st->total += st->widths[s];
    return 0;
}

static void release_all(Py_buffer *views, int count) {
    for (int k = 0; k < count; k++) PyBuffer_Release(&views[k]);
}

/* propagate(domains, masks, settled, touched, changed, <15 structure arrays>, longest,
 *           glyph_count, check_repeats) -> (failed slot, cause), each -1 for none.
 * The first four arrays are updated in place. */
static PyObject *propagate(PyObject *self, PyObject *args) {
    PyObject *state[5], *objects[N_STRUCTURE];
    long long longest, glyph_count;
    int check_repeats;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOOOLLp", &state[0], &state[1], &state[2], &state[3], &state[4],
                          &objects[0], &objects[1], &objects[2], &objects[3], &objects[4], &objects[5], &objects[6],
                          &objects[7], &objects[8], &objects[9], &objects[10], &objects[11], &objects[12],
                          &objects[13], &objects[14], &longest, &glyph_count, &check_repeats))
        return NULL;
    Py_buffer views[5 + N_STRUCTURE];
    static const Py_ssize_t item[5] = {8, 8, 1, 1, 8};
    static const char *const names[5] = {"domains", "masks", "settled", "touched", "changed"};
    int got = 0;
    for (; got < 5; got++) {
        if (take_buffer(state[got], &views[got], item[got], got < 4, names[got]) < 0) {
            release_all(views, got);
            return NULL;
        }
    }
    Structure st;
    if (take_structure(objects, views + 5, &st, longest, glyph_count, check_repeats) < 0) {
        release_all(views, 5);
        return NULL;
    }
    st.crossing_count = views[1].len / 8;
    int bad = check_structure(&st, views + 5, views[1].len / 8, views[2].len) < 0;
    if (!bad && (views[0].len / 8 != st.total || views[3].len != st.n)) {
        PyErr_SetString(PyExc_ValueError, "domains and touched do not match the slots");
        bad = 1;
    }
    for (Py_ssize_t k = 0; !bad && k < views[4].len / 8; k++) {
        int64_t s = ((const int64_t *)views[4].buf)[k];
        if (s < 0 || s >= st.n) {
            PyErr_SetString(PyExc_ValueError, "changed names a slot out of range");
            bad = 1;
        }
    }
    if (bad) {
        release_all(views, 5 + N_STRUCTURE);
        return NULL;
    }
    Domains d = {.domains = views[0].buf, .masks = views[1].buf, .settled = views[2].buf, .touched = views[3].buf};
    size_t n = (size_t)(st.n > 0 ? st.n : 1);
    d.count = malloc(n * sizeof(int64_t));
    d.lo = malloc(n * sizeof(int64_t));
    d.hi = malloc(n * sizeof(int64_t));
    Scratch scratch = {0};
    int status = -1;
    int64_t failed = NO_FAILURE, cause = NO_CAUSE;
    if (d.count && d.lo && d.hi && scratch_init(&scratch, &st) == 0) {
        Py_BEGIN_ALLOW_THREADS
        domains_measure(&st, &d);
        status = fixpoint(&st, &d, NULL, &scratch, views[4].buf, views[4].len / 8, &failed, &cause);
        Py_END_ALLOW_THREADS
    }
    scratch_free(&scratch);
    free(d.count);
    free(d.lo);
    free(d.hi);
    release_all(views, 5 + N_STRUCTURE);
    if (status < 0) return PyErr_NoMemory();
    return Py_BuildValue("(LL)", (long long)failed, (long long)cause);
}

/* ------------------------------------------------------------------ Search */

typedef struct {
    PyObject_HEAD Search search;
    Py_buffer views[N_STRUCTURE + 2]; /* structure, scores, score offsets */
    int views_held;
    int allocated; /* search_init ran: search_free must too */
    int ready;     /* initialised without error */
    int busy;      /* a call runs (without the interpreter lock) */
    int mode;      /* 0 unused, 1 run, 2 improve: one object does one or the other */
} SearchObject;

/* 0 when the object may start a call of `mode` now (marked busy), else -1 with an exception. */
static int begin_call(SearchObject *self, int mode) {
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Search was not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Search is already running in another thread");
        return -1;
    }
    if (self->mode && self->mode != mode) {
        PyErr_SetString(PyExc_RuntimeError, "a Search either runs or improves, not both");
        return -1;
    }
    self->mode = mode;
    self->busy = 1;
    return 0;
}

static void search_dealloc(SearchObject *self) {
    if (self->allocated) search_free(&self->search);
    free(self->search.d.domains);
    free(self->search.d.masks);
    free(self->search.d.settled);
    release_all(self->views, self->views_held);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Search(domains, masks, settled, <15 structure arrays>, scores, score_offsets, longest,
 *        glyph_count, check_repeats, value_order, luby, restart_base, restart_growth, nogoods,
 *        nogood_literals, weight_decay, value_noise, seed, enumerate)
 * The state arrays are copied; the structure arrays are held (read only) while the search lives. */
static int search_new_init(SearchObject *self, PyObject *args, PyObject *kwargs) {
    PyObject *state[3], *objects[N_STRUCTURE + 2];
    long long longest, glyph_count, seed, nogood_literals;
    int check_repeats, value_order, luby, nogoods, enumerate;
    double restart_base, restart_growth, weight_decay, value_noise;
    if (self->views_held || self->allocated) {
        PyErr_SetString(PyExc_RuntimeError, "Search is initialised once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOOOLLpipddpLddLp", &state[0], &state[1], &state[2], &objects[0],
                          &objects[1], &objects[2], &objects[3], &objects[4], &objects[5], &objects[6], &objects[7],
                          &objects[8], &objects[9], &objects[10], &objects[11], &objects[12], &objects[13],
                          &objects[14], &objects[15], &objects[16], &longest, &glyph_count, &check_repeats,
                          &value_order, &luby, &restart_base, &restart_growth, &nogoods, &nogood_literals, &weight_decay, &value_noise,
                          &seed, &enumerate))
        return -1;
    Search *search = &self->search;
    if (take_structure(objects, self->views, &search->st, longest, glyph_count, check_repeats) < 0) return -1;
    self->views_held = N_STRUCTURE;
    if (take_buffer(objects[N_STRUCTURE], &self->views[N_STRUCTURE], 8, 0, "scores") < 0) return -1;
    self->views_held++;
    if (take_buffer(objects[N_STRUCTURE + 1], &self->views[N_STRUCTURE + 1], 8, 0, "score_offsets") < 0) return -1;
    self->views_held++;
    search->scores = self->views[N_STRUCTURE].buf;
    search->score_offsets = self->views[N_STRUCTURE + 1].buf;
    static const Py_ssize_t item[3] = {8, 8, 1};
    static const char *const names[3] = {"domains", "masks", "settled"};
    void *copies[3] = {NULL, NULL, NULL};
    Py_ssize_t lengths[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        Py_buffer view;
        if (take_buffer(state[k], &view, item[k], 0, names[k]) < 0) break;
        copies[k] = malloc(view.len > 0 ? (size_t)view.len : 1);
        if (copies[k]) memcpy(copies[k], view.buf, (size_t)view.len);
        lengths[k] = view.len / item[k];
        PyBuffer_Release(&view);
        if (!copies[k]) {
            PyErr_NoMemory();
            break;
        }
    }
    search->d.domains = copies[0];
    search->d.masks = copies[1];
    search->d.settled = copies[2];
    if (!copies[0] || !copies[1] || !copies[2]) return -1; /* freed by dealloc */
    if (lengths[0] != search->st.total) {
        PyErr_SetString(PyExc_ValueError, "domains: not one row per slot");
        return -1;
    }
    search->st.crossing_count = lengths[1];
    if (check_structure(&search->st, self->views, lengths[1], lengths[2]) < 0) return -1;
    search->opt = (Options){.restart_base = restart_base,
                            .restart_growth = restart_growth,
                            .weight_decay = weight_decay,
                            .value_noise = value_noise,
                            .luby = luby,
                            .nogoods = nogoods,
                            .nogood_literals = nogood_literals,
                            .value_order = value_order,
                            .enumerate = enumerate,
                            .seed = (uint64_t)seed};
    self->allocated = 1;
    if (search_init(search)) {
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

/* run(slice_end, deadline, node_limit) -> status: 0 a fill, 1 exhausted, 2 the slice ended, 3 the
 * deadline passed or node_limit nodes were made (-1: no limit; times in monotonic seconds,
 * time.monotonic's clock). */
static PyObject *search_run_method(SearchObject *self, PyObject *args) {
    double slice_end, deadline;
    long long node_limit;
    if (!PyArg_ParseTuple(args, "ddL", &slice_end, &deadline, &node_limit)) return NULL;
    if (begin_call(self, 1) < 0) return NULL;
    self->search.node_limit = node_limit;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = search_run(&self->search, slice_end, deadline);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (status == RUN_NO_MEMORY) return PyErr_NoMemory();
    return PyLong_FromLong(status);
}

/* fill() -> the word id of every slot (after a fill: every domain is one word). */
static PyObject *search_fill(SearchObject *self, PyObject *unused) {
    if (!self->ready || self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Search is not initialised or is running");
        return NULL;
    }
    const Search *search = &self->search;
    PyObject *words = PyList_New(search->st.n);
    if (!words) return NULL;
    for (int64_t s = 0; s < search->st.n; s++) {
        int64_t w = -1;
        domain_ids(&search->st, &search->d, s, &w, 1);
        PyObject *item = PyLong_FromLongLong(w);
        if (!item) {
            Py_DECREF(words);
            return NULL;
        }
        PyList_SET_ITEM(words, s, item);
    }
    return words;
}

/* best() -> the packed domains at the deepest decision level reached (bytes). */
static PyObject *search_best(SearchObject *self, PyObject *unused) {
    if (!self->ready || self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Search is not initialised or is running");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)self->search.best,
                                     (Py_ssize_t)self->search.st.total * (Py_ssize_t)sizeof(uint64_t));
}

/* stats() -> (nodes, backtracks, restarts, propagations, nogoods, nogood_prunings,
 *             nogood_failures) */
static PyObject *search_stats(SearchObject *self, PyObject *unused) {
    if (!self->ready || self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Search is not initialised or is running");
        return NULL;
    }
    const Counters *c = &self->search.counters;
    return Py_BuildValue("(LLLLLLL)", (long long)c->nodes, (long long)c->backtracks, (long long)c->restarts,
                         (long long)c->propagations, (long long)c->nogoods, (long long)c->nogood_prunings,
                         (long long)c->nogood_failures);
}

/* conflicts() -> per slot, the failures it took part in. */
static PyObject *search_conflicts(SearchObject *self, PyObject *unused) {
    if (!self->ready || self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Search is not initialised or is running");
        return NULL;
    }
    const Search *search = &self->search;
    PyObject *counts = PyList_New(search->st.n);
    if (!counts) return NULL;
    for (int64_t s = 0; s < search->st.n; s++) {
        PyObject *item = PyLong_FromLongLong(search->weights.conflicts[s]);
        if (!item) {
            Py_DECREF(counts);
            return NULL;
        }
        PyList_SET_ITEM(counts, s, item);
    }
    return counts;
}

/* Copies packed rows (one per slot) into the search's domains; -1 with an exception set, the
 * object no longer busy. */
static int copy_domains_in(SearchObject *self, PyObject *domains_object) {
    Py_buffer domains;
    if (take_buffer(domains_object, &domains, 8, 0, "domains") < 0) {
        self->busy = 0;
        return -1;
    }
    if (domains.len / 8 != self->search.st.total) {
        PyBuffer_Release(&domains);
        self->busy = 0;
        PyErr_SetString(PyExc_ValueError, "domains: not one row per slot");
        return -1;
    }
    memcpy(self->search.d.domains, domains.buf, (size_t)domains.len);
    PyBuffer_Release(&domains);
    return 0;
}

/* improve(domains, touched, to_beat, node_cap, spent, node_budget, deadline) -> (nodes, words or
 * None): the branch and bound of one improvement neighbourhood (see kernel/improve.c) from
 * `domains` (packed rows, copied in; arc consistency runs first); words are the best re-fill's,
 * per touched slot. One Search serves every neighbourhood of a fill. */
static PyObject *search_improve(SearchObject *self, PyObject *args) {
    PyObject *domains_object, *touched_object;
    long long to_beat, node_cap, spent, node_budget;
    double deadline;
    if (!PyArg_ParseTuple(args, "OOLLLLd", &domains_object, &touched_object, &to_beat, &node_cap, &spent,
                          &node_budget, &deadline))
        return NULL;
    if (begin_call(self, 2) < 0) return NULL;
    if (copy_domains_in(self, domains_object) < 0) return NULL;
    Py_buffer touched;
    if (take_buffer(touched_object, &touched, 8, 0, "touched") < 0) {
        self->busy = 0;
        return NULL;
    }
    for (Py_ssize_t k = 0; k < touched.len / 8; k++) {
        int64_t t = ((const int64_t *)touched.buf)[k];
        if (t < 0 || t >= self->search.st.n) {
            PyBuffer_Release(&touched);
            self->busy = 0;
            PyErr_SetString(PyExc_ValueError, "touched names a slot out of range");
            return NULL;
        }
    }
    Improve b = {.touched = touched.buf,
                 .n_touched = touched.len / 8,
                 .best_total = to_beat,
                 .node_cap = node_cap,
                 .spent = spent,
                 .node_budget = node_budget,
                 .deadline = deadline};
    b.best = malloc((size_t)(b.n_touched > 0 ? b.n_touched : 1) * sizeof(int64_t));
    int status = -1;
    if (b.best) {
        Py_BEGIN_ALLOW_THREADS
        status = improve_run(&self->search, &b);
        Py_END_ALLOW_THREADS
    }
    self->busy = 0;
    PyObject *result = NULL;
    if (status < 0) {
        PyErr_NoMemory();
    } else if (!b.found) {
        result = Py_BuildValue("(LO)", (long long)b.nodes, Py_None);
    } else {
        PyObject *words = PyList_New(b.n_touched);
        for (int64_t k = 0; words && k < b.n_touched; k++) {
            PyObject *item = PyLong_FromLongLong(b.best[k]);
            if (!item) {
                Py_CLEAR(words);
                break;
            }
            PyList_SET_ITEM(words, k, item);
        }
        if (words) {
            result = Py_BuildValue("(LN)", (long long)b.nodes, words);
        }
    }
    free(b.best);
    PyBuffer_Release(&touched);
    return result;
}

/* optimum(domains, to_beat, root_iterations, node_iterations, step_scale, stall_steps, node_budget,
 *         deadline, stop) ->
 * (nodes, stopped, root_bound, words or None): the whole grid's branch and bound with a
 * Lagrangian bound (kernel/optimum.c) from `domains` (packed rows, copied in); words are the best
 * fill found above to_beat, per slot. Not stopped: nothing better than that fill exists. */
static PyObject *search_optimum(SearchObject *self, PyObject *args) {
    PyObject *domains_object, *stop_object;
    long long to_beat, root_iterations, node_iterations, stall_steps, node_budget;
    double step_scale, deadline;
    if (!PyArg_ParseTuple(args, "OLLLdLLdO", &domains_object, &to_beat, &root_iterations, &node_iterations,
                          &step_scale, &stall_steps, &node_budget, &deadline, &stop_object))
        return NULL;
    if (begin_call(self, 2) < 0) return NULL;
    if (copy_domains_in(self, domains_object) < 0) return NULL;
    Py_buffer stop; /* one byte the caller sets, from another thread, to stop the search */
    if (take_buffer(stop_object, &stop, 1, 1, "stop") < 0) {
        self->busy = 0;
        return NULL;
    }
    int64_t n = self->search.st.n;
    Optimum o = {.best_total = to_beat,
                 .root_iterations = root_iterations,
                 .node_iterations = node_iterations,
                 .step_scale = step_scale,
                 .stall_steps = stall_steps,
                 .stop = stop.len >= 1 ? (const volatile uint8_t *)stop.buf : NULL,
                 .node_budget = node_budget,
                 .deadline = deadline};
    o.best = malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    int status = -1;
    if (o.best) {
        Py_BEGIN_ALLOW_THREADS
        status = optimum_run(&self->search, &o);
        Py_END_ALLOW_THREADS
    }
    self->busy = 0;
    PyObject *result = NULL;
    if (status < 0) {
        PyErr_NoMemory();
    } else {
        PyObject *words = Py_None;
        Py_INCREF(words);
        if (o.found) {
            Py_DECREF(words);
            words = PyList_New(n);
            for (int64_t k = 0; words && k < n; k++) {
                PyObject *item = PyLong_FromLongLong(o.best[k]);
                if (!item) {
                    Py_CLEAR(words);
                    break;
                }
                PyList_SET_ITEM(words, k, item);
            }
        }
        if (words) result = Py_BuildValue("(LOdN)", (long long)o.nodes, o.stopped ? Py_True : Py_False, o.root_bound, words);
    }
    free(o.best);
    PyBuffer_Release(&stop);
    return result;
}

static PyMethodDef search_methods[] = {
    {"optimum", (PyCFunction)search_optimum, METH_VARARGS, "Branch and bound of the whole grid's highest total score."},
    {"improve", (PyCFunction)search_improve, METH_VARARGS, "Branch and bound of one improvement neighbourhood."},
    {"run", (PyCFunction)search_run_method, METH_VARARGS, "Search until a fill, exhaustion, the slice end or the deadline."},
    {"fill", (PyCFunction)search_fill, METH_NOARGS, "The word id of every slot, after a fill."},
    {"best", (PyCFunction)search_best, METH_NOARGS, "Packed domains at the deepest level reached."},
    {"stats", (PyCFunction)search_stats, METH_NOARGS, "Search counters."},
    {"conflicts", (PyCFunction)search_conflicts, METH_NOARGS, "Failures per slot."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "csp_crossword.search._kernel.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled ac search (see csp_crossword.backends.ac_native).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_new_init,
    .tp_dealloc = (destructor)search_dealloc,
    .tp_methods = search_methods,
};

static PyMethodDef methods[] = {
    {"propagate", propagate, METH_VARARGS, "Arc consistency to a fixpoint on packed domains (see propagation_kernel)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The compiled search core.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
