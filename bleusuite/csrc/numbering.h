/* The Numbering type's object, and what numbering.c and tokenizers.c share of it: the
 * built-in rules' character classes and the tokenizing of a new unit. */
#ifndef BLEUSUITE_NUMBERING_H
#define BLEUSUITE_NUMBERING_H

#include "string_table.h"

/* the built-in tokenizers (rules=...): none, sacrebleu's 13a, its char (each character a
 * token), chrF++'s words (one punctuation character split off the end, or else the start,
 * of a word of two or more characters), rouge-score's (with its stemmer or without) */
typedef enum {
    RULES_NONE, RULES_13A, RULES_CHAR, RULES_PUNCTUATION, RULES_ROUGE, RULES_ROUGE_PORTER
} Rules;

typedef struct {
    PyObject_HEAD
    PyObject *tokenize; /* NULL: plain, or the built-in rules */
    Rules rules;
    StrTable units;      /* the words (plain: the tokens) */
    StrTable tokens;     /* with a tokenizer: the tokens */
    Int64s unit_tokens;  /* the token ids of units of several tokens, unit after unit */
    Chars work[2];       /* 13a's scratch */
    StrTable *local;     /* gather's row tables: the tokens of one row at a time, or NULL */
    Int64s row_tokens;   /* the tokens of one unit, for the row's table */
    PyObject *made;      /* list: the str of each token numbered so far, made after calls */
    int ready, busy; /* busy: 1 while a call numbers, 2 while it does without the GIL */
} Numbering;

static inline StrTable *
vocabulary(Numbering *self)
{
    return self->tokenize != NULL || self->rules != RULES_NONE ? &self->tokens : &self->units;
}

/* the table tokens go to: the row's (gather's rows), else the numbering's own */
static inline StrTable *
token_table(Numbering *self)
{
    return self->local != NULL ? self->local : &self->tokens;
}

static inline int
acts_on(Py_UCS4 c)
{
    return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`')
           || (c >= '{' && c <= '~');
}

static inline int
is_digit(Py_UCS4 c)
{
    return c >= '0' && c <= '9';
}

/* whether a unit is its own only token under the rules (13a: no punctuation or symbol;
 * rouge: lowercase letters and digits, and with the stemmer at most 3 of them) */
static inline int
plain_unit(const Numbering *self, Text unit)
{
    if (unit.length == 0) return 0;
    int rouge = self->rules == RULES_ROUGE || self->rules == RULES_ROUGE_PORTER;
    if (self->rules == RULES_ROUGE_PORTER && unit.length > 3) return 0;
    for (Py_ssize_t i = 0; i < unit.length; i++) {
        Py_UCS4 c = bs_text_at(unit, i);
        int plain = rouge ? (c >= 'a' && c <= 'z') || is_digit(c)
                          : !acts_on(c) && !is_space(c);
        if (!plain) return 0;
    }
    return 1;
}

/* the tokens of a new unit by the numbering's rules or tokenize (tokenizers.c): its token
 * ids (the only one, or an index into unit_tokens) in *first and *count; 0, NO_MEMORY, or
 * RAISED (an exception of tokenize, set: the GIL held) */
int bs_tokenize_unit(Numbering *self, Text unit, PyObject *line, Py_ssize_t start, int64_t *first,
                  int64_t *count);
/* sacrebleu's char rules on a unit: its tokens' ids appended to unit_tokens */
int bs_tokenize_char(Numbering *self, Text unit);

#endif
