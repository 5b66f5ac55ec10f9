/* The compiled `ac` search loop (the reference is backends/ac.py, _Search._dfs and run).
 *
 * One frame per decision level. The state a frame decides from is marked: the small arrays
 * (masks, settled flags, counts, row bounds) are copied, the domain rows are saved on the trail
 * the first time they change after the mark, and going back to a frame restores both. A run is
 * resumable: it returns at every fill, at the deadline and at the end of its time slice, with
 * `phase` saying where to go on, so the caller can look at its stop flag and report progress
 * while the search itself never depends on the clock. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search.h"

/* The Luby sequence's i-th term, from 1 (ac.luby). */
static int64_t luby(int64_t i) {
    int k = 64 - __builtin_clzll((unsigned long long)i);
    while (i != ((int64_t)1 << k) - 1) {
        i -= ((int64_t)1 << (k - 1)) - 1;
        k = 64 - __builtin_clzll((unsigned long long)i);
    }
    return (int64_t)1 << (k - 1);
}

static double cutoff_of(const Options *opt, int64_t run) {
    if (opt->enumerate) return 1.0 / 0.0;
    if (opt->luby) return opt->restart_base * (double)luby(run);
    return opt->restart_base * pow(opt->restart_growth, (double)(run - 1));
}

static double monotonic(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void snapshot(Search *search, int64_t k, int save) {
    const Structure *st = &search->st;
    Domains *d = &search->d;
    uint8_t *at = search->snapshots + (size_t)k * search->snapshot_size;
    size_t masks = (size_t)st->crossing_count * sizeof(uint64_t), slots = (size_t)st->n * sizeof(int64_t);
    void *parts[5] = {d->masks, d->count, d->lo, d->hi, d->settled};
    size_t sizes[5] = {masks, slots, slots, slots, (size_t)st->n};
    for (int p = 0; p < 5; p++) {
        if (save)
            memcpy(at, parts[p], sizes[p]);
        else
            memcpy(parts[p], at, sizes[p]);
        at += sizes[p];
    }
}

/* The current state becomes frame k's. Nothing below frame 0 is ever restored: its trail goes. */
void search_mark(Search *search, int64_t k) {
    if (k == 0) {
        search->trail.records = 0;
        search->trail.rows_len = 0;
    }
    search->frames[k].records = search->trail.records;
    snapshot(search, k, 1);
    trail_new_stamp(&search->trail);
}

void search_restore(Search *search, int64_t k) {
    trail_undo(&search->trail, &search->st, &search->d, search->frames[k].records);
    snapshot(search, k, 0);
}

static inline int holds(const Search *search, int64_t s, int64_t w) {
    return (int)(search->d.domains[search->st.offsets[s] + w / 64] >> (w % 64) & 1);
}

static int64_t next_word(Search *search, Frame *frame) {
    for (;;) {
        if (frame->pending_n == 0) {
            int64_t ranked[VALUE_WINDOW];
            int64_t n = rank_words(search, frame->slot, ranked);
            for (int64_t k = 0; k < n; k++) frame->pending[k] = ranked[n - 1 - k];
            frame->pending_n = n;
        }
        int64_t w = frame->pending[--frame->pending_n];
        if (holds(search, frame->slot, w)) return w;
    }
}

static void record_failure(Search *search, int64_t failed, int64_t cause) {
    search->counters.backtracks++;
    weights_record(&search->weights, &search->st, failed, cause);
}

static int push_refuted(Search *search, int64_t word) {
    if (search->refuted_len == search->refuted_cap) {
        size_t cap = search->refuted_cap ? search->refuted_cap * 2 : 1024;
        int64_t *grown = realloc(search->refuted, cap * sizeof(int64_t));
        if (!grown) return -1;
        search->refuted = grown;
        search->refuted_cap = cap;
    }
    search->refuted[search->refuted_len++] = word;
    return 0;
}

/* Removes the top frame's word and propagates, unwinding every frame whose slot runs out of
 * words. 1: a frame is left to try; 0: the tree is exhausted; -1: out of memory. */
static int refute(Search *search) {
    const Structure *st = &search->st;
    Domains *d = &search->d;
    while (search->depth > 0) {
        int64_t k = search->depth - 1;
        Frame *frame = &search->frames[k];
        search_restore(search, k);
        int64_t s = frame->slot, w = frame->word;
        trail_save_row(&search->trail, st, d, s);
        d->domains[st->offsets[s] + w / 64] &= ~((uint64_t)1 << (w % 64));
        d->count[s]--;
        if (push_refuted(search, w)) return -1;
        search->counters.propagations++;
        int64_t failed, cause;
        int status = propagate_with_nogoods(search, &frame->slot, 1, &failed, &cause);
        if (status < 0) return -1;
        if (status == 0) {
            search_mark(search, k);
            return 1;
        }
        record_failure(search, failed, cause);
        search->depth--;
        search->refuted_len = (size_t)frame->refuted_start;
    }
    return 0;
}

/* 0 to go on, else the status to return (the node limit and the time are checked after every
 * node). */
static int tick(const Search *search, double slice_end, double deadline) {
    if (search->node_limit >= 0 && search->counters.nodes >= search->node_limit) return RUN_DEADLINE;
    double now = monotonic();
    if (now >= deadline) return RUN_DEADLINE;
    if (now >= slice_end) return RUN_PAUSED;
    return 0;
}

#define RUN_CUTOFF 100

/* One depth-first run, resumed at search->phase. */
static int depth_first(Search *search, double slice_end, double deadline) {
    const Structure *st = &search->st;
    Domains *d = &search->d;
    int status;
    switch (search->phase) {
    case PHASE_START:
        search->failures = 0;
        search->depth = 0;
        goto select;
    case PHASE_SELECT:
        goto select;
    case PHASE_AFTER_FILL:
        status = refute(search);
        if (status <= 0) return status < 0 ? RUN_NO_MEMORY : RUN_EXHAUSTED;
        goto decide;
    default:
        goto decide;
    }
select : {
    int64_t s = select_slot(search);
    if (s < 0) {
        search->phase = PHASE_AFTER_FILL;
        return RUN_FOUND;
    }
    int64_t k = search->depth++;
    Frame *frame = &search->frames[k];
    frame->slot = s;
    frame->word = -1;
    frame->refuted_start = (int64_t)search->refuted_len;
    frame->pending_n = 0;
    search_mark(search, k);
    if (search->depth > search->best_depth) {
        search->best_depth = search->depth;
        memcpy(search->best, d->domains, (size_t)st->total * sizeof(uint64_t));
    }
}
decide:
    for (;;) {
        Frame *frame = &search->frames[search->depth - 1];
        int64_t s = frame->slot, w = next_word(search, frame);
        frame->word = w;
        trail_save_row(&search->trail, st, d, s);
        uint64_t *row = d->domains + st->offsets[s];
        memset(row, 0, (size_t)st->widths[s] * sizeof(uint64_t));
        row[w / 64] = (uint64_t)1 << (w % 64);
        d->count[s] = 1;
        d->lo[s] = d->hi[s] = w / 64;
        search->counters.nodes++;
        search->counters.propagations++;
        int64_t failed, cause;
        status = propagate_with_nogoods(search, &frame->slot, 1, &failed, &cause);
        if (status < 0) return RUN_NO_MEMORY;
        if (status == 0) {
            search->phase = PHASE_SELECT;
            int timed = tick(search, slice_end, deadline);
            if (timed) return timed;
            goto select;
        }
        record_failure(search, failed, cause);
        search->failures++;
        status = refute(search);
        if (status <= 0) return status < 0 ? RUN_NO_MEMORY : RUN_EXHAUSTED;
        if ((double)search->failures >= search->cutoff) {
            if (search->opt.nogoods && nogoods_learn(search)) return RUN_NO_MEMORY;
            return RUN_CUTOFF;
        }
        search->phase = PHASE_DECIDE;
        int timed = tick(search, slice_end, deadline);
        if (timed) return timed;
    }
}

int search_run(Search *search, double slice_end, double deadline) {
    if (search->phase == PHASE_DONE) return search->final_status;
    for (;;) {
        int status = depth_first(search, slice_end, deadline);
        if (status == RUN_EXHAUSTED || status == RUN_NO_MEMORY) {
            /* the tree is used up (or the state is no longer whole): every later run says so */
            search->phase = PHASE_DONE;
            search->final_status = status;
            return status;
        }
        if (status != RUN_CUTOFF) return status;
        search->counters.restarts++;
        search->run++;
        search->cutoff = cutoff_of(&search->opt, search->run);
        search->spread = search->opt.value_noise;
        search_restore(search, 0);
        search->depth = 0;
        search->refuted_len = 0;
        search->phase = PHASE_START;
    }
}

int search_init(Search *search) {
    const Structure *st = &search->st;
    size_t n = (size_t)(st->n > 0 ? st->n : 1);
    int64_t widest = 1, degree = 1;
    for (int64_t s = 0; s < st->n; s++) {
        if (st->widths[s] > widest) widest = st->widths[s];
        if (st->nb_start[s + 1] - st->nb_start[s] > degree) degree = st->nb_start[s + 1] - st->nb_start[s];
    }
    search->snapshot_size = (size_t)st->crossing_count * 8 + n * 3 * 8 + n;
    search->frames = calloc(n + 1, sizeof(Frame));
    search->snapshots = malloc((n + 1) * search->snapshot_size);
    search->frame_capacity = (int64_t)n + 1;
    search->best = malloc((size_t)(st->total > 0 ? st->total : 1) * sizeof(uint64_t));
    search->logs = malloc((size_t)(st->glyph_count > 0 ? st->glyph_count : 1) * sizeof(double));
    search->ids = malloc((size_t)widest * 64 * sizeof(int64_t));
    search->values = malloc((size_t)widest * 64 * sizeof(double));
    search->removed = malloc(n * sizeof(int64_t));
    search->marks = calloc(n, 1);
    search->d.count = malloc(n * sizeof(int64_t));
    search->d.lo = malloc(n * sizeof(int64_t));
    search->d.hi = malloc(n * sizeof(int64_t));
    search->d.touched = calloc(n, 1);
    if (!search->frames || !search->snapshots || !search->best || !search->logs || !search->ids || !search->values ||
        !search->removed || !search->marks || !search->d.count || !search->d.lo || !search->d.hi ||
        !search->d.touched)
        return -1;
    if (scratch_init(&search->scratch, st) || trail_init(&search->trail, st)) return -1;
    if (weights_init(&search->weights, st, search->opt.weight_decay)) return -1;
    domains_measure(st, &search->d);
    memcpy(search->best, search->d.domains, (size_t)st->total * sizeof(uint64_t));
    search->best_depth = -1;
    search->noise.key = search->opt.seed;
    search->noise.counter = 0;
    search->spread = search->opt.seed && !search->opt.enumerate ? search->opt.value_noise : 0.0;
    search->run = 1;
    search->cutoff = cutoff_of(&search->opt, 1);
    search->phase = PHASE_START;
    (void)degree;
    return 0;
}

void search_free(Search *search) {
    free(search->frames);
    free(search->snapshots);
    free(search->best);
    free(search->logs);
    free(search->ids);
    free(search->values);
    free(search->removed);
    free(search->marks);
    free(search->refuted);
    free(search->d.count);
    free(search->d.lo);
    free(search->d.hi);
    free(search->d.touched);
    scratch_free(&search->scratch);
    trail_free(&search->trail);
    weights_free(&search->weights);
    nogoods_free(&search->nogoods);
}
