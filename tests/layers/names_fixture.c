/*
 * names_fixture.c — a library named wrong on purpose, for the test of
 * tests/layers/names.cmake: one global of the host's inside (host__), one
 * of host.h (host_free), and three the check must name: an old file
 * prefix, a host_ that host.h does not declare, a variable. A static
 * function is the file's own and must not be named.
 */
struct host;
void host_free(struct host *h);
int host__fixture_inside(int n);
int hs_fixture_seat(int n);
int host_fixture_hidden(int n);
extern int robot_fixture_count;

int robot_fixture_count;

/* Twice n: the file's own helper. */
static int twice(int n)
{
    return 2 * n;
}

/* Nothing to free: a name only. */
void host_free(struct host *h)
{
    (void)h;
}

/* The inside's name: twice n. */
int host__fixture_inside(int n)
{
    return twice(n);
}

/* Named as before the host__ rule: n plus the count. */
int hs_fixture_seat(int n)
{
    return n + robot_fixture_count;
}

/* host_ but not in host.h: n, counted. */
int host_fixture_hidden(int n)
{
    robot_fixture_count++;
    return n;
}
