/*
 * mx_rooms.c — what the Matrix adapter knows of rooms: the table of rooms
 * (members and their display names, encryption), and the
 * direct rooms of players, kept three ways so that any one is enough after
 * a restart: the store's kv ("dm:USER" → room, "dmroom:ROOM" → user), the
 * m.direct account data (as the homeserver has it, PUT back when the bot
 * adds or drops a room), and the room table.
 *
 * Display names are cleaned (mx_format_clean_name: no control, bidi or
 * zero-width characters, no invalid UTF-8, no blanks at the ends, at most
 * MX_ID_MAX - 1 bytes cut at a character) and remembered in the kv
 * ("name:ROOM USER"), so a restart that resumes the sync, which does not
 * repeat old member events, still names players as they are named in the
 * room. A name that someone else in the room (a member, or a player
 * seated at its game) also has is shown as clients show it, "Ann
 * (@ann:example.org)", so seats and the pill of the player to move map to
 * one user. Not here: what events mean (mx_events.c).
 */
#include "mx_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mx_format.h"

#define KEY_MAX (2 * MX_ID_MAX + 16)

/* ---- The room table ------------------------------------------------------- */

mx_room *mx__room(mx_net *n, const char *id, bool create)
{
    for (int i = 0; i < n->rooms.n; i++)
        if (strcmp(n->rooms.all[i]->id, id) == 0)
            return n->rooms.all[i];
    if (!create || strlen(id) >= MX_ID_MAX || n->rooms.n == MX_ROOMS_MAX)
        return NULL;
    if (n->rooms.n == n->rooms.cap) {
        int cap = n->rooms.cap ? n->rooms.cap * 2 : 16;
        mx_room **p = realloc(n->rooms.all, (size_t)cap * sizeof *p);
        if (p == NULL)
            return NULL;
        n->rooms.all = p;
        n->rooms.cap = cap;
    }
    mx_room *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    snprintf(r->id, sizeof r->id, "%s", id);
    char key[KEY_MAX], value[8];
    snprintf(key, sizeof key, "said_encrypted:%s", id);
    r->said_encrypted = mx__kv_get(n, key, value, sizeof value) == 0;
    snprintf(key, sizeof key, "encrypted:%s", id);
    r->encrypted = r->said_encrypted || mx__kv_get(n, key, value, sizeof value) == 0;
    snprintf(key, sizeof key, "forbidden:%s", id);
    r->forbidden = mx__kv_get(n, key, value, sizeof value) == 0;
    n->rooms.all[n->rooms.n++] = r;
    return r;
}

static void room_free(mx_room *r)
{
    free(r->mods);
    free(r->members);
    free(r);
}

void mx__room_forget(mx_net *n, const char *id)
{
    for (int i = 0; i < n->rooms.n; i++) {
        mx_room *r = n->rooms.all[i];
        if (strcmp(r->id, id) != 0)
            continue;
        room_free(r);
        n->rooms.all[i] = n->rooms.all[--n->rooms.n];
        return;
    }
}

void mx__rooms_free(mx_net *n)
{
    for (int i = 0; i < n->rooms.n; i++)
        room_free(n->rooms.all[i]);
    free(n->rooms.all);
    n->rooms.all = NULL;
    n->rooms.n = n->rooms.cap = 0;
}

/* ---- Members ---------------------------------------------------------------- */

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

bool mx__member_set(mx_net *n, mx_room *r, const char *user, const char *name, char *was,
                    size_t was_cap)
{
    char clean[MX_ID_MAX], key[KEY_MAX], kept[MX_ID_MAX];
    if (was != NULL && was_cap > 0)
        was[0] = '\0';
    if (strlen(user) >= MX_ID_MAX)
        return false;
    (void)mx_format_clean_name(name != NULL ? name : "", clean, sizeof clean);
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
        m->invited = false;
    }
    name_key(key, sizeof key, r->id, user);
    bool known = m->name[0] != '\0';
    if (!known && mx__kv_get(n, key, kept, sizeof kept) == 0) {
        snprintf(m->name, sizeof m->name, "%s", kept);
        known = true;
    }
    if (was != NULL && was_cap > 0)
        snprintf(was, was_cap, "%s", m->name);
    if (strcmp(m->name, clean) == 0)
        return false;
    snprintf(m->name, sizeof m->name, "%s", clean);
    mx__kv_set(n, key, clean);
    return known && clean[0] != '\0';
}

void mx__member_invited(mx_room *r, const char *user, bool invited)
{
    mx_member *m = member_find(r, user);
    if (m != NULL)
        m->invited = invited;
}

void mx__member_remove(mx_room *r, const char *user)
{
    mx_member *m = member_find(r, user);
    if (m != NULL)
        *m = r->members[--r->nmembers];
}

void mx__base_name(mx_net *n, mx_room *r, const char *user, char *out, size_t cap)
{
    mx_member *m = r != NULL ? member_find(r, user) : NULL;
    char key[KEY_MAX], kept[MX_ID_MAX];
    if (m != NULL && m->name[0] != '\0') {
        snprintf(out, cap, "%s", m->name);
        return;
    }
    if (r != NULL && m == NULL) { /* a former member, or not read since a restart */
        name_key(key, sizeof key, r->id, user);
        if (mx__kv_get(n, key, kept, sizeof kept) == 0 &&
            mx_format_clean_name(kept, out, cap) > 0) /* kept by an older version, maybe */
            return;
    }
    const char *colon = strchr(user, ':');
    size_t len = colon != NULL ? (size_t)(colon - user) - 1 : strlen(user);
    if (user[0] != '@' || len == 0)
        snprintf(out, cap, "%s", user);
    else
        snprintf(out, cap, "%.*s", (int)len, user + 1);
}

/*
 * Whether someone else than user is called `name` in room r: a member of
 * the table, or a player seated at the room's game (the table is empty of
 * old members after a restart, the seats are not).
 */
static bool name_taken(mx_net *n, mx_room *r, const char *user, const char *name)
{
    char other[MX_ID_MAX];
    for (int i = 0; i < r->nmembers; i++) {
        if (strcmp(r->members[i].user, user) == 0)
            continue;
        mx__base_name(n, r, r->members[i].user, other, sizeof other);
        if (strcmp(other, name) == 0)
            return true;
    }
    host_player seats[8];
    int ns = 0;
    bool taken = false;
    if (host_room_players(n->env.host, n->c.name, r->id, seats, 8, &ns) == 1) {
        for (int i = 0; i < ns && !taken; i++) {
            if (strcmp(seats[i].id, user) == 0 || member_find(r, seats[i].id) != NULL)
                continue;
            mx__base_name(n, r, seats[i].id, other, sizeof other);
            taken = strcmp(other, name) == 0;
        }
    }
    return taken;
}

void mx__display_name(mx_net *n, mx_room *r, const char *user, char *out, size_t cap)
{
    char base[MX_ID_MAX];
    mx__base_name(n, r, user, base, sizeof base);
    if (r == NULL || strcmp(base, user) == 0 || !name_taken(n, r, user, base)) {
        snprintf(out, cap, "%s", base);
        return;
    }
    int k = snprintf(out, cap, "%s (%s)", base, user); /* as clients show a shared name */
    if (k < 0 || (size_t)k >= cap)
        snprintf(out, cap, "%s", user);
}

void mx__names_renamed(mx_net *n, mx_room *r, const char *user, const char *was, const char *now)
{
    char base[MX_ID_MAX], shown[MX_ID_MAX];
    for (int i = 0; i < r->nmembers; i++) {
        const char *who = r->members[i].user;
        mx__base_name(n, r, who, base, sizeof base);
        bool peer = (was[0] != '\0' && strcmp(base, was) == 0) ||
                    (now[0] != '\0' && strcmp(base, now) == 0);
        if (strcmp(who, user) == 0 ? was[0] == '\0' : !peer)
            continue;
        mx__display_name(n, r, who, shown, sizeof shown);
        if (host_rename(n->env.host, n->c.name, who, shown) != 0)
            log_msg(LOG_ERROR, "%s: %s", n->c.name, host_errmsg(n->env.host));
    }
}

/* ---- Room names ------------------------------------------------------------ */

void mx__room_name_take(mx_net *n, mx_room *r, json_object *content)
{
    char key[KEY_MAX];
    const char *name = mx__str(content, "name");
    (void)mx_format_clean_name(name != NULL ? name : "", r->name, sizeof r->name);
    snprintf(key, sizeof key, "roomname:%s", r->id);
    mx__kv_set(n, key, r->name);
}

void mx__room_alias_take(mx_net *n, mx_room *r, json_object *content)
{
    char key[KEY_MAX];
    const char *alias = mx__str(content, "alias");
    (void)mx_format_clean_name(alias != NULL ? alias : "", r->alias, sizeof r->alias);
    snprintf(key, sizeof key, "roomalias:%s", r->id);
    mx__kv_set(n, key, r->alias);
}

void mx__room_label(mx_net *n, const char *room, char *out, size_t cap)
{
    mx_room *r = mx__room(n, room, false);
    char key[KEY_MAX], kept[MX_ID_MAX];
    if (r != NULL && r->name[0] != '\0') {
        snprintf(out, cap, "%s", r->name);
        return;
    }
    snprintf(key, sizeof key, "roomname:%s", room);
    if (mx__kv_get(n, key, kept, sizeof kept) == 0 && kept[0] != '\0') {
        if (r != NULL)
            snprintf(r->name, sizeof r->name, "%s", kept);
        snprintf(out, cap, "%s", kept);
        return;
    }
    if (r != NULL && r->alias[0] != '\0') {
        snprintf(out, cap, "%s", r->alias);
        return;
    }
    snprintf(key, sizeof key, "roomalias:%s", room);
    if (mx__kv_get(n, key, kept, sizeof kept) == 0 && kept[0] != '\0') {
        if (r != NULL)
            snprintf(r->alias, sizeof r->alias, "%s", kept);
        snprintf(out, cap, "%s", kept);
        return;
    }
    snprintf(out, cap, "%s", room);
}

char *mx__room_names_in(mx_net *n, const char *text)
{
    size_t len = strlen(text), cap = len + 1, k = 0;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len;) {
        bool word = i == 0 || text[i - 1] == ' ' || text[i - 1] == '\n';
        size_t idl = text[i] == '!' && word ? strcspn(text + i, " \n,;)") : 0;
        /* after " in " ("Your hand in !abc:server"), or a heading: the id
           and a colon before a space or a line's end ("!abc:server: table
           ...", "#1 !abc:server: your turn"), or a comma ("#1 local
           !abc:server, under way") */
        bool in = i >= 4 && strncmp(text + i - 4, " in ", 4) == 0;
        bool heading =
            idl > 1 &&
            ((text[i + idl - 1] == ':' &&
              (text[i + idl] == ' ' || text[i + idl] == '\n' || text[i + idl] == '\0')) ||
             text[i + idl] == ',');
        if (!in && !heading)
            idl = 0;
        char id[MX_ID_MAX], label[MX_ID_MAX];
        while (idl > 0 && (text[i + idl - 1] == '.' || text[i + idl - 1] == ':'))
            idl--; /* the end of a sentence or a clause */
        if (idl > 0 && idl < sizeof id && memchr(text + i, ':', idl) != NULL) {
            memcpy(id, text + i, idl);
            id[idl] = '\0';
            mx__room_label(n, id, label, sizeof label);
            size_t ll = strlen(label);
            if (strcmp(label, id) != 0) { /* the label may be longer than the id */
                char *p = realloc(out, cap + ll);
                if (p == NULL) {
                    free(out);
                    return NULL;
                }
                out = p;
                cap += ll;
                memcpy(out + k, label, ll);
                k += ll;
                i += idl;
                continue;
            }
        }
        out[k++] = text[i++];
    }
    out[k] = '\0';
    return out;
}

/* ---- Power levels ---------------------------------------------------------- */

/* A power level in content[key] (an integer, or a numeric string as older
   rooms have them), else def. */
static long level_of(json_object *o, const char *key, long def)
{
    json_object *v;
    if (o == NULL || !json_object_object_get_ex(o, key, &v))
        return def;
    if (json_object_is_type(v, json_type_int))
        return (long)json_object_get_int64(v);
    if (json_object_is_type(v, json_type_string)) {
        char *end;
        const char *s = json_object_get_string(v);
        long l = strtol(s, &end, 10);
        return end != s && *end == '\0' ? l : def;
    }
    return def;
}

/* Appends " word" to the list b (len *k, MX_MODS_MAX); false when full. */
static bool mods_add(char *b, size_t *k, const char *word)
{
    size_t l = strlen(word);
    if (*k + l + 2 >= MX_MODS_MAX)
        return false;
    b[(*k)++] = ' ';
    memcpy(b + *k, word, l);
    *k += l;
    b[*k] = '\0';
    return true;
}

void mx__power_take(mx_net *n, mx_room *r, json_object *content)
{
    char *b = malloc(MX_MODS_MAX), key[KEY_MAX];
    if (b == NULL)
        return;
    long kick = level_of(content, "kick", 50), state = level_of(content, "state_default", 50);
    long need = kick > state ? kick : state;
    size_t k = 0;
    bool full = false;
    b[0] = '\0';
    if (need < 1)
        need = 1;
    if (level_of(content, "users_default", 0) >= need)
        full = !mods_add(b, &k, "*");
    json_object *users = mx__obj(content, "users");
    if (users != NULL) {
        json_object_object_foreach(users, user, lv)
        {
            (void)lv;
            if (!full && user[0] == '@' && level_of(users, user, 0) >= need)
                full = !mods_add(b, &k, user);
        }
    }
    if (full)
        log_msg(LOG_WARN, "%s: %s has too many moderators to keep them all", n->c.name, r->id);
    (void)mods_add(b, &k, "");
    free(r->mods);
    r->mods = b;
    snprintf(key, sizeof key, "mods:%s", r->id);
    mx__kv_set(n, key, b);
    if (r->forbidden)
        mx__forbidden_set(n, r, false);
}

/*
 * Reads a room's power levels when the bot has never seen them (a room
 * joined by a version of the bot whose sync filter left them out: the sync
 * sends state only when it changes). The answer goes to mx__on_power.
 */
static void power_fetch(mx_net *n, mx_room *r)
{
    char url[MX_URL_MAX], path[MX_URL_MAX], enc[3 * MX_ID_MAX];
    if (mx__call_find(n, MX_CALL_POWER, r->id, NULL) != NULL ||
        mx__enc(r->id, enc, sizeof enc) != 0 ||
        snprintf(path, sizeof path, "/rooms/%s/state/m.room.power_levels/", enc) >=
            (int)sizeof path ||
        mx__url(n, url, sizeof url, path) != 0)
        return;
    mx_call *c = mx__call_new(n, MX_CALL_POWER, "GET", url, NULL, true);
    if (c == NULL)
        return;
    snprintf(c->room, sizeof c->room, "%s", r->id);
    mx__call_go(n, c);
}

void mx__on_power(mx_net *n, mx_call *c, int status, json_object *body)
{
    mx_room *r = mx__room(n, c->room, false);
    if (status == 200 && r != NULL && body != NULL)
        mx__power_take(n, r, body);
    else if (status != 200)
        log_msg(LOG_WARN, "%s: cannot read the power levels of %s (HTTP %d)", n->c.name, c->room,
                status);
}

bool mx__is_moderator(mx_net *n, mx_room *r, const char *user)
{
    char key[KEY_MAX], word[MX_ID_MAX + 2];
    if (r->mods == NULL && (r->mods = malloc(MX_MODS_MAX)) != NULL) {
        snprintf(key, sizeof key, "mods:%s", r->id);
        if (mx__kv_get(n, key, r->mods, MX_MODS_MAX) != 0) {
            snprintf(r->mods, MX_MODS_MAX, " "); /* nobody, until they are read */
            power_fetch(n, r);
        }
    }
    if (r->mods == NULL || snprintf(word, sizeof word, " %s ", user) >= (int)sizeof word)
        return false;
    return strstr(r->mods, " * ") != NULL || strstr(r->mods, word) != NULL;
}

void mx__forbidden_set(mx_net *n, mx_room *r, bool on)
{
    char key[KEY_MAX];
    r->forbidden = on;
    snprintf(key, sizeof key, "forbidden:%s", r->id);
    mx__kv_set(n, key, on ? "1" : "");
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
    json_object *a = mx__arr(n->rooms.direct, user);
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
    if (mx__kv_get(n, key, user, cap) != 0 && n->rooms.direct != NULL) {
        json_object_object_foreach(n->rooms.direct, who, rooms)
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
    if (n->rooms.direct == NULL)
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
    const char *body = json_object_to_json_string_ext(n->rooms.direct, JSON_C_TO_STRING_PLAIN);
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
        array_index(mx__arr(n->rooms.direct, user), room) >= 0)
        return; /* known already */
    mx_room *known = mx__room(n, room, false);
    if (known != NULL && known->encrypted && n->e2e.olm == NULL) {
        log_msg(LOG_INFO, "%s: %s is encrypted: not a direct room for %s's hands", n->c.name, room,
                user);
        return; /* never a room for hands, even named by a later is_direct invite */
    }
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
    if (n->rooms.direct == NULL && (n->rooms.direct = json_object_new_object()) == NULL)
        return;
    json_object *a = mx__arr(n->rooms.direct, user);
    if (a == NULL) {
        a = json_object_new_array();
        if (a == NULL || json_object_object_add(n->rooms.direct, user, a) != 0) {
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
    json_object *a = mx__arr(n->rooms.direct, user);
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
    if (n->rooms.direct == NULL) {
        n->rooms.direct = copy;
        return;
    }
    json_object_object_foreach(n->rooms.direct, user, rooms)
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
    json_object_put(n->rooms.direct);
    n->rooms.direct = copy;
    if (missing)
        direct_put(n);
}
