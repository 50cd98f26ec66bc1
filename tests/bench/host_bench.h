/*
 * host_bench.h — `porrazo-bench --host`: the game host measured the way a
 * chat network uses it (host_bench.c). bench.c dispatches to it.
 */
#ifndef PZ_HOST_BENCH_H
#define PZ_HOST_BENCH_H

/*
 * Runs the host bench with argv[0] == "--host" and the options after it
 * (see host_bench.c or `porrazo-bench --host --help`). Returns the process
 * exit status: 0 measured (whatever the figures), 1 the host or the store
 * failed, 2 a usage error.
 */
int host_bench_main(int argc, char **argv);

#endif /* PZ_HOST_BENCH_H */
