/*
 * wstatic.h — the pages' fixed files (wstatic.c). Prefix wstatic_.
 */
#ifndef PZ_WSTATIC_H
#define PZ_WSTATIC_H

#ifndef PZ_INSIDE_WEB
#error "wstatic.h is the web layer's inside: others include web.h (ARCHITECTURE.md)"
#endif

#include <stddef.h>

/* The file at path ("/static/web.css"), its length and type; NULL none. */
const char *wstatic_get(const char *path, size_t *len, const char **type);

#endif /* PZ_WSTATIC_H */
