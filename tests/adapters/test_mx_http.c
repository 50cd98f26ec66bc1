/*
 * test_mx_http.c — the Matrix adapter's HTTP client (adapters/matrix/mx_http.h)
 * against a real HTTP/1.1 server on 127.0.0.1: http_fixture.py, started
 * once for the whole run and killed at the end. Every request goes through
 * a real loop (bot/base/loop.h) on CLOCK_MONOTONIC and real sockets: methods,
 * paths, the Authorization header and JSON bodies as the server saw them;
 * statuses and Retry-After passed through; the body cap; refused, dropped
 * and timed-out connections; requests in flight together; cancelling from
 * anywhere; callbacks that start requests; freeing with requests in
 * flight; and other timers ticking while a long poll waits.
 *
 * Deadlines are generous (the suite runs under valgrind on a loaded
 * 2-core machine): a test waits seconds for what takes milliseconds, and
 * timing claims compare two measurements rather than one against a bound.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <json-c/json.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curl/curl.h>

#include "mx_http.h"

#define WATCHDOG_SECS 120 /* a test that hangs is killed by SIGALRM */
#define WAIT_MS 20000     /* the longest wait for a completion */
#define TOKEN "syt_cG9ycmF6bw_SeCrEtToKeN_0123"
#define URL_MAX 512

static pid_t server_pid = -1;
static int server_port;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* One test's loop and client; done counts callbacks of every request. */
typedef struct env {
    loop *l;
    mx_http *h;
    int done;
} env;

/* What a callback saw. */
typedef struct got {
    env *e;
    int calls;
    uint64_t id;
    int status;
    char *body;
    size_t body_len;
    int64_t retry_after_ms;
    char error[512];
    int64_t at_ms;      /* the loop's clock when called */
    int inside_request; /* called from inside mx_http_request */
    size_t active;      /* mx_http_active during the callback */
} got;

static int in_request; /* set while the tests are inside mx_http_request */

static void got_init(got *g, env *e)
{
    memset(g, 0, sizeof *g);
    g->e = e;
    g->retry_after_ms = -2;
}

static void got_fini(got *g)
{
    free(g->body);
    g->body = NULL;
}

/* The callback of most requests: copies the response into the got at arg. */
static void on_done(const mx_http_response *res, void *arg)
{
    got *g = arg;
    g->calls++;
    g->e->done++;
    g->id = res->id;
    g->status = res->status;
    free(g->body);
    g->body = malloc(res->body_len + 1);
    assert_non_null(g->body);
    assert_int_equal(res->body[res->body_len], '\0');
    memcpy(g->body, res->body, res->body_len + 1);
    g->body_len = res->body_len;
    g->retry_after_ms = res->retry_after_ms;
    assert_non_null(res->error);
    int n = snprintf(g->error, sizeof g->error, "%s", res->error);
    assert_true(n >= 0 && (size_t)n < sizeof g->error);
    g->at_ms = loop_now(g->e->l);
    g->inside_request = in_request;
    g->active = mx_http_active(g->e->h);
}

/* http://127.0.0.1:<port><path> into url[URL_MAX]. */
static void make_url(char *url, int port, const char *path)
{
    int n = snprintf(url, URL_MAX, "http://127.0.0.1:%d%s", port, path);
    assert_true(n > 0 && n < URL_MAX);
}

/* Set to make the next request ask for a connection of its own. */
static bool next_fresh;

/* Starts a request to the fixture; returns mx_http_request's result. */
static int try_start(env *e, const char *method, const char *path, const char *token,
                     const char *body, int64_t timeout_ms, mx_http_done_fn fn, void *arg,
                     uint64_t *id)
{
    char url[URL_MAX];
    make_url(url, server_port, path);
    mx_http_req req = {.method = method,
                       .url = url,
                       .token = token,
                       .body = body,
                       .timeout_ms = timeout_ms,
                       .fresh = next_fresh};
    next_fresh = false;
    in_request = 1;
    int rc = mx_http_request(e->h, &req, fn, arg, id);
    in_request = 0;
    return rc;
}

/* Starts a request whose callback is on_done(g); returns its id. */
static uint64_t start(env *e, const char *method, const char *path, const char *token,
                      const char *body, int64_t timeout_ms, got *g)
{
    uint64_t id = 0;
    assert_int_equal(try_start(e, method, path, token, body, timeout_ms, on_done, g, &id), 0);
    assert_true(id != 0);
    return id;
}

static void noop_timer(loop_timer *t, void *arg)
{
    (void)t;
    (void)arg;
}

/*
 * Runs e's loop until e->done reaches want or max_ms pass (a 20 ms
 * repeating timer keeps the loop from sleeping past the deadline).
 */
static void run_until(env *e, int want, int64_t max_ms)
{
    loop_timer guard;
    loop_timer_init(e->l, &guard, noop_timer, NULL);
    assert_int_equal(loop_timer_start(&guard, 20, 20), 0);
    int64_t end = loop_now(e->l) + max_ms;
    while (e->done < want && loop_now(e->l) < end)
        assert_true(loop_run_once(e->l, true) >= 0);
    loop_timer_stop(&guard);
}

/* Runs e's loop for ms milliseconds, whatever completes. */
static void run_for(env *e, int64_t ms)
{
    run_until(e, INT32_MAX, ms);
}

/* A JSON object parsed from a got's body (release with json_object_put). */
static json_object *parse(const got *g)
{
    json_object *o = json_tokener_parse(g->body);
    assert_non_null(o);
    return o;
}

/* The string member k of o; NULL when it is JSON null. */
static const char *jstr(json_object *o, const char *k)
{
    json_object *v = NULL;
    assert_true(json_object_object_get_ex(o, k, &v));
    return v != NULL ? json_object_get_string(v) : NULL;
}

/* A TCP port of 127.0.0.1 that nothing listens on (bound, then closed). */
static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

/* Whether s contains sub, ignoring ASCII case. */
static int has_text(const char *s, const char *sub)
{
    size_t n = strlen(sub);
    for (; *s != '\0'; s++) {
        size_t i = 0;
        while (i < n && s[i] != '\0' && (s[i] | 0x20) == (sub[i] | 0x20))
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

/* Whether s starts with prefix. */
static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ------------------------------------------------------------------------ */
/* Fixtures                                                                 */

/* Starts http_fixture.py and reads the port it prints. */
static int start_server(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(p[1], STDOUT_FILENO);
        close(p[0]);
        close(p[1]);
        execl(PZ_PYTHON3, PZ_PYTHON3, PZ_HTTP_FIXTURE, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    char line[32] = {0};
    size_t len = 0;
    struct pollfd pfd = {.fd = p[0], .events = POLLIN};
    while (len < sizeof line - 1 && memchr(line, '\n', len) == NULL) {
        if (poll(&pfd, 1, 30000) <= 0)
            break;
        ssize_t n = read(p[0], line + len, sizeof line - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(p[0]);
    char *end = NULL;
    long port = strtol(line, &end, 10);
    if (end == line || port <= 0 || port > 65535) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fprintf(stderr, "http_fixture.py did not start (read \"%s\")\n", line);
        return -1;
    }
    server_pid = pid;
    server_port = (int)port;
    return 0;
}

static int stop_server(void **state)
{
    (void)state;
    if (server_pid > 0) {
        kill(server_pid, SIGTERM);
        waitpid(server_pid, NULL, 0);
        server_pid = -1;
    }
    return 0;
}

/* A loop on CLOCK_MONOTONIC and a default client on it. */
static int env_setup(void **state)
{
    env *e = calloc(1, sizeof *e);
    assert_non_null(e);
    assert_int_equal(loop_new(&e->l, NULL, NULL), 0);
    char why[256] = "";
    assert_int_equal(mx_http_new(&e->h, e->l, NULL, why, sizeof why), 0);
    *state = e;
    alarm(WATCHDOG_SECS);
    return 0;
}

static int env_teardown(void **state)
{
    env *e = *state;
    alarm(0);
    mx_http_free(e->h);
    loop_free(e->l);
    free(e);
    return 0;
}

/* Replaces e's client by one with cfg. */
static void reconfigure(env *e, const mx_http_config *cfg)
{
    char why[256] = "";
    mx_http_free(e->h);
    e->h = NULL;
    assert_int_equal(mx_http_new(&e->h, e->l, cfg, why, sizeof why), 0);
}

/* ------------------------------------------------------------------------ */
/* What the server sees                                                     */

static void test_get_sends_the_token_only_as_a_bearer_header(void **state)
{
    env *e = *state;
    got g;
    got_init(&g, e);
    uint64_t id =
        start(e, "GET", "/echo/_matrix/client/v3/sync?since=s72&timeout=0", TOKEN, NULL, 0, &g);
    run_until(e, 1, WAIT_MS);
    assert_int_equal(g.calls, 1);
    assert_true(g.id == id);
    assert_int_equal(g.status, 200);
    assert_string_equal(g.error, "");
    assert_int_equal(g.retry_after_ms, -1);
    assert_false(g.inside_request);
    json_object *o = parse(&g);
    assert_string_equal(jstr(o, "method"), "GET");
    assert_string_equal(jstr(o, "path"), "/echo/_matrix/client/v3/sync?since=s72&timeout=0");
    assert_string_equal(jstr(o, "authorization"), "Bearer " TOKEN);
    assert_null(jstr(o, "content_type"));
    assert_string_equal(jstr(o, "body"), "");
    assert_null(strstr(jstr(o, "path"), TOKEN));
    assert_string_equal(jstr(o, "user_agent"), MX_HTTP_AGENT_DEFAULT);
    json_object_put(o);
    got_fini(&g);
}

static void test_put_post_and_delete_send_their_json_body_as_application_json(void **state)
{
    env *e = *state;
    static const char *const methods[] = {"PUT", "POST", "DELETE"};
    static const char body[] =
        "{\"msgtype\":\"m.text\",\"body\":\"10\xE2\x99\xA5 \\\"quoted\\\"\"}";
    got g[3];
    for (int i = 0; i < 3; i++) {
        got_init(&g[i], e);
        start(e, methods[i], "/echo/_matrix/client/v3/rooms/!r:example.org/send/m.room.message/t1",
              TOKEN, body, 0, &g[i]);
    }
    run_until(e, 3, WAIT_MS);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(g[i].calls, 1);
        assert_int_equal(g[i].status, 200);
        json_object *o = parse(&g[i]);
        assert_string_equal(jstr(o, "method"), methods[i]);
        assert_string_equal(jstr(o, "path"),
                            "/echo/_matrix/client/v3/rooms/!r:example.org/send/m.room.message/t1");
        assert_string_equal(jstr(o, "authorization"), "Bearer " TOKEN);
        assert_string_equal(jstr(o, "content_type"), "application/json");
        assert_string_equal(jstr(o, "body"), body);
        json_object_put(o);
        got_fini(&g[i]);
    }
}

static void test_a_request_without_token_or_body_has_no_authorization_nor_content_type(void **state)
{
    env *e = *state;
    got g;
    got_init(&g, e);
    start(e, "POST", "/echo/login", NULL, NULL, 0, &g);
    run_until(e, 1, WAIT_MS);
    assert_int_equal(g.status, 200);
    json_object *o = parse(&g);
    assert_string_equal(jstr(o, "method"), "POST");
    assert_null(jstr(o, "authorization"));
    assert_null(jstr(o, "content_type"));
    assert_string_equal(jstr(o, "body"), "");
    json_object_put(o);
    got_fini(&g);
}

static void test_the_configured_user_agent_is_sent(void **state)
{
    env *e = *state;
    mx_http_config cfg = {.user_agent = "porrazo-test/1.0 (matrix)"};
    reconfigure(e, &cfg);
    got g;
    got_init(&g, e);
    start(e, "GET", "/echo", NULL, NULL, 0, &g);
    run_until(e, 1, WAIT_MS);
    json_object *o = parse(&g);
    assert_string_equal(jstr(o, "user_agent"), "porrazo-test/1.0 (matrix)");
    json_object_put(o);
    got_fini(&g);
}

static void test_sequential_requests_reuse_one_connection(void **state)
{
    env *e = *state;
    got a, b;
    got_init(&a, e);
    got_init(&b, e);
    start(e, "GET", "/echo/1", TOKEN, NULL, 0, &a);
    run_until(e, 1, WAIT_MS);
    start(e, "GET", "/echo/2", TOKEN, NULL, 0, &b);
    run_until(e, 2, WAIT_MS);
    assert_int_equal(a.status, 200);
    assert_int_equal(b.status, 200);
    json_object *oa = parse(&a), *ob = parse(&b);
    assert_int_equal(json_object_get_int(json_object_object_get(oa, "client_port")),
                     json_object_get_int(json_object_object_get(ob, "client_port")));
    json_object_put(oa);
    json_object_put(ob);
    got_fini(&a);
    got_fini(&b);
}

/* The client port the fixture saw for g's request. */
static int client_port(got *g)
{
    json_object *o = parse(g);
    int port = json_object_get_int(json_object_object_get(o, "client_port"));
    json_object_put(o);
    return port;
}

static void test_a_fresh_request_gets_a_connection_of_its_own_never_reused(void **state)
{
    env *e = *state;
    got a, b, c;
    got_init(&a, e);
    got_init(&b, e);
    got_init(&c, e);
    start(e, "GET", "/echo/1", TOKEN, NULL, 0, &a);
    run_until(e, 1, WAIT_MS);
    next_fresh = true;
    start(e, "POST", "/echo/2", TOKEN, "{}", 0, &b);
    run_until(e, 2, WAIT_MS);
    start(e, "GET", "/echo/3", TOKEN, NULL, 0, &c);
    run_until(e, 3, WAIT_MS);
    assert_int_equal(a.status, 200);
    assert_int_equal(b.status, 200);
    assert_int_equal(c.status, 200);
    /* b did not take a's kept-alive connection, and c did not take b's. */
    assert_int_not_equal(client_port(&a), client_port(&b));
    assert_int_not_equal(client_port(&b), client_port(&c));
    got_fini(&a);
    got_fini(&b);
    got_fini(&c);
}

/* ------------------------------------------------------------------------ */
/* Statuses and Retry-After                                                 */

static void test_status_codes_and_their_bodies_are_passed_through(void **state)
{
    env *e = *state;
    static const int codes[] = {200, 401, 404, 500, 302};
    static const char *const paths[] = {"/status/200", "/status/401", "/status/404", "/status/500",
                                        "/status/302?location=http://example.org/"};
    got g[5];
    for (int i = 0; i < 5; i++) {
        got_init(&g[i], e);
        start(e, "GET", paths[i], TOKEN, NULL, 0, &g[i]);
    }
    run_until(e, 5, WAIT_MS);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(g[i].calls, 1);
        assert_int_equal(g[i].status, codes[i]); /* 302: not followed */
        assert_string_equal(g[i].error, "");
        char want[64];
        snprintf(want, sizeof want, "{\"errcode\": \"M_TEST\", \"status\": %d}", codes[i]);
        assert_string_equal(g[i].body, want);
        assert_int_equal(g[i].body_len, strlen(want));
        assert_int_equal(g[i].retry_after_ms, -1);
        got_fini(&g[i]);
    }
}

static void test_retry_after_in_seconds_is_given_in_milliseconds(void **state)
{
    env *e = *state;
    got g, z;
    got_init(&g, e);
    got_init(&z, e);
    start(e, "GET", "/status/429?retry_after=3", TOKEN, NULL, 0, &g);
    start(e, "GET", "/status/503?retry_after=0", TOKEN, NULL, 0, &z);
    run_until(e, 2, WAIT_MS);
    assert_int_equal(g.status, 429);
    assert_int_equal(g.retry_after_ms, 3000);
    assert_int_equal(z.status, 503);
    assert_int_equal(z.retry_after_ms, 0);
    got_fini(&g);
    got_fini(&z);
}

static void test_retry_after_as_an_http_date_is_counted_from_now(void **state)
{
    env *e = *state;
    got ahead, past;
    got_init(&ahead, e);
    got_init(&past, e);
    start(e, "GET", "/status/429?retry_in=30", TOKEN, NULL, 0, &ahead);
    start(e, "GET", "/status/429?retry_in=-30", TOKEN, NULL, 0, &past);
    run_until(e, 2, WAIT_MS);
    assert_int_equal(ahead.status, 429);
    /* 30 s ahead, to the second, minus however long the reply took */
    assert_in_range(ahead.retry_after_ms, 30000 - 1000 - WAIT_MS, 31000);
    assert_true(ahead.retry_after_ms % 1000 == 0);
    assert_int_equal(past.retry_after_ms, 0);
    got_fini(&ahead);
    got_fini(&past);
}

static void test_retry_after_absent_or_garbage_is_minus_one(void **state)
{
    env *e = *state;
    static const char *const paths[] = {
        "/status/429",
        "/status/429?retry_after=soon",
        "/status/429?retry_after=-5",
        "/status/429?retry_after=1.5",
        "/status/429?retry_after=99999999999",
        "/status/429?retry_after=Sun,%2006%20Nov%20nonsense",
        "/status/429?retry_after=" /* an empty value */,
    };
    enum { N = sizeof paths / sizeof paths[0] };
    got g[N];
    for (int i = 0; i < N; i++) {
        got_init(&g[i], e);
        start(e, "GET", paths[i], TOKEN, NULL, 0, &g[i]);
    }
    run_until(e, N, WAIT_MS);
    for (int i = 0; i < N; i++) {
        assert_int_equal(g[i].status, 429);
        assert_int_equal(g[i].retry_after_ms, -1);
        got_fini(&g[i]);
    }
}

/* ------------------------------------------------------------------------ */
/* Failures without a response                                              */

static void test_a_body_over_the_cap_fails_cleanly_and_the_client_goes_on(void **state)
{
    env *e = *state;
    mx_http_config cfg = {.max_body = 2000};
    reconfigure(e, &cfg);
    got exact, over, chunked, after;
    got_init(&exact, e);
    got_init(&over, e);
    got_init(&chunked, e);
    got_init(&after, e);
    start(e, "GET", "/big?n=2000", NULL, NULL, 0, &exact);
    start(e, "GET", "/big?n=2001", NULL, NULL, 0, &over);
    start(e, "GET", "/big?n=50000&chunked=1", NULL, NULL, 0, &chunked);
    run_until(e, 3, WAIT_MS);
    assert_int_equal(exact.status, 200);
    assert_int_equal(exact.body_len, 2000);
    assert_int_equal(exact.body[1999], 'x');
    assert_int_equal(over.status, 0);
    assert_string_equal(over.error, "the response body is larger than 2000 bytes");
    assert_string_equal(over.body, "");
    assert_int_equal(over.body_len, 0);
    assert_int_equal(chunked.status, 0); /* no Content-Length: caught while reading */
    assert_string_equal(chunked.error, "the response body is larger than 2000 bytes");
    assert_int_equal(chunked.retry_after_ms, -1);
    start(e, "GET", "/echo", NULL, NULL, 0, &after);
    run_until(e, 4, WAIT_MS);
    assert_int_equal(after.status, 200);
    got_fini(&exact);
    got_fini(&over);
    got_fini(&chunked);
    got_fini(&after);
}

static void test_a_refused_connection_gives_status_0_and_a_sentence(void **state)
{
    env *e = *state;
    char url[URL_MAX];
    make_url(url, closed_port(), "/_matrix/client/versions");
    mx_http_req req = {.method = "GET", .url = url, .token = TOKEN};
    got g;
    got_init(&g, e);
    in_request = 1;
    assert_int_equal(mx_http_request(e->h, &req, on_done, &g, NULL), 0);
    in_request = 0;
    assert_int_equal(g.calls, 0); /* never from inside mx_http_request */
    run_until(e, 1, WAIT_MS);
    assert_int_equal(g.calls, 1);
    assert_false(g.inside_request);
    assert_int_equal(g.status, 0);
    assert_true(starts_with(g.error, curl_easy_strerror(CURLE_COULDNT_CONNECT)));
    assert_true(has_text(g.error, "127.0.0.1")); /* curl's detail follows */
    assert_null(strstr(g.error, TOKEN));
    assert_string_equal(g.body, "");
    assert_int_equal(g.retry_after_ms, -1);
    got_fini(&g);
}

static void test_a_connection_dropped_mid_response_gives_status_0(void **state)
{
    env *e = *state;
    got drop, hangup;
    got_init(&drop, e);
    got_init(&hangup, e);
    start(e, "GET", "/drop", TOKEN, NULL, 0, &drop);
    start(e, "POST", "/hangup", TOKEN, "{}", 0, &hangup);
    run_until(e, 2, WAIT_MS);
    assert_int_equal(drop.status, 0);
    assert_true(starts_with(drop.error, curl_easy_strerror(CURLE_PARTIAL_FILE)));
    assert_string_equal(drop.body, ""); /* the 10 bytes that came are not a body */
    assert_int_equal(hangup.status, 0);
    assert_true(starts_with(hangup.error, curl_easy_strerror(CURLE_GOT_NOTHING)));
    assert_null(strstr(drop.error, TOKEN));
    assert_null(strstr(hangup.error, TOKEN));
    got_fini(&drop);
    got_fini(&hangup);
}

static void test_a_response_slower_than_the_timeout_fails_with_a_timeout_message(void **state)
{
    env *e = *state;
    got g;
    got_init(&g, e);
    int64_t t0 = loop_now(e->l);
    start(e, "GET", "/slow?ms=5000", TOKEN, NULL, 500, &g);
    run_until(e, 1, WAIT_MS);
    assert_int_equal(g.calls, 1);
    assert_int_equal(g.status, 0);
    assert_true(starts_with(g.error, curl_easy_strerror(CURLE_OPERATION_TIMEDOUT)));
    assert_true(has_text(g.error, "timed out after"));
    assert_true(g.at_ms - t0 >= 500);
    assert_true(g.at_ms - t0 < 4500); /* well before the server would have answered */
    got_fini(&g);
}

/* ------------------------------------------------------------------------ */
/* Concurrency, cancelling, callbacks                                       */

static void test_a_slow_long_poll_does_not_delay_a_quick_request(void **state)
{
    env *e = *state;
    got slow, quick;
    got_init(&slow, e);
    got_init(&quick, e);
    int64_t t0 = loop_now(e->l);
    start(e, "GET", "/slow?ms=1500", TOKEN, NULL, 31500, &slow);
    start(e, "GET", "/echo/quick", TOKEN, NULL, 0, &quick);
    run_until(e, 2, WAIT_MS);
    assert_int_equal(slow.status, 200);
    assert_int_equal(quick.status, 200);
    assert_true(slow.at_ms - t0 >= 1500);
    assert_true(quick.at_ms < slow.at_ms);
    assert_true(quick.at_ms - t0 < slow.at_ms - t0);
    assert_int_equal(quick.active, 1); /* the long poll was still live */
    assert_int_equal(slow.active, 0);
    got_fini(&slow);
    got_fini(&quick);
}

static void test_many_requests_in_flight_complete_independently(void **state)
{
    env *e = *state;
    enum { N = 8 };
    got g[N];
    uint64_t ids[N];
    char path[64];
    for (int i = 0; i < N; i++) {
        got_init(&g[i], e);
        if (i % 2 == 0)
            snprintf(path, sizeof path, "/slow?ms=%d", (N - i) * 60);
        else
            snprintf(path, sizeof path, "/status/%d", 400 + i);
        ids[i] = start(e, "GET", path, TOKEN, NULL, 0, &g[i]);
    }
    assert_int_equal(mx_http_active(e->h), N);
    run_until(e, N, WAIT_MS);
    assert_int_equal(mx_http_active(e->h), 0);
    for (int i = 0; i < N; i++) {
        assert_int_equal(g[i].calls, 1);
        assert_true(g[i].id == ids[i]);
        if (i % 2 == 0) {
            char want[32];
            snprintf(want, sizeof want, "{\"slept\": %d}", (N - i) * 60);
            assert_int_equal(g[i].status, 200);
            assert_string_equal(g[i].body, want);
        } else {
            assert_int_equal(g[i].status, 400 + i);
        }
        got_fini(&g[i]);
    }
}

static void test_a_cancelled_request_is_never_called_back(void **state)
{
    env *e = *state;
    got cancelled, sent, other;
    got_init(&cancelled, e);
    got_init(&sent, e);
    got_init(&other, e);
    uint64_t a = start(e, "GET", "/slow?ms=300", TOKEN, NULL, 0, &cancelled);
    mx_http_cancel(e->h, a); /* before it was even sent */
    uint64_t b = start(e, "GET", "/slow?ms=400", TOKEN, NULL, 0, &sent);
    start(e, "GET", "/echo", TOKEN, NULL, 0, &other);
    assert_int_equal(mx_http_active(e->h), 2);
    run_for(e, 150); /* b is on the wire now */
    mx_http_cancel(e->h, b);
    mx_http_cancel(e->h, b);     /* twice: nothing */
    mx_http_cancel(e->h, 99999); /* unknown: nothing */
    run_for(e, 1000);
    assert_int_equal(cancelled.calls, 0);
    assert_int_equal(sent.calls, 0);
    assert_int_equal(other.calls, 1);
    assert_int_equal(other.status, 200);
    assert_int_equal(mx_http_active(e->h), 0);
    got_fini(&other);
}

/* A callback that cancels the request whose id is at cancel_id, and its own. */
typedef struct canceller {
    got g;
    uint64_t *victim;
} canceller;

static void on_done_cancel(const mx_http_response *res, void *arg)
{
    canceller *c = arg;
    size_t before = mx_http_active(c->g.e->h);
    mx_http_cancel(c->g.e->h, res->id); /* its own: already delivered, nothing */
    assert_int_equal(mx_http_active(c->g.e->h), before);
    mx_http_cancel(c->g.e->h, *c->victim);
    assert_int_equal(mx_http_active(c->g.e->h), before - 1);
    on_done(res, &c->g);
}

static void test_a_callback_may_cancel_a_request_that_ended_at_the_same_time(void **state)
{
    env *e = *state;
    /* Two requests with the same timeout expire together: usually in one go. */
    canceller a = {.victim = NULL}, b = {.victim = NULL};
    got_init(&a.g, e);
    got_init(&b.g, e);
    uint64_t ida = 0, idb = 0;
    a.victim = &idb;
    b.victim = &ida;
    assert_int_equal(
        try_start(e, "GET", "/slow?ms=3000", TOKEN, NULL, 400, on_done_cancel, &a, &ida), 0);
    assert_int_equal(
        try_start(e, "GET", "/slow?ms=3000", TOKEN, NULL, 400, on_done_cancel, &b, &idb), 0);
    run_until(e, 1, WAIT_MS);
    run_for(e, 500);
    assert_int_equal(a.g.calls + b.g.calls, 1); /* whichever came first silenced the other */
    assert_int_equal(a.g.calls == 1 ? a.g.status : b.g.status, 0);
    assert_int_equal(mx_http_active(e->h), 0);
    got_fini(&a.g);
    got_fini(&b.g);
}

/* Starts the next link of a chain of requests from each callback. */
typedef struct chain {
    env *e;
    int links;    /* callbacks so far */
    int in_order; /* links whose echoed path was the one expected */
} chain;

static void on_done_chain(const mx_http_response *res, void *arg)
{
    chain *c = arg;
    c->e->done++;
    assert_int_equal(res->status, 200);
    char want[64];
    snprintf(want, sizeof want, "/echo/chain/%d", c->links);
    json_object *o = json_tokener_parse(res->body);
    assert_non_null(o);
    if (strcmp(jstr(o, "path"), want) == 0)
        c->in_order++;
    json_object_put(o);
    c->links++;
    if (c->links < 5) {
        snprintf(want, sizeof want, "/echo/chain/%d", c->links);
        assert_int_equal(try_start(c->e, "POST", want, TOKEN, "{}", 0, on_done_chain, c, NULL), 0);
        assert_int_equal(mx_http_active(c->e->h), 1);
    }
}

static void test_callbacks_may_start_new_requests(void **state)
{
    env *e = *state;
    chain c = {.e = e};
    assert_int_equal(try_start(e, "GET", "/echo/chain/0", TOKEN, NULL, 0, on_done_chain, &c, NULL),
                     0);
    run_until(e, 5, WAIT_MS);
    assert_int_equal(c.links, 5);
    assert_int_equal(c.in_order, 5);
    assert_int_equal(mx_http_active(e->h), 0);
}

static void test_freeing_with_requests_in_flight_calls_nothing_back(void **state)
{
    env *e = *state;
    got g[4];
    for (int i = 0; i < 4; i++)
        got_init(&g[i], e);
    start(e, "GET", "/slow?ms=2000", TOKEN, NULL, 0, &g[0]);
    start(e, "PUT", "/slow?ms=2000", TOKEN, "{\"a\":1}", 0, &g[1]);
    run_for(e, 300);                                         /* both on the wire, waiting */
    start(e, "GET", "/slow?ms=2000", TOKEN, NULL, 0, &g[2]); /* not yet sent */
    start(e, "GET", "/echo", TOKEN, NULL, 0, &g[3]);
    mx_http_free(e->h);
    e->h = NULL;
    run_for(e, 300); /* the loop goes on without the client's handles */
    for (int i = 0; i < 4; i++)
        assert_int_equal(g[i].calls, 0);
}

/* Counts the ticks of a repeating timer. */
static void count_tick(loop_timer *t, void *arg)
{
    (void)t;
    (*(int *)arg)++;
}

static void test_other_timers_keep_running_while_a_long_poll_waits(void **state)
{
    env *e = *state;
    int ticks = 0;
    loop_timer t;
    loop_timer_init(e->l, &t, count_tick, &ticks);
    assert_int_equal(loop_timer_start(&t, 100, 100), 0);
    got g;
    got_init(&g, e);
    int64_t t0 = loop_now(e->l);
    start(e, "GET", "/slow?ms=1500", TOKEN, NULL, 31500, &g);
    run_until(e, 1, WAIT_MS);
    loop_timer_stop(&t);
    assert_int_equal(g.status, 200);
    int64_t waited = g.at_ms - t0;
    assert_true(waited >= 1500);
    /* one tick per 100 ms of the wait, give or take a loaded machine */
    assert_true(ticks >= 8);
    assert_true(ticks <= waited / 100 + 1);
    got_fini(&g);
}

static void test_the_request_cap_is_enforced(void **state)
{
    env *e = *state;
    char url[URL_MAX];
    make_url(url, closed_port(), "/");
    mx_http_req req = {.method = "GET", .url = url};
    got g;
    got_init(&g, e);
    for (int i = 0; i < MX_HTTP_REQUESTS_MAX; i++)
        assert_int_equal(mx_http_request(e->h, &req, on_done, &g, NULL), 0);
    uint64_t id = 77;
    assert_int_equal(mx_http_request(e->h, &req, on_done, &g, &id), MX_HTTP_ETOO_MANY);
    assert_true(id == 77);
    assert_int_equal(mx_http_active(e->h), MX_HTTP_REQUESTS_MAX);
    mx_http_free(e->h); /* all of them cancelled, none called */
    e->h = NULL;
    assert_int_equal(g.calls, 0);
}

static void noop_io(loop_io *w, int fd, unsigned events, void *arg)
{
    (void)w;
    (void)fd;
    (void)events;
    (void)arg;
}

static void test_a_loop_without_room_for_the_socket_fails_the_request_cleanly(void **state)
{
    env *e = *state;
    /* Fill the loop's fd table with paused watchers of fds that are not open. */
    loop_io *fake = calloc(LOOP_FDS_MAX, sizeof *fake);
    assert_non_null(fake);
    for (int i = 0; i < LOOP_FDS_MAX; i++) {
        loop_io_init(e->l, &fake[i], 100000 + i, noop_io, NULL);
        assert_int_equal(loop_io_start(&fake[i], 0), 0);
    }
    got g, after;
    got_init(&g, e);
    got_init(&after, e);
    start(e, "GET", "/echo", TOKEN, NULL, 0, &g);
    run_until(e, 1, WAIT_MS);
    assert_int_equal(g.calls, 1);
    assert_int_equal(g.status, 0);
    char want[256];
    snprintf(want, sizeof want, "the event loop could not watch the connection: %s",
             loop_strerror(LOOP_EFDS_FULL));
    assert_string_equal(g.error, want);
    assert_int_equal(mx_http_active(e->h), 0);
    for (int i = 0; i < LOOP_FDS_MAX; i++)
        loop_io_stop(&fake[i]);
    free(fake);
    start(e, "GET", "/echo", TOKEN, NULL, 0, &after); /* room again: it works */
    run_until(e, 2, WAIT_MS);
    assert_int_equal(after.status, 200);
    got_fini(&g);
    got_fini(&after);
}

static void test_a_missing_ca_file_fails_https_requests_with_a_reason(void **state)
{
    env *e = *state;
    mx_http_config cfg = {.ca_file = "/nonexistent/porrazo-ca.pem"};
    reconfigure(e, &cfg);
    char url[URL_MAX];
    int n = snprintf(url, sizeof url, "https://127.0.0.1:%d/echo", server_port);
    assert_true(n > 0 && (size_t)n < sizeof url);
    mx_http_req req = {.method = "GET", .url = url, .token = TOKEN};
    got g;
    got_init(&g, e);
    assert_int_equal(mx_http_request(e->h, &req, on_done, &g, NULL), 0);
    run_until(e, 1, WAIT_MS);
    assert_int_equal(g.calls, 1);
    assert_int_equal(g.status, 0);
    assert_true(g.error[0] != '\0');
    assert_null(strstr(g.error, TOKEN));
    got_fini(&g);
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                 */

static void test_bad_requests_are_refused_with_nothing_started(void **state)
{
    env *e = *state;
    mx_http_config cfg = {.max_body = 100};
    reconfigure(e, &cfg);
    char url[URL_MAX], with_token[URL_MAX];
    make_url(url, server_port, "/echo");
    make_url(with_token, server_port, "/echo?access_token=" TOKEN);
    char big[128];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    const mx_http_req bad[] = {
        {.method = "PATCH", .url = url},
        {.method = "get", .url = url},
        {.method = NULL, .url = url},
        {.method = "GET", .url = NULL},
        {.method = "GET", .url = "ftp://127.0.0.1/"},
        {.method = "GET", .url = "/echo"},
        {.method = "GET", .url = "http://127.0.0.1/a b"},
        {.method = "GET", .url = with_token, .token = TOKEN},
        {.method = "GET", .url = url, .token = "two words"},
        {.method = "GET", .url = url, .token = "tok\r\nX-Evil: 1"},
        {.method = "GET", .url = url, .body = "{}"},
        {.method = "POST", .url = url, .body = big},
        {.method = "GET", .url = url, .timeout_ms = -1},
        {.method = "GET", .url = url, .timeout_ms = MX_HTTP_TIMEOUT_MS_LIMIT + 1},
    };
    got g;
    got_init(&g, e);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t id = 5;
        assert_int_equal(mx_http_request(e->h, &bad[i], on_done, &g, &id), MX_HTTP_EINVAL);
        assert_true(id == 5);
    }
    mx_http_req ok = {.method = "GET", .url = url};
    assert_int_equal(mx_http_request(e->h, &ok, NULL, NULL, NULL), MX_HTTP_EINVAL);
    assert_int_equal(mx_http_request(e->h, NULL, on_done, &g, NULL), MX_HTTP_EINVAL);
    assert_int_equal(mx_http_active(e->h), 0);
    run_for(e, 200);
    assert_int_equal(g.calls, 0);
    /* a body of exactly the cap is fine */
    big[100] = '\0';
    mx_http_req at_cap = {.method = "POST", .url = url, .body = big};
    assert_int_equal(mx_http_request(e->h, &at_cap, on_done, &g, NULL), 0);
    run_until(e, 1, WAIT_MS);
    assert_int_equal(g.status, 0); /* the echo (JSON around 100 bytes) is over the cap */
    assert_string_equal(g.error, "the response body is larger than 100 bytes");
    got_fini(&g);
}

static void test_a_bad_configuration_is_refused_with_a_reason(void **state)
{
    env *e = *state;
    const mx_http_config bad[] = {
        {.user_agent = "bot\r\nX-Evil: 1"},
        {.max_body = MX_HTTP_BODY_MAX_LIMIT + 1},
        {.connect_timeout_ms = -1},
        {.connect_timeout_ms = MX_HTTP_TIMEOUT_MS_LIMIT + 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mx_http *h = (mx_http *)&bad; /* any non-NULL marker */
        char why[256] = "";
        assert_int_equal(mx_http_new(&h, e->l, &bad[i], why, sizeof why), MX_HTTP_EINVAL);
        assert_true(h == (mx_http *)&bad);
        assert_true(why[0] != '\0');
    }
    mx_http *h = NULL;
    assert_int_equal(mx_http_new(&h, NULL, NULL, NULL, 0), MX_HTTP_EINVAL);
    assert_null(h);
}

static void test_every_error_code_has_a_message(void **state)
{
    (void)state;
    assert_string_equal(mx_http_strerror(0), "ok");
    assert_string_equal(mx_http_strerror(1), "unknown error");
    assert_string_equal(mx_http_strerror(-100), "unknown error");
#define CHECK_(name, val, msg)                                                                     \
    assert_string_equal(mx_http_strerror(MX_HTTP_E##name), msg);                                   \
    assert_true(strlen(msg) > 10);
    MX_HTTP_ERRNO_MAP(CHECK_)
#undef CHECK_
}

#define T(name) cmocka_unit_test_setup_teardown(name, env_setup, env_teardown)

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        T(test_get_sends_the_token_only_as_a_bearer_header),
        T(test_put_post_and_delete_send_their_json_body_as_application_json),
        T(test_a_request_without_token_or_body_has_no_authorization_nor_content_type),
        T(test_the_configured_user_agent_is_sent),
        T(test_sequential_requests_reuse_one_connection),
        T(test_a_fresh_request_gets_a_connection_of_its_own_never_reused),
        T(test_status_codes_and_their_bodies_are_passed_through),
        T(test_retry_after_in_seconds_is_given_in_milliseconds),
        T(test_retry_after_as_an_http_date_is_counted_from_now),
        T(test_retry_after_absent_or_garbage_is_minus_one),
        T(test_a_body_over_the_cap_fails_cleanly_and_the_client_goes_on),
        T(test_a_refused_connection_gives_status_0_and_a_sentence),
        T(test_a_connection_dropped_mid_response_gives_status_0),
        T(test_a_response_slower_than_the_timeout_fails_with_a_timeout_message),
        T(test_a_slow_long_poll_does_not_delay_a_quick_request),
        T(test_many_requests_in_flight_complete_independently),
        T(test_a_cancelled_request_is_never_called_back),
        T(test_a_callback_may_cancel_a_request_that_ended_at_the_same_time),
        T(test_callbacks_may_start_new_requests),
        T(test_freeing_with_requests_in_flight_calls_nothing_back),
        T(test_other_timers_keep_running_while_a_long_poll_waits),
        T(test_the_request_cap_is_enforced),
        T(test_a_loop_without_room_for_the_socket_fails_the_request_cleanly),
        T(test_a_missing_ca_file_fails_https_requests_with_a_reason),
        T(test_bad_requests_are_refused_with_nothing_started),
        T(test_a_bad_configuration_is_refused_with_a_reason),
        T(test_every_error_code_has_a_message),
    };
    return cmocka_run_group_tests(tests, start_server, stop_server);
}
