/*
 * irc_wire_resolve.c — the resolver of irc_wire (see irc_wire.h and
 * irc_wire_int.h): an address literal is parsed at once (AI_NUMERICHOST);
 * a name is handed to getaddrinfo in a detached worker thread, with every
 * signal blocked, which writes one byte to a pipe the loop watches when it
 * is done. The loop never waits for a resolution.
 *
 * The request is shared and reference counted: a connection given up
 * while its name resolves (close, timeout, free) just lets go of it, and
 * the worker frees it when getaddrinfo returns, so irc_wire_close and
 * irc_wire_free never wait either. The pipe's read end lives as long as
 * the request, so the worker's write never meets EPIPE.
 *
 * (glibc's getaddrinfo_a with a polling timer was the other way. On this
 * glibc (2.36) it is not valgrind-clean: its idle helper threads leak
 * their resolver state at exit, its free_res frees uninitialised
 * pointers, and a request cancelled before it ran leaks its notification
 * list.) Not here: connecting, and what the addresses are used for.
 */
#include "irc_wire_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One resolution, shared by a wire and its worker: the last to let go frees it. */
struct wire_req {
    atomic_int refs; /* 2 while both hold it */
    atomic_int done; /* set by the worker once err, sys_errno and result are final */
    int pipe[2];     /* the worker writes a byte to [1] when done; the loop watches [0] */
    int err;         /* what getaddrinfo returned */
    int sys_errno;   /* errno, for EAI_SYSTEM */
    struct addrinfo hints;
    struct addrinfo *result;
    char host[WIRE_HOST_MAX];
    char service[WIRE_SERVICE_MAX];
};

/* Lets go of req; the last holder (wire or worker) frees it, with its result. */
static void req_release(wire_req *req)
{
    if (atomic_fetch_sub(&req->refs, 1) != 1)
        return;
    if (req->result != NULL)
        freeaddrinfo(req->result);
    close(req->pipe[0]);
    close(req->pipe[1]);
    free(req);
}

/*
 * The worker: getaddrinfo (blocking, as long as it takes), the outcome
 * published, a byte to the pipe, and its hold on req let go.
 */
static void *resolve_worker(void *arg)
{
    wire_req *req = arg;
    req->err = getaddrinfo(req->host, req->service, &req->hints, &req->result);
    req->sys_errno = req->err == EAI_SYSTEM ? errno : 0;
    atomic_store(&req->done, 1);
    ssize_t n;
    do
        n = write(req->pipe[1], "", 1); /* one byte into an empty pipe: it fits */
    while (n < 0 && errno == EINTR);
    req_release(req);
    return NULL;
}

/*
 * Starts the detached worker for req with every signal blocked in it (the
 * loop's thread keeps them all). 0 or an errno value.
 */
static int worker_start(wire_req *req)
{
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr);
    if (rc != 0)
        return rc;
    rc = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (rc == 0) {
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old); /* the worker inherits this mask */
        pthread_t thread;
        rc = pthread_create(&thread, &attr, resolve_worker, req);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    pthread_attr_destroy(&attr);
    return rc;
}

/* Resolves w->host in a worker watched by w->rio; on failure w->why says why. */
static void resolve_name(irc_wire *w, const struct addrinfo *hints, loop_io_cb on_done)
{
    wire_req *req = calloc(1, sizeof *req);
    if (req == NULL) {
        wire_fmt(w->why, sizeof w->why, "cannot resolve %s: out of memory", w->host);
        return;
    }
    if (pipe2(req->pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        wire_fmt(w->why, sizeof w->why, "cannot resolve %s: no pipe (%s)", w->host,
                 strerror(errno));
        free(req);
        return;
    }
    atomic_init(&req->refs, 2);
    atomic_init(&req->done, 0);
    req->hints = *hints;
    wire_fmt(req->host, sizeof req->host, "%s", w->host);          /* fits: same size */
    wire_fmt(req->service, sizeof req->service, "%s", w->service); /* fits: same size */
    loop_io_init(w->loop, &w->rio, req->pipe[0], on_done, w);
    int rc = loop_io_start(&w->rio, LOOP_READ);
    if (rc != 0) {
        wire_fmt(w->why, sizeof w->why, "cannot resolve %s: %s", w->host, loop_strerror(rc));
    } else if ((rc = worker_start(req)) != 0) {
        loop_io_stop(&w->rio);
        wire_fmt(w->why, sizeof w->why, "cannot resolve %s: no thread (%s)", w->host, strerror(rc));
    } else {
        w->req = req;
        return;
    }
    close(req->pipe[0]);
    close(req->pipe[1]);
    free(req);
}

/* Starts resolving w->host (irc_wire_int.h). */
void wire_resolve_start(irc_wire *w, loop_io_cb on_done)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_protocol = IPPROTO_TCP,
                             .ai_flags = AI_NUMERICSERV};
    if (!w->host_is_ip) {
        resolve_name(w, &hints, on_done);
        return;
    }
    hints.ai_flags |= AI_NUMERICHOST;
    int err = getaddrinfo(w->host, w->service, &hints, &w->addrs);
    if (err != 0) {
        w->addrs = NULL;
        wire_fmt(w->why, sizeof w->why, "cannot resolve %s: %s", w->host, gai_strerror(err));
    }
}

/* Whether the worker of w->req has finished (irc_wire_int.h). */
bool wire_resolve_done(const irc_wire *w)
{
    return w->req != NULL && atomic_load(&w->req->done) != 0;
}

/* Takes the finished worker's outcome (irc_wire_int.h). */
int wire_resolve_finish(irc_wire *w)
{
    wire_req *req = w->req;
    loop_io_stop(&w->rio);
    w->req = NULL;
    int rc = 0;
    if (req->err != 0) {
        wire_fmt(w->why, sizeof w->why, "cannot resolve %s: %s", w->host,
                 req->err == EAI_SYSTEM ? strerror(req->sys_errno) : gai_strerror(req->err));
        rc = -1;
    } else {
        w->addrs = req->result;
        req->result = NULL;
    }
    req_release(req);
    return rc;
}

/* Gives up a resolution under way, if any (irc_wire_int.h). */
void wire_resolve_stop(irc_wire *w)
{
    if (w->req == NULL)
        return;
    loop_io_stop(&w->rio);
    req_release(w->req); /* a worker still running frees it when done */
    w->req = NULL;
}
