// SPDX-License-Identifier: MIT
// Parser for kernel-style CPU list strings.
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/cpulist.h"
#include "util/fileio.h"
#include "util/sysfs.h"

#define CPULIST_MAX_CPU 65535

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int push(struct pms_cpulist *l, size_t *cap, int cpu)
{
	if (pms_array__reserve(&l->cpus, cap, l->nr + 1, sizeof(*l->cpus)))
		return -ENOMEM;
	l->cpus[l->nr++] = cpu;
	return 0;
}

static int read_num(const char **s, long *v)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	*v = strtol(*s, &end, 10);
	if (*v > CPULIST_MAX_CPU)
		return -EINVAL;
	*s = end;
	return 0;
}

int pms_cpulist__parse(const char *str, struct pms_cpulist *out, size_t *bad_pos)
{
	const char *s = str;
	size_t cap = 0, i, j;
	long a, b;
	int err;

	out->cpus = NULL;
	out->nr = 0;
	while (*s == ' ' || *s == '\n')
		s++;
	if (!*s) {
		err = -EINVAL;
		goto bad;
	}
	while (*s && *s != '\n') {
		if ((err = read_num(&s, &a)))
			goto bad;
		b = a;
		if (*s == '-') {
			s++;
			if ((err = read_num(&s, &b)))
				goto bad;
			if (b < a) {
				err = -EINVAL;
				goto bad;
			}
		}
		for (; a <= b; a++)
			if ((err = push(out, &cap, (int)a)))
				goto fail;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n') {
			err = -EINVAL;
			goto bad;
		}
	}
	qsort(out->cpus, out->nr, sizeof(int), cmp_int);
	for (i = j = 0; i < out->nr; i++)
		if (!j || out->cpus[j - 1] != out->cpus[i])
			out->cpus[j++] = out->cpus[i];
	out->nr = j;
	return 0;
bad:
	if (bad_pos)
		*bad_pos = (size_t)(s - str);
fail:
	pms_cpulist__release(out);
	return err;
}

int pms_cpulist__online(struct pms_cpulist *out)
{
	char path[4096], buf[4096];
	int err;

	if ((err = pms_sysfs__path(path, sizeof(path), "devices/system/cpu/online")))
		return err;
	if ((err = pms_file__read_str(path, buf, sizeof(buf))))
		return err;
	return pms_cpulist__parse(buf, out, NULL);
}

void pms_cpulist__release(struct pms_cpulist *l)
{
	free(l->cpus);
	l->cpus = NULL;
	l->nr = 0;
}

int pms_cpulist__contains(const struct pms_cpulist *l, int cpu)
{
	return bsearch(&cpu, l->cpus, l->nr, sizeof(int), cmp_int) != NULL;
}
