// SPDX-License-Identifier: MIT
// Option-table driven argv parsing, help and usage errors for every command.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include "event/callgraph.h"
#include "util/idlist.h"
#include "util/strsim.h"

static int parse_value(const struct pms_cmd *cmd, const struct opt *o, const char *arg, const char *spelled)
{
	char *end;

	switch (o->type) {
	case OPT_T_INT: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 0);
		if (errno || end == arg || *end || v < -2147483647L || v > 2147483647L)
			usage_error(cmd, "option '%s' expects an integer, not '%s'", spelled, arg);
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPT_T_U64: {
		unsigned long long v;

		errno = 0;
		if (*arg == '-')
			usage_error(cmd, "option '%s' expects a non-negative integer, not '%s'", spelled, arg);
		v = strtoull(arg, &end, 0);
		if (errno || end == arg || *end)
			usage_error(cmd, "option '%s' expects a non-negative integer, not '%s'", spelled, arg);
		*(uint64_t *)o->value = v;
		return 0;
	}
	case OPT_T_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(arg, &end);
		if (errno || end == arg || *end)
			usage_error(cmd, "option '%s' expects a number, not '%s'", spelled, arg);
		*(double *)o->value = v;
		return 0;
	}
	case OPT_T_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_T_STRINGS: {
		struct opt_strings *l = o->value;

		l->v = xrealloc(l->v, (l->nr + 1) * sizeof(*l->v));
		l->v[l->nr++] = arg;
		return 0;
	}
	case OPT_T_CALLBACK:
		if (o->cb(o, arg))
			exit(EXIT_USAGE);
		return 0;
	default:
		return 0;
	}
}

static int takes_value(const struct opt *o)
{
	switch (o->type) {
	case OPT_T_INT:
	case OPT_T_U64:
	case OPT_T_DOUBLE:
	case OPT_T_STRING:
	case OPT_T_STRINGS:
		return 1;
	case OPT_T_CALLBACK:
		return !(o->flags & OPT_NOARG);
	case OPT_T_REFUSED:
		return o->argh != NULL;
	default:
		return 0;
	}
}

static __attribute__((noreturn)) void refuse(const struct pms_cmd *cmd, const struct opt *o, const char *spelled)
{
	error("'%s' is not supported by pmuscope %s: %s", spelled, cmd->name, o->help);
	exit(EXIT_USAGE);
}

/* The long option a mistyped one was meant to be ("--per-cpu" for "--percpu"), or NULL. */
static const char *suggest_long(const struct opt *opts, const char *name, size_t len)
{
	const char *cands[256];
	char word[128];
	size_t n = 0;

	if (len >= sizeof(word))
		return NULL;
	memcpy(word, name, len);
	word[len] = 0;
	for (const struct opt *o = opts; o->type != OPT_T_END && n < 256; o++)
		if (o->long_name && o->type != OPT_T_GROUP)
			cands[n++] = o->long_name;
	return pms_str__suggest(word, cands, n);
}

static void set_flag(const struct opt *o, bool on)
{
	if (o->type == OPT_T_BOOL)
		*(bool *)o->value = on;
	else if (o->type == OPT_T_COUNT)
		*(int *)o->value = on ? *(int *)o->value + 1 : 0;
	else if (o->type == OPT_T_CALLBACK && o->cb(o, on ? NULL : "no"))
		exit(EXIT_USAGE);
}

static const struct opt *find_long(const struct opt *opts, const char *name, size_t len, bool *negated)
{
	const struct opt *o;

	*negated = false;
	for (o = opts; o->type != OPT_T_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	if (len > 3 && !strncmp(name, "no-", 3)) {
		for (o = opts; o->type != OPT_T_END; o++)
			if (o->long_name && strlen(o->long_name) == len - 3 &&
			    !strncmp(o->long_name, name + 3, len - 3) && !takes_value(o) &&
			    o->type != OPT_T_GROUP) {
				*negated = true;
				return o;
			}
	}
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	const struct opt *o;

	for (o = opts; o->type != OPT_T_END; o++)
		if (o->short_name == c && o->type != OPT_T_GROUP)
			return o;
	return NULL;
}

/*
 * Positionals seen before the end are moved behind the options, so that
 * "list --all 'sched:*'" and "list 'sched:*' --all" mean the same; everything
 * from `rest` on (after "--" or the workload) stays where it is.
 */
static int finish(char **argv, int argc, char **pos, int npos, int rest)
{
	int nrest = argc - rest, first = rest - npos, k;

	(void)argc;
	memmove(argv + first + npos, argv + rest, (size_t)nrest * sizeof(*argv));
	for (k = 0; k < npos; k++)
		argv[first + k] = pos[k];
	free(pos);
	return first;
}

int opt_parse(const struct pms_cmd *cmd, int *argcp, char **argv, int flags)
{
	int argc = *argcp;
	static const struct opt none[] = { OPT_END() };
	const struct opt *opts = cmd->opts ? cmd->opts : none;
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int i, npos = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			/* drop the "--" itself: shift positionals over it */
			memmove(argv + i, argv + i + 1, (size_t)(argc - i) * sizeof(*argv));
			*argcp = argc - 1;
			return finish(argv, argc - 1, pos, npos, i);
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			opt_print_usage(cmd, stdout);
			exit(0);
		}
		if (!strcmp(a, "--list-opts")) {
			opt_list_opts(cmd, stdout);
			exit(0);
		}
		if (a[0] != '-' || a[1] == '\0') {
			if (flags & OPT_STOP_AT_NON_OPTION)
				return finish(argv, argc, pos, npos, i);
			pos[npos++] = argv[i];
			continue;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			bool neg;
			const struct opt *o = find_long(opts, name, len, &neg);

			if (!o) {
				const char *near = suggest_long(opts, name, len);

				if (near)
					usage_error(cmd, "unknown option '%.*s'; did you mean '--%s'?", (int)(len + 2), a, near);
				usage_error(cmd, "unknown option '%s'", a);
			}
			if (o->type == OPT_T_REFUSED) {
				if (takes_value(o) && !eq && i + 1 < argc)
					i++;
				refuse(cmd, o, a);
			}
			if (takes_value(o) && !neg) {
				const char *val = eq ? eq + 1 : NULL;

				if (!val && (o->flags & OPT_OPTARG)) {
					parse_value(cmd, o, NULL, a);
					continue;
				}
				if (!val) {
					if (i + 1 >= argc)
						usage_error(cmd, "option '--%s' requires a value", o->long_name);
					val = argv[++i];
				}
				parse_value(cmd, o, val, a);
			} else {
				if (eq)
					usage_error(cmd, "option '--%.*s' takes no value", (int)len, name);
				set_flag(o, !neg);
			}
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			const struct opt *o = find_short(opts, *p);
			char spelled[3] = { '-', *p, 0 };

			if (!o)
				usage_error(cmd, "unknown switch '%c'", *p);
			if (o->type == OPT_T_REFUSED)
				refuse(cmd, o, spelled);
			if (takes_value(o)) {
				const char *val = p[1] ? p + 1 : NULL;

				if (!val && (o->flags & OPT_OPTARG)) {
					parse_value(cmd, o, NULL, spelled);
					continue;
				}
				if (!val) {
					if (i + 1 >= argc)
						usage_error(cmd, "switch '%c' requires a value", *p);
					val = argv[++i];
				}
				parse_value(cmd, o, val, spelled);
				break;
			}
			set_flag(o, true);
		}
	}
	return finish(argv, argc, pos, npos, argc);
}

void opt_strings__release(struct opt_strings *l)
{
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

static const struct opt *first_refused(const struct opt *opts)
{
	for (const struct opt *o = opts; o && o->type != OPT_T_END; o++)
		if (o->type == OPT_T_REFUSED)
			return o;
	return NULL;
}

void opt_print_usage(const struct pms_cmd *cmd, FILE *f)
{
	const struct opt *o;

	fprintf(f, "usage: %s\n\n", cmd->usage);
	if (cmd->summary)
		fprintf(f, "    %s\n\n", cmd->summary);
	for (o = cmd->opts; o && o->type != OPT_T_END; o++) {
		const char *help;
		char left[64];
		int n;

		if (o->type == OPT_T_REFUSED)
			continue;
		if (o->type == OPT_T_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		if (o->short_name && o->long_name)
			n = snprintf(left, sizeof(left), "-%c, --%s", o->short_name, o->long_name);
		else if (o->short_name)
			n = snprintf(left, sizeof(left), "-%c", o->short_name);
		else
			n = snprintf(left, sizeof(left), "    --%s", o->long_name);
		if (takes_value(o) && n > 0 && (size_t)n < sizeof(left))
			snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->argh ? o->argh : "<value>");
		help = o->help_fn ? o->help_fn() : o->help;
		if (strlen(left) > 26)
			fprintf(f, "    %s\n%32s%s\n", left, "", help ? help : "");
		else
			fprintf(f, "    %-26s  %s\n", left, help ? help : "");
	}
	fprintf(f, "    -h, --help                  show this help\n");
	for (o = cmd->opts; o && o->type != OPT_T_END; o++) {
		if (o->type != OPT_T_REFUSED)
			continue;
		if (o == first_refused(cmd->opts))
			fprintf(f, "\nperf options that are refused here, and why\n");
		if (o->short_name && o->long_name)
			fprintf(f, "    -%c, --%s: %s\n", o->short_name, o->long_name, o->help);
		else if (o->short_name)
			fprintf(f, "    -%c: %s\n", o->short_name, o->help);
		else
			fprintf(f, "    --%s: %s\n", o->long_name, o->help);
	}
}

void opt_list_opts(const struct pms_cmd *cmd, FILE *f)
{
	for (const struct opt *o = cmd->opts; o && o->type != OPT_T_END; o++) {
		if (o->type == OPT_T_GROUP)
			continue;
		if (o->short_name && o->long_name)
			fprintf(f, "-%c --%s\n", o->short_name, o->long_name);
		else if (o->short_name)
			fprintf(f, "-%c\n", o->short_name);
		else
			fprintf(f, "--%s\n", o->long_name);
	}
	fprintf(f, "-h --help\n");
}

void opt_parse_id_list(const struct pms_cmd *cmd, const char *opt_name, const char *text, int min_id,
		 pid_t **ids, size_t *nr)
{
	int err = pms_id_list__parse(text, min_id, ids, nr);

	if (err == -ENOMEM)
		die("out of memory");
	if (err)
		usage_error(cmd, "%s: '%s' is not a list of ids (%s separated by commas)", opt_name, text,
			    min_id > 0 ? "positive numbers" : "numbers");
}

void opt_parse_call_graph(const struct pms_cmd *cmd, const char *text, uint32_t min_stack_bytes,
		    uint32_t max_stack_bytes, struct pms_call_graph *out)
{
	switch (pms_call_graph__parse(text, min_stack_bytes, max_stack_bytes, out)) {
	case 0:
		return;
	case -ERANGE:
		usage_error(cmd, "--call-graph dwarf,<size>: want %u..%u bytes of stack, not '%s'", min_stack_bytes,
			    max_stack_bytes, text + 6);
	case -EOPNOTSUPP:
		usage_error(cmd, "--call-graph lbr needs Intel LBR, which pmuscope does not support; use fp or dwarf");
	default:
		usage_error(cmd, "--call-graph: want fp or dwarf[,size], not '%s'", text);
	}
}
