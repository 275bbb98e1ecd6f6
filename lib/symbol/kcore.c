// SPDX-License-Identifier: MIT
// Kernel code from /proc/kcore: its ELF program headers read with pread, then the bytes at a virtual address.
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symbol/kcore.h"
#include "util/sysfs.h"

static int read_full(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EINVAL;
}

int pms_kcore__read(uint64_t vaddr, void *buf, size_t len, size_t *got)
{
	char path[PATH_MAX];
	Elf64_Ehdr eh;
	int fd, err;

	*got = 0;
	if (pms_procfs__path(path, sizeof(path), "kcore"))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	err = read_full(fd, &eh, sizeof(eh), 0);
	if (!err && (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
		     eh.e_type != ET_CORE || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 4096))
		err = -EINVAL;
	for (unsigned i = 0; !err && i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		uint64_t in_seg;
		ssize_t n;

		if ((err = read_full(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t)i * sizeof(ph))))
			break;
		if (ph.p_type != PT_LOAD || vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz)
			continue;
		in_seg = ph.p_filesz - (vaddr - ph.p_vaddr);
		n = pread(fd, buf, len < in_seg ? len : (size_t)in_seg, (off_t)(ph.p_offset + (vaddr - ph.p_vaddr)));
		if (n < 0)
			err = -errno;
		else
			*got = (size_t)n;
		close(fd);
		return err ? err : *got ? 0 : -ENOENT;
	}
	close(fd);
	return err ? err : -ENOENT;
}
