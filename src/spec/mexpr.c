/* The metric expression parser (recursive descent over perf's expr.y grammar) and its
 * evaluator over struct val. */
#include "mexpr.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum node_kind {
	N_NUM,
	N_ID,
	N_LIT,
	N_NEG,
	N_BIN,
	N_IF, /* a if c else b: a, b, c */
	N_MIN,
	N_MAX,
	N_DRATIO,
	N_SOURCE_COUNT,
	N_HAS_EVENT,
	N_CPUID,
};

struct node {
	uint8_t kind;
	char op;	 /* N_BIN: | ^ & < > + - * / % */
	uint16_t height; /* of the subtree: evaluation recurses this deep */
	int a, b, c;	 /* child nodes, -1 when unused */
	double num;	 /* N_NUM */
	unsigned name;	 /* N_ID, N_LIT, and the functions of an identifier: index in names */
};

struct mexpr {
	struct node *n;
	unsigned nn, ncap;
	char **names;
	unsigned nnames, namecap;
	int root;
};

/* Nesting deeper than this is refused: the parser recurses. */
#define MAX_DEPTH 256
/* Trees taller than this are refused (a chain of 1000 '+' nests no parenthesis but is
 * as tall): the evaluator and the event collector recurse over the tree. */
#define MAX_HEIGHT 512

enum tok_kind {
	T_END,
	T_NUM,
	T_ID,
	T_LIT,
	T_OP, /* one character in tok.op */
	T_IF,
	T_ELSE,
	T_MIN,
	T_MAX,
	T_DRATIO,
	T_SOURCE_COUNT,
	T_HAS_EVENT,
	T_CPUID,
	T_BAD,
};

struct parser {
	const char *s;
	size_t pos; /* start of the current token */
	size_t end; /* end of the current token */
	enum tok_kind tok;
	char op;
	double num;
	struct mexpr *e;
	char *err;
	size_t errlen;
	bool failed;
	unsigned depth;
};

static const struct {
	const char *word;
	enum tok_kind tok;
} keywords[] = {
	{"if", T_IF},
	{"else", T_ELSE},
	{"min", T_MIN},
	{"max", T_MAX},
	{"d_ratio", T_DRATIO},
	{"source_count", T_SOURCE_COUNT},
	{"has_event", T_HAS_EVENT},
	{"strcmp_cpuid_str", T_CPUID},
};

static void fail(struct parser *p, const char *what)
{
	if (p->failed)
		return;
	p->failed = true;
	if (p->err && p->errlen)
		snprintf(p->err, p->errlen, "at %zu: %s", p->pos + 1, what);
}

static bool is_sym(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_' || c == '.' || c == ':' || c == '@' || c == '?';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of a number at s: ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)? */
static size_t number_len(const char *s)
{
	size_t i = 0, digits = 0;
	while (is_digit(s[i]))
		i++, digits++;
	if (s[i] == '.') {
		size_t j = i + 1, frac = 0;
		while (is_digit(s[j]))
			j++, frac++;
		if (digits + frac == 0)
			return 0;
		i = j;
	} else if (digits == 0) {
		return 0;
	}
	if (s[i] == 'e') {
		size_t j = i + 1;
		if (s[j] == '-')
			j++;
		if (is_digit(s[j])) {
			while (is_digit(s[j]))
				j++;
			i = j;
		}
	}
	return i;
}

/* Length of a symbol at s: symbol characters and '\' escapes of '-', ',' or '='. */
static size_t symbol_len(const char *s, bool *escaped)
{
	size_t i = 0;
	*escaped = false;
	for (;;) {
		if (is_sym(s[i])) {
			i++;
		} else if (s[i] == '\\' &&
			   (s[i + 1] == '-' || s[i + 1] == ',' || s[i + 1] == '=')) {
			i += 2;
			*escaped = true;
		} else {
			return i;
		}
	}
}

static void next(struct parser *p)
{
	const char *s = p->s;
	size_t i = p->end;
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	p->pos = i;
	if (!s[i]) {
		p->tok = T_END, p->end = i;
		return;
	}
	if (s[i] == '#') {
		size_t j = i + 1;
		while (is_sym(s[j]) || s[j] == '-')
			j++;
		if (j == i + 1 || j - i > 64)
			p->tok = T_BAD, p->end = j;
		else
			p->tok = T_LIT, p->end = j;
		return;
	}
	bool esc;
	size_t nl = number_len(s + i), sl = symbol_len(s + i, &esc);
	if (nl && nl >= sl) {
		char buf[64];
		if (nl >= sizeof(buf)) {
			p->tok = T_BAD, p->end = i + nl;
			return;
		}
		memcpy(buf, s + i, nl);
		buf[nl] = 0;
		p->num = strtod(buf, NULL);
		p->tok = isfinite(p->num) ? T_NUM : T_BAD, p->end = i + nl;
		return;
	}
	if (sl) {
		p->tok = T_ID, p->end = i + sl;
		for (size_t k = 0; !esc && k < sizeof(keywords) / sizeof(keywords[0]); k++)
			if (strlen(keywords[k].word) == sl && !memcmp(keywords[k].word, s + i, sl))
				p->tok = keywords[k].tok;
		return;
	}
	if (strchr("|^&<>+-*/%(),", s[i])) {
		p->tok = T_OP, p->op = s[i], p->end = i + 1;
		return;
	}
	p->tok = T_BAD, p->end = i + 1;
}

static bool is_op(const struct parser *p, char op)
{
	return p->tok == T_OP && p->op == op;
}

static int new_node(struct parser *p, enum node_kind kind)
{
	struct mexpr *e = p->e;
	if (p->failed)
		return -1;
	if (e->nn == e->ncap) {
		unsigned cap = e->ncap ? e->ncap * 2 : 16;
		struct node *n = realloc(e->n, cap * sizeof(*n));
		if (!n) {
			fail(p, "out of memory");
			return -1;
		}
		e->n = n, e->ncap = cap;
	}
	struct node *n = &e->n[e->nn];
	memset(n, 0, sizeof(*n));
	n->kind = (uint8_t)kind;
	n->a = n->b = n->c = -1;
	n->height = 1;
	return (int)e->nn++;
}

/* Node n with its children set: its height, and -1 when the tree grew too tall. */
static int grown(struct parser *p, int n)
{
	if (n < 0)
		return -1;
	struct node *nd = &p->e->n[n];
	unsigned h = 0;
	const int kids[3] = {nd->a, nd->b, nd->c};
	for (int k = 0; k < 3; k++)
		if (kids[k] >= 0 && p->e->n[kids[k]].height > h)
			h = p->e->n[kids[k]].height;
	if (h + 1 > MAX_HEIGHT) {
		fail(p, "expression too long or nested too deep");
		return -1;
	}
	nd->height = (uint16_t)(h + 1);
	return n;
}

/* The current identifier or literal, normalised as perf's lexer does ('@' is '/', '\'
 * escapes the next character), interned in the tree's name table. */
static int intern(struct parser *p, size_t from, size_t to)
{
	struct mexpr *e = p->e;
	char *name = malloc(to - from + 1);
	if (!name) {
		fail(p, "out of memory");
		return -1;
	}
	size_t o = 0;
	for (size_t i = from; i < to; i++) {
		if (p->s[i] == '\\')
			i++;
		name[o++] = p->s[i] == '@' ? '/' : p->s[i];
	}
	name[o] = 0;
	for (unsigned k = 0; k < e->nnames; k++) {
		if (!strcmp(e->names[k], name)) {
			free(name);
			return (int)k;
		}
	}
	if (e->nnames == e->namecap) {
		unsigned cap = e->namecap ? e->namecap * 2 : 8;
		char **nn = realloc(e->names, cap * sizeof(*nn));
		if (!nn) {
			free(name);
			fail(p, "out of memory");
			return -1;
		}
		e->names = nn, e->namecap = cap;
	}
	e->names[e->nnames] = name;
	return (int)e->nnames++;
}

static int parse_if(struct parser *p);

static bool expect(struct parser *p, char op, const char *msg)
{
	if (!is_op(p, op)) {
		fail(p, msg);
		return false;
	}
	next(p);
	return true;
}

/* f(a, b) for min, max and d_ratio. */
static int parse_call2(struct parser *p, enum node_kind kind)
{
	next(p);
	if (!expect(p, '(', "expected '(' after a function name"))
		return -1;
	int a = parse_if(p);
	if (a < 0 || !expect(p, ',', "expected ',' between arguments"))
		return -1;
	int b = parse_if(p);
	if (b < 0 || !expect(p, ')', "expected ')' after the arguments"))
		return -1;
	int n = new_node(p, kind);
	if (n >= 0)
		p->e->n[n].a = a, p->e->n[n].b = b;
	return grown(p, n);
}

/* f(identifier) for source_count, has_event and strcmp_cpuid_str. */
static int parse_call_id(struct parser *p, enum node_kind kind)
{
	next(p);
	if (!expect(p, '(', "expected '(' after a function name"))
		return -1;
	if (p->tok != T_ID) {
		fail(p, "expected an event name");
		return -1;
	}
	int name = intern(p, p->pos, p->end);
	next(p);
	if (name < 0 || !expect(p, ')', "expected ')' after the event name"))
		return -1;
	int n = new_node(p, kind);
	if (n >= 0)
		p->e->n[n].name = (unsigned)name;
	return n;
}

static int parse_binary(struct parser *p, int level);

static int parse_primary(struct parser *p)
{
	int n;
	switch (p->tok) {
	case T_NUM:
		n = new_node(p, N_NUM);
		if (n >= 0)
			p->e->n[n].num = p->num;
		next(p);
		return n;
	case T_ID:
	case T_LIT: {
		bool lit = p->tok == T_LIT;
		int name = intern(p, p->pos + lit, p->end);
		n = name < 0 ? -1 : new_node(p, lit ? N_LIT : N_ID);
		if (n >= 0)
			p->e->n[n].name = (unsigned)name;
		next(p);
		return n;
	}
	case T_MIN:
		return parse_call2(p, N_MIN);
	case T_MAX:
		return parse_call2(p, N_MAX);
	case T_DRATIO:
		return parse_call2(p, N_DRATIO);
	case T_SOURCE_COUNT:
		return parse_call_id(p, N_SOURCE_COUNT);
	case T_HAS_EVENT:
		return parse_call_id(p, N_HAS_EVENT);
	case T_CPUID:
		return parse_call_id(p, N_CPUID);
	case T_OP:
		if (p->op == '(') {
			next(p);
			n = parse_if(p);
			if (n < 0 || !expect(p, ')', "expected ')'"))
				return -1;
			return n;
		}
		if (p->op == '-') {
			next(p);
			if (++p->depth > MAX_DEPTH) {
				fail(p, "nested too deep");
				return -1;
			}
			int a = parse_primary(p);
			p->depth--;
			n = a < 0 ? -1 : new_node(p, N_NEG);
			if (n >= 0)
				p->e->n[n].a = a;
			return grown(p, n);
		}
		break;
	case T_END:
		fail(p, "unexpected end of the expression");
		return -1;
	case T_BAD:
		fail(p, "not a number, name or operator");
		return -1;
	default:
		break;
	}
	fail(p, "expected a number, a name or '('");
	return -1;
}

/* Binary operators, loosest first, all left-associative (expr.y's %left lines). */
static const char *const levels[] = {"|", "^", "&", "<>", "+-", "*/%"};
#define NLEVELS (int)(sizeof(levels) / sizeof(levels[0]))

static int parse_binary(struct parser *p, int level)
{
	if (level == NLEVELS)
		return parse_primary(p);
	int a = parse_binary(p, level + 1);
	while (a >= 0 && p->tok == T_OP && strchr(levels[level], p->op)) {
		char op = p->op;
		next(p);
		int b = parse_binary(p, level + 1);
		int n = b < 0 ? -1 : new_node(p, N_BIN);
		if (n < 0)
			return -1;
		p->e->n[n].op = op, p->e->n[n].a = a, p->e->n[n].b = b;
		a = grown(p, n);
	}
	return a;
}

/* if_expr: expr [if expr else if_expr] */
static int parse_if(struct parser *p)
{
	if (++p->depth > MAX_DEPTH) {
		fail(p, "nested too deep");
		return -1;
	}
	int a = parse_binary(p, 0);
	if (a >= 0 && p->tok == T_IF) {
		next(p);
		int c = parse_binary(p, 0);
		if (c >= 0 && p->tok != T_ELSE)
			fail(p, "expected 'else'");
		else if (c >= 0)
			next(p);
		int b = p->failed ? -1 : parse_if(p);
		int n = b < 0 ? -1 : new_node(p, N_IF);
		if (n >= 0)
			p->e->n[n].a = a, p->e->n[n].b = b, p->e->n[n].c = c;
		a = grown(p, n);
	}
	p->depth--;
	return p->failed ? -1 : a;
}

struct mexpr *mexpr_parse(const char *text, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	struct mexpr *e = calloc(1, sizeof(*e));
	if (!e) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	struct parser p = {.s = text ? text : "", .e = e, .err = err, .errlen = errlen};
	next(&p);
	e->root = parse_if(&p);
	if (!p.failed && p.tok != T_END)
		fail(&p, p.tok == T_ELSE  ? "'else' without 'if'"
			 : p.tok == T_BAD ? "not a number, name or operator"
					  : "expected an operator");
	if (p.failed || e->root < 0) {
		fail(&p, "empty expression");
		mexpr_free(e);
		return NULL;
	}
	return e;
}

void mexpr_free(struct mexpr *e)
{
	if (!e)
		return;
	for (unsigned i = 0; i < e->nnames; i++)
		free(e->names[i]);
	free(e->names);
	free(e->n);
	free(e);
}

struct mval mval_gap(enum val_state st, const char *why)
{
	struct mval r = {.v = val_missing(st, st == VAL_NA ? WHY_UNSUPPORTED : WHY_NONE),
			 .why = why};
	if (st == VAL_NC)
		r.v.why = WHY_NOT_RUN;
	return r;
}

static struct mval number(double v)
{
	struct mval r = {.v = {.v = v, .state = VAL_EXACT, .run_pm = 1000}};
	return r;
}

/* Value of a literal, folding only numbers and literals: false when the node needs a
 * counted value (or the literal is unknown). */
static bool const_value(const struct mexpr *e, int i, const struct mexpr_env *env, double *out,
			unsigned depth)
{
	const struct node *n = &e->n[i];
	double a, b, c;
	if (depth > MAX_HEIGHT)
		return false;
	switch (n->kind) {
	case N_NUM:
		*out = n->num;
		return true;
	case N_LIT:
		return env && env->literal && env->literal(env->ctx, e->names[n->name], out) == 0;
	case N_NEG:
		if (!const_value(e, n->a, env, &a, depth + 1))
			return false;
		*out = -a;
		return true;
	case N_IF:
		if (!const_value(e, n->c, env, &c, depth + 1))
			return false;
		return const_value(e, c != 0 ? n->a : n->b, env, out, depth + 1);
	case N_BIN:
		if (!const_value(e, n->a, env, &a, depth + 1) ||
		    !const_value(e, n->b, env, &b, depth + 1))
			return false;
		switch (n->op) {
		case '+':
			*out = a + b;
			return true;
		case '-':
			*out = a - b;
			return true;
		case '*':
			*out = a * b;
			return true;
		case '<':
			*out = a < b;
			return true;
		case '>':
			*out = a > b;
			return true;
		default:
			return false; /* division and the rest: left to evaluation */
		}
	default:
		return false;
	}
}

static void collect(const struct mexpr *e, int i, const struct mexpr_env *env, bool *used,
		    unsigned depth)
{
	if (i < 0 || depth > MAX_HEIGHT)
		return;
	const struct node *n = &e->n[i];
	double c;
	switch (n->kind) {
	case N_ID:
	case N_SOURCE_COUNT:
		used[n->name] = true;
		return;
	case N_IF:
		if (const_value(e, n->c, env, &c, 0)) {
			collect(e, c != 0 ? n->a : n->b, env, used, depth + 1);
			return;
		}
		break;
	default:
		break;
	}
	collect(e, n->a, env, used, depth + 1);
	collect(e, n->b, env, used, depth + 1);
	collect(e, n->c, env, used, depth + 1);
}

unsigned mexpr_ids(const struct mexpr *e, const struct mexpr_env *env, const char **ids,
		   unsigned max)
{
	if (!e || !e->nnames)
		return 0;
	bool *used = calloc(e->nnames, sizeof(*used));
	if (!used)
		return 0;
	collect(e, e->root, env, used, 0);
	unsigned k = 0;
	for (unsigned i = 0; i < e->nnames; i++) {
		if (!used[i])
			continue;
		if (k < max)
			ids[k] = e->names[i];
		k++;
	}
	free(used);
	return k;
}

/* The worse of two inputs' states and the lower running share, on value v. */
static struct mval combine(struct mval a, struct mval b, double v)
{
	struct mval w = val_worse(b.v, a.v) ? b : a;
	if (!val_has_number(a.v) || !val_has_number(b.v))
		return w;
	w.v.v = v;
	w.v.run_pm = a.v.run_pm < b.v.run_pm ? a.v.run_pm : b.v.run_pm;
	if (w.v.state == VAL_EXACT)
		w.why = NULL, w.what = NULL;
	return w;
}

static struct mval eval(const struct mexpr *e, int i, const struct mexpr_env *env, unsigned depth);

static struct mval binary(char op, struct mval a, struct mval b)
{
	if (!val_has_number(a.v) || !val_has_number(b.v))
		return combine(a, b, 0);
	double x = a.v.v, y = b.v.v;
	switch (op) {
	case '+':
		return combine(a, b, x + y);
	case '-':
		return combine(a, b, x - y);
	case '*':
		return combine(a, b, x * y);
	case '/':
		if (y == 0)
			return combine(a, mval_gap(VAL_EMPTY, "division by zero"), 0);
		return combine(a, b, x / y);
	case '%':
		if (!(fabs(y) >= 1 && fabs(x) < 9e18 && fabs(y) < 9e18))
			return combine(a, mval_gap(VAL_EMPTY, "division by zero"), 0);
		return combine(a, b, (double)((long long)x % (long long)y));
	case '<':
		return combine(a, b, x < y);
	case '>':
		return combine(a, b, x > y);
	case '|':
		return combine(a, b, x != 0 || y != 0);
	case '&':
		return combine(a, b, x != 0 && y != 0);
	case '^':
		return combine(a, b, (x != 0) != (y != 0));
	default:
		break;
	}
	return mval_gap(VAL_NA, "unknown operator");
}

static struct mval lookup(const struct mexpr *e, const struct node *n, const struct mexpr_env *env)
{
	const char *name = e->names[n->name];
	const char *why = "unknown event";
	size_t len = strlen(name);
	struct mval r;
	if (len >= 2 && !strcasecmp(name + len - 2, ":R")) {
		why = "needs sampling (retire latency)";
	} else if (env && env->lookup && env->lookup(env->ctx, name, &r) == 0) {
		if (!val_has_number(r.v) && !r.why) {
			r.why = val_why_str((enum val_why)r.v.why);
			if (!r.why[0])
				r.why = val_state_str((enum val_state)r.v.state);
		}
		if (!val_has_number(r.v) && !r.what)
			r.what = name;
		return r;
	}
	r = mval_gap(VAL_NA, why);
	r.what = name;
	return r;
}

static struct mval eval_node(const struct mexpr *e, const struct node *n,
			     const struct mexpr_env *env, unsigned depth)
{
	struct mval a, b, c, r;
	double lit;
	switch (n->kind) {
	case N_NUM:
		return number(n->num);
	case N_LIT:
		if (env && env->literal && env->literal(env->ctx, e->names[n->name], &lit) == 0)
			return number(lit);
		r = mval_gap(VAL_NA, "unknown literal");
		r.what = e->names[n->name];
		return r;
	case N_ID:
		return lookup(e, n, env);
	case N_NEG:
		a = eval(e, n->a, env, depth);
		if (val_has_number(a.v))
			a.v.v = -a.v.v;
		return a;
	case N_BIN:
		return binary(n->op, eval(e, n->a, env, depth), eval(e, n->b, env, depth));
	case N_IF:
		c = eval(e, n->c, env, depth);
		if (!val_has_number(c.v))
			return c;
		a = eval(e, c.v.v != 0 ? n->a : n->b, env, depth);
		return combine(c, a, a.v.v);
	case N_MIN:
	case N_MAX:
		a = eval(e, n->a, env, depth);
		b = eval(e, n->b, env, depth);
		if (n->kind == N_MIN)
			return combine(a, b, a.v.v < b.v.v ? a.v.v : b.v.v);
		return combine(a, b, a.v.v > b.v.v ? a.v.v : b.v.v);
	case N_DRATIO:
		/* perf reads d_ratio(x, 0) as 0: an idle thread's share would then be a
		 * silent 0%, so it is a gap here like any division by zero. */
		return binary('/', eval(e, n->a, env, depth), eval(e, n->b, env, depth));
	case N_HAS_EVENT:
		r.v.state = VAL_NA;
		if (env && env->lookup)
			return number(env->lookup(env->ctx, e->names[n->name], &r) == 0 &&
				      r.v.state != VAL_NA);
		return number(0);
	case N_SOURCE_COUNT:
		/* One source: pmutop sums an event's PMUs (hybrid cores) into one count. */
		r = lookup(e, n, env);
		return r.v.state == VAL_NA ? r : number(1);
	case N_CPUID:
		if (!env || !env->cpuid) {
			r = mval_gap(VAL_NA, "CPU identifier unknown");
			return r;
		}
		return number(strcasecmp(env->cpuid, e->names[n->name]) == 0);
	default:
		break;
	}
	return mval_gap(VAL_NA, "invalid expression");
}

static struct mval eval(const struct mexpr *e, int i, const struct mexpr_env *env, unsigned depth)
{
	if (i < 0 || (unsigned)i >= e->nn || depth > MAX_HEIGHT)
		return mval_gap(VAL_NA, "invalid expression");
	struct mval r = eval_node(e, &e->n[i], env, depth + 1);
	if (val_has_number(r.v) && !isfinite(r.v.v))
		r = mval_gap(VAL_EMPTY, "not a finite number");
	return r;
}

struct mval mexpr_eval(const struct mexpr *e, const struct mexpr_env *env)
{
	if (!e)
		return mval_gap(VAL_NA, "invalid expression");
	return eval(e, e->root, env, 0);
}
