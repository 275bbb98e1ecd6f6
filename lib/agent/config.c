// SPDX-License-Identifier: MIT
// The agent's own config file: a flat YAML mapping of option names to values or lists, read with libyaml.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "agent/config.h"

int pms_agent_config__load(const char *path, pms_agent_config_fn fn, void *arg, char *err, size_t err_size)
{
	FILE *f = fopen(path, "r");
	yaml_parser_t p;
	yaml_event_t ev;
	char key[128] = "";
	int depth = 0, rc = 0;
	bool in_seq = false, have_key = false, done = false;

	if (!f) {
		rc = -errno;
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (!yaml_parser_initialize(&p)) {
		fclose(f);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&p, f);
	while (!done && !rc) {
		unsigned line;

		if (!yaml_parser_parse(&p, &ev)) {
			snprintf(err, err_size, "%s:%zu: %s", path, p.problem_mark.line + 1,
				 p.problem ? p.problem : "YAML syntax error");
			rc = -EINVAL;
			break;
		}
		line = (unsigned)ev.start_mark.line + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_MAPPING_START_EVENT:
			if (++depth > 1) {
				snprintf(err, err_size, "%s:%u: '%s' takes a value or a list, not a mapping", path, line,
					 key);
				rc = -EINVAL;
			}
			break;
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_SEQUENCE_START_EVENT:
			if (!have_key || in_seq) {
				snprintf(err, err_size, "%s:%u: a list must be the value of an option", path, line);
				rc = -EINVAL;
			}
			in_seq = true;
			break;
		case YAML_SEQUENCE_END_EVENT:
			in_seq = false;
			have_key = false;
			break;
		case YAML_SCALAR_EVENT: {
			const char *v = (const char *)ev.data.scalar.value;

			if (depth != 1) {
				snprintf(err, err_size, "%s:%u: expected a mapping of option names to values", path, line);
				rc = -EINVAL;
			} else if (!have_key) {
				snprintf(key, sizeof(key), "%s", v);
				have_key = true;
			} else {
				rc = fn(arg, key, v, line, err, err_size);
				if (!in_seq)
					have_key = false;
			}
			break;
		}
		case YAML_ALIAS_EVENT:
			snprintf(err, err_size, "%s:%u: aliases are not taken", path, line);
			rc = -EINVAL;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	fclose(f);
	return rc;
}
