// SPDX-License-Identifier: MIT
// perf's tracing-data container parsed into libtraceevent, checked so that untrusted formats and payloads print without reading outside them, as `perf script` prints tracepoint fields.
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "data/tracing_data.h"
#include "event/tracepoint.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/sysfs.h"

/*
 * A PERF_SAMPLE_RAW payload lives in a record whose size is a u16, so no
 * real payload and no field of a real format goes past 64 KiB.
 */
#define PAYLOAD_MAX 65536u
/*
 * Payloads are copied into a zeroed buffer this large: libtraceevent
 * derives offsets from __data_loc words (16-bit offset and length, plus the
 * field's own offset for __rel_loc) without always checking them against
 * the payload, and prints strings up to their NUL. With fields checked to
 * lie below PAYLOAD_MAX, every such read stays inside (at most 3 x 64 KiB),
 * and a string without its NUL ends in the zeroes after the payload.
 */
#define SCRATCH_SIZE (4 * PAYLOAD_MAX + 4096)
/* Real formats are a few KiB (5.5 KiB on 6.18, 14 levels of parentheses, 270 operators). */
#define FORMAT_MAX (64u * 1024)
#define NESTING_MAX 64
/* libtraceevent evaluates the argument tree recursively; deeper trees are refused. */
#define ARG_DEPTH_MAX 256
/* A printf width or precision beyond this makes libtraceevent grow its output without bound. */
#define WIDTH_MAX 4096
/* Constant array indices ("REC->addr[5]") beyond this are refused. */
#define INDEX_MAX 4096
#define SECTION_MAX (256u * 1024 * 1024)

static const uint8_t magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/*
 * A hex dump or int array whose length comes from the payload, which
 * libtraceevent trusts: checked per sample to end inside the payload.
 */
struct len_check {
	struct tep_format_field *array;  /* a fixed array field, or a __data_loc one */
	struct tep_format_field *len;    /* the field holding the length */
	bool len_is_loc;                 /* the length half of len's __data_loc word, else len's value */
	unsigned elem_size;
};

/* What was found about one parsed format. */
struct evinfo {
	struct tep_event *ev;
	char why[128];           /* non-empty: not used to print */
	uint32_t min_size;       /* payload bytes the fixed fields need */
	struct len_check *checks;
	size_t nr_checks;
};

struct pms_tracing_data {
	struct tep_handle *tep;
	char version[16];
	int long_size;
	bool swap;               /* the container's numbers are in the other byte order */
	bool has_kallsyms;
	struct evinfo *infos;    /* one per parsed format, sorted by tep_event pointer */
	size_t nr_infos;
	struct evinfo **by_id;   /* unique ids, ascending */
	size_t nr_ids;
	int type_offset, type_size; /* common_type as libtraceevent reads it (its first event's) */
	bool have_type;
	uint8_t *scratch;        /* SCRATCH_SIZE bytes (from the first payload on), zero except while formatting */
	pms_tracing_func_fn func_fn;
	void *func_ctx;
	char warning[256];
	size_t nr_refused;
};

/* ---------- the container ---------- */

struct cur {
	const uint8_t *p;
	size_t len, off;
	bool swap;
};

static bool take(struct cur *c, size_t n, const uint8_t **out)
{
	if (n > c->len - c->off)
		return false;
	*out = c->p + c->off;
	c->off += n;
	return true;
}

static bool take_u32(struct cur *c, uint32_t *v)
{
	const uint8_t *p;

	if (!take(c, 4, &p))
		return false;
	memcpy(v, p, 4);
	if (c->swap)
		*v = __builtin_bswap32(*v);
	return true;
}

static bool take_u64(struct cur *c, uint64_t *v)
{
	const uint8_t *p;

	if (!take(c, 8, &p))
		return false;
	memcpy(v, p, 8);
	if (c->swap)
		*v = __builtin_bswap64(*v);
	return true;
}

/* A NUL-terminated string of at most max bytes before the NUL. */
static bool take_str(struct cur *c, size_t max, const char **s)
{
	const uint8_t *p = c->p + c->off, *nul;
	size_t left = c->len - c->off;

	nul = memchr(p, '\0', left < max + 1 ? left : max + 1);
	if (!nul)
		return false;
	*s = (const char *)p;
	c->off += (size_t)(nul - p) + 1;
	return true;
}

/* A sized text section: u32 or u64 size, then the bytes. */
static bool take_section(struct cur *c, bool wide, const uint8_t **p, size_t *n)
{
	uint64_t size;

	if (wide) {
		if (!take_u64(c, &size))
			return false;
	} else {
		uint32_t s32;

		if (!take_u32(c, &s32))
			return false;
		size = s32;
	}
	if (size > c->len - c->off)
		return false;
	*n = (size_t)size;
	return take(c, *n, p);
}

static char *dup_text(const uint8_t *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

__attribute__((format(printf, 2, 3)))
static void warn(struct pms_tracing_data *td, const char *fmt, ...)
{
	va_list ap;

	if (td->warning[0])
		return;
	va_start(ap, fmt);
	vsnprintf(td->warning, sizeof(td->warning), fmt, ap);
	va_end(ap);
}

/* ---------- checking a format's text before libtraceevent parses it ---------- */

/*
 * libtraceevent's format parser is written for tracefs text, not for
 * hostile text: in 1.7 an unknown field as the first argument of
 * __print_flags() dereferences NULL, two constants divided by zero are
 * folded with a SIGFPE ("1 / (2 * 0)"), and it recurses per nesting level
 * and per operator. So a format is first recognized here against the shape
 * of every tracefs format (the name, ID and field lines, then a print fmt
 * that is a C expression list over REC->field, constants and the helpers
 * libtraceevent knows), with every field it names declared, divisors
 * non-zero constants, and bounded nesting and size. A format whose field
 * lines are not tracefs's is refused; one whose print fmt is not gets a
 * print fmt libtraceevent fails on, so the event prints its fields.
 */
#define FIELDS_MAX 512
#define OPS_MAX 2048

enum tok { T_END, T_IDENT, T_NUM, T_STR, T_CHAR, T_PUNCT, T_BAD };

struct lex {
	const char *p, *end;
	enum tok t;
	const char *s;   /* token text */
	size_t n;
	int depth, ops;
	const char *why;
	bool in_print;                  /* the name, ID and fields passed; now the print fmt */
	const char *print;              /* where "print fmt: " starts */
	const char *field[FIELDS_MAX];  /* declared field names (into the text) */
	size_t field_len[FIELDS_MAX];
	size_t nr_fields;
};

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* libtraceevent's tokenizer turns these (old mac80211 macros) into strings mid-stream. */
static bool magic_ident(const char *s, size_t n)
{
	return (n == 12 && !memcmp(s, "LOCAL_PR_FMT", 12)) || (n == 10 && !memcmp(s, "STA_PR_FMT", 10)) ||
	       (n == 10 && !memcmp(s, "VIF_PR_FMT", 10));
}

static bool lex_fail(struct lex *x, const char *why)
{
	if (!x->why)
		x->why = why;
	return false;
}

static void lex_next(struct lex *x)
{
	static const char *const two[] = { "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
	const char *p = x->p;

	while (p < x->end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	x->s = p;
	if (p == x->end) {
		x->t = T_END;
		x->n = 0;
		return;
	}
	if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || (*p >= '0' && *p <= '9')) {
		x->t = *p >= '0' && *p <= '9' ? T_NUM : T_IDENT;
		while (p < x->end && is_ident_char(*p))
			p++;
	} else if (*p == '"' || *p == '\'') {
		char q = *p++;

		x->t = q == '"' ? T_STR : T_CHAR;
		while (p < x->end && *p != q) {
			/* printable ASCII only, and no raw line breaks in character literals */
			if ((unsigned char)*p >= 0x7f || ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n')) {
				x->t = T_BAD;
				break;
			}
			p += *p == '\\' && p + 1 < x->end ? 2 : 1;
		}
		if (p >= x->end || x->t == T_BAD)
			x->t = T_BAD;
		else
			p++;
	} else if (x->end - p >= 2 && (*p == '+' || *p == '-') && p[1] == *p) {
		/* "++"/"--": no tracefs format has them, and libtraceevent 1.7 leaks the token */
		x->t = T_BAD;
		p += 2;
	} else {
		x->t = T_BAD;
		for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
			if (x->end - p >= 2 && p[0] == two[i][0] && p[1] == two[i][1]) {
				x->t = T_PUNCT;
				p += 2;
				break;
			}
		if (x->t == T_BAD && *p && strchr("()[]{},?:+-*/%&|^!~<>", *p)) {
			x->t = T_PUNCT;
			p++;
		}
	}
	x->n = (size_t)(p - x->s);
	x->p = p;
	if (x->t == T_IDENT && magic_ident(x->s, x->n))
		x->t = T_BAD;
	if (x->t == T_BAD)
		lex_fail(x, "a character or literal no tracefs format has");
}

static bool tok_is(const struct lex *x, const char *s)
{
	return (x->t == T_PUNCT || x->t == T_IDENT) && strlen(s) == x->n && !memcmp(x->s, s, x->n);
}

static bool expect(struct lex *x, const char *s)
{
	if (!tok_is(x, s))
		return lex_fail(x, "not the shape of a tracefs print fmt");
	lex_next(x);
	return true;
}

static bool declared(const struct lex *x, const char *s, size_t n)
{
	for (size_t i = 0; i < x->nr_fields; i++)
		if (x->field_len[i] == n && !memcmp(x->field[i], s, n))
			return true;
	return false;
}

/* A declared field name, as libtraceevent looks it up without checking. */
static bool field_name(struct lex *x)
{
	if (x->t != T_IDENT || !declared(x, x->s, x->n))
		return lex_fail(x, "a field that is not declared");
	lex_next(x);
	return true;
}

/*
 * The number token is not zero as libtraceevent reads it: strtoull() with
 * base 0, which stops at the first digit its base does not have ("08" and
 * "0008004" are octal zeros; a fuzzer's "0 % 0008004" divided by zero).
 */
static bool nonzero_number(const struct lex *x)
{
	char buf[72];

	if (x->n >= sizeof(buf))
		return false; /* no tracefs format has such a number: refused rather than guessed */
	memcpy(buf, x->s, x->n);
	buf[x->n] = '\0';
	return strtoull(buf, NULL, 0) != 0;
}

static bool rx_expr(struct lex *x, bool konst);

/* { value, "name" }, ... of __print_flags and __print_symbolic */
static bool rx_entries(struct lex *x)
{
	do {
		if (!expect(x, "{") || !rx_expr(x, true) || !expect(x, ","))
			return false;
		/* a name: "A", "APIC_" "ID", or NULL as 0 or ((void *)0) */
		if (x->t == T_STR) {
			while (x->t == T_STR)
				lex_next(x);
		} else if (x->t == T_NUM && x->n == 1 && x->s[0] == '0') {
			lex_next(x);
		} else {
			static const char *const null[] = { "(", "(", "void", "*", ")", "0", ")" };

			for (size_t i = 0; i < sizeof(null) / sizeof(null[0]); i++) {
				bool zero = x->t == T_NUM && x->n == 1 && x->s[0] == '0';

				if (!strcmp(null[i], "0") ? !zero : !tok_is(x, null[i]))
					return lex_fail(x, "a flag or symbol name that is not a string");
				lex_next(x);
			}
		}
		if (!expect(x, "}"))
			return false;
	} while (tok_is(x, ",") && (lex_next(x), true));
	return true;
}

static bool rx_call(struct lex *x, const char *f, size_t n, bool konst)
{
#define IS(name) (n == sizeof(name) - 1 && !memcmp(f, name, n))
	if (konst)
		return lex_fail(x, "a helper call in a flag value");
	if (!expect(x, "("))
		return false;
	/* the helpers of libtraceevent 1.7's process_function() */
	if (IS("__print_flags")) {
		if (!rx_expr(x, false) || !expect(x, ","))
			return false;
		if (x->t != T_STR)
			return lex_fail(x, "a __print_flags() delimiter that is not a string");
		lex_next(x);
		return expect(x, ",") && rx_entries(x) && expect(x, ")");
	}
	if (IS("__print_symbolic"))
		return rx_expr(x, false) && expect(x, ",") && rx_entries(x) && expect(x, ")");
	if (IS("__print_hex") || IS("__print_hex_str"))
		return rx_expr(x, false) && expect(x, ",") && rx_expr(x, false) && expect(x, ")");
	if (IS("__print_array"))
		return rx_expr(x, false) && expect(x, ",") && rx_expr(x, false) && expect(x, ",") &&
		       rx_expr(x, false) && expect(x, ")");
	if (IS("__get_str") || IS("__get_rel_str") || IS("__get_bitmask") || IS("__get_rel_bitmask") ||
	    IS("__get_cpumask") || IS("__get_rel_cpumask") || IS("__get_dynamic_array") ||
	    IS("__get_rel_dynamic_array") || IS("__get_dynamic_array_len") ||
	    IS("__get_rel_dynamic_array_len") || IS("__get_sockaddr") || IS("__get_sockaddr_rel"))
		return field_name(x) && expect(x, ")");
	if (IS("__builtin_expect")) {
		if (!rx_expr(x, false) || !expect(x, ","))
			return false;
		if (x->t != T_NUM && x->t != T_IDENT)
			return lex_fail(x, "a __builtin_expect() hint that is not a constant");
		lex_next(x);
		return expect(x, ")");
	}
	/*
	 * Any other function (jiffies_to_msecs(), trace_seq_printf(), and
	 * sizeof(), which 1.7 parses only in some spellings): libtraceevent
	 * fails the whole print fmt on it, leaking on the way, so it is
	 * failed here instead.
	 */
	return lex_fail(x, "a function libtraceevent does not know");
#undef IS
}

/* After "(": a type name, "(unsigned long)", "(struct x *)", "(void *)". */
static bool looks_like_cast(const struct lex *x)
{
	const char *p = x->s;

	if (x->t != T_IDENT || tok_is(x, "REC"))
		return false;
	while (p < x->end) {
		while (p < x->end && (*p == ' ' || *p == '\t'))
			p++;
		if (p < x->end && (is_ident_char(*p) || *p == '*'))
			p++;
		else
			break;
	}
	return p < x->end && *p == ')';
}

/* At REC after "(": is it "(REC)->field"? */
static bool rec_in_parens(const struct lex *x)
{
	const char *p = x->s + x->n;

	while (p < x->end && (*p == ' ' || *p == '\t'))
		p++;
	return p < x->end && *p == ')';
}

static bool rx_unary(struct lex *x, bool konst);

static bool rx_primary(struct lex *x, bool konst)
{
	bool ok;

	if (++x->depth > NESTING_MAX)
		return lex_fail(x, "nested too deep");
	switch (x->t) {
	case T_NUM:
	case T_STR:
	case T_CHAR:
		lex_next(x);
		ok = true;
		break;
	case T_IDENT:
		if (tok_is(x, "REC")) {
			if (konst)
				return lex_fail(x, "a field in a flag value");
			lex_next(x);
			ok = expect(x, "->") && field_name(x);
			break;
		}
		{
			const char *f = x->s;
			size_t n = x->n;

			lex_next(x);
			ok = tok_is(x, "(") ? rx_call(x, f, n, konst) : true;
		}
		break;
	case T_PUNCT:
		if (tok_is(x, "(")) {
			lex_next(x);
			if (tok_is(x, "REC") && rec_in_parens(x)) {
				/* "(REC)->field" */
				lex_next(x);
				ok = !konst && expect(x, ")") && expect(x, "->") && field_name(x);
			} else if (looks_like_cast(x)) {
				while (!tok_is(x, ")") && x->t != T_END)
					lex_next(x);
				lex_next(x);
				/* libtraceevent casts what follows when it is an item or "(" */
				ok = x->t == T_IDENT || x->t == T_NUM || x->t == T_STR || x->t == T_CHAR ||
						     tok_is(x, "(") ?
					     rx_unary(x, konst) :
					     true;
			} else {
				ok = rx_expr(x, konst) && expect(x, ")");
			}
			break;
		}
		/* fall through */
	default:
		ok = lex_fail(x, "not the shape of a tracefs print fmt");
	}
	x->depth--;
	return ok;
}

static bool rx_unary(struct lex *x, bool konst)
{
	int n = 0;

	/* flag values are evaluated by libtraceevent's constant folder, which has no '!' */
	while ((!konst && tok_is(x, "!")) || tok_is(x, "~") || tok_is(x, "-") || tok_is(x, "+")) {
		if (++n > NESTING_MAX || ++x->ops > OPS_MAX)
			return lex_fail(x, "too many operators");
		lex_next(x);
	}
	if (!rx_primary(x, konst))
		return false;
	while (tok_is(x, "[")) {
		lex_next(x);
		if (!rx_expr(x, konst) || !expect(x, "]"))
			return false;
	}
	return true;
}

/* Flag values: only the operators libtraceevent's constant folder knows (no * / % ^). */
static bool is_binop(const struct lex *x, bool konst)
{
	static const char *const ops[] = { "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&",
					   "|", "&&", "||", "*", "/", "%", "^" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]) - (konst ? 4 : 0); i++)
		if (tok_is(x, ops[i]))
			return true;
	return false;
}

static bool rx_expr(struct lex *x, bool konst)
{
	if (++x->depth > NESTING_MAX)
		return lex_fail(x, "nested too deep");
	if (!rx_unary(x, konst))
		return false;
	while (is_binop(x, konst)) {
		bool div = tok_is(x, "/") || tok_is(x, "%");

		if (++x->ops > OPS_MAX)
			return lex_fail(x, "too many operators");
		lex_next(x);
		/*
		 * libtraceevent folds constant operands as it parses, and binds
		 * "a / 2 * 0" as a / (2 * 0): only a lone non-zero constant may
		 * divide, with nothing binding tighter after it.
		 */
		if (div) {
			if (!(x->t == T_NUM && nonzero_number(x)))
				return lex_fail(x, "a division by something other than a non-zero constant");
			lex_next(x);
			if (tok_is(x, "*") || tok_is(x, "/") || tok_is(x, "%") || tok_is(x, "["))
				return lex_fail(x, "a division by something other than a non-zero constant");
		} else if (!rx_unary(x, konst)) {
			return false;
		}
	}
	if (!konst && tok_is(x, "?")) {
		if (++x->ops > OPS_MAX)
			return lex_fail(x, "too many operators");
		lex_next(x);
		if (!rx_expr(x, konst) || !expect(x, ":") || !rx_expr(x, konst))
			return false;
	}
	x->depth--;
	return true;
}

/*
 * A field declaration as tracefs writes them, the shapes libtraceevent's
 * field parser is sure of: type words and stars then a name ("const char
 * *const * argv"), perhaps "name[N]" or "name[]", and "__data_loc type
 * words[] name" (or __rel_loc, or without the []). Its name is kept; *end
 * is set to the ';'.
 */
static bool rx_decl(struct lex *x, const char *p, const char *eol, const char **end)
{
	enum { W, STAR, BR } kind[32];
	const char *text[32], *q;
	size_t len[32], nr = 0, words = 0, stars = 0, brackets = 0, i;

	for (q = p; q < eol && *q != ';'; q++) {
		if (*q == ' ')
			continue;
		if (nr == 32 || q - p > 256)
			return lex_fail(x, "a field declaration no tracefs format has");
		text[nr] = q;
		if (*q == '*') {
			kind[nr] = STAR;
			stars++;
		} else if (*q == '[') {
			while (q + 1 < eol && q[1] >= '0' && q[1] <= '9' && q - text[nr] < 8)
				q++;
			if (q + 1 >= eol || q[1] != ']')
				return lex_fail(x, "a field declaration no tracefs format has");
			q++;
			kind[nr] = BR;
			brackets++;
		} else if (is_ident_char(*q) && !(*q >= '0' && *q <= '9')) {
			while (q + 1 < eol && is_ident_char(q[1]))
				q++;
			if (magic_ident(text[nr], (size_t)(q - text[nr]) + 1))
				return lex_fail(x, "a field declaration no tracefs format has");
			kind[nr] = W;
			words++;
		} else {
			return lex_fail(x, "a field declaration no tracefs format has");
		}
		len[nr] = (size_t)(q - text[nr]) + 1;
		nr++;
	}
	if (q >= eol || words < 2 || brackets > 1)
		return lex_fail(x, "a field declaration no tracefs format has");
	i = nr - 1;
	if (kind[i] == BR && !((len[0] == 10 && !memcmp(text[0], "__data_loc", 10)) ||
			       (len[0] == 9 && !memcmp(text[0], "__rel_loc", 9))))
		i--; /* name[N] */
	else if (kind[i] == BR)
		return lex_fail(x, "a field declaration no tracefs format has");
	/* __data_loc char[] name: its [] before the name */
	for (size_t k = 0; k < i; k++)
		if (kind[k] == BR && (k + 1 != i || len[k] != 2 || kind[0] != W ||
				      !((len[0] == 10 && !memcmp(text[0], "__data_loc", 10)) ||
					(len[0] == 9 && !memcmp(text[0], "__rel_loc", 9)))))
			return lex_fail(x, "a field declaration no tracefs format has");
	if (kind[0] != W || kind[i] != W || i == 0)
		return lex_fail(x, "a field declaration no tracefs format has");
	(void)stars;
	if (x->nr_fields == FIELDS_MAX)
		return lex_fail(x, "too many fields");
	x->field[x->nr_fields] = text[i];
	x->field_len[x->nr_fields++] = len[i];
	*end = q;
	return true;
}

/* "<decl>;\toffset:N;\tsize:N;\tsigned:N;" after "\tfield:". */
static bool rx_field_line(struct lex *x, const char *p, const char *eol)
{
	const char *q;

	if (!rx_decl(x, p, eol, &q))
		return false;
	for (const char *const *k = (const char *const[]){ "\toffset:", "\tsize:", "\tsigned:", NULL }; *k; k++) {
		size_t kl = strlen(*k), digits = 0;

		q++; /* the ';' */
		if ((size_t)(eol - q) < kl || memcmp(q, *k, kl))
			return lex_fail(x, "a field line no tracefs format has");
		q += kl;
		while (q < eol && *q >= '0' && *q <= '9' && ++digits <= 9)
			q++;
		if (!digits || digits > 9 || q >= eol || *q != ';')
			return lex_fail(x, "a field line no tracefs format has");
	}
	if (q + 1 != eol)
		return lex_fail(x, "a field line no tracefs format has");
	return true;
}

static bool rx_line(const char **p, const char *end, const char *prefix, bool (*ok)(char), const char **eol)
{
	size_t n = strlen(prefix);
	const char *q;

	if ((size_t)(end - *p) < n || memcmp(*p, prefix, n))
		return false;
	q = *p + n;
	while (q < end && *q != '\n' && ok(*q))
		q++;
	if (q == *p + n || q >= end || *q != '\n')
		return false;
	*eol = q;
	*p = q + 1;
	return true;
}

static bool ident_ok(char c)
{
	return is_ident_char(c);
}

static bool digit_ok(char c)
{
	return c >= '0' && c <= '9';
}

/* The whole format text: name, ID, format: and field lines, print fmt. */
static bool plausible_format(struct lex *x, const uint8_t *text, size_t n)
{
	const char *p = (const char *)text, *end = p + n, *eol;

	if (n > FORMAT_MAX)
		return lex_fail(x, "larger than 64 KiB");
	if (memchr(text, '\0', n))
		return lex_fail(x, "a NUL byte");
	if (!rx_line(&p, end, "name: ", ident_ok, &eol) || magic_ident((const char *)text + 6, (size_t)(eol - (const char *)text) - 6) ||
	    !rx_line(&p, end, "ID: ", digit_ok, &eol) ||
	    eol - p > 10 || (size_t)(end - p) < 8 || memcmp(p, "format:\n", 8))
		return lex_fail(x, "no name, ID and format lines");
	p += 8;
	for (;;) {
		if (p < end && *p == '\n') {
			p++;
			continue;
		}
		if ((size_t)(end - p) < 7 || memcmp(p, "\tfield:", 7))
			break;
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol || !rx_field_line(x, p + 7, eol))
			return lex_fail(x, "a field line no tracefs format has");
		p = eol + 1;
	}
	if ((size_t)(end - p) < 11 || memcmp(p, "print fmt: ", 11))
		return lex_fail(x, "no print fmt line");
	x->in_print = true;
	x->print = p;
	x->p = p + 11;
	x->end = end;
	lex_next(x);
	if (x->t != T_STR)
		return lex_fail(x, "a print fmt that is not a string");
	while (x->t == T_STR)
		lex_next(x);
	while (tok_is(x, ",")) {
		lex_next(x);
		if (!rx_expr(x, false))
			return false;
	}
	if (x->t != T_END)
		return lex_fail(x, "not the shape of a tracefs print fmt");
	return true;
}

static void parse_format(struct pms_tracing_data *td, const char *sys, const uint8_t *p, size_t n)
{
	struct lex *x = calloc(1, sizeof(*x));
	char *patched = NULL;
	enum tep_errno err;

	if (!x) {
		warn(td, "out of memory");
		return;
	}
	if (!plausible_format(x, p, n)) {
		size_t head = x->in_print ? (size_t)(x->print - (const char *)p) : 0;

		if (!x->in_print || !(patched = malloc(head + 16))) {
			td->nr_refused++;
			warn(td, "a '%s' event format was refused: %s", sys, x->why ? x->why : "?");
			free(x);
			return;
		}
		/*
		 * Its fields are sound but its print fmt is not one to hand over
		 * (kernel formats with GNU statement expressions, which
		 * libtraceevent cannot parse either): parsed with a print fmt that
		 * fails the same way, the payload prints as "[FAILED TO PARSE]"
		 * and its fields, as perf prints such events.
		 */
		memcpy(patched, p, head);
		memcpy(patched + head, "print fmt: 0\n", 14);
		p = (const uint8_t *)patched;
		n = head + 14;
	}
	free(x);
	err = tep_parse_event(td->tep, (const char *)p, n, sys);
	if (err) {
		char msg[128];

		if (tep_strerror(td->tep, err, msg, sizeof(msg)))
			snprintf(msg, sizeof(msg), "error %d", (int)err);
		warn(td, "a '%s' event format did not parse: %s", sys, msg);
	}
	free(patched);
}

/*
 * The three line-based sections are parsed here, as perf parses them,
 * rather than by libtraceevent's tep_parse_*(): its print string
 * registration reads before a short string, so only strings it handles
 * are given to it.
 */

/* "ffffffff81000000 T _stext\t[module]": text symbols, as tep_parse_kallsyms() keeps them. */
static bool parse_kallsyms(struct pms_tracing_data *td, char *text)
{
	char *save = NULL;
	bool any = false;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end, *name, *mod = NULL, *tab;
		unsigned long long addr;
		char type;

		errno = 0;
		addr = strtoull(line, &end, 16);
		if (errno || end == line || end[0] != ' ' || !end[1] || end[2] != ' ' || !end[3])
			continue;
		type = end[1];
		name = end + 3;
		if ((tab = strchr(name, '\t'))) {
			*tab = '\0';
			if (tab[1] == '[' && tab[2]) {
				mod = tab + 2;
				mod[strcspn(mod, "]")] = '\0';
			}
		}
		name[strcspn(name, " \t")] = '\0';
		/* ARM's '$a' mapping symbols and x86's absolute per-cpu offsets are not functions */
		if (!*name || name[0] == '$' || type == 'A' || type == 'a')
			continue;
		if (!tep_register_function(td->tep, name, addr, mod))
			any = true;
	}
	return any;
}

/* "0xffffffff8281972f : \"thaw_processes\"" */
static void parse_printk(struct pms_tracing_data *td, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end, *fmt;
		unsigned long long addr;

		errno = 0;
		addr = strtoull(line, &end, 16);
		if (errno || end == line || strncmp(end, " : ", 3))
			continue;
		fmt = end + 3;
		/* tep_register_print_string() strips a quote and a "\n" looking 3 bytes back */
		if (strlen(fmt) >= 4)
			tep_register_print_string(td->tep, fmt, addr);
	}
}

/* "1234 comm" */
static void parse_cmdlines(struct pms_tracing_data *td, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char comm[64], *end;
		long pid;
		size_t n;

		errno = 0;
		pid = strtol(line, &end, 10);
		if (errno || end == line || *end != ' ' || pid < 0 || pid > INT32_MAX)
			continue;
		end += strspn(end, " ");
		n = strcspn(end, " \t");
		if (!n || n >= sizeof(comm))
			continue;
		memcpy(comm, end, n);
		comm[n] = '\0';
		tep_register_comm(td->tep, comm, (int)pid);
	}
}

static void version_of(const char *v, int *major, int *minor)
{
	*major = *minor = 0;
	while (*v >= '0' && *v <= '9' && *major < 1000)
		*major = *major * 10 + (*v++ - '0');
	if (*v++ != '.')
		return;
	while (*v >= '0' && *v <= '9' && *minor < 1000)
		*minor = *minor * 10 + (*v++ - '0');
}

/* Everything after the header; stops at the first damage, keeping what came before. */
static void parse_body(struct pms_tracing_data *td, struct cur *c)
{
	const uint8_t *p;
	const char *sys;
	uint32_t count;
	size_t n, at;
	char *text;
	int major, minor;

	at = c->off;
	if (!take(c, 12, &p) || memcmp(p, "header_page", 12) || !take_section(c, true, &p, &n)) {
		warn(td, "tracing data damaged at offset %zu: no header_page section", at);
		return;
	}
	text = dup_text(p, n);
	if (!text) {
		warn(td, "out of memory");
		return;
	}
	/* as perf: the page header's commit field is a kernel long */
	if (!tep_parse_header_page(td->tep, text, n, td->long_size)) {
		int hp = tep_get_header_page_size(td->tep);

		if (hp == 4 || hp == 8) {
			td->long_size = hp;
			tep_set_long_size(td->tep, hp);
		}
	}
	free(text);
	at = c->off;
	if (!take(c, 13, &p) || memcmp(p, "header_event", 13) || !take_section(c, true, &p, &n)) {
		warn(td, "tracing data damaged at offset %zu: no header_event section", at);
		return;
	}

	at = c->off;
	if (!take_u32(c, &count)) {
		warn(td, "tracing data truncated at offset %zu (ftrace formats)", at);
		return;
	}
	for (uint32_t i = 0; i < count; i++) {
		at = c->off;
		if (!take_section(c, true, &p, &n)) {
			warn(td, "tracing data truncated at offset %zu (ftrace format %u of %u)", at, i + 1,
			     count);
			return;
		}
		parse_format(td, "ftrace", p, n);
	}

	at = c->off;
	if (!take_u32(c, &count)) {
		warn(td, "tracing data truncated at offset %zu (event systems)", at);
		return;
	}
	for (uint32_t i = 0; i < count; i++) {
		uint32_t nr;

		at = c->off;
		if (!take_str(c, 255, &sys) || !take_u32(c, &nr)) {
			warn(td, "tracing data truncated at offset %zu (event system %u of %u)", at, i + 1,
			     count);
			return;
		}
		for (uint32_t k = 0; k < nr; k++) {
			at = c->off;
			if (!take_section(c, true, &p, &n)) {
				warn(td, "tracing data truncated at offset %zu ('%s' format %u of %u)", at,
				     sys, k + 1, nr);
				return;
			}
			parse_format(td, sys, p, n);
		}
	}

	at = c->off;
	if (!take_section(c, false, &p, &n)) {
		warn(td, "tracing data truncated at offset %zu (kallsyms)", at);
		return;
	}
	if (n && n <= SECTION_MAX) {
		text = dup_text(p, n);
		if (text && parse_kallsyms(td, text))
			td->has_kallsyms = true;
		free(text);
	}

	at = c->off;
	if (!take_section(c, false, &p, &n)) {
		warn(td, "tracing data truncated at offset %zu (printk formats)", at);
		return;
	}
	if (n && n <= SECTION_MAX) {
		text = dup_text(p, n);
		if (text)
			parse_printk(td, text);
		free(text);
	}

	version_of(td->version, &major, &minor);
	if (major == 0 && minor < 6)
		return;
	at = c->off;
	if (!take_section(c, true, &p, &n)) {
		warn(td, "tracing data truncated at offset %zu (saved cmdlines)", at);
		return;
	}
	if (n && n <= SECTION_MAX) {
		text = dup_text(p, n);
		if (text)
			parse_cmdlines(td, text);
		free(text);
	}
	/* pipe mode pads the payload to 8 bytes: what follows is not ours */
}

/* ---------- checking a parsed format ---------- */

__attribute__((format(printf, 2, 3)))
static int refuse(struct evinfo *info, const char *fmt, ...)
{
	va_list ap;

	if (!info->why[0]) {
		va_start(ap, fmt);
		vsnprintf(info->why, sizeof(info->why), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int check_fields(struct evinfo *info, struct tep_format_field *f)
{
	for (; f; f = f->next) {
		uint64_t end;

		if (f->offset < 0 || f->size < 0 || f->elementsize > PAYLOAD_MAX)
			return refuse(info, "field '%s' has a negative offset or size",
				      f->name ? f->name : "?");
		end = (uint64_t)f->offset + (uint64_t)f->size;
		if (end > PAYLOAD_MAX)
			return refuse(info, "field '%s' ends past 64 KiB", f->name ? f->name : "?");
		if (end > info->min_size)
			info->min_size = (uint32_t)end;
	}
	return 0;
}

static bool atom_number(const struct tep_print_arg *a, unsigned long long *v)
{
	char *end;

	/* a non-numeric atom is looked up as a kernel symbol: its value is an address */
	if (a->type != TEP_PRINT_ATOM || !a->atom.atom || a->atom.atom[0] < '0' || a->atom.atom[0] > '9')
		return false;
	errno = 0;
	*v = strtoull(a->atom.atom, &end, 0);
	return !errno;
}

static struct tep_format_field *arg_field(struct tep_event *ev, struct tep_print_arg *a)
{
	if (!a->field.field && a->field.name)
		a->field.field = tep_find_any_field(ev, a->field.name);
	return a->field.field;
}

static const struct tep_print_arg *strip_casts(const struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a;
}

static int add_check(struct evinfo *info, const struct len_check *k)
{
	struct len_check *n = realloc(info->checks, (info->nr_checks + 1) * sizeof(*n));

	if (!n)
		return refuse(info, "out of memory");
	info->checks = n;
	n[info->nr_checks++] = *k;
	return 0;
}

/*
 * A hex dump or int array: libtraceevent reads the array as a field or a
 * __data_loc without looking further, for a length that must be a constant
 * or something checked per payload.
 */
static int check_array(struct evinfo *info, struct tep_event *ev, struct tep_print_arg *arr,
		       struct tep_print_arg *len, unsigned elem)
{
	const struct tep_print_arg *s = strip_casts(len);
	struct len_check k = { .elem_size = elem };
	unsigned long long v;

	if (arr && arr->type == TEP_PRINT_DYNAMIC_ARRAY && arr->dynarray.field)
		k.array = arr->dynarray.field;
	else if (arr && arr->type == TEP_PRINT_FIELD && arg_field(ev, arr))
		k.array = arr->field.field;
	else
		return refuse(info, "an array argument that is not a field");
	if (!s)
		return refuse(info, "missing length argument");
	if (atom_number(s, &v))
		return v <= PAYLOAD_MAX / elem ? 0 : refuse(info, "constant length %llu too large", v);
	if (s->type == TEP_PRINT_DYNAMIC_ARRAY_LEN && s->dynarray.field) {
		k.len = s->dynarray.field;
		k.len_is_loc = true;
		return add_check(info, &k);
	}
	if (s->type == TEP_PRINT_FIELD) {
		k.len = arg_field(ev, (struct tep_print_arg *)s);
		return k.len ? add_check(info, &k) : 0;
	}
	return refuse(info, "a length that is not a field or a constant");
}

static int check_arg(struct evinfo *info, struct tep_event *ev, struct tep_print_arg *a, int depth);

static int check_op(struct evinfo *info, struct tep_event *ev, struct tep_print_arg *a, int depth)
{
	const char *op = a->op.op;
	unsigned long long v;

	if (!op || !a->op.left || !a->op.right)
		return refuse(info, "an incomplete operator");
	if (!strcmp(op, "?")) {
		struct tep_print_arg *r = a->op.right;

		/* libtraceevent takes the right side as the ':' pair without looking */
		if (r->type != TEP_PRINT_OP || !r->op.op || strcmp(r->op.op, ":") || !r->op.left ||
		    !r->op.right)
			return refuse(info, "'?' without ':'");
		return check_arg(info, ev, a->op.left, depth + 1) ||
		       check_arg(info, ev, r->op.left, depth + 1) ||
		       check_arg(info, ev, r->op.right, depth + 1);
	}
	if (!strcmp(op, "[")) {
		const struct tep_print_arg *l = strip_casts(a->op.left);

		if (!atom_number(a->op.right, &v) || v > INDEX_MAX)
			return refuse(info, "an array index that is not a small constant");
		if (l && l->type == TEP_PRINT_DYNAMIC_ARRAY && l->dynarray.field)
			return 0;
		if (l && l->type == TEP_PRINT_FIELD) {
			struct tep_format_field *f = arg_field(ev, (struct tep_print_arg *)l);

			if (f && (uint64_t)f->offset + v * f->elementsize + 8 > 2 * PAYLOAD_MAX)
				return refuse(info, "index %llu past field '%s'", v, f->name);
			return 0;
		}
		return refuse(info, "an index into something that is not an array field");
	}
	/* a payload value of 0 as divisor would be SIGFPE */
	if ((!strcmp(op, "/") || !strcmp(op, "%")) && (!atom_number(a->op.right, &v) || !v))
		return refuse(info, "a division by something other than a constant");
	return check_arg(info, ev, a->op.left, depth + 1) || check_arg(info, ev, a->op.right, depth + 1);
}

static int check_arg(struct evinfo *info, struct tep_event *ev, struct tep_print_arg *a, int depth)
{
	unsigned long long v;

	if (!a)
		return refuse(info, "a missing argument");
	if (depth > ARG_DEPTH_MAX)
		return refuse(info, "arguments nested over %d deep", ARG_DEPTH_MAX);
	switch (a->type) {
	case TEP_PRINT_NULL:
	case TEP_PRINT_ATOM:
	case TEP_PRINT_BSTRING:
		return 0;
	case TEP_PRINT_FIELD:
		arg_field(ev, a);
		return 0;
	case TEP_PRINT_FLAGS:
		return check_arg(info, ev, a->flags.field, depth + 1);
	case TEP_PRINT_SYMBOL:
		return check_arg(info, ev, a->symbol.field, depth + 1);
	case TEP_PRINT_TYPE:
		return check_arg(info, ev, a->typecast.item, depth + 1);
	case TEP_PRINT_STRING:
		/* some libtraceevent versions dereference the looked-up field unchecked */
		if (!a->string.field && a->string.string)
			a->string.field = tep_find_any_field(ev, a->string.string);
		return a->string.field ? 0 : refuse(info, "__get_str() of a missing field");
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
		if (!a->bitmask.field && a->bitmask.bitmask)
			a->bitmask.field = tep_find_any_field(ev, a->bitmask.bitmask);
		return a->bitmask.field ? 0 : refuse(info, "a bitmask of a missing field");
	case TEP_PRINT_DYNAMIC_ARRAY:
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		return a->dynarray.field ? 0 : refuse(info, "a dynamic array of a missing field");
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		return check_array(info, ev, a->hex.field, a->hex.size, 1);
	case TEP_PRINT_INT_ARRAY:
		if (!a->int_array.el_size || !atom_number(a->int_array.el_size, &v))
			return refuse(info, "an int array with a non-constant element size");
		/* other sizes print "BAD SIZE" one byte at a time */
		return check_array(info, ev, a->int_array.field, a->int_array.count,
				   v == 1 || v == 2 || v == 4 || v == 8 ? (unsigned)v : 1);
	case TEP_PRINT_OP:
		return check_op(info, ev, a, depth);
	case TEP_PRINT_FUNC:
		/* no helper functions are registered: only plugins define them */
		return refuse(info, "a helper function call");
	default:
		return refuse(info, "an argument of unknown type %d", (int)a->type);
	}
}

/*
 * The printf conversions of the print fmt, as libtraceevent splits them:
 * widths and precisions pad the output, so huge ones (or ones taken from
 * the payload with '*') would make it grow without bound. '%.*s' only
 * cuts a string, and '%*p...' is a length for hex dumps, bounded already.
 */
static int check_conversions(struct evinfo *info, const char *fmt)
{
	for (const char *p = fmt; p && *p; p++) {
		bool star = false, dot = false, star_width = false;
		unsigned long num = 0;

		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		for (p++; *p && strchr("#hlLzZ.-+0123456789*", *p); p++) {
			if (*p >= '0' && *p <= '9') {
				num = num * 10 + (unsigned long)(*p - '0');
				if (num > WIDTH_MAX)
					return refuse(info, "a printf width over %d", WIDTH_MAX);
			} else {
				num = 0;
			}
			if (*p == '.')
				dot = true;
			if (*p == '*') {
				star = true;
				if (!dot)
					star_width = true;
			}
		}
		if (!*p)
			break;
		if (*p == 'p')
			continue;
		if (star && (star_width || *p != 's'))
			return refuse(info, "a printf width taken from the payload");
	}
	return 0;
}

static void check_event(struct evinfo *info)
{
	struct tep_event *ev = info->ev;

	if (check_fields(info, ev->format.common_fields) || check_fields(info, ev->format.fields))
		return;
	/* binary printk (ftrace:bprint) formats come from the printk table, not from the event */
	if (ev->flags & TEP_EVENT_FL_ISBPRINT) {
		refuse(info, "binary printk events are not printed");
		return;
	}
	/* a format libtraceevent could not parse prints its fields, never its arguments */
	if (ev->flags & TEP_EVENT_FL_FAILED)
		return;
	for (struct tep_print_arg *a = ev->print_fmt.args; a; a = a->next)
		if (check_arg(info, ev, a, 0))
			return;
	check_conversions(info, ev->print_fmt.format);
}

static int cmp_info_ptr(const void *a, const void *b)
{
	const struct evinfo *x = a, *y = b;

	return (uintptr_t)x->ev < (uintptr_t)y->ev ? -1 : (uintptr_t)x->ev > (uintptr_t)y->ev;
}

static int cmp_by_id(const void *a, const void *b)
{
	const struct evinfo *x = *(const struct evinfo *const *)a, *y = *(const struct evinfo *const *)b;

	if (x->ev->id != y->ev->id)
		return x->ev->id < y->ev->id ? -1 : 1;
	/* among duplicates, the first parsed (tep keeps them in order) */
	return (uintptr_t)x < (uintptr_t)y ? -1 : (uintptr_t)x > (uintptr_t)y;
}

static int index_events(struct pms_tracing_data *td)
{
	int n = tep_get_events_count(td->tep);
	struct evinfo **all;

	if (n <= 0)
		return 0;
	td->infos = calloc((size_t)n, sizeof(*td->infos));
	all = calloc((size_t)n, sizeof(*all));
	if (!td->infos || !all) {
		free(all);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(td->tep, i);

		if (!ev)
			continue;
		td->infos[td->nr_infos].ev = ev;
		check_event(&td->infos[td->nr_infos]);
		if (td->infos[td->nr_infos].why[0])
			td->nr_refused++;
		td->nr_infos++;
	}
	/* libtraceevent reads every payload's type where its first event has common_type */
	if (td->nr_infos) {
		struct tep_format_field *f = tep_find_common_field(tep_get_event(td->tep, 0), "common_type");

		if (f && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) && f->offset >= 0 &&
		    (uint64_t)f->offset + (uint64_t)f->size <= PAYLOAD_MAX) {
			td->type_offset = f->offset;
			td->type_size = f->size;
			td->have_type = true;
		}
	}
	qsort(td->infos, td->nr_infos, sizeof(*td->infos), cmp_info_ptr);
	for (size_t i = 0; i < td->nr_infos; i++)
		all[i] = &td->infos[i];
	qsort(all, td->nr_infos, sizeof(*all), cmp_by_id);
	for (size_t i = 0; i < td->nr_infos; i++)
		if (!td->nr_ids || all[td->nr_ids - 1]->ev->id != all[i]->ev->id)
			all[td->nr_ids++] = all[i];
	td->by_id = all;
	if (td->nr_refused)
		warn(td, "%zu event format%s not used to print (unsafe or unparsed)", td->nr_refused,
		     td->nr_refused == 1 ? "" : "s");
	return 0;
}

/* ---------- the handle ---------- */

int pms_tracing_data__open(struct pms_tracing_data **out, const void *blob, size_t size, char *msg,
			   size_t msg_size)
{
	struct cur c = { .p = blob, .len = blob ? size : 0 };
	struct pms_tracing_data *td;
	const uint8_t *p;
	const char *version;
	uint32_t page_size;
	int err = -EBADMSG;

	*out = NULL;
	if (msg && msg_size)
		msg[0] = '\0';
	if (!take(&c, sizeof(magic), &p) || memcmp(p, magic, sizeof(magic))) {
		if (msg && msg_size)
			snprintf(msg, msg_size, "not perf tracing data (no \\027\\010\\104tracing magic)");
		return -EINVAL;
	}
	if (!take_str(&c, 15, &version) || !take(&c, 2, &p) || p[0] > 1 || (p[1] != 4 && p[1] != 8)) {
		if (msg && msg_size)
			snprintf(msg, msg_size, "tracing data header damaged (version, byte order or long size)");
		return -EBADMSG;
	}
	c.swap = p[0] != (tep_is_bigendian() ? 1 : 0);
	if (!take_u32(&c, &page_size) || !page_size || page_size > (1u << 24) ||
	    (page_size & (page_size - 1))) {
		if (msg && msg_size)
			snprintf(msg, msg_size, "tracing data header damaged (page size)");
		return -EBADMSG;
	}
	td = calloc(1, sizeof(*td));
	if (!td)
		return -ENOMEM;
	snprintf(td->version, sizeof(td->version), "%s", version);
	td->long_size = p[1];
	td->swap = c.swap;
	/* libtraceevent logs to stderr by default; the library must not print */
	tep_set_loglevel(TEP_LOG_NONE);
	td->tep = tep_alloc();
	if (!td->tep) {
		err = -ENOMEM;
		goto fail;
	}
	tep_set_flag(td->tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(td->tep, p[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(td->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(td->tep, td->long_size);
	tep_set_page_size(td->tep, (int)page_size);
	parse_body(td, &c);
	err = index_events(td);
	if (err)
		goto fail;
	*out = td;
	return 0;
fail:
	if (msg && msg_size)
		snprintf(msg, msg_size, "%s", strerror(-err));
	pms_tracing_data__free(td);
	return err;
}

void pms_tracing_data__free(struct pms_tracing_data *td)
{
	if (!td)
		return;
	for (size_t i = 0; i < td->nr_infos; i++)
		free(td->infos[i].checks);
	free(td->infos);
	free(td->by_id);
	if (td->tep)
		tep_free(td->tep);
	free(td->scratch);
	free(td);
}

const char *pms_tracing_data__warning(const struct pms_tracing_data *td)
{
	return td->warning[0] ? td->warning : NULL;
}

const char *pms_tracing_data__version(const struct pms_tracing_data *td)
{
	return td->version;
}

size_t pms_tracing_data__nr_events(const struct pms_tracing_data *td)
{
	return td->nr_ids;
}

int pms_tracing_data__event_at(const struct pms_tracing_data *td, size_t idx, uint64_t *id,
			       const char **sys, const char **name)
{
	const struct tep_event *ev;

	if (idx >= td->nr_ids)
		return -ENOENT;
	ev = td->by_id[idx]->ev;
	if (id)
		*id = (uint64_t)(int64_t)ev->id;
	if (sys)
		*sys = ev->system ? ev->system : "";
	if (name)
		*name = ev->name ? ev->name : "";
	return 0;
}

static struct evinfo *info_of_id(const struct pms_tracing_data *td, uint64_t id)
{
	size_t lo = 0, hi = td->nr_ids;

	if (id > (uint64_t)INT32_MAX)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int mid_id = td->by_id[mid]->ev->id;

		if (mid_id == (int)id)
			return td->by_id[mid];
		if (mid_id < (int)id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct evinfo *info_of_event(const struct pms_tracing_data *td, struct tep_event *ev)
{
	struct evinfo key = { .ev = ev };

	return bsearch(&key, td->infos, td->nr_infos, sizeof(key), cmp_info_ptr);
}

int pms_tracing_data__event(const struct pms_tracing_data *td, uint64_t id, const char **sys,
			    const char **name)
{
	const struct evinfo *info = info_of_id(td, id);

	if (!info)
		return -ENOENT;
	if (sys)
		*sys = info->ev->system ? info->ev->system : "";
	if (name)
		*name = info->ev->name ? info->ev->name : "";
	return 0;
}

int pms_tracing_data__field_at(const struct pms_tracing_data *td, uint64_t id, size_t idx,
				const char **name)
{
	const struct evinfo *info = info_of_id(td, id);
	struct tep_format_field *f;

	if (!info)
		return -ENOENT;
	f = info->ev->format.fields;
	while (f && idx--)
		f = f->next;
	if (!f)
		return -ERANGE;
	*name = f->name ? f->name : "";
	return 0;
}

const char *pms_tracing_data__why(const struct pms_tracing_data *td, uint64_t id)
{
	const struct evinfo *info = info_of_id(td, id);

	if (!info)
		return "no format for this tracepoint id in the tracing data";
	return info->why[0] ? info->why : NULL;
}

static char *resolve_func(void *priv, unsigned long long *addrp, char **modp)
{
	struct pms_tracing_data *td = priv;
	uint64_t start = *addrp;
	const char *name = td->func_fn(td->func_ctx, *addrp, &start);

	if (!name)
		return NULL;
	*addrp = start;
	*modp = NULL;
	return (char *)name;
}

void pms_tracing_data__set_func_resolver(struct pms_tracing_data *td, pms_tracing_func_fn fn,
					 void *ctx)
{
	td->func_fn = fn;
	td->func_ctx = ctx;
	if (fn)
		tep_set_function_resolver(td->tep, resolve_func, td);
	else
		tep_reset_function_resolver(td->tep);
}

/*
 * Where a __data_loc (or __rel_loc) array starts, as libtraceevent finds
 * it: the low 16 bits of its word, after the word itself for __rel_loc.
 */
static unsigned long long loc_start(struct pms_tracing_data *td, const struct tep_format_field *f,
				    const uint8_t *data)
{
	unsigned long long start = tep_read_number(td->tep, data + f->offset, f->size) & 0xffff;

	if (f->flags & TEP_FIELD_IS_RELATIVE)
		start += (unsigned long long)f->offset + (unsigned long long)f->size;
	return start;
}

/* The array lengths libtraceevent will trust, against this payload (fixed fields fit already). */
static bool lengths_fit(struct pms_tracing_data *td, const struct evinfo *info, const uint8_t *data,
			size_t size)
{
	for (size_t i = 0; i < info->nr_checks; i++) {
		const struct len_check *k = &info->checks[i];
		unsigned long long n = tep_read_number(td->tep, data + k->len->offset, k->len->size);
		unsigned long long start = (unsigned long long)k->array->offset;

		if (k->len_is_loc)
			n = k->len->size == 4 ? (n >> 16) & 0xffff : size - loc_start(td, k->len, data);
		if (k->array->flags & TEP_FIELD_IS_DYNAMIC)
			start = loc_start(td, k->array, data);
		if (start > size || n > (size - start) / k->elem_size)
			return false;
	}
	return true;
}

int pms_tracing_data__format(struct pms_tracing_data *td, uint64_t id, int cpu, const void *raw,
			     size_t raw_size, char *buf, size_t size)
{
	struct tep_record rec = { 0 };
	struct evinfo *info, *target;
	struct tep_event *ev;
	struct trace_seq s;
	unsigned long long type;
	int ret;

	if (size)
		buf[0] = '\0';
	info = info_of_id(td, id);
	if (!info)
		return -ENOENT;
	if (info->why[0])
		return -EOPNOTSUPP;
	if (!raw || raw_size > PAYLOAD_MAX || !td->have_type ||
	    raw_size < (size_t)td->type_offset + (size_t)td->type_size)
		return -EBADMSG;
	if (!td->scratch && !(td->scratch = calloc(1, SCRATCH_SIZE)))
		return -ENOMEM;
	memcpy(td->scratch, raw, raw_size);
	/* libtraceevent prints by the type inside the payload, not by the event asked for */
	type = tep_read_number(td->tep, td->scratch + td->type_offset, td->type_size);
	ev = type <= (unsigned long long)INT32_MAX ? tep_find_event(td->tep, (int)type) : NULL;
	target = ev ? info_of_event(td, ev) : NULL;
	if (!target || target->why[0] || raw_size < target->min_size ||
	    !lengths_fit(td, target, td->scratch, raw_size)) {
		ret = -EBADMSG;
		goto out;
	}
	rec.cpu = cpu;
	rec.size = (int)raw_size;
	rec.data = td->scratch;
	trace_seq_init(&s);
	tep_print_event(td->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (s.state != TRACE_SEQ__GOOD) {
		ret = -ENOMEM;
	} else {
		ret = s.len > INT32_MAX ? INT32_MAX : (int)s.len;
		if (size) {
			size_t n = (size_t)ret < size - 1 ? (size_t)ret : size - 1;

			memcpy(buf, s.buffer, n);
			buf[n] = '\0';
		}
	}
	trace_seq_destroy(&s);
out:
	memset(td->scratch, 0, raw_size);
	return ret;
}

/* ---------- tracing data from this machine's tracefs ---------- */

struct found {
	const struct pms_tracepoint_ref *ref;
	char sys[256], name[256];
	char *format;
	size_t format_len;
};

static bool bad_component(const char *s)
{
	return !s || !*s || strchr(s, '/') || s[0] == '.' || strlen(s) > 255;
}

/* The "ID: n" line of a format text. */
static bool format_id(const char *text, uint64_t *id)
{
	const char *p = strstr(text, "\nID: ");

	if (!p && !strncmp(text, "ID: ", 4))
		p = text - 1;
	if (!p)
		return false;
	p += 5;
	if (*p < '0' || *p > '9')
		return false;
	*id = strtoull(p, NULL, 10);
	return true;
}

static int read_format(struct found *f, const char *root, const char *sys, const char *name)
{
	char path[4096];
	uint64_t id;
	int n, err;

	if (bad_component(sys) || bad_component(name))
		return -ENOENT;
	n = snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, sys, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	err = pms_file__read_all(path, &f->format, &f->format_len);
	if (err)
		return err;
	if (!format_id(f->format, &id) || id != f->ref->id) {
		free(f->format);
		f->format = NULL;
		return -ENOENT;
	}
	snprintf(f->sys, sizeof(f->sys), "%s", sys);
	snprintf(f->name, sizeof(f->name), "%s", name);
	return 0;
}

struct scan {
	struct found *found;
	size_t nr, missing;
	const char *root;
};

static int scan_one(const char *sys, const char *name, void *arg)
{
	struct scan *sc = arg;
	uint64_t id;

	if (pms_tracepoint__id(sys, name, &id))
		return 0;
	for (size_t i = 0; i < sc->nr; i++) {
		struct found *f = &sc->found[i];

		if (f->format || f->ref->id != id)
			continue;
		if (!read_format(f, sc->root, sys, name))
			sc->missing--;
	}
	return sc->missing ? 0 : 1;
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, (const char *)&v, 4);
}

static void put_u64(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, (const char *)&v, 8);
}

/* A tracefs file as a sized section (size 0 when it cannot be read, as perf writes it). */
static void put_file(struct strbuf *sb, const char *root, const char *rel, bool wide)
{
	char path[4096], *text = NULL;
	size_t len = 0;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path) ||
	    pms_file__read_all(path, &text, &len))
		len = 0;
	if (wide)
		put_u64(sb, len);
	else
		put_u32(sb, (uint32_t)len);
	strbuf_add(sb, text ? text : "", len);
	free(text);
}

static bool is_dup(const struct found *f, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (f[k].format && !strcmp(f[k].sys, f[i].sys) && !strcmp(f[k].name, f[i].name))
			return true;
	return false;
}

/* The formats of one system (or of "ftrace") as count + sized texts. */
static void put_system(struct strbuf *sb, const struct found *f, size_t nr, const char *sys)
{
	uint32_t count = 0;

	for (size_t i = 0; i < nr; i++)
		if (f[i].format && !strcmp(f[i].sys, sys) && !is_dup(f, i))
			count++;
	put_u32(sb, count);
	for (size_t i = 0; i < nr; i++) {
		if (!f[i].format || strcmp(f[i].sys, sys) || is_dup(f, i))
			continue;
		put_u64(sb, f[i].format_len);
		strbuf_add(sb, f[i].format, f[i].format_len);
	}
}

int pms_tracing_data__synthesize(const struct pms_tracepoint_ref *tps, size_t nr, void **blob,
				 size_t *size)
{
	const char *root = pms_tracefs_root();
	struct strbuf sb = STRBUF_INIT;
	struct found *f;
	struct scan sc;
	uint32_t nr_sys = 0;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t b;
	int err = 0;

	*blob = NULL;
	*size = 0;
	if (!root)
		return -ENOENT;
	f = calloc(nr ? nr : 1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	sc = (struct scan){ .found = f, .nr = nr, .root = root };
	for (size_t i = 0; i < nr; i++) {
		f[i].ref = &tps[i];
		if (!tps[i].sys || !tps[i].name || read_format(&f[i], root, tps[i].sys, tps[i].name))
			sc.missing++;
	}
	/* unnamed, or the name now has another id: look for the id itself */
	if (sc.missing)
		pms_tracepoint__foreach(scan_one, &sc);
	if (sc.missing == nr) {
		err = -ENOENT;
		goto out;
	}

	strbuf_add(&sb, (const char *)magic, sizeof(magic));
	strbuf_add(&sb, "0.6", 4);
	b = tep_is_bigendian() ? 1 : 0;
	strbuf_add(&sb, (const char *)&b, 1);
	b = (uint8_t)sizeof(long);
	strbuf_add(&sb, (const char *)&b, 1);
	put_u32(&sb, page > 0 ? (uint32_t)page : 4096);
	strbuf_add(&sb, "header_page", 12);
	put_file(&sb, root, "events/header_page", true);
	strbuf_add(&sb, "header_event", 13);
	put_file(&sb, root, "events/header_event", true);
	put_system(&sb, f, nr, "ftrace");
	for (size_t i = 0; i < nr; i++) {
		bool first = f[i].format && strcmp(f[i].sys, "ftrace");

		for (size_t k = 0; first && k < i; k++)
			if (f[k].format && !strcmp(f[k].sys, f[i].sys))
				first = false;
		nr_sys += first;
	}
	put_u32(&sb, nr_sys);
	for (size_t i = 0; i < nr; i++) {
		bool first = f[i].format && strcmp(f[i].sys, "ftrace");

		for (size_t k = 0; first && k < i; k++)
			if (f[k].format && !strcmp(f[k].sys, f[i].sys))
				first = false;
		if (!first)
			continue;
		strbuf_add(&sb, f[i].sys, strlen(f[i].sys) + 1);
		put_system(&sb, f, nr, f[i].sys);
	}
	put_u32(&sb, 0); /* kallsyms: perf resolves symbols itself, and so do we */
	put_file(&sb, root, "printk_formats", false);
	put_file(&sb, root, "saved_cmdlines", true);
	if (sb.oom) {
		err = -ENOMEM;
		goto out;
	}
	*size = sb.len;
	*blob = strbuf_detach(&sb);
out:
	strbuf_release(&sb);
	for (size_t i = 0; i < nr; i++)
		free(f[i].format);
	free(f);
	return err;
}
