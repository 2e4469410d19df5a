/*
 * A persistent pool of host threads for work split into numbered items (the
 * HAP packer's chunks): starting threads for every frame costs more than a
 * small frame's work, so the threads wait between jobs instead.
 */
#ifndef GJ_THREAD_POOL_H
#define GJ_THREAD_POOL_H

typedef struct gj_thread_pool gj_thread_pool;

/* A pool of `threads` threads in all, the caller of gj_thread_pool_run() being one
 * of them (threads - 1 are started; 1 or less starts none). */
int gj_thread_pool_create(gj_thread_pool **pool, int threads);
void gj_thread_pool_free(gj_thread_pool **pool);

/* The threads a job can run on, the caller's included. */
int gj_thread_pool_threads(const gj_thread_pool *pool);

/* Calls work(arg, i) once for every i in 0..n-1, on the pool's threads and the
 * caller's, and returns when all calls have returned. One job at a time. */
void gj_thread_pool_run(gj_thread_pool *pool, void (*work)(void *arg, int i), void *arg, int n);

#endif /* GJ_THREAD_POOL_H */
