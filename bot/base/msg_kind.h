/*
 * msg_kind.h — whom a queued message goes to: a room, or one player
 * privately. The store's outbox keeps it as a number, outq.h hands it to the
 * adapters, and an adapter picks its protocol's way of saying it from it;
 * the one enum is shared so that none of them needs the others' headers.
 * Not here: the messages themselves (store.h, outq.h).
 */
#ifndef PZ_MSG_KIND_H
#define PZ_MSG_KIND_H

typedef enum msg_kind {
    MSG_ROOM = 0,   /* to a channel/room */
    MSG_PRIVATE = 1 /* to one player privately */
} msg_kind;

#endif /* PZ_MSG_KIND_H */
