/* Field splitting for delimited text (CSV, TSV) and whitespace-separated
 * records (SWF). Both split a line in place. */
#ifndef TT_CSV_H
#define TT_CSV_H

/* Splits line on delim into at most max fields, unquoting "a,b" and ""
 * inside quotes. Returns the number of fields in the line (which may exceed
 * max; only max are stored), or -1 for an unterminated quote. */
int tt_csv_split(char *line, char delim, char **fields, int max);
/* Splits on every tab, with no quoting (TSV as tt-cat writes it, and Gavel's
 * traces, whose fields may start with a quote); same returns (never -1). */
int tt_tab_split(char *line, char **fields, int max);
/* Splits on runs of spaces and tabs; same returns (never -1). */
int tt_ws_split(char *line, char **fields, int max);
/* Trims leading and trailing spaces and tabs in place; returns s. */
char *tt_trim(char *s);

#endif
