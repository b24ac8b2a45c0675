/* fast_solv_9r2 (tdoku's other/fast_solv_9r2/fast_solv_9r2.c) behind tdoku's adapter signature:
 *   size_t solve(const char *puzzle, size_t limit, uint32_t configuration,
 *                char *solution, size_t *num_guesses);
 * It returns the number of solutions found (at most `limit`) and the guesses made. The solver
 * writes no solution, so `solution` is left untouched; `configuration` is unused. The solver
 * keeps its state in globals: not safe to call from two threads at once. */
#include <stddef.h>
#include <stdint.h>

/* Entry points of fast_solv_9r2.c. */
int make_links(void);
int fast_solv_9r2_solve(const char *buffer, int limit);
extern int fast_solv_92r_undone;

static int links_made = 0;

size_t FastSolv9r2(const char *puzzle, size_t limit, uint32_t configuration, char *solution,
                   size_t *num_guesses) {
    (void)configuration;
    (void)solution;
    if (!links_made) {
        make_links();
        links_made = 1;
    }
    int found = fast_solv_9r2_solve(puzzle, (int)limit);
    *num_guesses = (size_t)fast_solv_92r_undone;
    return found < 0 ? 0 : (size_t)found;
}
