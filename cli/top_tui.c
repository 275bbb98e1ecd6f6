// SPDX-License-Identifier: MIT
// `pmuscope top`'s terminal view (ncurses): rows under a header, a selection to expand or filter by, keys as perf top's.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "stop_signals.h"
#include "top.h"

#ifdef PMS_NO_HOST_LIBS
int top_tui__run(struct top *t, int iterations)
{
	(void)t, (void)iterations;
	return error("this build has no terminal view"), EXIT_RUNTIME;
}
#else
#include <curses.h>

#include "export/annotate_text.h"
#include "live/profiler.h"
#include "util/clock.h"

/* A row picked by its identity, not its place: the places change at every refresh. */
struct row_id {
	char *comm, *dso, *sym;
	uint32_t pid, tid;
};

struct tui {
	struct top *t;
	int sel, first;            /* selected row, first row line on screen */
	char *ann;                 /* the a key's annotation, as text; NULL: the rows are shown */
	int ann_first;             /* its first line on screen */
	struct row_id *open;       /* rows whose call chains are shown */
	size_t nr_open;
	bool help, colors;
	char *dso_filter_shown;
};

static bool curses_up;

static void restore_terminal(void)
{
	if (curses_up) {
		endwin();
		curses_up = false;
	}
}

static bool streq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_id(const struct row_id *id, const struct pms_top_row *r)
{
	return streq(id->comm, r->comm) && streq(id->dso, r->dso) && streq(id->sym, r->sym) && id->pid == r->pid &&
	       id->tid == r->tid;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void id_release(struct row_id *id)
{
	free(id->comm);
	free(id->dso);
	free(id->sym);
}

static int find_open(const struct tui *u, const struct pms_top_row *r)
{
	for (size_t i = 0; i < u->nr_open; i++)
		if (same_id(&u->open[i], r))
			return (int)i;
	return -1;
}

static void toggle_open(struct tui *u, const struct pms_top_row *r)
{
	int i = find_open(u, r);

	if (i >= 0) {
		id_release(&u->open[i]);
		u->open[i] = u->open[--u->nr_open];
		return;
	}
	u->open = xrealloc(u->open, (u->nr_open + 1) * sizeof(*u->open));
	u->open[u->nr_open++] = (struct row_id){ .comm = dup_or_null(r->comm), .dso = dup_or_null(r->dso),
						 .sym = dup_or_null(r->sym), .pid = r->pid, .tid = r->tid };
}

static void put_line(int y, const char *s, int width, attr_t attr)
{
	move(y, 0);
	attron(attr);
	addnstr(s, width);
	for (int x = (int)strlen(s); x < width; x++)
		addch(' ');
	attroff(attr);
}

static const char *const help_lines[] = {
	"pmuscope top: keys",
	"",
	"  Up/Down PgUp/PgDn Home/End  move the selection",
	"  Enter   show or hide the call chains of the selected row",
	"  c       call chains from the leaf up (callee) or from main down (caller)",
	"  s or /  show only symbols matching a regex (empty: all)",
	"  d       only the selected row's shared object (again: all)",
	"  t       only the selected row's thread (again: all)",
	"  P       only the selected row's process (again: all)",
	"  k       hide or show kernel functions",
	"  z       zero each refresh instead of decaying (perf's 7/8)",
	"  p       pause or resume the display",
	"  + / -   refresh less or more often",
	"  o       switch between CPU time and off-CPU time (time blocked)",
	"  a       annotate the selected function: its instructions and lines with their shares",
	"  w       write the view to a file (-o, --format)",
	"  h or ?  this help (any key closes it)",
	"  q       quit",
	NULL,
};

static void draw(struct tui *u)
{
	struct top *t = u->t;
	int w = COLS, h = LINES, y = 0, row_lines = 0, sel_line = 0;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, line = STRBUF_INIT, body = STRBUF_INIT;
	size_t nr_lines = 0;
	struct {
		size_t off;     /* into body */
		int row;        /* the row, or -1 for a chain line */
	} *lines = NULL;

	erase();
	if (u->ann) {
		const char *p = u->ann;
		int nr = 0, y0 = 0;

		put_line(y0++, "annotation (Up/Down/PgUp/PgDn scroll; a, q or Esc: back to the rows)", w, A_REVERSE);
		while (*p && y0 < h) {
			size_t len = strcspn(p, "\n");

			if (nr++ >= u->ann_first) {
				char *copy = xcalloc(len + 1, 1);

				memcpy(copy, p, len);
				put_line(y0++, copy, w, strstr(copy, "# loop back") ? A_BOLD : A_NORMAL);
				free(copy);
			}
			p += len + (p[len] == '\n');
		}
		refresh();
		return;
	}
	if (u->help) {
		for (int i = 0; help_lines[i] && i < h; i++)
			put_line(i, help_lines[i], w, i == 0 ? A_BOLD : A_NORMAL);
		refresh();
		return;
	}
	top__header(t, w, &a, &b);
	put_line(y++, strbuf_str(&a), w, A_BOLD | (u->colors ? COLOR_PAIR(1) : 0));
	if (h > 8)
		put_line(y++, strbuf_str(&b), w, u->colors ? COLOR_PAIR(1) : 0);
	strbuf_reset(&line);
	if (t->message[0])
		strbuf_adds(&line, t->message);
	else {
		strbuf_addf(&line, "%s%s%s", t->re_text ? "symbols /" : "", t->re_text ? t->re_text : "",
			    t->re_text ? "/  " : "");
		if (t->dso_text)
			strbuf_addf(&line, "object %s  ", t->dso_text);
		if (t->filter.pid)
			strbuf_addf(&line, "process %u  ", t->filter.pid);
		if (t->filter.tid)
			strbuf_addf(&line, "thread %u  ", t->filter.tid);
		if (!line.len)
			strbuf_adds(&line, "h: keys");
	}
	put_line(y++, strbuf_str(&line), w, u->colors ? COLOR_PAIR(3) : A_DIM);
	strbuf_reset(&line);
	top__columns(t, w, &line);
	put_line(y++, strbuf_str(&line), w, A_REVERSE);

	/* every row line and, for open rows, their chain lines: then scroll to keep the selection in view */
	for (size_t i = 0; i < t->rows.nr; i++) {
		lines = xrealloc(lines, (nr_lines + 1) * sizeof(*lines));
		lines[nr_lines].off = body.len;
		lines[nr_lines++].row = (int)i;
		if ((int)i == u->sel)
			sel_line = (int)nr_lines - 1;
		top__row_line(t, &t->rows.rows[i], w, &body);
		strbuf_addch(&body, '\n');
		if (find_open(u, &t->rows.rows[i]) >= 0) {
			size_t start = body.len, n = top__chain_lines(t, &t->rows.rows[i], w, 8, &body);

			for (size_t c = 0; c < n; c++) {
				const char *nl = strchr(body.buf + start, '\n');

				lines = xrealloc(lines, (nr_lines + 1) * sizeof(*lines));
				lines[nr_lines].off = start;
				lines[nr_lines++].row = -1;
				start = nl ? (size_t)(nl - body.buf) + 1 : body.len;
			}
		}
	}
	row_lines = h - y - 1;
	if (row_lines < 1)
		row_lines = 1;
	if (sel_line < u->first)
		u->first = sel_line;
	if (sel_line >= u->first + row_lines)
		u->first = sel_line - row_lines + 1;
	for (int i = u->first; i < (int)nr_lines && y < h - 1; i++, y++) {
		const char *s = body.buf + lines[i].off;
		size_t len = strcspn(s, "\n");
		char *copy = xcalloc(len + 1, 1);
		attr_t attr = A_NORMAL;

		memcpy(copy, s, len);
		if (lines[i].row >= 0 && t->rows.rows[lines[i].row].kind == PMS_STACK_KERNEL && u->colors)
			attr |= COLOR_PAIR(2);
		if (lines[i].row >= 0 && lines[i].row == u->sel)
			attr |= A_REVERSE;
		if (lines[i].row < 0)
			attr |= A_DIM;
		put_line(y, copy, w, attr);
		free(copy);
	}
	if (!t->rows.nr)
		put_line(y, t->refreshes ? "no samples in view (yet)" : "sampling...", w, A_DIM);
	put_line(h - 1, w >= 70 ? "h help  q quit  Enter chains  / filter  k kernel  z zero  p pause  o off-CPU  w write"
				: "h help  q quit", w, A_REVERSE);
	refresh();
	free(lines);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&line);
	strbuf_release(&body);
}

/* A line typed on the bottom row; NULL when Escape cancelled it. The caller frees it. */
static char *prompt(const char *label)
{
	char buf[256];
	size_t n = 0;
	int ch;

	timeout(-1);
	curs_set(1);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		printw("%s%.*s", label, (int)n, buf);
		refresh();
		ch = getch();
		if (ch == '\n' || ch == KEY_ENTER || ch == '\r')
			break;
		if (ch == 27) {
			n = (size_t)-1;
			break;
		}
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n)
			n--;
		else if (ch >= 32 && ch < 127 && n < sizeof(buf) - 1)
			buf[n++] = (char)ch;
	}
	curs_set(0);
	timeout(0);
	if (n == (size_t)-1)
		return NULL;
	buf[n] = 0;
	return xstrdup(buf);
}

/* Restart the sampler for the other mode (CPU time / time blocked); the view starts over. */
static void switch_mode(struct top *t)
{
	top__stop(t);
	t->off_cpu = !t->off_cpu;
	t->message[0] = 0;
	if (top__start(t)) {
		char why[sizeof(t->message)];

		snprintf(why, sizeof(why), "%s", t->message);
		t->off_cpu = !t->off_cpu;
		if (top__start(t))
			die("%s", t->message);
		snprintf(t->message, sizeof(t->message), "%s", why);
		return;
	}
	pms_stacks__free(t->view);
	t->view = NULL;
	top__rows(t);
	snprintf(t->message, sizeof(t->message), "%s", t->off_cpu ? "off-CPU time: where threads block, by time blocked"
								 : "CPU time");
}

static void filter_toggle_u32(struct top *t, uint32_t *field, uint32_t value, const char *what)
{
	*field = *field ? 0 : value;
	snprintf(t->message, sizeof(t->message), *field ? "only %s %u" : "every %s", what, value);
	top__rows(t);
}

/* The heaviest pid or tid inside a row whose keys do not include it. */
static uint32_t heaviest(struct top *t, const struct pms_top_row *r, enum pms_top_key k)
{
	enum pms_top_key keys[PMS_TOP_MAX_KEYS + 1];
	struct pms_top_rows rows;
	uint32_t best = 0;
	size_t n = 0;

	keys[n++] = k;
	for (size_t i = 0; i < t->nr_keys; i++)
		if (t->keys[i] != k)
			keys[n++] = t->keys[i];
	if (!t->view || pms_top__rows(t->view, keys, n > PMS_TOP_MAX_KEYS ? PMS_TOP_MAX_KEYS : n, &t->filter, false,
				      &rows))
		return 0;
	for (size_t i = 0; i < rows.nr && !best; i++) {
		const struct pms_top_row *x = &rows.rows[i];

		if ((!r->sym || streq(x->sym, r->sym)) && (!r->dso || streq(x->dso, r->dso)) &&
		    (!r->comm || streq(x->comm, r->comm)))
			best = k == PMS_TOP_PID ? x->pid : x->tid;
	}
	pms_top_rows__release(&rows);
	return best;
}

/* The a key: the selected function with the user samples of every process that ran it, as text. */
static void annotate_row(struct tui *u, const struct pms_top_row *r)
{
	struct top *t = u->t;
	struct pms_annotate_opts ao = { .sz = sizeof(ao), .syntax = PMS_DISASM_ATT, .source = true };
	struct pms_annotate_view v = { .event_name = pms_profiler__event(t->pr), .pct = PMS_PCT_LOCAL_PERIOD };
	struct pms_annotate_sym sym;
	struct pms_annotation *a;
	int err;

	if (!r || !r->sym || !r->dso) {
		snprintf(t->message, sizeof(t->message), "a: select a function's row (sort keys with sym and dso)");
		return;
	}
	if (r->kind == PMS_STACK_KERNEL) {
		snprintf(t->message, sizeof(t->message), "a: kernel functions are not annotated yet (no kernel image read)");
		return;
	}
	err = pms_profiler__annotate(t->pr, r->dso, r->sym, &ao, &sym, &a);
	if (err == -ENOMEM)
		die("out of memory");
	if (err) {
		snprintf(t->message, sizeof(t->message), "a: %s: %s", r->sym,
			 err == -ENOENT ? "no user-code samples of it with their addresses (yet), or no code to read"
			 : err == -EOPNOTSUPP ? "no disassembler for this machine" : strerror(-err));
		return;
	}
	{
		struct strbuf sb = STRBUF_INIT;

		pms_annotate_text__stdio(&v, a, &sb);
		if (sb.oom)
			die("out of memory");
		free(u->ann);
		u->ann = strbuf_detach(&sb);
	}
	pms_annotation__free(a);
	u->ann_first = 0;
}

static bool handle_annotation_key(struct tui *u, int ch)
{
	int page = LINES > 3 ? LINES - 2 : 1;

	switch (ch) {
	case KEY_UP:
		u->ann_first -= u->ann_first > 0;
		break;
	case KEY_DOWN:
		u->ann_first++;
		break;
	case KEY_PPAGE:
		u->ann_first = u->ann_first > page ? u->ann_first - page : 0;
		break;
	case KEY_NPAGE:
		u->ann_first += page;
		break;
	case KEY_HOME:
		u->ann_first = 0;
		break;
	case 'a':
	case 'q':
	case 27:
	case KEY_LEFT:
		free(u->ann);
		u->ann = NULL;
		break;
	case KEY_RESIZE:
		break;
	default:
		return false;
	}
	return true;
}

static bool handle_key(struct tui *u, int ch, bool *quit)
{
	struct top *t = u->t;
	const struct pms_top_row *r = u->sel < (int)t->rows.nr ? &t->rows.rows[u->sel] : NULL;
	int page = LINES > 6 ? LINES - 6 : 1;
	char *text;

	if (u->help) {
		u->help = false;
		return true;
	}
	if (u->ann)
		return handle_annotation_key(u, ch);
	t->message[0] = 0;
	switch (ch) {
	case 'q':
	case 'Q':
		*quit = true;
		break;
	case 'h':
	case '?':
	case KEY_F(1):
		u->help = true;
		break;
	case KEY_UP:
		u->sel -= u->sel > 0;
		break;
	case KEY_DOWN:
		u->sel += u->sel + 1 < (int)t->rows.nr;
		break;
	case KEY_PPAGE:
		u->sel = u->sel > page ? u->sel - page : 0;
		break;
	case KEY_NPAGE:
		u->sel = u->sel + page < (int)t->rows.nr ? u->sel + page : (int)t->rows.nr - 1;
		break;
	case KEY_HOME:
		u->sel = 0;
		break;
	case KEY_END:
		u->sel = (int)t->rows.nr - 1;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (r)
			toggle_open(u, r);
		break;
	case 's':
	case '/':
		text = prompt("symbols matching (regex, empty for all): /");
		if (text && top__set_regex(t, text)) {
			top__rows(t);
			u->sel = 0;
		}
		free(text);
		break;
	case 'd':
		if (t->dso_text) {
			free(t->dso_text);
			t->dso_text = NULL;
			t->filter.dso = NULL;
		} else if (r && r->dso) {
			t->dso_text = xstrdup(r->dso);
			t->filter.dso = t->dso_text;
		}
		top__rows(t);
		u->sel = 0;
		break;
	case 't':
		if (t->filter.tid || r)
			filter_toggle_u32(t, &t->filter.tid, r ? (r->tid ? r->tid : heaviest(t, r, PMS_TOP_TID)) : 0, "thread");
		u->sel = 0;
		break;
	case 'P':
		if (t->filter.pid || r)
			filter_toggle_u32(t, &t->filter.pid, r ? (r->pid ? r->pid : heaviest(t, r, PMS_TOP_PID)) : 0, "process");
		u->sel = 0;
		break;
	case 'c':
		t->callers_first = !t->callers_first;
		snprintf(t->message, sizeof(t->message), "call chains %s", t->callers_first ? "from main down (caller order)"
											   : "from the leaf up (callee order)");
		break;
	case 'k':
		t->filter.hide_kernel = !t->filter.hide_kernel;
		snprintf(t->message, sizeof(t->message), "kernel functions %s", t->filter.hide_kernel ? "hidden" : "shown");
		top__rows(t);
		break;
	case 'z':
		t->zero = !t->zero;
		snprintf(t->message, sizeof(t->message), "%s", t->zero ? "each refresh starts from zero" : "decaying by 7/8 per refresh");
		break;
	case 'p':
		t->paused = !t->paused;
		snprintf(t->message, sizeof(t->message), "%s", t->paused ? "paused (p resumes)" : "resumed");
		break;
	case '+':
		t->delay_s = t->delay_s < 1 ? t->delay_s + 0.5 : t->delay_s + 1;
		snprintf(t->message, sizeof(t->message), "refresh every %.1f s", t->delay_s);
		break;
	case '-':
		t->delay_s = t->delay_s > 1 ? t->delay_s - 1 : t->delay_s > 0.5 ? 0.5 : t->delay_s;
		snprintf(t->message, sizeof(t->message), "refresh every %.1f s", t->delay_s);
		break;
	case 'o':
		switch_mode(t);
		u->sel = 0;
		break;
	case 'a':
		annotate_row(u, r);
		break;
	case 'w':
		top__write(t);
		break;
	case KEY_RESIZE:
		break;
	default:
		return false;
	}
	return true;
}

int top_tui__run(struct top *t, int iterations)
{
	struct tui u = { .t = t };
	uint64_t last = pms_clock__monotonic_ns(), due = last + (uint64_t)((t->delay_s < 0.5 ? t->delay_s : 0.5) * 1e9);
	bool quit = false;
	int ret = 0;

	if (!getenv("ESCDELAY"))
		setenv("ESCDELAY", "25", 1);
	if (!initscr())
		return error("cannot start the terminal view (TERM=%s)", getenv("TERM") ? getenv("TERM") : ""), EXIT_RUNTIME;
	curses_up = true;
	atexit(restore_terminal);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(0);
	u.colors = has_colors() && !getenv("NO_COLOR");
	if (u.colors) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_CYAN, -1);
		init_pair(2, COLOR_YELLOW, -1);
		init_pair(3, COLOR_GREEN, -1);
	}
	draw(&u);
	while (!quit && !stop_signals__requested) {
		uint64_t now = pms_clock__monotonic_ns();
		int ch, err;

		if (now >= due) {
			t->interval_s = (double)(now - last) / 1e9;
			last = now;
			due = now + (uint64_t)(t->delay_s * 1e9);
			if (top__refresh(t)) {
				ret = EXIT_RUNTIME;
				break;
			}
			if (u.sel >= (int)t->rows.nr)
				u.sel = t->rows.nr ? (int)t->rows.nr - 1 : 0;
			if (!u.ann)
				draw(&u);
			if (iterations > 0 && (int)t->refreshes >= iterations)
				break;
		}
		err = pms_profiler__poll(t->pr, 50);
		if (err == -ENOMEM)
			die("out of memory");
		if (err < 0 && err != -EINTR) {
			snprintf(t->message, sizeof(t->message), "reading the samples: %s", strerror(-err));
			ret = EXIT_RUNTIME;
			break;
		}
		while ((ch = getch()) != ERR)
			if (handle_key(&u, ch == '\r' ? '\n' : ch, &quit) || ch == KEY_RESIZE)
				draw(&u);
	}
	restore_terminal();
	if (ret)
		error("%s", t->message);
	for (size_t i = 0; i < u.nr_open; i++)
		id_release(&u.open[i]);
	free(u.open);
	free(u.ann);
	return ret;
}
#endif
