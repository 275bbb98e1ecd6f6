// SPDX-License-Identifier: MIT
// libFuzzer target: the agent's exporter-toolkit web config (YAML through libyaml) and the
// /proc/PID/cgroup and cgroup-path readers that label its profiles.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/agent.h"
#include "agent/webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pms_webconfig *cfg = NULL;
	char err[256], path[512], cid[65], unit[128];
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (!pms_webconfig__parse((const char *)data, size, "fuzz.yml", "/nonexistent", &cfg, err, sizeof(err))) {
		/* every accessor of an accepted config must be safe to call */
		(void)pms_webconfig__tls(cfg);
		(void)pms_webconfig__auth(cfg);
		(void)pms_webconfig__cert_file(cfg);
		(void)pms_webconfig__key_file(cfg);
		(void)pms_webconfig__client_ca_file(cfg);
		(void)pms_client_auth__name(pms_webconfig__client_auth(cfg));
		(void)pms_webconfig__min_version(cfg);
		(void)pms_webconfig__max_version(cfg);
		(void)pms_webconfig__http2(cfg);
	}
	pms_webconfig__free(cfg);
	if (!pms_cgroup__path_of(text, path, sizeof(path)))
		pms_cgroup__labels(path, cid, sizeof(cid), unit, sizeof(unit));
	pms_cgroup__labels(text, cid, sizeof(cid), unit, sizeof(unit));
	free(text);
	return 0;
}
