// SPDX-License-Identifier: MIT
// pmuscope entry point: global options, command dispatch, message helpers.
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmuscope/pmuscope.h>

#include "cmd.h"
#include "util/strsim.h"

int verbose;

#define CMD(n) &cmd_##n,
const struct pms_cmd *const pms_commands[] = {
#include "commands.def"
	NULL,
};
#undef CMD

static int run_cmd(const struct pms_cmd *c, int argc, char **argv)
{
	int ret;

	if (c->reset)
		c->reset();
	ret = c->run(argc, argv);
	if (c->reset)
		c->reset();
	return ret;
}

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "pmuscope: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("note: ", fmt, ap);
	va_end(ap);
}

void hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("hint: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("fatal: ", fmt, ap);
	va_end(ap);
	exit(EXIT_FATAL);
}

void usage_error(const struct pms_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error: ", fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "usage: %s\n(see 'pmuscope %s -h')\n", cmd->usage, cmd->name);
	exit(EXIT_USAGE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

static int lib_print(enum pms_print_level level, const char *fmt, va_list ap)
{
	if ((int)level > verbose)
		return 0;
	fputs(level == PMS_WARN ? "pmuscope: warning: " : "pmuscope: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

static const struct pms_cmd *find_cmd(const char *name)
{
	for (const struct pms_cmd *const *c = pms_commands; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

/* The command a mistyped name was meant to be, or NULL. */
static const char *suggest_cmd(const char *name)
{
	const char *names[64];
	size_t n = 0;

	for (const struct pms_cmd *const *c = pms_commands; *c && n < 64; c++)
		names[n++] = (*c)->name;
	return pms_str__suggest(name, names, n);
}

static void print_main_usage(FILE *f)
{
	int width = 0;

	fprintf(f, "usage: pmuscope [-v] [--version] <command> [<args>]\n\n"
		   "pmuscope %s: Linux performance monitoring on perf_event_open(2)\n\n"
		   "commands:\n", pms_version());
	for (const struct pms_cmd *const *c = pms_commands; *c; c++)
		if ((int)strlen((*c)->name) > width)
			width = (int)strlen((*c)->name);
	for (const struct pms_cmd *const *c = pms_commands; *c; c++)
		fprintf(f, "   %-*s  %s\n", width, (*c)->name, (*c)->summary);
	fprintf(f, "\nSee 'pmuscope <command> -h' for a command's options.\n");
}

static int run_help(int argc, char **argv)
{
	const struct pms_cmd *c;
	int i = opt_parse(&cmd_help, &argc, argv, 0);

	if (i >= argc) {
		print_main_usage(stdout);
		return 0;
	}
	c = find_cmd(argv[i]);
	if (!c) {
		error("no such command '%s'", argv[i]);
		return EXIT_USAGE;
	}
	opt_print_usage(c, stdout);
	return 0;
}

const struct pms_cmd cmd_help = {
	.name = "help",
	.summary = "show the command list or one command's options",
	.usage = "pmuscope help [<command>]",
	.run = run_help,
};

int pms_cli_argc;
char **pms_cli_argv;

int main(int argc, char **argv)
{
	const struct pms_cmd *c;
	int i = 1;

	pms_cli_argc = argc;
	pms_cli_argv = argv;

	pms_set_print(lib_print);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			verbose++;
		else if (!strcmp(argv[i], "--version")) {
			printf("pmuscope %s\n", pms_version());
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_main_usage(stdout);
			return 0;
		} else {
			error("unknown option '%s'", argv[i]);
			print_main_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		print_main_usage(stderr);
		return EXIT_USAGE;
	}
	c = find_cmd(argv[i]);
	if (!c) {
		const char *near = suggest_cmd(argv[i]);

		if (near)
			error("'%s' is not a pmuscope command; did you mean '%s'? See 'pmuscope -h'.", argv[i], near);
		else
			error("'%s' is not a pmuscope command. See 'pmuscope -h'.", argv[i]);
		return EXIT_USAGE;
	}
	return run_cmd(c, argc - i, argv + i);
}
