// SPDX-License-Identifier: MIT
// Guest workload `waitloop N FIFO`: blocks reading one byte from FIFO, then runs N iterations
// of the loop of loop.h and exits 0. Lets a check attach (stat -p) before any counted work.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "loop.h"

int main(int argc, char **argv)
{
	char c;
	int fd;

	if (argc != 3)
		return 2;
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1)
		return 1;
	return vm_loop(strtoul(argv[1], NULL, 10)) == 1 ? 3 : 0;
}
