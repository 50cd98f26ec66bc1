/*
 * mx_e2ee_int.h — the bot as an end-to-end encryption device: its Olm
 * account and cross-signing (mx_e2ee.c), others' devices and Olm
 * sessions (mx_e2ee_devs.c), rooms' Megolm sessions (mx_e2ee_room.c).
 */
#ifndef PZ_MX_E2EE_INT_H
#define PZ_MX_E2EE_INT_H

#ifndef PZ_INSIDE_MX
#error "mx_e2ee_int.h is the Matrix adapter's inside: other layers include mx.h (ARCHITECTURE.md)"
#endif

#include "mx_crypto.h"
#include "mx_rooms_int.h"

typedef enum mx_xstep {
    MX_X_NONE,   /* not started */
    MX_X_UPLOAD, /* the cross-signing keys being uploaded */
    MX_X_SIGN,   /* the device's signature by the self-signing key being uploaded */
    MX_X_DONE,   /* the device is cross-signed */
    MX_X_FAILED, /* it could not be: encryption stays off */
} mx_xstep;

#define MX_E2E_KEY_MAX 64               /* bytes of a base64 curve25519/ed25519 key, NUL included */
#define MX_E2E_WAITS_MAX 64             /* encrypted events waiting for their room key */
#define MX_E2E_WAIT_MS (10 * 60 * 1000) /* how long one waits */
#define MX_E2E_QUERY_MAX 100            /* users in one /keys/query */
#define MX_E2E_SHARE_MAX 100            /* devices given a room key in one /sendToDevice */
#define MX_MEGOLM_MSGS 100              /* a room key encrypts this many events */
#define MX_MEGOLM_AGE_MS (7 * 86400000LL) /* or is this old (wall clock) */
#define MX_E2E_CLAIM_RETRY_MS 3600000     /* a device without keys to claim: tried again after */
#define MX_REPLAY_WINDOW 128 /* indexes of an inbound room key remembered against replays */

/* A device of another user, its keys' self-signature checked. */
typedef struct mx_dev {
    char user[MX_ID_MAX];
    char id[MX_ID_MAX];
    char curve[MX_E2E_KEY_MAX], ed[MX_E2E_KEY_MAX];
    int64_t claim_failed; /* loop time a claim found no key; 0 none */
} mx_dev;

/* What is known of a user's device list. */
typedef struct mx_kuser {
    char user[MX_ID_MAX];
    bool known; /* queried */
    bool stale; /* changed since (device_lists.changed) */
} mx_kuser;

/* An encrypted timeline event whose room key has not come yet. */
typedef struct mx_wait {
    json_object *ev; /* NULL: a free slot */
    char room[MX_ID_MAX];
    bool commands; /* may be a command (as its batch said) */
    int64_t since; /* loop time */
} mx_wait;

typedef struct mx_e2e {
    mx_olm *olm;                /* the device's Olm account; NULL: encryption off */
    char olm_device[MX_ID_MAX]; /* the device it belongs to */
    bool ready;           /* keys uploaded and the device cross-signed: encrypted rooms served */
    bool told_off;        /* the log said why encryption is off */
    bool uploading;       /* a /keys/upload on the wire */
    bool device_sent;     /* the device keys were uploaded in this run */
    int otks_server;      /* one-time keys the server holds; -1 unknown */
    bool fallback_unused; /* the server still has an unused fallback key (as the sync says) */
    bool fallback_known;  /* a sync said so, since the last upload */
    mx_xstep xstep;
    bool hold_sync; /* the first sync waits for the device to be ready (or off) */
    mx_dev *devs;
    int ndevs, devs_cap;
    mx_kuser *users;
    int nusers, users_cap;
    mx_wait waits[MX_E2E_WAITS_MAX];
} mx_e2e;

/* ---- mx_e2ee.c: the bot's device ---- */

/* After a log-in: the device's Olm account read from the store (or made)
   and its keys uploaded, then its cross-signing; or encryption off, with
   the reason logged once. */
void mx__e2ee_start(mx_net *n);
/* A sync batch's keys fields: one-time keys topped up, a new fallback key. */
void mx__e2ee_sync(mx_net *n, json_object *sync);
/* Handlers of KEYS_UPLOAD, XSIGN_UPLOAD and SIGS_UPLOAD calls. */
void mx__on_keys_upload(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_xsign_upload(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_sigs_upload(mx_net *n, mx_call *c, int status, json_object *body);
/* Frees the device's state. */
void mx__e2ee_free(mx_net *n);
/* Whether the first sync must wait for the device (n->e2e.hold_sync set then). */
bool mx__e2ee_hold_sync(mx_net *n);

/* ---- mx_e2ee_devs.c: others' devices, Olm sessions, to-device messages ---- */

/* The devices of user (signature-checked), at most cap into out; how many. */
int mx__e2ee_devices(mx_net *n, const char *user, mx_dev **out, int cap);
/* Whether user's device list is known and current; when not, a
   /keys/query is started (or is under way) for it. */
bool mx__e2ee_user_ready(mx_net *n, const char *user);
/* The to-device events and device_lists of a sync batch. */
void mx__e2ee_to_device(mx_net *n, json_object *sync);
/* Olm-encrypts payload (a JSON object, not consumed) for device d: the
   m.room.encrypted to-device content (new reference) after the session is
   saved; NULL when there is no session (kv) or it fails. */
json_object *mx__e2ee_olm_for(mx_net *n, const mx_dev *d, json_object *payload);
/* Whether there is an Olm session with device d. */
bool mx__e2ee_has_session(mx_net *n, const mx_dev *d);
/* Claims one-time keys of the devices given and makes Olm sessions
   (a KEYS_CLAIM call with room as its context). */
void mx__e2ee_claim(mx_net *n, const char *room, mx_dev **devs, int ndevs);
/* Handlers of KEYS_QUERY and KEYS_CLAIM calls. */
void mx__on_keys_query(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_keys_claim(mx_net *n, mx_call *c, int status, json_object *body);

/* ---- mx_e2ee_room.c: rooms' Megolm sessions ---- */

/*
 * Whether a message can be encrypted for room now: its members and their
 * devices known, its outbound session (rotated when due) shared with every
 * current device. When not, what is missing is asked for and 0 returned;
 * 1 ready.
 */
int mx__e2ee_room_ready(mx_net *n, mx_room *r);
/* The m.room.encrypted content (malloc'd JSON) of an event of type with
   content (JSON), the room's session saved first; NULL on failure. */
char *mx__e2ee_encrypt(mx_net *n, mx_room *r, const char *type, const char *content);
/*
 * A timeline m.room.encrypted event: its decryption (a new event object:
 * the same with the decrypted type and content), or NULL — unreadable
 * (logged), or waiting for its key (kept; commands: whether it may be a
 * command) until mx__e2ee_retry finds it readable.
 */
json_object *mx__e2ee_decrypt(mx_net *n, mx_room *r, json_object *ev, bool commands);
/* Tries the waiting events again (a key came): each readable one is
   handed to mx__event_decrypted. */
void mx__e2ee_retry(mx_net *n);
/* An m.room_key from sender's device (curve, claimed ed25519): kept. */
void mx__e2ee_room_key(mx_net *n, const char *sender, const char *curve, const char *ed,
                       json_object *content);
/* A room's m.room.history_visibility content: who the room key is for. */
void mx__e2ee_history(mx_room *r, json_object *content);
/*
 * An m.room_key.withheld to-device event: the sender's client will not
 * give the bot the key to their messages. They are told privately, in
 * their language, why and what to change, once per (sender, device, code)
 * (kv "mgw:USER|DEVICE|CODE"); logged.
 */
void mx__e2ee_withheld(mx_net *n, json_object *ev);
/* Handlers of TO_DEVICE and MEMBERS calls. */
void mx__on_to_device(mx_net *n, mx_call *c, int status, json_object *body);
void mx__on_members(mx_net *n, mx_call *c, int status, json_object *body);

#endif /* PZ_MX_E2EE_INT_H */
