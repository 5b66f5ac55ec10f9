/* The compiled search core: shared declarations.
 *
 * A problem is packed by csp_crossword.search.propagation_kernel.CompiledNetwork (see that module
 * for the layout): every slot's domain is a row of 64-bit words, crossing-cell glyph masks are one
 * uint64 each, and per word length, position and glyph a column bitset of the words with that
 * glyph there. The Python modules (propagation.py, backends/ac.py) are the reference this code
 * must agree with, decision for decision.
 */
#ifndef CSP_CROSSWORD_KERNEL_CORE_H
#define CSP_CROSSWORD_KERNEL_CORE_H

#include <stddef.h>
#include <stdint.h>

#define NO_FAILURE (-1)
#define NO_CAUSE (-1)

/* The problem's fixed structure (read only while searching). */
typedef struct {
    int64_t n;              /* slots */
    int64_t crossing_count; /* crossing cells (glyph masks) */
    int64_t total;          /* 64-bit words of all domain rows */
    const int64_t *offsets, *widths, *kinds, *lengths;
    const int64_t *column_offsets; /* [kind][pos][glyph] -> start in columns, -1: no word */
    int64_t longest, glyph_count;
    const uint64_t *columns;
    const int64_t *code_offsets;
    const uint8_t *codes; /* per kind, word id x length glyph ids (at most 64 glyphs: a byte each) */
    const int64_t *nb_start, *nb_other, *nb_pos, *nb_other_pos, *nb_cell;
    const int64_t *same_start, *same_slots;
    int check_repeats;
} Structure;

/* The mutable state propagation narrows. count, lo and hi are kept in step with the rows: a
 * slot's words are all in row words lo..hi (a bound, not always tight). */
typedef struct {
    uint64_t *domains;
    uint64_t *masks;
    uint8_t *settled;
    uint8_t *touched; /* set when a slot's domain changes (cleared by the caller) */
    int64_t *count;
    int64_t *lo, *hi;
} Domains;

/* Saves domain rows before their first change since the last mark, so a search can go back. */
typedef struct {
    uint64_t *rows;      /* records: slot, stamp the row had, then its words */
    size_t rows_len, rows_cap;
    size_t *starts;      /* where each record begins */
    size_t records, records_cap;
    uint64_t *row_stamp; /* per slot */
    uint64_t stamp;      /* rows stamped with it are saved already */
    int failed;          /* out of memory */
} Trail;

/* Scratch memory of the propagation loop, made once per search (or per call). */
typedef struct {
    int64_t *queue;
    uint8_t *queued;
    int64_t *starts;
    int64_t *ids;
    /* per slot, position and glyph: the row word where a supporting word was last found (a
     * hint checked first, then kept until it fails: residual supports, Lecoutre & Hemery,
     * "A study of residual supports in arc consistency", IJCAI 2007) */
    int32_t *residues;
    uint64_t *union_words; /* one row of the widest slot */
} Scratch;

/* At or below this many words a domain's glyph supports are read from the words' glyph codes
 * (one pass over the words per crossing) instead of testing one column per glyph. */
#define KERNEL_SMALL_DOMAIN 24
/* ... and so they are up to this many words when they average at most KERNEL_WORDS_PER_BLOCK
 * per 64-bit word of the domain's non-zero span. */
#define KERNEL_WORDS_LIMIT 1024
#define KERNEL_WORDS_PER_BLOCK 2

static inline int64_t popcount64(uint64_t x) { return (int64_t)__builtin_popcountll(x); }

static inline int64_t column_start(const Structure *st, int64_t kind, int64_t pos, int64_t glyph) {
    return st->column_offsets[(kind * st->longest + pos) * st->glyph_count + glyph];
}

static inline int64_t word_code(const Structure *st, int64_t kind, int64_t length, int64_t word, int64_t pos) {
    return st->codes[st->code_offsets[kind] + word * length + pos];
}

int scratch_init(Scratch *scratch, const Structure *st);
void scratch_free(Scratch *scratch);

/* count, lo and hi of every slot from its row. */
void domains_measure(const Structure *st, Domains *d);

/* Saves slot s's row unless saved since the last mark (trail may be NULL: no saving). */
void trail_save_row(Trail *trail, const Structure *st, const Domains *d, int64_t s);
int trail_init(Trail *trail, const Structure *st);
void trail_free(Trail *trail);
/* Restores every row saved after record `records` and starts a new stamp. */
void trail_undo(Trail *trail, const Structure *st, Domains *d, size_t records);
void trail_new_stamp(Trail *trail);

/* Arc consistency to a fixpoint after the slots in `changed` shrank (the loop of
 * Network._propagate_python). 0: fixpoint; 1: failure (failed slot and cause set); -1: out of
 * memory. */
int fixpoint(const Structure *st, Domains *d, Trail *trail, Scratch *scratch, const int64_t *changed,
             int64_t n_changed, int64_t *failed, int64_t *cause);

/* The words of row s's domain: word ids in increasing order, at most `limit`; returns how many. */
int64_t domain_ids(const Structure *st, const Domains *d, int64_t s, int64_t *ids, int64_t limit);

#endif
