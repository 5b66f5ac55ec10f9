/* The compiled `ac` search: MAC with dom/wdeg, look-ahead value order, restarts and no-goods.
 * The reference is csp_crossword/backends/ac.py, ac_values.py and ac_learning.py. */
#ifndef CSP_CROSSWORD_KERNEL_SEARCH_H
#define CSP_CROSSWORD_KERNEL_SEARCH_H

#include "core.h"

/* Words ranked together by the look-ahead (ac_values.VALUE_WINDOW). */
#define VALUE_WINDOW 8
/* Weights are divided by this when the decayed bump grows past it (ac_learning.WEIGHT_RESCALE). */
#define WEIGHT_RESCALE 1e100
/* Longest no-good kept (ac_learning.MAX_NOGOOD). */
#define MAX_NOGOOD 64

enum ValueOrderKind { ORDER_TIER = 0, ORDER_WINDOW = 1, ORDER_LOOKAHEAD = 2 };
enum RunStatus { RUN_FOUND = 0, RUN_EXHAUSTED = 1, RUN_PAUSED = 2, RUN_DEADLINE = 3, RUN_NO_MEMORY = -1 };
enum Phase { PHASE_START = 0, PHASE_SELECT, PHASE_DECIDE, PHASE_AFTER_FILL, PHASE_DONE };

typedef struct {
    double restart_base, restart_growth, weight_decay, value_noise;
    int luby, nogoods, value_order, enumerate;
    int64_t nogood_literals; /* literals kept over all no-goods, -1: no limit (ac_learning.NOGOOD_LITERALS) */
    uint64_t seed;
} Options;

typedef struct {
    uint64_t key, counter;
} Noise;

typedef struct {
    double *edge, *slot_weight, bump, decay;
    int64_t *conflicts;
} Weights;

typedef struct {
    int64_t *literals; /* slot, word pairs */
    size_t literals_len, literals_cap;
    size_t *starts; /* per no-good, where its pairs begin; starts[count] is the end */
    size_t count, starts_cap;
    /* literal -> its no-goods in the order learned: open addressing over keys */
    uint64_t *keys;
    int64_t *first, *last;
    size_t table_cap, table_used;
    int64_t *post_nogood, *post_next;
    size_t posts, posts_cap;
} Nogoods;

typedef struct {
    int64_t slot, word, refuted_start;
    size_t records; /* trail records when this frame's state was marked */
    int64_t pending[VALUE_WINDOW];
    int64_t pending_n;
} Frame;

typedef struct {
    int64_t nodes, backtracks, restarts, propagations, nogoods, nogood_prunings, nogood_failures;
} Counters;

typedef struct {
    Structure st;
    Domains d;
    Trail trail;
    Scratch scratch;
    Options opt;
    const int64_t *scores, *score_offsets;
    Noise noise;
    double spread; /* noise added to look-ahead values now (0 in the first run with seed 0) */
    Weights weights;
    Nogoods nogoods;
    Counters counters;
    Frame *frames;
    int64_t frame_capacity; /* frames (and snapshots) allocated: one per slot and the root; more for optimum.c */
    int64_t depth;
    uint8_t *snapshots; /* per frame: masks, settled, count, lo, hi */
    size_t snapshot_size;
    int64_t *refuted;
    size_t refuted_len, refuted_cap;
    uint64_t *best;
    int64_t best_depth;
    double *logs;  /* per glyph, scratch of the look-ahead */
    int64_t *ids;  /* scratch: word ids */
    double *values;
    int phase;
    int final_status; /* the status every run returns once phase is PHASE_DONE */
    int64_t node_limit; /* stop once this many nodes are made (-1: no limit) */
    int64_t failures, run;
    double cutoff;
    int64_t *changed;
    int64_t *removed;
    uint8_t *marks;  /* per slot: listed in removed */
    int64_t pairs[2 * (MAX_NOGOOD + 1)];
} Search;

/* One improvement neighbourhood's branch and bound (improve.c). */
typedef struct {
    const int64_t *touched;
    int64_t n_touched;
    int64_t best_total; /* the total to beat, then the best found */
    int64_t *best;      /* per touched slot, the best re-fill's word */
    int found;
    int64_t nodes, node_cap, spent, node_budget; /* node_budget -1: none */
    double deadline;
} Improve;

/* The whole grid's highest total score, proved (optimum.c). */
typedef struct {
    int64_t best_total; /* the total to beat, then the best found */
    int64_t *best;      /* per slot, the best fill's word */
    int found, stopped; /* stopped: by the deadline or the node budget, before a proof */
    int64_t root_iterations, node_iterations; /* subgradient steps at the root and at every other node */
    double step_scale;   /* the first step's share of Polyak's step, halved when the bound stalls */
    int64_t stall_steps; /* steps in a row that do not lower the bound before it is halved */
    const volatile uint8_t *stop; /* set by the caller to stop the search (NULL: never) */
    int64_t nodes, node_budget;               /* node_budget -1: none */
    double deadline, root_bound;              /* root_bound: the bound left at the root */
} Optimum;

int search_init(Search *search);
/* The current state becomes frame k's / goes back to frame k's. */
void search_mark(Search *search, int64_t k);
void search_restore(Search *search, int64_t k);
/* Writes nothing but the state: domains already copied in; resets masks and flags, propagates,
 * then searches. */
int improve_run(Search *search, Improve *b);
/* As improve_run for every slot: the best fill above o->best_total, and whether none exists. */
int optimum_run(Search *search, Optimum *o);
void search_free(Search *search);
/* Runs until a fill, exhaustion, the deadline, or the end of the slice (monotonic seconds). */
int search_run(Search *search, double slice_end, double deadline);

/* values.c */
double noise_draw(Noise *noise);
int64_t rank_words(Search *search, int64_t s, int64_t *out);

/* learning.c */
int weights_init(Weights *weights, const Structure *st, double decay);
void weights_free(Weights *weights);
void weights_record(Weights *weights, const Structure *st, int64_t s, int64_t t);
int64_t select_slot(const Search *search);
void nogoods_free(Nogoods *nogoods);
int nogoods_learn(Search *search);
int propagate_with_nogoods(Search *search, const int64_t *changed, int64_t n_changed, int64_t *failed,
                           int64_t *cause);

#endif
