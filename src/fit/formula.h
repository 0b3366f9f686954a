/* Fits as formulas a person can paste: text, C, Python, LaTeX, gnuplot. cf_fit_formula
 * itself is declared in fit/fit.h, beside the fit it prints. */
#ifndef CF_FORMULA_H
#define CF_FORMULA_H

#include "fit/fit.h"

/* "text|c|python|latex|gnuplot" */
extern const char *const cf_formula_langs[];
int cf_formula_lang_valid(const char *lang);

/* The name of the function a code formula defines: T_pingpong_np2, T_pingpong_vector_np2. */
void cf_formula_func_name(const cf_fit *f, char *buf, size_t n);

/* The costs per block of a datatype fit as the summary, the report and the plots give
 * them, "per block 25 ns [24.6, 25.4]", one per segment that has one, each with its sizes
 * for several: "per block 0.3 ns [-0.2, 0.8] (m <= 8 KiB), 7.9 ns [7.2, 8.6] (m >= 15.6
 * KiB)". The length written (truncated to n); 0 and "" when the fit has none. */
int cf_fit_per_block_text(const cf_fit *f, char *buf, size_t n);

#endif
