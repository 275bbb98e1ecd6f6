// SPDX-License-Identifier: MIT
// The build-id cache in perf's ~/.debug layout: where it is, lookups by build-id, atomic adds.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/buildid_cache.h"
#ifndef PMS_NO_HOST_LIBS
#include "symbol/dso.h"
#endif
#include "symbol/kallsyms.h"
#include "symbol/sysobj.h"
#include "util/fileio.h"
#include "util/hex.h"
#include "util/sysfs.h"

#ifndef PMS_BUILD_ID_MAX
#define PMS_BUILD_ID_MAX 20 /* SHA-1, as in symbol/dso.h */
#endif

/* snprintf's result checked: 0, or -ENAMETOOLONG when it did not fit. */
static int put(size_t size, int n)
{
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* Value of "dir" in the [buildid] section of a perfconfig text (git-config syntax), or NULL. */
static char *config_buildid_dir(const char *text)
{
	bool in_section = false;
	char *val = NULL;

	for (const char *p = text; *p && !val;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[4096], *s, *e;

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		p = eol ? eol + 1 : p + strlen(p);
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (*s == '#' || *s == ';' || !*s)
			continue;
		if (*s == '[') {
			e = strchr(s, ']');
			in_section = e && (size_t)(e - s - 1) == strlen("buildid") && !strncasecmp(s + 1, "buildid", 7);
			continue;
		}
		if (!in_section || strncasecmp(s, "dir", 3))
			continue;
		for (s += 3; *s == ' ' || *s == '\t'; s++)
			;
		if (*s != '=')
			continue;
		for (s++; *s == ' ' || *s == '\t'; s++)
			;
		for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'); e--)
			;
		*e = '\0';
		if (e - s >= 2 && *s == '"' && e[-1] == '"') {
			e[-1] = '\0';
			s++;
		}
		if (*s)
			val = strdup(s);
	}
	return val;
}

static char *configured_dir(void)
{
	const char *env = getenv("PERF_CONFIG");
	char path[4096], *text, *dir = NULL;
	const char *home = getenv("HOME");
	size_t len;

	/* perf reads one user file (PERF_CONFIG replaces it) and the system one */
	if (env && *env) {
		if (!pms_file__read_all(env, &text, &len)) {
			dir = config_buildid_dir(text);
			free(text);
		}
		return dir;
	}
	if (home && *home && snprintf(path, sizeof(path), "%s/.perfconfig", home) < (int)sizeof(path) &&
	    !pms_file__read_all(path, &text, &len)) {
		dir = config_buildid_dir(text);
		free(text);
	}
	if (!dir && !pms_file__read_all("/etc/perfconfig", &text, &len)) {
		dir = config_buildid_dir(text);
		free(text);
	}
	return dir;
}

int pms_buildid_cache__dir(char *buf, size_t size)
{
	const char *env = getenv("PMS_BUILDID_DIR");
	const char *home = getenv("HOME");
	char *cfg;
	int err;

	if (env && *env)
		return put(size, snprintf(buf, size, "%s", env));
	cfg = configured_dir();
	if (cfg) {
		/* perf expands a leading "~" to $HOME */
		if (cfg[0] == '~' && (cfg[1] == '/' || !cfg[1]) && home)
			err = put(size, snprintf(buf, size, "%s%s", home, cfg + 1));
		else
			err = put(size, snprintf(buf, size, "%s", cfg));
		free(cfg);
		return err;
	}
	if (!home || !*home)
		return -ENOENT;
	return put(size, snprintf(buf, size, "%s/.debug", home));
}

int pms_buildid_cache__entry_path(const char *dir, const char *name, const uint8_t *id, size_t id_size,
				  const char *kind, char *buf, size_t size)
{
	char hex[2 * PMS_BUILD_ID_MAX + 1];

	if (!id_size || id_size > PMS_BUILD_ID_MAX || !name || !*name)
		return -EINVAL;
	pms_hex__encode(id, id_size, hex);
	while (*name == '/')
		name++;
	return put(size, snprintf(buf, size, "%s/%s/%s%s%s", dir, name, hex, kind ? "/" : "", kind ? kind : ""));
}

static bool is_readable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK);
}

int pms_buildid_cache__find(const char *dir, const char *name, const uint8_t *id, size_t id_size,
			    const char *kind, char *buf, size_t size)
{
	char hex[2 * PMS_BUILD_ID_MAX + 1], link[4096];
	struct stat st;

	if (!id_size || id_size > PMS_BUILD_ID_MAX)
		return -EINVAL;
	if (name && *name && !pms_buildid_cache__entry_path(dir, name, id, id_size, kind, buf, size) &&
	    is_readable_file(buf))
		return 0;
	pms_hex__encode(id, id_size, hex);
	if (put(sizeof(link), snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", dir, hex, hex + 2)))
		return -ENAMETOOLONG;
	if (stat(link, &st))
		return -ENOENT;
	if (S_ISDIR(st.st_mode)) {
		if (put(size, snprintf(buf, size, "%s/%s", link, kind)))
			return -ENAMETOOLONG;
		return is_readable_file(buf) ? 0 : -ENOENT;
	}
	/* an old-style link to the file itself: only an "elf" lookup may take it */
	if (S_ISREG(st.st_mode) && !strcmp(kind, "elf") && !access(link, R_OK))
		return put(size, snprintf(buf, size, "%s", link));
	return -ENOENT;
}

static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			int err = -errno;

			*p = '/';
			return err;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* ../../<name>/<hex> from <dir>/.build-id/xx/, unless something is there already. */
static int add_link(const char *dir, const char *name, const char *hex)
{
	char linkdir[4096], link[4096], target[4096];
	int err;

	while (*name == '/')
		name++;
	if (put(sizeof(linkdir), snprintf(linkdir, sizeof(linkdir), "%s/.build-id/%.2s", dir, hex)) ||
	    put(sizeof(link), snprintf(link, sizeof(link), "%s/%s", linkdir, hex + 2)) ||
	    put(sizeof(target), snprintf(target, sizeof(target), "../../%s/%s", name, hex)))
		return -ENAMETOOLONG;
	err = mkdir_p(linkdir);
	if (err)
		return err;
	if (symlink(target, link) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Write <entry>/<kind> from either src_fd (copied to EOF) or buf, through a
 * temporary file renamed into place, so a reader never sees half a copy.
 */
static int add_entry(const char *dir, const char *name, const uint8_t *id, size_t id_size, const char *kind,
		     int src_fd, const void *buf, size_t len, mode_t mode, bool *added)
{
	char path[4096], entry[4096], hex[2 * PMS_BUILD_ID_MAX + 1];
	struct pms_file_replace rep;
	struct stat st;
	int err;

	if (added)
		*added = false;
	err = pms_buildid_cache__entry_path(dir, name, id, id_size, kind, path, sizeof(path));
	if (err)
		return err;
	pms_hex__encode(id, id_size, hex);
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		return add_link(dir, name, hex);
	err = pms_buildid_cache__entry_path(dir, name, id, id_size, NULL, entry, sizeof(entry));
	if (err)
		return err;
	err = mkdir_p(entry);
	if (err)
		return err;
	err = pms_file_replace__begin(&rep, path);
	if (err)
		return err;
	if (src_fd >= 0) {
		char chunk[1 << 16];

		for (;;) {
			ssize_t n = read(src_fd, chunk, sizeof(chunk));

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				err = -errno;
				break;
			}
			if (!n)
				break;
			err = pms_fd__write_all(rep.fd, chunk, (size_t)n);
			if (err)
				break;
		}
	} else {
		err = pms_fd__write_all(rep.fd, buf, len);
	}
	err = pms_file_replace__end(&rep, path, mode, err);
	if (err)
		return err;
	if (added)
		*added = true;
	return add_link(dir, name, hex);
}

int pms_buildid_cache__add_file(const char *dir, const char *name, const uint8_t *id, size_t id_size,
				const char *kind, const char *src, bool *added)
{
	struct stat st;
	int fd, err;

	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	err = add_entry(dir, name, id, id_size, kind, fd, NULL, 0, (st.st_mode & 0777) | 0400, added);
	close(fd);
	return err;
}

int pms_buildid_cache__add_mem(const char *dir, const char *name, const uint8_t *id, size_t id_size,
			       const char *kind, const void *buf, size_t len, bool *added)
{
	return add_entry(dir, name, id, id_size, kind, -1, buf, len, 0644, added);
}

int pms_buildid_cache__link_path(const char *dir, const uint8_t *id, size_t id_size, char *buf, size_t size)
{
	char hex[2 * PMS_BUILD_ID_MAX + 1];

	if (!id_size || id_size > PMS_BUILD_ID_MAX)
		return -EINVAL;
	pms_hex__encode(id, id_size, hex);
	return put(size, snprintf(buf, size, "%s/.build-id/%.2s/%s", dir, hex, hex + 2));
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int pms_buildid_cache__entry_rel(const char *dir, const char *name, const uint8_t *id, size_t id_size,
				 char *buf, size_t size)
{
	char path[4096], link[4096], target[4096];
	size_t dlen = strlen(dir);
	ssize_t n;
	int err;

	if (name && *name && !pms_buildid_cache__entry_path(dir, name, id, id_size, NULL, path, sizeof(path)) &&
	    is_dir(path))
		return put(size, snprintf(buf, size, "%s", path + dlen + 1));
	err = pms_buildid_cache__link_path(dir, id, id_size, link, sizeof(link));
	if (err)
		return err;
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -ENOENT;
	target[n] = '\0';
	/* perf's links are "../../<name>/<hex>" (or, older, ".../<hex>/elf" or a file) relative to .build-id/xx */
	if (strncmp(target, "../../", 6) || strstr(target + 6, "/../") || !strncmp(target + 6, "../", 3))
		return -ENOENT;
	if (put(sizeof(path), snprintf(path, sizeof(path), "%s/%s", dir, target + 6)))
		return -ENAMETOOLONG;
	if (!is_dir(path)) {
		char *slash = strrchr(path, '/');

		/* an old-style link to the file: its directory is the entry */
		if (!slash || !is_readable_file(path))
			return -ENOENT;
		*slash = '\0';
	}
	return put(size, snprintf(buf, size, "%s", path + dlen + 1));
}

#ifndef PMS_NO_HOST_LIBS
/* Does the ELF file at path carry exactly this build-id? -ENOENT, -ESTALE, or 0. */
static int check_file_build_id(const char *path, const uint8_t *id, size_t id_size)
{
	uint8_t got[PMS_BUILD_ID_MAX];
	int n = pms_build_id__read(path, got, sizeof(got));

	if (n == -ENOENT || n == -ENOTDIR || n == -EACCES)
		return -ENOENT;
	if (n <= 0 || (size_t)n != id_size || memcmp(got, id, id_size))
		return -ESTALE;
	return 0;
}
#endif

/* Does kallsyms text show real addresses? Restricted kallsyms is all zeros; per-cpu symbols are 0 anyway. */
static bool kallsyms_has_addresses(const char *text)
{
	for (const char *p = text; *p;) {
		const char *c = p;

		for (; pms_hex__digit(*c) >= 0; c++)
			if (*c != '0')
				return true;
		p = strchr(c, '\n');
		if (!p)
			break;
		p++;
	}
	return false;
}

static int add_kallsyms(const char *dir, const uint8_t *id, size_t id_size, unsigned *added)
{
	uint8_t running[PMS_BUILD_ID_MAX];
	char path[4096], *text;
	bool was_added = false;
	size_t len;
	int n = pms_kernel__build_id(running, sizeof(running));
	int err;

	if (n < 0)
		return n;
	if ((size_t)n != id_size || memcmp(running, id, id_size))
		return -ESTALE;
	err = pms_procfs__path(path, sizeof(path), "kallsyms");
	if (err)
		return err;
	err = pms_file__read_all(path, &text, &len);
	if (err)
		return err;
	/* perf does not cache a restricted kallsyms either: it would name nothing */
	if (!kallsyms_has_addresses(text)) {
		free(text);
		return -ENODATA;
	}
	err = pms_buildid_cache__add_mem(dir, "[kernel.kallsyms]", id, id_size, "kallsyms", text, len, &was_added);
	free(text);
	if (!err && was_added)
		*added |= PMS_BIDC_ADDED_KALLSYMS;
	return err;
}

static int add_vdso(const char *dir, const uint8_t *id, size_t id_size, unsigned *added)
{
	uint8_t running[PMS_BUILD_ID_MAX];
	const void *img;
	size_t len;
	bool was_added = false;
	int n = pms_vdso__build_id(running, sizeof(running)), err;

	if (n < 0)
		return n;
	if ((size_t)n != id_size || memcmp(running, id, id_size) || pms_vdso__image(&img, &len))
		return -ESTALE;
	err = pms_buildid_cache__add_mem(dir, "[vdso]", id, id_size, "vdso", img, len, &was_added);
	if (!err && was_added)
		*added |= PMS_BIDC_ADDED_VDSO;
	return err;
}

#ifndef PMS_NO_HOST_LIBS
/*
 * The debug file name's .gnu_debuglink names, beside it or in its .debug/
 * directory (gdb's places), with the same build-id: into debug. 0, or -ENOENT.
 */
static int debuglinked(const char *name, const uint8_t *id, size_t id_size, char *debug, size_t size)
{
	char link[256], dir[4096];
	const char *slash = strrchr(name, '/');
	static const char *const fmts[] = { "%s/%s", "%s/.debug/%s" };

	if (!slash || pms_debuglink__read(name, link, sizeof(link)) || strchr(link, '/') ||
	    put(sizeof(dir), snprintf(dir, sizeof(dir), "%.*s", (int)(slash - name), name)))
		return -ENOENT;
	for (size_t i = 0; i < 2; i++)
		if (!put(size, snprintf(debug, size, fmts[i], dir, link)) && !check_file_build_id(debug, id, id_size))
			return 0;
	return -ENOENT;
}
#endif

static int add_elf(const char *dir, const char *name, bool kernel, const uint8_t *id, size_t id_size,
		   unsigned *added)
{
#ifdef PMS_NO_HOST_LIBS
	(void)dir, (void)name, (void)kernel, (void)id, (void)id_size, (void)added;
	return -EOPNOTSUPP;
#else
	char hex[2 * PMS_BUILD_ID_MAX + 1], debug[4096];
	bool was_added = false;
	int err = check_file_build_id(name, id, id_size);

	if (err)
		return err;
	err = pms_buildid_cache__add_file(dir, name, id, id_size, "elf", name, &was_added);
	if (err)
		return err;
	if (was_added)
		*added |= PMS_BIDC_ADDED_ELF;
	if (kernel)
		return 0; /* perf looks for separate debug files of user objects only */
	/* the debug root as symbol/dso.h searches it; gdb's and perf's layout */
	pms_hex__encode(id, id_size, hex);
	if ((put(sizeof(debug), snprintf(debug, sizeof(debug), "%s/.build-id/%.2s/%s.debug",
					 pms_debug_root(), hex, hex + 2)) ||
	     check_file_build_id(debug, id, id_size)) &&
	    debuglinked(name, id, id_size, debug, sizeof(debug)))
		return 0;
	err = pms_buildid_cache__add_file(dir, name, id, id_size, "debug", debug, &was_added);
	if (!err && was_added)
		*added |= PMS_BIDC_ADDED_DEBUG;
	return err;
#endif
}

int pms_buildid_cache__add_object(const char *dir, const char *name, bool kernel, const uint8_t *id,
				  size_t id_size, unsigned *added)
{
	const char *kind = "elf";
	char path[4096];
	unsigned dummy = 0;
	struct stat st;
	int err;

	if (!added)
		added = &dummy;
	*added = 0;
	if (!name || !*name || !id_size || id_size > PMS_BUILD_ID_MAX)
		return -EINVAL;
	if (kernel && !strcmp(name, "[kernel.kallsyms]"))
		kind = "kallsyms";
	else if (!strcmp(name, "[vdso]"))
		kind = "vdso";
	else if (name[0] != '/')
		return -ENOENT; /* "[module]" without its file, "//anon", "[vsyscall]": nothing to copy */
	err = pms_buildid_cache__entry_path(dir, name, id, id_size, kind, path, sizeof(path));
	if (err)
		return err;
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		return 0; /* there already: its .build-id link came with it */
	if (!strcmp(kind, "kallsyms"))
		return add_kallsyms(dir, id, id_size, added);
	if (!strcmp(kind, "vdso"))
		return add_vdso(dir, id, id_size, added);
	return add_elf(dir, name, kernel, id, id_size, added);
}
