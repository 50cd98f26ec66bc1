/*
 * mx_cjson.h — Matrix canonical JSON (the spec's "Canonical JSON"): what a
 * signature covers. Object keys sorted by their UTF-8 bytes, no
 * insignificant white space, strings as raw UTF-8 with only '"', '\\' and
 * the control characters escaped (\b \f \n \r \t, else \u00xx), integers
 * only (a float is refused, as the spec refuses it).
 *
 * Pure: json-c values in, a malloc'd string out. Not here: signing
 * (mx_crypto.h), which drops "signatures" and "unsigned" before calling this.
 */
#ifndef PZ_MX_CJSON_H
#define PZ_MX_CJSON_H

#include <json-c/json.h>

/*
 * The canonical JSON of v (NULL is null), malloc'd and NUL-terminated, or
 * NULL when v holds a float or memory ran out. skip_top: when v is an
 * object, its members "signatures" and "unsigned" are left out (what a
 * signed object's signature covers).
 */
char *mx_cjson(json_object *v, int skip_top);

#endif /* PZ_MX_CJSON_H */
