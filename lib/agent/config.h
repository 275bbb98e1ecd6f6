/* SPDX-License-Identifier: MIT */
/*
 * The agent's config file (`agent --config`): a flat YAML mapping whose keys
 * are the long option names and whose values are scalars, or lists for the
 * repeatable options:
 *     listen: 127.0.0.1:9753
 *     cgroup: [system.slice/nginx.service, system.slice/postgresql.service]
 * Read with libyaml; the caller gives every value meaning.
 */
#ifndef PMS_AGENT_CONFIG_H
#define PMS_AGENT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* One value of key (once per list element), with its line; nonzero stops the reading with that return. */
typedef int (*pms_agent_config_fn)(void *arg, const char *key, const char *value, unsigned line, char *err,
				   size_t err_size);

/* 0, or -errno with a "file:line: reason" message in err (or fn's own). */
int pms_agent_config__load(const char *path, pms_agent_config_fn fn, void *arg, char *err, size_t err_size);

#endif
