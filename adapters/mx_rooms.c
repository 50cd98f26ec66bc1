/*
 * mx_rooms.c — what the Matrix adapter knows of rooms: the table of rooms
 * (members and their display names, encryption), and the
 * direct rooms of players, kept three ways so that any one is enough after
 * a restart: the store's kv ("dm:USER" → room, "dmroom:ROOM" → user), the
 * m.direct account data (as the homeserver has it, PUT back when the bot
 * adds or drops a room), and the room table.
 *
 * Display names are cleaned (no control characters, no invalid UTF-8, no
 * blanks at the ends, at most MX_ID_MAX - 1 bytes cut at a character) and
 * remembered in the kv ("name:ROOM USER"), so a restart that resumes the
 * sync, which does not repeat old member events, still names players as
 * they are named in the room. Not here: what events mean (mx_events.c).
 */
#include "mx_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "text.h"

#define KEY_MAX (2 * MX_ID_MAX + 16)

/* ---- The room table ------------------------------------------------------- */

mx_room *mx__room(mx_net *n, const char *id, bool create)
{
    for (int i = 0; i < n->nrooms; i++)
        if (strcmp(n->rooms[i]->id, id) == 0)
            return n->rooms[i];
    if (!create || strlen(id) >= MX_ID_MAX || n->nrooms == MX_ROOMS_MAX)
        return NULL;
    if (n->nrooms == n->rooms_cap) {
        int cap = n->rooms_cap ? n->rooms_cap * 2 : 16;
        mx_room **p = realloc(n->rooms, (size_t)cap * sizeof *p);
        if (p == NULL)
            return NULL;
        n->rooms = p;
        n->rooms_cap = cap;
    }
    mx_room *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    snprintf(r->id, sizeof r->id, "%s", id);
    char key[KEY_MAX], value[8];
    snprintf(key, sizeof key, "said_encrypted:%s", id);
    r->encrypted = mx__kv_get(n, key, value, sizeof value) == 0;
    n->rooms[n->nrooms++] = r;
    return r;
}

static void room_free(mx_room *r)
{
    free(r->members);
    free(r);
}

void mx__room_forget(mx_net *n, const char *id)
{
    for (int i = 0; i < n->nrooms; i++) {
        mx_room *r = n->rooms[i];
        if (strcmp(r->id, id) != 0)
            continue;
        room_free(r);
        n->rooms[i] = n->rooms[--n->nrooms];
        return;
    }
}

void mx__rooms_free(mx_net *n)
{
    for (int i = 0; i < n->nrooms; i++)
        room_free(n->rooms[i]);
    free(n->rooms);
    n->rooms = NULL;
    n->nrooms = n->rooms_cap = 0;
}

/* ---- Members ---------------------------------------------------------------- */

/* Cleans a display name into out[MX_ID_MAX] (see the file's comment). */
static void clean_name(const char *name, char *out)
{
    size_t k = 0, n = strlen(name);
    for (size_t i = 0; i < n && k < MX_ID_MAX - 1;) {
        size_t len = text_utf8_len(name + i, n - i);
        unsigned char c = (unsigned char)name[i];
        if (len == 0 || c < 0x20 || c == 0x7F) {
            i += len > 0 ? len : 1;
            continue;
        }
        if (k + len > MX_ID_MAX - 1)
            break;
        memcpy(out + k, name + i, len);
        k += len;
        i += len;
    }
    out[k] = '\0';
    size_t start = strspn(out, " ");
    while (k > start && out[k - 1] == ' ')
        out[--k] = '\0';
    memmove(out, out + start, k - start + 1);
}

static mx_member *member_find(mx_room *r, const char *user)
{
    for (int i = 0; i < r->nmembers; i++)
        if (strcmp(r->members[i].user, user) == 0)
            return &r->members[i];
    return NULL;
}

static void name_key(char *key, size_t cap, const char *room, const char *user)
{
    if (snprintf(key, cap, "name:%s %s", room, user) < 0 && cap > 0)
        key[0] = '\0';
}

bool mx__member_set(mx_net *n, mx_room *r, const char *user, const char *name)
{
    char clean[MX_ID_MAX], key[KEY_MAX], kept[MX_ID_MAX];
    if (strlen(user) >= MX_ID_MAX)
        return false;
    clean_name(name != NULL ? name : "", clean);
    mx_member *m = member_find(r, user);
    if (m == NULL) {
        if (r->nmembers == r->cap) {
            int cap = r->cap ? r->cap * 2 : 8;
            mx_member *p = realloc(r->members, (size_t)cap * sizeof *p);
            if (p == NULL)
                return false;
            r->members = p;
            r->cap = cap;
        }
        m = &r->members[r->nmembers++];
        snprintf(m->user, sizeof m->user, "%s", user);
        m->name[0] = '\0';
    }
    name_key(key, sizeof key, r->id, user);
    bool known = m->name[0] != '\0';
    if (!known && mx__kv_get(n, key, kept, sizeof kept) == 0) {
        snprintf(m->name, sizeof m->name, "%s", kept);
        known = true;
    }
    if (strcmp(m->name, clean) == 0)
        return false;
    snprintf(m->name, sizeof m->name, "%s", clean);
    mx__kv_set(n, key, clean);
    return known && clean[0] != '\0';
}

void mx__member_remove(mx_room *r, const char *user)
{
    mx_member *m = member_find(r, user);
    if (m != NULL)
        *m = r->members[--r->nmembers];
}

void mx__display_name(mx_net *n, mx_room *r, const char *user, char *out, size_t cap)
{
    mx_member *m = r != NULL ? member_find(r, user) : NULL;
    char key[KEY_MAX], kept[MX_ID_MAX];
    if (m != NULL && m->name[0] != '\0') {
        snprintf(out, cap, "%s", m->name);
        return;
    }
    if (r != NULL) {
        name_key(key, sizeof key, r->id, user);
        if (mx__kv_get(n, key, kept, sizeof kept) == 0) {
            (void)mx__member_set(n, r, user, kept);
            snprintf(out, cap, "%s", kept);
            return;
        }
    }
    const char *colon = strchr(user, ':');
    size_t len = colon != NULL ? (size_t)(colon - user) - 1 : strlen(user);
    if (user[0] != '@' || len == 0)
        snprintf(out, cap, "%s", user);
    else
        snprintf(out, cap, "%.*s", (int)len, user + 1);
}

/* ---- Direct rooms ------------------------------------------------------------ */

/* Whether array a (of strings) holds s. */
static int array_index(json_object *a, const char *s)
{
    size_t len = a != NULL ? json_object_array_length(a) : 0;
    for (size_t i = 0; i < len; i++) {
        json_object *v = json_object_array_get_idx(a, i);
        if (json_object_is_type(v, json_type_string) && strcmp(json_object_get_string(v), s) == 0)
            return (int)i;
    }
    return -1;
}

/* Whether room was a direct room the bot forgot (kv "dmgone:ROOM"). */
static bool dm_gone(mx_net *n, const char *room)
{
    char key[KEY_MAX], v[8];
    snprintf(key, sizeof key, "dmgone:%s", room);
    return mx__kv_get(n, key, v, sizeof v) == 0;
}

void mx__dm_room(mx_net *n, const char *user, char *room, size_t cap)
{
    char key[KEY_MAX];
    snprintf(key, sizeof key, "dm:%s", user);
    if (mx__kv_get(n, key, room, cap) == 0)
        return;
    json_object *a = mx__arr(n->direct, user);
    size_t len = a != NULL ? json_object_array_length(a) : 0;
    for (size_t i = len; i > 0; i--) { /* the newest is last */
        json_object *v = json_object_array_get_idx(a, i - 1);
        const char *id = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
        if (id[0] == '!' && strlen(id) < cap && strlen(id) < MX_ID_MAX && !dm_gone(n, id)) {
            snprintf(room, cap, "%s", id);
            mx__kv_set(n, key, id);
            snprintf(key, sizeof key, "dmroom:%s", id);
            mx__kv_set(n, key, user);
            return;
        }
    }
}

void mx__dm_user(mx_net *n, const char *room, char *user, size_t cap)
{
    mx_room *r = mx__room(n, room, false);
    char key[KEY_MAX];
    if (r != NULL && r->dm_user[0] != '\0') {
        snprintf(user, cap, "%s", r->dm_user);
        return;
    }
    snprintf(key, sizeof key, "dmroom:%s", room);
    if (mx__kv_get(n, key, user, cap) != 0 && n->direct != NULL) {
        json_object_object_foreach(n->direct, who, rooms)
        {
            if (json_object_is_type(rooms, json_type_array) && array_index(rooms, room) >= 0 &&
                strlen(who) < cap) {
                snprintf(user, cap, "%s", who);
                break;
            }
        }
    }
    if (r != NULL && user[0] != '\0' && strlen(user) < sizeof r->dm_user)
        snprintf(r->dm_user, sizeof r->dm_user, "%s", user);
}

/* PUTs m.direct as the cache has it (once at a time; again when it changed meanwhile). */
static void direct_put(mx_net *n)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], me[3 * MX_ID_MAX];
    if (n->direct == NULL)
        return;
    mx_call *c = mx__call_find(n, MX_CALL_DIRECT_PUT, NULL, NULL);
    if (c != NULL) {
        c->flags = 1; /* put again after this one */
        return;
    }
    if (mx__enc(n->me, me, sizeof me) != 0 ||
        snprintf(path, sizeof path, "/user/%s/account_data/m.direct", me) >= (int)sizeof path ||
        mx__url(n, url, sizeof url, path) != 0)
        return;
    const char *body = json_object_to_json_string_ext(n->direct, JSON_C_TO_STRING_PLAIN);
    c = mx__call_new(n, MX_CALL_DIRECT_PUT, "PUT", url, body, true);
    if (c != NULL)
        mx__call_go(n, c);
}

void mx__on_direct_put(mx_net *n, mx_call *c, int status, json_object *body)
{
    (void)body;
    if (status != 200)
        log_msg(LOG_WARN, "%s: cannot update m.direct (HTTP %d)", n->c.name, status);
    if (c->flags) {
        c->kind = MX_CALL_KINDS; /* not found by direct_put: this one is over */
        direct_put(n);
    }
}

void mx__dm_set(mx_net *n, const char *user, const char *room)
{
    char key[KEY_MAX], kept[MX_ID_MAX];
    snprintf(key, sizeof key, "dm:%s", user);
    if (mx__kv_get(n, key, kept, sizeof kept) == 0 && strcmp(kept, room) == 0 &&
        array_index(mx__arr(n->direct, user), room) >= 0)
        return; /* known already */
    mx__kv_set(n, key, room);
    snprintf(key, sizeof key, "dmroom:%s", room);
    mx__kv_set(n, key, user);
    if (dm_gone(n, room)) {
        snprintf(key, sizeof key, "dmgone:%s", room);
        mx__kv_set(n, key, "");
    }
    mx_room *r = mx__room(n, room, true);
    if (r != NULL)
        snprintf(r->dm_user, sizeof r->dm_user, "%s", user);
    if (n->direct == NULL && (n->direct = json_object_new_object()) == NULL)
        return;
    json_object *a = mx__arr(n->direct, user);
    if (a == NULL) {
        a = json_object_new_array();
        if (a == NULL || json_object_object_add(n->direct, user, a) != 0) {
            json_object_put(a);
            return;
        }
    }
    if (array_index(a, room) >= 0)
        return;
    json_object_array_add(a, json_object_new_string(room));
    direct_put(n);
}

void mx__dm_forget(mx_net *n, const char *user, const char *room)
{
    char key[KEY_MAX], kept[MX_ID_MAX];
    snprintf(key, sizeof key, "dm:%s", user);
    if (mx__kv_get(n, key, kept, sizeof kept) == 0 && strcmp(kept, room) == 0)
        mx__kv_set(n, key, "");
    snprintf(key, sizeof key, "dmroom:%s", room);
    mx__kv_set(n, key, "");
    snprintf(key, sizeof key, "dmgone:%s", room);
    mx__kv_set(n, key, "1");
    mx_room *r = mx__room(n, room, false);
    if (r != NULL)
        r->dm_user[0] = '\0';
    json_object *a = mx__arr(n->direct, user);
    int i = array_index(a, room);
    if (i >= 0) {
        json_object_array_del_idx(a, (size_t)i, 1);
        direct_put(n);
    }
    log_msg(LOG_INFO, "%s: %s is no longer the direct room of %s", n->c.name, room, user);
}

/*
 * Takes the homeserver's m.direct (a sync's, or the one read at start):
 * its rooms, less those the bot forgot, plus those the bot added (a sync
 * computed before an update of ours landed must not undo it). When the
 * homeserver lacks some of ours, they are PUT again.
 */
void mx__direct_take(mx_net *n, json_object *content)
{
    json_object *copy = NULL;
    bool missing = false;
    if (content == NULL || json_object_deep_copy(content, &copy, NULL) != 0)
        return;
    json_object_object_foreach(copy, who, list)
    {
        size_t len =
            json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;
        for (size_t i = len; i > 0; i--) {
            json_object *v = json_object_array_get_idx(list, i - 1);
            if (json_object_is_type(v, json_type_string) && dm_gone(n, json_object_get_string(v)))
                json_object_array_del_idx(list, i - 1, 1);
        }
        (void)who;
    }
    if (n->direct == NULL) {
        n->direct = copy;
        return;
    }
    json_object_object_foreach(n->direct, user, rooms)
    {
        json_object *a = mx__arr(copy, user);
        size_t len =
            json_object_is_type(rooms, json_type_array) ? json_object_array_length(rooms) : 0;
        if (a == NULL && len > 0) {
            a = json_object_new_array();
            if (a == NULL || json_object_object_add(copy, user, a) != 0) {
                json_object_put(a);
                continue;
            }
        }
        for (size_t i = 0; i < len; i++) {
            json_object *v = json_object_array_get_idx(rooms, i);
            if (json_object_is_type(v, json_type_string) &&
                array_index(a, json_object_get_string(v)) < 0) {
                json_object_array_add(a, json_object_get(v));
                missing = true;
            }
        }
    }
    json_object_put(n->direct);
    n->direct = copy;
    if (missing)
        direct_put(n);
}
