/* The proof of the highest total score: a branch and bound over the whole grid whose bound is a
 * Lagrangian relaxation of the crossings (the reference is strategies/optimum.py, which explains
 * the method; this file follows it step for step).
 *
 * A multiplier per crossing cell and glyph moves score between the two slots of the cell: the
 * slot earlier in slot order gains it when its word has that glyph there, the later one loses it.
 * Any fill's total is unchanged by this (its two slots agree on every cell), so the sum over slots
 * of each slot's best adjusted word left is an upper bound; a subgradient step with Polyak's rule
 * lowers it, words whose adjusted score cannot reach the total to beat are removed (reduced-cost
 * filtering), arc consistency follows, and the search branches slot = best word / slot != it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search.h"

/* The bound must fall below the total to beat plus one (scores are integers) by this margin
 * before a node is pruned: far above the rounding error of summing doubles. */
#define BOUND_MARGIN 1e-6

static double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static inline double adjusted(const Search *search, const double *lam, int64_t s, int64_t w) {
    const Structure *st = &search->st;
    int64_t kind = st->kinds[s], length = st->lengths[s];
    const uint8_t *code = st->codes + st->code_offsets[kind] + w * length;
    double value = (double)search->scores[search->score_offsets[kind] + w];
    for (int64_t k = st->nb_start[s]; k < st->nb_start[s + 1]; k++) {
        double m = lam[st->nb_cell[k] * st->glyph_count + code[st->nb_pos[k]]];
        value += s < st->nb_other[k] ? m : -m;
    }
    return value;
}

static inline int64_t glyph_at(const Search *search, int64_t s, int64_t w, int64_t pos) {
    const Structure *st = &search->st;
    return st->codes[st->code_offsets[st->kinds[s]] + w * st->lengths[s] + pos];
}

/* Slot s's best adjusted word left (lowest id among equals) and its value. */
static void best_word(const Search *search, const double *lam, int64_t s, double *slot_max, int64_t *slot_arg) {
    const uint64_t *row = search->d.domains + search->st.offsets[s];
    double best = -INFINITY;
    int64_t arg = -1;
    for (int64_t x = search->d.lo[s]; x <= search->d.hi[s]; x++) {
        for (uint64_t bits = row[x]; bits; bits &= bits - 1) {
            int64_t w = x * 64 + __builtin_ctzll(bits);
            double value = adjusted(search, lam, s, w);
            if (value > best) {
                best = value;
                arg = w;
            }
        }
    }
    slot_max[s] = best;
    slot_arg[s] = arg;
}

/* Every slot's best adjusted word left (only the slots marked in `dirty`, then unmarked, when it
 * is not NULL: the others' multipliers did not move) and the sum of their values, in slot order. */
static double evaluate(const Search *search, const double *lam, double *slot_max, int64_t *slot_arg, uint8_t *dirty) {
    double total = 0;
    for (int64_t s = 0; s < search->st.n; s++) {
        if (!dirty || dirty[s]) best_word(search, lam, s, slot_max, slot_arg);
        if (dirty) dirty[s] = 0;
        total += slot_max[s];
    }
    return total;
}

/* trial = lam moved against the subgradient of the relaxed solution `arg` by Polyak's step
 * toward `target`; 0 when every crossing agrees (no step). */
static int step(const Search *search, const double *lam, double *trial, const int64_t *arg, double total,
                double target, double scale, uint8_t *dirty) {
    const Structure *st = &search->st;
    int64_t glyphs = st->glyph_count, disagreeing = 0;
    for (int64_t s = 0; s < st->n; s++)
        for (int64_t k = st->nb_start[s]; k < st->nb_start[s + 1]; k++)
            if (s < st->nb_other[k] &&
                glyph_at(search, s, arg[s], st->nb_pos[k]) != glyph_at(search, st->nb_other[k], arg[st->nb_other[k]], st->nb_other_pos[k]))
                disagreeing++;
    if (!disagreeing) return 0;
    double size = scale * (total - target) / (2.0 * (double)disagreeing);
    memcpy(trial, lam, (size_t)(st->crossing_count * glyphs) * sizeof(double));
    for (int64_t s = 0; s < st->n; s++)
        for (int64_t k = st->nb_start[s]; k < st->nb_start[s + 1]; k++) {
            int64_t t = st->nb_other[k];
            if (s > t) continue;
            int64_t mine = glyph_at(search, s, arg[s], st->nb_pos[k]);
            int64_t theirs = glyph_at(search, t, arg[t], st->nb_other_pos[k]);
            if (mine == theirs) continue;
            dirty[s] = dirty[t] = 1; /* the two slots whose adjusted scores move */
            trial[st->nb_cell[k] * glyphs + mine] -= size;   /* s gains it: too much */
            trial[st->nb_cell[k] * glyphs + theirs] += size; /* t loses it: too little */
        }
    return 1;
}

typedef struct {
    double *lams;               /* per depth, the multipliers of the lowest bound found there */
    double *current, *next;     /* the subgradient walk's point and the one it steps to */
    double *slot_max, *walk_max; /* per slot, the best adjusted score: at lams[depth], at current */
    int64_t *slot_arg, *walk_arg; /* ... and the word that has it */
    int64_t *changed;
    uint8_t *dirty; /* per slot: its multipliers moved since the walk last evaluated it */
} Work;

/* Whether the deadline passed or the caller asked to stop (looked at between steps too). */
static int out_of_clock(const Optimum *o) {
    if (o->stop && *o->stop) return 1;
    return now_seconds() >= o->deadline;
}

/* Lowers the bound of the current state with up to `iterations` subgradient steps from `lam`
 * (keeping the lowest bound's multipliers there), then removes the words that cannot reach the
 * target and propagates, until nothing changes. 1: pruned, 0: kept (slot_max/slot_arg hold the
 * bound's words), 2: stopped (o->stopped set), -1: out of memory. */
static int bound_and_filter(Search *search, Optimum *o, Work *work, double *lam, int64_t iterations) {
    const Structure *st = &search->st;
    Domains *d = &search->d;
    size_t cells = (size_t)(st->crossing_count * st->glyph_count);
    for (;;) {
        double target = (double)o->best_total + 1.0 - BOUND_MARGIN;
        double total = evaluate(search, lam, work->slot_max, work->slot_arg, NULL);
        if (iterations > 0 && total >= target) {
            /* the walk moves on every step; only a lower bound replaces lam */
            double scale = o->step_scale, walked = total;
            int64_t stalled = 0;
            memcpy(work->current, lam, cells * sizeof(double));
            memcpy(work->walk_arg, work->slot_arg, (size_t)st->n * sizeof(int64_t));
            memcpy(work->walk_max, work->slot_max, (size_t)st->n * sizeof(double));
            for (int64_t it = 0; it < iterations && total >= target; it++) {
                if (out_of_clock(o)) { /* a root's steps on a large grid take a while */
                    if (o->nodes == 1) o->root_bound = total;
                    o->stopped = 1;
                    return 2;
                }
                if (!step(search, work->current, work->next, work->walk_arg, walked, target, scale, work->dirty)) break;
                double *swap = work->current;
                work->current = work->next;
                work->next = swap;
                walked = evaluate(search, work->current, work->walk_max, work->walk_arg, work->dirty);
                if (walked < total) {
                    total = walked;
                    memcpy(lam, work->current, cells * sizeof(double));
                    memcpy(work->slot_max, work->walk_max, (size_t)st->n * sizeof(double));
                    memcpy(work->slot_arg, work->walk_arg, (size_t)st->n * sizeof(int64_t));
                    stalled = 0;
                } else if (++stalled >= o->stall_steps) {
                    scale *= 0.5;
                    stalled = 0;
                }
            }
        }
        if (o->nodes == 1) o->root_bound = total;
        if (total < target) return 1;
        double slack = total - target;
        int64_t n_changed = 0;
        for (int64_t s = 0; s < st->n; s++) {
            if (d->count[s] <= 1) continue;
            double floor = work->slot_max[s] - slack - BOUND_MARGIN;
            uint64_t *row = d->domains + st->offsets[s];
            int saved = 0;
            for (int64_t x = d->lo[s]; x <= d->hi[s]; x++) {
                for (uint64_t bits = row[x]; bits; bits &= bits - 1) {
                    int64_t w = x * 64 + __builtin_ctzll(bits);
                    if (adjusted(search, lam, s, w) >= floor) continue;
                    if (!saved) {
                        trail_save_row(&search->trail, st, d, s);
                        saved = 1;
                    }
                    row[x] &= ~((uint64_t)1 << (w % 64));
                    d->count[s]--;
                }
            }
            if (saved) work->changed[n_changed++] = s;
        }
        if (!n_changed) return 0;
        if (search->trail.failed) return -1;
        int64_t failed, cause;
        memset(d->touched, 0, (size_t)st->n);
        int status = fixpoint(st, d, &search->trail, &search->scratch, work->changed, n_changed, &failed, &cause);
        if (status != 0) return status < 0 ? -1 : 1;
    }
}

static int out_of_time(const Optimum *o) {
    if (o->node_budget >= 0 && o->nodes >= o->node_budget) return 1;
    return out_of_clock(o);
}

/* Slot s keeps (keep 1) or loses (keep 0) its words with glyph g at position pos. */
static void narrow_to_glyph(Search *search, int64_t s, int64_t pos, int64_t g, int keep) {
    const Structure *st = &search->st;
    Domains *d = &search->d;
    trail_save_row(&search->trail, st, d, s);
    uint64_t *row = d->domains + st->offsets[s];
    int64_t start = column_start(st, st->kinds[s], pos, g), count = 0;
    for (int64_t x = d->lo[s]; x <= d->hi[s]; x++) {
        uint64_t column = start < 0 ? 0 : st->columns[start + x];
        row[x] &= keep ? column : ~column;
        count += popcount64(row[x]);
    }
    d->count[s] = count;
}

/* Narrows slot s to word w (keep 1) or removes w from it (keep 0); or, with pos >= 0, narrows
 * slot s and the slot t crossing it at pos (its position tpos) to the words with glyph w there
 * (keep 1) or to the others (keep 0). Then propagates: 0 consistent, 1 failed, -1 out of memory. */
static int decide(Search *search, int64_t s, int64_t w, int keep, int64_t pos, int64_t t, int64_t tpos) {
    const Structure *st = &search->st;
    Domains *d = &search->d;
    int64_t changed[2] = {s, t};
    int64_t n_changed = 1;
    if (pos >= 0) {
        narrow_to_glyph(search, s, pos, w, keep);
        narrow_to_glyph(search, t, tpos, w, keep);
        n_changed = 2;
    } else {
        trail_save_row(&search->trail, st, d, s);
        uint64_t *row = d->domains + st->offsets[s];
        if (keep) {
            memset(row, 0, (size_t)st->widths[s] * sizeof(uint64_t));
            row[w / 64] = (uint64_t)1 << (w % 64);
            d->count[s] = 1;
            d->lo[s] = d->hi[s] = w / 64;
        } else {
            row[w / 64] &= ~((uint64_t)1 << (w % 64));
            d->count[s]--;
        }
    }
    if (search->trail.failed) return -1;
    if (d->count[s] == 0 || (t >= 0 && d->count[t] == 0)) return 1;
    int64_t failed, cause;
    memset(d->touched, 0, (size_t)st->n);
    return fixpoint(st, d, &search->trail, &search->scratch, changed, n_changed, &failed, &cause);
}

/* The crossing where the bound's words disagree with the fewest glyphs left (-1: they agree
 * everywhere): branching there splits the relaxation's own conflict. */
static int64_t disagreement(const Search *search, const int64_t *arg) {
    const Structure *st = &search->st;
    int64_t chosen = -1, fewest = 0;
    for (int64_t s = 0; s < st->n; s++)
        for (int64_t k = st->nb_start[s]; k < st->nb_start[s + 1]; k++) {
            int64_t t = st->nb_other[k];
            if (s > t || glyph_at(search, s, arg[s], st->nb_pos[k]) == glyph_at(search, t, arg[t], st->nb_other_pos[k]))
                continue;
            int64_t glyphs = popcount64(search->d.masks[st->nb_cell[k]]);
            if (chosen < 0 || glyphs < fewest) {
                chosen = k;
                fewest = glyphs;
            }
        }
    return chosen;
}

/* Whether two slots of one length hold the same word in `arg` (when repeats are forbidden). */
static int64_t repeated(const Search *search, const int64_t *arg) {
    const Structure *st = &search->st;
    if (!st->check_repeats) return -1;
    for (int64_t s = 0; s < st->n; s++)
        for (int64_t k = st->same_start[s]; k < st->same_start[s + 1]; k++)
            if (arg[st->same_slots[k]] == arg[s] && search->d.count[s] > 1) return s;
    return -1;
}

static int descend(Search *search, Optimum *o, Work *work, int64_t depth) {
    const Structure *st = &search->st;
    size_t cells = (size_t)(st->crossing_count * st->glyph_count);
    double *lam = work->lams + (size_t)depth * cells;
    for (;;) {
        if (out_of_time(o)) {
            o->stopped = 1;
            return 0;
        }
        o->nodes++;
        int status = bound_and_filter(search, o, work, lam, depth == 0 ? o->root_iterations : o->node_iterations);
        if (status) return status < 0 ? -1 : 0; /* pruned or stopped */
        /* branch on a crossing the bound's words disagree on; when they agree everywhere and
         * repeat nothing they are a fill whose total is the bound: the best here */
        int64_t k = disagreement(search, work->slot_arg), s, w, pos = -1, t = -1, tpos = -1;
        if (k >= 0) {
            for (s = 0; k >= st->nb_start[s + 1]; s++) continue; /* the slot whose crossing k is */
            pos = st->nb_pos[k];
            t = st->nb_other[k];
            tpos = st->nb_other_pos[k];
            w = glyph_at(search, s, work->slot_arg[s], pos);
        } else {
            s = repeated(search, work->slot_arg);
            if (s < 0) {
                int64_t total = 0;
                for (int64_t u = 0; u < st->n; u++)
                    total += search->scores[search->score_offsets[st->kinds[u]] + work->slot_arg[u]];
                if (total > o->best_total) {
                    o->best_total = total;
                    memcpy(o->best, work->slot_arg, (size_t)st->n * sizeof(int64_t));
                    o->found = 1;
                }
                return 0;
            }
            w = work->slot_arg[s];
        }
        search_mark(search, depth);
        status = decide(search, s, w, 1, pos, t, tpos);
        if (status < 0) return -1;
        if (status == 0) {
            memcpy(lam + cells, lam, cells * sizeof(double));
            if (descend(search, o, work, depth + 1) < 0) return -1;
            if (o->stopped) return 0;
        }
        search_restore(search, depth);
        status = decide(search, s, w, 0, pos, t, tpos);
        if (status) return status < 0 ? -1 : 0;
    }
}

/* Every left branch settles a slot or decides a crossing's glyph, each at most once on a path:
 * the search goes at most this deep (the root is level 0). */
static int64_t levels_needed(const Structure *st) { return st->n + st->crossing_count + 1; }

/* Frames and snapshots for every level the branch and bound can reach; -1 when out of memory. */
static int grow_frames(Search *search, int64_t levels) {
    if (search->frame_capacity >= levels) return 0;
    Frame *frames = realloc(search->frames, (size_t)levels * sizeof(Frame));
    if (!frames) return -1;
    search->frames = frames;
    uint8_t *snapshots = realloc(search->snapshots, (size_t)levels * search->snapshot_size);
    if (!snapshots) return -1;
    search->snapshots = snapshots;
    search->frame_capacity = levels;
    return 0;
}

int optimum_run(Search *search, Optimum *o) {
    Structure *st = &search->st;
    Domains *d = &search->d;
    int64_t n = st->n, levels = levels_needed(st);
    size_t cells = (size_t)(st->crossing_count * st->glyph_count);
    if (grow_frames(search, levels) < 0) return -1;
    Work work = {0};
    work.lams = calloc((size_t)(levels + 1) * (cells ? cells : 1), sizeof(double));
    work.current = calloc(cells ? cells : 1, sizeof(double));
    work.next = calloc(cells ? cells : 1, sizeof(double));
    work.slot_max = malloc((size_t)(n ? n : 1) * sizeof(double));
    work.walk_max = malloc((size_t)(n ? n : 1) * sizeof(double));
    work.slot_arg = malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    work.walk_arg = malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    work.changed = malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    work.dirty = calloc((size_t)(n ? n : 1), 1);
    int result = -1;
    if (work.lams && work.current && work.next && work.slot_max && work.walk_max && work.slot_arg && work.walk_arg &&
        work.changed && work.dirty) {
        /* as improve_run: glyph masks open, nothing settled, arc consistency over every slot */
        uint64_t all = st->glyph_count >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << st->glyph_count) - 1;
        for (int64_t c = 0; c < st->crossing_count; c++) d->masks[c] = all;
        memset(d->settled, 0, (size_t)n);
        memset(d->touched, 0, (size_t)n);
        domains_measure(st, d);
        for (int64_t s = 0; s < n; s++) search->removed[s] = s;
        int64_t failed, cause;
        o->root_bound = -INFINITY;
        int status = fixpoint(st, d, &search->trail, &search->scratch, search->removed, n, &failed, &cause);
        if (status == 0) {
            result = descend(search, o, &work, 0);
        } else {
            result = status < 0 ? -1 : 0; /* no fill at all: nothing beats the one to beat */
        }
        if (result == 0 && search->trail.failed) result = -1;
    }
    free(work.lams);
    free(work.current);
    free(work.next);
    free(work.slot_max);
    free(work.walk_max);
    free(work.slot_arg);
    free(work.walk_arg);
    free(work.changed);
    free(work.dirty);
    return result;
}
