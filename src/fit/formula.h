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

#endif
