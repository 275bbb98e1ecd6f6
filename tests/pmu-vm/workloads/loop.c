// SPDX-License-Identifier: MIT
// Guest workload `loop N`: runs N iterations of the 4-instruction body of loop.h and exits 0,
// printing nothing, so the user-space instruction count of a run is 4*N plus a constant.
#include <stdlib.h>
#include "loop.h"

int main(int argc, char **argv)
{
	char *end;
	unsigned long n;

	if (argc != 2)
		return 2;
	n = strtoul(argv[1], &end, 10);
	if (*end != '\0')
		return 2;
	/* Keep the result observable without printing (printing would cost an n-dependent count). */
	return vm_loop(n) == 1 ? 3 : 0;
}
